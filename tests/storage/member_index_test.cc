#include "storage/member_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "storage/table_stats.h"
namespace kv {
namespace {

class MemberIndexTest : public ::testing::Test {
 protected:
  ~MemberIndexTest() override {
    for (auto& [name, m] : owned_) ScoredMember::Free(m);
  }
  ScoredMember* Make(const std::string& member, double score = 0) {
    ScoredMember* m = ScoredMember::Make(score, member);
    owned_[member] = m;
    return m;
  }
  void Free(const std::string& member) {
    ScoredMember::Free(owned_.at(member));
    owned_.erase(member);
  }
  std::map<std::string, ScoredMember*> owned_;
};

// Lazy freeing of a big sorted set's index: its table goes `budget` slots a call (their pages
// back to the OS), then the whole table; the members are left to their owner.
TEST_F(MemberIndexTest, ReleaseSomeGoesInSteps) {
  MemberIndex index;
  constexpr int kMembers = 300000;
  for (int i = 0; i < kMembers; ++i) index.Insert(Make("m" + std::to_string(i)));
  const size_t capacity = index.capacity();
  ASSERT_GT(index.TableBytes(), 2u << 20);
  const size_t budget = capacity / 10 + 1;
  size_t calls = 1;
  while (!index.ReleaseSome(budget)) ++calls;
  EXPECT_EQ(calls, (capacity + budget - 1) / budget);
  EXPECT_EQ(index.TableBytes(), 0u);
  EXPECT_EQ(owned_.size(), size_t{kMembers});  // the fixture frees them, once (ASan checks)
  MemberIndex half;
  for (int i = 0; i < 1000; ++i) half.Insert(owned_.at("m" + std::to_string(i)));
  EXPECT_FALSE(half.ReleaseSome(half.capacity() / 2));
}  // destroyed half released

TEST_F(MemberIndexTest, FindInsertErase) {
  MemberIndex index;
  EXPECT_EQ(index.Find("a"), nullptr);
  EXPECT_EQ(index.Erase("a"), nullptr);
  ScoredMember* a = Make("a", 1);
  index.Insert(a);
  EXPECT_EQ(index.Find("a"), a);
  EXPECT_EQ(index.Find("b"), nullptr);
  EXPECT_EQ(index.Find(""), nullptr);
  ScoredMember* empty = Make("", 2);
  index.Insert(empty);
  EXPECT_EQ(index.Find(""), empty);
  EXPECT_EQ(index.size(), 2u);
  EXPECT_EQ(index.Erase("a"), a);
  EXPECT_EQ(index.Find("a"), nullptr);
  EXPECT_EQ(index.Erase(""), empty);
  EXPECT_EQ(index.size(), 0u);
  EXPECT_EQ(index.TableBytes(), 0u);
}

TEST_F(MemberIndexTest, RandomOperationsMatchModel) {
  std::mt19937 rng(11);
  MemberIndex index;
  std::set<std::string> model;
  for (int step = 0; step < 200000; ++step) {
    const std::string member = "member:" + std::to_string(rng() % 20000);
    if (rng() % 3 != 0) {
      if (model.insert(member).second) index.Insert(Make(member));
    } else {
      ScoredMember* m = index.Erase(member);
      ASSERT_EQ(m != nullptr, model.erase(member) == 1);
      if (m != nullptr) {
        ASSERT_EQ(m->member(), member);
        Free(member);
      }
    }
    if (step % 20000 == 0) {
      ASSERT_TRUE(index.Check());
    }
  }
  ASSERT_TRUE(index.Check());
  ASSERT_EQ(index.size(), model.size());
  for (const auto& m : model) ASSERT_NE(index.Find(m), nullptr);
  // Erasing nearly everything shrinks the table.
  const size_t big = index.capacity();
  for (auto it = model.begin(); model.size() > 10;) {
    ASSERT_NE(index.Erase(*it), nullptr);
    Free(*it);
    it = model.erase(it);
  }
  ASSERT_TRUE(index.Check());
  EXPECT_LT(index.capacity(), big / 8);
}

TEST_F(MemberIndexTest, LoadStaysHigh) {
  MemberIndex index;
  for (int i = 0; i < 100000; ++i) {
    index.Insert(Make("m" + std::to_string(i)));
    const double load = static_cast<double>(index.size()) / index.capacity();
    ASSERT_LE(load, 0.875);
    if (i > 100) {
      ASSERT_GE(load, 0.5);
    }
  }
  EXPECT_TRUE(index.Check());
}

// Every member present for the whole scan is returned, while the table grows and shrinks
// between steps.
TEST_F(MemberIndexTest, ScanReturnsEveryStableMember) {
  std::mt19937 rng(5);
  for (int round = 0; round < 20; ++round) {
    MemberIndex index;
    std::set<std::string> stable;
    for (int i = 0; i < 2000; ++i) {
      const std::string m = "s" + std::to_string(round) + ":" + std::to_string(i);
      index.Insert(Make(m));
      stable.insert(m);
    }
    std::set<std::string> seen;
    std::vector<std::string> churn;
    uint64_t cursor = 0;
    int steps = 0;
    do {
      cursor = index.Scan(cursor, 1 + rng() % 50,
                          [&](ScoredMember* m) { seen.insert(std::string(m->member())); });
      ++steps;
      // Grow or shrink the table with members that come and go.
      if (round % 2 == 0) {
        // Grow for a while (a table growing faster than the scan would never let it end).
        for (int k = 0; k < 200 && steps < 30; ++k) {
          const std::string m = "c" + std::to_string(round) + ":" + std::to_string(churn.size());
          index.Insert(Make(m));
          churn.push_back(m);
        }
      } else if (!churn.empty() || steps == 1) {
        for (int k = 0; k < 300 && steps == 1; ++k) {
          const std::string m = "c" + std::to_string(round) + ":" + std::to_string(churn.size());
          index.Insert(Make(m));
          churn.push_back(m);
        }
        for (int k = 0; k < 100 && !churn.empty(); ++k) {
          ASSERT_NE(index.Erase(churn.back()), nullptr);
          Free(churn.back());
          churn.pop_back();
        }
      }
      ASSERT_LT(steps, 100000);
    } while (cursor != 0);
    for (const auto& m : stable) ASSERT_TRUE(seen.count(m)) << m;
    ASSERT_TRUE(index.Check());
    index.Clear();
  }
}

TEST_F(MemberIndexTest, StatsCountMembersPerHomeSlot) {
  MemberIndex index;
  EXPECT_EQ(index.Stats().used_buckets, 0u);
  std::vector<std::string> names;
  for (int i = 0; i < 3000; ++i) {
    names.push_back("member-" + std::to_string(i));
    index.Insert(Make(names.back(), i));
  }
  // Homes computed from the hash (scaled to the capacity), independently of the layout.
  const size_t capacity = index.capacity();
  std::map<size_t, size_t> per_home;
  for (const std::string& name : names) {
    const uint64_t h = MemberIndex::Hash(name);
    ++per_home[static_cast<size_t>((static_cast<unsigned __int128>(h) * capacity) >> 64)];
  }
  size_t max_chain = 0;
  std::array<size_t, TableStats::kChainLengths> chains{};
  for (const auto& [home, n] : per_home) {
    ++chains[std::min(n, TableStats::kChainLengths - 1)];
    max_chain = std::max(max_chain, n);
  }
  chains[0] = capacity - per_home.size();
  const TableStats stats = index.Stats();
  EXPECT_EQ(stats.table_size, capacity);
  EXPECT_EQ(stats.elements, 3000u);
  EXPECT_EQ(stats.used_buckets, per_home.size());
  EXPECT_EQ(stats.max_chain, max_chain);
  EXPECT_EQ(stats.total_chain, 3000u);
  EXPECT_EQ(stats.chains, chains);
}

}  // namespace
}  // namespace kv
