// maxmemory and its policies through the real dispatcher: the OOM refusal, what each policy may
// evict, and that eviction keeps the allocator's use near the limit. The limits are set relative
// to the test process's own use of the allocator at the time.

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "server/info.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

const std::string kOom = "-OOM command not allowed when used memory > 'maxmemory'.\r\n";

std::string Pair(const std::string& name, const std::string& value) {
  return Bulk(name) + Bulk(value);
}

// Sets maxmemory to the allocator's current use plus `headroom` bytes.
void LimitTo(CommandHarness& h, size_t headroom) {
  // No eviction time limit: which keys go must not depend on how fast this machine (or the
  // sanitized build) runs; the limit itself is Redis's and not what these tests check.
  ASSERT_EQ(h.Run({"CONFIG", "SET", "maxmemory-eviction-tenacity", "100"}), kOk);
  ASSERT_EQ(h.Run({"CONFIG", "SET", "maxmemory", std::to_string(UsedMemory() + headroom)}), kOk);
}

int64_t DbSize(CommandHarness& h) { return std::stoll(h.Run({"DBSIZE"}).substr(1)); }

// SETs `prefix`0 .. `prefix`n-1 to 1 KB values; each must succeed (evicting as needed).
void WriteKeys(CommandHarness& h, const std::string& prefix, int n) {
  const std::string value(1024, 'v');
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(h.Run({"SET", prefix + std::to_string(i), value}), kOk) << prefix << i;
  }
}

// How many of `prefix`0 .. `prefix`n-1 are still there: {those `first` picks, the others}.
// Looks in the Db directly: a command would first evict while over the limit, as in Redis.
std::pair<int, int> Survivors(
    CommandHarness& h, const std::string& prefix, int n,
    bool (*first)(int) = [](int) { return true; }) {
  std::pair<int, int> alive;
  for (int i = 0; i < n; ++i) {
    if (h.db().Peek(prefix + std::to_string(i), h.clock().NowMs()) != nullptr) {
      ++(first(i) ? alive.first : alive.second);
    }
  }
  return alive;
}

bool Even(int i) { return i % 2 == 0; }

TEST(MaxmemoryTest, ConfigDirectives) {
  CommandHarness h;
  // In the order of Redis's table (CONFIG GET's order is Redis's hash order, not compared).
  EXPECT_EQ(h.Run({"CONFIG", "GET", "maxmemory*"}),
            "*10\r\n" + Pair("maxmemory-policy", "noeviction") + Pair("maxmemory-samples", "5") +
                Pair("maxmemory-eviction-tenacity", "10") + Pair("maxmemory", "0") +
                Pair("maxmemory-clients", "0"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "maxmemory", "100mb", "maxmemory-policy", "ALLKEYS-LRU",
                   "maxmemory-samples", "10", "maxmemory-eviction-tenacity", "100"}),
            kOk);
  EXPECT_EQ(h.Run({"CONFIG", "GET", "maxmemory*"}),
            "*10\r\n" + Pair("maxmemory-policy", "allkeys-lru") + Pair("maxmemory-samples", "10") +
                Pair("maxmemory-eviction-tenacity", "100") + Pair("maxmemory", "104857600") +
                Pair("maxmemory-clients", "0"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "maxmemory", "1gb"}), kOk);
  EXPECT_EQ(h.Run({"CONFIG", "GET", "maxmemory"}), "*2\r\n" + Pair("maxmemory", "1073741824"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "maxmemory-policy", "lru"}),
            Err("CONFIG SET failed (possibly related to argument 'maxmemory-policy') - argument(s) "
                "must be one of the following: volatile-lru, volatile-lfu, volatile-random, "
                "volatile-ttl, allkeys-lru, allkeys-lfu, allkeys-random, noeviction"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "maxmemory", "-1"}),
            Err("CONFIG SET failed (possibly related to argument 'maxmemory') - argument must be "
                "a memory value"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "maxmemory-samples", "0"}),
            Err("CONFIG SET failed (possibly related to argument 'maxmemory-samples') - argument "
                "must be between 1 and 2147483647 inclusive"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "maxmemory-eviction-tenacity", "101"}),
            Err("CONFIG SET failed (possibly related to argument 'maxmemory-eviction-tenacity') - "
                "argument must be between 0 and 100 inclusive"));
  const std::string info = h.Run({"INFO", "memory"});
  EXPECT_NE(info.find("\r\nmaxmemory:1073741824\r\nmaxmemory_human:1.00G\r\n"
                      "maxmemory_policy:allkeys-lru\r\n"),
            std::string::npos)
      << info;
}

// noeviction: past the limit, commands that may grow memory get Redis's exact error; reads,
// deletes and admin commands still run.
TEST(MaxmemoryTest, NoevictionRefusesWritesOnly) {
  CommandHarness h;
  h.Run({"SET", "k", "v"});
  ASSERT_EQ(h.Run({"CONFIG", "SET", "maxmemory", "1"}), kOk);
  EXPECT_EQ(h.Run({"SET", "k2", "v"}), kOom);
  EXPECT_EQ(h.Run({"APPEND", "k", "x"}), kOom);
  EXPECT_EQ(h.Run({"INCR", "n"}), kOom);
  EXPECT_EQ(h.Run({"MSET", "a", "1", "b", "2"}), kOom);
  EXPECT_EQ(h.Run({"SETBIT", "bits", "1", "1"}), kOom);
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("v"));
  EXPECT_EQ(h.Run({"EXISTS", "k2"}), Int(0));
  EXPECT_EQ(h.Run({"EXPIRE", "k", "100"}), Int(1));  // not denyoom in Redis
  EXPECT_EQ(h.Run({"DEL", "k"}), Int(1));
  const std::string stats = h.Run({"INFO", "commandstats"});
  const size_t set_line = stats.find("cmdstat_set:calls=1,");
  ASSERT_NE(set_line, std::string::npos) << stats;
  EXPECT_NE(stats.substr(set_line, stats.find("\r\n", set_line) - set_line)
                .find(",rejected_calls=1,failed_calls=0"),
            std::string::npos)
      << stats;
  EXPECT_NE(h.Run({"INFO", "errorstats"}).find("errorstat_OOM:count=5"), std::string::npos);
  EXPECT_EQ(h.Run({"CONFIG", "SET", "maxmemory", "0"}), kOk);
  EXPECT_EQ(h.Run({"SET", "k2", "v"}), kOk);
}

// The volatile policies never evict a key without a TTL: with only such keys, writes are refused.
TEST(MaxmemoryTest, VolatilePoliciesKeepKeysWithoutTtl) {
  for (const char* policy : {"volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl"}) {
    CommandHarness h;
    ASSERT_EQ(h.Run({"CONFIG", "SET", "maxmemory-policy", policy}), kOk);
    // No time limit: evicting all 100 keys in one go must not stop at tenacity 10's 500 us (a
    // busy machine), after which Redis lets the command run while eviction goes on.
    ASSERT_EQ(h.Run({"CONFIG", "SET", "maxmemory-eviction-tenacity", "100"}), kOk);
    for (int i = 0; i < 100; ++i) h.Run({"SET", "keep:" + std::to_string(i), "v"});
    for (int i = 0; i < 100; ++i) h.Run({"SET", "ttl:" + std::to_string(i), "v", "EX", "1000"});
    ASSERT_EQ(h.Run({"CONFIG", "SET", "maxmemory", "1"}), kOk);
    // Every key with a TTL goes, then nothing is left that may go.
    EXPECT_EQ(h.Run({"SET", "new", "v"}), kOom) << policy;
    EXPECT_EQ(DbSize(h), 100) << policy;
    for (int i = 0; i < 100; ++i) {
      ASSERT_EQ(h.Run({"EXISTS", "keep:" + std::to_string(i)}), Int(1)) << policy;
    }
    EXPECT_NE(h.Run({"INFO", "stats"}).find("\r\nevicted_keys:100\r\n"), std::string::npos)
        << policy;
  }
}

// allkeys-random: writing far more than the limit succeeds, and the allocator's use stays near
// the limit.
TEST(MaxmemoryTest, AllkeysRandomKeepsMemoryUnderTheLimit) {
  CommandHarness h;
  ASSERT_EQ(h.Run({"CONFIG", "SET", "maxmemory-policy", "allkeys-random"}), kOk);
  constexpr size_t kHeadroom = 2 * 1024 * 1024;
  LimitTo(h, kHeadroom);
  const size_t limit = UsedMemory() + kHeadroom;
  const std::string value(1024, 'v');
  size_t peak = 0;
  for (int i = 0; i < 20000; ++i) {  // about 20 MB
    ASSERT_EQ(h.Run({"SET", "key:" + std::to_string(i), value}), kOk) << i;
    if (i % 100 == 0) peak = std::max(peak, UsedMemory());
  }
  // Eviction runs before each write, so the last write is there. Look without a command: as in
  // Redis, any command (a GET too) first evicts while over the limit, and may pick this key.
  const Value* last = h.db().Peek("key:19999", h.clock().NowMs());
  ASSERT_NE(last, nullptr);
  EXPECT_EQ(last->str(), value);
  EXPECT_LT(DbSize(h), 3000);
  EXPECT_GT(DbSize(h), 1000);
  EXPECT_LT(peak, limit + 256 * 1024) << "limit " << limit;
  EXPECT_NE(h.Run({"INFO", "stats"}).find("\r\nevicted_keys:"), std::string::npos);
}

// allkeys-lru: keys read recently survive; keys untouched for longest go first.
TEST(MaxmemoryTest, AllkeysLruEvictsTheLeastRecentlyUsed) {
  CommandHarness h;
  ASSERT_EQ(h.Run({"CONFIG", "SET", "maxmemory-policy", "allkeys-lru"}), kOk);
  WriteKeys(h, "old:", 1000);
  h.clock().Advance(100'000);
  for (int i = 0; i < 1000; i += 2) h.Run({"GET", "old:" + std::to_string(i)});
  h.clock().Advance(100'000);
  LimitTo(h, 0);
  WriteKeys(h, "new:", 400);
  const auto [read_alive, untouched_alive] = Survivors(h, "old:", 1000, Even);
  // About 400 old keys went: with 5 samples and a pool of 16, nearly all from the untouched.
  EXPECT_LT(read_alive + untouched_alive, 700);
  EXPECT_GT(read_alive, 450);
  EXPECT_LT(untouched_alive, 250);
  EXPECT_NE(h.db().Peek("new:399", h.clock().NowMs()), nullptr);
}

// volatile-ttl: the keys closest to their deadline go first.
TEST(MaxmemoryTest, VolatileTtlEvictsTheSoonestDeadlines) {
  CommandHarness h;
  ASSERT_EQ(h.Run({"CONFIG", "SET", "maxmemory-policy", "volatile-ttl"}), kOk);
  const std::string value(1024, 'v');
  for (int i = 0; i < 1000; ++i) {
    h.Run({"SET", "k:" + std::to_string(i), value, "EX", std::to_string(1000 + i)});
  }
  LimitTo(h, 0);
  WriteKeys(h, "p:", 300);
  const auto [soon_alive, late_alive] = Survivors(h, "k:", 1000, [](int i) { return i < 500; });
  EXPECT_LT(soon_alive + late_alive, 850);
  EXPECT_GT(late_alive, soon_alive + 100);
  EXPECT_EQ(Survivors(h, "p:", 300).first, 300);  // no key without a TTL went
}

// allkeys-lfu: the counters grow with accesses (OBJECT FREQ), and frequently read keys survive.
TEST(MaxmemoryTest, AllkeysLfuKeepsFrequentlyUsedKeys) {
  CommandHarness h;
  EXPECT_EQ(h.Run({"SET", "x", "1"}), kOk);
  EXPECT_EQ(h.Run({"OBJECT", "FREQ", "x"}),
            Err("An LFU maxmemory policy is not selected, access frequency not tracked. Please "
                "note that when switching between policies at runtime LRU and LFU data will take "
                "some time to adjust."));
  ASSERT_EQ(h.Run({"CONFIG", "SET", "maxmemory-policy", "allkeys-lfu"}), kOk);
  EXPECT_EQ(h.Run({"OBJECT", "IDLETIME", "x"}),
            Err("An LFU maxmemory policy is selected, idle time not tracked. Please note that "
                "when switching between policies at runtime LRU and LFU data will take some time "
                "to adjust."));
  // As in Redis, the LRU and LFU data share a value's 24 bits: x's now read as minutes and a
  // counter. A value made under the LFU policy starts at LFU_INIT_VAL.
  h.Run({"DEL", "x"});
  h.Run({"SET", "x", "1"});
  EXPECT_EQ(h.Run({"OBJECT", "FREQ", "x"}), Int(5));
  for (int i = 0; i < 100; ++i) h.Run({"GET", "x"});
  const int64_t freq = std::stoll(h.Run({"OBJECT", "FREQ", "x"}).substr(1));
  // Logarithmic (lfu-log-factor 10): 6 at the first access, then about 10 accesses for 7, 20
  // more for 8, 30 more for 9...
  EXPECT_GE(freq, 7);
  EXPECT_LE(freq, 12);
  // Decay: one step per minute (lfu-decay-time 1) without access.
  h.clock().Advance(3 * 60'000);
  EXPECT_EQ(std::stoll(h.Run({"OBJECT", "FREQ", "x"}).substr(1)), freq - 3);

  WriteKeys(h, "k:", 1000);
  for (int round = 0; round < 20; ++round) {
    for (int i = 0; i < 1000; i += 2) h.Run({"GET", "k:" + std::to_string(i)});
  }
  LimitTo(h, 0);
  WriteKeys(h, "new:", 500);
  const auto [hot_alive, cold_alive] = Survivors(h, "k:", 1000, Even);
  EXPECT_GT(hot_alive, 450);
  EXPECT_LT(cold_alive, 400);
}

}  // namespace
}  // namespace kv::test
