#include "storage/entry.h"

#include <gtest/gtest.h>
#include <malloc.h>

#include <string>

#include "absl/container/flat_hash_set.h"

namespace kv {
namespace {

TEST(EntryTest, HoldsTheKeyAndAValue) {
  for (size_t n : {0, 1, 7, 36, 1000}) {
    const std::string key(n, 'k');
    Entry::Ptr e = Entry::Make(key);
    EXPECT_EQ(e->key(), key);
    EXPECT_EQ(e->value().str(), "");
    e->value().SetString(std::string(n + 3, 'v'));
    EXPECT_EQ(e->value().str(), std::string(n + 3, 'v'));
    EXPECT_EQ(e->key(), key);  // the value's bytes live elsewhere
  }
}

TEST(EntryTest, AStringGivenAtMakeSharesTheKeysAllocation) {
  // Every key length modulo 8, so that the value's block needs each amount of padding.
  for (size_t key_size = 0; key_size <= 17; ++key_size) {
    for (size_t value_size : {0, 7, 8, 36, 1024}) {
      const std::string key(key_size, 'k');
      const std::string value(value_size, 'v');
      Entry::Ptr e = Entry::Make(key, value);
      EXPECT_EQ(e->key(), key);
      EXPECT_EQ(e->value().str(), value);
      // Up to 7 bytes stay in the value's own word; longer ones sit in the entry, aligned.
      const char* bytes = e->value().str().data();
      const char* begin = reinterpret_cast<const char*>(e.get());
      if (value_size > 7) {
        EXPECT_GE(bytes, begin + sizeof(Value) + 4 + key_size);
        EXPECT_LT(bytes, begin + malloc_usable_size(e.get()));
        EXPECT_EQ(reinterpret_cast<uintptr_t>(bytes - 4) % 8, 0u);
      }
      EXPECT_EQ(e->value().str().size(), value_size);
    }
  }
}

TEST(EntryTest, AnEmbeddedStringChangesInPlaceOrMovesOut) {
  const std::string key = "0123456789abcdef0123456789abcdef0123";  // a uuid's 36 bytes
  Entry::Ptr e = Entry::Make(key, std::string(36, 'a'));
  const char* embedded = e->value().str().data();
  e->value().SetString(std::string(36, 'b'));  // same size: overwritten where it is
  EXPECT_EQ(e->value().str().data(), embedded);
  EXPECT_EQ(e->value().str(), std::string(36, 'b'));
  e->value().mutable_str().append("cc");  // growing moves it to a block of its own
  EXPECT_NE(e->value().str().data(), embedded);
  EXPECT_EQ(e->value().str(), std::string(36, 'b') + "cc");
  EXPECT_EQ(e->key(), key);

  Entry::Ptr f = Entry::Make(key, std::string(36, 'x'));
  Value taken = std::move(f->value());  // RENAME and MOVE take the value out of its entry
  f.reset();
  EXPECT_EQ(taken.str(), std::string(36, 'x'));
}

TEST(EntryTest, BinaryKeys) {
  const std::string key("a\0b\r\n\xff", 6);
  EXPECT_EQ(Entry::Make(key)->key(), key);
}

TEST(EntryTest, TablesFindEntriesByKeyAndValuesStayPut) {
  absl::flat_hash_set<Entry::Ptr, EntryHash, EntryEq> table;
  Value* first = nullptr;
  for (int i = 0; i < 10000; ++i) {
    auto [it, inserted] = table.insert(Entry::Make("key:" + std::to_string(i)));
    ASSERT_TRUE(inserted);
    (*it)->value().SetString(std::to_string(i));
    if (i == 0) first = &(*it)->value();
  }
  // The table grew many times; the entry (and so the value) did not move.
  auto it = table.find(std::string_view("key:0"));
  ASSERT_NE(it, table.end());
  EXPECT_EQ(&(*it)->value(), first);
  const std::string key = "key:9999";
  auto pre = table.find(PrehashedKey{key, KeyHash{}(key)});
  ASSERT_NE(pre, table.end());
  EXPECT_EQ((*pre)->value().str(), "9999");
  EXPECT_EQ(table.find(std::string_view("key:10000")), table.end());
  EXPECT_EQ(table.erase(std::string_view("key:5")), 1u);
  EXPECT_EQ(table.size(), 9999u);
}

}  // namespace
}  // namespace kv
