#include "storage/list.h"

#include <cstdint>

namespace kv {

using Direction = QuickList::Direction;

std::unique_ptr<Aggregate> List::Clone() const { return std::make_unique<List>(items_.Clone()); }

size_t List::AllocatedBytes(size_t samples) const { return items_.AllocatedBytes(samples); }

void List::ForRange(long start, long end, bool reverse, absl::FunctionRef<void(ListPackValue)> fn) {
  bool found = false;
  QuickList::Iterator it = items_.At(reverse ? end : start,
                                     reverse ? Direction::kBackward : Direction::kForward, &found);
  ListPackValue v;
  for (long n = end - start + 1; n > 0 && it.Next(&v); --n) fn(v);
}

bool List::Index(long index, absl::FunctionRef<void(ListPackValue)> fn) {
  bool found = false;
  QuickList::Iterator it = items_.At(index, Direction::kBackward, &found);
  ListPackValue v;
  if (!found || !it.Next(&v)) return false;
  fn(v);
  return true;
}

bool List::Insert(std::string_view pivot, std::string_view s, bool after) {
  QuickList::Iterator it = items_.Begin(Direction::kForward);
  ListPackValue v;
  while (it.Next(&v)) {
    if (v.Equals(pivot)) {
      if (after) {
        it.InsertAfter(s);
      } else {
        it.InsertBefore(s);
      }
      return true;
    }
  }
  return false;
}

size_t List::Remove(long count, std::string_view s) {
  // From the tail for a negative count; -(count + 1) + 1 avoids negating LONG_MIN.
  const bool from_tail = count < 0;
  const uint64_t limit =
      from_tail ? static_cast<uint64_t>(-(count + 1)) + 1 : static_cast<uint64_t>(count);
  bool found = false;
  QuickList::Iterator it =
      items_.At(from_tail ? -1 : 0, from_tail ? Direction::kBackward : Direction::kForward, &found);
  size_t removed = 0;
  ListPackValue v;
  while (it.Next(&v)) {
    if (!v.Equals(s)) continue;
    it.DeleteCurrent();
    ++removed;
    if (limit != 0 && removed == limit) break;
  }
  return removed;
}

void List::Trim(size_t from_head, size_t from_tail) {
  items_.DeleteRange(0, static_cast<long>(from_head));
  items_.DeleteRange(-static_cast<long>(from_tail), static_cast<long>(from_tail));
}

void List::PopMany(End end, size_t n) {
  const long count = static_cast<long>(n);
  items_.DeleteRange(end == End::kHead ? 0 : -count, count);
}

void List::Find(std::string_view s, long rank, long maxlen, absl::FunctionRef<bool(long)> fn) {
  const bool from_tail = rank < 0;
  const uint64_t skip =
      (from_tail ? static_cast<uint64_t>(-(rank + 1)) + 1 : static_cast<uint64_t>(rank)) - 1;
  const long len = static_cast<long>(items_.size());
  bool found = false;
  QuickList::Iterator it =
      items_.At(from_tail ? -1 : 0, from_tail ? Direction::kBackward : Direction::kForward, &found);
  uint64_t matches = 0;
  ListPackValue v;
  // Next runs before the MAXLEN check, as in Redis (it may move to the next node).
  for (long index = 0; it.Next(&v) && (maxlen == 0 || index < maxlen); ++index) {
    if (!v.Equals(s) || matches++ < skip) continue;
    if (!fn(from_tail ? len - index - 1 : index)) return;
  }
}

}  // namespace kv
