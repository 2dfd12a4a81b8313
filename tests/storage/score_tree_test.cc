#include "storage/score_tree.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace kv {
namespace {

using Entry = std::pair<double, std::string>;

// Owns the member blocks a tree points at.
class Blocks {
 public:
  ~Blocks() {
    for (ScoredMember* m : owned_) ScoredMember::Free(m);
  }
  ScoredMember* Make(double score, const std::string& member) {
    ScoredMember* m = ScoredMember::Make(score, member);
    owned_.insert(m);
    return m;
  }
  void Free(ScoredMember* m) {
    ASSERT_EQ(owned_.erase(m), 1u);
    ScoredMember::Free(m);
  }

 private:
  std::set<ScoredMember*> owned_;
};

std::vector<Entry> Contents(const ScoreTree& tree) {
  std::vector<Entry> out;
  for (auto it = tree.begin(); it.valid(); it.Next()) {
    out.emplace_back((*it)->score(), std::string((*it)->member()));
  }
  return out;
}

TEST(ScoredMemberTest, HoldsScoreAndMemberOfAnySize) {
  for (size_t n : {0, 1, 16, 254, 255, 256, 100000}) {
    const std::string member(n, 'x');
    ScoredMember* m = ScoredMember::Make(-2.5, member);
    EXPECT_EQ(m->score(), -2.5);
    EXPECT_EQ(m->member(), member);
    EXPECT_GE(m->allocated(), ScoredMember::BlockSize(n));
    m->set_score(7);
    EXPECT_EQ(m->score(), 7);
    EXPECT_EQ(m->member(), member);
    ScoredMember::Free(m);
  }
  // A 16-byte member takes 8 + 1 + 16 bytes.
  EXPECT_EQ(ScoredMember::BlockSize(16), 25u);
}

TEST(ScoredMemberTest, OrderIsScoreThenMemberBytes) {
  EXPECT_LT(CompareScored(1, "b", 2, "a"), 0);
  EXPECT_LT(CompareScored(1, "a", 1, "b"), 0);
  EXPECT_LT(CompareScored(1, "a", 1, "ab"), 0);    // a prefix first
  EXPECT_GT(CompareScored(1, "\xff", 1, "a"), 0);  // bytes compare unsigned, as memcmp
  EXPECT_EQ(CompareScored(0.0, "a", -0.0, "a"), 0);
  EXPECT_LT(CompareScored(-INFINITY, "z", INFINITY, "a"), 0);
}

TEST(ScoreTreeTest, EmptyTree) {
  ScoreTree tree;
  EXPECT_TRUE(tree.empty());
  EXPECT_FALSE(tree.begin().valid());
  EXPECT_FALSE(tree.last().valid());
  EXPECT_FALSE(tree.Seek(0).valid());
  EXPECT_EQ(tree.Rank(1, "a"), ScoreTree::npos);
  EXPECT_EQ(tree.Erase(1, "a"), nullptr);
  EXPECT_EQ(tree.CountBefore([](const ScoreTree::Key&) { return true; }), 0u);
  EXPECT_TRUE(tree.Check());
}

// Ascending, descending and equal-score loads, each with every rank and iteration checked.
TEST(ScoreTreeTest, OrderedLoadsFillLeaves) {
  for (int mode = 0; mode < 3; ++mode) {
    Blocks blocks;
    ScoreTree tree;
    constexpr int kN = 20000;
    for (int i = 0; i < kN; ++i) {
      const int k = mode == 1 ? kN - 1 - i : i;
      char name[16];
      std::snprintf(name, sizeof name, "m%07d", k);
      tree.Insert(blocks.Make(mode == 2 ? 1.0 : k, name));
    }
    ASSERT_TRUE(tree.Check()) << mode;
    ASSERT_EQ(tree.size(), static_cast<size_t>(kN));
    // Ordered loads fill the leaves: about 8 bytes of tree per member.
    EXPECT_LT(static_cast<double>(tree.NodeBytes()) / kN, 10.5) << mode;
    size_t rank = 0;
    for (auto it = tree.begin(); it.valid(); it.Next(), ++rank) {
      ASSERT_EQ(tree.Rank((*it)->score(), (*it)->member()), rank);
      ASSERT_EQ(*tree.Seek(rank), *it);
    }
    EXPECT_EQ(rank, static_cast<size_t>(kN));
    auto it = tree.last();
    for (size_t r = kN; r-- > 0; it.Prev()) ASSERT_EQ(*it, *tree.Seek(r));
    EXPECT_FALSE(it.valid());
    tree.Clear([&](ScoredMember* m) { blocks.Free(m); });
    EXPECT_TRUE(tree.Check());
  }
}

TEST(ScoreTreeTest, SeparatorsOnEqualScoresStayBounds) {
  // Many members with the same score force separators that carry members; deleting the
  // members they copied must keep every search right.
  Blocks blocks;
  ScoreTree tree;
  std::vector<std::string> names;
  for (int i = 0; i < 5000; ++i) names.push_back("k" + std::to_string(i * 7919 % 5000));
  for (const auto& n : names) tree.Insert(blocks.Make(5, n));
  ASSERT_TRUE(tree.Check());
  std::sort(names.begin(), names.end());
  for (size_t i = 0; i < names.size(); i += 2) {
    ScoredMember* m = tree.Erase(5, names[i]);
    ASSERT_NE(m, nullptr);
    blocks.Free(m);
  }
  ASSERT_TRUE(tree.Check());
  for (size_t i = 0; i < names.size(); ++i) {
    const size_t r = tree.Rank(5, names[i]);
    if (i % 2 == 0) {
      EXPECT_EQ(r, ScoreTree::npos);
    } else {
      EXPECT_EQ(r, i / 2);
    }
  }
  tree.Clear([&](ScoredMember* m) { blocks.Free(m); });
}

TEST(ScoreTreeTest, LowerBoundByPredicate) {
  Blocks blocks;
  ScoreTree tree;
  for (int i = 0; i < 1000; ++i) tree.Insert(blocks.Make(i / 10, "m" + std::to_string(i % 10)));
  size_t rank;
  auto it = tree.LowerBound([](const ScoreTree::Key& k) { return k.score < 50; }, &rank);
  EXPECT_EQ(rank, 500u);
  ASSERT_TRUE(it.valid());
  EXPECT_EQ((*it)->score(), 50);
  EXPECT_EQ((*it)->member(), "m0");
  it = tree.LowerBound([](const ScoreTree::Key& k) { return k.score <= 99; }, &rank);
  EXPECT_EQ(rank, 1000u);
  EXPECT_FALSE(it.valid());
  it = tree.LowerBound(
      [](const ScoreTree::Key& k) { return k.score < 7 || (k.score == 7 && k.member() < "m5"); },
      &rank);
  EXPECT_EQ(rank, 75u);
  EXPECT_EQ((*it)->member(), "m5");
  EXPECT_EQ(tree.CountBefore([](const ScoreTree::Key&) { return false; }), 0u);
  tree.Clear([&](ScoredMember* m) { blocks.Free(m); });
}

TEST(ScoreTreeTest, EraseRangeAcrossLeaves) {
  Blocks blocks;
  ScoreTree tree;
  std::vector<Entry> model;
  for (int i = 0; i < 3000; ++i) {
    tree.Insert(blocks.Make(i, "x"));
    model.emplace_back(i, "x");
  }
  const std::vector<std::pair<size_t, size_t>> ranges = {
      {0, 1}, {0, 100}, {500, 700}, {1000, 1}, {2000, 5000}, {10, 0}, {0, 3000}};
  for (auto [rank, count] : ranges) {
    std::vector<ScoredMember*> removed;
    tree.EraseRange(rank, count, [&](ScoredMember* m) { removed.push_back(m); });
    const size_t expect = rank < model.size() ? std::min(count, model.size() - rank) : 0;
    ASSERT_EQ(removed.size(), expect);
    for (size_t i = 0; i < removed.size(); ++i) {
      EXPECT_EQ(removed[i]->score(), model[rank + i].first);
      blocks.Free(removed[i]);
    }
    model.erase(model.begin() + static_cast<long>(std::min(rank, model.size())),
                model.begin() + static_cast<long>(std::min(rank + expect, model.size())));
    ASSERT_TRUE(tree.Check());
    ASSERT_EQ(Contents(tree), model);
  }
  EXPECT_TRUE(tree.empty());
  EXPECT_EQ(tree.NodeBytes(), 0u);
}

// Random inserts, erases, range erases and rank queries against std::set, checking every
// invariant along the way; scores from a small set so that ties (and separators carrying
// members) are common.
TEST(ScoreTreeTest, RandomOperationsMatchModel) {
  for (uint32_t seed : {1u, 2u, 3u, 4u}) {
    std::mt19937 rng(seed);
    Blocks blocks;
    ScoreTree tree;
    std::set<Entry> model;
    const int score_range = seed % 2 == 0 ? 10 : 1000000;
    for (int step = 0; step < 60000; ++step) {
      const int op = static_cast<int>(rng() % 100);
      const double score = static_cast<double>(rng() % score_range) - score_range / 2;
      const std::string member = "m" + std::to_string(rng() % 5000);
      if (op < 55) {
        if (model.insert({score, member}).second) tree.Insert(blocks.Make(score, member));
      } else if (op < 85) {
        // Erase an existing entry (by rank) or a missing one.
        if (!model.empty() && rng() % 4 != 0) {
          auto it = model.begin();
          std::advance(it, rng() % model.size());
          ScoredMember* m = tree.Erase(it->first, it->second);
          ASSERT_NE(m, nullptr);
          ASSERT_EQ(m->member(), it->second);
          blocks.Free(m);
          model.erase(it);
        } else {
          const bool present = model.count({score, member}) != 0;
          ScoredMember* m = tree.Erase(score, member);
          ASSERT_EQ(m != nullptr, present);
          if (m != nullptr) {
            blocks.Free(m);
            model.erase({score, member});
          }
        }
      } else if (op < 88) {
        const size_t rank = model.empty() ? 0 : rng() % (model.size() + 2);
        const size_t count = rng() % 200;
        tree.EraseRange(rank, count, [&](ScoredMember* m) {
          ASSERT_EQ(model.erase({m->score(), std::string(m->member())}), 1u);
          blocks.Free(m);
        });
      } else if (op < 96) {
        // Rank and Seek of an existing entry; LowerBound by score.
        if (model.empty()) continue;
        const size_t rank = rng() % model.size();
        auto it = model.begin();
        std::advance(it, rank);
        ASSERT_EQ(tree.Rank(it->first, it->second), rank);
        auto t = tree.Seek(rank);
        ASSERT_TRUE(t.valid());
        ASSERT_EQ((*t)->score(), it->first);
        ASSERT_EQ((*t)->member(), it->second);
        size_t lb;
        tree.LowerBound([&](const ScoreTree::Key& k) { return k.score < score; }, &lb);
        const auto expect = static_cast<size_t>(
            std::distance(model.begin(), model.lower_bound({score, std::string()})));
        ASSERT_EQ(lb, expect);
        ASSERT_EQ(tree.Rank(score, member + "?"), ScoreTree::npos);
      } else {
        ASSERT_TRUE(tree.Check()) << "seed " << seed << " step " << step;
        ASSERT_EQ(tree.size(), model.size());
      }
    }
    ASSERT_TRUE(tree.Check());
    ASSERT_EQ(Contents(tree), std::vector<Entry>(model.begin(), model.end()));
    tree.Clear([&](ScoredMember* m) { blocks.Free(m); });
  }
}

// Random inserts leave the leaves well filled (siblings share before splitting).
TEST(ScoreTreeTest, RandomLoadIsDense) {
  Blocks blocks;
  ScoreTree tree;
  std::mt19937_64 rng(7);
  constexpr int kN = 200000;
  for (int i = 0; i < kN; ++i) tree.Insert(blocks.Make(static_cast<double>(rng() >> 11), "m"));
  ASSERT_TRUE(tree.Check());
  const double per_member = static_cast<double>(tree.NodeBytes()) / kN;
  EXPECT_LT(per_member, 11.5);
  tree.Clear([&](ScoredMember* m) { blocks.Free(m); });
}

}  // namespace
}  // namespace kv

namespace kv {
namespace {

// Lazy freeing: entries from the last one back, each node freed once empty; what is left stays
// in order, so that Clear (and the destructor) still free it.
TEST(ScoreTreeTest, ReleaseSomeFreesFromTheEndInSteps) {
  Blocks blocks;
  ScoreTree tree;
  std::vector<Entry> model;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    const double score = static_cast<double>(rng() % 1000);
    const std::string member = "m" + std::to_string(i);
    tree.Insert(blocks.Make(score, member));
    model.emplace_back(score, member);
  }
  std::sort(model.begin(), model.end());
  ASSERT_GE(tree.height(), 3u);
  std::vector<Entry> handed;
  auto release = [&](size_t budget) {
    return tree.ReleaseSome(budget, [&](ScoredMember* m) {
      handed.emplace_back(m->score(), std::string(m->member()));
      blocks.Free(m);
    });
  };
  size_t calls = 0;
  while (!release(100)) {
    ++calls;
    ASSERT_EQ(tree.size() + handed.size(), model.size());
    if (calls == 50) {
      // Halfway, the entries left are the first ones, in order.
      EXPECT_EQ(Contents(tree), std::vector<Entry>(model.begin(), model.end() - handed.size()));
    }
  }
  EXPECT_EQ(calls + 1, model.size() / 100);
  EXPECT_EQ(tree.size(), 0u);
  EXPECT_EQ(tree.NodeBytes(), 0u) << "every node and separator freed";
  std::reverse(handed.begin(), handed.end());
  EXPECT_EQ(handed, model);
}

TEST(ScoreTreeTest, ClearAfterReleaseSome) {
  Blocks blocks;
  ScoreTree tree;
  for (int i = 0; i < 5000; ++i) tree.Insert(blocks.Make(i % 7, "m" + std::to_string(i)));
  EXPECT_FALSE(tree.ReleaseSome(2000, [&](ScoredMember* m) { blocks.Free(m); }));
  EXPECT_EQ(tree.size(), 3000u);
  size_t cleared = 0;
  tree.Clear([&](ScoredMember* m) {
    ++cleared;
    blocks.Free(m);
  });
  EXPECT_EQ(cleared, 3000u);
  EXPECT_EQ(tree.NodeBytes(), 0u);
}

}  // namespace
}  // namespace kv
