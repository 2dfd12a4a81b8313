#include "storage/string_hash_set.h"

#include <gtest/gtest.h>
#include <malloc.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "storage/table_stats.h"
namespace kv {
namespace {

std::set<std::string> Members(const StringHashSet& s) {
  std::set<std::string> out;
  for (std::string_view m : s) EXPECT_TRUE(out.emplace(m).second) << "twice: " << m;
  return out;
}

std::string Member(size_t i) { return "member:" + std::to_string(i) + ":0123456789"; }

TEST(StringHashSetTest, EmptyAllocatesNothing) {
  StringHashSet s;
  EXPECT_EQ(s.size(), 0u);
  EXPECT_EQ(s.capacity(), 0u);
  EXPECT_FALSE(s.Contains(""));
  EXPECT_FALSE(s.Erase("x"));
  EXPECT_EQ(s.AllocatedBytes(0), 0u);
  EXPECT_EQ(s.Scan(0, 10, [](std::string_view) { ADD_FAILURE(); }), 0u);
  EXPECT_TRUE(s.Valid());
}

TEST(StringHashSetTest, InsertEraseContains) {
  StringHashSet s;
  EXPECT_TRUE(s.Insert("a"));
  EXPECT_FALSE(s.Insert("a"));
  EXPECT_TRUE(s.Insert(""));  // the empty string is a member like any other
  EXPECT_TRUE(s.Insert(std::string("\0\r\n", 3)));
  EXPECT_TRUE(s.Insert("a long member that lives in a block of its own"));
  EXPECT_EQ(s.size(), 4u);
  EXPECT_TRUE(s.Contains(""));
  EXPECT_TRUE(s.Contains(std::string("\0\r\n", 3)));
  EXPECT_FALSE(s.Contains(std::string("\0\r", 2)));
  EXPECT_TRUE(s.Contains("a long member that lives in a block of its own"));
  EXPECT_TRUE(s.Erase(""));
  EXPECT_FALSE(s.Erase(""));
  EXPECT_FALSE(s.Contains(""));
  EXPECT_EQ(s.size(), 3u);
  EXPECT_TRUE(s.Valid());
  EXPECT_EQ(Members(s), (std::set<std::string>{"a", std::string("\0\r\n", 3),
                                               "a long member that lives in a block of its own"}));
}

TEST(StringHashSetTest, GrowsAndShrinksWithinLoadBounds) {
  StringHashSet s;
  for (size_t i = 0; i < 10000; ++i) ASSERT_TRUE(s.Insert(Member(i)));
  ASSERT_TRUE(s.Valid());
  EXPECT_EQ(s.capacity(), 16384u);  // 10000 > 7/8 of 8192
  for (size_t i = 0; i < 10000; ++i) ASSERT_TRUE(s.Contains(Member(i))) << i;
  for (size_t i = 0; i < 9990; ++i) ASSERT_TRUE(s.Erase(Member(i)));
  ASSERT_TRUE(s.Valid());
  // Below 1/16 full it shrinks (to about half full).
  EXPECT_LE(s.capacity(), 16u * 10);
  EXPECT_EQ(Members(s).size(), 10u);
  EXPECT_TRUE(s.Contains(Member(9995)));
}

TEST(StringHashSetTest, ReserveAvoidsGrowth) {
  StringHashSet s;
  s.Reserve(1000);
  const size_t cap = s.capacity();
  EXPECT_GE(cap * 7 / 8, 1000u);
  for (size_t i = 0; i < 1000; ++i) s.Insert(Member(i));
  EXPECT_EQ(s.capacity(), cap);
}

TEST(StringHashSetTest, CloneIsDeepAndEqual) {
  StringHashSet s;
  for (size_t i = 0; i < 300; ++i) s.Insert(i % 2 ? Member(i) : std::to_string(i));
  StringHashSet c = s.Clone();
  EXPECT_EQ(Members(c), Members(s));
  EXPECT_TRUE(c.Valid());
  s.Erase(Member(1));
  EXPECT_TRUE(c.Contains(Member(1)));
  StringHashSet moved(std::move(c));
  EXPECT_EQ(moved.size(), 300u);
  EXPECT_EQ(c.size(), 0u);  // NOLINT(bugprone-use-after-move): moved-from is empty
}

TEST(StringHashSetTest, AllocatedBytesCountsTableAndBlocks) {
  StringHashSet inline_members, heap_members;
  for (size_t i = 0; i < 1000; ++i) {
    inline_members.Insert(std::to_string(i));  // up to 7 bytes: inside the slot's word
    heap_members.Insert(Member(i));
  }
  const size_t table = inline_members.AllocatedBytes(0);
  EXPECT_GE(table, inline_members.capacity() * 9);
  EXPECT_EQ(inline_members.HeapMembers(), 0u);
  EXPECT_EQ(heap_members.HeapMembers(), 1000u);
  const size_t all = heap_members.AllocatedBytes(0);
  EXPECT_GE(all, table + 1000 * Member(0).size());
  EXPECT_EQ(heap_members.AllocatedBytes(1000), all);  // a sample of every member is exact
  // Sampling extrapolates from the first members (in hash order), each a block of the member's
  // bytes, or of 8 more when its address does not fit beside the size (ASLR decides): between
  // the two, whichever the first five took.
  ASSERT_EQ(heap_members.capacity(), inline_members.capacity());
  const auto block = [](size_t n) {
    void* p = std::malloc(n);
    const size_t usable = malloc_usable_size(p);
    std::free(p);
    return usable;
  };
  const size_t sampled = heap_members.AllocatedBytes(5);
  const size_t length = Member(0).size();
  EXPECT_GE(sampled, table + 1000 * block(length));
  EXPECT_LE(sampled, table + 1000 * block(8 + Member(999).size()));
}

// Each member comes back from RandomSlot about equally often.
TEST(StringHashSetTest, RandomSlotIsUniform) {
  StringHashSet s;
  for (size_t i = 0; i < 20; ++i) s.Insert(Member(i));
  std::mt19937_64 rng(7);
  std::map<std::string, int> seen;
  constexpr int kDraws = 200000;
  for (int i = 0; i < kDraws; ++i) {
    const size_t slot = s.RandomSlot([&] { return rng(); });
    ASSERT_TRUE(s.occupied(slot));
    ++seen[std::string(s.at(slot))];
  }
  ASSERT_EQ(seen.size(), 20u);
  double chi2 = 0;
  const double expected = kDraws / 20.0;
  for (const auto& [m, n] : seen) chi2 += (n - expected) * (n - expected) / expected;
  EXPECT_LT(chi2, 50.0);  // 19 degrees of freedom: p < 0.0002
}

TEST(StringHashSetTest, EraseSlotRemovesThatMember) {
  StringHashSet s;
  for (size_t i = 0; i < 100; ++i) s.Insert(Member(i));
  std::mt19937_64 rng(1);
  std::set<std::string> left = Members(s);
  while (s.size() > 0) {
    const size_t slot = s.RandomSlot([&] { return rng(); });
    ASSERT_EQ(left.erase(std::string(s.at(slot))), 1u);
    s.EraseSlot(slot);
    ASSERT_TRUE(s.Valid());
  }
  EXPECT_TRUE(left.empty());
}

// A whole iteration with a small COUNT returns every member once.
TEST(StringHashSetTest, ScanReturnsEveryMemberOnce) {
  for (size_t n : {1u, 7u, 100u, 5000u}) {
    StringHashSet s;
    for (size_t i = 0; i < n; ++i) s.Insert(Member(i));
    std::multiset<std::string> got;
    uint64_t cursor = 0;
    size_t calls = 0;
    do {
      size_t step = 0;
      cursor = s.Scan(cursor, 10, [&](std::string_view m) {
        got.emplace(m);
        ++step;
      });
      ++calls;
      ASSERT_LT(calls, 10 * n + 10);
    } while (cursor != 0);
    EXPECT_EQ(got.size(), n);
    EXPECT_EQ(std::set<std::string>(got.begin(), got.end()), Members(s));
    if (n == 5000) {
      EXPECT_GT(calls, 100u);  // COUNT 10: steps of about 10 members, not the whole table
    }
  }
}

// Members present for the whole iteration are returned even while the table grows and shrinks
// between steps; a cursor never repeats a member that stayed.
TEST(StringHashSetTest, ScanSurvivesGrowthAndShrink) {
  std::mt19937_64 rng(42);
  for (int round = 0; round < 40; ++round) {
    StringHashSet s;
    const size_t stable = 50 + rng() % 200;
    for (size_t i = 0; i < stable; ++i) s.Insert(Member(i));
    std::multiset<std::string> got;
    uint64_t cursor = 0;
    size_t next = stable, step = 0;
    const bool shrink = round % 2 == 1;
    std::vector<std::string> added;
    do {
      cursor = s.Scan(cursor, 1 + rng() % 20, [&](std::string_view m) { got.emplace(m); });
      ++step;
      if (!shrink ? step < 8 : step < 3) {
        // Grow: add many transient members (several doublings over the iteration).
        const size_t more = shrink ? 8 * stable : 50 + stable / 2;
        for (size_t k = 0; k < more; ++k) {
          added.push_back(Member(next++));
          s.Insert(added.back());
        }
      } else if (shrink && !added.empty()) {
        const size_t before = s.capacity();
        for (const std::string& m : added) s.Erase(m);
        added.clear();
        EXPECT_LT(s.capacity(), before);  // the cursor now points into a smaller table
      }
    } while (cursor != 0);
    ASSERT_TRUE(s.Valid());
    for (size_t i = 0; i < stable; ++i) {
      EXPECT_EQ(got.count(Member(i)), 1u) << "round " << round << " member " << i;
    }
  }
}

// Any 64-bit cursor is accepted and the iteration from it ends.
TEST(StringHashSetTest, ScanAcceptsAnyCursor) {
  StringHashSet s;
  for (size_t i = 0; i < 500; ++i) s.Insert(Member(i));
  for (uint64_t cursor : {uint64_t{1}, uint64_t{12345}, UINT64_MAX, uint64_t{1} << 63}) {
    size_t steps = 0;
    while (cursor != 0 && steps++ < 1000) cursor = s.Scan(cursor, 10, [](std::string_view) {});
    EXPECT_EQ(cursor, 0u);
  }
}

TEST(StringHashSetTest, RandomOperationsMatchAModel) {
  std::mt19937_64 rng(12345);
  StringHashSet s;
  std::set<std::string> model;
  for (int i = 0; i < 200000; ++i) {
    // Mostly short members (inline in the slot), some long ones; a small universe so that
    // inserts and erases hit present and absent members alike.
    const uint64_t k = rng() % 3000;
    const std::string m = k % 5 == 0 ? Member(k) : std::to_string(k);
    switch (rng() % 5) {
      case 0:
      case 1:
        ASSERT_EQ(s.Insert(m), model.insert(m).second) << i;
        break;
      case 2:
        ASSERT_EQ(s.Erase(m), model.erase(m) == 1) << i;
        break;
      case 3:
        ASSERT_EQ(s.Contains(m), model.count(m) == 1) << i;
        break;
      default:
        if (rng() % 1000 == 0) {
          // Now and then, drain most of it so that the table shrinks.
          while (model.size() > 10) {
            ASSERT_TRUE(s.Erase(*model.begin()));
            model.erase(model.begin());
          }
        }
        break;
    }
    ASSERT_EQ(s.size(), model.size());
    if (i % 5000 == 0) {
      ASSERT_TRUE(s.Valid()) << i;
      ASSERT_EQ(Members(s), model) << i;
    }
  }
  EXPECT_TRUE(s.Valid());
  EXPECT_EQ(Members(s), model);
}

}  // namespace
}  // namespace kv

namespace kv {
namespace {

// Lazy freeing: members go from the last slot down, `budget` slots a call, the array with the
// last one.
TEST(StringHashSetTest, ReleaseSomeFreesSlotsInSteps) {
  StringHashSet s;
  for (size_t i = 0; i < 10000; ++i) ASSERT_TRUE(s.Insert(Member(i)));
  const size_t capacity = s.capacity();
  size_t calls = 0;
  size_t left = s.size();
  while (!s.ReleaseSome(100)) {
    ++calls;
    ASSERT_LE(s.size(), left);
    ASSERT_GE(s.size() + 100, left) << "at most 100 slots a call";
    left = s.size();
  }
  EXPECT_EQ(calls + 1, capacity / 100 + (capacity % 100 != 0));
  EXPECT_EQ(s.size(), 0u);
  EXPECT_EQ(s.capacity(), 0u);
  EXPECT_TRUE(s.ReleaseSome(1));
  EXPECT_TRUE(StringHashSet().ReleaseSome(0)) << "nothing to free";
}

TEST(StringHashSetTest, DestroyedHalfReleased) {
  StringHashSet s;
  for (size_t i = 0; i < 1000; ++i) ASSERT_TRUE(s.Insert(Member(i)));
  EXPECT_FALSE(s.ReleaseSome(s.capacity() / 2));
  EXPECT_GT(s.size(), 0u);
  EXPECT_LT(s.size(), 1000u);
  // The destructor frees the members left (a leak or a double free fails under ASan).
}

TEST(StringHashSetTest, StatsCountMembersPerHomeSlot) {
  StringHashSet empty;
  TableStats none = empty.Stats();
  EXPECT_EQ(none.table_size, 0u);
  EXPECT_EQ(none.used_buckets, 0u);
  StringHashSet set;
  std::vector<std::string> members;
  for (int i = 0; i < 5000; ++i) members.push_back("m:" + std::to_string(i));
  for (const std::string& m : members) ASSERT_TRUE(set.Insert(m));
  for (int i = 0; i < 5000; i += 3) ASSERT_TRUE(set.Erase(members[i]));
  // Homes computed from the hash (the top bits, for a power-of-two table), independently of the
  // layout the stats walk.
  const size_t capacity = set.capacity();
  const int shift = 64 - std::countr_zero(capacity);
  std::map<uint64_t, size_t> per_home;
  for (int i = 0; i < 5000; ++i) {
    if (i % 3 != 0) ++per_home[StringHashSet::Hash(members[i]) >> shift];
  }
  std::array<size_t, TableStats::kChainLengths> chains{};
  size_t max_chain = 0;
  for (const auto& [home, n] : per_home) {
    ++chains[std::min(n, TableStats::kChainLengths - 1)];
    max_chain = std::max(max_chain, n);
  }
  chains[0] = capacity - per_home.size();
  const TableStats stats = set.Stats();
  EXPECT_EQ(stats.table_size, capacity);
  EXPECT_EQ(stats.elements, set.size());
  EXPECT_EQ(stats.used_buckets, per_home.size());
  EXPECT_EQ(stats.max_chain, max_chain);
  EXPECT_EQ(stats.total_chain, set.size());
  EXPECT_EQ(stats.chains, chains);
}

}  // namespace
}  // namespace kv
