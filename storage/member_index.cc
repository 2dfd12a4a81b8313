#include "storage/member_index.h"

#include <malloc.h>

#include <algorithm>
#include <cstdlib>
#include <new>
#include <utility>

#include "absl/hash/hash.h"
#include "storage/drop_pages.h"

namespace kv {
namespace {

constexpr size_t kMinCapacity = 8;

uint64_t* AllocateSlots(size_t n) {
  void* p = std::calloc(n, sizeof(uint64_t));
  if (p == nullptr) throw std::bad_alloc();
  return static_cast<uint64_t*>(p);
}

}  // namespace

MemberIndex::MemberIndex(MemberIndex&& other) noexcept { *this = std::move(other); }

MemberIndex& MemberIndex::operator=(MemberIndex&& other) noexcept {
  if (this == &other) return *this;
  std::free(slots_);
  slots_ = std::exchange(other.slots_, nullptr);
  capacity_ = std::exchange(other.capacity_, 0);
  size_ = std::exchange(other.size_, 0);
  return *this;
}

MemberIndex::~MemberIndex() { std::free(slots_); }

uint64_t MemberIndex::Hash(std::string_view member) { return absl::HashOf(member); }

size_t MemberIndex::CapacityFor(size_t n) {
  return std::max(kMinCapacity, n + n / 7 + 1);  // at most 7/8 full
}

ScoredMember* MemberIndex::Find(std::string_view member) const {
  if (size_ == 0) return nullptr;
  const uint64_t h = Hash(member);
  const uint64_t tag = TagOf(h);
  size_t i = Home(h);
  for (uint64_t d = 1; d <= kMaxDist; ++d, i = Next(i)) {
    const uint64_t w = slots_[i];
    if (DistOf(w) < d) return nullptr;  // empty (0), or a member closer to its home
    if (DistOf(w) == d && ((w >> kTagShift) & 0xff) == tag) {
      ScoredMember* m = BlockOf(w);
      if (m->member() == member) return m;
    }
  }
  return nullptr;
}

bool MemberIndex::Place(ScoredMember* m, uint64_t h) {
  const uint64_t address = reinterpret_cast<uintptr_t>(m);
  uint64_t carried = address | (TagOf(h) << kTagShift);
  uint64_t d = 1;
  size_t i = Home(h);
  for (;;) {
    const uint64_t w = slots_[i];
    if (w == 0) {
      slots_[i] = carried | (d << kDistShift);
      return true;
    }
    if (DistOf(w) < d) {
      // Robin Hood: the resident is closer to its home; it moves on instead.
      slots_[i] = carried | (d << kDistShift);
      carried = w & ~(uint64_t{0xff} << kDistShift);
      d = DistOf(w);
    }
    i = Next(i);
    if (++d > kMaxDist) {
      // Put back what is carried by growing: the caller retries with the rest in place.
      const uint64_t c = carried;
      Rehash(capacity_ + capacity_ / 2);
      ScoredMember* cm = BlockOf(c);
      return Place(cm, Hash(cm->member()));
    }
  }
}

void MemberIndex::Insert(ScoredMember* m) {
  if (reinterpret_cast<uintptr_t>(m) > kAddressMask) throw std::bad_alloc();
  if ((size_ + 1) * 8 > capacity_ * 7) {
    Rehash(std::max(CapacityFor(size_ + 1), capacity_ + capacity_ / 2));
  }
  Place(m, Hash(m->member()));
  ++size_;
}

ScoredMember* MemberIndex::Erase(std::string_view member) {
  if (size_ == 0) return nullptr;
  const uint64_t h = Hash(member);
  const uint64_t tag = TagOf(h);
  size_t i = Home(h);
  for (uint64_t d = 1; d <= kMaxDist; ++d, i = Next(i)) {
    const uint64_t w = slots_[i];
    if (DistOf(w) < d) return nullptr;
    if (DistOf(w) != d || ((w >> kTagShift) & 0xff) != tag) continue;
    ScoredMember* m = BlockOf(w);
    if (m->member() != member) continue;
    // Shift the rest of the cluster back by one.
    size_t hole = i;
    for (size_t j = Next(i); DistOf(slots_[j]) > 1; j = Next(j)) {
      slots_[hole] = slots_[j] - (uint64_t{1} << kDistShift);
      hole = j;
    }
    slots_[hole] = 0;
    --size_;
    if (size_ == 0) {
      Clear();
    } else if (capacity_ > kMinCapacity && size_ < capacity_ / 8) {
      Rehash(CapacityFor(size_ * 2));
    }
    return m;
  }
  return nullptr;
}

void MemberIndex::Clear() {
  std::free(slots_);
  slots_ = nullptr;
  capacity_ = 0;
  size_ = 0;
}

bool MemberIndex::ReleaseSome(size_t budget) {
  // capacity_ becomes the count of slots not passed yet. Each step also covers the page it
  // shares with the previous one (DropPages leaves pages partly outside its range).
  const size_t step = std::min(capacity_, budget);
  const size_t slots_per_page = 4096 / sizeof(uint64_t);
  const size_t end = std::min(capacity_ + slots_per_page, TableBytes() / sizeof(uint64_t));
  DropPages(slots_ + capacity_ - step, slots_ + end);
  capacity_ -= step;
  if (capacity_ > 0) return false;
  Clear();
  return true;
}

void MemberIndex::Reserve(size_t n) {
  if (CapacityFor(n) > capacity_) Rehash(CapacityFor(n));
}

void MemberIndex::Rehash(size_t capacity) {
  uint64_t* old = slots_;
  const size_t old_capacity = capacity_;
  slots_ = AllocateSlots(capacity);
  capacity_ = capacity;
  for (size_t i = 0; i < old_capacity; ++i) {
    if (old[i] == 0) continue;
    ScoredMember* m = BlockOf(old[i]);
    Place(m, Hash(m->member()));
  }
  std::free(old);
}

uint64_t MemberIndex::FirstHashOf(size_t s) const {
  const unsigned __int128 top = static_cast<unsigned __int128>(s) << 64;
  return static_cast<uint64_t>((top + capacity_ - 1) / capacity_);
}

uint64_t MemberIndex::Scan(uint64_t cursor, size_t count,
                           absl::FunctionRef<void(ScoredMember*)> fn) const {
  if (size_ == 0) return 0;
  const size_t start = Home(cursor);
  size_t emitted = 0;
  size_t last_home = 0;
  // Returns true to stop before a member of home `home` (a new home slot once enough were
  // returned), setting `next`.
  uint64_t next = 0;
  auto visit = [&](uint64_t w, size_t home) {
    if (emitted >= count && home != last_home) {
      next = FirstHashOf(home);
      return true;
    }
    fn(BlockOf(w));
    ++emitted;
    last_home = home;
    return false;
  };
  // Members in place or displaced forward within the array, from the cursor's home slot on...
  for (size_t p = start; p < capacity_; ++p) {
    const uint64_t w = slots_[p];
    if (w == 0) continue;
    const uint64_t d = DistOf(w) - 1;
    if (p < d) continue;  // wrapped around from the end: below
    const size_t home = p - d;
    if (home < start) continue;
    if (visit(w, home)) return next;
  }
  // ...then those that wrapped around from the last slots to the first ones.
  for (size_t p = 0; p < capacity_; ++p) {
    const uint64_t w = slots_[p];
    if (w == 0) break;
    const uint64_t d = DistOf(w) - 1;
    if (p >= d) break;
    const size_t home = p + capacity_ - d;
    if (home < start) continue;
    if (visit(w, home)) return next;
  }
  return 0;
}

size_t MemberIndex::TableBytes() const {
  return slots_ != nullptr ? malloc_usable_size(slots_) : 0;
}

void MemberIndex::ForEach(absl::FunctionRef<void(ScoredMember*)> fn) const {
  for (size_t i = 0; i < capacity_; ++i) {
    if (slots_[i] != 0) fn(BlockOf(slots_[i]));
  }
}

bool MemberIndex::Check() const {
  if (size_ == 0) return true;
  if (size_ * 8 > capacity_ * 7) return false;
  size_t n = 0;
  for (size_t i = 0; i < capacity_; ++i) {
    const uint64_t w = slots_[i];
    if (w == 0) continue;
    ++n;
    ScoredMember* m = BlockOf(w);
    const uint64_t h = Hash(m->member());
    if (((w >> kTagShift) & 0xff) != TagOf(h)) return false;
    const size_t home = Home(h);
    const size_t d = DistOf(w) - 1;
    if ((home + d) % capacity_ != i) return false;
    // Robin Hood: the next slot's member is at most one step further from its home.
    const uint64_t nw = slots_[Next(i)];
    if (nw != 0 && DistOf(nw) > DistOf(w) + 1) return false;
    if (Find(m->member()) != m) return false;
  }
  return n == size_;
}

TableStats MemberIndex::Stats() const {
  TableStats stats;
  stats.table_size = capacity_;
  stats.elements = size_;
  if (size_ != 0) {
    // A home's members are consecutive (Robin Hood).
    AddHomeRuns(stats, capacity_, [this](size_t i) {
      const uint64_t dist = DistOf(slots_[i]);
      if (dist == 0) return kEmptySlot;
      const size_t back = static_cast<size_t>(dist - 1);
      return i >= back ? i - back : i + capacity_ - back;
    });
  }
  stats.Finish();
  return stats;
}

}  // namespace kv
