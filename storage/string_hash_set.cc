#include "storage/string_hash_set.h"

#include <malloc.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#include "storage/drop_pages.h"
#include "storage/key_hash.h"

namespace kv {
namespace {

// At most 7/8 full; below 1/16 full the table shrinks.
constexpr size_t kMaxLoadNum = 7;
constexpr size_t kMaxLoadDen = 8;
constexpr size_t kMinLoadDen = 16;
// Distances are stored + 1 in a byte.
constexpr uint32_t kMaxDist = 255;

}  // namespace

StringHashSet::StringHashSet(StringHashSet&& other) noexcept
    : slots_(std::exchange(other.slots_, nullptr)),
      dist_(std::exchange(other.dist_, nullptr)),
      mask_(std::exchange(other.mask_, 0)),
      size_(std::exchange(other.size_, 0)),
      shift_(std::exchange(other.shift_, 64)) {}

StringHashSet& StringHashSet::operator=(StringHashSet&& other) noexcept {
  if (this != &other) {
    Free();
    slots_ = std::exchange(other.slots_, nullptr);
    dist_ = std::exchange(other.dist_, nullptr);
    mask_ = std::exchange(other.mask_, 0);
    size_ = std::exchange(other.size_, 0);
    shift_ = std::exchange(other.shift_, 64);
  }
  return *this;
}

StringHashSet::~StringHashSet() { Free(); }

uint64_t StringHashSet::Hash(std::string_view s) { return KeyHash{}(s); }

size_t StringHashSet::CapacityFor(size_t n) {
  size_t cap = kMinCapacity;
  while (n * kMaxLoadDen > cap * kMaxLoadNum) cap *= 2;
  return cap;
}

void StringHashSet::Allocate(size_t capacity) {
  // One block: the slots, then their distance bytes.
  void* p = std::malloc(capacity * sizeof(PackedString) + capacity);
  if (p == nullptr) throw std::bad_alloc();
  slots_ = static_cast<PackedString*>(p);
  for (size_t i = 0; i < capacity; ++i) new (&slots_[i]) PackedString();
  dist_ = reinterpret_cast<uint8_t*>(slots_ + capacity);
  std::memset(dist_, 0, capacity);
  mask_ = capacity - 1;
  shift_ = 64 - static_cast<uint32_t>(std::countr_zero(capacity));
}

void StringHashSet::Free() {
  if (slots_ == nullptr) return;
  for (size_t i = 0; i <= mask_; ++i) slots_[i].~PackedString();
  std::free(slots_);
  slots_ = nullptr;
  dist_ = nullptr;
  mask_ = 0;
  size_ = 0;
  shift_ = 64;
}

bool StringHashSet::ReleaseSome(size_t budget) {
  // mask_ becomes the last slot not freed yet (no longer a mask), so that Free() frees the rest.
  // Every kDropSlots slots, the pages of the slots and distances done with go back to the OS, so
  // that freeing the array at the end does not unmap a huge block page by page.
  constexpr size_t kDropSlots = 64 * 1024;
  const size_t capacity = static_cast<size_t>(reinterpret_cast<PackedString*>(dist_) - slots_);
  for (; slots_ != nullptr && budget > 0; --budget) {
    if (dist_[mask_] != 0) --size_;
    slots_[mask_].~PackedString();
    if ((capacity - mask_) % kDropSlots == 0) {
      // Up to the previous drop, and a page more for the page the two share.
      const size_t end = std::min(capacity, mask_ + kDropSlots + 4096);
      DropPages(slots_ + mask_, slots_ + end);
      DropPages(dist_ + mask_, dist_ + end);
    }
    if (mask_ == 0) {
      std::free(slots_);
      slots_ = nullptr;
      dist_ = nullptr;
      size_ = 0;
      shift_ = 64;
      break;
    }
    --mask_;
  }
  return slots_ == nullptr;
}

StringHashSet StringHashSet::Clone() const {
  StringHashSet copy;
  if (slots_ == nullptr) return copy;
  copy.Allocate(capacity());
  for (size_t i = 0; i <= mask_; ++i) {
    if (dist_[i] != 0) copy.slots_[i] = PackedString(slots_[i].view());
  }
  std::memcpy(copy.dist_, dist_, capacity());
  copy.size_ = size_;
  return copy;
}

StringHashSet::Probe StringHashSet::Find(std::string_view s, uint64_t h) const {
  size_t slot = Home(h);
  for (uint32_t d = 1;; ++d, slot = (slot + 1) & mask_) {
    const uint32_t sd = dist_[slot];
    // An empty slot, or a member whose home lies after ours: where `s` would go.
    if (sd < d) return {false, slot, d};
    if (sd == d && slots_[slot].view() == s) return {true, slot, d};
  }
}

bool StringHashSet::Contains(std::string_view s) const {
  return size_ != 0 && Find(s, Hash(s)).found;
}

bool StringHashSet::PlaceAt(const Probe& probe, PackedString&& s) {
  if (probe.dist > kMaxDist) return false;
  // The cluster's tail from probe.slot moves one slot on, each member one further from home.
  size_t end = probe.slot;
  while (dist_[end] != 0) {
    if (dist_[end] == kMaxDist) return false;
    end = (end + 1) & mask_;
  }
  for (size_t i = end; i != probe.slot;) {
    const size_t prev = (i - 1) & mask_;
    slots_[i] = std::move(slots_[prev]);
    dist_[i] = static_cast<uint8_t>(dist_[prev] + 1);
    i = prev;
  }
  slots_[probe.slot] = std::move(s);
  dist_[probe.slot] = static_cast<uint8_t>(probe.dist);
  ++size_;
  return true;
}

void StringHashSet::InsertNew(PackedString&& s, uint64_t h) {
  for (;;) {
    size_t slot = Home(h);
    uint32_t d = 1;
    while (dist_[slot] >= d) {
      slot = (slot + 1) & mask_;
      ++d;
    }
    if (PlaceAt({false, slot, d}, std::move(s))) return;
    Rehash(capacity() * 2);
  }
}

bool StringHashSet::Insert(std::string_view s) {
  const uint64_t h = Hash(s);
  if (slots_ == nullptr) Allocate(kMinCapacity);
  Probe probe = Find(s, h);
  if (probe.found) return false;
  if ((size_ + 1) * kMaxLoadDen > capacity() * kMaxLoadNum) {
    Rehash(capacity() * 2);
    probe = Find(s, h);
  }
  PackedString member(s);
  if (!PlaceAt(probe, std::move(member))) InsertNew(std::move(member), h);
  return true;
}

void StringHashSet::EraseSlot(size_t slot) {
  slots_[slot] = PackedString();
  // Backward shift: the rest of the cluster moves one slot nearer home.
  size_t next = (slot + 1) & mask_;
  while (dist_[next] > 1) {
    slots_[slot] = std::move(slots_[next]);
    dist_[slot] = static_cast<uint8_t>(dist_[next] - 1);
    slot = next;
    next = (next + 1) & mask_;
  }
  dist_[slot] = 0;
  --size_;
  if (size_ * kMinLoadDen < capacity() && capacity() > kMinCapacity) {
    Rehash(CapacityFor(size_ * 2));
  }
}

bool StringHashSet::Erase(std::string_view s) {
  if (size_ == 0) return false;
  const Probe probe = Find(s, Hash(s));
  if (!probe.found) return false;
  EraseSlot(probe.slot);
  return true;
}

void StringHashSet::Reserve(size_t n) {
  const size_t cap = CapacityFor(n);
  if (cap > capacity()) Rehash(cap);
}

void StringHashSet::Rehash(size_t capacity) {
  // The new array first: if it cannot be had, the set stays as it was.
  StringHashSet fresh;
  fresh.Allocate(capacity);
  for (size_t i = 0; i < this->capacity(); ++i) {
    if (dist_[i] == 0) continue;
    const uint64_t h = Hash(slots_[i].view());
    fresh.InsertNew(std::move(slots_[i]), h);
  }
  *this = std::move(fresh);
}

size_t StringHashSet::RandomSlot(absl::FunctionRef<uint64_t()> random) const {
  for (;;) {
    const size_t slot = static_cast<size_t>(random()) & mask_;
    if (dist_[slot] != 0) return slot;
  }
}

uint64_t StringHashSet::Scan(uint64_t cursor, size_t count,
                             absl::FunctionRef<void(std::string_view)> fn) const {
  if (size_ == 0) return 0;
  const size_t cap = capacity();
  const size_t first = Home(cursor);
  // A cursor from before the table shrank may fall inside a home slot: members of that slot
  // hashing below it were returned already.
  const bool aligned = (cursor & ((uint64_t{1} << shift_) - 1)) == 0;
  const size_t budget = count > SIZE_MAX / 10 ? SIZE_MAX : count * 10;
  size_t returned = 0, looked = 0;
  size_t group = first;  // the home slot being returned
  // Walk positions u = first, first + 1, ... (unwrapped: slot u & mask_). The member at u has
  // its home at u - distance, also unwrapped; members with homes before `first` were returned
  // earlier, and a home at or past `cap` is a home slot from the start of the table.
  for (size_t u = first;; ++u) {
    const size_t slot = u & mask_;
    const uint32_t sd = dist_[slot];
    ++looked;
    if (sd == 0) {
      // Every home slot up to u is complete.
      if (u + 1 >= cap) return 0;
      if (u >= group && (returned >= count || looked >= budget)) {
        return static_cast<uint64_t>(u + 1) << shift_;
      }
      if (u >= group) group = u + 1;
      continue;
    }
    const size_t home = u - (sd - 1);
    if (u < sd - 1 || home < first) continue;
    if (home >= cap) return 0;
    if (home != group) {
      if (returned >= count || looked >= budget) return static_cast<uint64_t>(home) << shift_;
      group = home;
    }
    const std::string_view m = slots_[slot].view();
    if (!aligned && home == first && Hash(m) < cursor) continue;
    fn(m);
    ++returned;
  }
}

bool StringHashSet::Valid() const {
  if (slots_ == nullptr) return size_ == 0;
  size_t n = 0;
  for (size_t i = 0; i <= mask_; ++i) {
    if (dist_[i] == 0) continue;
    ++n;
    const size_t home = Home(Hash(slots_[i].view()));
    if (((i - home) & mask_) + 1 != dist_[i]) return false;
    // Robin Hood order: the previous slot is empty, or its member's home is not after ours.
    const size_t prev = (i - 1) & mask_;
    if (dist_[prev] == 0 ? dist_[i] != 1 : dist_[prev] + 1 < dist_[i]) return false;
  }
  return n == size_ && size_ * kMaxLoadDen <= capacity() * kMaxLoadNum;
}

size_t StringHashSet::HeapMembers() const {
  size_t n = 0;
  for (size_t i = 0; i < capacity(); ++i) n += dist_[i] != 0 && slots_[i].on_heap();
  return n;
}

size_t StringHashSet::AllocatedBytes(size_t samples) const {
  if (slots_ == nullptr) return 0;
  size_t bytes = malloc_usable_size(slots_);
  size_t measured = 0, member_bytes = 0;
  for (size_t i = 0; i <= mask_; ++i) {
    if (dist_[i] == 0) continue;
    member_bytes += slots_[i].allocated();
    if (++measured == samples) break;
  }
  if (measured == 0) return bytes;
  if (measured < size_) {
    return bytes + static_cast<size_t>(static_cast<double>(member_bytes) / measured * size_);
  }
  return bytes + member_bytes;
}

TableStats StringHashSet::Stats() const {
  TableStats stats;
  stats.table_size = capacity();
  stats.elements = size_;
  if (size_ != 0) {
    // A home's members are consecutive (Robin Hood keeps a cluster ordered by home).
    AddHomeRuns(stats, capacity(), [this](size_t i) {
      return dist_[i] == 0 ? kEmptySlot : (i - (dist_[i] - 1)) & mask_;
    });
  }
  stats.Finish();
  return stats;
}

}  // namespace kv
