#include "server/memory_overhead.h"

#include <algorithm>

#include "server/info.h"

namespace kv {

MemoryOverhead ComputeMemoryOverhead(ServerState& state) {
  MemoryOverhead m;
  m.total_allocated = UsedMemory();
  m.rss = ResidentMemory();
  state.used_memory_peak = std::max(state.used_memory_peak, m.total_allocated);
  m.peak_allocated = state.used_memory_peak;
  m.startup_allocated = state.used_memory_startup;
  m.overhead_total = m.startup_allocated;
  for (size_t i = 0; i < state.dbs.count(); ++i) {
    const Db& db = state.dbs.db(i);
    if (db.size() == 0) continue;
    const Db::TableOverhead o = db.Overhead();
    m.dbs.push_back({i, o.main, o.expires});
    m.overhead_total += o.main + o.expires;
    m.total_keys += db.size();
  }
  // Redis's subtraction is unsigned; kvserver's estimate of the tables cannot exceed what the
  // allocator holds, but the startup figure is a sample, so clamp rather than wrap.
  m.dataset = m.total_allocated > m.overhead_total ? m.total_allocated - m.overhead_total : 0;
  m.peak_perc = static_cast<float>(m.total_allocated) * 100 / static_cast<float>(m.peak_allocated);
  const size_t net =
      m.total_allocated > m.startup_allocated ? m.total_allocated - m.startup_allocated : 1;
  m.dataset_perc = static_cast<float>(m.dataset) * 100 / static_cast<float>(net);
  m.bytes_per_key = m.total_keys ? net / m.total_keys : 0;
  m.total_frag =
      m.total_allocated ? static_cast<float>(m.rss) / static_cast<float>(m.total_allocated) : 0;
  m.total_frag_bytes = static_cast<int64_t>(m.rss) - static_cast<int64_t>(m.total_allocated);
  return m;
}

}  // namespace kv
