#include "storage/hash.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace kv {
namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

Pairs All(const Hash& h) {
  Pairs out;
  h.ForEach([&](std::string_view f, std::string_view v) {
    out.emplace_back(f, v);
    return true;
  });
  return out;
}

std::map<std::string, std::string> AsMap(const Hash& h) {
  Pairs p = All(h);
  return {p.begin(), p.end()};
}

std::string Get(Hash& h, std::string_view field) {
  Hash::IntBuf buf;
  std::string_view v;
  return h.Get(field, buf, &v) ? std::string(v) : "<none>";
}

const Hash::Limits kDefault{};  // 512 entries, 64 bytes

TEST(HashTest, ListPackKeepsInsertionOrderAndRedisBytes) {
  Hash h;
  EXPECT_EQ(h.encoding(), Encoding::kListPack);
  EXPECT_TRUE(h.Set("b", "2", kDefault));
  EXPECT_TRUE(h.Set("a", "x", kDefault));
  EXPECT_FALSE(h.Set("b", "-17", kDefault));
  EXPECT_EQ(h.size(), 2u);
  EXPECT_EQ(All(h), (Pairs{{"b", "-17"}, {"a", "x"}}));
  // Redis's listpack of b, -17 (a 13-bit integer), a, x.
  const std::string expected(
      "\x13\x00\x00\x00\x04\x00"
      "\x81\x62\x02"
      "\xdf\xef\x02"
      "\x81\x61\x02"
      "\x81\x78\x02"
      "\xff",
      19);
  ASSERT_NE(h.listpack(), nullptr);
  EXPECT_EQ(h.listpack()->view(), expected);
  EXPECT_EQ(Get(h, "b"), "-17");
  EXPECT_EQ(Get(h, "c"), "<none>");
  EXPECT_TRUE(h.Contains("a"));
  EXPECT_TRUE(h.Erase("b"));
  EXPECT_FALSE(h.Erase("b"));
  EXPECT_EQ(All(h), (Pairs{{"a", "x"}}));
  EXPECT_EQ(h.FreeEffort(), 1u);
}

// A field is looked up among fields only: a value equal to it does not count.
TEST(HashTest, ListPackFindSkipsValues) {
  Hash h;
  h.Set("k1", "k2", kDefault);
  h.Set("k2", "v", kDefault);
  EXPECT_EQ(Get(h, "k2"), "v");
  EXPECT_EQ(Get(h, "v"), "<none>");
  EXPECT_FALSE(h.Erase("v"));
  EXPECT_TRUE(h.Erase("k2"));
  EXPECT_EQ(All(h), (Pairs{{"k1", "k2"}}));
}

TEST(HashTest, ConvertsAfterTheEntriesLimit) {
  const Hash::Limits limits{4, 64};
  Hash h;
  for (int i = 0; i < 4; ++i) h.Set("f" + std::to_string(i), std::to_string(i), limits);
  EXPECT_EQ(h.encoding(), Encoding::kListPack);
  h.Set("f4", "4", limits);
  EXPECT_EQ(h.encoding(), Encoding::kHashTable);
  EXPECT_EQ(h.size(), 5u);
  EXPECT_EQ(h.FreeEffort(), 5u);
  EXPECT_EQ(AsMap(h), (std::map<std::string, std::string>{
                          {"f0", "0"}, {"f1", "1"}, {"f2", "2"}, {"f3", "3"}, {"f4", "4"}}));
  // Never back, not even when emptied to one field.
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(h.Erase("f" + std::to_string(i)));
  EXPECT_EQ(h.encoding(), Encoding::kHashTable);
  EXPECT_EQ(h.listpack(), nullptr);
}

TEST(HashTest, ConvertsBeforeALongFieldOrValue) {
  const Hash::Limits limits{128, 8};
  Hash a;
  a.Set("f", "12345678", limits);  // exactly the limit: stays
  EXPECT_EQ(a.encoding(), Encoding::kListPack);
  a.Set("f", "123456789", limits);
  EXPECT_EQ(a.encoding(), Encoding::kHashTable);
  EXPECT_EQ(Get(a, "f"), "123456789");
  Hash b;
  b.Set("123456789", "v", limits);
  EXPECT_EQ(b.encoding(), Encoding::kHashTable);
}

TEST(HashTest, PrepareForChecksEveryString) {
  const Hash::Limits limits{128, 8};
  Hash h;
  h.Set("a", "1", limits);
  const std::string_view ok[] = {"f", "12345678"};
  h.PrepareFor(ok, limits);
  EXPECT_EQ(h.encoding(), Encoding::kListPack);
  const std::string_view long_one[] = {"f", "v", "g", "123456789"};
  h.PrepareFor(long_one, limits);
  EXPECT_EQ(h.encoding(), Encoding::kHashTable);
  EXPECT_EQ(Get(h, "a"), "1");
}

// A lowered limit applies on the next write, even one that only updates.
TEST(HashTest, LoweredEntriesLimitConvertsOnUpdate) {
  Hash h;
  for (int i = 0; i < 10; ++i) h.Set("f" + std::to_string(i), "v", kDefault);
  EXPECT_EQ(h.encoding(), Encoding::kListPack);
  h.Set("f0", "w", Hash::Limits{5, 64});
  EXPECT_EQ(h.encoding(), Encoding::kHashTable);
  EXPECT_EQ(Get(h, "f0"), "w");
}

TEST(HashTest, CloneKeepsTheEncoding) {
  Hash small;
  small.Set("a", "1", kDefault);
  auto small_copy = small.Clone();
  EXPECT_EQ(small_copy->encoding(), Encoding::kListPack);
  EXPECT_EQ(All(static_cast<Hash&>(*small_copy)), All(small));
  Hash big;
  for (int i = 0; i < 600; ++i) big.Set(std::to_string(i), "v" + std::to_string(i), kDefault);
  auto big_copy = big.Clone();
  EXPECT_EQ(big_copy->encoding(), Encoding::kHashTable);
  EXPECT_EQ(AsMap(static_cast<Hash&>(*big_copy)), AsMap(big));
  big.Set("1", "changed", kDefault);
  EXPECT_EQ(Get(static_cast<Hash&>(*big_copy), "1"), "v1");
}

TEST(HashTest, MovesTakeEitherEncoding) {
  Hash big;
  for (int i = 0; i < 600; ++i) big.Set(std::to_string(i), "v", kDefault);
  Hash moved(std::move(big));
  EXPECT_EQ(moved.encoding(), Encoding::kHashTable);
  EXPECT_EQ(moved.size(), 600u);
  EXPECT_EQ(big.encoding(), Encoding::kListPack);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(big.size(), 0u);
  Hash small;
  small.Set("a", "1", kDefault);
  moved = std::move(small);
  EXPECT_EQ(moved.encoding(), Encoding::kListPack);
  EXPECT_EQ(All(moved), (Pairs{{"a", "1"}}));
  big = std::move(moved);
  EXPECT_EQ(All(big), (Pairs{{"a", "1"}}));
}

TEST(HashTest, ScanOfAListPackIsEverythingAtOnce) {
  Hash h;
  h.Set("a", "1", kDefault);
  h.Set("b", "2", kDefault);
  Pairs seen;
  EXPECT_EQ(h.Scan(12345,
                   [&](std::string_view f, std::string_view v) {
                     seen.emplace_back(f, v);
                     return true;
                   }),
            0u);
  EXPECT_EQ(seen, (Pairs{{"a", "1"}, {"b", "2"}}));
}

TEST(HashTest, ScanOfATableCoversEverything) {
  Hash h;
  for (int i = 0; i < 2000; ++i) h.Set("f" + std::to_string(i), "v", kDefault);
  std::set<std::string> seen;
  uint64_t cursor = 0;
  int calls = 0;
  do {
    cursor = h.Scan(cursor, [&](std::string_view f, std::string_view) {
      seen.emplace(f);
      return true;
    });
    ++calls;
  } while (cursor != 0);
  EXPECT_EQ(seen.size(), 2000u);
  EXPECT_GT(calls, 100);  // bucket by bucket, not all at once
}

class HashSampleTest : public ::testing::TestWithParam<bool> {
 protected:
  // Ten fields, as a list pack or (param true) a table.
  Hash Make() {
    Hash h;
    const Hash::Limits limits{GetParam() ? size_t{4} : size_t{512}, 64};
    for (int i = 0; i < 10; ++i) h.Set("f" + std::to_string(i), "v" + std::to_string(i), limits);
    EXPECT_EQ(h.encoding(), GetParam() ? Encoding::kHashTable : Encoding::kListPack);
    return h;
  }
  std::mt19937_64 rng{99};
};

TEST_P(HashSampleTest, WithRepetitionDrawsEveryFieldEvenly) {
  Hash h = Make();
  std::map<std::string, int> hits;
  size_t n = 0;
  auto rnd = [this] { return rng(); };
  h.SampleWithRepetition(10000, rnd, [&](std::string_view f, std::string_view v) {
    EXPECT_EQ("v" + std::string(f.substr(1)), v);
    ++hits[std::string(f)];
    ++n;
    return true;
  });
  EXPECT_EQ(n, 10000u);
  ASSERT_EQ(hits.size(), 10u);
  double chi = 0;
  for (const auto& [f, c] : hits) chi += (c - 1000.0) * (c - 1000.0) / 1000.0;
  EXPECT_LT(chi, 40);
  // Stops when asked to.
  n = 0;
  h.SampleWithRepetition(100, rnd, [&](std::string_view, std::string_view) { return ++n < 3; });
  EXPECT_EQ(n, 3u);
}

TEST_P(HashSampleTest, DistinctGivesDistinctFieldsAndEventuallyAll) {
  Hash h = Make();
  auto rnd = [this] { return rng(); };
  // 8 takes the "all less random ones" path, 2 the "pick until distinct" one.
  for (size_t count : {8u, 2u, 1u}) {
    std::set<std::string> ever;
    for (int round = 0; round < 200; ++round) {
      std::set<std::string> got;
      size_t n = 0;
      h.SampleDistinct(count, rnd, [&](std::string_view f, std::string_view v) {
        EXPECT_EQ("v" + std::string(f.substr(1)), v);
        got.emplace(f);
        ++n;
        return true;
      });
      ASSERT_EQ(n, count);
      ASSERT_EQ(got.size(), count);
      ever.insert(got.begin(), got.end());
    }
    EXPECT_EQ(ever.size(), 10u) << count;
  }
}

INSTANTIATE_TEST_SUITE_P(Encodings, HashSampleTest, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "Table" : "ListPack"; });

TEST(HashTest, AllocatedBytesFollowsTheEncoding) {
  Hash h;
  EXPECT_EQ(h.AllocatedBytes(0), 0u);
  h.Set("a", "1", kDefault);
  EXPECT_EQ(h.AllocatedBytes(0), h.listpack()->allocated());
  for (int i = 0; i < 1000; ++i) h.Set("f" + std::to_string(i), "v", kDefault);
  EXPECT_GT(h.AllocatedBytes(0), 1000u * 16);
}

// Random commands against a model, with limits that change as Redis's CONFIG SET would: the
// contents always match, and the encoding is the one Redis's rules give.
TEST(HashTest, RandomOperationsMatchAModel) {
  std::mt19937_64 rng(31337);
  for (int round = 0; round < 30; ++round) {
    Hash h;
    std::map<std::string, std::string> model;
    bool converted = false;
    Hash::Limits limits{static_cast<size_t>(rng() % 40), static_cast<size_t>(rng() % 20 + 1)};
    for (int op = 0; op < 3000; ++op) {
      const std::string field = std::to_string(rng() % 60);
      const int kind = static_cast<int>(rng() % 10);
      if (kind < 5) {
        std::string value;
        const int vk = static_cast<int>(rng() % 4);
        if (vk == 0) value = std::to_string(static_cast<int64_t>(rng()));
        if (vk == 1) value = std::string(rng() % (limits.max_listpack_value + 2), 'x');
        if (vk == 2) value = std::to_string(rng() % 100);
        const bool would_convert =
            field.size() > limits.max_listpack_value || value.size() > limits.max_listpack_value;
        const bool added = model.insert_or_assign(field, value).second;
        ASSERT_EQ(h.Set(field, value, limits), added);
        converted = converted || would_convert || model.size() > limits.max_listpack_entries;
      } else if (kind < 7) {
        ASSERT_EQ(h.Erase(field), model.erase(field) == 1);
      } else if (kind < 9) {
        auto it = model.find(field);
        ASSERT_EQ(Get(h, field), it == model.end() ? "<none>" : it->second);
      } else {
        limits = {static_cast<size_t>(rng() % 80), static_cast<size_t>(rng() % 20 + 1)};
      }
      ASSERT_EQ(h.size(), model.size());
      ASSERT_EQ(h.encoding(), converted ? Encoding::kHashTable : Encoding::kListPack) << op;
      if (model.empty()) {
        // Redis deletes an emptied hash; the next one starts as a list pack.
        h = Hash();
        converted = false;
      }
    }
    ASSERT_EQ(AsMap(h), model);
  }
}

}  // namespace
}  // namespace kv
