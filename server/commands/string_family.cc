// Strings: GET, SET, SETNX, SETEX, PSETEX, GETSET, GETDEL, GETEX, INCR/DECR/INCRBY/DECRBY,
// INCRBYFLOAT, MSET, MSETNX, MGET, APPEND, STRLEN, GETRANGE/SUBSTR, SETRANGE, LCS.

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "protocol/number.h"
#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/commands/lookup.h"
#include "server/commands/zero_string.h"
#include "server/errors.h"
#include "server/long_double.h"
#include "server/strings.h"

namespace kv {
namespace {

void Get(CommandContext& ctx) {
  const Value* v = LookupRead(ctx, ctx.args[1]);
  if (v == nullptr) return ctx.reply.Null();
  if (v->type() != ValueType::kString) return ctx.reply.Error(errors::kWrongType);
  ctx.reply.Bulk(v->str());
}

// Redis's getExpireMillisecondsOrReply: the absolute deadline in ms that an EX/PX/EXAT/PXAT
// argument names, or nullopt after replying the error (not an integer; not positive, or too large
// for milliseconds: "invalid expire time in '<command>' command").
std::optional<int64_t> ExpireAtOrReply(CommandContext& ctx, std::string_view arg, bool seconds,
                                       bool relative, std::string_view command) {
  auto n = ParseInt64(arg);
  if (!n) {
    ctx.reply.Error(errors::kNotInteger);
    return std::nullopt;
  }
  int64_t ms = *n;
  if (ms <= 0 || (seconds && ms > LLONG_MAX / 1000)) {
    ctx.reply.Error(InvalidExpireError(command));
    return std::nullopt;
  }
  if (seconds) ms *= 1000;
  if (relative) {
    // Redis adds without an overflow check and then rejects a non-positive result.
    ms = static_cast<int64_t>(static_cast<uint64_t>(ms) + static_cast<uint64_t>(ctx.now_ms));
  }
  if (ms <= 0) {
    ctx.reply.Error(InvalidExpireError(command));
    return std::nullopt;
  }
  return ms;
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
  kSetPersist = 1 << 8,
};
constexpr uint32_t kSetAnyExpire = kSetEx | kSetPx | kSetExAt | kSetPxAt;

enum class StringCommand { kSet, kGetEx };

// Redis's parseExtendedStringArgumentsOrReply, shared by SET (options from argument 3: NX, XX,
// GET, KEEPTTL and the expiries) and GETEX (from argument 2: PERSIST and the expiries). An expiry
// excludes KEEPTTL, PERSIST and every other kind of expiry (a repeat is allowed). Replies
// "syntax error" and returns false on a bad option.
bool ParseStringOptions(CommandContext& ctx, StringCommand command, uint32_t* flags,
                        std::string_view* expire_arg) {
  const bool set = command == StringCommand::kSet;
  for (size_t j = set ? 3 : 2; j < ctx.args.size(); ++j) {
    std::string_view opt = ctx.args[j];
    const bool has_next = j + 1 < ctx.args.size();
    uint32_t expire_flag = 0;
    if (set && OptionIs(opt, "nx") && !(*flags & kSetXx)) {
      *flags |= kSetNx;
    } else if (set && OptionIs(opt, "xx") && !(*flags & kSetNx)) {
      *flags |= kSetXx;
    } else if (set && OptionIs(opt, "get")) {
      *flags |= kSetGet;
    } else if (set && OptionIs(opt, "keepttl") && !(*flags & (kSetAnyExpire | kSetPersist))) {
      *flags |= kSetKeepTtl;
    } else if (!set && OptionIs(opt, "persist") && !(*flags & (kSetAnyExpire | kSetKeepTtl))) {
      *flags |= kSetPersist;
    } else if (OptionIs(opt, "ex")) {
      expire_flag = kSetEx;
    } else if (OptionIs(opt, "px")) {
      expire_flag = kSetPx;
    } else if (OptionIs(opt, "exat")) {
      expire_flag = kSetExAt;
    } else if (OptionIs(opt, "pxat")) {
      expire_flag = kSetPxAt;
    } else {
      ctx.reply.Error(errors::kSyntax);
      return false;
    }
    if (expire_flag != 0) {
      if ((*flags & (kSetKeepTtl | kSetPersist | (kSetAnyExpire & ~expire_flag))) || !has_next) {
        ctx.reply.Error(errors::kSyntax);
        return false;
      }
      *flags |= expire_flag;
      *expire_arg = ctx.args[++j];
    }
  }
  return true;
}

// SET key value [NX|XX] [GET] [EX s|PX ms|EXAT ts|PXAT ts|KEEPTTL], with Redis's rules for which
// options may be combined (parseExtendedStringArgumentsOrReply) and for expire times.
void Set(CommandContext& ctx) {
  uint32_t flags = 0;
  std::string_view expire_arg;
  if (!ParseStringOptions(ctx, StringCommand::kSet, &flags, &expire_arg)) return;

  int64_t expire_at = kNoExpiry;
  if (flags & kSetAnyExpire) {
    auto at = ExpireAtOrReply(ctx, expire_arg, flags & (kSetEx | kSetExAt),
                              flags & (kSetEx | kSetPx), "set");
    if (!at) return;
    expire_at = *at;
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
  ctx.KeyModified(key);
  ctx.CountChanges();
  ctx.Notify(kNotifyString, "set", key);
  if (flags & kSetAnyExpire) ctx.Notify(kNotifyGeneric, "expire", key);
  if (!(flags & kSetGet)) ctx.reply.Ok();
  if (ctx.Propagating()) {
    if (flags & kSetAnyExpire) {
      // Propagated with its absolute deadline, so that a replay sets the same one.
      ctx.PropagateAs(
          {"SET", std::string(key), std::string(ctx.args[2]), "PXAT", std::to_string(expire_at)});
    } else if (flags & kSetGet) {
      // Without its GET options (which may repeat).
      std::vector<std::string> argv;
      for (size_t j = 0; j < ctx.args.size(); ++j) {
        if (j >= 3 && EqualsIgnoreCase(ctx.args[j], "get")) continue;
        argv.emplace_back(ctx.args[j]);
      }
      ctx.PropagateAs(std::move(argv));
    }
  }
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
  ctx.KeyModified(ctx.args[1]);
  ctx.Notify(kNotifyString, "incrby", ctx.args[1]);
  ctx.CountChanges();
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

// MSET's and MSETNX's writes: each pair as Redis's setKey, then its "set" event.
void SetPairs(CommandContext& ctx) {
  Db& db = ctx.db();
  for (size_t i = 1; i < ctx.args.size(); i += 2) {
    db.SetString(ctx.args[i], ctx.args[i + 1]);
    ctx.KeyModified(ctx.args[i]);
    ctx.Notify(kNotifyString, "set", ctx.args[i]);
  }
  ctx.CountChanges(ctx.args.size() / 2);
}

void MSet(CommandContext& ctx) {
  if (ctx.args.size() % 2 == 0) return ctx.reply.Error(WrongArityError("mset"));
  SetPairs(ctx);
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

// SETNX key value: 1 if it set the key, 0 if the key existed.
void SetNx(CommandContext& ctx) {
  Db& db = ctx.db();
  if (db.Find(ctx.args[1], ctx.now_ms) != nullptr) return ctx.reply.Integer(0);
  db.SetString(ctx.args[1], ctx.args[2]);
  ctx.KeyModified(ctx.args[1]);
  ctx.CountChanges();
  ctx.Notify(kNotifyString, "set", ctx.args[1]);
  ctx.reply.Integer(1);
}

// SETEX key seconds value / PSETEX key milliseconds value: SET with EX or PX.
void SetExGeneric(CommandContext& ctx, bool seconds, std::string_view command) {
  auto at = ExpireAtOrReply(ctx, ctx.args[2], seconds, /*relative=*/true, command);
  if (!at) return;
  ctx.db().SetString(ctx.args[1], ctx.args[3], *at);
  ctx.KeyModified(ctx.args[1]);
  ctx.CountChanges();
  ctx.Notify(kNotifyString, "set", ctx.args[1]);
  ctx.Notify(kNotifyGeneric, "expire", ctx.args[1]);
  ctx.reply.Ok();
  if (ctx.Propagating()) {
    ctx.PropagateAs(
        {"SET", std::string(ctx.args[1]), std::string(ctx.args[3]), "PXAT", std::to_string(*at)});
  }
}
void SetEx(CommandContext& ctx) { SetExGeneric(ctx, true, "setex"); }
void PSetEx(CommandContext& ctx) { SetExGeneric(ctx, false, "psetex"); }

// Redis's getGenericCommand: replies the value (or nil) as GET does; false after a WRONGTYPE.
bool GetGeneric(CommandContext& ctx) {
  const Value* v = LookupRead(ctx, ctx.args[1]);
  if (v == nullptr) {
    ctx.reply.Null();
    return true;
  }
  if (v->type() != ValueType::kString) {
    ctx.reply.Error(errors::kWrongType);
    return false;
  }
  ctx.reply.Bulk(v->str());
  return true;
}

// GETSET key value: the old value, and the new one stored without a TTL.
void GetSet(CommandContext& ctx) {
  if (!GetGeneric(ctx)) return;
  ctx.db().SetString(ctx.args[1], ctx.args[2]);
  ctx.KeyModified(ctx.args[1]);
  ctx.Notify(kNotifyString, "set", ctx.args[1]);
  ctx.CountChanges();
  ctx.RewriteArg(0, "SET");
}

void GetDel(CommandContext& ctx) {
  if (!GetGeneric(ctx)) return;
  const bool lazy = ctx.server.config.lazyfree_lazy_user_del;
  if (!ctx.db().Delete(ctx.args[1], ctx.now_ms, lazy)) return;
  ctx.KeyModified(ctx.args[1]);
  ctx.Notify(kNotifyGeneric, "del", ctx.args[1]);
  ctx.CountChanges();
  if (ctx.Propagating()) ctx.PropagateAs({lazy ? "UNLINK" : "DEL", std::string(ctx.args[1])});
}

// GETEX key [EX s|PX ms|EXAT ts|PXAT ts|PERSIST]: options are parsed first (syntax errors even for
// a missing key), the expire time is checked only once the key is known to be a string, and a
// deadline already past deletes the key after its value was replied.
void GetEx(CommandContext& ctx) {
  uint32_t flags = 0;
  std::string_view expire_arg;
  if (!ParseStringOptions(ctx, StringCommand::kGetEx, &flags, &expire_arg)) return;

  const std::string_view key = ctx.args[1];
  const Value* v = LookupRead(ctx, key);
  if (v == nullptr) return ctx.reply.Null();
  if (v->type() != ValueType::kString) return ctx.reply.Error(errors::kWrongType);
  int64_t expire_at = kNoExpiry;
  if (flags & kSetAnyExpire) {
    auto at = ExpireAtOrReply(ctx, expire_arg, flags & (kSetEx | kSetExAt),
                              flags & (kSetEx | kSetPx), "getex");
    if (!at) return;
    expire_at = *at;
  }
  ctx.reply.Bulk(v->str());
  Db& db = ctx.db();
  if ((flags & (kSetExAt | kSetPxAt)) && expire_at <= ctx.now_ms) {
    const bool lazy = ctx.server.config.lazyfree_lazy_expire;
    db.Delete(key, ctx.now_ms, lazy);
    ctx.KeyModified(key);
    ctx.Notify(kNotifyGeneric, "del", key);
    ctx.CountChanges();
    if (ctx.Propagating()) ctx.PropagateAs({lazy ? "UNLINK" : "DEL", std::string(key)});
  } else if (flags & kSetAnyExpire) {
    db.SetExpire(key, expire_at);
    ctx.KeyModified(key);
    ctx.Notify(kNotifyGeneric, "expire", key);
    ctx.CountChanges();
    if (ctx.Propagating()) {
      ctx.PropagateAs({"PEXPIREAT", std::string(key), std::to_string(expire_at)});
    }
  } else if ((flags & kSetPersist) && db.Persist(key)) {
    ctx.KeyModified(key);
    ctx.Notify(kNotifyGeneric, "persist", key);
    ctx.CountChanges();
    if (ctx.Propagating()) ctx.PropagateAs({"PERSIST", std::string(key)});
  }
}

// MSETNX: sets every pair only if none of the keys exists (checked before anything is set, so a
// repeated key does not block itself); 1 or 0.
void MSetNx(CommandContext& ctx) {
  if (ctx.args.size() % 2 == 0) return ctx.reply.Error(WrongArityError("msetnx"));
  Db& db = ctx.db();
  for (size_t i = 1; i < ctx.args.size(); i += 2) {
    if (db.Find(ctx.args[i], ctx.now_ms) != nullptr) return ctx.reply.Integer(0);
  }
  SetPairs(ctx);
  ctx.reply.Integer(1);
}

// INCRBYFLOAT key increment: long double arithmetic, the result stored (keeping the TTL) and
// replied as a bulk string in Redis's human format.
void IncrByFloat(CommandContext& ctx) {
  Db& db = ctx.db();
  const std::string_view key = ctx.args[1];
  const Value* old = db.Find(key, ctx.now_ms);
  if (old != nullptr && old->type() != ValueType::kString) {
    return ctx.reply.Error(errors::kWrongType);
  }
  long double value = 0;
  if (old != nullptr) {
    auto parsed = ParseLongDouble(old->str());
    if (!parsed) return ctx.reply.Error(errors::kNotFloat);
    value = *parsed;
  }
  auto incr = ParseLongDouble(ctx.args[2]);
  if (!incr) return ctx.reply.Error(errors::kNotFloat);
  value += *incr;
  if (std::isnan(value) || std::isinf(value)) {
    return ctx.reply.Error("increment would produce NaN or Infinity");
  }
  const std::string text = FormatLongDoubleHuman(value);
  bool inserted = false;
  db.FindOrInsert(key, ctx.now_ms, &inserted).SetString(text);
  ctx.KeyModified(key);
  ctx.Notify(kNotifyString, "incrbyfloat", key);
  ctx.CountChanges();
  ctx.reply.Bulk(text);
  // Propagated as the value it came to, so that a replay cannot round differently.
  if (ctx.Propagating()) ctx.PropagateAs({"SET", std::string(key), text, "KEEPTTL"});
}

// Redis's checkStringLength: false (after replying the error) if a string of `size` + `append`
// bytes would exceed proto-max-bulk-len.
bool CheckStringLength(CommandContext& ctx, uint64_t size, uint64_t append) {
  const uint64_t total = size + append;
  if (total > static_cast<uint64_t>(ctx.server.config.proto_max_bulk_len) || total < size ||
      total < append) {
    ctx.reply.Error(errors::kStringTooLong);
    return false;
  }
  return true;
}

// APPEND key value: the new length. A new key is created without a length check (the argument
// itself is within the limit), an existing one is checked for the total.
void Append(CommandContext& ctx) {
  Db& db = ctx.db();
  const std::string_view key = ctx.args[1];
  const std::string_view add = ctx.args[2];
  Value* v = db.Find(key, ctx.now_ms);
  int64_t length = 0;
  if (v == nullptr) {
    db.SetString(key, add);
    length = static_cast<int64_t>(add.size());
  } else {
    if (v->type() != ValueType::kString) return ctx.reply.Error(errors::kWrongType);
    if (!CheckStringLength(ctx, v->str().size(), add.size())) return;
    v->mutable_str().append(add.data(), add.size());
    length = static_cast<int64_t>(v->str().size());
  }
  ctx.KeyModified(key);
  ctx.Notify(kNotifyString, "append", key);
  ctx.CountChanges();
  ctx.reply.Integer(length);
}

void StrLen(CommandContext& ctx) {
  const Value* v = LookupRead(ctx, ctx.args[1]);
  if (v == nullptr) return ctx.reply.Integer(0);
  if (v->type() != ValueType::kString) return ctx.reply.Error(errors::kWrongType);
  ctx.reply.Integer(static_cast<int64_t>(v->str().size()));
}

// GETRANGE key start end (and SUBSTR): inclusive, negative indexes from the end, clamped; both
// indexes are parsed before the key is looked up; a missing key is an empty string.
void GetRange(CommandContext& ctx) {
  auto start_arg = ParseInt64(ctx.args[2]);
  if (!start_arg) return ctx.reply.Error(errors::kNotInteger);
  auto end_arg = ParseInt64(ctx.args[3]);
  if (!end_arg) return ctx.reply.Error(errors::kNotInteger);
  const Value* v = LookupRead(ctx, ctx.args[1]);
  if (v == nullptr) return ctx.reply.Bulk("");
  if (v->type() != ValueType::kString) return ctx.reply.Error(errors::kWrongType);
  const std::string_view s = v->str();
  const int64_t len = static_cast<int64_t>(s.size());
  int64_t start = *start_arg;
  int64_t end = *end_arg;
  if (start < 0 && end < 0 && start > end) return ctx.reply.Bulk("");
  if (start < 0) start += len;
  if (end < 0) end += len;
  if (start < 0) start = 0;
  if (end < 0) end = 0;
  if (end >= len) end = len - 1;
  if (start > end || len == 0) return ctx.reply.Bulk("");
  ctx.reply.Bulk(s.substr(static_cast<size_t>(start), static_cast<size_t>(end - start + 1)));
}

// SETRANGE key offset value: the new length; the gap past the old end is zero-filled.
void SetRange(CommandContext& ctx) {
  auto offset = ParseInt64(ctx.args[2]);
  if (!offset) return ctx.reply.Error(errors::kNotInteger);
  if (*offset < 0) return ctx.reply.Error("offset is out of range");
  const std::string_view key = ctx.args[1];
  const std::string_view value = ctx.args[3];
  Db& db = ctx.db();
  Value* v = db.Find(key, ctx.now_ms);
  if (v == nullptr) {
    // Setting nothing on a missing key creates nothing.
    if (value.empty()) return ctx.reply.Integer(0);
    if (!CheckStringLength(ctx, static_cast<uint64_t>(*offset), value.size())) return;
    bool inserted = false;
    v = &db.FindOrInsert(key, ctx.now_ms, &inserted);
  } else {
    if (v->type() != ValueType::kString) return ctx.reply.Error(errors::kWrongType);
    if (value.empty()) return ctx.reply.Integer(static_cast<int64_t>(v->str().size()));
    if (!CheckStringLength(ctx, static_cast<uint64_t>(*offset), value.size())) return;
  }
  CompactString& s = v->mutable_str();
  const size_t off = static_cast<size_t>(*offset);
  // A new string is made at its length; an existing one grows with room to spare (Redis's
  // sdsnewlen and sdsgrowzero).
  if (s.empty()) {
    MakeZeroString(s, off + value.size());
  } else if (s.size() < off + value.size()) {
    s.resize(off + value.size());
  }
  std::memcpy(s.data() + off, value.data(), value.size());
  const size_t length = s.size();
  ctx.KeyModified(key);
  ctx.Notify(kNotifyString, "setrange", key);
  ctx.CountChanges();
  ctx.reply.Integer(static_cast<int64_t>(length));
}

// LCS key1 key2 [LEN] [IDX] [MINMATCHLEN n] [WITHMATCHLEN]: Redis's dynamic programming table and
// its walk back from the end, so that the string and the ranges (longest index first) are the
// ones Redis picks among equally long answers.
void Lcs(CommandContext& ctx) {
  const Value* va = LookupRead(ctx, ctx.args[1]);
  const Value* vb = LookupRead(ctx, ctx.args[2]);
  if ((va != nullptr && va->type() != ValueType::kString) ||
      (vb != nullptr && vb->type() != ValueType::kString)) {
    return ctx.reply.Error("The specified keys must contain string values");
  }
  bool getlen = false;
  bool getidx = false;
  bool withmatchlen = false;
  int64_t minmatchlen = 0;
  for (size_t j = 3; j < ctx.args.size(); ++j) {
    const std::string_view opt = ctx.args[j];
    const bool more = j + 1 < ctx.args.size();
    if (OptionIs(opt, "idx")) {
      getidx = true;
    } else if (OptionIs(opt, "len")) {
      getlen = true;
    } else if (OptionIs(opt, "withmatchlen")) {
      withmatchlen = true;
    } else if (OptionIs(opt, "minmatchlen") && more) {
      auto n = ParseInt64(ctx.args[j + 1]);
      if (!n) return ctx.reply.Error(errors::kNotInteger);
      minmatchlen = *n < 0 ? 0 : *n;
      ++j;
    } else {
      return ctx.reply.Error(errors::kSyntax);
    }
  }
  if (getlen && getidx) {
    return ctx.reply.Error("If you want both the length and indexes, please just use IDX.");
  }
  // Views into the Db: nothing changes it while this handler runs.
  const std::string_view a = va != nullptr ? std::string_view(va->str()) : std::string_view();
  const std::string_view b = vb != nullptr ? std::string_view(vb->str()) : std::string_view();
  if (a.size() >= UINT32_MAX - 1 || b.size() >= UINT32_MAX - 1) {
    return ctx.reply.Error("String too long for LCS");
  }
  const uint32_t alen = static_cast<uint32_t>(a.size());
  const uint32_t blen = static_cast<uint32_t>(b.size());
  const uint64_t cells = static_cast<uint64_t>(alen + 1) * (blen + 1);
  const uint64_t bytes = cells * sizeof(uint32_t);
  if (bytes / cells != sizeof(uint32_t)) {
    return ctx.reply.Error("Insufficient memory, failed allocating transient memory for LCS");
  }
  if (bytes > static_cast<uint64_t>(ctx.server.config.proto_max_bulk_len)) {
    return ctx.reply.Error(
        "Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len");
  }
  std::vector<uint32_t> lcs(cells);
  auto at = [&](uint32_t i, uint32_t j) -> uint32_t& {
    return lcs[j + static_cast<uint64_t>(i) * (blen + 1)];
  };
  for (uint32_t i = 1; i <= alen; ++i) {
    for (uint32_t j = 1; j <= blen; ++j) {
      if (a[i - 1] == b[j - 1]) {
        at(i, j) = at(i - 1, j - 1) + 1;
      } else {
        at(i, j) = std::max(at(i - 1, j), at(i, j - 1));
      }
    }
  }

  uint32_t idx = at(alen, blen);
  const bool computelcs = getidx || !getlen;
  std::string result;
  if (computelcs) result.resize(idx);
  struct Match {
    uint32_t a_start, a_end, b_start, b_end;
  };
  std::vector<Match> matches;
  uint32_t arange_start = alen;  // alen: no range open
  uint32_t arange_end = 0;
  uint32_t brange_start = 0;
  uint32_t brange_end = 0;
  uint32_t i = alen;
  uint32_t j = blen;
  while (computelcs && i > 0 && j > 0) {
    bool emit_range = false;
    if (a[i - 1] == b[j - 1]) {
      result[idx - 1] = a[i - 1];
      if (arange_start == alen) {
        arange_start = arange_end = i - 1;
        brange_start = brange_end = j - 1;
      } else if (arange_start == i && brange_start == j) {
        --arange_start;
        --brange_start;
      } else {
        emit_range = true;
      }
      if (arange_start == 0 || brange_start == 0) emit_range = true;
      --idx;
      --i;
      --j;
    } else {
      if (at(i - 1, j) > at(i, j - 1)) {
        --i;
      } else {
        --j;
      }
      if (arange_start != alen) emit_range = true;
    }
    const uint32_t match_len = arange_end - arange_start + 1;
    if (emit_range) {
      if (minmatchlen == 0 || match_len >= static_cast<uint64_t>(minmatchlen)) {
        if (getidx) matches.push_back({arange_start, arange_end, brange_start, brange_end});
      }
      arange_start = alen;
    }
  }

  if (getidx) {
    ctx.reply.MapHeader(2);
    ctx.reply.Bulk("matches");
    ctx.reply.ArrayHeader(matches.size());
    for (const Match& m : matches) {
      ctx.reply.ArrayHeader(2 + withmatchlen);
      ctx.reply.ArrayHeader(2);
      ctx.reply.Integer(m.a_start);
      ctx.reply.Integer(m.a_end);
      ctx.reply.ArrayHeader(2);
      ctx.reply.Integer(m.b_start);
      ctx.reply.Integer(m.b_end);
      if (withmatchlen) ctx.reply.Integer(m.a_end - m.a_start + 1);
    }
    ctx.reply.Bulk("len");
    ctx.reply.Integer(at(alen, blen));
  } else if (getlen) {
    ctx.reply.Integer(at(alen, blen));
  } else {
    ctx.reply.Bulk(result);
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
  r.Register({"setnx", 3, kWrite | kCmdFast, 1, 1, 1, SetNx, "string",
              "Set the value of a key, only if the key does not exist", "1.0.0",
              "@write @string @fast"});
  r.Register({"setex", 4, kWrite, 1, 1, 1, SetEx, "string", "Set the value and expiration of a key",
              "2.0.0", "@write @string @slow"});
  r.Register({"psetex", 4, kWrite, 1, 1, 1, PSetEx, "string",
              "Set the value and expiration in milliseconds of a key", "2.6.0",
              "@write @string @slow"});
  r.Register({"getset", 3, kWrite | kCmdFast, 1, 1, 1, GetSet, "string",
              "Set the string value of a key and return its old value", "1.0.0",
              "@write @string @fast"});
  r.Register({"getdel", 2, kCmdWrite | kCmdFast, 1, 1, 1, GetDel, "string",
              "Get the value of a key and delete the key", "6.2.0", "@write @string @fast"});
  r.Register({"getex", -2, kCmdWrite | kCmdFast, 1, 1, 1, GetEx, "string",
              "Get the value of a key and optionally set its expiration", "6.2.0",
              "@write @string @fast"});
  r.Register({"msetnx", -3, kWrite, 1, -1, 2, MSetNx, "string",
              "Set multiple keys to multiple values, only if none of the keys exist", "1.0.1",
              "@write @string @slow"});
  r.Register({"incrbyfloat", 3, kWrite | kCmdFast, 1, 1, 1, IncrByFloat, "string",
              "Increment the float value of a key by the given amount", "2.6.0",
              "@write @string @fast"});
  r.Register({"append", 3, kWrite | kCmdFast, 1, 1, 1, Append, "string", "Append a value to a key",
              "2.0.0", "@write @string @fast"});
  r.Register({"strlen", 2, kRead | kCmdFast, 1, 1, 1, StrLen, "string",
              "Get the length of the value stored in a key", "2.2.0", "@read @string @fast"});
  r.Register({"getrange", 4, kRead, 1, 1, 1, GetRange, "string",
              "Get a substring of the string stored at a key", "2.4.0", "@read @string @slow"});
  r.Register({"substr", 4, kRead, 1, 1, 1, GetRange, "string",
              "Get a substring of the string stored at a key", "1.0.0", "@read @string @slow"});
  r.Register({"setrange", 4, kWrite, 1, 1, 1, SetRange, "string",
              "Overwrite part of a string at key starting at the specified offset", "2.2.0",
              "@write @string @slow"});
  r.Register({"lcs", -3, kRead, 1, 2, 1, Lcs, "string", "Find longest common substring", "7.0.0",
              "@read @string @slow"});
}

}  // namespace kv
