// Lazy freeing on the storage side: what a database hands to its LazyFreeSink (and when), the
// flushed tables of FLUSHDB/FLUSHALL ASYNC and every aggregate type freeing in steps.

#include "storage/lazy_free.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "storage/db.h"
#include "storage/db_set.h"
#include "storage/hash.h"
#include "storage/list.h"
#include "storage/set.h"
#include "storage/stream.h"
#include "storage/zset.h"

namespace kv {
namespace {

// An aggregate that counts its destruction, and frees in `steps` calls of ReleaseSome.
class Probe : public Aggregate {
 public:
  static constexpr ValueType kType = ValueType::kSet;
  Probe(size_t effort, int* destroyed, size_t steps = 1)
      : effort_(effort), destroyed_(destroyed), steps_(steps) {}
  ~Probe() override { ++*destroyed_; }
  ValueType type() const override { return kType; }
  Encoding encoding() const override { return Encoding::kHashTable; }
  size_t size() const override { return 1; }
  std::unique_ptr<Aggregate> Clone() const override {
    return std::make_unique<Probe>(effort_, destroyed_, steps_);
  }
  size_t AllocatedBytes(size_t) const override { return 0; }
  size_t FreeEffort() const override { return effort_; }
  bool ReleaseSome(size_t) override { return ++calls_ >= steps_; }
  size_t calls() const { return calls_; }

 private:
  size_t effort_;
  int* destroyed_;
  size_t steps_;
  size_t calls_ = 0;
};

// Keeps what a database hands over, as the server's queue would, without freeing it.
class RecordingSink : public LazyFreeSink {
 public:
  void FreeValue(std::unique_ptr<Aggregate> value) override { values.push_back(std::move(value)); }
  void FreeTables(std::unique_ptr<Releasable> t, size_t keys) override {
    tables.emplace_back(std::move(t), keys);
  }
  std::vector<std::unique_ptr<Aggregate>> values;
  std::vector<std::pair<std::unique_ptr<Releasable>, size_t>> tables;
};

constexpr int64_t kNow = 1'700'000'000'000;

// Releases `r` with `budget` a call; returns the number of calls it took.
size_t ReleaseAll(Releasable& r, size_t budget) {
  size_t calls = 1;
  while (!r.ReleaseSome(budget)) ++calls;
  return calls;
}

TEST(LazyFreeTest, DbHandsValuesToTheSinkOnlyWhenAsked) {
  DbSet dbs(1);
  Db& db = dbs.db(0);
  RecordingSink sink;
  dbs.SetLazyFree(&sink, false, false);
  int destroyed = 0;
  auto put = [&](std::string_view key) {
    db.Put(key, DetachedValue{.aggregate = std::make_unique<Probe>(1000, &destroyed)}, kNoExpiry);
  };
  put("a");
  EXPECT_TRUE(db.Delete("a", kNow));
  EXPECT_EQ(destroyed, 1) << "DEL frees at once";
  put("b");
  EXPECT_TRUE(db.Delete("b", kNow, /*lazy=*/true));
  EXPECT_EQ(destroyed, 1);
  ASSERT_EQ(sink.values.size(), 1u);
  EXPECT_FALSE(db.Exists("b", kNow));

  // Overwrites go to the sink with lazyfree-lazy-server-del.
  put("c");
  db.SetString("c", "x");
  EXPECT_EQ(destroyed, 2);
  dbs.SetLazyFree(&sink, false, true);
  put("c");
  db.SetString("c", "x");
  EXPECT_EQ(destroyed, 2);
  EXPECT_EQ(sink.values.size(), 2u);
  EXPECT_EQ(db.Find("c", kNow)->str(), "x");

  // Expiry goes to the sink with lazyfree-lazy-expire.
  dbs.SetLazyFree(&sink, true, false);
  put("d");
  db.SetExpire("d", kNow - 1);
  EXPECT_EQ(db.Find("d", kNow), nullptr);
  EXPECT_EQ(sink.values.size(), 3u);
  sink.values.clear();
  EXPECT_EQ(destroyed, 5);

  // Without a sink everything is freed at once.
  dbs.SetLazyFree(nullptr, true, true);
  put("e");
  EXPECT_TRUE(db.Delete("e", kNow, /*lazy=*/true));
  EXPECT_EQ(destroyed, 6);
}

// FLUSHDB ASYNC: the tables go to the sink whole, counted as their keys, and free a key (or a
// slot's worth) per unit; a big value among them frees in steps of its own.
TEST(LazyFreeTest, FlushedTablesReleaseInSteps) {
  DbSet dbs(2);
  RecordingSink sink;
  dbs.SetLazyFree(&sink, false, false);
  int destroyed = 0;
  constexpr int kKeys = 20000;
  for (int i = 0; i < kKeys; ++i) {
    dbs.db(0).Put("k" + std::to_string(i),
                  DetachedValue{.aggregate = std::make_unique<Probe>(1, &destroyed)},
                  i % 3 == 0 ? kNow + 1000 : kNoExpiry);
  }
  for (int i = 0; i < 100; ++i) dbs.db(0).SetString("s" + std::to_string(i), std::string(100, 'v'));
  dbs.db(0).Put("big", DetachedValue{.aggregate = std::make_unique<Probe>(1000, &destroyed, 10)},
                kNoExpiry);
  ASSERT_GT(dbs.db(0).segment_count(), 4u);
  dbs.FlushAll(/*async=*/true);
  EXPECT_EQ(dbs.TotalKeys(), 0u);
  EXPECT_EQ(dbs.db(0).expires_size(), 0u);
  ASSERT_EQ(sink.tables.size(), 1u) << "an empty database hands nothing over";
  EXPECT_EQ(sink.tables[0].second, kKeys + 101u);
  EXPECT_EQ(destroyed, 0);

  // The database is usable at once.
  dbs.db(0).SetString("k1", "new");
  EXPECT_EQ(dbs.db(0).Find("k1", kNow)->str(), "new");

  Releasable& tables = *sink.tables[0].first;
  EXPECT_FALSE(tables.ReleaseSome(500));
  EXPECT_LE(destroyed, 500);
  EXPECT_GT(destroyed, 0);
  const size_t calls = ReleaseAll(tables, 500);
  EXPECT_EQ(destroyed, kKeys + 1);
  // Each key, each segment and each deadline is a unit; the big value took 10 calls of its own.
  EXPECT_GE(calls + 1, (kKeys + 101 + kKeys / 3) / 500 + 10);
  sink.tables.clear();
  EXPECT_EQ(destroyed, kKeys + 1);
}

// 200,000 deadlines: their table's slot pages go back to the OS on the way (ASan checks that the
// walk never reads a slot it dropped).
TEST(LazyFreeTest, FlushedTablesWithManyDeadlines) {
  Db db;
  RecordingSink sink;
  db.SetLazyFree(&sink, false, false);
  constexpr int kKeys = 200000;
  for (int i = 0; i < kKeys; ++i) {
    db.SetString("k" + std::to_string(i), "v", kNow + 1000 + i);
  }
  ASSERT_EQ(db.expires_size(), size_t{kKeys});
  db.Clear(/*async=*/true);
  ASSERT_EQ(sink.tables.size(), 1u);
  // A unit per key, per segment and per deadline.
  EXPECT_GE(ReleaseAll(*sink.tables[0].first, 1000), 2u * kKeys / 1000);
  sink.tables.clear();
}

TEST(LazyFreeTest, FlushedTablesDestroyedHalfReleased) {
  Db db;
  RecordingSink sink;
  db.SetLazyFree(&sink, false, false);
  int destroyed = 0;
  for (int i = 0; i < 10000; ++i) {
    db.Put("k" + std::to_string(i),
           DetachedValue{.aggregate = std::make_unique<Probe>(i == 5000 ? 100 : 1, &destroyed,
                                                              i == 5000 ? 1000000 : 1)},
           i % 2 == 0 ? kNow + 1000 : kNoExpiry);
  }
  db.Clear(/*async=*/true);
  ASSERT_EQ(sink.tables.size(), 1u);
  for (int i = 0; i < 20; ++i) sink.tables[0].first->ReleaseSome(300);
  EXPECT_LT(destroyed, 10000);
  sink.tables.clear();  // the rest, the big value in the middle of its release among it
  EXPECT_EQ(destroyed, 10000);
}

std::string Member(int i) { return "member:" + std::to_string(i) + ":abcdefgh"; }

// Every aggregate type: a big one frees in many steps, a compact one at once.
TEST(LazyFreeTest, EveryTypeReleasesInSteps) {
  constexpr int kN = 10000;
  std::vector<std::pair<std::string, std::unique_ptr<Aggregate>>> big;
  auto set = std::make_unique<Set>();
  for (int i = 0; i < kN; ++i) set->Add(Member(i), 512);
  big.emplace_back("set", std::move(set));
  auto hash = std::make_unique<Hash>();
  for (int i = 0; i < kN; ++i) hash->Set(Member(i), "value", {});
  big.emplace_back("hash", std::move(hash));
  auto zset = std::make_unique<ZSet>();
  for (int i = 0; i < kN; ++i) {
    int out = 0;
    double score = 0;
    zset->Add(i % 100, Member(i), 0, &out, &score, {128, 64});
  }
  big.emplace_back("zset", std::move(zset));
  auto list = std::make_unique<List>(4, 0);
  for (int i = 0; i < kN; ++i) list->Push(Member(i), List::End::kTail);
  big.emplace_back("list", std::move(list));
  auto stream = std::make_unique<Stream>();
  for (int i = 1; i <= kN; ++i) {
    const std::string value = Member(i);
    const std::string_view fv[] = {"f", value};
    stream->Append({static_cast<uint64_t>(i), 0}, fv, {4096, 4});
  }
  big.emplace_back("stream", std::move(stream));
  for (auto& [name, value] : big) {
    SCOPED_TRACE(name);
    ASSERT_GT(value->FreeEffort(), LazyFreeSink::kThreshold);
    const size_t effort = value->FreeEffort();
    EXPECT_GE(ReleaseAll(*value, 16), effort / 16);
    EXPECT_TRUE(value->ReleaseSome(1));
  }
  // Half released, then destroyed (ASan checks that the rest is freed once).
  auto half = std::make_unique<Set>();
  for (int i = 0; i < kN; ++i) half->Add(Member(i), 512);
  EXPECT_FALSE(half->ReleaseSome(kN / 2));
  half.reset();

  auto intset = std::make_unique<Set>();
  intset->Add("1", 512);
  EXPECT_TRUE(intset->ReleaseSome(1));
  auto small_hash = std::make_unique<Hash>();
  small_hash->Set("f", "v", {});
  EXPECT_TRUE(small_hash->ReleaseSome(1));
  auto small_zset = std::make_unique<ZSet>();
  int out = 0;
  double score = 0;
  small_zset->Add(1, "m", 0, &out, &score, {128, 64});
  EXPECT_TRUE(small_zset->ReleaseSome(1));
}

}  // namespace
}  // namespace kv
