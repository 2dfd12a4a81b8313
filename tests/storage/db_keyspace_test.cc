// The Db functions behind the keyspace commands: segments and SCAN cursors, RandomKey, Take/Put,
// ForEach and access times.

#include <set>
#include <string>

#include "gtest/gtest.h"
#include "storage/db.h"
#include "storage/db_set.h"

namespace kv {
namespace {

constexpr int64_t kNow = 1'700'000'000'000;

std::set<std::string> ScanAll(const Db& db) {
  std::set<std::string> keys;
  uint64_t cursor = 0;
  do {
    cursor = db.Scan(cursor, [&](std::string_view k) { keys.emplace(k); });
  } while (cursor != 0);
  return keys;
}

TEST(DbKeyspaceTest, SegmentsSplitAndKeepEveryKey) {
  Db db;
  for (int i = 0; i < 100000; ++i) db.SetString("k" + std::to_string(i), "v");
  EXPECT_EQ(db.size(), 100000u);
  EXPECT_GT(db.segment_count(), 100000u / Db::kMaxSegmentSize);
  EXPECT_GT(db.directory_depth(), 3);
  for (int i = 0; i < 100000; i += 997) EXPECT_NE(db.Find("k" + std::to_string(i), kNow), nullptr);
  EXPECT_EQ(ScanAll(db).size(), 100000u);
  size_t n = 0;
  db.ForEach([&](std::string_view, const Value&) { ++n; });
  EXPECT_EQ(n, 100000u);
  EXPECT_TRUE(db.Delete("k5", kNow));
  EXPECT_EQ(db.size(), 99999u);
  db.Clear();
  EXPECT_EQ(db.size(), 0u);
  EXPECT_EQ(db.segment_count(), 1u);
  EXPECT_EQ(ScanAll(db).size(), 0u);
}

// RESIZEDB's layout: the segments splitting would make, made at once, so that the keys it
// announced go in without a split, SCAN and lookups see them all, and growth past them splits
// as usual.
TEST(DbKeyspaceTest, ReserveMakesTheSegmentsAtOnce) {
  Db db;
  db.Reserve(100000, 1000);
  const size_t segments = db.segment_count();
  EXPECT_GT(segments, 100000u / Db::kMaxSegmentSize);
  EXPECT_LE(segments, 4 * 100000u / Db::kMaxSegmentSize);
  for (int i = 0; i < 100000; ++i) db.SetString("k" + std::to_string(i), "v");
  EXPECT_EQ(db.segment_count(), segments);
  EXPECT_EQ(db.size(), 100000u);
  EXPECT_EQ(ScanAll(db).size(), 100000u);
  for (int i = 0; i < 100000; i += 991) EXPECT_NE(db.Find("k" + std::to_string(i), kNow), nullptr);
  for (int i = 100000; i < 400000; ++i) db.SetString("k" + std::to_string(i), "v");
  EXPECT_GT(db.segment_count(), segments);
  EXPECT_EQ(ScanAll(db).size(), 400000u);
  // A Db with keys keeps its layout.
  const size_t grown = db.segment_count();
  db.Reserve(1000000, 0);
  EXPECT_EQ(db.segment_count(), grown);
  EXPECT_EQ(ScanAll(db).size(), 400000u);
}

// The loader's store: a new key gets the value and deadline; a key in the table, even expired,
// is left alone with the value untouched (the loader reports the duplicate).
TEST(DbKeyspaceTest, AddNewStoresOnlyAbsentKeys) {
  Db db;
  DetachedValue v{.str = CompactString("1")};
  Value* added = db.AddNew("a", v, kNow + 1000);
  ASSERT_NE(added, nullptr);
  EXPECT_EQ(added->str(), "1");
  EXPECT_EQ(db.GetExpire("a"), kNow + 1000);
  DetachedValue again{.str = CompactString("2")};
  EXPECT_EQ(db.AddNew("a", again, kNoExpiry), nullptr);
  EXPECT_EQ(again.str.view(), "2");
  EXPECT_EQ(db.Find("a", kNow)->str(), "1");
  EXPECT_EQ(db.GetExpire("a"), kNow + 1000);
  db.SetClock(kNow + 2000);  // "a" has expired, and is still in the table
  EXPECT_EQ(db.AddNew("a", again, kNoExpiry), nullptr);
  EXPECT_TRUE(db.Contains("a"));
  EXPECT_EQ(db.size(), 1u);
}

TEST(DbKeyspaceTest, ScanCursorSurvivesGrowth) {
  Db db;
  std::set<std::string> initial;
  for (int i = 0; i < 50000; ++i) {
    db.SetString("a" + std::to_string(i), "v");
    initial.insert("a" + std::to_string(i));
  }
  std::set<std::string> seen;
  uint64_t cursor = 0;
  int added = 0;
  do {
    cursor = db.Scan(cursor, [&](std::string_view k) { seen.emplace(k); });
    for (int j = 0; j < 5000; ++j) db.SetString("b" + std::to_string(added++), "v");
  } while (cursor != 0);
  for (const std::string& k : initial) ASSERT_EQ(seen.count(k), 1u) << k;
  // Any cursor is accepted, even one that was never returned.
  EXPECT_NO_FATAL_FAILURE(db.Scan(~uint64_t{0}, [](std::string_view) {}));
}

TEST(DbKeyspaceTest, RandomKeySkipsExpired) {
  Db db;
  EXPECT_FALSE(db.RandomKey(kNow).has_value());
  db.SetString("gone", "v", kNow + 1);
  db.SetString("live", "v");
  for (int i = 0; i < 20; ++i) EXPECT_EQ(db.RandomKey(kNow + 10), "live");
  EXPECT_EQ(db.size(), 1u);
  std::set<std::string> picked;
  for (int i = 0; i < 2000; ++i) db.SetString("x" + std::to_string(i), "v");
  for (int i = 0; i < 200; ++i) picked.insert(*db.RandomKey(kNow));
  EXPECT_GT(picked.size(), 50u);
}

TEST(DbKeyspaceTest, TakeAndPutCarryTheDeadline) {
  Db db;
  db.SetString("a", "1", kNow + 1000);
  DetachedValue v;
  int64_t at = 0;
  EXPECT_FALSE(db.Take("missing", kNow, &v, &at));
  EXPECT_TRUE(db.Take("a", kNow, &v, &at));
  EXPECT_EQ(v.str.view(), "1");
  EXPECT_EQ(at, kNow + 1000);
  EXPECT_FALSE(db.Exists("a", kNow));
  EXPECT_EQ(db.expires_size(), 0u);
  db.SetString("b", "old", kNow + 5);
  db.Put("b", DetachedValue{.str = v.str}, kNoExpiry);
  EXPECT_EQ(db.GetExpire("b"), kNoExpiry);
  EXPECT_EQ(db.Find("b", kNow)->str(), "1");
  db.Put("c", std::move(v), at);
  EXPECT_EQ(db.GetExpire("c"), kNow + 1000);
}

TEST(DbKeyspaceTest, TakeAndPutCarryStringsOfEverySizeAndTheFlags) {
  Db db;
  for (size_t n : {0, 1, 36, 70000, 200000}) {
    const std::string value(n, 'v');
    db.SetString("a", value);
    db.Find("a", kNow)->mutable_str();  // "raw"
    DetachedValue v;
    int64_t at = 0;
    ASSERT_TRUE(db.Take("a", kNow, &v, &at));
    db.Put("b", std::move(v), kNoExpiry);
    const Value* b = db.Find("b", kNow);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->str(), value);
    EXPECT_TRUE(b->changed_in_place());
    db.Delete("b", kNow);
  }
}

TEST(DbKeyspaceTest, AccessTimeFollowsFindNotPeek) {
  Db db;
  db.SetClock(kNow);
  db.SetString("k", "v");
  // The LRU clock is Redis's: Unix seconds in 24 bits.
  EXPECT_EQ(db.Peek("k", kNow)->lru(), (kNow / 1000) & Value::kLruMax);
  db.SetClock(kNow + 7000);
  EXPECT_EQ(db.IdleSeconds(*db.Peek("k", kNow + 7000)), 7u);
  EXPECT_EQ(db.Find("k", kNow + 7000)->lru(), ((kNow + 7000) / 1000) & Value::kLruMax);
  EXPECT_EQ(db.IdleSeconds(*db.Peek("k", kNow + 7000)), 0u);
}

TEST(DbKeyspaceTest, IdleTimeWrapsWithTheClockAsRedis) {
  Db db;
  // The 24-bit clock wraps every 2^24 seconds; Redis's estimateObjectIdleTime then counts up to
  // LRU_CLOCK_MAX and on from 0 (one second short of the true idle time, as Redis).
  const int64_t before_wrap = (int64_t{Value::kLruMax} - 5) * 1000;
  db.SetClock(before_wrap);
  db.SetString("k", "v");
  db.SetClock(before_wrap + 10 * 1000);
  EXPECT_EQ(db.Peek("k", before_wrap)->lru(), Value::kLruMax - 5);
  EXPECT_EQ(db.IdleSeconds(*db.Peek("k", before_wrap)), 9u);
}

TEST(DbKeyspaceTest, LfuCounterSharesTheLruBitsAsRedis) {
  Db db;
  db.SetLfu(true, 10, 1);
  db.SetClock(kNow);
  db.SetString("k", "v");
  const uint32_t minutes = (kNow / 1000 / 60) & 0xffff;
  EXPECT_EQ(db.Peek("k", kNow)->lru(), minutes << 8 | 5);  // LFU_INIT_VAL
  EXPECT_EQ(db.LfuCounter(*db.Peek("k", kNow)), 5u);
  // One step down per lfu-decay-time minute.
  db.SetClock(kNow + 3 * 60 * 1000);
  EXPECT_EQ(db.LfuCounter(*db.Peek("k", kNow)), 2u);
}

TEST(DbKeyspaceTest, DbSetSwap) {
  DbSet dbs(3);
  dbs.db(0).SetString("a", "0");
  dbs.Swap(0, 2);
  EXPECT_EQ(dbs.db(0).size(), 0u);
  EXPECT_NE(dbs.db(2).Find("a", kNow), nullptr);
  dbs.Swap(1, 1);
}

}  // namespace
}  // namespace kv
