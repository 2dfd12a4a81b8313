// MEMORY through the real dispatcher: USAGE counts the bytes the keyspace really allocates for a
// key, STATS has Redis 7.0's fields in its order, and the small subcommands reply as Redis.

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "server/info.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

int64_t IntOf(const std::string& reply) {
  EXPECT_EQ(reply[0], ':') << reply;
  return std::stoll(reply.substr(1));
}

TEST(MemoryFamilyTest, UsageOfAMissingKeyIsNil) {
  CommandHarness h;
  EXPECT_EQ(h.Run({"MEMORY", "USAGE", "nokey"}), kNil);
  EXPECT_EQ(h.Run({"MEMORY", "USAGE", "nokey", "SAMPLES", "0"}), kNil);
}

TEST(MemoryFamilyTest, UsageOptionsAreCheckedAsRedis) {
  CommandHarness h;
  h.Run({"SET", "k", "v"});
  EXPECT_EQ(h.Run({"MEMORY", "USAGE", "k", "SAMPLES"}), Err("syntax error"));
  EXPECT_EQ(h.Run({"MEMORY", "USAGE", "k", "SAMPLES", "-1"}), Err("syntax error"));
  EXPECT_EQ(h.Run({"MEMORY", "USAGE", "k", "SAMPLES", "x"}),
            Err("value is not an integer or out of range"));
  EXPECT_EQ(h.Run({"MEMORY", "USAGE", "k", "bogus", "1"}), Err("syntax error"));
  // The options are checked before the key is looked up.
  EXPECT_EQ(h.Run({"MEMORY", "USAGE", "nokey", "SAMPLES", "x"}),
            Err("value is not an integer or out of range"));
  EXPECT_EQ(h.Run({"MEMORY", "USAGE"}),
            Err("wrong number of arguments for 'memory|usage' command"));
  EXPECT_EQ(IntOf(h.Run({"MEMORY", "USAGE", "k", "samples", "10"})),
            IntOf(h.Run({"MEMORY", "USAGE", "k"})));
}

// Changing a key's value changes its usage by the value's heap block: a string that fits the room
// of the key's entry stays there, a longer one takes a block of [4-byte size][bytes], which glibc
// rounds up to its 16-byte chunks (and may hand out one chunk larger when the rest would be too
// small to keep).
TEST(MemoryFamilyTest, UsageCountsTheValuesBlock) {
  CommandHarness h;
  h.Run({"SET", "a", "1234567"});
  const int64_t embedded = IntOf(h.Run({"MEMORY", "USAGE", "a"}));
  // The entry: the value's 8-byte header, the key and the string in one block, plus the table.
  EXPECT_GE(embedded, 8 + 1 + 7);
  // The entry always has room for an external string's word, so 8 bytes still fit in it.
  h.Run({"SET", "a", "12345678"});
  EXPECT_EQ(IntOf(h.Run({"MEMORY", "USAGE", "a"})), embedded);
  for (int64_t n : {100, 1000, 100000}) {
    h.Run({"SET", "a", std::string(n, 'x')});
    const int64_t grown = IntOf(h.Run({"MEMORY", "USAGE", "a"})) - embedded;
    EXPECT_GE(grown, 4 + n) << n;
    EXPECT_LE(grown, 4 + n + 31) << n;
  }
  // A longer key takes a bigger entry.
  h.Run({"SET", std::string(100, 'k'), "1234567"});
  EXPECT_GT(IntOf(h.Run({"MEMORY", "USAGE", std::string(100, 'k')})), embedded + 80);
}

TEST(MemoryFamilyTest, UsageCountsTheDeadline) {
  CommandHarness h;
  const std::string key = "a-key-longer-than-seven";
  const std::string other = "b-key-longer-than-seven";
  h.Run({"SET", key, "v"});
  h.Run({"SET", other, "v"});
  const int64_t without = IntOf(h.Run({"MEMORY", "USAGE", key}));
  h.Run({"EXPIRE", key, "100"});
  // The deadline's table holds its own copy of the key ([size][bytes]) and a 16-byte slot.
  const int64_t with = IntOf(h.Run({"MEMORY", "USAGE", key}));
  EXPECT_GE(with - without, static_cast<int64_t>(4 + key.size() + 16));
  EXPECT_EQ(IntOf(h.Run({"MEMORY", "USAGE", other})), without);
}

// What MEMORY USAGE reports over all keys accounts for what the allocator handed out for them.
TEST(MemoryFamilyTest, UsageOfAllKeysMatchesTheAllocatorsGrowth) {
  CommandHarness h;
  h.Run({"SET", "warm-up", "x"});  // the reply buffer and the first table exist before measuring
  const size_t before = UsedMemory();
  constexpr int kKeys = 20000;
  for (int i = 0; i < kKeys; ++i) {
    h.Run({"SET", "key:" + std::to_string(i), std::string(50 + i % 100, 'v')});
  }
  const size_t grown = UsedMemory() - before;
  int64_t sum = 0;
  for (int i = 0; i < kKeys; ++i)
    sum += IntOf(h.Run({"MEMORY", "USAGE", "key:" + std::to_string(i)}));
  EXPECT_GT(static_cast<double>(sum), 0.9 * static_cast<double>(grown)) << sum << " vs " << grown;
  EXPECT_LT(static_cast<double>(sum), 1.1 * static_cast<double>(grown)) << sum << " vs " << grown;
}

// MEMORY USAGE reads the table directly, as Redis: an expired key not yet deleted still has a
// size, and the key's access time and the keyspace hits stay as they were.
TEST(MemoryFamilyTest, UsageNeitherExpiresNorTouches) {
  CommandHarness h;
  h.Run({"SET", "k", "v", "PX", "10"});
  h.clock().Advance(5000);
  EXPECT_EQ(h.Run({"MEMORY", "USAGE", "k"})[0], ':');
  EXPECT_EQ(h.state().stats.keyspace_hits + h.state().stats.keyspace_misses, 0u);
  EXPECT_EQ(h.Run({"GET", "k"}), kNil);
  EXPECT_EQ(h.Run({"MEMORY", "USAGE", "k"}), kNil);
}

// The names of a MEMORY STATS reply (a map), in order.
std::vector<std::string> StatsNames(const std::string& reply) {
  std::vector<std::string> names;
  size_t at = reply.find("\r\n") + 2;
  bool key = true;
  int depth_left = 0;  // entries left in db.N's nested map
  while (at < reply.size()) {
    const size_t end = reply.find("\r\n", at);
    const std::string line = reply.substr(at, end - at);
    at = end + 2;
    if (line[0] == '$') {
      const size_t n = std::stoul(line.substr(1));
      const std::string text = reply.substr(at, n);
      at += n + 2;
      if (key) names.push_back(text);
    } else if (line[0] == '%' || line[0] == '*') {
      names.back() += "{";
      depth_left = 3;
      key = true;
      continue;
    }
    if (depth_left > 0 && !key && --depth_left == 0) names.back() += "}";
    key = !key;
  }
  return names;
}

TEST(MemoryFamilyTest, StatsHasRedisFieldsInOrder) {
  CommandHarness h;
  std::string reply = h.Run({"MEMORY", "STATS"});
  EXPECT_EQ(reply.substr(0, 5), "*54\r\n");  // 27 pairs, no database with keys
  const std::vector<std::string> empty_names = StatsNames(reply);
  const std::vector<std::string> expected = {"peak.allocated",
                                             "total.allocated",
                                             "startup.allocated",
                                             "replication.backlog",
                                             "clients.slaves",
                                             "clients.normal",
                                             "cluster.links",
                                             "aof.buffer",
                                             "lua.caches",
                                             "functions.caches",
                                             "overhead.total",
                                             "keys.count",
                                             "keys.bytes-per-key",
                                             "dataset.bytes",
                                             "dataset.percentage",
                                             "peak.percentage",
                                             "allocator.allocated",
                                             "allocator.active",
                                             "allocator.resident",
                                             "allocator-fragmentation.ratio",
                                             "allocator-fragmentation.bytes",
                                             "allocator-rss.ratio",
                                             "allocator-rss.bytes",
                                             "rss-overhead.ratio",
                                             "rss-overhead.bytes",
                                             "fragmentation",
                                             "fragmentation.bytes"};
  EXPECT_EQ(empty_names, expected);

  h.Run({"SET", "a", "1"});
  h.Run({"SELECT", "3"});
  h.Run({"SET", "b", "1", "EX", "100"});
  h.Run({"SET", "c", "1"});
  h.Run({"HELLO", "3"});
  reply = h.Run({"MEMORY", "STATS"});
  EXPECT_EQ(reply.substr(0, 5), "%29\r\n");
  std::vector<std::string> with_keys = expected;
  with_keys.insert(with_keys.begin() + 10,
                   {"db.0{", "overhead.hashtable.main", "overhead.hashtable.expires",
                    "overhead.hashtable.slot-to-keys}", "db.3{", "overhead.hashtable.main",
                    "overhead.hashtable.expires", "overhead.hashtable.slot-to-keys}"});
  EXPECT_EQ(StatsNames(reply), with_keys);
  EXPECT_NE(reply.find("$10\r\nkeys.count\r\n:3\r\n"), std::string::npos) << reply;
  // RESP3 doubles for the ratios.
  EXPECT_NE(reply.find("$18\r\ndataset.percentage\r\n,"), std::string::npos) << reply;
}

TEST(MemoryFamilyTest, StatsOverheadFollowsTheTables) {
  CommandHarness h;
  for (int i = 0; i < 5000; ++i) h.Run({"SET", "k" + std::to_string(i), "v"});
  const std::string reply = h.Run({"MEMORY", "STATS"});
  auto value_after = [&](const std::string& name) {
    const size_t at = reply.find(name + "\r\n:");
    EXPECT_NE(at, std::string::npos) << name;
    return std::stoll(reply.substr(at + name.size() + 3));
  };
  const Db::TableOverhead o = h.db().Overhead();
  EXPECT_EQ(value_after("overhead.hashtable.main"), static_cast<int64_t>(o.main));
  EXPECT_EQ(value_after("overhead.hashtable.expires"), 0);
  // 5000 keys: the slots, control bytes and the entries' 8-byte headers.
  EXPECT_GT(o.main, 5000u * (8 + 1 + 8));
  EXPECT_EQ(value_after("keys.count"), 5000);
}

TEST(MemoryFamilyTest, HelpDoctorPurgeMallocStats) {
  CommandHarness h;
  const std::string help = h.Run({"MEMORY", "HELP"});
  EXPECT_EQ(help.substr(0, 5), "*14\r\n");
  EXPECT_NE(help.find("+USAGE <key> [SAMPLES <count>]\r\n"), std::string::npos);
  EXPECT_EQ(h.Run({"MEMORY", "PURGE"}), kOk);
  const std::string doctor = h.Run({"MEMORY", "DOCTOR"});
  EXPECT_NE(doctor.find("Sam"), std::string::npos) << doctor;
  EXPECT_NE(h.Run({"MEMORY", "MALLOC-STATS"}).find("<malloc version="), std::string::npos);
  EXPECT_EQ(h.Run({"MEMORY", "bogus"}), Err("unknown subcommand 'bogus'. Try MEMORY HELP."));
  EXPECT_EQ(h.Run({"MEMORY", "STATS", "x"}),
            Err("wrong number of arguments for 'memory|stats' command"));
}

}  // namespace
}  // namespace kv::test
