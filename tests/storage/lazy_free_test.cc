#include "storage/lazy_free.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>

#include "storage/db.h"
#include "storage/db_set.h"

namespace kv {
namespace {

// An aggregate that records where it was destroyed.
class Probe : public Aggregate {
 public:
  static constexpr ValueType kType = ValueType::kSet;
  Probe(size_t effort, std::atomic<int>* freed, std::thread::id* freed_on)
      : effort_(effort), freed_(freed), freed_on_(freed_on) {}
  ~Probe() override {
    *freed_on_ = std::this_thread::get_id();
    ++*freed_;
  }
  ValueType type() const override { return kType; }
  Encoding encoding() const override { return Encoding::kHashTable; }
  size_t size() const override { return 1; }
  std::unique_ptr<Aggregate> Clone() const override {
    return std::make_unique<Probe>(effort_, freed_, freed_on_);
  }
  size_t AllocatedBytes(size_t) const override { return 0; }
  size_t FreeEffort() const override { return effort_; }

 private:
  size_t effort_;
  std::atomic<int>* freed_;
  std::thread::id* freed_on_;
};

TEST(LazyFreerTest, SmallValuesAreFreedAtOnceBigOnesOnTheThread) {
  LazyFreer freer;
  std::atomic<int> freed{0};
  std::thread::id where;
  freer.Free(std::make_unique<Probe>(LazyFreer::kThreshold, &freed, &where));
  EXPECT_EQ(freed, 1);
  EXPECT_EQ(where, std::this_thread::get_id());
  EXPECT_EQ(freer.freed_objects(), 0u);

  freer.Free(std::make_unique<Probe>(LazyFreer::kThreshold + 1, &freed, &where));
  freer.Drain();
  EXPECT_EQ(freed, 2);
  EXPECT_NE(where, std::this_thread::get_id());
  EXPECT_EQ(freer.freed_objects(), 1u);
  EXPECT_EQ(freer.pending_objects(), 0u);
}

TEST(LazyFreerTest, ResetFreedObjects) {
  LazyFreer freer;
  std::atomic<int> freed{0};
  std::thread::id where;
  freer.Free(std::make_unique<Probe>(LazyFreer::kThreshold + 1, &freed, &where));
  freer.Drain();
  EXPECT_EQ(freer.freed_objects(), 1u);
  freer.ResetFreedObjects();
  EXPECT_EQ(freer.freed_objects(), 0u);
  freer.Free(std::make_unique<Probe>(LazyFreer::kThreshold + 1, &freed, &where));
  freer.Drain();
  EXPECT_EQ(freer.freed_objects(), 1u);
}

TEST(LazyFreerTest, DestructionFinishesQueuedJobs) {
  std::atomic<int> freed{0};
  std::thread::id where;
  {
    LazyFreer freer;
    for (int i = 0; i < 100; ++i) freer.Free(std::make_unique<Probe>(1000, &freed, &where));
  }
  EXPECT_EQ(freed, 100);
}

constexpr int64_t kNow = 1'700'000'000'000;

TEST(LazyFreerTest, DbDeletesLazilyOnlyWhenAsked) {
  DbSet dbs(1);
  Db& db = dbs.db(0);
  std::atomic<int> freed{0};
  std::thread::id where;
  auto put = [&](std::string_view key) {
    db.Put(key, DetachedValue{.aggregate = std::make_unique<Probe>(1000, &freed, &where)},
           kNoExpiry);
  };
  put("a");
  EXPECT_TRUE(db.Delete("a", kNow));
  EXPECT_EQ(where, std::this_thread::get_id());
  put("b");
  EXPECT_TRUE(db.Delete("b", kNow, /*lazy=*/true));
  dbs.freer().Drain();
  EXPECT_NE(where, std::this_thread::get_id());
  EXPECT_EQ(freed, 2);

  // Overwrites are lazy with lazyfree-lazy-server-del.
  put("c");
  where = {};
  db.SetString("c", "x");
  EXPECT_EQ(where, std::this_thread::get_id());
  dbs.SetLazyFree(false, true);
  put("c");
  db.SetString("c", "x");
  dbs.freer().Drain();
  EXPECT_NE(where, std::this_thread::get_id());
  EXPECT_EQ(db.Find("c", kNow)->str(), "x");

  // Expiry is lazy with lazyfree-lazy-expire.
  dbs.SetLazyFree(true, false);
  put("d");
  db.SetExpire("d", kNow - 1);
  EXPECT_EQ(db.Find("d", kNow), nullptr);
  dbs.freer().Drain();
  EXPECT_NE(where, std::this_thread::get_id());
  EXPECT_EQ(freed, 5);
}

TEST(LazyFreerTest, AsyncFlushFreesTheTablesOnTheThread) {
  DbSet dbs(2);
  std::atomic<int> freed{0};
  std::thread::id where;
  for (int i = 0; i < 1000; ++i) {
    dbs.db(i % 2).Put("k" + std::to_string(i),
                      DetachedValue{.aggregate = std::make_unique<Probe>(1, &freed, &where)},
                      i % 3 == 0 ? kNow + 1000 : kNoExpiry);
  }
  dbs.FlushAll(/*async=*/true);
  EXPECT_EQ(dbs.TotalKeys(), 0u);
  EXPECT_EQ(dbs.db(0).expires_size(), 0u);
  dbs.db(0).SetString("new", "v");
  EXPECT_EQ(dbs.db(0).Find("new", kNow)->str(), "v");
  dbs.freer().Drain();
  EXPECT_EQ(freed, 1000);
  EXPECT_NE(where, std::this_thread::get_id());
  EXPECT_EQ(dbs.freer().freed_objects(), 1000u);
}

}  // namespace
}  // namespace kv
