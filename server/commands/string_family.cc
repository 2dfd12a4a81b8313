// Strings: GET, SET, INCR/DECR/INCRBY/DECRBY, MSET, MGET.

#include <climits>

#include "protocol/number.h"
#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/errors.h"
#include "server/strings.h"

namespace kv {
namespace {

// Redis reads SET options as C strings: a NUL byte ends one ("nx\0..." is NX).
bool Is(std::string_view arg, std::string_view word) {
  return EqualsIgnoreCase(arg.substr(0, arg.find('\0')), word);
}

// The value of a string key for reading, counting a keyspace hit or miss as Redis's lookupKeyRead.
const Value* LookupRead(CommandContext& ctx, std::string_view key) {
  const Value* v = ctx.db().Find(key, ctx.now_ms);
  if (v == nullptr) {
    ++ctx.server.stats.keyspace_misses;
  } else {
    ++ctx.server.stats.keyspace_hits;
  }
  return v;
}

void Get(CommandContext& ctx) {
  const Value* v = LookupRead(ctx, ctx.args[1]);
  if (v == nullptr) return ctx.reply.Null();
  if (v->type() != ValueType::kString) return ctx.reply.Error(errors::kWrongType);
  ctx.reply.Bulk(v->str());
}

enum SetFlag : uint32_t {
  kSetNx = 1 << 0,
  kSetXx = 1 << 1,
  kSetGet = 1 << 2,
  kSetKeepTtl = 1 << 3,
  kSetEx = 1 << 4,
  kSetPx = 1 << 5,
  kSetExAt = 1 << 6,
  kSetPxAt = 1 << 7,
};
constexpr uint32_t kSetAnyExpire = kSetEx | kSetPx | kSetExAt | kSetPxAt;

// SET key value [NX|XX] [GET] [EX s|PX ms|EXAT ts|PXAT ts|KEEPTTL], with Redis's rules for which
// options may be combined (parseExtendedStringArgumentsOrReply) and for expire times.
void Set(CommandContext& ctx) {
  uint32_t flags = 0;
  std::string_view expire_arg;
  for (size_t j = 3; j < ctx.args.size(); ++j) {
    std::string_view opt = ctx.args[j];
    const bool has_next = j + 1 < ctx.args.size();
    uint32_t expire_flag = 0;
    if (Is(opt, "nx") && !(flags & kSetXx)) {
      flags |= kSetNx;
    } else if (Is(opt, "xx") && !(flags & kSetNx)) {
      flags |= kSetXx;
    } else if (Is(opt, "get")) {
      flags |= kSetGet;
    } else if (Is(opt, "keepttl") && !(flags & kSetAnyExpire)) {
      flags |= kSetKeepTtl;
    } else if (Is(opt, "ex")) {
      expire_flag = kSetEx;
    } else if (Is(opt, "px")) {
      expire_flag = kSetPx;
    } else if (Is(opt, "exat")) {
      expire_flag = kSetExAt;
    } else if (Is(opt, "pxat")) {
      expire_flag = kSetPxAt;
    } else {
      return ctx.reply.Error(errors::kSyntax);
    }
    if (expire_flag != 0) {
      // An expiry option excludes KEEPTTL and every other kind of expiry (a repeat is allowed).
      if ((flags & kSetKeepTtl) || (flags & (kSetAnyExpire & ~expire_flag)) || !has_next) {
        return ctx.reply.Error(errors::kSyntax);
      }
      flags |= expire_flag;
      expire_arg = ctx.args[++j];
    }
  }

  int64_t expire_at = kNoExpiry;
  if (flags & kSetAnyExpire) {
    auto n = ParseInt64(expire_arg);
    if (!n) return ctx.reply.Error(errors::kNotInteger);
    const bool seconds = flags & (kSetEx | kSetExAt);
    int64_t ms = *n;
    if (ms <= 0 || (seconds && ms > LLONG_MAX / 1000)) {
      return ctx.reply.Error(InvalidExpireError("set"));
    }
    if (seconds) ms *= 1000;
    if (flags & (kSetEx | kSetPx)) {
      // Redis adds without an overflow check and then rejects a non-positive result.
      ms = static_cast<int64_t>(static_cast<uint64_t>(ms) + static_cast<uint64_t>(ctx.now_ms));
    }
    if (ms <= 0) return ctx.reply.Error(InvalidExpireError("set"));
    expire_at = ms;
  }

  Db& db = ctx.db();
  const std::string_view key = ctx.args[1];
  // With GET the old value is read as GET reads it, counting a keyspace hit or miss.
  const Value* old = (flags & kSetGet) ? LookupRead(ctx, key) : db.Find(key, ctx.now_ms);
  if (flags & kSetGet) {
    if (old == nullptr) {
      ctx.reply.Null();
    } else if (old->type() != ValueType::kString) {
      return ctx.reply.Error(errors::kWrongType);
    } else {
      ctx.reply.Bulk(old->str());
    }
  }
  const bool found = old != nullptr;
  if (((flags & kSetNx) && found) || ((flags & kSetXx) && !found)) {
    if (!(flags & kSetGet)) ctx.reply.Null();
    return;
  }
  db.SetString(key, ctx.args[2], expire_at, flags & kSetKeepTtl);
  if (!(flags & kSetGet)) ctx.reply.Ok();
}

// INCR and friends: the value must be a strict decimal integer, the result must fit in 64 bits,
// and the key keeps its TTL.
void IncrBy(CommandContext& ctx, int64_t incr) {
  bool inserted = false;
  Value& v = ctx.db().FindOrInsert(ctx.args[1], ctx.now_ms, &inserted);
  int64_t old = 0;
  if (!inserted) {
    if (v.type() != ValueType::kString) return ctx.reply.Error(errors::kWrongType);
    auto parsed = ParseInt64(v.str());
    if (!parsed) return ctx.reply.Error(errors::kNotInteger);
    old = *parsed;
  }
  if ((incr < 0 && old < 0 && incr < (LLONG_MIN - old)) ||
      (incr > 0 && old > 0 && incr > (LLONG_MAX - old))) {
    return ctx.reply.Error(errors::kOverflow);
  }
  const int64_t result = old + incr;
  char buf[kMaxInt64Chars];
  v.SetString(std::string_view(buf, FormatInt64(result, buf)));
  ctx.reply.Integer(result);
}

void Incr(CommandContext& ctx) { IncrBy(ctx, 1); }
void Decr(CommandContext& ctx) { IncrBy(ctx, -1); }

void IncrByCommand(CommandContext& ctx) {
  auto incr = ParseInt64(ctx.args[2]);
  if (!incr) return ctx.reply.Error(errors::kNotInteger);
  IncrBy(ctx, *incr);
}

void DecrByCommand(CommandContext& ctx) {
  auto decr = ParseInt64(ctx.args[2]);
  if (!decr) return ctx.reply.Error(errors::kNotInteger);
  if (*decr == LLONG_MIN) return ctx.reply.Error("decrement would overflow");
  IncrBy(ctx, -*decr);
}

void MSet(CommandContext& ctx) {
  if (ctx.args.size() % 2 == 0) return ctx.reply.Error(WrongArityError("mset"));
  Db& db = ctx.db();
  for (size_t i = 1; i < ctx.args.size(); i += 2) db.SetString(ctx.args[i], ctx.args[i + 1]);
  ctx.reply.Ok();
}

void MGet(CommandContext& ctx) {
  ctx.reply.ArrayHeader(ctx.args.size() - 1);
  for (size_t i = 1; i < ctx.args.size(); ++i) {
    const Value* v = LookupRead(ctx, ctx.args[i]);
    if (v == nullptr || v->type() != ValueType::kString) {
      ctx.reply.Null();
    } else {
      ctx.reply.Bulk(v->str());
    }
  }
}

constexpr uint32_t kRead = kCmdReadOnly;
constexpr uint32_t kWrite = kCmdWrite | kCmdDenyOom;

}  // namespace

void RegisterStringFamily(CommandRegistry& r) {
  // name, arity, flags, first key, last key, step, handler, group, summary, since, ACL categories
  r.Register({"get", 2, kRead | kCmdFast, 1, 1, 1, Get, "string", "Get the value of a key", "1.0.0",
              "@read @string @fast"});
  r.Register({"set", -3, kWrite, 1, 1, 1, Set, "string", "Set the string value of a key", "1.0.0",
              "@write @string @slow"});
  r.Register({"incr", 2, kWrite | kCmdFast, 1, 1, 1, Incr, "string",
              "Increment the integer value of a key by one", "1.0.0", "@write @string @fast"});
  r.Register({"decr", 2, kWrite | kCmdFast, 1, 1, 1, Decr, "string",
              "Decrement the integer value of a key by one", "1.0.0", "@write @string @fast"});
  r.Register({"incrby", 3, kWrite | kCmdFast, 1, 1, 1, IncrByCommand, "string",
              "Increment the integer value of a key by the given amount", "1.0.0",
              "@write @string @fast"});
  r.Register({"decrby", 3, kWrite | kCmdFast, 1, 1, 1, DecrByCommand, "string",
              "Decrement the integer value of a key by the given number", "1.0.0",
              "@write @string @fast"});
  r.Register({"mset", -3, kWrite, 1, -1, 2, MSet, "string", "Set multiple keys to multiple values",
              "1.0.1", "@write @string @slow"});
  r.Register({"mget", -2, kRead | kCmdFast, 1, -1, 1, MGet, "string",
              "Get the values of all the given keys", "1.0.0", "@read @string @fast"});
}

}  // namespace kv
