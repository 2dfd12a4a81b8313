#include "storage/set.h"

#include <malloc.h>

#include <algorithm>
#include <utility>

#include "storage/listpack.h"

namespace kv {

Set::Set() noexcept = default;

Set::~Set() {
  if (is_table()) {
    delete mutable_table();
  } else {
    rep_.intset.~IntSet();
  }
}

std::unique_ptr<Set> Set::ForMember(std::string_view first) {
  auto set = std::make_unique<Set>();
  int64_t v;
  if (!IsInteger(first, &v)) set->ConvertToTable(0);
  return set;
}

bool Set::IsInteger(std::string_view s, int64_t* v) { return ListPack::StringToInt64(s, v); }

void Set::ConvertToTable(size_t expected) {
  if (is_table()) return;
  auto table = std::make_unique<StringHashSet>();
  table->Reserve(std::max(expected, intset().size()));
  IntText text;
  for (int64_t v : intset()) table->Insert(text.Format(v));
  rep_.intset.~IntSet();
  SetTable(table.release());
}

bool Set::Add(std::string_view member, size_t max_intset_entries) {
  if (is_table()) return mutable_table()->Insert(member);
  int64_t v;
  if (IsInteger(member, &v)) {
    if (!rep_.intset.Add(v)) return false;
    const size_t n = intset().size();
    if (n > std::min(max_intset_entries, kIntSetEntriesCap)) ConvertToTable(n);
    return true;
  }
  ConvertToTable(intset().size() + 1);
  return mutable_table()->Insert(member);
}

bool Set::Remove(std::string_view member) {
  if (is_table()) return mutable_table()->Erase(member);
  int64_t v;
  return IsInteger(member, &v) && rep_.intset.Remove(v);
}

bool Set::Contains(std::string_view member) const {
  if (is_table()) return table()->Contains(member);
  int64_t v;
  return IsInteger(member, &v) && intset().Contains(v);
}

bool Set::ContainsInteger(int64_t v) const {
  if (!is_table()) return intset().Contains(v);
  IntText text;
  return table()->Contains(text.Format(v));
}

std::unique_ptr<Aggregate> Set::Clone() const {
  auto copy = std::make_unique<Set>();
  if (is_table()) {
    copy->rep_.intset.~IntSet();
    copy->SetTable(new StringHashSet(table()->Clone()));
  } else {
    copy->rep_.intset = intset().Clone();
  }
  return copy;
}

size_t Set::AllocatedBytes(size_t samples) const {
  if (is_table())
    return malloc_usable_size(const_cast<StringHashSet*>(table())) +
           table()->AllocatedBytes(samples);
  return intset().allocated();
}

std::string_view Set::RandomMember(absl::FunctionRef<uint64_t()> random, IntText& text) const {
  if (is_table()) {
    const StringHashSet& t = *table();
    return t.at(t.RandomSlot(random));
  }
  return text.Format(intset().Random(random()));
}

void Set::PopRandom(absl::FunctionRef<uint64_t()> random,
                    absl::FunctionRef<void(std::string_view)> fn) {
  if (is_table()) {
    StringHashSet& t = *mutable_table();
    const size_t slot = t.RandomSlot(random);
    fn(t.at(slot));
    t.EraseSlot(slot);
    return;
  }
  const int64_t v = intset().Random(random());
  IntText text;
  fn(text.Format(v));
  rep_.intset.Remove(v);
}

uint64_t Set::Scan(uint64_t cursor, size_t count,
                   absl::FunctionRef<void(std::string_view)> fn) const {
  if (is_table()) return table()->Scan(cursor, count, fn);
  ForEach(fn);
  return 0;
}

}  // namespace kv
