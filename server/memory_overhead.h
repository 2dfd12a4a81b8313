#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "server/server_state.h"

namespace kv {

// Redis's getMemoryOverheadData: where the allocator's bytes go, for MEMORY STATS, MEMORY
// DOCTOR and INFO memory. The tables' overhead comes from storage's own accounting of its
// layout; everything else the allocator holds is the dataset.
struct MemoryOverhead {
  struct DbTables {
    size_t db = 0;
    size_t main = 0;     // overhead.hashtable.main
    size_t expires = 0;  // overhead.hashtable.expires
  };
  size_t total_allocated = 0;
  size_t startup_allocated = 0;
  size_t peak_allocated = 0;
  size_t rss = 0;
  std::vector<DbTables> dbs;  // databases with keys only
  size_t overhead_total = 0;  // startup + tables
  size_t total_keys = 0;
  size_t dataset = 0;
  size_t bytes_per_key = 0;
  // Redis computes these as floats.
  float dataset_perc = 0;
  float peak_perc = 0;
  float total_frag = 0;  // rss / allocated
  int64_t total_frag_bytes = 0;
};

// Also raises the recorded peak to the current use, as Redis's cron does.
MemoryOverhead ComputeMemoryOverhead(ServerState& state);

}  // namespace kv
