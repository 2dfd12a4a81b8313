#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string_view>

#include "absl/functional/function_ref.h"
#include "storage/aggregate.h"
#include "storage/intset.h"
#include "storage/string_hash_set.h"

namespace kv {

// Room for any int64_t in decimal.
struct IntText {
  char data[24];
  std::string_view Format(int64_t v) {
    const auto r = std::to_chars(data, data + sizeof data, v);
    return {data, static_cast<size_t>(r.ptr - data)};
  }
};

// A set value, encoded as Redis 7.0 encodes sets: an IntSet (Redis's "intset", byte for byte)
// while every member is an integer and there are at most `max_intset_entries` of them, else a
// StringHashSet ("hashtable"). The conversion happens at Redis's moments (setTypeAdd: the
// (max + 1)th member, or a member that is not an integer) and never goes back.
//
// The object is a vtable pointer and one word: the IntSet (its block pointer), or a pointer to the
// StringHashSet with bit 0 set.
class Set final : public Aggregate {
 public:
  static constexpr ValueType kType = ValueType::kSet;
  // Redis caps set-max-intset-entries at this (intset internals).
  static constexpr size_t kIntSetEntriesCap = size_t{1} << 30;

  // An empty intset (createIntsetObject), as the store commands start from.
  Set() noexcept;
  // A set holding `intset` (RDB loading; the caller checked it).
  explicit Set(IntSet intset) noexcept { rep_.intset = std::move(intset); }
  // The set Redis's setTypeCreate makes for a first member: an intset when it is an integer.
  static std::unique_ptr<Set> ForMember(std::string_view first);
  Set(const Set&) = delete;
  Set& operator=(const Set&) = delete;
  ~Set() override;

  ValueType type() const override { return kType; }
  Encoding encoding() const override {
    return is_table() ? Encoding::kHashTable : Encoding::kIntSet;
  }
  size_t size() const override { return is_table() ? table()->size() : intset().size(); }
  std::unique_ptr<Aggregate> Clone() const override;
  size_t AllocatedBytes(size_t samples) const override;
  // Redis's lazyfreeGetFreeEffort: the members of a hash table, 1 for an intset.
  size_t FreeEffort() const override { return is_table() ? table()->size() : 1; }
  // An intset is one block, freed by the destructor.
  bool ReleaseSome(size_t budget) override {
    return is_intset() || mutable_table()->ReleaseSome(budget);
  }

  bool is_intset() const { return !is_table(); }
  bool is_table() const { return (word() & kTableTag) != 0; }
  const IntSet& intset() const { return rep_.intset; }
  const StringHashSet* table() const {
    return reinterpret_cast<const StringHashSet*>(word() & ~kTableTag);
  }

  // Redis's string2ll rules: whether `s` is a member an intset can hold.
  static bool IsInteger(std::string_view s, int64_t* v);

  // Adds `member` (setTypeAdd); false if it was there already.
  bool Add(std::string_view member, size_t max_intset_entries);
  // Removes `member`; false if it was not there.
  bool Remove(std::string_view member);
  bool Contains(std::string_view member) const;
  // Contains for an integer member, without formatting it when the set is an intset.
  bool ContainsInteger(int64_t v) const;
  // Makes this a hash table now (setTypeConvert), sized for `expected` members.
  void ConvertToTable(size_t expected);

  // Calls fn(std::string_view) for every member in Redis's order for the encoding: ascending for
  // an intset, the table's order for a hash table. The view is valid during the call only.
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    if (is_table()) {
      for (std::string_view m : *table()) fn(m);
    } else {
      IntText text;
      for (int64_t v : intset()) fn(text.Format(v));
    }
  }

  // A uniformly chosen member (setTypeRandomElement); the set is not empty. `text` holds an
  // intset member's digits; the view is valid until the set changes.
  std::string_view RandomMember(absl::FunctionRef<uint64_t()> random, IntText& text) const;
  // Removes a uniformly chosen member, calling `fn` with it first; the set is not empty.
  void PopRandom(absl::FunctionRef<uint64_t()> random,
                 absl::FunctionRef<void(std::string_view)> fn);

  // One SSCAN step (Redis's scanGenericCommand for a set): an intset returns every member and
  // cursor 0; a hash table as StringHashSet::Scan.
  uint64_t Scan(uint64_t cursor, size_t count, absl::FunctionRef<void(std::string_view)> fn) const;

 private:
  static constexpr uintptr_t kTableTag = 1;
  uintptr_t word() const {
    uintptr_t w;
    std::memcpy(&w, &rep_, sizeof w);
    return w;
  }
  StringHashSet* mutable_table() { return reinterpret_cast<StringHashSet*>(word() & ~kTableTag); }
  // Ends the intset (already destroyed) and makes the word the tagged table pointer.
  void SetTable(StringHashSet* t) {
    new (&rep_.table_word) uintptr_t(reinterpret_cast<uintptr_t>(t) | kTableTag);
  }

  union Rep {
    Rep() : intset() {}
    ~Rep() {}
    IntSet intset;
    uintptr_t table_word;
  } rep_;
};

static_assert(sizeof(IntSet) == sizeof(uintptr_t));
static_assert(sizeof(Set) == 2 * sizeof(void*));

}  // namespace kv
