#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>

#include "absl/functional/function_ref.h"
#include "storage/packed_string.h"
#include "storage/table_stats.h"

namespace kv {

// A set of distinct binary-safe strings: the big form of a set (Redis's "hashtable" encoding).
//
// Open addressing with linear probing and Robin Hood insertion over a power-of-two array of
// PackedStrings (one word each: strings of up to 7 bytes live in the word, longer ones in a block
// of just their bytes), plus one byte per slot holding its distance from the member's home slot
// (0 = empty). A member's home slot is the top bits of its 64-bit hash, and Robin Hood keeps the
// members of a cluster ordered by home slot, so the table is sorted by hash prefix: a lookup stops
// as soon as it meets a member whose home lies after its own, and an insertion is a shift of the
// rest of the cluster by one. Per member this costs 9 bytes of table (at most 7/8 full) plus the
// string's own block, where Redis's dict spends a bucket pointer, a 24-byte dictEntry and an sds.
//
// Because members sit in hash order, a SCAN cursor is a position in hash space: each step returns
// the members of whole home slots from the cursor on, and the next cursor is the first hash of the
// next home slot. Doubling the table splits every home slot in two without reordering, so a
// cursor stays valid while the table grows (and, with a hash check on the first slot, while it
// shrinks): every member present for the whole iteration is returned, and none twice.
class StringHashSet {
 public:
  static constexpr size_t kMinCapacity = 4;

  StringHashSet() = default;
  StringHashSet(StringHashSet&& other) noexcept;
  StringHashSet& operator=(StringHashSet&& other) noexcept;
  StringHashSet(const StringHashSet&) = delete;
  StringHashSet& operator=(const StringHashSet&) = delete;
  ~StringHashSet();

  // A copy with the same capacity and layout.
  StringHashSet Clone() const;

  static uint64_t Hash(std::string_view s);

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return slots_ == nullptr ? 0 : mask_ + 1; }

  // Adds `s`; false if it was there already.
  bool Insert(std::string_view s);
  // Removes `s`; false if it was not there.
  bool Erase(std::string_view s);
  bool Contains(std::string_view s) const;
  // Makes room for `n` members without growing again.
  void Reserve(size_t n);
  // Frees members from the last slot down, about `budget` slots' worth, and the array with the
  // last of them; true once everything is freed (lazy freeing, see Releasable). Between calls
  // the set holds the members not freed yet, but only ReleaseSome and the destructor may be used.
  bool ReleaseSome(size_t budget);

  // Slots, for random picks and removal without a second lookup. A slot index stays valid only
  // until the next change.
  bool occupied(size_t slot) const { return dist_[slot] != 0; }
  std::string_view at(size_t slot) const { return slots_[slot].view(); }
  // A uniformly chosen occupied slot, drawing 64-bit numbers from `random` (the set is not
  // empty): rejection sampling over the array, which is at least 1/16 full.
  size_t RandomSlot(absl::FunctionRef<uint64_t()> random) const;
  // Removes the member at an occupied slot.
  void EraseSlot(size_t slot);

  // One SCAN step: calls `fn` for the members of whole home slots from hash position `cursor` on,
  // stopping at a home slot boundary once `count` members were returned or `count` * 10 slots
  // looked at; returns the next cursor, 0 when the end was reached. Any 64-bit cursor is valid.
  uint64_t Scan(uint64_t cursor, size_t count, absl::FunctionRef<void(std::string_view)> fn) const;

  // Bytes taken from the allocator: the array's block, and the members' own blocks (with
  // `samples` > 0, that many members are measured and the rest estimated from them).
  size_t AllocatedBytes(size_t samples) const;
  // Checks the layout (for tests): each member's distance matches its hash, homes never
  // decrease along a cluster, the count and the load bounds hold.
  bool Valid() const;
  // Members that own a heap block (longer than PackedString's inline capacity).
  size_t HeapMembers() const;
  // The table's shape (DEBUG HTSTATS-KEY): a chain is the run of members sharing a home slot.
  TableStats Stats() const;

  // Iteration in slot order: for (std::string_view m : set).
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = std::string_view;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = std::string_view;

    Iterator() = default;
    Iterator(const StringHashSet* set, size_t slot) : set_(set), slot_(slot) { Skip(); }
    std::string_view operator*() const { return set_->at(slot_); }
    Iterator& operator++() {
      ++slot_;
      Skip();
      return *this;
    }
    friend bool operator==(const Iterator& a, const Iterator& b) { return a.slot_ == b.slot_; }
    size_t slot() const { return slot_; }

   private:
    void Skip() {
      const size_t cap = set_->capacity();
      while (slot_ < cap && !set_->occupied(slot_)) ++slot_;
    }
    const StringHashSet* set_ = nullptr;
    size_t slot_ = 0;
  };
  Iterator begin() const { return {this, 0}; }
  Iterator end() const { return {this, capacity()}; }

 private:
  // Where a lookup for a member with hash `h` ended: found at `slot`, or not found and `slot` is
  // where Robin Hood inserts it, `dist` being its distance + 1 there.
  struct Probe {
    bool found;
    size_t slot;
    uint32_t dist;
  };
  size_t Home(uint64_t h) const { return static_cast<size_t>(h >> shift_); }
  Probe Find(std::string_view s, uint64_t h) const;
  // Places `s` at probe.slot, shifting the rest of the cluster by one; false (and nothing
  // changed) if a distance would overflow its byte.
  bool PlaceAt(const Probe& probe, PackedString&& s);
  // Inserts a member known to be absent.
  void InsertNew(PackedString&& s, uint64_t h);
  // Moves every member into a fresh array of `capacity` slots.
  void Rehash(size_t capacity);
  void Allocate(size_t capacity);
  void Free();
  // The capacity that holds `n` members within the maximum load.
  static size_t CapacityFor(size_t n);

  PackedString* slots_ = nullptr;
  uint8_t* dist_ = nullptr;  // right after the slots, in the same block
  size_t mask_ = 0;
  size_t size_ = 0;
  uint32_t shift_ = 64;
};

}  // namespace kv
