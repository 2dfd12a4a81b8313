#include "storage/intset.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kv {
namespace {

std::string Hex(std::string_view bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

std::string FromHex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out += static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16));
  }
  return out;
}

std::vector<int64_t> Values(const IntSet& set) { return {set.begin(), set.end()}; }

IntSet Of(std::initializer_list<int64_t> values) {
  IntSet set;
  for (int64_t v : values) set.Add(v);
  return set;
}

TEST(IntSetTest, EmptyIsTheSharedHeader) {
  IntSet set;
  EXPECT_EQ(set.size(), 0u);
  EXPECT_TRUE(set.empty());
  EXPECT_EQ(Hex(set.view()),
            "02000000"
            "00000000");
  EXPECT_EQ(set.allocated(), 0u);
  EXPECT_FALSE(set.Contains(0));
  EXPECT_FALSE(set.Remove(0));
  EXPECT_EQ(set.begin(), set.end());
  EXPECT_FALSE(IntSet::Validate(set.view(), false)) << "Redis never stores an empty intset";
}

TEST(IntSetTest, AddRemoveContains) {
  IntSet set;
  EXPECT_TRUE(set.Add(5));
  EXPECT_FALSE(set.Add(5));
  EXPECT_TRUE(set.Add(-3));
  EXPECT_TRUE(set.Add(100));
  EXPECT_TRUE(set.Add(7));
  EXPECT_EQ(Values(set), (std::vector<int64_t>{-3, 5, 7, 100}));
  EXPECT_TRUE(set.Contains(7));
  EXPECT_FALSE(set.Contains(6));
  EXPECT_FALSE(set.Contains(1000000));  // wider than the encoding: not searched
  EXPECT_FALSE(set.Contains(INT64_MIN));
  EXPECT_TRUE(set.Remove(5));
  EXPECT_FALSE(set.Remove(5));
  EXPECT_FALSE(set.Remove(1LL << 40));
  EXPECT_EQ(Values(set), (std::vector<int64_t>{-3, 7, 100}));
  EXPECT_EQ(set.Min(), -3);
  EXPECT_EQ(set.Max(), 100);
  // The bytes: encoding 2, length 3, then -3, 7, 100 as 16-bit little-endian.
  EXPECT_EQ(Hex(set.view()),
            "02000000"
            "03000000"
            "fdff"
            "0700"
            "6400");
}

TEST(IntSetTest, EncodingBoundaries) {
  struct Case {
    int64_t value;
    uint32_t encoding;
    const char* value_hex;
  };
  const std::vector<Case> cases = {
      {0, 2, "0000"},
      {INT16_MAX, 2, "ff7f"},
      {INT16_MIN, 2, "0080"},
      {int64_t{INT16_MAX} + 1, 4, "00800000"},
      {int64_t{INT16_MIN} - 1, 4, "ff7fffff"},
      {INT32_MAX, 4, "ffffff7f"},
      {INT32_MIN, 4, "00000080"},
      {int64_t{INT32_MAX} + 1, 8, "0000008000000000"},
      {int64_t{INT32_MIN} - 1, 8, "ffffff7fffffffff"},
      {INT64_MAX, 8, "ffffffffffffff7f"},
      {INT64_MIN, 8, "0000000000000080"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.value);
    EXPECT_EQ(IntSet::EncodingFor(c.value), c.encoding);
    IntSet set;
    set.Add(c.value);
    EXPECT_EQ(set.encoding(), c.encoding);
    const std::string header =
        Hex(std::string(1, static_cast<char>(c.encoding))) + "000000" + "01000000";
    EXPECT_EQ(Hex(set.view()), header + c.value_hex);
    EXPECT_EQ(set.bytes(), IntSet::kHeaderSize + c.encoding);
    EXPECT_EQ(set.Get(0), c.value);
    EXPECT_TRUE(set.Contains(c.value));
    EXPECT_TRUE(IntSet::Validate(set.view(), true));
  }
}

TEST(IntSetTest, UpgradesAppendOrPrependAndNeverDowngrade) {
  IntSet set = Of({1, -2, 3});
  EXPECT_EQ(set.encoding(), 2u);
  EXPECT_TRUE(set.Add(40000));  // above all: appended at 32 bits
  EXPECT_EQ(set.encoding(), 4u);
  EXPECT_EQ(Values(set), (std::vector<int64_t>{-2, 1, 3, 40000}));
  EXPECT_TRUE(set.Add(-5000000000));  // below all: prepended at 64 bits
  EXPECT_EQ(set.encoding(), 8u);
  EXPECT_EQ(Values(set), (std::vector<int64_t>{-5000000000, -2, 1, 3, 40000}));
  EXPECT_EQ(Hex(set.view()),
            "08000000"
            "05000000"
            "000efad5feffffff"
            "feffffffffffffff"
            "0100000000000000"
            "0300000000000000"
            "409c000000000000");
  EXPECT_TRUE(set.Remove(-5000000000));
  EXPECT_TRUE(set.Remove(40000));
  EXPECT_EQ(set.encoding(), 8u);
  EXPECT_EQ(set.bytes(), IntSet::kHeaderSize + 3 * 8);
  EXPECT_TRUE(set.Add(2));
  EXPECT_EQ(Values(set), (std::vector<int64_t>{-2, 1, 2, 3}));
  // Removing everything keeps the encoding too.
  for (int64_t v : {-2, 1, 2, 3}) EXPECT_TRUE(set.Remove(v));
  EXPECT_TRUE(set.empty());
  EXPECT_EQ(set.encoding(), 8u);
  EXPECT_TRUE(set.Add(9));
  EXPECT_EQ(Hex(set.view()),
            "08000000"
            "01000000"
            "0900000000000000");
}

TEST(IntSetTest, GetRandomAndIteration) {
  const IntSet set = Of({30, 10, 20, -10});
  EXPECT_EQ(set.size(), 4u);
  EXPECT_EQ(set.Get(0), -10);
  EXPECT_EQ(set.Get(3), 30);
  std::vector<int> hits(4);
  for (uint64_t r = 0; r < 40; ++r) {
    const int64_t v = set.Random(r);
    EXPECT_EQ(v, set.Get(r % 4));
    ++hits[r % 4];
  }
  EXPECT_EQ(hits, (std::vector<int>{10, 10, 10, 10}));
  EXPECT_EQ(set.Random(UINT64_MAX), set.Get(UINT64_MAX % 4));
  std::vector<int64_t> seen;
  for (int64_t v : set) seen.push_back(v);
  EXPECT_EQ(seen, (std::vector<int64_t>{-10, 10, 20, 30}));
}

TEST(IntSetTest, ValidateAsRedisDoes) {
  const IntSet set = Of({1, 2, 3});
  const std::string good(set.view());
  EXPECT_TRUE(IntSet::Validate(good, true));
  EXPECT_FALSE(IntSet::Validate(good.substr(0, 7), false));                // no header
  EXPECT_FALSE(IntSet::Validate(good.substr(0, good.size() - 1), false));  // size mismatch
  EXPECT_FALSE(IntSet::Validate(good + "\x04", false));
  EXPECT_FALSE(IntSet::Validate(FromHex("03000000010000000100"), false));  // no such encoding
  EXPECT_FALSE(IntSet::Validate(FromHex("0000000000000000"), false));
  EXPECT_FALSE(IntSet::Validate(FromHex("0400000000000000"), false));  // empty
  // A count whose byte size overflows 32 bits must not pass as a small size.
  EXPECT_FALSE(IntSet::Validate(FromHex("08000000"
                                        "00000020"
                                        "0100000000000000"),
                                false));
  // Order and duplicates: only the deep check reads the values.
  const std::string unsorted = FromHex(
      "02000000"
      "03000000"
      "0100"
      "0300"
      "0200");
  EXPECT_TRUE(IntSet::Validate(unsorted, false));
  EXPECT_FALSE(IntSet::Validate(unsorted, true));
  const std::string duplicate = FromHex(
      "04000000"
      "02000000"
      "05000000"
      "05000000");
  EXPECT_FALSE(IntSet::Validate(duplicate, true));
  EXPECT_FALSE(IntSet::FromBytes(duplicate).has_value());
  EXPECT_TRUE(IntSet::FromBytes(duplicate, false).has_value());
  // A set in a wider encoding than its values need is valid (it was upgraded once).
  const auto wide =
      IntSet::FromBytes(FromHex("08000000"
                                "02000000"
                                "0100000000000000"
                                "0200000000000000"));
  ASSERT_TRUE(wide.has_value());
  EXPECT_EQ(Values(*wide), (std::vector<int64_t>{1, 2}));
  EXPECT_TRUE(IntSet::FromBytes(good).has_value());
  EXPECT_EQ(IntSet::FromBytes(good)->view(), good);
}

// Random damage to valid sets: validation reads only inside the block (an exact-size heap copy,
// for the sanitizer build), and a set that passes the deep check works as a set.
TEST(IntSetTest, DeepValidationGuardsEveryRead) {
  std::mt19937 rng(5);
  const std::string originals[] = {std::string(Of({1, 2, 300}).view()),
                                   std::string(Of({-70000, 5, 70000}).view()),
                                   std::string(Of({INT64_MIN, 0, INT64_MAX}).view())};
  int passed = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string bytes = originals[rng() % 3];
    switch (rng() % 3) {
      case 0:
        bytes[rng() % bytes.size()] = static_cast<char>(rng());
        break;
      case 1:
        bytes.resize(rng() % bytes.size());
        break;
      default:
        bytes[rng() % bytes.size()] ^= static_cast<char>(1 << (rng() % 8));
    }
    const std::unique_ptr<char[]> exact(new char[bytes.size() + 1]);
    std::memcpy(exact.get(), bytes.data(), bytes.size());
    const std::string_view candidate(exact.get(), bytes.size());
    IntSet::Validate(candidate, false);
    auto set = IntSet::FromBytes(candidate);
    if (!set) continue;
    ++passed;
    const std::vector<int64_t> values = Values(*set);
    ASSERT_TRUE(std::is_sorted(values.begin(), values.end()));
    for (int64_t v : values) ASSERT_TRUE(set->Contains(v));
    int64_t absent = 0;
    while (std::find(values.begin(), values.end(), absent) != values.end()) ++absent;
    ASSERT_TRUE(set->Add(absent));
    ASSERT_EQ(set->size(), values.size() + 1);
    ASSERT_TRUE(IntSet::Validate(set->view(), true));
  }
  EXPECT_GT(passed, 100);
}

TEST(IntSetTest, CloneAndMove) {
  IntSet a = Of({1, 100000, -7});
  IntSet b = a.Clone();
  EXPECT_EQ(a.view(), b.view());
  EXPECT_NE(a.data(), b.data());
  b.Add(5);
  EXPECT_EQ(a.size(), 3u);
  IntSet c(std::move(b));
  EXPECT_TRUE(b.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty
  EXPECT_EQ(c.size(), 4u);
  a = std::move(c);
  EXPECT_EQ(Values(a), (std::vector<int64_t>{-7, 1, 5, 100000}));
  EXPECT_EQ(IntSet().Clone().allocated(), 0u);
}

TEST(IntSetTest, MemoryFollowsTheValues) {
  IntSet set;
  for (int64_t v = 0; v < 512; ++v) set.Add(v * 1000);
  EXPECT_GE(set.allocated(), set.bytes());
  const size_t big = set.allocated();
  for (int64_t v = 10; v < 512; ++v) set.Remove(v * 1000);
  EXPECT_EQ(set.size(), 10u);
  EXPECT_LT(set.allocated(), big / 10);
}

// Thousands of random adds and removes at every width against std::set.
TEST(IntSetTest, RandomOperationsMatchAModel) {
  std::mt19937_64 rng(42);
  for (int round = 0; round < 4; ++round) {
    IntSet set;
    std::set<int64_t> model;
    for (int step = 0; step < 3000; ++step) {
      int64_t v;
      switch (rng() % 4) {
        case 0:
          v = static_cast<int64_t>(rng() % 200) - 100;
          break;
        case 1:
          v = static_cast<int64_t>(rng() % 80000) - 40000;
          break;
        case 2:
          v = round < 2 ? static_cast<int64_t>(rng() % 100) : static_cast<int64_t>(rng());
          break;
        default:
          // Values already in the set, to remove or re-add.
          v = model.empty() ? 0
                            : *std::next(model.begin(), static_cast<long>(rng() % model.size()));
      }
      if (rng() % 3 == 0) {
        ASSERT_EQ(set.Remove(v), model.erase(v) == 1) << v;
      } else {
        ASSERT_EQ(set.Add(v), model.insert(v).second) << v;
      }
      ASSERT_EQ(set.size(), model.size());
      ASSERT_EQ(set.Contains(v), model.count(v) == 1);
      if (step % 50 == 0) {
        ASSERT_EQ(Values(set), std::vector<int64_t>(model.begin(), model.end()));
        if (!model.empty()) {
          ASSERT_TRUE(IntSet::Validate(set.view(), true));
          ASSERT_EQ(set.Min(), *model.begin());
          ASSERT_EQ(set.Max(), *model.rbegin());
        }
        uint32_t widest = 2;
        for (int64_t m : model) widest = std::max(widest, IntSet::EncodingFor(m));
        ASSERT_GE(set.encoding(), widest);
      }
    }
  }
}

}  // namespace
}  // namespace kv
