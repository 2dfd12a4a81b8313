#include "storage/string_map.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "storage/table_stats.h"
namespace kv {
namespace {

std::string Field(int i) { return "field:" + std::to_string(i); }

std::map<std::string, std::string> Contents(const StringMap& m) {
  std::map<std::string, std::string> out;
  m.ForEach([&](const StringMap::Entry& e) {
    EXPECT_TRUE(out.emplace(std::string(e.field), std::string(e.value)).second) << e.field;
    return true;
  });
  return out;
}

// Every field a full SCAN returns (a field may come more than once).
std::multiset<std::string> ScanAll(const StringMap& m) {
  std::multiset<std::string> out;
  uint64_t cursor = 0;
  do {
    cursor = m.Scan(cursor, [&](const StringMap::Entry& e) { out.emplace(e.field); });
  } while (cursor != 0);
  return out;
}

TEST(StringMapTest, SetFindErase) {
  StringMap m;
  std::string_view v;
  EXPECT_FALSE(m.Find("a", &v));
  EXPECT_FALSE(m.Erase("a"));
  EXPECT_TRUE(m.Set("a", "1"));
  EXPECT_TRUE(m.Set("", "empty field"));
  EXPECT_TRUE(m.Set("b", ""));
  EXPECT_FALSE(m.Set("a", "2"));
  EXPECT_EQ(m.size(), 3u);
  ASSERT_TRUE(m.Find("a", &v));
  EXPECT_EQ(v, "2");
  ASSERT_TRUE(m.Find("", &v));
  EXPECT_EQ(v, "empty field");
  ASSERT_TRUE(m.Find("b", &v));
  EXPECT_EQ(v, "");
  EXPECT_TRUE(m.Contains("b"));
  EXPECT_FALSE(m.Contains("c"));
  EXPECT_TRUE(m.Erase("a"));
  EXPECT_FALSE(m.Erase("a"));
  EXPECT_FALSE(m.Contains("a"));
  EXPECT_EQ(m.size(), 2u);
}

TEST(StringMapTest, BinarySafe) {
  StringMap m;
  const std::string f1("a\0b", 3);
  const std::string f2("a\0c", 3);
  EXPECT_TRUE(m.Set(f1, std::string("x\0y", 3)));
  EXPECT_TRUE(m.Set(f2, "z"));
  std::string_view v;
  ASSERT_TRUE(m.Find(f1, &v));
  EXPECT_EQ(v, std::string("x\0y", 3));
  EXPECT_FALSE(m.Contains(std::string_view("a", 1)));
}

// Values that grow and shrink across the varint boundaries of their length (127/128, 16383/16384)
// and far beyond the node's block, or far below it.
TEST(StringMapTest, UpdatesKeepTheFieldWhateverTheValueSize) {
  StringMap m;
  for (int i = 0; i < 50; ++i) m.Set(Field(i), "v");
  const size_t sizes[] = {0, 1, 126, 127, 128, 129, 5, 16383, 16384, 100000, 3, 128, 127, 0};
  for (size_t n : sizes) {
    const std::string value(n, static_cast<char>('a' + n % 26));
    EXPECT_FALSE(m.Set(Field(7), value));
    std::string_view v;
    ASSERT_TRUE(m.Find(Field(7), &v));
    EXPECT_EQ(v, value) << n;
    ASSERT_TRUE(m.Find(Field(8), &v));
    EXPECT_EQ(v, "v");
  }
  // A long field, whose own varint is two bytes, with a value crossing the boundary.
  const std::string long_field(300, 'f');
  m.Set(long_field, std::string(127, 'x'));
  m.Set(long_field, std::string(128, 'y'));
  std::string_view v;
  ASSERT_TRUE(m.Find(long_field, &v));
  EXPECT_EQ(v, std::string(128, 'y'));
  m.Set(long_field, "z");
  ASSERT_TRUE(m.Find(long_field, &v));
  EXPECT_EQ(v, "z");
  EXPECT_EQ(m.size(), 51u);
}

TEST(StringMapTest, GrowsIncrementallyAndFindsEverythingMeanwhile) {
  StringMap m;
  bool saw_rehash = false;
  for (int i = 0; i < 20000; ++i) {
    ASSERT_TRUE(m.Set(Field(i), std::to_string(i)));
    saw_rehash |= m.rehashing();
    if (i % 997 == 0) {
      for (int j = 0; j <= i; j += 13) ASSERT_TRUE(m.Contains(Field(j))) << i << " " << j;
    }
  }
  EXPECT_TRUE(saw_rehash);
  EXPECT_EQ(m.size(), 20000u);
  // Lookups move the rehash along too.
  std::string_view v;
  for (int i = 0; i < 100000 && m.rehashing(); ++i) m.Find("x", &v);
  EXPECT_FALSE(m.rehashing());
  // Redis's policy: buckets are the next power of two at or above the fields.
  EXPECT_EQ(m.bucket_count(), 32768u);
  EXPECT_EQ(Contents(m).size(), 20000u);
}

TEST(StringMapTest, ShrinksWhenUnderATenthFull) {
  StringMap m;
  for (int i = 0; i < 4096; ++i) m.Set(Field(i), "v");
  std::string_view v;
  while (m.rehashing()) m.Find("x", &v);
  EXPECT_EQ(m.bucket_count(), 4096u);
  for (int i = 0; i < 4000; ++i) ASSERT_TRUE(m.Erase(Field(i)));
  while (m.rehashing()) m.Find("x", &v);
  EXPECT_LE(m.bucket_count(), 1024u);
  EXPECT_EQ(m.size(), 96u);
  for (int i = 4000; i < 4096; ++i) ASSERT_TRUE(m.Contains(Field(i)));
  for (int i = 4000; i < 4096; ++i) ASSERT_TRUE(m.Erase(Field(i)));
  EXPECT_TRUE(m.empty());
  EXPECT_EQ(ScanAll(m).size(), 0u);
}

TEST(StringMapTest, ScanReturnsEverythingOnce) {
  StringMap m;
  for (int i = 0; i < 1000; ++i) m.Set(Field(i), "v");
  std::string_view v;
  while (m.rehashing()) m.Find("x", &v);
  const auto all = ScanAll(m);
  EXPECT_EQ(all.size(), 1000u);
  EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), 1000u);
}

// Redis's guarantee: a field present for the whole iteration is returned, whatever the table
// did between calls (grow, shrink, rehash halfway).
TEST(StringMapTest, ScanSeesEveryStayingFieldWhileTheTableGrowsOrShrinks) {
  for (int mode = 0; mode < 2; ++mode) {
    StringMap m;
    const int kept = 300;
    for (int i = 0; i < kept; ++i) m.Set(Field(i), "v");
    if (mode == 1) {
      for (int i = 0; i < 5000; ++i) m.Set("extra" + std::to_string(i), "v");
    }
    std::set<std::string> seen;
    uint64_t cursor = 0;
    int step = 0;
    do {
      cursor = m.Scan(cursor, [&](const StringMap::Entry& e) { seen.emplace(e.field); });
      // Between calls: grow twentyfold (mode 0), or delete most of the table (mode 1). (A table
      // that grows forever faster than the scan advances is never done, in Redis too.)
      for (int j = 0; j < 40 && step < 6000; ++j, ++step) {
        if (mode == 0) {
          m.Set("new" + std::to_string(step), "v");
        } else {
          m.Erase("extra" + std::to_string(step));
        }
      }
    } while (cursor != 0);
    for (int i = 0; i < kept; ++i) EXPECT_TRUE(seen.count(Field(i))) << mode << " " << i;
  }
}

TEST(StringMapTest, RandomEntryReachesEveryFieldAboutEvenly) {
  StringMap m;
  const int n = 10;
  for (int i = 0; i < n; ++i) m.Set(Field(i), std::to_string(i));
  std::mt19937_64 rng(42);
  std::map<std::string, int> hits;
  const int draws = 10000;
  for (int i = 0; i < draws; ++i) {
    const StringMap::Entry e = m.RandomEntry([&] { return rng(); });
    std::string_view v;
    ASSERT_TRUE(m.Find(e.field, &v));
    EXPECT_EQ(v, e.value);
    ++hits[std::string(e.field)];
  }
  ASSERT_EQ(hits.size(), static_cast<size_t>(n));
  // Chi-square with 9 degrees of freedom: 40 has probability 1e-5 (Redis's test uses the same).
  double chi = 0;
  for (const auto& [f, c] : hits) {
    const double expected = static_cast<double>(draws) / n;
    chi += (c - expected) * (c - expected) / expected;
  }
  EXPECT_LT(chi, 40);
}

TEST(StringMapTest, RandomEntryWhileRehashing) {
  StringMap m;
  for (int i = 0; i < 5000; ++i) m.Set(Field(i), "v");
  // Grow into a rehash and stop there.
  int i = 5000;
  while (!m.rehashing()) m.Set(Field(i++), "v");
  std::mt19937_64 rng(7);
  std::set<std::string> seen;
  for (int k = 0; k < 200000; ++k) seen.emplace(m.RandomEntry([&] { return rng(); }).field);
  EXPECT_TRUE(m.rehashing());
  EXPECT_GT(seen.size(), m.size() * 9 / 10);
}

TEST(StringMapTest, CloneAndMove) {
  StringMap m;
  for (int i = 0; i < 3000; ++i) m.Set(Field(i), std::string(i % 200, 'x'));
  StringMap copy = m.Clone();
  EXPECT_EQ(Contents(copy), Contents(m));
  StringMap moved(std::move(copy));
  EXPECT_EQ(Contents(moved), Contents(m));
  EXPECT_TRUE(copy.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty
  copy = std::move(moved);
  EXPECT_EQ(copy.size(), 3000u);
  copy.Clear();
  EXPECT_TRUE(copy.empty());
  EXPECT_TRUE(copy.Set("a", "b"));
}

TEST(StringMapTest, AllocatedBytesCountsNodesAndBuckets) {
  StringMap m;
  EXPECT_EQ(m.AllocatedBytes(), 0u);
  size_t requested = 1024 * 8;  // the buckets
  for (int i = 0; i < 1000; ++i) {
    m.Set(Field(i), "value");
    requested += 8 + 2 + Field(i).size() + 5;  // next pointer, two lengths, field, value
  }
  const size_t all = m.AllocatedBytes();
  // At least what was asked for (exactly that under the sanitizers' allocator).
  EXPECT_GE(all, requested);
  EXPECT_LE(all, 1000 * 64 + 2048 * 8);
  const size_t sampled = m.AllocatedBytes(5);
  EXPECT_GT(sampled, all / 2);
  EXPECT_LT(sampled, all * 2);
}

// Random operations against std::map, with a mix of tiny and large values.
TEST(StringMapTest, RandomOperationsMatchAModel) {
  std::mt19937_64 rng(20240613);
  StringMap m;
  std::map<std::string, std::string> model;
  for (int op = 0; op < 200000; ++op) {
    const std::string field = "f" + std::to_string(rng() % 3000);
    switch (rng() % 5) {
      case 0:
      case 1: {
        const std::string value(rng() % 4 == 0 ? rng() % 300 : rng() % 8, 'a' + rng() % 26);
        const bool added = model.insert_or_assign(field, value).second;
        ASSERT_EQ(m.Set(field, value), added);
        break;
      }
      case 2:
        ASSERT_EQ(m.Erase(field), model.erase(field) == 1);
        break;
      default: {
        std::string_view v;
        auto it = model.find(field);
        ASSERT_EQ(m.Find(field, &v), it != model.end());
        if (it != model.end()) {
          ASSERT_EQ(v, it->second);
        }
      }
    }
    ASSERT_EQ(m.size(), model.size());
    if (op % 20000 == 0) {
      ASSERT_EQ(Contents(m), model);
    }
  }
  ASSERT_EQ(Contents(m), model);
}

}  // namespace
}  // namespace kv

namespace kv {
namespace {

// Lazy freeing: fields bucket by bucket from the last one, the rehash target first, `budget`
// nodes and buckets a call. 300,000 fields make arrays whose pages go back to the OS on the way.
TEST(StringMapTest, ReleaseSomeFreesFieldsInSteps) {
  for (auto [fields, mid_rehash] : {std::pair{5000, false}, std::pair{5000, true},
                                    std::pair{300000, false}, std::pair{300000, true}}) {
    SCOPED_TRACE(fields);
    StringMap m;
    int n = 0;
    while (n < fields || (mid_rehash && !m.rehashing()) || (!mid_rehash && m.rehashing())) {
      m.Set(Field(n), "value:" + std::to_string(n));
      ++n;
    }
    ASSERT_EQ(m.rehashing(), mid_rehash);
    const size_t work = m.size() + m.bucket_count();
    size_t calls = 0;
    size_t left = m.size();
    while (!m.ReleaseSome(64)) {
      ++calls;
      ASSERT_LE(m.size(), left);
      ASSERT_GE(m.size() + 64, left);
      left = m.size();
    }
    EXPECT_GE((calls + 1) * 64, work) << "at most 64 units a call";
    EXPECT_LE(calls * 64, work);
    EXPECT_EQ(m.size(), 0u);
    EXPECT_EQ(m.bucket_count(), 0u);
  }
}

TEST(StringMapTest, DestroyedHalfReleased) {
  StringMap m;
  for (int i = 0; i < 1000; ++i) m.Set(Field(i), std::string(100, 'v'));
  EXPECT_FALSE(m.ReleaseSome(600));
  EXPECT_GT(m.size(), 0u);
  EXPECT_LT(m.size(), 1000u);
}

TEST(StringMapTest, StatsOfEachTableWhileRehashing) {
  StringMap map;
  EXPECT_EQ(map.Stats(0).table_size, 0u);
  int i = 0;
  // Grow until a rehash is under way: both tables then hold fields.
  for (; i < 100000 && !(map.rehashing() && map.Stats(1).elements > 0 && map.Stats(0).elements > 0);
       ++i) {
    map.InsertNew("f:" + std::to_string(i), "v");
  }
  ASSERT_TRUE(map.rehashing());
  size_t total = 0;
  for (int t = 0; t < 2; ++t) {
    const TableStats s = map.Stats(t);
    size_t members = 0;
    size_t buckets = 0;
    for (size_t n = 0; n + 1 < TableStats::kChainLengths; ++n) {
      members += n * s.chains[n];
      buckets += s.chains[n];
    }
    buckets += s.chains.back();
    EXPECT_EQ(buckets, s.table_size) << t;
    EXPECT_EQ(members, s.elements) << t;  // no chain of 49 or more here
    EXPECT_EQ(s.total_chain, s.elements) << t;
    EXPECT_EQ(s.used_buckets, s.table_size - s.chains[0]) << t;
    EXPECT_GE(s.max_chain, 1u) << t;
    total += s.elements;
  }
  EXPECT_EQ(total, map.size());
  EXPECT_GT(map.Stats(1).table_size, map.Stats(0).table_size);
}

}  // namespace
}  // namespace kv
