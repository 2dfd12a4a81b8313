#pragma once

#include <cstdint>

#include "server/persistence/child_info.h"

namespace kv {

// What INFO persistence and LASTSAVE report about snapshots.
struct PersistenceStats {
  int64_t lastsave_s = 0;    // the last successful save (the start time until one happens)
  bool last_save_ok = true;  // rdb_last_bgsave_status
  uint64_t rdb_saves = 0;    // SAVE and BGSAVE commands that started
  uint64_t last_load_keys_loaded = 0;
  uint64_t last_load_keys_expired = 0;
  // BGSAVE: the child writing the file (-1 when none), when it started, the changes counted when it
  // forked (the save covers those), and the outcome and length of the last one.
  int child_pid = -1;
  int64_t bgsave_start_s = 0;
  uint64_t dirty_before_bgsave = 0;
  int64_t last_bgsave_try_s = 0;
  int64_t last_bgsave_time_sec = -1;
  bool bgsave_scheduled = false;
  // Loading the snapshot at start-up while clients are served (INFO loading:1 and loading_*;
  // commands without the loading flag get -LOADING).
  bool loading = false;
  int64_t loading_start_s = 0;
  uint64_t loading_total_bytes = 0;
  uint64_t loading_loaded_bytes = 0;
  uint64_t loading_rdb_used_mem = 0;
  // What the forked child (BGSAVE's or BGREWRITEAOF's; one at a time) reports: copy-on-write and
  // progress.
  ChildInfo child_info;
};

}  // namespace kv
