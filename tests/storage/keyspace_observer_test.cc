// What Db and DbSet report to a KeyspaceObserver: every expiry (lazy in any lookup or write,
// active), after the deletion and under the database's current number (SWAPDB renumbers), and,
// only while asked to, every added key (never an overwrite).

#include "storage/keyspace_observer.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "storage/db_set.h"

namespace kv {
namespace {

class Recorder : public KeyspaceObserver {
 public:
  explicit Recorder(DbSet* dbs) : dbs_(dbs) {}
  void KeyExpired(size_t db, std::string_view key) override {
    // Reported after the deletion.
    EXPECT_FALSE(dbs_->db(db).Contains(key));
    events.emplace_back("expired " + std::to_string(db) + " " + std::string(key));
  }
  void KeyAdded(size_t db, std::string_view key) override {
    events.emplace_back("added " + std::to_string(db) + " " + std::string(key));
  }
  std::vector<std::string> Take() { return std::exchange(events, {}); }
  std::vector<std::string> events;

 private:
  DbSet* dbs_;
};

using Events = std::vector<std::string>;

class KeyspaceObserverTest : public ::testing::Test {
 protected:
  void SetUp() override { dbs.SetObserver(&recorder); }
  DbSet dbs{4};
  Recorder recorder{&dbs};
};

TEST_F(KeyspaceObserverTest, LazyExpiryInEveryLookup) {
  Db& db = dbs.db(2);
  for (const char* k : {"a", "b", "c", "d", "e", "f"}) db.SetString(k, "v", 100);
  EXPECT_EQ(recorder.Take(), Events{}) << "additions are off";
  EXPECT_NE(db.Find("a", 100), nullptr) << "at the deadline it still exists";
  EXPECT_EQ(db.Find("a", 101), nullptr);
  EXPECT_EQ(db.Peek("b", 101), nullptr);
  EXPECT_FALSE(db.Delete("c", 101));
  DetachedValue v;
  int64_t at = 0;
  EXPECT_FALSE(db.Take("d", 101, &v, &at));
  bool inserted = false;
  db.FindOrInsert("e", 101, &inserted);
  EXPECT_TRUE(inserted);
  db.SetClock(101);
  db.SetString("f", "w");  // a write over an expired key expires it first
  EXPECT_EQ(recorder.Take(), (Events{"expired 2 a", "expired 2 b", "expired 2 c", "expired 2 d",
                                     "expired 2 e", "expired 2 f"}));
  EXPECT_EQ(db.expired_keys(), 6u);
}

TEST_F(KeyspaceObserverTest, ActiveExpiryAndIsExpired) {
  Db& db = dbs.db(0);
  db.SetString("x", "v", 50);
  db.SetString("y", "v", 500);
  EXPECT_FALSE(db.IsExpired("x", 50));
  EXPECT_TRUE(db.IsExpired("x", 51));
  EXPECT_TRUE(db.Contains("x")) << "IsExpired deletes nothing";
  EXPECT_FALSE(db.IsExpired("nope", 51));
  EXPECT_EQ(dbs.ActiveExpireAll(60), 1u);
  EXPECT_EQ(recorder.Take(), Events{"expired 0 x"});
  EXPECT_FALSE(db.Contains("x"));
}

TEST_F(KeyspaceObserverTest, AdditionsWhileAsked) {
  dbs.ReportAdditions(true);
  Db& db = dbs.db(1);
  db.SetString("k", "1");
  db.SetString("k", "2");  // an overwrite
  bool inserted = false;
  db.FindOrInsert("n", 0, &inserted);
  db.FindOrInsert("n", 0, &inserted);
  DetachedValue v;
  v.str.assign("z");
  db.Put("p", std::move(v), kNoExpiry);
  EXPECT_EQ(recorder.Take(), (Events{"added 1 k", "added 1 n", "added 1 p"}));
  dbs.ReportAdditions(false);
  db.SetString("q", "1");
  EXPECT_EQ(recorder.Take(), Events{});
}

TEST_F(KeyspaceObserverTest, SwapDbRenumbers) {
  dbs.db(0).SetString("zero", "v", 10);
  dbs.db(3).SetString("three", "v", 10);
  dbs.Swap(0, 3);
  EXPECT_EQ(dbs.db(3).Find("zero", 11), nullptr);
  EXPECT_EQ(dbs.db(0).Find("three", 11), nullptr);
  EXPECT_EQ(recorder.Take(), (Events{"expired 3 zero", "expired 0 three"}));
}

}  // namespace
}  // namespace kv
