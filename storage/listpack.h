#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <string_view>

#include "absl/functional/function_ref.h"

namespace kv {

// One element of a ListPack as read: an integer or a view of string bytes inside the block (valid
// until the list pack changes). A string that is a canonical integer is always stored, and so
// read, as an integer.
struct ListPackValue {
  // Enough for any int64_t in decimal ("-9223372036854775808" is 20 bytes), as LP_INTBUF_SIZE.
  static constexpr size_t kIntBufSize = 21;

  std::string_view str;  // the string's bytes when !is_int
  int64_t num = 0;       // the value when is_int
  bool is_int = false;

  // The element as a string: `str`, or `num` in decimal written into `buf`.
  std::string_view ToString(char (&buf)[kIntBufSize]) const;
  // Redis's lpCompare: a string element equals the same bytes; an integer element equals its
  // canonical decimal form only ("1" does, "01", "+1" and "1.0" do not).
  bool Equals(std::string_view s) const;
};

// Redis 7.0's listpack: a sequence of strings and integers in one heap block, byte for byte the
// layout Redis keeps in small lists (quicklist nodes), hashes and sorted sets, and writes into RDB
// files as-is:
//
//   [total bytes: u32 LE][element count: u16 LE, 65535 = unknown][entry]...[0xFF]
//   entry = [encoding + data][backlen: the size of encoding + data, 1-5 bytes, read backwards]
//
// Integers take 1 (0..127), 2 (13 bits), 3, 4, 5 or 9 bytes (16/24/32/64-bit signed); strings
// a 1-, 2- or 5-byte header for lengths under 64, under 4096 and up to 2^32-1. A string that is a
// canonical integer (Redis's lpStringToInt64: at most 20 bytes, optional '-', no leading zeros,
// no '+', no spaces, not "-0", fits int64) is stored as that integer, exactly as Redis does, so the
// bytes equal Redis's for the same operations.
//
// Elements are addressed by Pos, the byte offset of their entry in the block. A mutation moves
// the entries after the one it changes (and may move the block), so positions after it go stale;
// each mutation returns the position to continue from. Reading never changes positions.
//
// The object is one pointer; an empty list pack points at a shared constant block and allocates
// nothing. The block grows with realloc only past the allocator's usable size of it, and never
// holds an allocation per element.
//
// Sizes: Redis's quicklist decides whether a node takes an element from the element's raw length
// plus 8 (SIZE_ESTIMATE_OVERHEAD) against 8 KB (SIZE_SAFETY_LIMIT) or list-max-listpack-size,
// not from EntrySizeFor; a list that splits its nodes as Redis does must use Redis's estimate.
class ListPack {
 public:
  using Pos = uint32_t;
  // "No element": past the end, before the beginning, or out of range.
  static constexpr Pos npos = UINT32_MAX;
  static constexpr size_t kHeaderSize = 6;                   // LP_HDR_SIZE
  static constexpr size_t kEmptyBytes = kHeaderSize + 1;     // header and the 0xFF terminator
  static constexpr uint16_t kCountUnknown = UINT16_MAX;      // LP_HDR_NUMELE_UNKNOWN
  static constexpr size_t kMaxSafetySize = size_t{1} << 30;  // LISTPACK_MAX_SAFETY_SIZE
  // The largest block the 32-bit header can describe: mutations past it throw std::length_error.
  static constexpr size_t kMaxBytes = UINT32_MAX;

  enum class Where { kBefore, kAfter };

  ListPack() noexcept;
  ListPack(ListPack&& other) noexcept;
  ListPack& operator=(ListPack&& other) noexcept;
  ListPack(const ListPack&) = delete;
  ListPack& operator=(const ListPack&) = delete;
  ~ListPack();

  // A copy in a block of its exact size.
  ListPack Clone() const;
  // Checks `bytes` as Redis's lpValidateIntegrity: the header's total matches bytes.size() and
  // the last byte is 0xFF; with `deep`, also every entry's encoding, that its backlen matches, that
  // no entry reaches past the end, and that the header's count (unless unknown) is right.
  static bool Validate(std::string_view bytes, bool deep);
  // As Validate(bytes, true), and calls `on_entry` with each element in order once it is known to
  // be well-formed; stops and fails when `on_entry` returns false (duplicate checks on load).
  static bool Validate(std::string_view bytes, absl::FunctionRef<bool(ListPackValue)> on_entry);
  // A list pack holding a copy of `bytes`, or nullopt if Validate(bytes, deep) fails. Reads trust
  // the block (no bounds checks on the hot paths), so bytes from outside (RDB, RESTORE) want the
  // deep check: a shallow one lets a corrupt entry be read past the block.
  static std::optional<ListPack> FromBytes(std::string_view bytes, bool deep = true);

  // Elements. With the header's count saturated (65535 or more elements) this walks the block,
  // and, as lpLength, writes the count back into the header once it fits again.
  size_t size() const;
  bool empty() const { return data()[kHeaderSize] == kEnd; }
  // The block: total bytes as in its header, and the bytes themselves (RDB, DEBUG, tests).
  size_t bytes() const;
  const uint8_t* data() const { return block_; }
  std::string_view view() const { return {reinterpret_cast<const char*>(block_), bytes()}; }
  // Bytes taken from the allocator (0 when empty), for memory accounting.
  size_t allocated() const;
  // Gives back the block's unused tail (lpShrinkToFit).
  void ShrinkToFit();

  // Navigation; every function returns npos when there is no such element. A `pos` passed in
  // must be an element's current position (not npos).
  Pos First() const { return block_[kHeaderSize] == kEnd ? npos : Pos{kHeaderSize}; }
  Pos Last() const;
  Pos Next(Pos pos) const;
  Pos Prev(Pos pos) const;
  // The element at `index` (0 first, -1 last, as lpSeek), or npos out of range.
  Pos Seek(long index) const;
  static bool AtEnd(Pos pos) { return pos == npos; }
  ListPackValue Get(Pos pos) const;
  // Redis's lpCompare of the element at `pos` with `s` (see ListPackValue::Equals).
  bool Equals(Pos pos, std::string_view s) const;
  // Redis's lpFind: the first element equal to `s` among `pos` and every (skip+1)-th one after it
  // (a hash's fields are found with skip 1 from First()), or npos. Whether `s` is an integer is
  // parsed once, at the first integer element met.
  Pos Find(Pos pos, std::string_view s, uint32_t skip = 0) const;

  // Mutations. Each may move the block; positions at or after the change then move too, and
  // the returned position is the one to continue from.
  void Append(std::string_view s);
  void AppendInteger(int64_t v);
  void Prepend(std::string_view s);
  void PrependInteger(int64_t v);
  // Appends all of `elements` in order, growing the block once (RPUSH k a b c ...). The bytes
  // equal those of one Append per element.
  void AppendMany(std::span<const std::string_view> elements);
  // Inserts `s` before or after the element at `pos`; returns the new element's position.
  Pos Insert(Pos pos, std::string_view s, Where where);
  Pos InsertInteger(Pos pos, int64_t v, Where where);
  // Replaces the element at `pos` (its position does not change, and is returned).
  Pos Replace(Pos pos, std::string_view s);
  Pos ReplaceInteger(Pos pos, int64_t v);
  // Deletes the element at `pos`; returns the next element's position (the same offset), or npos
  // if it was the last.
  Pos Delete(Pos pos);
  // Deletes up to `count` elements starting with the one at `pos` (lpDeleteRangeWithEntry);
  // returns the position of the element after them, or npos.
  Pos DeleteFrom(Pos pos, size_t count);
  // Deletes up to `count` elements starting at `index` (negative from the end), as lpDeleteRange;
  // an index out of range deletes nothing.
  void DeleteRange(long index, size_t count);
  // Appends `other`'s elements after this one's (lpMerge's bytes); `other` is left empty.
  void Merge(ListPack&& other);

  // Sizes for callers that bound their list packs (Redis's lpSafeToAdd, hash-max-listpack-value).
  // The bytes an element adds to the block: encoding, data and backlen.
  static size_t EntrySizeFor(std::string_view s);
  static size_t EntrySizeForInteger(int64_t v);
  // Whether `add` more bytes keep the block within kMaxSafetySize (lpSafeToAdd).
  bool SafeToAdd(size_t add) const { return bytes() + add <= kMaxSafetySize; }

  // A random field-value pair of a list pack of pairs (a hash, a sorted set), as lpRandomPair with
  // `random` in place of rand(): the position of the pair's first element (the value follows
  // it). `pairs` is size() / 2 (callers usually know it), and must not be 0.
  Pos RandomPair(size_t pairs, uint64_t random) const;

  // Redis's lpStringToInt64 (string2ll's rules): whether `s` is stored as an integer.
  static bool StringToInt64(std::string_view s, int64_t* value);

  // Iteration without allocation, forward (for (ListPackValue v : lp)) and backward
  // (for (ListPackValue v : lp.Reversed())).
  template <bool kForward>
  class BasicIterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = ListPackValue;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = ListPackValue;

    BasicIterator() = default;
    BasicIterator(const ListPack* lp, Pos pos) : lp_(lp), pos_(pos) {}
    ListPackValue operator*() const { return lp_->Get(pos_); }
    BasicIterator& operator++() {
      pos_ = kForward ? lp_->Next(pos_) : lp_->Prev(pos_);
      return *this;
    }
    BasicIterator operator++(int) {
      BasicIterator old = *this;
      ++*this;
      return old;
    }
    Pos pos() const { return pos_; }
    friend bool operator==(const BasicIterator& a, const BasicIterator& b) {
      return a.pos_ == b.pos_;
    }

   private:
    const ListPack* lp_ = nullptr;
    Pos pos_ = npos;
  };
  using Iterator = BasicIterator<true>;
  using ReverseIterator = BasicIterator<false>;
  struct ReverseRange {
    const ListPack* lp;
    ReverseIterator begin() const { return {lp, lp->Last()}; }
    ReverseIterator end() const { return {lp, npos}; }
  };

  Iterator begin() const { return {this, First()}; }
  Iterator end() const { return {this, npos}; }
  ReverseRange Reversed() const { return {this}; }

 private:
  static constexpr uint8_t kEnd = 0xFF;  // LP_EOF

  explicit ListPack(uint8_t* block) : block_(block) {}
  bool is_shared_empty() const;
  void SetBytes(size_t n);
  uint16_t header_count() const;
  void SetHeaderCount(uint16_t n);
  // Adds `delta` (+1 per insert, -n for deletions) to a known header count, as Redis does: a
  // count that reaches 65535 becomes unknown and stays so.
  void AdjustCount(long delta);
  // Makes the block hold at least `n` bytes (keeping the current ones).
  void Reserve(size_t n);
  // Gives memory back after the block shrank to `n` bytes, when enough of it is unused.
  void MaybeShrink(size_t n);

  struct Encoded;
  static void EncodeString(std::string_view s, Encoded* e);
  static void EncodeInteger(int64_t v, Encoded* e);
  // Writes `e` at `pos`: before the element there (which may be the terminator), or in place
  // of it when `replace`. Returns the new element's position.
  Pos Put(Pos pos, const Encoded& e, bool replace);

  uint8_t* block_;
};

}  // namespace kv
