#include "storage/set.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kv {
namespace {

constexpr size_t kMaxIntSet = 512;

std::vector<std::string> InOrder(const Set& s) {
  std::vector<std::string> out;
  s.ForEach([&](std::string_view m) { out.emplace_back(m); });
  return out;
}

std::set<std::string> Members(const Set& s) {
  const std::vector<std::string> v = InOrder(s);
  return {v.begin(), v.end()};
}

TEST(SetTest, FirstMemberChoosesTheEncoding) {
  EXPECT_EQ(Set::ForMember("12")->encoding(), Encoding::kIntSet);
  EXPECT_EQ(Set::ForMember("-9223372036854775808")->encoding(), Encoding::kIntSet);
  for (const char* s : {"a", "012", "+1", " 1", "1 ", "-0", "9223372036854775808", "", "1.0"}) {
    EXPECT_EQ(Set::ForMember(s)->encoding(), Encoding::kHashTable) << s;
  }
  Set empty;
  EXPECT_EQ(empty.encoding(), Encoding::kIntSet);
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_EQ(empty.type(), ValueType::kSet);
}

TEST(SetTest, IntSetConvertsOnANonInteger) {
  Set s;
  EXPECT_TRUE(s.Add("3", kMaxIntSet));
  EXPECT_TRUE(s.Add("1", kMaxIntSet));
  EXPECT_FALSE(s.Add("3", kMaxIntSet));
  EXPECT_EQ(InOrder(s), (std::vector<std::string>{"1", "3"}));  // ascending, as an intset
  EXPECT_TRUE(s.Contains("1"));
  EXPECT_FALSE(s.Contains("01"));
  EXPECT_TRUE(s.ContainsInteger(3));
  EXPECT_TRUE(s.Add("x", kMaxIntSet));
  EXPECT_EQ(s.encoding(), Encoding::kHashTable);
  EXPECT_EQ(Members(s), (std::set<std::string>{"1", "3", "x"}));
  EXPECT_TRUE(s.ContainsInteger(3));
  EXPECT_FALSE(s.ContainsInteger(2));
  // Never back: removing the non-integer leaves a hash table.
  EXPECT_TRUE(s.Remove("x"));
  EXPECT_FALSE(s.Remove("x"));
  EXPECT_EQ(s.encoding(), Encoding::kHashTable);
  EXPECT_EQ(s.size(), 2u);
}

TEST(SetTest, IntSetConvertsPastTheLimit) {
  Set s;
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(s.Add(std::to_string(i * 7), 5));
  EXPECT_EQ(s.encoding(), Encoding::kIntSet);
  EXPECT_FALSE(s.Add("0", 5));  // a duplicate does not count
  EXPECT_EQ(s.encoding(), Encoding::kIntSet);
  EXPECT_TRUE(s.Add("-1", 5));  // the 6th member
  EXPECT_EQ(s.encoding(), Encoding::kHashTable);
  EXPECT_EQ(s.size(), 6u);
  EXPECT_TRUE(s.Contains("-1"));
  EXPECT_TRUE(s.Contains("28"));
  // A limit of 0 converts on the first integer.
  Set z;
  EXPECT_TRUE(z.Add("1", 0));
  EXPECT_EQ(z.encoding(), Encoding::kHashTable);
}

TEST(SetTest, RemoveFromIntSet) {
  Set s;
  for (const char* m : {"5", "-70000", "9000000000"}) s.Add(m, kMaxIntSet);
  EXPECT_FALSE(s.Remove("a"));
  EXPECT_FALSE(s.Remove("6"));
  EXPECT_TRUE(s.Remove("-70000"));
  EXPECT_EQ(InOrder(s), (std::vector<std::string>{"5", "9000000000"}));
  EXPECT_EQ(s.encoding(), Encoding::kIntSet);
}

TEST(SetTest, CloneKeepsEncodingAndMembers) {
  Set ints;
  for (int i = 0; i < 10; ++i) ints.Add(std::to_string(i), kMaxIntSet);
  auto c1 = ints.Clone();
  EXPECT_EQ(c1->encoding(), Encoding::kIntSet);
  EXPECT_EQ(InOrder(static_cast<Set&>(*c1)), InOrder(ints));
  Set strings;
  for (int i = 0; i < 100; ++i) strings.Add("m" + std::to_string(i), kMaxIntSet);
  auto c2 = strings.Clone();
  EXPECT_EQ(c2->encoding(), Encoding::kHashTable);
  EXPECT_EQ(Members(static_cast<Set&>(*c2)), Members(strings));
  strings.Remove("m1");
  EXPECT_TRUE(static_cast<Set&>(*c2).Contains("m1"));
}

TEST(SetTest, MemoryAndFreeEffort) {
  Set ints;
  for (int i = 0; i < 10; ++i) ints.Add(std::to_string(i), kMaxIntSet);
  EXPECT_EQ(ints.FreeEffort(), 1u);
  EXPECT_GE(ints.AllocatedBytes(0), 8u + 10 * 2);
  EXPECT_LE(ints.AllocatedBytes(0), 48u);
  Set big;
  for (int i = 0; i < 1000; ++i) big.Add("member-" + std::to_string(i) + "-padding", kMaxIntSet);
  EXPECT_EQ(big.FreeEffort(), 1000u);
  EXPECT_GE(big.AllocatedBytes(0), 1000u * (9 + 20));
}

TEST(SetTest, RandomMemberAndPop) {
  std::mt19937_64 rng(3);
  auto random = [&] { return rng(); };
  for (bool table : {false, true}) {
    Set s;
    for (int i = 0; i < 30; ++i) s.Add(std::to_string(i * 3), kMaxIntSet);
    if (table) s.ConvertToTable(0);
    std::map<std::string, int> seen;
    IntText text;
    for (int i = 0; i < 30000; ++i) ++seen[std::string(s.RandomMember(random, text))];
    EXPECT_EQ(seen.size(), 30u);
    for (const auto& [m, n] : seen) {
      EXPECT_TRUE(s.Contains(m));
      EXPECT_GT(n, 700);  // 1000 expected
      EXPECT_LT(n, 1300);
    }
    std::set<std::string> popped;
    while (s.size() > 0) {
      s.PopRandom(random, [&](std::string_view m) { EXPECT_TRUE(popped.emplace(m).second); });
    }
    EXPECT_EQ(popped.size(), 30u);
  }
}

TEST(SetTest, ScanOfIntSetIsOneStep) {
  Set s;
  for (int i = 0; i < 100; ++i) s.Add(std::to_string(100 - i), kMaxIntSet);
  std::vector<std::string> got;
  EXPECT_EQ(s.Scan(0, 1, [&](std::string_view m) { got.emplace_back(m); }), 0u);
  EXPECT_EQ(got.size(), 100u);
  EXPECT_EQ(got.front(), "1");
  // Whatever the cursor.
  got.clear();
  EXPECT_EQ(s.Scan(987654321, 1, [&](std::string_view m) { got.emplace_back(m); }), 0u);
  EXPECT_EQ(got.size(), 100u);
}

TEST(SetTest, RandomOperationsMatchAModel) {
  std::mt19937_64 rng(99);
  for (size_t max_intset : {size_t{0}, size_t{16}, size_t{512}}) {
    auto set = std::make_unique<Set>();
    std::set<std::string> model;
    bool converted = false;
    for (int i = 0; i < 30000; ++i) {
      const uint64_t r = rng() % 100;
      std::string m;
      if (r < 85) {
        m = std::to_string(static_cast<int64_t>(rng() % 200) - 100);
      } else if (r < 90) {
        m = std::to_string(static_cast<int64_t>(rng()));
      } else {
        m = "s" + std::to_string(rng() % 50);
      }
      switch (rng() % 3) {
        case 0: {
          const bool added = set->Add(m, max_intset);
          ASSERT_EQ(added, model.insert(m).second);
          break;
        }
        case 1:
          ASSERT_EQ(set->Remove(m), model.erase(m) == 1);
          break;
        default:
          ASSERT_EQ(set->Contains(m), model.count(m) == 1);
          break;
      }
      ASSERT_EQ(set->size(), model.size());
      // The encoding is a function of the history: a hash table once any member was not an
      // integer or the count passed the limit.
      bool all_int = true;
      for (const std::string& x : model) {
        int64_t v;
        all_int = all_int && Set::IsInteger(x, &v);
      }
      converted = converted || !all_int || model.size() > max_intset;
      ASSERT_EQ(set->is_table(), converted) << i;
      if (model.empty()) {
        // An emptied set is deleted by the commands; start over as they would.
        set = std::make_unique<Set>();
        converted = false;
      }
      if (i % 2000 == 0) {
        ASSERT_EQ(Members(*set), model);
        if (set->is_intset()) {
          const std::vector<std::string> v = InOrder(*set);
          for (size_t k = 1; k < v.size(); ++k) ASSERT_LT(std::stoll(v[k - 1]), std::stoll(v[k]));
        } else {
          ASSERT_TRUE(set->table()->Valid());
        }
      }
    }
  }
}

}  // namespace
}  // namespace kv
