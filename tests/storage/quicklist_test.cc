#include "storage/quicklist.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace kv {
namespace {

using End = QuickList::End;
using Direction = QuickList::Direction;

std::string Str(const ListPackValue& v) {
  char buf[ListPackValue::kIntBufSize];
  return std::string(v.ToString(buf));
}

std::vector<std::string> Contents(QuickList& ql, Direction d = Direction::kForward) {
  std::vector<std::string> out;
  QuickList::Iterator it = ql.Begin(d);
  ListPackValue v;
  while (it.Next(&v)) out.push_back(Str(v));
  return out;
}

struct Shape {
  std::vector<int> counts;
  std::vector<bool> compressed;
  std::vector<bool> plain;
};

Shape ShapeOf(const QuickList& ql) {
  Shape s;
  ql.ForEachNode([&](const QuickList::NodeView& n) {
    s.counts.push_back(n.count);
    s.compressed.push_back(n.compressed);
    s.plain.push_back(n.plain);
  });
  return s;
}

std::string Ten(int i) {
  std::string s = "element" + std::to_string(1000 + i % 1000);
  return s.substr(0, 10);
}

TEST(QuickListTest, OptionsAreClampedAsRedis) {
  EXPECT_EQ(QuickList(-9, -3).fill(), -5);
  EXPECT_EQ(QuickList(-9, -3).compress_depth(), 0);
  EXPECT_EQ(QuickList(100000, 100000).fill(), 32767);
  EXPECT_EQ(QuickList(100000, 100000).compress_depth(), 65535);
  EXPECT_EQ(QuickList(0, 3).fill(), 0);
}

TEST(QuickListTest, EmptyList) {
  QuickList ql;
  EXPECT_TRUE(ql.empty());
  EXPECT_EQ(ql.node_count(), 0u);
  EXPECT_TRUE(Contents(ql).empty());
  bool found = true;
  QuickList::Iterator it = ql.At(0, Direction::kForward, &found);
  EXPECT_FALSE(found);
  EXPECT_FALSE(ql.ReplaceAt(0, "x"));
  EXPECT_FALSE(ql.DeleteRange(0, 5));
  EXPECT_TRUE(ql.Valid());
}

TEST(QuickListTest, SizeLimitedNodesFillToEightKilobytes) {
  // fill -2: a node takes an element while its bytes + the element + 8 stay within 8192. A
  // 10-byte string takes 12 bytes in a list pack (header 6 + terminator 1), so a node holds 681.
  QuickList ql(-2, 0);
  for (int i = 0; i < 1000; ++i) ql.Push(Ten(i), End::kTail);
  EXPECT_EQ(ShapeOf(ql).counts, (std::vector<int>{681, 319}));
  EXPECT_EQ(ql.UncompressedBytes(), (7 + 12 * 681) + (7 + 12 * 319));
  // From the head, the head node fills the same way.
  QuickList left(-2, 0);
  for (int i = 0; i < 1000; ++i) left.Push(Ten(i), End::kHead);
  EXPECT_EQ(ShapeOf(left).counts, (std::vector<int>{319, 681}));
  EXPECT_TRUE(ql.Valid());
  EXPECT_TRUE(left.Valid());
}

TEST(QuickListTest, EveryNegativeFillHasItsByteBudget) {
  const size_t budgets[] = {4096, 8192, 16384, 32768, 65536};
  for (int level = 1; level <= 5; ++level) {
    QuickList ql(-level, 0);
    for (int i = 0; i < 20000; ++i) ql.Push(Ten(i), End::kTail);
    const size_t per_node = (budgets[level - 1] - 7 - 18) / 12 + 1;
    EXPECT_EQ(static_cast<size_t>(ShapeOf(ql).counts[0]), per_node) << "fill " << -level;
  }
}

TEST(QuickListTest, CountLimitedNodesAlsoStopAtTheSafetyLimit) {
  QuickList ql(5, 0);
  for (int i = 0; i < 12; ++i) ql.Push(Ten(i), End::kTail);
  EXPECT_EQ(ShapeOf(ql).counts, (std::vector<int>{5, 5, 2}));
  // 3000-byte elements: a third would pass 8 KB, whatever the fill.
  QuickList big(5, 0);
  for (int i = 0; i < 5; ++i) big.Push(std::string(3000, 'x'), End::kTail);
  EXPECT_EQ(ShapeOf(big).counts, (std::vector<int>{2, 2, 1}));
  // An element bigger than the safety limit still goes in a packed node, alone.
  QuickList huge(-2, 0);
  huge.Push("a", End::kTail);
  huge.Push(std::string(10000, 'y'), End::kTail);
  huge.Push("b", End::kTail);
  EXPECT_EQ(ShapeOf(huge).counts, (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(ShapeOf(huge).plain, (std::vector<bool>{false, false, false}));
}

TEST(QuickListTest, InnerNodesAreCompressedBeyondTheDepth) {
  const std::string big(100, 'a');
  QuickList ql(2, 1);
  for (int i = 0; i < 10; ++i) ql.Push(big, End::kTail);
  Shape s = ShapeOf(ql);
  EXPECT_EQ(s.counts, (std::vector<int>{2, 2, 2, 2, 2}));
  EXPECT_EQ(s.compressed, (std::vector<bool>{false, true, true, true, false}));
  EXPECT_EQ(ql.UncompressedBytes(), 5 * (7 + 2 * 103));
  // Reading through compressed nodes decompresses them only while there.
  EXPECT_EQ(Contents(ql), std::vector<std::string>(10, big));
  EXPECT_EQ(ShapeOf(ql).compressed, s.compressed);
  // Depth 2 leaves two nodes at each end.
  QuickList deep(2, 2);
  for (int i = 0; i < 10; ++i) deep.Push(big, End::kHead);
  EXPECT_EQ(ShapeOf(deep).compressed, (std::vector<bool>{false, false, true, false, false}));
  // Popping makes inner nodes edge nodes again: they are decompressed.
  for (int i = 0; i < 4; ++i) ql.Pop(End::kHead);
  EXPECT_EQ(ShapeOf(ql).compressed, (std::vector<bool>{false, true, false}));
  EXPECT_TRUE(ql.Valid());
}

TEST(QuickListTest, SmallOrIncompressibleNodesStayRaw) {
  // Under 48 bytes, no attempt.
  QuickList small(1, 1);
  for (int i = 0; i < 5; ++i) small.Push("abc", End::kTail);
  EXPECT_EQ(ShapeOf(small).compressed, std::vector<bool>(5, false));
  // Random bytes do not compress by 8 bytes.
  std::mt19937 rng(7);
  QuickList noisy(1, 1);
  for (int i = 0; i < 5; ++i) {
    std::string s(200, '\0');
    for (char& c : s) c = static_cast<char>(rng());
    noisy.Push(s, End::kTail);
  }
  EXPECT_EQ(ShapeOf(noisy).compressed, std::vector<bool>(5, false));
}

TEST(QuickListTest, LargeElementsGetPlainNodes) {
  QuickList ql(-2, 0, /*packed_threshold=*/16);
  ql.Push("small", End::kTail);
  ql.Push(std::string(16, 'p'), End::kTail);
  ql.Push("tail", End::kTail);
  ql.Push(std::string(20, 'q'), End::kHead);
  Shape s = ShapeOf(ql);
  EXPECT_EQ(s.counts, (std::vector<int>{1, 1, 1, 1}));
  EXPECT_EQ(s.plain, (std::vector<bool>{true, false, true, false}));
  EXPECT_EQ(Contents(ql), (std::vector<std::string>{std::string(20, 'q'), "small",
                                                    std::string(16, 'p'), "tail"}));
  EXPECT_EQ(Str(ql.Peek(End::kHead)), std::string(20, 'q'));
  ql.Pop(End::kHead);
  EXPECT_EQ(Str(ql.Peek(End::kHead)), "small");
  // Replacing a packed element with a large one splits its node around a plain node.
  ql.Push("x1", End::kHead);
  ql.Push("x0", End::kHead);
  ASSERT_TRUE(ql.ReplaceAt(1, std::string(30, 'r')));
  EXPECT_EQ(Contents(ql), (std::vector<std::string>{"x0", std::string(30, 'r'), "small",
                                                    std::string(16, 'p'), "tail"}));
  // And a plain element replaced by a small one goes back into a packed node.
  ASSERT_TRUE(ql.ReplaceAt(1, "s"));
  EXPECT_EQ(Contents(ql),
            (std::vector<std::string>{"x0", "s", "small", std::string(16, 'p'), "tail"}));
  EXPECT_TRUE(ql.Valid());
}

TEST(QuickListTest, PlainNodesCompressToo) {
  QuickList ql(-2, 1, /*packed_threshold=*/50);
  for (int i = 0; i < 4; ++i) ql.Push(std::string(500, static_cast<char>('a' + i)), End::kTail);
  EXPECT_EQ(ShapeOf(ql).compressed, (std::vector<bool>{false, true, true, false}));
  EXPECT_EQ(Contents(ql)[1], std::string(500, 'b'));
  QuickList copy = ql.Clone();
  EXPECT_EQ(Contents(copy), Contents(ql));
  EXPECT_EQ(ShapeOf(copy).compressed, ShapeOf(ql).compressed);
}

TEST(QuickListTest, IteratorsFromAnIndexInEitherDirection) {
  QuickList ql(3, 0);
  for (int i = 0; i < 10; ++i) ql.Push(std::to_string(i), End::kTail);
  auto from = [&](long index, Direction d) {
    std::vector<std::string> out;
    bool found = false;
    QuickList::Iterator it = ql.At(index, d, &found);
    ListPackValue v;
    while (it.Next(&v)) out.push_back(Str(v));
    return out;
  };
  EXPECT_EQ(from(7, Direction::kForward), (std::vector<std::string>{"7", "8", "9"}));
  EXPECT_EQ(from(-8, Direction::kBackward), (std::vector<std::string>{"2", "1", "0"}));
  EXPECT_EQ(from(4, Direction::kBackward), (std::vector<std::string>{"4", "3", "2", "1", "0"}));
  EXPECT_EQ(from(-2, Direction::kForward), (std::vector<std::string>{"8", "9"}));
  EXPECT_TRUE(from(10, Direction::kForward).empty());
  EXPECT_TRUE(from(-11, Direction::kForward).empty());
  EXPECT_TRUE(from(LONG_MIN, Direction::kForward).empty());
  EXPECT_TRUE(from(LONG_MAX, Direction::kForward).empty());
}

TEST(QuickListTest, DeleteRangeAcrossNodes) {
  QuickList ql(4, 0);
  for (int i = 0; i < 20; ++i) ql.Push(std::to_string(i), End::kTail);
  EXPECT_TRUE(ql.DeleteRange(2, 9));  // 2..10
  EXPECT_EQ(Contents(ql), (std::vector<std::string>{"0", "1", "11", "12", "13", "14", "15", "16",
                                                    "17", "18", "19"}));
  EXPECT_TRUE(ql.DeleteRange(-3, 100));  // to the end
  EXPECT_EQ(Contents(ql), (std::vector<std::string>{"0", "1", "11", "12", "13", "14", "15", "16"}));
  EXPECT_FALSE(ql.DeleteRange(8, 1));
  EXPECT_FALSE(ql.DeleteRange(0, 0));
  EXPECT_TRUE(ql.DeleteRange(0, LONG_MAX));
  EXPECT_TRUE(ql.empty());
  EXPECT_EQ(ql.node_count(), 0u);
  EXPECT_TRUE(ql.Valid());
}

TEST(QuickListTest, InsertIntoAFullNodeSplitsAndMerges) {
  QuickList ql(4, 0);
  for (int i = 0; i < 8; ++i) ql.Push(std::to_string(i), End::kTail);
  EXPECT_EQ(ShapeOf(ql).counts, (std::vector<int>{4, 4}));
  {
    // After "1", in the middle of a full node: the node splits.
    bool found = false;
    QuickList::Iterator it = ql.At(1, Direction::kForward, &found);
    ListPackValue v;
    ASSERT_TRUE(it.Next(&v));
    it.InsertAfter("new");
  }
  EXPECT_EQ(Contents(ql),
            (std::vector<std::string>{"0", "1", "new", "2", "3", "4", "5", "6", "7"}));
  EXPECT_EQ(ShapeOf(ql).counts, (std::vector<int>{2, 3, 4}));
  {
    // Before the head of a full node whose previous node has room: it goes there.
    bool found = false;
    QuickList::Iterator it = ql.At(5, Direction::kForward, &found);
    ListPackValue v;
    ASSERT_TRUE(it.Next(&v));
    EXPECT_EQ(Str(v), "4");
    it.InsertBefore("b4");
  }
  EXPECT_EQ(ShapeOf(ql).counts, (std::vector<int>{2, 4, 4}));
  EXPECT_EQ(Contents(ql),
            (std::vector<std::string>{"0", "1", "new", "2", "3", "b4", "4", "5", "6", "7"}));
  EXPECT_TRUE(ql.Valid());
}

TEST(QuickListTest, IteratorDeletesWhileWalking) {
  QuickList ql(3, 0);
  for (int i = 0; i < 10; ++i) ql.Push(i % 2 == 0 ? "x" : std::to_string(i), End::kTail);
  {
    QuickList::Iterator it = ql.Begin(Direction::kBackward);
    ListPackValue v;
    while (it.Next(&v)) {
      if (Str(v) == "x") it.DeleteCurrent();
    }
  }
  EXPECT_EQ(Contents(ql), (std::vector<std::string>{"1", "3", "5", "7", "9"}));
  EXPECT_TRUE(ql.Valid());
}

TEST(QuickListTest, IntegersAreStoredAsListPackIntegers) {
  QuickList ql;
  ql.Push("12345", End::kTail);
  ql.Push("-7", End::kTail);
  ql.Push("007", End::kTail);
  ListPackValue head = ql.Peek(End::kHead);
  EXPECT_TRUE(head.is_int);
  EXPECT_EQ(head.num, 12345);
  EXPECT_FALSE(ql.Peek(End::kTail).is_int);
  EXPECT_EQ(Contents(ql), (std::vector<std::string>{"12345", "-7", "007"}));
}

TEST(QuickListTest, AllocatedBytesCountsNodesAndBlocks) {
  QuickList ql(-2, 0);
  EXPECT_EQ(ql.AllocatedBytes(0), 0u);
  for (int i = 0; i < 5000; ++i) ql.Push(Ten(i), End::kTail);
  const size_t all = ql.AllocatedBytes(0);
  EXPECT_GE(all, ql.UncompressedBytes());
  EXPECT_LT(all, ql.UncompressedBytes() + ql.node_count() * 2048);
  // Sampling the first nodes extrapolates to about the same.
  const size_t sampled = ql.AllocatedBytes(2);
  EXPECT_GT(sampled, all * 9 / 10);
  EXPECT_LT(sampled, all * 11 / 10);
}

// Random operations against a model, under several fills, depths and plain thresholds.
class QuickListModelTest : public ::testing::TestWithParam<std::tuple<int, int, size_t>> {};

TEST_P(QuickListModelTest, MatchesADeque) {
  const auto [fill, depth, threshold] = GetParam();
  const uint32_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 rng(seed);
  auto element = [&]() -> std::string {
    switch (rng() % 6) {
      case 0:
        return std::to_string(static_cast<int64_t>(rng()) - (1 << 30));
      case 1:
        return std::string(rng() % 40, static_cast<char>('a' + rng() % 3));
      case 2:
        return std::string(100 + rng() % 400, 'z');
      case 3:
        return "v" + std::to_string(rng() % 20);
      default:
        return std::string(1 + rng() % 10, static_cast<char>('a' + rng() % 26));
    }
  };
  QuickList ql(fill, depth, threshold);
  std::deque<std::string> model;
  for (int step = 0; step < 3000; ++step) {
    const unsigned op = rng() % 100;
    if (op < 30) {
      std::string s = element();
      const End end = rng() % 2 ? End::kHead : End::kTail;
      ql.Push(s, end);
      end == End::kHead ? model.push_front(s) : model.push_back(s);
    } else if (op < 45) {
      if (model.empty()) continue;
      const End end = rng() % 2 ? End::kHead : End::kTail;
      ASSERT_EQ(Str(ql.Peek(end)), end == End::kHead ? model.front() : model.back());
      ql.Pop(end);
      end == End::kHead ? model.pop_front() : model.pop_back();
    } else if (op < 55) {
      if (model.empty()) continue;
      const long i = static_cast<long>(rng() % model.size());
      const long index = rng() % 2 ? i : i - static_cast<long>(model.size());
      std::string s = element();
      ASSERT_TRUE(ql.ReplaceAt(index, s));
      model[static_cast<size_t>(i)] = s;
    } else if (op < 70) {
      // Insert before or after the first element equal to a pivot.
      if (model.empty()) continue;
      const std::string pivot = model[rng() % model.size()];
      const bool after = rng() % 2;
      std::string s = element();
      QuickList::Iterator it = ql.Begin(Direction::kForward);
      ListPackValue v;
      while (it.Next(&v)) {
        if (v.Equals(pivot)) {
          after ? it.InsertAfter(s) : it.InsertBefore(s);
          break;
        }
      }
      auto pos = std::find(model.begin(), model.end(), pivot);
      model.insert(after ? pos + 1 : pos, s);
    } else if (op < 80) {
      // Remove some occurrences of a value, from either end.
      if (model.empty()) continue;
      const std::string victim = model[rng() % model.size()];
      const bool backward = rng() % 2;
      size_t limit = rng() % 3;
      QuickList::Iterator it = ql.Begin(backward ? Direction::kBackward : Direction::kForward);
      ListPackValue v;
      size_t removed = 0;
      while (it.Next(&v)) {
        if (!v.Equals(victim)) continue;
        it.DeleteCurrent();
        if (++removed == limit) break;
      }
      std::deque<std::string> next;
      size_t gone = 0;
      if (!backward) {
        for (auto& e : model) {
          if (e == victim && (limit == 0 || gone < limit)) {
            ++gone;
          } else {
            next.push_back(e);
          }
        }
      } else {
        for (auto it2 = model.rbegin(); it2 != model.rend(); ++it2) {
          if (*it2 == victim && (limit == 0 || gone < limit)) {
            ++gone;
          } else {
            next.push_front(*it2);
          }
        }
      }
      ASSERT_EQ(gone, removed);
      model.swap(next);
    } else if (op < 85) {
      if (model.empty()) continue;
      const long size = static_cast<long>(model.size());
      const long start = static_cast<long>(rng() % model.size()) - (rng() % 2 ? 0 : size);
      const long count = 1 + rng() % 20;
      ql.DeleteRange(start, count);
      const size_t from = start < 0 ? model.size() + start : start;
      const size_t n = std::min<size_t>(count, model.size() - from);
      model.erase(model.begin() + from, model.begin() + from + n);
    } else if (op < 87) {
      QuickList copy = ql.Clone();
      ql = std::move(copy);
    } else {
      // Read a random index.
      if (model.empty()) continue;
      const size_t i = rng() % model.size();
      bool found = false;
      QuickList::Iterator it = ql.At(static_cast<long>(i), Direction::kBackward, &found);
      ListPackValue v;
      ASSERT_TRUE(found && it.Next(&v));
      ASSERT_EQ(Str(v), model[i]);
    }
    ASSERT_EQ(ql.size(), model.size());
    ASSERT_TRUE(ql.Valid()) << "step " << step;
  }
  EXPECT_EQ(Contents(ql), std::vector<std::string>(model.begin(), model.end()));
  std::vector<std::string> backward = Contents(ql, Direction::kBackward);
  EXPECT_EQ(backward, std::vector<std::string>(model.rbegin(), model.rend()));
}

INSTANTIATE_TEST_SUITE_P(
    Configs, QuickListModelTest,
    ::testing::Values(std::make_tuple(-2, 0, QuickList::kDefaultPackedThreshold),
                      std::make_tuple(-1, 1, QuickList::kDefaultPackedThreshold),
                      std::make_tuple(3, 1, QuickList::kDefaultPackedThreshold),
                      std::make_tuple(1, 2, QuickList::kDefaultPackedThreshold),
                      std::make_tuple(5, 1, size_t{30}), std::make_tuple(-5, 3, size_t{1}),
                      std::make_tuple(128, 0, size_t{200})));

}  // namespace
}  // namespace kv

namespace kv {
namespace {

// Lazy freeing: `budget` nodes a call from the head.
TEST(QuickListTest, ReleaseSomeFreesNodesFromTheHead) {
  QuickList ql(4, 1);
  for (int i = 0; i < 1000; ++i) ql.Push("element:" + std::to_string(i), QuickList::End::kTail);
  ASSERT_EQ(ql.node_count(), 250u);
  size_t calls = 0;
  while (!ql.ReleaseSome(7)) {
    ++calls;
    ASSERT_EQ(ql.node_count(), 250 - 7 * calls);
    ASSERT_EQ(ql.size(), 4 * ql.node_count());
  }
  EXPECT_EQ(calls, 250u / 7);
  EXPECT_TRUE(ql.empty());
  EXPECT_EQ(ql.node_count(), 0u);
  QuickList half(4, 1);
  for (int i = 0; i < 100; ++i) half.Push(std::string(100, 'x'), QuickList::End::kHead);
  EXPECT_FALSE(half.ReleaseSome(10));  // the destructor frees the other 15 nodes
  EXPECT_EQ(half.size(), 60u);
}

}  // namespace
}  // namespace kv
