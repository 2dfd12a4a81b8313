// MULTI, EXEC, DISCARD, WATCH and UNWATCH through the real dispatcher: queueing, EXECABORT,
// runtime errors inside EXEC, WATCH invalidated by every kind of write from any client (and by
// expiry), never by reads, and the statistics, slow log and monitor lines of a transaction.

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

const std::string kQueued = "+QUEUED\r\n";
const std::string kNullArray = "*-1\r\n";
const std::string kExecAbort = "-EXECABORT Transaction discarded because of previous errors.\r\n";

class TransactionFamilyTest : public ::testing::Test {
 protected:
  // Runs WATCH key, lets `other` run `write`, then MULTI / SET / EXEC on the harness's client and
  // returns EXEC's reply.
  std::string WatchThen(const std::vector<std::string>& write) {
    auto& other = h.NewClient();
    EXPECT_EQ(h.Run({"WATCH", "k"}), kOk);
    other.Run(write);
    EXPECT_EQ(h.Run({"MULTI"}), kOk);
    EXPECT_EQ(h.Run({"SET", "done", "1"}), kQueued);
    return h.Run({"EXEC"});
  }

  CommandHarness h;
};

TEST_F(TransactionFamilyTest, QueuesAndRunsInOrder) {
  EXPECT_EQ(h.Run({"MULTI"}), kOk);
  EXPECT_EQ(h.Run({"SET", "a", "1"}), kQueued);
  EXPECT_EQ(h.Run({"INCR", "a"}), kQueued);
  EXPECT_EQ(h.Run({"GET", "a"}), kQueued);
  EXPECT_EQ(h.db().size(), 0u) << "nothing ran yet";
  EXPECT_EQ(h.Run({"EXEC"}), "*3\r\n" + kOk + Int(2) + Bulk("2"));
  EXPECT_EQ(h.Run({"EXEC"}), Err("EXEC without MULTI"));
  EXPECT_EQ(h.Run({"DISCARD"}), Err("DISCARD without MULTI"));
  EXPECT_EQ(h.Run({"MULTI"}), kOk);
  EXPECT_EQ(h.Run({"EXEC"}), "*0\r\n");
}

TEST_F(TransactionFamilyTest, RuntimeErrorsStayInsideTheArray) {
  h.Run({"SET", "s", "x"});
  h.Run({"MULTI"});
  h.Run({"INCR", "s"});
  h.Run({"SET", "t", "1"});
  EXPECT_EQ(h.Run({"EXEC"}), "*2\r\n" + Err("value is not an integer or out of range") + kOk);
}

TEST_F(TransactionFamilyTest, QueueingErrorsAbortWithExecAbort) {
  h.Run({"MULTI"});
  EXPECT_EQ(h.Run({"SET", "a", "1"}), kQueued);
  EXPECT_EQ(h.Run({"NOPE", "x"}), Err("unknown command 'NOPE', with args beginning with: 'x' "));
  EXPECT_EQ(h.Run({"GET"}), Err("wrong number of arguments for 'get' command"));
  EXPECT_EQ(h.Run({"SET", "b", "1"}), kQueued);
  EXPECT_EQ(h.Run({"EXEC"}), kExecAbort);
  EXPECT_EQ(h.db().size(), 0u);
  // Nested MULTI and WATCH inside MULTI are errors that do not abort the transaction.
  h.Run({"MULTI"});
  EXPECT_EQ(h.Run({"MULTI"}), Err("MULTI calls can not be nested"));
  EXPECT_EQ(h.Run({"WATCH", "x"}), Err("WATCH inside MULTI is not allowed"));
  h.Run({"SET", "a", "1"});
  EXPECT_EQ(h.Run({"EXEC"}), "*1\r\n" + kOk);
  // Commands flagged no-multi are refused at queueing, which aborts.
  h.Run({"MULTI"});
  EXPECT_EQ(h.Run({"SHUTDOWN"}), Err("Command not allowed inside a transaction"));
  EXPECT_EQ(h.Run({"EXEC"}), kExecAbort);
  EXPECT_FALSE(h.shutdown_requested());
  // MONITOR is queued, and refused when EXEC runs it (a reply per command is due there).
  h.Run({"MULTI"});
  EXPECT_EQ(h.Run({"MONITOR"}), kQueued);
  EXPECT_EQ(h.Run({"EXEC"}), "*1\r\n" + Err("MONITOR isn't allowed for DENY BLOCKING client"));
  // DISCARD drops the queue.
  h.Run({"MULTI"});
  h.Run({"DEL", "a"});
  EXPECT_EQ(h.Run({"DISCARD"}), kOk);
  EXPECT_EQ(h.Run({"GET", "a"}), Bulk("1"));
}

TEST_F(TransactionFamilyTest, ExecAbortCountsAsAFailedExecAndRejectedCommands) {
  h.Run({"MULTI"});
  h.Run({"GET"});
  h.Run({"EXEC"});
  const std::string stats = h.Run({"INFO", "commandstats"});
  EXPECT_NE(stats.find("cmdstat_get:calls=0,usec=0,usec_per_call=0.00,rejected_calls=1,failed_"
                       "calls=0"),
            std::string::npos)
      << stats;
  EXPECT_NE(stats.find("cmdstat_exec:calls=1,"), std::string::npos);
  EXPECT_NE(stats.find("rejected_calls=0,failed_calls=1\r\n"), std::string::npos) << stats;
  const std::string errors = h.Run({"INFO", "errorstats"});
  EXPECT_NE(errors.find("errorstat_EXECABORT:count=1"), std::string::npos) << errors;
  EXPECT_NE(errors.find("errorstat_ERR:count=1"), std::string::npos) << errors;
}

TEST_F(TransactionFamilyTest, WatchFailsOnAnyWriteOfTheKey) {
  h.Run({"SET", "k", "v"});
  EXPECT_EQ(WatchThen({"SET", "k", "w"}), kNullArray);
  EXPECT_EQ(h.Run({"GET", "done"}), kNil);
  EXPECT_EQ(WatchThen({"DEL", "k"}), kNullArray);
  EXPECT_EQ(WatchThen({"SET", "k", "again"}), kNullArray);
  EXPECT_EQ(WatchThen({"INCRBY", "k", "0"}), "*1\r\n" + kOk) << "not an integer: no write";
}

TEST_F(TransactionFamilyTest, WatchedKeyWrites) {
  const std::vector<std::vector<std::string>> writes = {
      {"APPEND", "k", "x"},
      {"SETRANGE", "k", "0", "y"},
      {"EXPIRE", "k", "100"},
      {"PERSIST", "k"},
      {"RENAME", "k", "k2"},
      {"RENAME", "k2", "k"},
      {"MOVE", "k", "1"},
      {"SETBIT", "k", "1", "1"},
      {"GETDEL", "k"},
      {"MSET", "k", "1", "z", "2"},
      {"UNLINK", "k"},
      {"COPY", "z", "k", "REPLACE"},
      {"BITOP", "NOT", "k", "z"},
      {"GETEX", "k", "PX", "100"},
      {"INCRBYFLOAT", "k", "1"},
      {"FLUSHDB"},
      {"FLUSHALL"},
  };
  for (const auto& write : writes) {
    SCOPED_TRACE(write[0]);
    h.Run({"SELECT", "0"});
    h.Run({"SET", "k", "1"});
    h.Run({"SET", "z", "2"});
    if (write[0] == "PERSIST") h.Run({"EXPIRE", "k", "100"});
    if (write[0] == "HSET") h.Run({"DEL", "k"});
    if (write[0] == "RENAME" && write[1] == "k2") h.Run({"SET", "k2", "1"});
    EXPECT_EQ(WatchThen(write), kNullArray);
  }
}

TEST_F(TransactionFamilyTest, WatchIsNotTouchedByReadsOrOtherKeysOrNoOps) {
  h.Run({"SET", "k", "v"});
  const std::vector<std::vector<std::string>> harmless = {
      {"GET", "k"},          {"EXISTS", "k"},         {"TTL", "k"},
      {"SET", "other", "1"}, {"PERSIST", "k"},        {"SETRANGE", "k", "0", ""},
      {"DEL", "missing"},    {"SET", "k", "x", "NX"}, {"EXPIRE", "missing", "1"},
      {"SELECT", "3"},       {"SWAPDB", "2", "3"}};
  for (const auto& cmd : harmless) {
    SCOPED_TRACE(cmd[0]);
    EXPECT_EQ(WatchThen(cmd), "*1\r\n" + kOk);
  }
}

TEST_F(TransactionFamilyTest, WatchInAnotherDatabaseIsAnotherKey) {
  auto& other = h.NewClient();
  h.Run({"SELECT", "2"});
  h.Run({"WATCH", "k"});
  other.Run({"SET", "k", "db0"});
  h.Run({"MULTI"});
  h.Run({"PING"});
  EXPECT_EQ(h.Run({"EXEC"}), "*1\r\n+PONG\r\n");
  // SWAPDB with a database holding the key does fail it.
  h.Run({"WATCH", "k"});
  other.Run({"SWAPDB", "0", "2"});
  h.Run({"MULTI"});
  EXPECT_EQ(h.Run({"EXEC"}), kNullArray);
}

TEST_F(TransactionFamilyTest, WatchedKeyExpiringBeforeExecFails) {
  h.Run({"SET", "k", "v", "PX", "100"});
  h.Run({"WATCH", "k"});
  h.AdvanceClock(200);  // expired, not yet deleted
  h.Run({"MULTI"});
  h.Run({"PING"});
  EXPECT_EQ(h.Run({"EXEC"}), kNullArray);
  // Active expiry deleting it fails it too.
  h.Run({"SET", "k", "v", "PX", "100"});
  h.Run({"WATCH", "k"});
  h.AdvanceClock(200);
  h.state().dbs.ActiveExpireAll(h.clock().NowMs());
  EXPECT_EQ(h.db().size(), 0u);
  h.Run({"MULTI"});
  EXPECT_EQ(h.Run({"EXEC"}), kNullArray);
  // A key already expired when watched is no change when it is deleted.
  h.Run({"SET", "k", "v", "PX", "100"});
  h.AdvanceClock(200);
  h.Run({"WATCH", "k"});
  h.state().dbs.ActiveExpireAll(h.clock().NowMs());
  h.Run({"MULTI"});
  h.Run({"PING"});
  EXPECT_EQ(h.Run({"EXEC"}), "*1\r\n+PONG\r\n");
}

TEST_F(TransactionFamilyTest, UnwatchAndDirtyWatch) {
  auto& other = h.NewClient();
  h.Run({"WATCH", "k"});
  other.Run({"SET", "k", "1"});
  EXPECT_NE(h.Run({"CLIENT", "LIST"}).find("flags=d "), std::string::npos);
  EXPECT_EQ(h.Run({"UNWATCH"}), kOk);
  h.Run({"MULTI"});
  h.Run({"PING"});
  EXPECT_EQ(h.Run({"EXEC"}), "*1\r\n+PONG\r\n");
  EXPECT_TRUE(h.state().watches.empty());
  // EXEC unwatches whatever its outcome; so does DISCARD.
  h.Run({"WATCH", "a", "b", "c"});
  h.Run({"MULTI"});
  h.Run({"DISCARD"});
  EXPECT_TRUE(h.state().watches.empty());
  h.Run({"WATCH", "a"});
  other.Disconnect();
  EXPECT_FALSE(h.state().watches.empty());
  auto& third = h.NewClient();
  third.Run({"WATCH", "a", "x"});
  third.Disconnect();
  EXPECT_EQ(h.state().watches.size(), 1u) << "a disconnect unwatches its keys only";
}

TEST_F(TransactionFamilyTest, BlockingCommandsInsideExecDoNotBlockAndWaitersAreServedAfter) {
  // Inside EXEC, a blocking pop with nothing to pop answers at once as a timeout would.
  h.Run({"MULTI"});
  h.Run({"BLPOP", "empty", "0"});
  h.Run({"BZPOPMIN", "empty", "0"});
  h.Run({"BLMOVE", "empty", "dst", "LEFT", "LEFT", "0"});
  h.Run({"BLMPOP", "0", "1", "empty", "LEFT"});
  EXPECT_EQ(h.Run({"EXEC"}), "*4\r\n*-1\r\n*-1\r\n$-1\r\n*-1\r\n");
  EXPECT_FALSE(h.conn().deny_blocking);
  EXPECT_FALSE(h.state().in_exec);
  // A client blocked on keys the transaction fills is served once EXEC is done: it sees the
  // transaction's final state, never a state in the middle.
  auto& waiter = h.NewClient();
  auto& zwaiter = h.NewClient();
  waiter.Run({"BLPOP", "l", "0"});
  zwaiter.Run({"BZPOPMAX", "z", "0"});
  EXPECT_EQ(waiter.TakeOutput(), "");
  h.Run({"MULTI"});
  h.Run({"RPUSH", "l", "a", "b"});
  h.Run({"LPOP", "l"});
  h.Run({"ZADD", "z", "1", "x", "2", "y"});
  h.Run({"ZREM", "z", "y"});
  EXPECT_EQ(waiter.TakeOutput(), "") << "queued, not run";
  EXPECT_EQ(h.Run({"EXEC"}), "*4\r\n:2\r\n$1\r\na\r\n:2\r\n:1\r\n");
  EXPECT_EQ(waiter.TakeOutput(), "*2\r\n$1\r\nl\r\n$1\r\nb\r\n");
  EXPECT_EQ(zwaiter.TakeOutput(), "*3\r\n$1\r\nz\r\n$1\r\nx\r\n$1\r\n1\r\n");
  EXPECT_EQ(h.Run({"EXISTS", "l", "z"}), ":0\r\n");
  // A transaction that creates and deletes the key serves nobody.
  waiter.Run({"BLPOP", "l", "0"});
  h.Run({"MULTI"});
  h.Run({"RPUSH", "l", "a"});
  h.Run({"DEL", "l"});
  h.Run({"EXEC"});
  EXPECT_EQ(waiter.TakeOutput(), "");
  h.Run({"RPUSH", "l", "c"});
  EXPECT_EQ(waiter.TakeOutput(), "*2\r\n$1\r\nl\r\n$1\r\nc\r\n");
}

TEST_F(TransactionFamilyTest, WatchedAggregateWrites) {
  struct Case {
    std::vector<std::string> setup;  // run on "k" (and "z") before WATCH
    std::vector<std::string> write;
  };
  const std::vector<Case> cases = {
      {{"RPUSH", "k", "a", "b"}, {"LPUSH", "k", "x"}},
      {{"RPUSH", "k", "a", "b"}, {"RPUSHX", "k", "x"}},
      {{"RPUSH", "k", "a", "b"}, {"LINSERT", "k", "AFTER", "a", "x"}},
      {{"RPUSH", "k", "a", "b"}, {"LSET", "k", "0", "x"}},
      {{"RPUSH", "k", "a", "b"}, {"LREM", "k", "0", "a"}},
      {{"RPUSH", "k", "a", "b"}, {"LTRIM", "k", "0", "-1"}},
      {{"RPUSH", "k", "a", "b"}, {"LPOP", "k"}},
      {{"RPUSH", "k", "a", "b"}, {"RPOP", "k", "5"}},
      {{"RPUSH", "k", "a", "b"}, {"LMPOP", "1", "k", "LEFT"}},
      {{"RPUSH", "k", "a", "b"}, {"BLPOP", "k", "0"}},
      {{"RPUSH", "k", "a", "b"}, {"BLMPOP", "0", "1", "k", "RIGHT"}},
      {{"RPUSH", "k", "a", "b"}, {"LMOVE", "k", "z", "LEFT", "LEFT"}},
      {{"RPUSH", "z", "a"}, {"RPOPLPUSH", "z", "k"}},
      {{"RPUSH", "z", "a"}, {"BLMOVE", "z", "k", "LEFT", "LEFT", "0"}},
      {{"SADD", "k", "1", "2"}, {"SADD", "k", "3"}},
      {{"SADD", "k", "1", "2"}, {"SREM", "k", "1"}},
      {{"SADD", "k", "1", "2"}, {"SPOP", "k"}},
      {{"SADD", "k", "1", "2"}, {"SPOP", "k", "1"}},
      {{"SADD", "k", "1", "2"}, {"SPOP", "k", "9"}},
      {{"SADD", "k", "1", "2"}, {"SMOVE", "k", "z", "1"}},
      {{"SADD", "z", "1", "2"}, {"SMOVE", "z", "k", "1"}},
      {{"SADD", "z", "1", "2"}, {"SINTERSTORE", "k", "z"}},
      {{"SADD", "z", "1", "2"}, {"SUNIONSTORE", "k", "z"}},
      {{"SADD", "k", "1", "2"}, {"SDIFFSTORE", "k", "k"}},
      {{"SADD", "k", "1", "2"}, {"SINTERSTORE", "k", "missing"}},
      {{"ZADD", "k", "1", "a"}, {"ZADD", "k", "2", "a"}},
      {{"ZADD", "k", "1", "a"}, {"ZINCRBY", "k", "1", "a"}},
      {{"ZADD", "k", "1", "a"}, {"ZREM", "k", "a"}},
      {{"ZADD", "k", "1", "a"}, {"ZPOPMIN", "k"}},
      {{"ZADD", "k", "1", "a"}, {"ZMPOP", "1", "k", "MAX"}},
      {{"ZADD", "k", "1", "a"}, {"BZPOPMAX", "k", "0"}},
      {{"ZADD", "k", "1", "a"}, {"ZREMRANGEBYRANK", "k", "0", "0"}},
      {{"ZADD", "k", "1", "a"}, {"ZREMRANGEBYSCORE", "k", "1", "1"}},
      {{"ZADD", "k", "1", "a"}, {"ZREMRANGEBYLEX", "k", "-", "+"}},
      {{"ZADD", "z", "1", "a"}, {"ZRANGESTORE", "k", "z", "0", "-1"}},
      {{"ZADD", "k", "1", "a"}, {"ZRANGESTORE", "k", "z", "0", "-1"}},
      {{"ZADD", "z", "1", "a"}, {"ZUNIONSTORE", "k", "1", "z"}},
      {{"ZADD", "z", "1", "a"}, {"ZINTERSTORE", "k", "1", "z"}},
      {{"ZADD", "k", "1", "a"}, {"ZDIFFSTORE", "k", "2", "k", "k"}},
      {{"PING"}, {"GEOADD", "k", "13.361389", "38.115556", "Palermo"}},
      {{"GEOADD", "z", "13.361389", "38.115556", "Palermo"},
       {"GEOSEARCHSTORE", "k", "z", "FROMMEMBER", "Palermo", "BYRADIUS", "1", "km"}},
      {{"GEOADD", "z", "13.361389", "38.115556", "Palermo"},
       {"GEORADIUS", "z", "13", "38", "100", "km", "STORE", "k"}},
      {{"SET", "k", "x"},
       {"GEOSEARCHSTORE", "k", "z", "FROMLONLAT", "0", "0", "BYBOX", "1", "1", "m"}},
      {{"PING"}, {"PFADD", "k", "a"}},
      {{"PFADD", "k", "a"}, {"PFADD", "k", "b"}},
      {{"PING"}, {"PFMERGE", "k"}},
      {{"RPUSH", "z", "1"}, {"SORT", "z", "STORE", "k"}},
      // multi.tcl's "modified by SORT with STORE even if the result is empty".
      {{"SET", "k", "x"}, {"SORT", "missing", "STORE", "k"}},
      // PFCOUNT, a read, rewrites the cached cardinality of a changed HLL: Redis signals it.
      {{"PFADD", "k", "a"}, {"PFCOUNT", "k"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.write[0] + " after " + c.setup[0]);
    h.Run({"FLUSHALL"});
    h.Run(c.setup);
    EXPECT_EQ(WatchThen(c.write), kNullArray);
  }
}

TEST_F(TransactionFamilyTest, AggregateNoOpsLeaveWatchAlone) {
  h.Run({"RPUSH", "k", "a"});
  h.Run({"SADD", "s", "1"});
  h.Run({"ZADD", "z", "1", "a"});
  h.Run({"PFADD", "p", "a"});
  h.Run({"PFCOUNT", "p"});
  const std::vector<std::vector<std::string>> harmless = {
      {"LRANGE", "k", "0", "-1"}, {"LINSERT", "k", "BEFORE", "nope", "x"},
      {"LREM", "k", "0", "nope"}, {"LPOP", "k", "0"},
      {"LPOS", "k", "a"},         {"RPOPLPUSH", "missing", "k"},
      {"LPUSHX", "missing", "x"}, {"BLPOP", "missing", "0.01"},
  };
  for (const auto& cmd : harmless) {
    SCOPED_TRACE(cmd[0]);
    EXPECT_EQ(WatchThen(cmd), "*1\r\n" + kOk);
  }
  // The same no-ops on the other types, watching their keys.
  const std::vector<std::pair<std::string, std::vector<std::string>>> others = {
      {"s", {"SADD", "s", "1"}},
      {"s", {"SREM", "s", "9"}},
      {"s", {"SMOVE", "s", "s", "1"}},
      {"s", {"SMOVE", "s", "t", "9"}},
      {"s", {"SPOP", "s", "0"}},
      {"s", {"SINTERSTORE", "other", "s"}},
      {"z", {"ZADD", "z", "1", "a"}},
      {"z", {"ZADD", "z", "NX", "5", "a"}},
      {"z", {"ZREM", "z", "nope"}},
      {"z", {"ZPOPMIN", "z", "0"}},
      {"z", {"ZREMRANGEBYSCORE", "z", "5", "9"}},
      {"z", {"ZRANGESTORE", "other", "z", "0", "-1"}},
      {"z", {"GEOADD", "z", "XX", "1", "1", "nope"}},
      {"p", {"PFADD", "p", "a"}},
      {"p", {"PFCOUNT", "p"}},
      {"p", {"PFCOUNT", "p", "s2"}},
  };
  for (const auto& [key, cmd] : others) {
    SCOPED_TRACE(cmd[0]);
    auto& other = h.NewClient();
    EXPECT_EQ(h.Run({"WATCH", key}), kOk);
    other.Run(cmd);
    h.Run({"MULTI"});
    h.Run({"SET", "done", "1"});
    EXPECT_EQ(h.Run({"EXEC"}), "*1\r\n" + kOk);
  }
}

TEST_F(TransactionFamilyTest, MonitorShowsMultiThenTheCommandsThenExec) {
  auto& mon = h.NewClient();
  mon.Run({"MONITOR"});
  mon.TakeOutput();
  h.Run({"MULTI"});
  h.Run({"SET", "foo", "bar"});
  h.Run({"EXEC"});
  const std::string lines = mon.TakeOutput();
  const size_t multi = lines.find("\"MULTI\"");
  const size_t set = lines.find("\"SET\" \"foo\" \"bar\"");
  const size_t exec = lines.find("\"EXEC\"");
  ASSERT_NE(multi, std::string::npos) << lines;
  ASSERT_NE(set, std::string::npos) << lines;
  ASSERT_NE(exec, std::string::npos) << lines;
  EXPECT_LT(multi, set);
  EXPECT_LT(set, exec);
  // A transaction with a queueing error: MULTI, then EXEC.
  h.Run({"MULTI"});
  h.Run({"syntax", "error"});
  h.Run({"EXEC"});
  const std::string aborted = mon.TakeOutput();
  EXPECT_NE(aborted.find("\"MULTI\""), std::string::npos);
  EXPECT_NE(aborted.find("\"EXEC\""), std::string::npos);
  EXPECT_EQ(aborted.find("syntax"), std::string::npos);
}

TEST_F(TransactionFamilyTest, SlowlogHasTheCommandsNotExec) {
  h.Run({"CONFIG", "SET", "slowlog-log-slower-than", "0"});
  h.Run({"SLOWLOG", "RESET"});
  h.Run({"MULTI"});
  h.Run({"SET", "a", "1"});
  h.Run({"EXEC"});
  const std::string log = h.Run({"SLOWLOG", "GET"});
  EXPECT_NE(log.find(Bulk("SET")), std::string::npos) << log;
  EXPECT_EQ(log.find(Bulk("EXEC")), std::string::npos) << log;
  EXPECT_NE(log.find(Bulk("MULTI")), std::string::npos) << log;
}

TEST_F(TransactionFamilyTest, ClientListShowsTheTransaction) {
  h.Run({"MULTI"});
  h.Run({"SET", "abc", "12345"});
  const std::string line = h.Run({"CLIENT", "INFO"});
  EXPECT_EQ(line, kQueued);
  h.Run({"DISCARD"});
  auto& other = h.NewClient();
  other.Run({"MULTI"});
  other.Run({"SET", "abc", "12345"});
  const std::string list = h.Run({"CLIENT", "LIST"});
  // 3 arguments of 3 + 3 + 5 bytes, plus a pointer each.
  EXPECT_NE(list.find("flags=x db=0 sub=0 psub=0 ssub=0 multi=1 "), std::string::npos) << list;
  EXPECT_NE(list.find("multi-mem=35 "), std::string::npos) << list;
}

TEST_F(TransactionFamilyTest, ResetAndDisconnectDropTheTransaction) {
  h.Run({"WATCH", "k"});
  h.Run({"MULTI"});
  h.Run({"SET", "a", "1"});
  EXPECT_EQ(h.Run({"RESET"}), "+RESET\r\n");
  EXPECT_EQ(h.Run({"EXEC"}), Err("EXEC without MULTI"));
  EXPECT_TRUE(h.state().watches.empty());
  auto& other = h.NewClient();
  other.Run({"WATCH", "k"});
  other.Run({"MULTI"});
  other.Run({"SET", "a", "1"});
  other.Disconnect();
  EXPECT_TRUE(h.state().watches.empty());
  EXPECT_EQ(h.Run({"GET", "a"}), kNil);
}

TEST_F(TransactionFamilyTest, HugeTransactionsAndWatchLists) {
  std::vector<std::string> watch = {"WATCH"};
  for (int i = 0; i < 100000; ++i) watch.push_back("k" + std::to_string(i));
  EXPECT_EQ(h.Run(watch), kOk);
  EXPECT_EQ(h.state().watches.size(), 100000u);
  EXPECT_EQ(h.Run(watch), kOk) << "watching again adds nothing";
  EXPECT_EQ(h.state().watches.size(), 100000u);
  h.Run({"MULTI"});
  for (int i = 0; i < 100000; ++i) h.Run({"INCR", "counter"});
  const std::string reply = h.Run({"EXEC"});
  EXPECT_TRUE(reply.starts_with("*100000\r\n:1\r\n:2\r\n"));
  EXPECT_TRUE(reply.ends_with(":100000\r\n"));
  EXPECT_TRUE(h.state().watches.empty());
}

}  // namespace
}  // namespace kv::test
