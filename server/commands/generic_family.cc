// Keys: DEL, EXISTS, EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT, TTL, PTTL, EXPIRETIME, PEXPIRETIME,
// PERSIST.

#include <climits>

#include "protocol/number.h"
#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/errors.h"
#include "server/strings.h"

namespace kv {
namespace {

void Del(CommandContext& ctx) {
  Db& db = ctx.db();
  const bool lazy = ctx.server.config.lazyfree_lazy_user_del;
  int64_t deleted = 0;
  for (size_t i = 1; i < ctx.args.size(); ++i) {
    if (!db.Delete(ctx.args[i], ctx.now_ms, lazy)) continue;
    ctx.KeyModified(ctx.args[i]);
    ctx.Notify(kNotifyGeneric, "del", ctx.args[i]);
    ++deleted;
  }
  ctx.CountChanges(deleted);
  ctx.reply.Integer(deleted);
}

// Whether `key` is live, counting a keyspace hit or miss (and notifying a "keymiss") as Redis's
// lookupKeyRead does (EXISTS, TTL and PTTL count; the write commands do not).
bool ExistsForRead(CommandContext& ctx, std::string_view key) {
  const bool found = ctx.db().Exists(key, ctx.now_ms);
  if (found) {
    ++ctx.server.stats.keyspace_hits;
  } else {
    ++ctx.server.stats.keyspace_misses;
    ctx.Notify(kNotifyKeyMiss, "keymiss", key);
  }
  return found;
}

void Exists(CommandContext& ctx) {
  int64_t found = 0;
  for (size_t i = 1; i < ctx.args.size(); ++i) found += ExistsForRead(ctx, ctx.args[i]);
  ctx.reply.Integer(found);
}

enum ExpireFlag : uint32_t { kNx = 1, kXx = 2, kGt = 4, kLt = 8 };

// EXPIRE/PEXPIRE/EXPIREAT/PEXPIREAT key time [NX|XX|GT|LT], as Redis's expireGenericCommand:
// options are checked before the time, a time in the past deletes the key, and GT treats "no TTL"
// as infinite. `basetime` is the command's time for the relative forms, 0 for the absolute ones.
void ExpireGeneric(CommandContext& ctx, std::string_view command, int64_t basetime, bool seconds) {
  uint32_t flags = 0;
  for (size_t j = 3; j < ctx.args.size(); ++j) {
    // Redis compares options as C strings (strcasecmp): a NUL byte ends one.
    std::string_view opt = ctx.args[j];
    opt = opt.substr(0, opt.find('\0'));
    if (EqualsIgnoreCase(opt, "nx")) {
      flags |= kNx;
    } else if (EqualsIgnoreCase(opt, "xx")) {
      flags |= kXx;
    } else if (EqualsIgnoreCase(opt, "gt")) {
      flags |= kGt;
    } else if (EqualsIgnoreCase(opt, "lt")) {
      flags |= kLt;
    } else {
      // addReplyErrorFormat trims CR and LF from the end of the message.
      while (!opt.empty() && (opt.back() == '\r' || opt.back() == '\n')) opt.remove_suffix(1);
      return ctx.reply.Error("Unsupported option " + std::string(opt));
    }
  }
  if ((flags & kNx) && (flags & (kXx | kGt | kLt))) {
    return ctx.reply.Error("NX and XX, GT or LT options at the same time are not compatible");
  }
  if ((flags & kGt) && (flags & kLt)) {
    return ctx.reply.Error("GT and LT options at the same time are not compatible");
  }
  auto parsed = ParseInt64(ctx.args[2]);
  if (!parsed) return ctx.reply.Error(errors::kNotInteger);
  int64_t when = *parsed;
  if (seconds) {
    if (when > LLONG_MAX / 1000 || when < LLONG_MIN / 1000) {
      return ctx.reply.Error(InvalidExpireError(command));
    }
    when *= 1000;
  }
  if (when > LLONG_MAX - basetime) return ctx.reply.Error(InvalidExpireError(command));
  when += basetime;

  Db& db = ctx.db();
  const std::string_view key = ctx.args[1];
  if (!db.Exists(key, ctx.now_ms)) return ctx.reply.Integer(0);
  if (flags != 0) {
    const int64_t current = db.GetExpire(key);
    if ((flags & kNx) && current != kNoExpiry) return ctx.reply.Integer(0);
    if ((flags & kXx) && current == kNoExpiry) return ctx.reply.Integer(0);
    if ((flags & kGt) && (current == kNoExpiry || when <= current)) return ctx.reply.Integer(0);
    if ((flags & kLt) && current != kNoExpiry && when >= current) return ctx.reply.Integer(0);
  }
  ctx.CountChanges();
  // Redis's checkAlreadyExpired: a deadline in the past deletes the key, except while an AOF is
  // replayed (the key expires afterwards, as it did when the command ran).
  if (when <= ctx.now_ms && !ctx.server.loading) {
    const bool lazy = ctx.server.config.lazyfree_lazy_expire;
    db.Delete(key, ctx.now_ms, lazy);
    ctx.KeyModified(key);
    ctx.Notify(kNotifyGeneric, "del", key);
    if (ctx.Propagating()) ctx.PropagateAs({lazy ? "UNLINK" : "DEL", std::string(key)});
  } else {
    db.SetExpire(key, when);
    ctx.KeyModified(key);
    ctx.Notify(kNotifyGeneric, "expire", key);
    // Propagated as PEXPIREAT with the absolute deadline (its options kept).
    if (ctx.Propagating()) {
      if (command != "pexpireat") ctx.RewriteArg(0, "PEXPIREAT");
      if (basetime != 0 || seconds) ctx.RewriteArg(2, std::to_string(when));
    }
  }
  ctx.reply.Integer(1);
}

void Expire(CommandContext& ctx) { ExpireGeneric(ctx, "expire", ctx.now_ms, true); }
void PExpire(CommandContext& ctx) { ExpireGeneric(ctx, "pexpire", ctx.now_ms, false); }
void ExpireAt(CommandContext& ctx) { ExpireGeneric(ctx, "expireat", 0, true); }
void PExpireAt(CommandContext& ctx) { ExpireGeneric(ctx, "pexpireat", 0, false); }

// TTL, PTTL, EXPIRETIME and PEXPIRETIME, as Redis's ttlGenericCommand: seconds are rounded to
// the nearest, `absolute` gives the deadline instead of the time left.
void TtlGeneric(CommandContext& ctx, bool seconds, bool absolute) {
  Db& db = ctx.db();
  if (!ExistsForRead(ctx, ctx.args[1])) return ctx.reply.Integer(-2);
  const int64_t at = db.GetExpire(ctx.args[1]);
  if (at == kNoExpiry) return ctx.reply.Integer(-1);
  int64_t ttl = absolute ? at : at - ctx.now_ms;
  if (ttl < 0) ttl = 0;
  ctx.reply.Integer(seconds ? (ttl + 500) / 1000 : ttl);
}

void Ttl(CommandContext& ctx) { TtlGeneric(ctx, true, false); }
void PTtl(CommandContext& ctx) { TtlGeneric(ctx, false, false); }
void ExpireTime(CommandContext& ctx) { TtlGeneric(ctx, true, true); }
void PExpireTime(CommandContext& ctx) { TtlGeneric(ctx, false, true); }

void Persist(CommandContext& ctx) {
  Db& db = ctx.db();
  if (!db.Exists(ctx.args[1], ctx.now_ms)) return ctx.reply.Integer(0);
  const bool persisted = db.Persist(ctx.args[1]);
  if (persisted) {
    ctx.KeyModified(ctx.args[1]);
    ctx.Notify(kNotifyGeneric, "persist", ctx.args[1]);
    ctx.CountChanges();
  }
  ctx.reply.Integer(persisted ? 1 : 0);
}

}  // namespace

void RegisterGenericFamily(CommandRegistry& r) {
  r.Register({"del", -2, kCmdWrite, 1, -1, 1, Del, "generic", "Delete a key", "1.0.0",
              "@keyspace @write @slow"});
  r.Register({"exists", -2, kCmdReadOnly | kCmdFast, 1, -1, 1, Exists, "generic",
              "Determine if a key exists", "1.0.0", "@keyspace @read @fast"});
  r.Register({"expire", -3, kCmdWrite | kCmdFast, 1, 1, 1, Expire, "generic",
              "Set a key's time to live in seconds", "1.0.0", "@keyspace @write @fast"});
  r.Register({"pexpire", -3, kCmdWrite | kCmdFast, 1, 1, 1, PExpire, "generic",
              "Set a key's time to live in milliseconds", "2.6.0", "@keyspace @write @fast"});
  r.Register({"expireat", -3, kCmdWrite | kCmdFast, 1, 1, 1, ExpireAt, "generic",
              "Set the expiration for a key as a UNIX timestamp", "1.2.0",
              "@keyspace @write @fast"});
  r.Register({"pexpireat", -3, kCmdWrite | kCmdFast, 1, 1, 1, PExpireAt, "generic",
              "Set the expiration for a key as a UNIX timestamp specified in milliseconds", "2.6.0",
              "@keyspace @write @fast"});
  r.Register({"expiretime", 2, kCmdReadOnly | kCmdFast, 1, 1, 1, ExpireTime, "generic",
              "Get the expiration Unix timestamp for a key", "7.0.0", "@keyspace @read @fast"});
  r.Register({"pexpiretime", 2, kCmdReadOnly | kCmdFast, 1, 1, 1, PExpireTime, "generic",
              "Get the expiration Unix timestamp for a key in milliseconds", "7.0.0",
              "@keyspace @read @fast"});
  r.Register({"ttl", 2, kCmdReadOnly | kCmdFast, 1, 1, 1, Ttl, "generic",
              "Get the time to live for a key in seconds", "1.0.0", "@keyspace @read @fast"});
  r.Register({"pttl", 2, kCmdReadOnly | kCmdFast, 1, 1, 1, PTtl, "generic",
              "Get the time to live for a key in milliseconds", "2.6.0", "@keyspace @read @fast"});
  r.Register({"persist", 2, kCmdWrite | kCmdFast, 1, 1, 1, Persist, "generic",
              "Remove the expiration from a key", "2.2.0", "@keyspace @write @fast"});
}

}  // namespace kv
