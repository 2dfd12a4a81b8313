#pragma once

#include <memory>
#include <string_view>
#include <utility>

#include "server/command.h"
#include "server/commands/lookup.h"
#include "storage/zset.h"

namespace kv {

// What the sorted set families (zset, geo) share: the listpack limits from the config, and
// storing a result as Redis's setKey does.

inline ZSet::Limits ZSetLimits(const CommandContext& ctx) {
  return {static_cast<size_t>(ctx.server.config.zset_max_listpack_entries),
          static_cast<size_t>(ctx.server.config.zset_max_listpack_value)};
}

// The sorted set at `key` for reading (lookupKeyRead) or writing: see ReadAggregate.
inline bool ReadZSet(CommandContext& ctx, std::string_view key, ZSet** out) {
  return ReadAggregate<ZSet>(ctx, key, out);
}
inline bool WriteZSet(CommandContext& ctx, std::string_view key, ZSet** out) {
  return WriteAggregate<ZSet>(ctx, key, out);
}

// Redis's setKey(..., 0): `key` gets `z`, replacing whatever it held and its TTL, and is
// signalled modified. A new key wakes the clients blocked on it (dbAdd); an overwritten one does
// not (dbOverwrite).
inline void StoreZSet(CommandContext& ctx, std::string_view key, std::unique_ptr<ZSet> z) {
  Db& db = ctx.db();
  if (db.Find(key, ctx.now_ms) == nullptr) {
    AddAggregate(ctx, key, std::move(z));
  } else {
    DetachedValue v;
    v.aggregate = std::move(z);
    db.Put(key, std::move(v), kNoExpiry);
  }
  ctx.KeyModified(key);
}

// A *STORE's empty result: the destination goes (dbDelete), signalled, with its "del" event and
// a change counted.
inline void DeleteStoreDestination(CommandContext& ctx, std::string_view key) {
  if (!ctx.db().Delete(key, ctx.now_ms)) return;
  ctx.KeyModified(key);
  ctx.Notify(kNotifyGeneric, "del", key);
  ctx.CountChanges();
}

// ZADD itself, on ctx.args (GEOADD turns its coordinates into scores and runs it).
void ZAddCommand(CommandContext& ctx);

}  // namespace kv
