#pragma once

#include "server/persistence/rdb_reader.h"
#include "server/server_state.h"

namespace kv {

// The encoding thresholds loaded values are converted by: the server's configuration now.
inline RdbLoadLimits LoadLimits(const ServerState& s) {
  const Config& c = s.config;
  RdbLoadLimits l;
  l.list_fill = static_cast<int>(c.list_max_listpack_size);
  l.list_compress_depth = static_cast<int>(c.list_compress_depth);
  l.list_packed_threshold = s.list_packed_threshold;
  l.hash = {static_cast<size_t>(c.hash_max_listpack_entries),
            static_cast<size_t>(c.hash_max_listpack_value)};
  l.set_max_intset_entries = static_cast<size_t>(c.set_max_intset_entries);
  l.zset = {static_cast<size_t>(c.zset_max_listpack_entries),
            static_cast<size_t>(c.zset_max_listpack_value)};
  return l;
}

}  // namespace kv
