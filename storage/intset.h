#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string_view>

namespace kv {

// Redis's intset: a sorted set of distinct integers in one heap block, byte for byte the layout
// Redis keeps small all-integer sets in and writes into RDB files as-is:
//
//   [encoding: u32 LE, 2, 4 or 8 bytes per value][length: u32 LE][values: sorted, little-endian]
//
// The encoding is the smallest width that holds every value ever added: a value that needs a
// wider one upgrades the whole set, and removals never narrow it again, as in Redis.
//
// The object is one pointer; an empty set points at a shared constant block (encoding 2, length
// 0, as intsetNew) and allocates nothing. Lookups are binary searches.
class IntSet {
 public:
  static constexpr size_t kHeaderSize = 8;

  IntSet() noexcept;
  IntSet(IntSet&& other) noexcept;
  IntSet& operator=(IntSet&& other) noexcept;
  IntSet(const IntSet&) = delete;
  IntSet& operator=(const IntSet&) = delete;
  ~IntSet();

  // A copy in a block of its exact size.
  IntSet Clone() const;
  // Checks `bytes` as Redis's intsetValidateIntegrity: a known encoding, a size that matches the
  // length, and at least one value; with `deep`, also values strictly ascending.
  static bool Validate(std::string_view bytes, bool deep);
  // A set holding a copy of `bytes`, or nullopt if Validate(bytes, deep) fails.
  static std::optional<IntSet> FromBytes(std::string_view bytes, bool deep = true);

  // Adds `v`; false if it was there already.
  bool Add(int64_t v);
  // Removes `v`; false if it was not there.
  bool Remove(int64_t v);
  bool Contains(int64_t v) const;

  size_t size() const;
  bool empty() const { return size() == 0; }
  // The value at `index` in ascending order (index < size()).
  int64_t Get(size_t index) const;
  // Redis's intsetRandom with `random` in place of rand(): Get(random % size()); not empty.
  int64_t Random(uint64_t random) const { return Get(random % size()); }
  int64_t Min() const { return Get(0); }
  int64_t Max() const { return Get(size() - 1); }

  // Bytes per value: 2, 4 or 8.
  uint32_t encoding() const;
  // The bytes of the set (header and values, not the block's unused tail): RDB, DEBUG, tests.
  size_t bytes() const { return kHeaderSize + size() * encoding(); }
  const uint8_t* data() const { return block_; }
  std::string_view view() const { return {reinterpret_cast<const char*>(block_), bytes()}; }
  // Bytes taken from the allocator (0 when empty), for memory accounting.
  size_t allocated() const;
  // The width a value needs: 2, 4 or 8 (_intsetValueEncoding).
  static uint32_t EncodingFor(int64_t v);

  // Ascending iteration: for (int64_t v : set).
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = int64_t;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = int64_t;

    Iterator() = default;
    Iterator(const IntSet* set, size_t index) : set_(set), index_(index) {}
    int64_t operator*() const { return set_->Get(index_); }
    Iterator& operator++() {
      ++index_;
      return *this;
    }
    Iterator operator++(int) {
      Iterator old = *this;
      ++index_;
      return old;
    }
    friend bool operator==(const Iterator& a, const Iterator& b) { return a.index_ == b.index_; }

   private:
    const IntSet* set_ = nullptr;
    size_t index_ = 0;
  };
  Iterator begin() const { return {this, 0}; }
  Iterator end() const { return {this, size()}; }

 private:
  explicit IntSet(uint8_t* block) : block_(block) {}
  bool is_shared_empty() const;
  // Binary search (intsetSearch): true and the index if `v` is there, else false and the index
  // it would be inserted at.
  bool Search(int64_t v, size_t* index) const;
  // Makes the block hold `n` bytes (keeping the current ones).
  void Reserve(size_t n);
  void MaybeShrink(size_t n);
  // Rewrites every value at width `enc` and adds `v`, which is below or above all of them.
  void UpgradeAndAdd(int64_t v, uint32_t enc);
  void SetLength(uint32_t n);
  void SetEncoding(uint32_t enc);
  void Put(size_t index, int64_t v, uint32_t enc);

  uint8_t* block_;
};

}  // namespace kv
