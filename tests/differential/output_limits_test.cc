// Clients' output buffers, on kvserver and on redis-server 7.0.15, each started for the test: the
// same steps must hold for both (Redis's unit/obuf-limits and unit/maxmemory check the same). A
// subscriber that does not read shows its pending output in CLIENT LIST's omem until the hard
// limit drops it; a reply whose count a client chose (HRANDFIELD -999999999) stops at the limit
// and the client is closed without any of it; and the invalidations that evicted keys send to
// tracking clients do not make eviction go on until the database is empty.

#include <chrono>
#include <fstream>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/resp_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

class OutputLimits : public ::testing::TestWithParam<ServerStarter> {};

// The value of `name` in an INFO reply, -1 when absent.
long long InfoNumber(const std::string& info, const std::string& name) {
  const size_t at = info.find("\n" + name + ":");
  return at == std::string::npos ? -1 : std::stoll(info.substr(at + name.size() + 2));
}

// omem of the client named `name` in CLIENT LIST, -1 when it is not listed.
long long OutputMemory(RawConnection& c, const std::string& name) {
  const std::string list = c.Call({"CLIENT", "LIST"});
  std::smatch m;
  if (!std::regex_search(list, m, std::regex("name=" + name + " .* omem=([0-9]+)"))) return -1;
  return std::stoll(m[1]);
}

TEST_P(OutputLimits, SubscriberThatDoesNotReadShowsItsOutputUntilDropped) {
  auto server = GetParam()({});
  ASSERT_TRUE(server);
  auto c = RawConnection::Connect(server->port());
  auto sub = RawConnection::Connect(server->port());
  ASSERT_TRUE(c && sub);
  ASSERT_EQ(c->Call({"CONFIG", "SET", "client-output-buffer-limit", "pubsub 100000 0 0"}),
            "+OK\r\n");
  ASSERT_EQ(sub->Call({"CLIENT", "SETNAME", "sub"}), "+OK\r\n");
  ASSERT_NE(sub->Call({"SUBSCRIBE", "foo"}), "<no reply>");
  // The socket's buffers fill first; then the output waits in the server and shows as omem.
  const std::string message(1000, 'x');
  long long last = 0, omem = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while ((omem = OutputMemory(*c, "sub")) >= 0 && std::chrono::steady_clock::now() < deadline) {
    last = omem;
    for (int i = 0; i < 5; ++i) c->Call({"PUBLISH", "foo", message});
  }
  EXPECT_EQ(omem, -1) << "the subscriber was never dropped";
  EXPECT_GE(last, 70000);
  EXPECT_LT(last, 200000);
}

TEST_P(OutputLimits, HugeRandomCountStopsAtTheLimitWithoutReplying) {
  auto server = GetParam()({});
  ASSERT_TRUE(server);
  auto c = RawConnection::Connect(server->port());
  ASSERT_TRUE(c);
  ASSERT_EQ(c->Call({"CONFIG", "SET", "client-output-buffer-limit", "normal 1000000 0 0"}),
            "+OK\r\n");
  ASSERT_EQ(c->Call({"HSET", "myhash", "a", "b"}), ":1\r\n");
  ASSERT_EQ(c->Call({"SADD", "myset", "a"}), ":1\r\n");
  ASSERT_EQ(c->Call({"ZADD", "myzset", "1", "a"}), ":1\r\n");
  for (const std::vector<std::string>& command :
       std::vector<std::vector<std::string>>{{"HRANDFIELD", "myhash", "-999999999"},
                                             {"HRANDFIELD", "myhash", "-999999999", "WITHVALUES"},
                                             {"SRANDMEMBER", "myset", "-999999999"},
                                             {"ZRANDMEMBER", "myzset", "-999999999"}}) {
    auto victim = RawConnection::Connect(server->port());
    ASSERT_TRUE(victim);
    ASSERT_TRUE(victim->Send(EncodeCommand(command)));
    long n = 0;
    while ((n = victim->ReadSome(10000)) > 0) {
    }
    EXPECT_EQ(n, 0) << "not closed: " << command[0];
    EXPECT_EQ(victim->pending().size(), 0u) << command[0] << " sent part of its reply";
  }
  EXPECT_EQ(c->Call({"PING"}), "+PONG\r\n");
}

// Sends `command` on a new connection and reads until the server closes it or 10 s pass with
// nothing; returns what arrived, or "<not closed>" when the connection stayed open.
std::string ReplyUntilClosed(int port, const std::vector<std::string>& command) {
  auto c = RawConnection::Connect(port);
  if (!c || !c->Send(EncodeCommand(command))) return "<no connection>";
  long n = 0;
  while ((n = c->ReadSome(10000)) > 0) {
  }
  return n == 0 ? c->TakePending() : "<not closed>";
}

// The server's peak resident memory (VmHWM), in kB.
long PeakResidentKb(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

TEST_P(OutputLimits, KeysStopsMidRunOverTheLimit) {
  // Redis's unit/obuf-limits "Obuf limit, KEYS stopped mid-run": a KEYS reply of about 110 KB to
  // a client limited to 100000 bytes. Redis counts all of it (it is built after a deferred
  // length), so the client is closed without a reply.
  auto server = GetParam()({});
  ASSERT_TRUE(server);
  auto c = RawConnection::Connect(server->port());
  ASSERT_TRUE(c);
  const std::string prefix = "long-key-name-prefix-of-100-chars" + std::string(67, '-');
  std::vector<std::string> mset = {"MSET"};
  for (int j = 0; j < 1000; ++j) {
    mset.push_back(prefix + std::to_string(j));
    mset.push_back("AAA");
  }
  ASSERT_EQ(c->Call(mset), "+OK\r\n");
  ASSERT_EQ(c->Call({"CONFIG", "SET", "client-output-buffer-limit", "normal 100000 0 0"}),
            "+OK\r\n");
  EXPECT_EQ(ReplyUntilClosed(server->port(), {"KEYS", "*"}), "");
  // The same reply fits a 150000-byte limit, and a soft limit only starts its clock.
  for (const char* limit : {"normal 150000 0 0", "normal 0 100000 60"}) {
    ASSERT_EQ(c->Call({"CONFIG", "SET", "client-output-buffer-limit", limit}), "+OK\r\n");
    auto d = RawConnection::Connect(server->port());
    ASSERT_TRUE(d);
    ASSERT_TRUE(d->Send(EncodeCommand({"KEYS", "*"})));
    const std::optional<std::string> reply = d->ReadReply();
    ASSERT_TRUE(reply) << limit;
    EXPECT_EQ(reply->substr(0, 7), "*1000\r\n") << limit;
    EXPECT_GT(reply->size(), 100000u) << limit;
    EXPECT_EQ(d->Call({"PING"}), "+PONG\r\n") << limit;
  }
  // SMEMBERS is built the same way in Redis: 1000 members of 110 bytes pass 100000 bytes.
  std::vector<std::string> sadd = {"SADD", "myset"};
  for (int j = 0; j < 1000; ++j) sadd.push_back(prefix + std::to_string(j));
  ASSERT_EQ(c->Call(sadd), ":1000\r\n");
  ASSERT_EQ(c->Call({"CONFIG", "SET", "client-output-buffer-limit", "normal 100000 0 0"}),
            "+OK\r\n");
  EXPECT_EQ(ReplyUntilClosed(server->port(), {"SMEMBERS", "myset"}), "");
  EXPECT_EQ(c->Call({"PING"}), "+PONG\r\n");
}

TEST_P(OutputLimits, BigRepliesStopAtTheLimitWithoutBeingBuilt) {
  // Replies of about 16 MB to a client limited to 1 MB: each client is closed without a byte of
  // its reply, and the server never holds the whole reply (its peak resident memory does not
  // grow by anything like one reply).
  auto server = GetParam()({});
  ASSERT_TRUE(server);
  auto c = RawConnection::Connect(server->port());
  ASSERT_TRUE(c);
  constexpr int kElements = 80000;
  constexpr int kBatch = 1000;
  const std::string pad(180, 'v');
  for (int from = 0; from < kElements; from += kBatch) {
    std::vector<std::string> rpush = {"RPUSH", "mylist"}, hset = {"HSET", "myhash"},
                             sadd = {"SADD", "myset"}, zadd = {"ZADD", "myzset"};
    for (int j = from; j < from + kBatch; ++j) {
      const std::string element = pad + std::to_string(j);
      rpush.push_back(element);
      hset.push_back(element);
      hset.push_back("x");
      sadd.push_back(element);
      zadd.push_back(std::to_string(j));
      zadd.push_back(element);
    }
    for (const auto* command : {&rpush, &hset, &sadd, &zadd}) {
      const std::string reply = c->Call(*command);
      ASSERT_EQ(reply[0], ':') << (*command)[0] << ": " << reply;
    }
  }
  ASSERT_EQ(c->Call({"CONFIG", "SET", "client-output-buffer-limit", "normal 1000000 0 0"}),
            "+OK\r\n");
  const long peak_before = PeakResidentKb(server->pid());
  ASSERT_GT(peak_before, 0);
  for (const std::vector<std::string>& command :
       std::vector<std::vector<std::string>>{{"LRANGE", "mylist", "0", "-1"},
                                             {"HGETALL", "myhash"},
                                             {"SMEMBERS", "myset"},
                                             {"ZRANGE", "myzset", "0", "-1", "WITHSCORES"}}) {
    EXPECT_EQ(ReplyUntilClosed(server->port(), command), "") << command[0];
  }
  const long peak_after = PeakResidentKb(server->pid());
#ifndef KV_SANITIZED  // the sanitizers' allocator keeps freed memory in quarantine
  EXPECT_LT(peak_after - peak_before, 8 * 1024) << "kB";
#endif
  EXPECT_EQ(c->Call({"PING"}), "+PONG\r\n");
}

TEST_P(OutputLimits, TrackingInvalidationsDoNotFeedEviction) {
  auto server = GetParam()({});
  ASSERT_TRUE(server);
  auto c = RawConnection::Connect(server->port());
  ASSERT_TRUE(c);
  for (const std::vector<std::string>& setting :
       std::vector<std::vector<std::string>>{{"latency-tracking", "no"},
                                             {"maxmemory", "0"},
                                             {"maxmemory-policy", "allkeys-lru"},
                                             {"maxmemory-eviction-tenacity", "100"}}) {
    ASSERT_EQ(c->Call({"CONFIG", "SET", setting[0], setting[1]}), "+OK\r\n") << setting[0];
  }
  // Ten RESP3 clients track 300 keys with 1 KB names, then read nothing more.
  std::vector<std::unique_ptr<RawConnection>> trackers;
  for (int i = 0; i < 10; ++i) {
    trackers.push_back(RawConnection::Connect(server->port()));
    ASSERT_TRUE(trackers.back());
    ASSERT_NE(trackers.back()->Call({"HELLO", "3"}), "<no reply>");
    ASSERT_EQ(trackers.back()->Call({"CLIENT", "TRACKING", "on"}), "+OK\r\n");
  }
  for (int j = 0; j < 300; ++j) {
    const std::string key = std::to_string(j) + std::string(1000, 'x');
    ASSERT_EQ(c->Call({"SET", key, "x"}), "+OK\r\n");
    for (auto& t : trackers) ASSERT_EQ(t->Call({"GET", key}), "$1\r\nx\r\n");
  }
  // As the Tcl test: the input buffers' excess goes with the cron first.
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  const long long used = InfoNumber(c->Call({"INFO", "memory"}), "used_memory");
  ASSERT_GT(used, 0);
  ASSERT_EQ(c->Call({"CONFIG", "SET", "maxmemory", std::to_string(used - 40000)}), "+OK\r\n");
  const long long evicted = InfoNumber(c->Call({"INFO", "stats"}), "evicted_keys");
  const std::string dbsize = c->Call({"DBSIZE"});
  const long long keys = std::stoll(dbsize.substr(1));
  EXPECT_GE(keys, 200) << "eviction emptied the database";
  EXPECT_LE(keys, 300);
  EXPECT_GE(evicted, 10);
  EXPECT_LE(evicted, 50);
  c->Call({"CONFIG", "SET", "maxmemory", "0"});
}

INSTANTIATE_TEST_SUITE_P(BothServers, OutputLimits,
                         ::testing::Values(&ServerProcess::StartKvserver,
                                           &ServerProcess::StartRedis),
                         BothServersTestName<::testing::TestParamInfo<ServerStarter>>);

}  // namespace
}  // namespace kv::test
