#pragma once

#include <cstdint>

namespace kv {

// What INFO persistence and LASTSAVE report about snapshots.
struct PersistenceStats {
  int64_t lastsave_s = 0;    // the last successful save (the start time until one happens)
  bool last_save_ok = true;  // rdb_last_bgsave_status
  uint64_t rdb_saves = 0;    // successful saves
  uint64_t last_load_keys_loaded = 0;
  uint64_t last_load_keys_expired = 0;
};

}  // namespace kv
