// Db's memory accounting, eviction sampling and LFU counters: what MEMORY USAGE, MEMORY STATS and
// maxmemory eviction need to know about the layout. Sizes are the allocator's real ones
// (malloc_usable_size), so they stay true whichever malloc the process links.

#include <malloc.h>

#include "storage/db.h"

namespace kv {
namespace {

// A flat hash table's bytes: one slot and one control byte per slot of capacity.
template <typename Table>
size_t TableBytes(const Table& t) {
  return t.capacity() * (sizeof(typename Table::slot_type) + 1);
}

}  // namespace

std::optional<Db::KeyMemory> Db::MemoryOf(std::string_view key, size_t samples) const {
  const size_t h = KeyHash{}(key);
  const Map& map = SegmentFor(h).map;
  auto it = map.find(PrehashedKey{key, h});
  if (it == map.end()) return std::nullopt;
  const Entry* e = it->get();
  KeyMemory m;
  m.allocated = malloc_usable_size(const_cast<Entry*>(e)) + e->value().allocated(samples);
  m.table_share = TableBytes(map) / map.size();
  if (!expires_.empty()) {
    auto d = expires_.find(key);
    if (d != expires_.end()) {
      m.allocated += d->first.allocated();
      m.table_share += TableBytes(expires_) / expires_.size();
    }
  }
  return m;
}

Db::TableOverhead Db::Overhead() const {
  TableOverhead o;
  o.main =
      dir_.capacity() * sizeof(Segment*) + segments_.capacity() * sizeof(std::unique_ptr<Segment>);
  for (const auto& seg : segments_) o.main += sizeof(Segment) + TableBytes(seg->map);
  // Each entry's fixed part: the value's header.
  o.main += size_ * sizeof(Value);
  o.expires = TableBytes(expires_);
  return o;
}

void Db::SampleKeys(
    size_t n, bool volatile_only,
    absl::FunctionRef<void(std::string_view key, const Value& value, int64_t expire_at_ms)> fn) {
  if (volatile_only) {
    if (expires_.empty()) return;
    auto it = sample_cursor_.empty() ? expires_.end() : expires_.find(sample_cursor_);
    if (it == expires_.end()) it = expires_.begin();
    for (size_t i = 0; i < n && i < expires_.size(); ++i, ++it) {
      if (it == expires_.end()) it = expires_.begin();
      const std::string_view key = it->first.view();
      const size_t h = KeyHash{}(key);
      const Map& map = SegmentFor(h).map;
      auto e = map.find(PrehashedKey{key, h});
      if (e != map.end()) fn(key, (*e)->value(), it->second);
    }
    if (it == expires_.end()) {
      sample_cursor_.clear();
    } else {
      sample_cursor_.assign(it->first.view());
    }
    return;
  }
  if (size_ == 0) return;
  // A random directory entry, the first non-empty segment from there, a random position in it.
  size_t index = static_cast<size_t>(NextRandom() % dir_.size());
  while (dir_[index]->map.empty()) index = (index + 1) % dir_.size();
  const Map& map = dir_[index]->map;
  auto it = map.begin();
  std::advance(it, static_cast<ptrdiff_t>((rng_ >> 32) % map.size()));
  for (size_t i = 0; i < n && i < map.size(); ++i, ++it) {
    if (it == map.end()) it = map.begin();
    const Entry& e = **it;
    fn(e.key(), e.value(), expires_.empty() ? kNoExpiry : GetExpire(e.key()));
  }
}

// Redis's LFUDecrAndReturn: one step down per lfu-decay-time minutes since the last access
// (minutes counted as Redis counts them, from the Unix time divided by 60).
uint8_t Db::LfuCounter(const Value& v) const {
  const uint8_t counter = v.lru() & 0xff;
  if (lfu_decay_time_ == 0) return counter;
  // LFUTimeElapsed: minutes since the last decrement, in a 16-bit clock that wraps.
  const uint32_t last = v.lru() >> 8;
  const uint32_t now = LfuMinutes();
  const uint32_t elapsed = now >= last ? now - last : 65535 - last + now;
  const uint64_t periods = elapsed / static_cast<uint64_t>(lfu_decay_time_);
  return periods >= counter ? 0 : static_cast<uint8_t>(counter - periods);
}

uint32_t Db::IdleSeconds(const Value& v) const {
  const uint32_t now = LruClock();
  return now >= v.lru() ? now - v.lru() : now + (Value::kLruMax - v.lru());
}

// Redis's updateLFU: decay, then LFULogIncr (the counter grows with probability
// 1 / ((counter - LFU_INIT_VAL) * lfu-log-factor + 1), saturating at 255).
void Db::UpdateLfu(Value& v) {
  uint8_t counter = LfuCounter(v);
  if (counter < 255) {
    const double r = static_cast<double>(NextRandom() >> 11) * 0x1.0p-53;
    const double base = counter > kLfuInit ? counter - kLfuInit : 0;
    if (r < 1.0 / (base * static_cast<double>(lfu_log_factor_) + 1)) ++counter;
  }
  v.set_lru(LfuMinutes() << 8 | counter);
}

}  // namespace kv
