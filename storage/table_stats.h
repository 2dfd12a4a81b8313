#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace kv {

// The shape of one hash table, as Redis's dictGetStats reports a dict (DEBUG HTSTATS-KEY): its
// buckets, how many hold members, and how long their chains are. For a chained table a bucket's
// chain is its list of nodes; for an open-addressing table it is the run of members whose home is
// that slot (they sit together in the probe sequence, and a lookup for any of them walks it).
struct TableStats {
  // Redis's DICT_STATS_VECTLEN: chains of this length or more are counted in the last entry.
  static constexpr size_t kChainLengths = 50;

  size_t table_size = 0;    // buckets (slots)
  size_t elements = 0;      // members
  size_t used_buckets = 0;  // buckets with a chain ("different slots")
  size_t max_chain = 0;
  size_t total_chain = 0;
  // chains[n]: buckets whose chain has n members; chains[0] the empty ones.
  std::array<size_t, kChainLengths> chains{};

  void AddChain(size_t n) {
    if (n == 0) return;
    ++used_buckets;
    ++chains[std::min(n, kChainLengths - 1)];
    max_chain = std::max(max_chain, n);
    total_chain += n;
  }
  // Once every chain is added: the rest of the buckets are empty.
  void Finish() { chains[0] = table_size - used_buckets; }
};

// What HomeOf returns for an empty slot.
inline constexpr size_t kEmptySlot = SIZE_MAX;

// Adds the chains of an open-addressing table whose members sit in runs by home slot (Robin
// Hood): one walk around its `capacity` slots from an empty one (the table is never full).
// `home_of(slot)` is the home of the slot's member, or kEmptySlot.
template <typename HomeOf>
void AddHomeRuns(TableStats& stats, size_t capacity, HomeOf home_of) {
  size_t start = 0;
  while (home_of(start) != kEmptySlot) ++start;
  size_t run_home = 0;
  size_t run = 0;
  for (size_t k = 1; k <= capacity; ++k) {
    const size_t home = home_of((start + k) % capacity);
    if (home == kEmptySlot) {
      stats.AddChain(std::exchange(run, 0));
      continue;
    }
    if (run != 0 && home != run_home) stats.AddChain(std::exchange(run, 0));
    run_home = home;
    ++run;
  }
  stats.AddChain(run);
}

}  // namespace kv
