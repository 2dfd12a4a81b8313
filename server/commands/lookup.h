#pragma once

#include <string_view>

#include "server/command.h"
#include "storage/value.h"

namespace kv {

// The value of `key` for reading, counting a keyspace hit or miss as Redis's lookupKeyRead; nullptr
// when the key is missing. Write lookups (lookupKeyWrite) count neither and use Db::Find directly.
inline const Value* LookupRead(CommandContext& ctx, std::string_view key) {
  const Value* v = ctx.db().Find(key, ctx.now_ms);
  ++(v != nullptr ? ctx.server.stats.keyspace_hits : ctx.server.stats.keyspace_misses);
  return v;
}

}  // namespace kv
