// MEMORY, maxmemory and DEBUG OBJECT against the real redis-server 7.0.15: the replies that do
// not depend on how each server lays out its memory are byte-identical; MEMORY STATS has the same
// field names and reply types; DEBUG OBJECT the same line except the address and the LRU clock.

#include <regex>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/reply_pair.h"
#include "tests/support/resp_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

class MemoryDifferentialTest : public ConnectedBothServersTest<MemoryDifferentialTest> {};

TEST_F(MemoryDifferentialTest, MemoryRepliesMatch) {
  ExpectSameReplies({{"set", "k", "v"},
                     {"memory", "usage", "nokey"},
                     {"memory", "usage", "nokey", "samples", "0"},
                     {"memory", "usage", "k", "samples"},
                     {"memory", "usage", "k", "samples", "-1"},
                     {"memory", "usage", "k", "samples", "x"},
                     {"memory", "usage", "k", "bogus"},
                     {"memory", "usage"},
                     {"memory"},
                     {"memory", "bogus"},
                     {"memory", "stats", "x"},
                     {"memory", "doctor", "x"},
                     {"MEMORY", "HELP"},
                     {"memory", "purge"},
                     {"flushall"},
                     // Both are nearly empty: the doctor says so, word for word.
                     {"memory", "doctor"}});
}

// The names of a map reply's keys and the type byte of each value, nested maps included.
std::vector<std::string> Shape(const std::string& reply) {
  std::vector<std::string> shape;
  size_t at = 0;
  std::vector<int> left;  // elements left in each open aggregate
  bool key = true;
  while (at < reply.size()) {
    const size_t end = reply.find("\r\n", at);
    const std::string line = reply.substr(at, end - at);
    at = end + 2;
    std::string item(1, line[0]);
    if (line[0] == '$') {
      const size_t n = std::stoul(line.substr(1));
      if (key && !left.empty()) item = reply.substr(at, n);
      at += n + 2;
    }
    if (!left.empty()) --left.back();
    if (line[0] == '%' || line[0] == '*') {
      const int n = std::stoi(line.substr(1));
      shape.push_back(item);
      left.push_back(line[0] == '%' ? 2 * n : n);
      key = true;
      continue;
    }
    shape.push_back(item);
    key = !key;
    while (!left.empty() && left.back() == 0) {
      left.pop_back();
      shape.push_back("end");
    }
  }
  return shape;
}

TEST_F(MemoryDifferentialTest, MemoryStatsHasRedisFieldsAndTypes) {
  Both({"flushall"});
  Both({"set", "a", "1"});
  Both({"select", "2"});
  Both({"set", "b", "1", "ex", "100"});
  for (const char* proto : {"2", "3"}) {
    Both({"hello", proto});
    const auto [kv, redis] = Both({"memory", "stats"});
    EXPECT_EQ(Shape(kv), Shape(redis)) << "RESP" << proto << "\n" << kv << "\n" << redis;
  }
  Both({"hello", "2"});
  Both({"select", "0"});
}

// noeviction past the limit: the same OOM error, reads and deletes still served.
TEST_F(MemoryDifferentialTest, NoevictionOomReply) {
  ExpectSameReplies({{"set", "k", "v"},
                     {"config", "set", "maxmemory", "1"},
                     {"set", "k2", "v"},
                     {"append", "k", "x"},
                     {"incr", "n"},
                     {"mset", "a", "1"},
                     {"setrange", "k", "0", "x"},
                     {"get", "k"},
                     {"exists", "k2"},
                     {"del", "k"},
                     {"config", "set", "maxmemory", "0"},
                     {"set", "k2", "v"}});
}

TEST_F(MemoryDifferentialTest, MaxmemoryConfigReplies) {
  ExpectSameReplies({{"config", "get", "maxmemory"},
                     {"config", "get", "maxmemory-policy"},
                     {"config", "get", "maxmemory-samples"},
                     {"config", "get", "maxmemory-eviction-tenacity"},
                     {"config", "get", "lfu-log-factor"},
                     {"config", "get", "lfu-decay-time"},
                     {"config", "set", "maxmemory", "100mb", "maxmemory-policy", "ALLKEYS-LFU",
                      "maxmemory-samples", "7", "maxmemory-eviction-tenacity", "50"},
                     {"config", "get", "maxmemory"},
                     {"config", "get", "maxmemory-policy"},
                     {"config", "get", "maxmemory-samples"},
                     {"config", "get", "maxmemory-eviction-tenacity"},
                     {"config", "set", "maxmemory", "1G"},
                     {"config", "get", "maxmemory"},
                     {"config", "set", "maxmemory", "-1"},
                     {"config", "set", "maxmemory", "12parsecs"},
                     {"config", "set", "maxmemory-policy", "lru"},
                     {"config", "set", "maxmemory-samples", "0"},
                     {"config", "set", "maxmemory-eviction-tenacity", "101"},
                     {"config", "set", "lfu-log-factor", "-1"},
                     // LFU counters: a new value starts at 5, the first read makes it 6.
                     {"set", "x", "abc"},
                     {"object", "freq", "x"},
                     {"get", "x"},
                     {"object", "freq", "x"},
                     {"object", "idletime", "x"},
                     {"config", "set", "maxmemory", "0", "maxmemory-policy", "noeviction",
                      "maxmemory-samples", "5", "maxmemory-eviction-tenacity", "10"},
                     {"object", "freq", "x"}});
}

class DebugObjectDifferentialTest : public ConnectedBothServersTest<DebugObjectDifferentialTest> {
 public:
  static void SetUpTestSuite() {
    kvserver_ = ServerProcess::StartKvserver({"--enable-debug-command", "yes"}).release();
    redis_ = ServerProcess::StartRedis({"--enable-debug-command", "yes"}).release();
  }
};

// DEBUG OBJECT's line with the value's address and the LRU clock left out: the refcount,
// encoding and RDB length (LZF-compressed where Redis compresses) must match.
TEST_F(DebugObjectDifferentialTest, SameLineButAddressAndClock) {
  const std::vector<std::string> values = {"",
                                           "a",
                                           "0",
                                           "123",
                                           "-128",
                                           "-129",
                                           "32767",
                                           "70000",
                                           "-2147483648",
                                           "3000000000",
                                           "12345678901",
                                           "-9223372036854775808",
                                           "0123",
                                           "1.5",
                                           std::string(20, 'a'),
                                           std::string(21, 'a'),
                                           std::string(44, 'x'),
                                           std::string(45, 'x'),
                                           std::string(100, 'a'),
                                           "the quick brown fox jumps over the lazy dog",
                                           "q7#Lp2@vZ9!kR4$wN8^bT1&yH6*cF3(mJ5)gD0-sX",
                                           std::string(70000, 'z')};
  std::vector<Args> commands;
  for (size_t i = 0; i < values.size(); ++i) {
    commands.push_back({"set", "k" + std::to_string(i), values[i]});
    commands.push_back({"debug", "object", "k" + std::to_string(i)});
  }
  std::string pattern;
  for (int i = 0; i < 300; ++i) pattern += "abc" + std::to_string(i % 7);
  commands.push_back({"set", "p", pattern});
  commands.push_back({"debug", "object", "p"});
  commands.push_back({"append", "p", "tail"});  // raw
  commands.push_back({"debug", "object", "p"});
  commands.push_back({"set", "n", "5"});
  commands.push_back({"append", "n", "0"});  // "50", raw, still RDB's 8-bit integer
  commands.push_back({"debug", "object", "n"});
  commands.push_back({"debug", "object", "nokey"});
  commands.push_back({"debug", "object"});
  commands.push_back({"debug", "object", "a", "b"});
  const std::regex volatile_fields("at:0x[0-9a-f]+|lru:[0-9]+ lru_seconds_idle:[0-9]+");
  ExpectSameReplies(commands, [&](const Args&, const std::string& kv, const std::string& redis) {
    return std::regex_replace(kv, volatile_fields, "") ==
           std::regex_replace(redis, volatile_fields, "");
  });
}

}  // namespace
}  // namespace kv::test
