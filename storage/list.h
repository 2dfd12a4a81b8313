#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

#include "absl/functional/function_ref.h"
#include "storage/aggregate.h"
#include "storage/quicklist.h"

namespace kv {

// A list value: Redis 7.0's quicklist (OBJECT ENCODING "quicklist" whatever its size), with the
// list operations of Redis's t_list.c on top of it. Indexes are 0-based from the head, negative
// from the tail (-1 the last element). Elements are read as ListPackValue (a string view valid
// until the list changes, or an integer).
class List final : public Aggregate {
 public:
  static constexpr ValueType kType = ValueType::kList;
  using End = QuickList::End;

  // `fill` and `compress_depth` are list-max-listpack-size and list-compress-depth when the list
  // is made; they stay the list's own, as in Redis.
  List(int fill, int compress_depth, size_t packed_threshold = QuickList::kDefaultPackedThreshold)
      : items_(fill, compress_depth, packed_threshold) {}
  explicit List(QuickList items) : items_(std::move(items)) {}

  ValueType type() const override { return kType; }
  Encoding encoding() const override { return Encoding::kQuickList; }
  size_t size() const override { return items_.size(); }
  std::unique_ptr<Aggregate> Clone() const override;
  size_t AllocatedBytes(size_t samples) const override;
  // Redis's lazyfreeGetFreeEffort for a quicklist: its node count.
  size_t FreeEffort() const override { return items_.node_count(); }
  bool ReleaseSome(size_t budget) override { return items_.ReleaseSome(budget); }

  QuickList& items() { return items_; }
  const QuickList& items() const { return items_; }

  void Push(std::string_view s, End end) { items_.Push(s, end); }
  // The element at an end of a non-empty list, and removing it.
  ListPackValue Peek(End end) const { return items_.Peek(end); }
  void Pop(End end) { items_.Pop(end); }

  // Calls `fn` with each element from index `start` to `end` (both within range, start <= end),
  // from `end` down to `start` when `reverse`.
  void ForRange(long start, long end, bool reverse, absl::FunctionRef<void(ListPackValue)> fn);
  // Calls `fn` with the element at `index`; false when out of range (LINDEX).
  bool Index(long index, absl::FunctionRef<void(ListPackValue)> fn);
  // Replaces the element at `index`; false when out of range (LSET).
  bool Set(long index, std::string_view s) { return items_.ReplaceAt(index, s); }
  // Inserts `s` before or after the first element equal to `pivot`; false if there is none
  // (LINSERT).
  bool Insert(std::string_view pivot, std::string_view s, bool after);
  // Removes elements equal to `s`: the first `count` from the head (count > 0), from the tail
  // (count < 0), or all (0). Returns how many (LREM).
  size_t Remove(long count, std::string_view s);
  // Removes `from_head` elements at the head and `from_tail` at the tail (LTRIM).
  void Trim(size_t from_head, size_t from_tail);
  // Removes `n` elements at one end (LPOP with a count, after reading them).
  void PopMany(End end, size_t n);
  // LPOS: the indexes of elements equal to `s`, from the rank-th match on (counting from the tail
  // for a negative rank), looking at no more than `maxlen` elements (0: all). `fn` gets each
  // index and returns whether to go on.
  void Find(std::string_view s, long rank, long maxlen, absl::FunctionRef<bool(long)> fn);

 private:
  QuickList items_;
};

}  // namespace kv
