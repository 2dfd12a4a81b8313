// MULTI/EXEC/DISCARD/WATCH/UNWATCH against the real redis-server with two clients per server:
// seeded random interleavings in which one client watches keys and runs transactions while the
// other writes (or only reads) the same keys, in several databases, with queueing errors, nested
// MULTI, WATCH inside MULTI, EXEC/DISCARD without MULTI, FLUSHDB, SWAPDB, MOVE, RENAME, expiring
// deletes; every reply of both clients must equal Redis's.
//   KV_TX_DIFF_SEED=<seed>       replays one sequence
//   KV_TX_DIFF_BASE_SEED=<seed>  replays a whole run
//   KV_TX_DIFF_SEQUENCES=<n>     changes how many sequences run (default 150)

#include <chrono>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/paired_clients.h"

namespace kv::test {
namespace {

class Generator : public RandomChoices {
 public:
  using RandomChoices::RandomChoices;

  std::string Key() { return Pick({"a", "b", "c"}); }

  Args Command() {
    switch (Uniform(50)) {
      case 0:
      case 1:
        return {Case("multi")};
      case 2:
      case 3:
        return {Case("exec")};
      case 4:
        return {Case("discard")};
      case 5:
      case 6:
        return Percent(50) ? Args{Case("watch"), Key()} : Args{Case("watch"), Key(), Key()};
      case 7:
        return {Case("unwatch")};
      case 8:
      case 9:
        return {"SET", Key(), Pick({"1", "x"})};
      case 10:
        return {"INCR", Key()};
      case 11:
        return {"GET", Key()};
      case 12:
        return {"DEL", Key()};
      case 13:
        return {"APPEND", Key(), "z"};
      case 14:
        return {"EXPIRE", Key(), Pick({"100", "0", "-5"})};
      case 15:
        return {"PERSIST", Key()};
      case 16:
        return {"RENAME", Key(), Key()};
      case 17:
        return {"SELECT", Pick({"0", "1"})};
      case 18:
        return {"MOVE", Key(), Pick({"0", "1"})};
      case 19:
        return {"SWAPDB", "0", "1"};
      case 20:
        return {"FLUSHDB"};
      case 21:
        return {"NOSUCHCOMMAND", Key()};
      case 22:
        return {"GET"};
      case 23:
        return {"SET", Key(), "v", "NX"};
      case 24:
        return {"EXISTS", Key(), Key()};
      case 25:
        return {"SETRANGE", Key(), "0", Pick({"", "q"})};
      case 26:
        return {"GETDEL", Key()};
      case 27:
        return {"COPY", Key(), Key(), "REPLACE"};
      case 28:
        return {"PING"};
      case 29:
        return {"HSET", Key(), "f", Pick({"1", "2"})};
      case 30:
        return {"HDEL", Key(), "f"};
      case 31:
        return {"HINCRBY", Key(), "f", "1"};
      // Lists, sets, sorted sets, geo and HyperLogLog: writes that change the key or not, and
      // blocking pops (which never block inside MULTI; outside, their timeout passes at once).
      case 33:
        return {Pick({"LPUSH", "RPUSHX"}), Key(), Pick({"1", "2"})};
      case 34:
        return {Pick({"LPOP", "RPOP"}), Key()};
      case 35:
        return {"LMOVE", Key(), Key(), "LEFT", "RIGHT"};
      case 36:
        return {"LREM", Key(), "0", Pick({"1", "9"})};
      case 37:
        return {Pick({"BLPOP", "BRPOP"}), Key(), "0.01"};
      case 38:
        return {"BLMOVE", Key(), Key(), "LEFT", "LEFT", "0.01"};
      case 39:
        return {"SADD", Key(), Pick({"1", "2"})};
      case 40:
        return {"SREM", Key(), Pick({"1", "9"})};
      case 41:
        return {"SMOVE", Key(), Key(), Pick({"1", "2"})};
      case 42:
        return {Pick({"SUNIONSTORE", "SINTERSTORE"}), Key(), Key(), Key()};
      case 43:
        return {"ZADD", Key(), Pick({"1", "2"}), Pick({"m", "n"})};
      case 44:
        return {Pick({"ZPOPMIN", "ZREM"}), Key(), "m"};
      case 45:
        return {Pick({"BZPOPMIN", "BZPOPMAX"}), Key(), "0.01"};
      case 46:
        return {"ZUNIONSTORE", Key(), "2", Key(), Key()};
      case 47:
        return {"GEOADD", Key(), "13.361389", "38.115556", Pick({"m", "n"})};
      case 48:
        return {Pick({"PFADD", "PFCOUNT"}), Key(), Pick({"m", "n"})};
      default:
        return {"MSET", Key(), "1", Key(), "2"};
    }
  }
};

class TransactionsDiffTest : public BothServersTest<TransactionsDiffTest> {};

TEST_F(TransactionsDiffTest, RandomInterleavingsOfTwoClients) {
  PairedClients clients(kvserver_->port(), redis_->port());
  ASSERT_TRUE(clients.Open(0) && clients.Open(1));
  const uint64_t base = EnvU64("KV_TX_DIFF_BASE_SEED").value_or(std::random_device{}());
  const std::optional<uint64_t> only = EnvU64("KV_TX_DIFF_SEED");
  const uint64_t count = only ? 1 : EnvU64("KV_TX_DIFF_SEQUENCES").value_or(150);
  std::printf("transactions differential: %llu sequences from seed %llu\n",
              static_cast<unsigned long long>(count),
              static_cast<unsigned long long>(only.value_or(base)));
  bool failed = false;
  size_t execs = 0, aborted = 0;
  for (uint64_t s = 0; s < count && !failed; ++s) {
    const uint64_t seed = only.value_or(base + s);
    Generator gen(seed);
    clients.Call(0, {"RESET"});
    clients.Call(1, {"RESET"});
    clients.Call(0, {"FLUSHALL"});
    std::string history;
    for (int step = 0; step < 40 && !failed; ++step) {
      // The first client runs transactions; the second mostly writes in between.
      const size_t conn = gen.Percent(65) ? 0 : 1;
      const Args cmd = gen.Command();
      history += std::to_string(conn) + ": " + DescribeArgs(cmd) + "\n";
      // Only replies here (no subscriptions): one per command, in or out of MULTI.
      const auto [kv, redis] = clients.Call(conn, cmd);
      if (kv != redis) {
        failed = true;
        ADD_FAILURE() << "seed " << seed << " (replay: KV_TX_DIFF_SEED=" << seed << "), connection "
                      << conn << " after:\n"
                      << history << "kvserver: " << Escape(kv) << "\nredis:    " << Escape(redis);
      }
      if (cmd[0].size() == 4 && (cmd[0][0] == 'e' || cmd[0][0] == 'E') &&
          (cmd[0][1] == 'x' || cmd[0][1] == 'X')) {
        ++execs;
        aborted += redis == "*-1\r\n";
      }
    }
  }
  if (!only && count >= 100) {
    EXPECT_GT(execs, 0u);
    EXPECT_GT(aborted, 0u) << "no run had a watched key touched";
  }
}

TEST_F(TransactionsDiffTest, ScriptedRaces) {
  PairedClients clients(kvserver_->port(), redis_->port());
  ASSERT_TRUE(clients.Open(0) && clients.Open(1));
  const std::vector<std::pair<size_t, Args>> script = {
      {0, {"FLUSHALL"}},
      // A key expiring between WATCH and EXEC fails the transaction.
      {0, {"SET", "e", "1", "PX", "50"}},
      {0, {"WATCH", "e"}},
      {0, {"sleep-ms", "100"}},
      {0, {"MULTI"}},
      {0, {"PING"}},
      {0, {"EXEC"}},
      // ... unless it had expired before WATCH.
      {0, {"SET", "e", "1", "PX", "10"}},
      {0, {"sleep-ms", "50"}},
      {0, {"WATCH", "e"}},
      {0, {"MULTI"}},
      {0, {"PING"}},
      {0, {"EXEC"}},
      // Reads never fail it; a write of the same value does.
      {0, {"SET", "k", "v"}},
      {0, {"WATCH", "k"}},
      {1, {"GET", "k"}},
      {1, {"EXISTS", "k"}},
      {0, {"MULTI"}},
      {0, {"GET", "k"}},
      {0, {"EXEC"}},
      {0, {"WATCH", "k"}},
      {1, {"SET", "k", "v"}},
      {0, {"MULTI"}},
      {0, {"EXEC"}},
      // SWAPDB of a database without the key, and with it.
      {0, {"WATCH", "k"}},
      {1, {"SWAPDB", "2", "3"}},
      {0, {"MULTI"}},
      {0, {"EXEC"}},
      {0, {"WATCH", "k"}},
      {1, {"SWAPDB", "0", "3"}},
      {0, {"MULTI"}},
      {0, {"EXEC"}},
      {1, {"SWAPDB", "0", "3"}},
      // A refused queueing, then EXECABORT; WATCH inside MULTI; nested MULTI.
      {0, {"MULTI"}},
      {0, {"WATCH", "k"}},
      {0, {"MULTI"}},
      {0, {"SET", "k"}},
      {0, {"SET", "k", "2"}},
      {0, {"EXEC"}},
      {0, {"GET", "k"}},
      {0, {"MULTI"}},
      {0, {"SHUTDOWN"}},
      {0, {"EXEC"}},
      // EXEC's replies with runtime errors; CLIENT LIST's view of a transaction.
      {0, {"MULTI"}},
      {0, {"INCR", "k"}},
      {0, {"SET", "n", "1"}},
      {0, {"INCR", "n"}},
      {0, {"EXEC"}},
      {0, {"MULTI"}},
      {0, {"MONITOR"}},
      {0, {"EXEC"}},
      {0, {"UNWATCH"}},
      {0, {"DISCARD"}},
  };
  for (const auto& [conn, cmd] : script) {
    SCOPED_TRACE(std::to_string(conn) + ": " + DescribeArgs(cmd));
    if (cmd[0] == "sleep-ms") {
      std::this_thread::sleep_for(std::chrono::milliseconds(std::stoi(cmd[1])));
      continue;
    }
    const auto [kv, redis] = clients.Call(conn, cmd);
    EXPECT_EQ(kv, redis);
  }
}

// Blocked clients and transactions: a blocking pop inside MULTI answers at once; clients blocked
// on keys a transaction fills are served after EXEC, from the state the transaction left.
TEST_F(TransactionsDiffTest, BlockedClientsAreServedAfterExec) {
  PairedClients clients(kvserver_->port(), redis_->port());
  ASSERT_TRUE(clients.Open(0) && clients.Open(1) && clients.Open(2));
  auto send = [&](size_t c, const Args& cmd) {
    clients.kv(c).Send(EncodeCommand(cmd));
    clients.redis(c).Send(EncodeCommand(cmd));
  };
  auto expect_reply = [&](size_t c, const std::string& what) {
    SCOPED_TRACE(what);
    const std::string kv = clients.kv(c).ReadReply(2000).value_or("<no reply>");
    const std::string redis = clients.redis(c).ReadReply(2000).value_or("<no reply>");
    EXPECT_EQ(kv, redis);
    EXPECT_NE(redis, "<no reply>");
  };
  auto call = [&](size_t c, const Args& cmd) {
    SCOPED_TRACE(DescribeArgs(cmd));
    const auto [kv, redis] = clients.Call(c, cmd);
    EXPECT_EQ(kv, redis);
  };
  call(0, {"FLUSHALL"});
  call(0, {"MULTI"});
  call(0, {"BLPOP", "l", "0"});
  call(0, {"BZPOPMIN", "z", "0"});
  call(0, {"BLMOVE", "l", "d", "LEFT", "LEFT", "0"});
  call(0, {"BLMPOP", "0", "1", "l", "LEFT"});
  call(0, {"BZMPOP", "0", "1", "z", "MAX"});
  call(0, {"EXEC"});
  // Two waiters; the transaction pushes, pops and adds: they get what is left after EXEC.
  send(1, {"BLPOP", "l", "0"});
  send(2, {"BZPOPMAX", "z", "0"});
  call(0, {"PING"});  // the waiters' commands have reached the server by now
  call(0, {"MULTI"});
  call(0, {"RPUSH", "l", "a", "b", "c"});
  call(0, {"LPOP", "l"});
  call(0, {"ZADD", "z", "1", "x", "2", "y"});
  call(0, {"ZREM", "z", "y"});
  call(0, {"EXEC"});
  expect_reply(1, "BLPOP served after EXEC");
  expect_reply(2, "BZPOPMAX served after EXEC");
  call(0, {"LRANGE", "l", "0", "-1"});
  call(0, {"EXISTS", "z"});
  // A transaction that fills and empties the key again serves nobody; the next push does.
  send(1, {"BRPOP", "l2", "0"});
  call(0, {"PING"});
  call(0, {"MULTI"});
  call(0, {"RPUSH", "l2", "a"});
  call(0, {"DEL", "l2"});
  call(0, {"EXEC"});
  call(0, {"RPUSH", "l2", "late"});
  expect_reply(1, "BRPOP served by the later push");
  // BLMOVE waiting on a key the transaction fills, its target watched by another client.
  call(2, {"WATCH", "target"});
  send(1, {"BLMOVE", "src", "target", "RIGHT", "LEFT", "0"});
  call(0, {"PING"});
  call(0, {"MULTI"});
  call(0, {"LPUSH", "src", "1", "2"});
  call(0, {"EXEC"});
  expect_reply(1, "BLMOVE served after EXEC");
  call(2, {"MULTI"});
  call(2, {"PING"});
  call(2, {"EXEC"});  // the served BLMOVE touched the watched target
}

}  // namespace
}  // namespace kv::test
