// Db against Redis 7.0.15's keyspace and expiry rules (src/db.c, src/expire.c). Notably a key is
// expired only once the time is strictly past its deadline (keyIsExpired: `now > when`): a key
// whose deadline is now still exists, with a PTTL of 0.

#include "storage/db.h"

#include <gtest/gtest.h>
#include <malloc.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <random>
#include <string>

#include "storage/clock.h"

// Bytes currently allocated through operator new, to see that Clear() gives memory back.
namespace {
std::atomic<int64_t> g_live_bytes{0};
}  // namespace

void* operator new(size_t n) {
  void* p = std::malloc(n == 0 ? 1 : n);
  if (p == nullptr) throw std::bad_alloc();
  g_live_bytes.fetch_add(static_cast<int64_t>(malloc_usable_size(p)), std::memory_order_relaxed);
  return p;
}
// Not inlined, so that GCC does not pair the free() below with the inlined operator new and
// warn about a mismatch.
[[gnu::noinline]] void operator delete(void* p) noexcept {
  if (p == nullptr) return;
  g_live_bytes.fetch_sub(static_cast<int64_t>(malloc_usable_size(p)), std::memory_order_relaxed);
  std::free(p);
}
[[gnu::noinline]] void operator delete(void* p, size_t) noexcept { operator delete(p); }

namespace kv {
namespace {

class DbTest : public ::testing::Test {
 protected:
  int64_t now() const { return clock_.NowMs(); }
  ManualClock clock_;
  Db db_;
};

TEST_F(DbTest, SetGetOverwrite) {
  EXPECT_EQ(db_.Find("k", now()), nullptr);
  db_.SetString("k", "v1");
  Value* v = db_.Find("k", now());
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->type(), ValueType::kString);
  EXPECT_EQ(v->str(), "v1");
  db_.SetString("k", "a much longer second value");
  EXPECT_EQ(db_.Find("k", now())->str(), "a much longer second value");
  EXPECT_EQ(db_.size(), 1u);
  db_.SetString("other", "");
  EXPECT_EQ(db_.Find("other", now())->str(), "");
  EXPECT_EQ(db_.size(), 2u);
}

TEST_F(DbTest, BinaryKeysAndValues) {
  const std::string key("a\0b", 3);
  const std::string value("\0\r\n\xff", 4);
  db_.SetString(key, value);
  EXPECT_EQ(db_.Find(std::string_view("a", 1), now()), nullptr);
  EXPECT_EQ(db_.Find(std::string_view("a\0c", 3), now()), nullptr);
  ASSERT_NE(db_.Find(key, now()), nullptr);
  EXPECT_EQ(db_.Find(key, now())->str(), value);
  db_.SetString("", "empty key");
  EXPECT_EQ(db_.Find("", now())->str(), "empty key");
}

TEST_F(DbTest, ValuesCanBeModifiedThroughFind) {
  db_.SetString("k", "abc");
  db_.Find("k", now())->mutable_str().append("def");
  EXPECT_EQ(db_.Find("k", now())->str(), "abcdef");
}

TEST_F(DbTest, DeleteAndExists) {
  EXPECT_FALSE(db_.Exists("k", now()));
  EXPECT_FALSE(db_.Delete("k", now()));
  db_.SetString("k", "v");
  EXPECT_TRUE(db_.Exists("k", now()));
  EXPECT_TRUE(db_.Delete("k", now()));
  EXPECT_FALSE(db_.Exists("k", now()));
  EXPECT_FALSE(db_.Delete("k", now()));
  EXPECT_EQ(db_.size(), 0u);
  EXPECT_EQ(db_.expired_keys(), 0u);
}

TEST_F(DbTest, DeleteRemovesTheTtl) {
  db_.SetString("k", "v", now() + 1000);
  EXPECT_EQ(db_.expires_size(), 1u);
  EXPECT_TRUE(db_.Delete("k", now()));
  EXPECT_EQ(db_.expires_size(), 0u);
  db_.SetString("k", "again");
  EXPECT_EQ(db_.GetExpire("k"), kNoExpiry);
  clock_.Advance(5000);
  EXPECT_TRUE(db_.Exists("k", now()));
}

TEST_F(DbTest, TtlSetGetPersist) {
  db_.SetString("k", "v");
  EXPECT_EQ(db_.GetExpire("k"), kNoExpiry);
  EXPECT_EQ(db_.expires_size(), 0u);
  const int64_t at = now() + 10000;
  db_.SetExpire("k", at);
  EXPECT_EQ(db_.GetExpire("k"), at);
  EXPECT_EQ(db_.expires_size(), 1u);
  db_.SetExpire("k", at + 5);
  EXPECT_EQ(db_.GetExpire("k"), at + 5);
  EXPECT_EQ(db_.expires_size(), 1u);
  EXPECT_TRUE(db_.Persist("k"));
  EXPECT_EQ(db_.GetExpire("k"), kNoExpiry);
  EXPECT_FALSE(db_.Persist("k"));
  EXPECT_EQ(db_.expires_size(), 0u);
  clock_.Advance(100000);
  EXPECT_TRUE(db_.Exists("k", now()));
}

TEST_F(DbTest, SetStringTtlRules) {
  const int64_t at = now() + 10000;
  db_.SetString("k", "v", at);
  EXPECT_EQ(db_.GetExpire("k"), at);
  // SET without options clears the TTL (like Redis SET).
  db_.SetString("k", "v2");
  EXPECT_EQ(db_.GetExpire("k"), kNoExpiry);
  EXPECT_EQ(db_.expires_size(), 0u);
  // KEEPTTL keeps it.
  db_.SetString("k", "v3", at);
  db_.SetString("k", "v4", kNoExpiry, /*keep_ttl=*/true);
  EXPECT_EQ(db_.GetExpire("k"), at);
  EXPECT_EQ(db_.Find("k", now())->str(), "v4");
  // A new deadline replaces the old one.
  db_.SetString("k", "v5", at + 777);
  EXPECT_EQ(db_.GetExpire("k"), at + 777);
  EXPECT_EQ(db_.expires_size(), 1u);
  // KEEPTTL on a key without TTL keeps having none.
  db_.SetString("plain", "x");
  db_.SetString("plain", "y", kNoExpiry, true);
  EXPECT_EQ(db_.GetExpire("plain"), kNoExpiry);
  // A TTL on one key does not touch another.
  EXPECT_EQ(db_.GetExpire("k"), at + 777);
}

TEST_F(DbTest, LazyExpiryHappensStrictlyAfterTheDeadline) {
  const int64_t deadline = now() + 1000;
  db_.SetString("k", "v", deadline);
  clock_.Set(deadline - 1);
  EXPECT_NE(db_.Find("k", now()), nullptr);
  // Redis: keyIsExpired() is `now > when`, so at the deadline itself the key still exists.
  clock_.Set(deadline);
  EXPECT_NE(db_.Find("k", now()), nullptr);
  EXPECT_EQ(db_.expired_keys(), 0u);
  EXPECT_EQ(db_.size(), 1u);
  clock_.Set(deadline + 1);
  EXPECT_EQ(db_.Find("k", now()), nullptr);
  EXPECT_EQ(db_.size(), 0u);
  EXPECT_EQ(db_.expires_size(), 0u);
  EXPECT_EQ(db_.expired_keys(), 1u);
  // Looking again does not count it twice.
  EXPECT_EQ(db_.Find("k", now()), nullptr);
  EXPECT_EQ(db_.expired_keys(), 1u);
}

TEST_F(DbTest, ExistsAndDeleteExpireLazily) {
  db_.SetString("a", "v", now() + 10);
  db_.SetString("b", "v", now() + 10);
  db_.SetString("c", "v");
  clock_.Advance(11);
  EXPECT_FALSE(db_.Exists("a", now()));
  EXPECT_EQ(db_.expired_keys(), 1u);
  // Deleting an expired key reports that nothing was deleted, and counts it as expired.
  EXPECT_FALSE(db_.Delete("b", now()));
  EXPECT_EQ(db_.expired_keys(), 2u);
  EXPECT_EQ(db_.size(), 1u);
  EXPECT_EQ(db_.expires_size(), 0u);
  EXPECT_TRUE(db_.Exists("c", now()));
}

TEST_F(DbTest, LookupsUseTheTimeTheyAreGiven) {
  const int64_t deadline = now() + 100;
  db_.SetString("k", "v", deadline);
  // The db has no clock of its own: an old timestamp sees the key alive.
  EXPECT_TRUE(db_.Exists("k", deadline));
  EXPECT_FALSE(db_.Exists("k", deadline + 1));
  EXPECT_FALSE(db_.Exists("k", deadline));
}

TEST_F(DbTest, FindOrInsert) {
  bool inserted = false;
  Value& fresh = db_.FindOrInsert("k", now(), &inserted);
  EXPECT_TRUE(inserted);
  EXPECT_EQ(fresh.str(), "");
  fresh.SetString("10");
  EXPECT_EQ(db_.size(), 1u);
  Value& again = db_.FindOrInsert("k", now(), &inserted);
  EXPECT_FALSE(inserted);
  EXPECT_EQ(again.str(), "10");
  EXPECT_EQ(&again, db_.Find("k", now()));
  // An existing key keeps its TTL.
  db_.SetExpire("k", now() + 500);
  db_.FindOrInsert("k", now(), &inserted);
  EXPECT_FALSE(inserted);
  EXPECT_EQ(db_.GetExpire("k"), now() + 500);
  // An expired key is replaced by a fresh one without TTL.
  clock_.Advance(501);
  Value& replaced = db_.FindOrInsert("k", now(), &inserted);
  EXPECT_TRUE(inserted);
  EXPECT_EQ(replaced.str(), "");
  EXPECT_EQ(db_.GetExpire("k"), kNoExpiry);
  EXPECT_EQ(db_.expired_keys(), 1u);
  EXPECT_EQ(db_.size(), 1u);
}

// While clients are paused (Redis's expireIfNeeded with checkClientPauseTimeoutAndReturnIfPaused)
// an expired key reads as missing but stays, uncounted, until the pause ends.
TEST_F(DbTest, KeptExpiredKeysReadAsMissingUntilReleased) {
  db_.SetString("a", "v", now() + 10);
  db_.SetString("b", "v", now() + 10);
  db_.SetString("c", "v", now() + 10);
  clock_.Advance(11);
  db_.KeepExpiredKeys(true);
  EXPECT_EQ(db_.Find("a", now()), nullptr);
  EXPECT_FALSE(db_.Exists("b", now()));
  EXPECT_FALSE(db_.Delete("b", now()));
  EXPECT_EQ(db_.size(), 3u);
  EXPECT_EQ(db_.expires_size(), 3u);
  EXPECT_EQ(db_.expired_keys(), 0u);
  // A random key is found even when every key has expired (100 tries, then an expired one).
  EXPECT_TRUE(db_.RandomKey(now()).has_value());
  // Storing at an expired key still replaces it.
  bool inserted = false;
  Value& fresh = db_.FindOrInsert("c", now(), &inserted);
  EXPECT_TRUE(inserted);
  EXPECT_EQ(fresh.str(), "");
  EXPECT_EQ(db_.GetExpire("c"), kNoExpiry);
  EXPECT_EQ(db_.expired_keys(), 1u);
  db_.KeepExpiredKeys(false);
  EXPECT_EQ(db_.Find("a", now()), nullptr);
  EXPECT_FALSE(db_.Exists("b", now()));
  EXPECT_EQ(db_.expired_keys(), 3u);
  EXPECT_EQ(db_.size(), 1u);
}

// The tables come from operator new, the entries and strings from malloc: both are counted.
// (Under AddressSanitizer mallinfo2 sees nothing, and only the tables are.)
int64_t LiveBytes() { return g_live_bytes.load() + static_cast<int64_t>(mallinfo2().uordblks); }

TEST_F(DbTest, ClearEmptiesAndReleasesMemory) {
  const int64_t baseline = LiveBytes();
  for (int i = 0; i < 20000; ++i) {
    db_.SetString("key:" + std::to_string(i), std::string(64, 'v'),
                  i % 2 ? now() + 100000 + i : kNoExpiry);
  }
  const int64_t grown = LiveBytes() - baseline;
  ASSERT_GT(grown, 500'000);
  db_.Find("key:1", now() + 200000);  // one lazily expired key
  EXPECT_EQ(db_.expired_keys(), 1u);
  db_.Clear();
  EXPECT_EQ(db_.size(), 0u);
  EXPECT_EQ(db_.expires_size(), 0u);
  EXPECT_EQ(db_.avg_ttl_ms(), 0);
  // The tables themselves are freed, not just emptied.
  EXPECT_LT(LiveBytes() - baseline, grown / 100);
  // Statistics survive (FLUSHALL does not reset expired_keys).
  EXPECT_EQ(db_.expired_keys(), 1u);
  // And the db is usable afterwards.
  db_.SetString("k", "v", now() + 10);
  EXPECT_TRUE(db_.Exists("k", now()));
  EXPECT_EQ(db_.expires_size(), 1u);
}

TEST_F(DbTest, ActiveExpireOnAnEmptyDb) {
  Db::ExpireCycleResult r = db_.ActiveExpire(now(), 20);
  EXPECT_EQ(r.checked, 0u);
  EXPECT_EQ(r.expired, 0u);
  db_.SetString("persistent", "v");
  r = db_.ActiveExpire(now(), 20);
  EXPECT_EQ(r.checked, 0u);  // only volatile keys are examined
  EXPECT_EQ(db_.size(), 1u);
}

TEST_F(DbTest, ActiveExpireDeletesOnlyKeysPastTheirDeadline) {
  const int64_t t = now();
  db_.SetString("past", "v", t - 1);
  db_.SetString("now", "v", t);
  db_.SetString("future", "v", t + 1);
  db_.SetString("plain", "v");
  const Db::ExpireCycleResult r = db_.ActiveExpire(t, 100);
  EXPECT_EQ(r.checked, 3u);
  EXPECT_EQ(r.expired, 1u);
  EXPECT_EQ(db_.expired_keys(), 1u);
  EXPECT_EQ(db_.size(), 3u);
  EXPECT_EQ(db_.expires_size(), 2u);
  EXPECT_TRUE(db_.Exists("now", t));
  EXPECT_TRUE(db_.Exists("future", t));
  EXPECT_TRUE(db_.Exists("plain", t));
}

TEST_F(DbTest, ActiveExpireChecksAtMostMaxChecks) {
  for (int i = 0; i < 100; ++i) db_.SetString("k" + std::to_string(i), "v", now() - 1);
  const Db::ExpireCycleResult r = db_.ActiveExpire(now(), 7);
  EXPECT_EQ(r.checked, 7u);
  EXPECT_EQ(r.expired, 7u);
  EXPECT_EQ(db_.size(), 93u);
  EXPECT_EQ(db_.expires_size(), 93u);
  EXPECT_EQ(db_.expired_keys(), 7u);
}

TEST_F(DbTest, ActiveExpireVisitsEveryVolatileKeyOverSuccessiveCalls) {
  // Half of the volatile keys are long-lived. Steps of 10 checks must walk on through the whole
  // set instead of re-examining the same first keys, so one pass over all 2000 volatile keys
  // (200 steps) finds every expired one.
  const int64_t t = now();
  for (int i = 0; i < 1000; ++i) {
    db_.SetString("live:" + std::to_string(i), "v", t + 1'000'000);
    db_.SetString("dead:" + std::to_string(i), "v", t - 1 - i);
  }
  size_t checked = 0, expired = 0;
  for (int step = 0; step < 200; ++step) {
    const Db::ExpireCycleResult r = db_.ActiveExpire(t, 10);
    EXPECT_LE(r.checked, 10u);
    checked += r.checked;
    expired += r.expired;
  }
  EXPECT_EQ(checked, 2000u);
  EXPECT_EQ(expired, 1000u);
  EXPECT_EQ(db_.size(), 1000u);
  EXPECT_EQ(db_.expires_size(), 1000u);
  EXPECT_EQ(db_.expired_keys(), 1000u);
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(db_.Exists("live:" + std::to_string(i), t));
}

TEST_F(DbTest, ActiveExpireKeepsWalkingAsKeysComeAndGo) {
  // 500 keys expire one per millisecond while new keys keep arriving and steps keep running.
  // Once the arrivals stop, further steps must reach every key past its deadline, with no
  // lookup (which would expire keys lazily) involved.
  const int64_t start = now();
  int64_t t = start;
  for (int i = 0; i < 500; ++i) db_.SetString("old" + std::to_string(i), "v", start + i);
  for (int round = 1; round <= 400; ++round) {
    t = start + 2 * round;
    for (int j = 0; j < 2; ++j) {
      db_.SetString("new" + std::to_string(round) + "." + std::to_string(j), "v", t + 500);
    }
    db_.ActiveExpire(t, 20);
  }
  for (int step = 0; step < 100; ++step) db_.ActiveExpire(t, 20);
  // t is start + 800: all old keys are past their deadline, and so are the new keys of rounds
  // 1..149 (deadline start + 2 * round + 500 < t). Round 150's deadline is exactly t: alive.
  EXPECT_EQ(db_.size(), 502u);
  EXPECT_EQ(db_.expires_size(), 502u);
  EXPECT_EQ(db_.expired_keys(), 798u);
  EXPECT_TRUE(db_.Exists("new150.0", t));
  EXPECT_EQ(db_.expired_keys(), 798u);
}

TEST_F(DbTest, AverageTtlEstimate) {
  EXPECT_EQ(db_.avg_ttl_ms(), 0);
  const int64_t t = now();
  for (int i = 0; i < 200; ++i) db_.SetString("k" + std::to_string(i), "v", t + 15000);
  db_.ActiveExpire(t, 20);
  // Redis's running average: the first sample is taken as is.
  EXPECT_EQ(db_.avg_ttl_ms(), 15000);
  // TTLs spread between 10 and 20 seconds: the estimate stays within that range.
  db_.Clear();
  std::mt19937 rng(3);
  for (int i = 0; i < 2000; ++i) {
    db_.SetString("k" + std::to_string(i), "v", t + 10000 + static_cast<int64_t>(rng() % 10001));
  }
  for (int step = 0; step < 500; ++step) db_.ActiveExpire(t, 20);
  EXPECT_GE(db_.avg_ttl_ms(), 10000);
  EXPECT_LE(db_.avg_ttl_ms(), 20000);
  EXPECT_NEAR(static_cast<double>(db_.avg_ttl_ms()), 15000.0, 3000.0);
  // Without volatile keys there is nothing to estimate.
  for (int i = 0; i < 2000; ++i) db_.Persist("k" + std::to_string(i));
  EXPECT_EQ(db_.avg_ttl_ms(), 0);
}

TEST_F(DbTest, AverageTtlIgnoresKeysAtTheirDeadline) {
  // Redis samples only keys with a TTL left (ttl > 0): a key whose deadline is now adds nothing.
  const int64_t t = now();
  db_.SetString("a", "v", t + 3000);
  db_.SetString("b", "v", t);
  db_.ActiveExpire(t, 20);
  EXPECT_EQ(db_.avg_ttl_ms(), 3000);
}

TEST_F(DbTest, AverageTtlStartsAfreshOnceNoVolatileKeysRemain) {
  // Redis resets the estimate when the expire cycle finds no volatile keys.
  const int64_t t = now();
  db_.SetString("a", "v", t + 1000);
  db_.ActiveExpire(t, 20);
  EXPECT_EQ(db_.avg_ttl_ms(), 1000);
  clock_.Advance(2000);
  db_.ActiveExpire(now(), 20);
  EXPECT_EQ(db_.size(), 0u);
  db_.ActiveExpire(now(), 20);
  db_.SetString("b", "v", now() + 500000);
  db_.ActiveExpire(now(), 20);
  EXPECT_EQ(db_.avg_ttl_ms(), 500000);
}

}  // namespace
}  // namespace kv
