#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/functional/function_ref.h"
#include "storage/scored_member.h"
#include "storage/table_stats.h"

namespace kv {

// The member -> score side of a big sorted set: a hash set of pointers to its ScoredMember
// blocks (the same blocks its ScoreTree orders), keyed by the member's bytes. ZSCORE, ZADD and
// ZREM find a member, and with it its score, in one probe and usually one block read.
//
// Open addressing with linear probing and Robin Hood insertion. A slot is one word: the block's
// address (48 bits), 8 bits of the member's hash, so that most mismatches are rejected without
// reading the block, and the slot's distance from the member's home slot (+1; 0 marks an empty
// slot), which keeps each probe short and lets deletion shift the cluster back without
// rehashing. A member's home slot is its hash scaled to the capacity (hash * capacity / 2^64), so
// any capacity works: the table grows by half when 7/8 full and so stays between 58% and 88%
// full, about 11 bytes per member where Redis's dict spends a bucket and a 24-byte dictEntry.
//
// Because homes follow the hash, the table is ordered by hash: a SCAN cursor is a position in hash
// space, valid across growth and shrinking (every member present for the whole scan is returned).
class MemberIndex {
 public:
  MemberIndex() = default;
  MemberIndex(MemberIndex&& other) noexcept;
  MemberIndex& operator=(MemberIndex&& other) noexcept;
  MemberIndex(const MemberIndex&) = delete;
  MemberIndex& operator=(const MemberIndex&) = delete;
  // Frees the table, not the members.
  ~MemberIndex();

  static uint64_t Hash(std::string_view member);

  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }

  ScoredMember* Find(std::string_view member) const;
  // Adds `m`, whose member must not be present.
  void Insert(ScoredMember* m);
  // Removes the member and returns its block (not freed), or nullptr.
  ScoredMember* Erase(std::string_view member);
  // Forgets every member (without freeing them) and the table.
  void Clear();
  // Lazy freeing of a big set's index, whose members are freed apart: gives the table's pages
  // back to the OS about `budget` slots at a time, from the end, then frees the table (Clear)
  // and returns true. Freeing a 100 MB table whose pages are all mapped would hold the thread for
  // tens of milliseconds in munmap. After the first call only ReleaseSome and the destructor may
  // be used.
  bool ReleaseSome(size_t budget);
  // Makes room for `n` members without growing again.
  void Reserve(size_t n);

  // One SCAN step: calls `fn` for the members of whole home slots from hash position `cursor`
  // on, until at least `count` were returned; returns the next cursor, 0 at the end.
  uint64_t Scan(uint64_t cursor, size_t count, absl::FunctionRef<void(ScoredMember*)> fn) const;

  // Bytes of the table (not the members).
  size_t TableBytes() const;
  // Every member, in table order.
  void ForEach(absl::FunctionRef<void(ScoredMember*)> fn) const;
  // Checks the layout (distances, Robin Hood order, count, load); for tests.
  bool Check() const;

  // The table's shape (DEBUG HTSTATS-KEY): a chain is the run of members sharing a home slot.
  TableStats Stats() const;

 private:
  static constexpr int kTagShift = 48;
  static constexpr int kDistShift = 56;
  static constexpr uint64_t kAddressMask = (uint64_t{1} << kTagShift) - 1;
  static constexpr uint64_t kMaxDist = 255;

  static ScoredMember* BlockOf(uint64_t w) {
    return reinterpret_cast<ScoredMember*>(w & kAddressMask);
  }
  static uint64_t DistOf(uint64_t w) { return w >> kDistShift; }
  static uint64_t TagOf(uint64_t h) { return h & 0xff; }
  size_t Home(uint64_t h) const {
    return static_cast<size_t>((static_cast<unsigned __int128>(h) * capacity_) >> 64);
  }
  size_t Next(size_t i) const { return i + 1 == capacity_ ? 0 : i + 1; }
  // Places a member known to be absent; false (and the table as before) if a distance would
  // pass kMaxDist.
  bool Place(ScoredMember* m, uint64_t h);
  void Rehash(size_t capacity);
  static size_t CapacityFor(size_t n);
  // The smallest hash whose home is slot `s` (s < capacity).
  uint64_t FirstHashOf(size_t s) const;

  uint64_t* slots_ = nullptr;
  size_t capacity_ = 0;
  size_t size_ = 0;
};

}  // namespace kv
