// DUMP and RESTORE: a value as Redis's serialized payload (its RDB encoding, the RDB version and a
// CRC64), so that values move between kvserver and Redis in either direction.

#include <string>
#include <string_view>

#include "protocol/number.h"
#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/errors.h"
#include "server/persistence/dump_payload.h"
#include "server/persistence/load_limits.h"
#include "server/persistence/object_lru.h"
#include "server/strings.h"

namespace kv {
namespace {

constexpr std::string_view kBusyKey = "-BUSYKEY Target key name already exists.";

void Dump(CommandContext& ctx) {
  const Value* v = ctx.db().Find(ctx.args[1], ctx.now_ms);
  ++(v != nullptr ? ctx.server.stats.keyspace_hits : ctx.server.stats.keyspace_misses);
  if (v == nullptr) return ctx.reply.Null();
  auto payload = CreateDumpPayload(*v, ctx.server.config.rdbcompression);
  if (!payload) return ctx.reply.Error("DUMP of this type is not supported yet");
  ctx.reply.Bulk(*payload);
}

// RESTORE key ttl serialized-value [REPLACE] [ABSTTL] [IDLETIME seconds] [FREQ frequency]
void Restore(CommandContext& ctx) {
  int64_t lfu_freq = -1, lru_idle = -1;
  bool replace = false, absttl = false;
  for (size_t j = 4; j < ctx.args.size(); ++j) {
    const size_t additional = ctx.args.size() - j - 1;
    if (OptionIs(ctx.args[j], "replace")) {
      replace = true;
    } else if (OptionIs(ctx.args[j], "absttl")) {
      absttl = true;
    } else if (OptionIs(ctx.args[j], "idletime") && additional >= 1 && lfu_freq == -1) {
      auto v = ParseInt64(ctx.args[j + 1]);
      if (!v) return ctx.reply.Error(errors::kNotInteger);
      if (*v < 0) return ctx.reply.Error("Invalid IDLETIME value, must be >= 0");
      lru_idle = *v;
      ++j;
    } else if (OptionIs(ctx.args[j], "freq") && additional >= 1 && lru_idle == -1) {
      auto v = ParseInt64(ctx.args[j + 1]);
      if (!v) return ctx.reply.Error(errors::kNotInteger);
      if (*v < 0 || *v > 255) return ctx.reply.Error("Invalid FREQ value, must be >= 0 and <= 255");
      lfu_freq = *v;
      ++j;
    } else {
      return ctx.reply.Error(errors::kSyntax);
    }
  }
  const std::string_view key = ctx.args[1];
  Db& db = ctx.db();
  if (!replace && db.Exists(key, ctx.now_ms)) return ctx.reply.Error(kBusyKey);
  auto ttl = ParseInt64(ctx.args[2]);
  if (!ttl) return ctx.reply.Error(errors::kNotInteger);
  if (*ttl < 0) return ctx.reply.Error("Invalid TTL value, must be >= 0");

  const std::string_view payload = ctx.args[3];
  if (!VerifyDumpPayload(payload, /*skip_checksum=*/false)) {
    return ctx.reply.Error("DUMP payload version or checksum are wrong");
  }
  DetachedValue value;
  if (!LoadDumpPayload(payload, LoadLimits(ctx.server), &value)) {
    return ctx.reply.Error("Bad data format");
  }

  const bool deleted = replace && db.Delete(key, ctx.now_ms);
  int64_t expire_at = *ttl;
  if (expire_at != 0 && !absttl) expire_at += ctx.now_ms;
  if (expire_at != 0 && expire_at <= ctx.now_ms && !ctx.server.loading) {
    // Already expired: the key is only deleted, and propagated as DEL.
    if (deleted) {
      ctx.CountChanges();
      if (ctx.Propagating()) ctx.PropagateAs({"DEL", std::string(key)});
    }
    return ctx.reply.Ok();
  }
  const ValueType type = value.type();
  db.Put(key, std::move(value), expire_at != 0 ? expire_at : kNoExpiry);
  if (lfu_freq >= 0 || lru_idle >= 0) {
    if (Value* v = db.Peek(key, ctx.now_ms)) {
      SetLruOrLfu(*v, IsLfuPolicy(ctx.server.config.maxmemory_policy), ctx.now_ms, lfu_freq,
                  lru_idle);
    }
  }
  ctx.SignalKeyAsReady(key, type);
  ctx.CountChanges();
  ctx.reply.Ok();
  // A relative TTL is propagated as the absolute deadline, with ABSTTL.
  if (expire_at != 0 && !absttl && ctx.Propagating()) {
    ctx.RewriteArg(2, std::to_string(expire_at));
    ctx.RewriteArg(ctx.args.size(), "ABSTTL");
  }
}

}  // namespace

void RegisterDumpFamily(CommandRegistry& r) {
  r.Register({"dump", 2, kCmdReadOnly, 1, 1, 1, Dump, "generic",
              "Return a serialized version of the value stored at the specified key.", "2.6.0",
              "@keyspace @read @slow"});
  r.Register({"restore", -4, kCmdWrite | kCmdDenyOom, 1, 1, 1, Restore, "generic",
              "Create a key using the provided serialized value, previously obtained using DUMP.",
              "2.6.0", "@keyspace @write @slow @dangerous"});
  // What MIGRATE sends in cluster mode; without a cluster it is RESTORE.
  r.Register({"restore-asking", -4, kCmdWrite | kCmdDenyOom | kCmdAsking, 1, 1, 1, Restore,
              "server", "An internal command for migrating keys in a cluster", "3.0.0",
              "@keyspace @write @slow @dangerous"});
}

}  // namespace kv
