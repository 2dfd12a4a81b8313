// The sorted set commands in-process through the real dispatcher: replies in RESP2 and RESP3,
// encodings and conversions, the changes counted, WRONGTYPE both ways, and the blocking pops with
// several clients. Expected replies are what Redis 7.0.15 sends (tests/differential/zsets_test.cc
// compares the same commands with a real redis-server).

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "storage/zset.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

std::string Arr(std::initializer_list<std::string> items) {
  std::string out = "*" + std::to_string(items.size()) + "\r\n";
  for (const std::string& i : items) out += i;
  return out;
}

class ZSetFamilyTest : public ::testing::Test {
 protected:
  // The changes a command counts (Redis's server.dirty).
  uint64_t Dirty(std::initializer_list<std::string_view> args) {
    const uint64_t before = h.state().dirty;
    h.Run(args);
    return h.state().dirty - before;
  }
  CommandHarness h;
};

TEST_F(ZSetFamilyTest, AddScoreRankRange) {
  EXPECT_EQ(h.Run({"ZADD", "z", "1", "a", "2", "b", "1.5", "c"}), Int(3));
  EXPECT_EQ(h.Run({"ZADD", "z", "CH", "3", "a", "1", "new"}), Int(2));
  EXPECT_EQ(h.Run({"ZSCORE", "z", "c"}), Bulk("1.5"));
  EXPECT_EQ(h.Run({"ZSCORE", "z", "nosuch"}), kNil);
  EXPECT_EQ(h.Run({"ZRANK", "z", "a"}), Int(3));
  EXPECT_EQ(h.Run({"ZREVRANK", "z", "a"}), Int(0));
  EXPECT_EQ(h.Run({"ZRANGE", "z", "0", "-1"}), Arr({Bulk("new"), Bulk("c"), Bulk("b"), Bulk("a")}));
  EXPECT_EQ(h.Run({"ZRANGE", "z", "(1", "2", "BYSCORE", "WITHSCORES"}),
            Arr({Bulk("c"), Bulk("1.5"), Bulk("b"), Bulk("2")}));
  EXPECT_EQ(h.Run({"ZREVRANGEBYSCORE", "z", "+inf", "-inf", "LIMIT", "1", "2"}),
            Arr({Bulk("b"), Bulk("c")}));
  EXPECT_EQ(h.Run({"ZCOUNT", "z", "1", "(2"}), Int(2));
  EXPECT_EQ(h.Run({"ZINCRBY", "z", "0.1", "c"}), Bulk("1.6000000000000001"));
  EXPECT_EQ(h.Run({"ZADD", "z", "INCR", "-inf", "c"}), Bulk("-inf"));
  EXPECT_EQ(h.Run({"ZADD", "z", "INCR", "+inf", "c"}),
            Err("resulting score is not a number (NaN)"));
  EXPECT_EQ(h.Run({"ZADD", "z", "NX", "INCR", "1", "c"}), kNil);
  EXPECT_EQ(h.Run({"ZCARD", "z"}), Int(4));
}

TEST_F(ZSetFamilyTest, Resp3Doubles) {
  h.Run({"HELLO", "3"});
  h.Run({"ZADD", "z", "1", "a", "2.5", "b"});
  EXPECT_EQ(h.Run({"ZSCORE", "z", "b"}), ",2.5\r\n");
  EXPECT_EQ(h.Run({"ZMSCORE", "z", "a", "x"}), "*2\r\n,1\r\n_\r\n");
  EXPECT_EQ(h.Run({"ZRANGE", "z", "0", "-1", "WITHSCORES"}),
            "*2\r\n*2\r\n" + Bulk("a") + ",1\r\n*2\r\n" + Bulk("b") + ",2.5\r\n");
  // ZPOPMIN without a count stays flat; with one, pairs are nested.
  EXPECT_EQ(h.Run({"ZPOPMIN", "z"}), "*2\r\n" + Bulk("a") + ",1\r\n");
  EXPECT_EQ(h.Run({"ZPOPMAX", "z", "5"}), "*1\r\n*2\r\n" + Bulk("b") + ",2.5\r\n");
  EXPECT_EQ(h.Run({"ZADD", "z", "INCR", "1e300", "m"}), ",1.0000000000000001e+300\r\n");
  EXPECT_EQ(h.Run({"ZSCORE", "nokey", "m"}), "_\r\n");
  // ZSCAN's scores are strings in either protocol.
  EXPECT_EQ(h.Run({"ZSCAN", "z", "0"}),
            "*2\r\n" + Bulk("0") + "*2\r\n" + Bulk("m") + Bulk("1.0000000000000001e+300"));
}

TEST_F(ZSetFamilyTest, EncodingsFollowTheConfig) {
  h.Run({"CONFIG", "SET", "zset-max-listpack-entries", "2"});
  h.Run({"CONFIG", "SET", "zset-max-listpack-value", "4"});
  h.Run({"ZADD", "z", "1", "a", "2", "b"});
  EXPECT_EQ(h.Run({"OBJECT", "ENCODING", "z"}), Bulk("listpack"));
  h.Run({"ZADD", "z", "3", "c"});
  EXPECT_EQ(h.Run({"OBJECT", "ENCODING", "z"}), Bulk("skiplist"));
  h.Run({"ZADD", "v", "1", "abcd"});
  EXPECT_EQ(h.Run({"OBJECT", "ENCODING", "v"}), Bulk("listpack"));
  h.Run({"ZADD", "v", "1", "abcde"});
  EXPECT_EQ(h.Run({"OBJECT", "ENCODING", "v"}), Bulk("skiplist"));
  // A first member too long makes the set big at once.
  h.Run({"ZADD", "w", "1", "abcdef"});
  EXPECT_EQ(h.Run({"OBJECT", "ENCODING", "w"}), Bulk("skiplist"));
  // Stored results are sized as Redis sizes them.
  h.Run({"ZREM", "z", "c"});
  EXPECT_EQ(h.Run({"OBJECT", "ENCODING", "z"}), Bulk("skiplist"));
  h.Run({"ZUNIONSTORE", "u", "1", "z"});
  EXPECT_EQ(h.Run({"OBJECT", "ENCODING", "u"}), Bulk("listpack"));
  h.Run({"ZRANGESTORE", "r", "v", "0", "-1"});
  EXPECT_EQ(h.Run({"OBJECT", "ENCODING", "r"}), Bulk("skiplist"));
  EXPECT_EQ(h.Run({"TYPE", "r"}), "+zset\r\n");
}

TEST_F(ZSetFamilyTest, ChangesCountedAsRedis) {
  EXPECT_EQ(Dirty({"ZADD", "z", "1", "a", "2", "b", "3", "c"}), 3u);
  EXPECT_EQ(Dirty({"ZADD", "z", "1", "a", "5", "b"}), 1u);  // one updated
  EXPECT_EQ(Dirty({"ZADD", "z", "NX", "9", "a"}), 0u);
  EXPECT_EQ(Dirty({"ZREM", "z", "a", "nosuch"}), 1u);
  EXPECT_EQ(Dirty({"ZPOPMIN", "z", "5"}), 2u);  // per member popped
  EXPECT_EQ(Dirty({"ZADD", "z", "1", "a", "2", "b", "3", "c"}), 3u);
  EXPECT_EQ(Dirty({"ZREMRANGEBYSCORE", "z", "2", "3"}), 2u);  // per member removed
  EXPECT_EQ(Dirty({"ZUNIONSTORE", "d", "1", "z"}), 1u);
  EXPECT_EQ(Dirty({"ZUNIONSTORE", "d", "1", "nokey"}), 1u);  // deleted d
  EXPECT_EQ(Dirty({"ZUNIONSTORE", "d", "1", "nokey"}), 0u);
  EXPECT_EQ(Dirty({"ZRANGESTORE", "d", "z", "0", "-1"}), 1u);
}

TEST_F(ZSetFamilyTest, WrongTypeBothWays) {
  h.Run({"SET", "s", "v"});
  h.Run({"ZADD", "z", "1", "a"});
  const std::string wrongtype =
      "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
  for (const auto& cmd : std::vector<std::vector<std::string>>{{"ZADD", "s", "1", "a"},
                                                               {"ZSCORE", "s", "a"},
                                                               {"ZRANGE", "s", "0", "-1"},
                                                               {"ZPOPMIN", "s"},
                                                               {"BZPOPMIN", "s", "0"},
                                                               {"ZUNION", "2", "z", "s"},
                                                               {"ZRANDMEMBER", "s"},
                                                               {"ZSCAN", "s", "0"},
                                                               {"GET", "z"},
                                                               {"APPEND", "z", "x"},
                                                               {"INCR", "z"},
                                                               {"SETRANGE", "z", "0", "x"},
                                                               {"GETDEL", "z"}}) {
    EXPECT_EQ(h.Run(cmd), wrongtype) << cmd[0];
  }
  EXPECT_EQ(h.Run({"SET", "z", "now a string"}), kOk);
  EXPECT_EQ(h.Run({"TYPE", "z"}), "+string\r\n");
}

TEST_F(ZSetFamilyTest, EmptiedSetsDisappear) {
  h.Run({"ZADD", "z", "1", "a", "2", "b"});
  EXPECT_EQ(h.Run({"ZREM", "z", "a", "b"}), Int(2));
  EXPECT_EQ(h.Run({"EXISTS", "z"}), Int(0));
  h.Run({"ZADD", "z", "1", "a"});
  EXPECT_EQ(h.Run({"ZREMRANGEBYRANK", "z", "0", "-1"}), Int(1));
  EXPECT_EQ(h.Run({"EXISTS", "z"}), Int(0));
  h.Run({"ZADD", "z", "1", "a"});
  EXPECT_EQ(h.Run({"ZMPOP", "1", "z", "MAX"}),
            Arr({Bulk("z"), Arr({Arr({Bulk("a"), Bulk("1")})})}));
  EXPECT_EQ(h.Run({"EXISTS", "z"}), Int(0));
}

TEST_F(ZSetFamilyTest, BlockingPopsAcrossClients) {
  CommandHarness::Client& c1 = h.NewClient();
  CommandHarness::Client& c2 = h.NewClient();
  EXPECT_EQ(c1.Run({"BZPOPMIN", "k1", "k2", "0"}), "");
  EXPECT_EQ(c2.Run({"BZMPOP", "0", "1", "k2", "MAX", "COUNT", "2"}), "");
  EXPECT_EQ(h.state().blocking.blocked_clients(), 2u);
  EXPECT_EQ(h.Run({"ZADD", "k2", "1", "x", "2", "y", "3", "z"}), Int(3));
  EXPECT_EQ(c1.TakeOutput(), Arr({Bulk("k2"), Bulk("x"), Bulk("1")}));
  EXPECT_EQ(c2.TakeOutput(),
            Arr({Bulk("k2"), Arr({Arr({Bulk("z"), Bulk("3")}), Arr({Bulk("y"), Bulk("2")})})}));
  EXPECT_EQ(h.Run({"EXISTS", "k2"}), Int(0));
  EXPECT_EQ(h.state().blocking.blocked_clients(), 0u);
  EXPECT_EQ(h.state().blocking.waited_keys(), 0u);
}

TEST_F(ZSetFamilyTest, BlockingPopsTimeOutAndIgnoreOtherTypes) {
  CommandHarness::Client& c = h.NewClient();
  EXPECT_EQ(c.Run({"BZPOPMAX", "k", "1.5"}), "");
  h.AdvanceClock(1000);
  EXPECT_EQ(c.TakeOutput(), "");
  h.AdvanceClock(600);
  EXPECT_EQ(c.TakeOutput(), "*-1\r\n");
  // A string at the key does not serve the sorted set waiter.
  EXPECT_EQ(c.Run({"BZPOPMAX", "k", "0"}), "");
  h.Run({"SET", "k", "v"});
  EXPECT_EQ(c.TakeOutput(), "");
  h.Run({"DEL", "k"});
  h.Run({"ZADD", "k", "4", "four"});
  EXPECT_EQ(c.TakeOutput(), Arr({Bulk("k"), Bulk("four"), Bulk("4")}));
  EXPECT_EQ(c.Run({"BZPOPMIN", "k", "-1"}), Err("timeout is negative"));
}

TEST_F(ZSetFamilyTest, MemoryUsageCountsTheBigForm) {
  std::vector<std::string> add = {"ZADD", "z"};
  for (int i = 0; i < 1000; ++i) {
    add.push_back(std::to_string(i));
    add.push_back("member:" + std::to_string(i));
  }
  h.Run(add);
  EXPECT_EQ(h.Run({"OBJECT", "ENCODING", "z"}), Bulk("skiplist"));
  const std::string reply = h.Run({"MEMORY", "USAGE", "z", "SAMPLES", "0"});
  ASSERT_EQ(reply[0], ':');
  const long bytes = std::stol(reply.substr(1));
  // Blocks of 8 + 1 + 10-12 bytes (24 or 32), plus about 20 bytes of tree and index each.
  EXPECT_GT(bytes, 1000 * 30);
  EXPECT_LT(bytes, 1000 * 70);
}

}  // namespace
}  // namespace kv::test

namespace kv::test {
namespace {

// ZUNION/ZINTER/ZDIFF and their STORE forms take plain sets too, their members scoring 1 (times
// the weight), as Redis's zuiNext; the same set given twice is one input.
TEST(ZSetPlainSetInputsTest, SetsScoreOne) {
  CommandHarness h;
  h.Run({"SADD", "s", "a", "b"});
  h.Run({"SADD", "n", "1", "2"});
  h.Run({"ZADD", "z", "5", "a", "7", "c"});
  EXPECT_EQ(h.Run({"ZUNION", "2", "s", "z", "WITHSCORES"}),
            "*6\r\n" + Bulk("b") + Bulk("1") + Bulk("a") + Bulk("6") + Bulk("c") + Bulk("7"));
  EXPECT_EQ(h.Run({"ZINTER", "2", "z", "s", "WEIGHTS", "1", "3", "WITHSCORES"}),
            "*2\r\n" + Bulk("a") + Bulk("8"));
  EXPECT_EQ(h.Run({"ZDIFF", "2", "s", "z", "WITHSCORES"}), "*2\r\n" + Bulk("b") + Bulk("1"));
  EXPECT_EQ(h.Run({"ZINTERSTORE", "d", "2", "s", "s"}), ":2\r\n");
  EXPECT_EQ(h.Run({"ZRANGE", "d", "0", "-1", "WITHSCORES"}),
            "*4\r\n" + Bulk("a") + Bulk("2") + Bulk("b") + Bulk("2"));
  EXPECT_EQ(h.Run({"ZUNIONSTORE", "d", "1", "n"}), ":2\r\n");
  EXPECT_EQ(h.Run({"ZINTERCARD", "2", "s", "z"}), ":1\r\n");
  EXPECT_EQ(h.Run({"ZDIFFSTORE", "d", "2", "missing", "s"}), ":0\r\n");
  EXPECT_EQ(h.Run({"EXISTS", "d"}), ":0\r\n");
  h.Run({"SET", "str", "x"});
  EXPECT_EQ(h.Run({"ZUNION", "2", "s", "str"}),
            "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
}

}  // namespace
}  // namespace kv::test
