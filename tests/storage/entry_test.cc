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
    EXPECT_EQ(e->key(), key);  // a string too big for the entry lives in a block of its own
  }
}

TEST(EntryTest, AStringGivenAtMakeSharesTheKeysAllocation) {
  // Every key length modulo 8, so that the external string's word needs each amount of padding.
  for (size_t key_size = 0; key_size <= 17; ++key_size) {
    for (size_t value_size : {0, 1, 7, 8, 36, 1024, 65535}) {
      const std::string key(key_size, 'k');
      const std::string value(value_size, 'v');
      Entry::Ptr e = Entry::Make(key, value);
      EXPECT_EQ(e->key(), key);
      EXPECT_EQ(e->value().str(), value);
      // The string's bytes follow the key's, with no padding.
      const char* begin = reinterpret_cast<const char*>(e.get());
      EXPECT_EQ(e->value().str().data(), begin + sizeof(Value) + key_size);
      EXPECT_EQ(e->value().allocated(), 0u);
    }
  }
}

TEST(EntryTest, AUuidKeyAndValueTakeEightyBytes) {
  const std::string uuid = "0123456789abcdef0123456789abcdef0123";
  Entry::Ptr e = Entry::Make(uuid, uuid);
  // The last byte the entry needs is its 80th: one block of mimalloc's 80-byte bin.
  const std::string_view value = e->value().str();
  EXPECT_EQ(value.data() + value.size() - reinterpret_cast<const char*>(e.get()), 80);
  EXPECT_GE(malloc_usable_size(e.get()), 80u);
  EXPECT_EQ(sizeof(Value), 8u);
}

TEST(EntryTest, LongStringsAndLongKeysUseTheirOwnLayouts) {
  const std::string big(70000, 'b');  // past the 16-bit embedded size: a block of its own
  Entry::Ptr e = Entry::Make("k", big);
  EXPECT_EQ(e->value().str(), big);
  EXPECT_GE(e->value().allocated(), big.size());
  const std::string long_key(70000, 'k');  // past the 16-bit key size: the wide layout
  for (const std::string& value : {std::string("v"), std::string(100, 'v'), big}) {
    Entry::Ptr w = Entry::Make(long_key, value);
    EXPECT_EQ(w->key(), long_key);
    EXPECT_EQ(w->value().str(), value);
    w->value().mutable_str().append("+");
    EXPECT_EQ(w->value().str(), value + "+");
    w->value().SetString("short");
    EXPECT_EQ(w->value().str(), "short");
    EXPECT_EQ(w->key(), long_key);
  }
}

TEST(EntryTest, AnEmbeddedStringChangesInPlaceOrMovesOut) {
  const std::string key = "0123456789abcdef0123456789abcdef0123";  // a uuid's 36 bytes
  Entry::Ptr e = Entry::Make(key, std::string(36, 'a'));
  const char* embedded = e->value().str().data();
  e->value().SetString(std::string(30, 'b'));  // smaller: overwritten where it is
  EXPECT_EQ(e->value().str().data(), embedded);
  EXPECT_EQ(e->value().str(), std::string(30, 'b'));
  e->value().SetString(std::string(300, 'c'));  // bigger than the entry: a block of its own
  EXPECT_NE(e->value().str().data(), embedded);
  EXPECT_GT(e->value().allocated(), 0u);
  e->value().SetString(std::string(20, 'd'));  // fits again: back in the entry, block freed
  EXPECT_EQ(e->value().str().data(), embedded);
  EXPECT_EQ(e->value().allocated(), 0u);
  EXPECT_FALSE(e->value().changed_in_place());
  e->value().mutable_str().append("ee");  // changed in place: moves out, and is "raw"
  EXPECT_NE(e->value().str().data(), embedded);
  EXPECT_EQ(e->value().str(), std::string(20, 'd') + "ee");
  EXPECT_TRUE(e->value().changed_in_place());
  EXPECT_EQ(e->key(), key);

  // A part of the external string itself (as GETRANGE then SET would not, but a caller may).
  const std::string_view part = e->value().str().substr(2, 10);
  e->value().SetString(part);
  EXPECT_EQ(e->value().str(), std::string(10, 'd'));

  Entry::Ptr f = Entry::Make(key, std::string(36, 'x'));
  f->value().set_unshared();
  DetachedValue taken = f->value().Detach();  // RENAME and MOVE take the value out of its entry
  f.reset();
  EXPECT_EQ(taken.str.view(), std::string(36, 'x'));
  EXPECT_TRUE(taken.unshared);
}

TEST(EntryTest, FlagsAndLruShareTheHeaderWithoutDisturbingEachOther) {
  Entry::Ptr e = Entry::Make("key", "value");
  e->value().set_lru(Value::kLruMax);
  e->value().set_unshared();
  EXPECT_EQ(e->value().type(), ValueType::kString);
  EXPECT_TRUE(e->value().unshared());
  EXPECT_FALSE(e->value().changed_in_place());
  e->value().set_lru(12345);
  EXPECT_EQ(e->value().lru(), 12345u);
  EXPECT_TRUE(e->value().unshared());
  e->value().set_lru(Value::kLruMax + 1);  // only 24 bits are kept
  EXPECT_EQ(e->value().lru(), 0u);
  EXPECT_EQ(e->value().str(), "value");
  EXPECT_EQ(e->key(), "key");
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
