// DEBUG subcommands Redis's test suite relies on, against the real redis-server (both with
// enable-debug-command yes): DIGEST and DIGEST-VALUE give the same 40 hex digits for the same
// data, for every type and encoding, with and without TTLs, in several databases (the suite
// compares values with their copies, and datasets before and after an operation); PROTOCOL gives
// the same bytes for each RESP3 type in RESP2 and RESP3 (the suite's client parsing tests).

#include <signal.h>

#include <chrono>
#include <memory>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/reply_pair.h"
#include "tests/support/resp_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

class DebugSubcommandsTest : public ConnectedBothServersTest<DebugSubcommandsTest> {
 public:
  static std::vector<std::string> ServerArgs() { return {"--enable-debug-command", "yes"}; }

 protected:
  void SetUp() override {
    ConnectedBothServersTest::SetUp();
    if (HasFatalFailure()) return;
    Both({"FLUSHALL"});
  }

  // Sends `args` to both servers; the replies must be equal. Returns kvserver's.
  std::string Both(const Args& args) {
    const std::string kv = kv_->Call(args);
    const std::string redis = redis_conn_->Call(args);
    EXPECT_EQ(Escape(kv), Escape(redis)) << args[0] << " " << (args.size() > 1 ? args[1] : "");
    return kv;
  }
};

TEST_F(DebugSubcommandsTest, DigestOfNothing) {
  EXPECT_EQ(Both({"DEBUG", "DIGEST"}), "+" + std::string(40, '0') + "\r\n");
  EXPECT_EQ(Both({"DEBUG", "DIGEST-VALUE"}), "*0\r\n");
  Both({"DEBUG", "DIGEST-VALUE", "missing", "other"});
  Both({"DEBUG", "DIGEST", "extra"});
}

TEST_F(DebugSubcommandsTest, DigestsOfEveryTypeAndEncoding) {
  std::vector<Args> setup = {
      {"SET", "str", "hello"},
      {"SET", "int", "12345"},
      {"SET", "neg", "-7"},
      {"SET", "bin", std::string("a\0b\r\n", 5)},
      {"RPUSH", "list", "a", "1", "-2", "bb", "9223372036854775807", ""},
      {"RPUSH", "list2", "1", "-2", "bb", "a", "9223372036854775807", ""},
      {"SADD", "intset", "1", "2", "3", "-100", "70000"},
      {"SADD", "set", "a", "b", "1", "xyz"},
      {"HSET", "hash", "f1", "v1", "f2", "2", "3", "three"},
      {"ZADD", "zset", "1", "a", "2.5", "b", "-inf", "c", "inf", "d", "0.1", "e", "3", "42"},
      {"SET", "ttl", "v", "EX", "1000"},
      {"RPUSH", "ttllist", "x", "EX"},
      {"EXPIRE", "ttllist", "1000"},
  };
  // Past the listpack and intset limits: hashtable, skiplist and multi-node quicklist encodings.
  Args big_hash = {"HSET", "bighash"};
  Args big_set = {"SADD", "bigset"};
  Args big_intset = {"SADD", "bigintset"};
  Args big_zset = {"ZADD", "bigzset"};
  Args big_list = {"RPUSH", "biglist"};
  for (int i = 0; i < 600; ++i) {
    const std::string n = std::to_string(i);
    big_hash.insert(big_hash.end(), {"field:" + n, "value:" + n});
    big_set.push_back("member:" + n);
    big_intset.push_back(n);
    big_zset.insert(big_zset.end(), {std::to_string(i * 0.37), "m" + n});
    big_list.push_back(i % 3 == 0 ? n : "element:" + n);
  }
  setup.insert(setup.end(), {big_hash, big_set, big_intset, big_zset, big_list});
  for (const Args& args : setup) Both(args);
  Both({"OBJECT", "ENCODING", "bighash"});
  Both({"OBJECT", "ENCODING", "bigset"});
  Both({"OBJECT", "ENCODING", "bigzset"});

  const std::string digest = Both({"DEBUG", "DIGEST"});
  EXPECT_NE(digest, "+" + std::string(40, '0') + "\r\n");
  Both({"DEBUG",   "DIGEST-VALUE", "str",       "int",     "neg",     "bin",    "list",
        "list2",   "intset",       "set",       "hash",    "zset",    "ttl",    "ttllist",
        "bighash", "bigset",       "bigintset", "bigzset", "biglist", "missing"});

  // The same values elsewhere: a copy digests as the original, a TTL changes it, another
  // database changes the dataset's digest.
  Both({"COPY", "biglist", "biglist2"});
  Both({"DEBUG", "DIGEST-VALUE", "biglist", "biglist2"});
  Both({"PERSIST", "ttl"});
  Both({"DEBUG", "DIGEST-VALUE", "ttl"});
  Both({"MOVE", "hash", "5"});
  Both({"DEBUG", "DIGEST"});
  Both({"SELECT", "5"});
  Both({"DEBUG", "DIGEST-VALUE", "hash"});
  Both({"DEBUG", "DIGEST"});
}

// DEBUG POPULATE's keys and values (compared through the dataset's digest and a few reads), its
// prefix and size, keys it leaves alone, and its errors.
TEST_F(DebugSubcommandsTest, Populate) {
  Both({"SET", "key:3", "mine"});
  Both({"DEBUG", "POPULATE", "1000"});
  Both({"DBSIZE"});
  Both({"GET", "key:3"});
  Both({"GET", "key:999"});
  Both({"DEBUG", "POPULATE", "10", "p", "3"});
  Both({"DEBUG", "POPULATE", "10", "q", "20"});
  Both({"GET", "p:7"});
  Both({"GET", "q:7"});
  Both({"DEBUG", "POPULATE", "3", std::string(200, 'x')});
  Both({"DEBUG", "POPULATE", "3", std::string("ab\0cd", 5), "0"});
  Both({"EXISTS", "ab:0", "ab:1", "ab:2", "cd:0"});
  Both({"DEBUG", "DIGEST"});
  Both({"DEBUG", "POPULATE", "0"});
  Both({"DEBUG", "POPULATE", "-1"});
  Both({"DEBUG", "POPULATE", "x"});
  Both({"DEBUG", "POPULATE", "5", "k", "-1"});
  Both({"DEBUG", "POPULATE", "5", "k", "1.5"});
  Both({"DEBUG", "POPULATE"});
  Both({"DEBUG", "POPULATE", "1", "a", "1", "extra"});
  Both({"DBSIZE"});
}

TEST_F(DebugSubcommandsTest, ProtocolTypesInResp2AndResp3) {
  const std::vector<std::string> types = {"string",   "integer", "double", "bignum", "null",
                                          "array",    "set",     "map",    "attrib", "push",
                                          "verbatim", "true",    "false",  "bogus",  "STRING"};
  for (const std::string& type : types) Both({"DEBUG", "PROTOCOL", type});
  // HELLO's reply names the connection's id, which differs.
  ASSERT_EQ(kv_->Call({"HELLO", "3"}).substr(0, 3), "%7\r");
  ASSERT_EQ(redis_conn_->Call({"HELLO", "3"}).substr(0, 3), "%7\r");
  for (const std::string& type : types) {
    Both({"DEBUG", "PROTOCOL", type});
    // The real reply after the push or the attribute.
    if (type == "push" || type == "attrib") {
      EXPECT_EQ(Escape(kv_->ReadReply().value_or("<none>")),
                Escape(redis_conn_->ReadReply().value_or("<none>")));
    }
  }
  Both({"DEBUG", "PROTOCOL"});
  Both({"DEBUG", "PROTOCOL", "string", "extra"});
}

TEST_F(DebugSubcommandsTest, SetDisableDenyScriptsLetsScriptsCallNoscriptCommands) {
  const Args eval = {"EVAL", "return redis.call('client', 'getname')", "0"};
  EXPECT_EQ(Both(eval).substr(0, 4), "-ERR");
  EXPECT_EQ(Both({"DEBUG", "SET-DISABLE-DENY-SCRIPTS", "1"}), "+OK\r\n");
  EXPECT_EQ(Both(eval), "$-1\r\n");
  EXPECT_EQ(Both({"DEBUG", "set-disable-deny-scripts", "0"}), "+OK\r\n");
  EXPECT_EQ(Both(eval).substr(0, 4), "-ERR");
  Both({"DEBUG", "SET-DISABLE-DENY-SCRIPTS"});
}

TEST_F(DebugSubcommandsTest, PauseCronStopsActiveExpiry) {
  EXPECT_EQ(Both({"DEBUG", "PAUSE-CRON", "1"}), "+OK\r\n");
  Both({"SET", "k", "v", "PX", "50"});
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  // Past its TTL, the key is still in the table: nothing ran the expiry cycle (DBSIZE counts it).
  EXPECT_EQ(Both({"DBSIZE"}), ":1\r\n");
  EXPECT_EQ(Both({"DEBUG", "PAUSE-CRON", "0"}), "+OK\r\n");
  std::string kv_size, redis_size;
  for (int i = 0; i < 100; ++i) {
    kv_size = kv_->Call({"DBSIZE"});
    redis_size = redis_conn_->Call({"DBSIZE"});
    if (kv_size == ":0\r\n" && redis_size == ":0\r\n") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(kv_size, ":0\r\n");
  EXPECT_EQ(redis_size, ":0\r\n");
  Both({"DEBUG", "PAUSE-CRON"});
}

TEST_F(DebugSubcommandsTest, ObjectShowsAnExpiredKeyNothingDeletedYet) {
  Both({"DEBUG", "SET-ACTIVE-EXPIRE", "0"});
  Both({"SET", "key", "value", "PX", "1"});
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  for (RawConnection* c : {kv_.get(), redis_conn_.get()}) {
    EXPECT_EQ(c->Call({"DEBUG", "OBJECT", "key"}).substr(0, 10), "+Value at:");
  }
  EXPECT_EQ(Both({"EXISTS", "key"}), ":0\r\n");  // deletes it
  Both({"DEBUG", "OBJECT", "key"});
  Both({"DEBUG", "SET-ACTIVE-EXPIRE", "1"});
}

// `text` without the RESP framing of a bulk or verbatim string reply.
std::string ReplyText(const std::string& reply) {
  const size_t start = reply.find("\r\n") + 2;
  std::string text = reply.substr(start, reply.size() - start - 2);
  if (reply[0] == '=') text = text.substr(4);  // "txt:"
  return text;
}

TEST_F(DebugSubcommandsTest, HtStatsKeyDescribesHashTables) {
  Both({"SET", "str", "v"});
  Both({"SADD", "intset", "1", "2"});
  Both({"SADD", "smallset", "a"});  // a hashtable already
  Both({"HSET", "smallhash", "f", "v"});
  Both({"ZADD", "smallzset", "1", "a"});
  for (const char* key : {"missing", "str", "intset", "smallhash", "smallzset"}) {
    Both({"DEBUG", "HTSTATS-KEY", key});
  }
  Both({"DEBUG", "HTSTATS-KEY"});
  Args set = {"SADD", "set"}, hash = {"HSET", "hash"}, zset = {"ZADD", "zset"};
  for (int i = 0; i < 1000; ++i) {
    set.push_back("m:" + std::to_string(i));
    hash.insert(hash.end(), {"f:" + std::to_string(i), "v"});
    zset.insert(zset.end(), {std::to_string(i), "m:" + std::to_string(i)});
  }
  Both(set);
  Both(hash);
  Both(zset);
  // The tables differ (kvserver's are its own), so the figures do; the text is Redis's, with the
  // counts that must agree.
  const std::regex header(
      "^Hash table 0 stats \\(main hash table\\):\n table size: ([0-9]+)\n number of elements: "
      "([0-9]+)\n different slots: ([0-9]+)\n max chain length: ([0-9]+)\n avg chain length "
      "\\(counted\\): [0-9]+\\.[0-9]{2}\n avg chain length \\(computed\\): [0-9]+\\.[0-9]{2}\n "
      "Chain "
      "length distribution:\n(   [0-9]+: [0-9]+ \\([0-9]+\\.[0-9]{2}%\\)\n)+");
  for (const std::string key : {"smallset", "set", "hash", "zset"}) {
    for (RawConnection* c : {kv_.get(), redis_conn_.get()}) {
      const std::string reply = c->Call({"DEBUG", "HTSTATS-KEY", key});
      ASSERT_EQ(reply[0], '$') << key << ": " << Escape(reply);
      const std::string text = ReplyText(reply);
      std::smatch m;
      ASSERT_TRUE(std::regex_search(text, m, header)) << key << ": " << text;
      const long size = std::stol(m[1]), elements = std::stol(m[2]), slots = std::stol(m[3]),
                 max_chain = std::stol(m[4]);
      EXPECT_EQ(elements, key == "smallset" ? 1 : 1000) << key;
      EXPECT_GE(size, slots) << key;
      EXPECT_GE(elements, slots) << key;
      EXPECT_GE(max_chain, 1) << key;
      EXPECT_LE(max_chain, elements) << key;
      // A rehash may be under way (in Redis's dicts and kvserver's hash): then its target follows.
      if (text.size() > m.length(0)) {
        EXPECT_EQ(text.substr(m.length(0)).rfind("Hash table 1 stats (rehashing target):\n", 0), 0u)
            << key << ": " << text;
      }
    }
  }
  // RESP3: a verbatim string.
  ASSERT_EQ(kv_->Call({"HELLO", "3"}).substr(0, 3), "%7\r");
  ASSERT_EQ(redis_conn_->Call({"HELLO", "3"}).substr(0, 3), "%7\r");
  for (RawConnection* c : {kv_.get(), redis_conn_.get()}) {
    const std::string reply = c->Call({"DEBUG", "HTSTATS-KEY", "set"});
    EXPECT_EQ(reply[0], '=') << Escape(reply);
    EXPECT_NE(reply.find("\r\ntxt:Hash table 0 stats"), std::string::npos) << Escape(reply);
  }
}

// A shutdown signal while DEBUG PAUSE-CRON holds the cron waits for it: SHUTDOWN ABORT cancels
// it (unit/shutdown "SHUTDOWN ABORT can cancel SIGTERM"), and without one the server stops once
// the cron runs again.
class PauseCronShutdownTest : public ::testing::TestWithParam<ServerStarter> {};

TEST_P(PauseCronShutdownTest, SignalWaitsForTheCron) {
  auto server = GetParam()({"--enable-debug-command", "yes"});
  ASSERT_TRUE(server);
  auto c = RawConnection::Connect(server->port());
  ASSERT_TRUE(c);
  EXPECT_EQ(c->Call({"SHUTDOWN", "ABORT"}), "-ERR No shutdown in progress.\r\n");
  ASSERT_EQ(c->Call({"DEBUG", "PAUSE-CRON", "1"}), "+OK\r\n");
  ASSERT_EQ(::kill(server->pid(), SIGTERM), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_TRUE(server->running());
  EXPECT_EQ(c->Call({"SHUTDOWN", "ABORT"}), "+OK\r\n");
  EXPECT_EQ(c->Call({"SHUTDOWN", "ABORT"}), "-ERR No shutdown in progress.\r\n");
  EXPECT_EQ(c->Call({"DEBUG", "PAUSE-CRON", "0"}), "+OK\r\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(c->Call({"PING"}), "+PONG\r\n");
  EXPECT_NE(server->ReadLog().find("Shutdown manually aborted"), std::string::npos);
  // Not aborted: the cron shuts down once resumed.
  ASSERT_EQ(c->Call({"DEBUG", "PAUSE-CRON", "1"}), "+OK\r\n");
  ASSERT_EQ(::kill(server->pid(), SIGTERM), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(c->Call({"PING"}), "+PONG\r\n");
  // The resumed cron may shut the server down before the reply leaves (Redis writes replies
  // after the loop turn's timers): either is right.
  const std::string resumed = c->Call({"DEBUG", "PAUSE-CRON", "0"});
  EXPECT_TRUE(resumed == "+OK\r\n" || resumed == "<no reply>") << resumed;
  EXPECT_EQ(server->WaitExit(5000), 0);
}

INSTANTIATE_TEST_SUITE_P(BothServers, PauseCronShutdownTest,
                         ::testing::Values(&ServerProcess::StartKvserver,
                                           &ServerProcess::StartRedis),
                         BothServersTestName<::testing::TestParamInfo<ServerStarter>>);

}  // namespace
}  // namespace kv::test
