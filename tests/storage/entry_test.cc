#include "storage/entry.h"

#include <gtest/gtest.h>

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
