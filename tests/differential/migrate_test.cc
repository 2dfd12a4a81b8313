// MIGRATE against real redis-server 7.0.15, in every direction: kvserver -> kvserver,
// kvserver -> Redis, Redis -> kvserver, each compared with Redis -> Redis. The same commands run
// on a kvserver and a Redis source migrating to a kvserver and a Redis target; the replies, what
// the target holds and what is left at the source must be the same as Redis -> Redis.

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/differential/persistence_histories.h"
#include "tests/support/persistence_files.h"
#include "tests/support/resp_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

struct Instance {
  ServerProcess* process;
  bool is_kv;
};

class MigrateTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::vector<std::string> args = {"--enable-debug-command", "yes",
                                           "--notify-keyspace-events", "KEA"};
    kv_source_ = ServerProcess::StartKvserver(args).release();
    kv_target_ = ServerProcess::StartKvserver(args).release();
    redis_source_ = ServerProcess::StartRedis(args).release();
    redis_target_ = ServerProcess::StartRedis(args).release();
  }
  static void TearDownTestSuite() {
    for (ServerProcess* p : {kv_source_, kv_target_, redis_source_, redis_target_}) delete p;
  }
  void SetUp() override {
    for (ServerProcess* p : {kv_source_, kv_target_, redis_source_, redis_target_}) {
      ASSERT_NE(p, nullptr);
    }
  }

  // One direction: a source and a target, with a connection to each.
  struct Pair {
    std::string name;
    std::unique_ptr<RawConnection> src, dst;
    int src_port, dst_port;
  };

  // Runs `scenario` for every direction (Redis -> Redis first, the reference) and expects each
  // one's transcript to be Redis's.
  template <typename Fn>
  void ForEachDirection(Fn scenario) {
    const struct {
      const char* name;
      ServerProcess *src, *dst;
    } directions[] = {{"redis->redis", redis_source_, redis_target_},
                      {"kvserver->kvserver", kv_source_, kv_target_},
                      {"kvserver->redis", kv_source_, redis_target_},
                      {"redis->kvserver", redis_source_, kv_target_}};
    std::string reference;
    for (const auto& d : directions) {
      SCOPED_TRACE(d.name);
      Pair p{d.name, RawConnection::Connect(d.src->port()), RawConnection::Connect(d.dst->port()),
             d.src->port(), d.dst->port()};
      ASSERT_TRUE(p.src && p.dst);
      p.src->Call({"flushall"});
      p.dst->Call({"flushall"});
      std::string transcript;
      scenario(p, transcript);
      if (reference.empty()) {
        reference = transcript;
      } else {
        EXPECT_EQ(transcript, reference);
      }
    }
  }

  static std::vector<std::string> Migrate(const Pair& p, std::vector<std::string> tail) {
    std::vector<std::string> cmd = {"migrate", "127.0.0.1", std::to_string(p.dst_port)};
    cmd.insert(cmd.end(), tail.begin(), tail.end());
    return cmd;
  }

  static inline ServerProcess* kv_source_ = nullptr;
  static inline ServerProcess* kv_target_ = nullptr;
  static inline ServerProcess* redis_source_ = nullptr;
  static inline ServerProcess* redis_target_ = nullptr;
};

TEST_F(MigrateTest, EveryTypeAndEncoding) {
  for (const History& history : Histories()) {
    SCOPED_TRACE(history.name);
    ForEachDirection([&](Pair& p, std::string& t) {
      for (const Args& cmd : history.setup) p.src->Call(cmd);
      const std::string before = Contents(*p.src, "k");
      t += p.src->Call(Migrate(p, {"k", "0", "5000"}));
      EXPECT_EQ(Contents(*p.dst, "k"), before);
      t += p.dst->Call({"object", "encoding", "k"});
      t += p.src->Call({"exists", "k"});
    });
  }
}

TEST_F(MigrateTest, CopyReplaceAndBusyKey) {
  ForEachDirection([&](Pair& p, std::string& t) {
    p.src->Call({"rpush", "list", "a", "b", "c"});
    p.dst->Call({"set", "list", "old"});
    t += p.src->Call(Migrate(p, {"list", "0", "5000"}));  // BUSYKEY from the target
    t += p.src->Call({"exists", "list"}) + Contents(*p.dst, "list");
    t += p.src->Call(Migrate(p, {"list", "0", "5000", "copy"}));
    t += p.src->Call(Migrate(p, {"list", "0", "5000", "COPY", "REPLACE"}));
    t += p.src->Call({"exists", "list"}) + Contents(*p.dst, "list");
    p.src->Call({"rpush", "list", "d"});
    t += p.src->Call(Migrate(p, {"list", "0", "5000", "replace"}));
    t += p.src->Call({"exists", "list"}) + Contents(*p.dst, "list");
  });
}

TEST_F(MigrateTest, KeysOptionMovesOnlyWhatExistsAndWhatTheTargetAccepts) {
  ForEachDirection([&](Pair& p, std::string& t) {
    t += p.src->Call(Migrate(p, {"", "0", "5000", "keys", "nokey-1", "nokey-2"}));
    p.src->Call({"mset", "a", "1", "b", "2", "c", "3", "d", "4", "e", "5"});
    p.dst->Call({"mset", "c", "_", "d", "_"});  // two busy keys, no REPLACE
    t += p.src->Call(Migrate(p, {"", "0", "5000", "keys", "a", "nokey", "b", "c", "d", "e"}));
    t += p.src->Call({"dbsize"}) + p.dst->Call({"dbsize"});
    t += p.src->Call({"mget", "a", "b", "c", "d", "e"});
    t += p.dst->Call({"mget", "a", "b", "c", "d", "e"});
    t += p.src->Call(Migrate(p, {"", "0", "5000", "replace", "keys", "c", "d"}));
    t += p.dst->Call({"mget", "c", "d"}) + p.src->Call({"dbsize"});
  });
}

TEST_F(MigrateTest, DestinationDatabaseAndTtl) {
  ForEachDirection([&](Pair& p, std::string& t) {
    p.src->Call({"mset", "x", "1", "y", "2", "z", "3"});
    p.src->Call({"pexpire", "y", "100000"});
    t += p.src->Call(Migrate(p, {"x", "5", "5000"}));
    t += p.src->Call(Migrate(p, {"y", "0", "5000"}));
    t += p.src->Call(Migrate(p, {"z", "5", "5000"}));
    t += p.dst->Call({"keys", "*"});
    p.dst->Call({"select", "5"});
    t += p.dst->Call({"mget", "x", "z"});
    p.dst->Call({"select", "0"});
    const std::string pttl = p.dst->Call({"pttl", "y"});
    const long ms = std::stol(pttl.substr(1));
    EXPECT_GT(ms, 90000) << pttl;
    EXPECT_LE(ms, 100000) << pttl;
    t += p.dst->Call({"ttl", "x"});
    // A database the target does not have: its SELECT error is the reply.
    p.src->Call({"set", "w", "1"});
    t += p.src->Call(Migrate(p, {"w", "99", "5000"}));
    t += p.src->Call(Migrate(p, {"w", "-1", "5000"}));
    t += p.src->Call({"exists", "w"});
  });
}

TEST_F(MigrateTest, AuthAndAuth2AgainstARequirepassTarget) {
  ForEachDirection([&](Pair& p, std::string& t) {
    p.src->Call({"rpush", "list", "a", "b"});
    // MIGRATE's cached connection (if any) goes: the next one must authenticate.
    p.dst->Call({"client", "kill", "type", "normal", "skipme", "yes"});
    p.dst->Call({"config", "set", "requirepass", "foobar"});
    p.dst->Call({"auth", "foobar"});
    t += p.src->Call(Migrate(p, {"list", "0", "5000"}));  // NOAUTH
    t += p.src->Call(Migrate(p, {"list", "0", "5000", "AUTH", "wrong"}));
    t += p.src->Call({"exists", "list"});
    t += p.src->Call(Migrate(p, {"list", "0", "5000", "AUTH", "foobar"}));
    t += p.dst->Call({"lrange", "list", "0", "-1"});
    p.src->Call({"set", "s", "v"});
    t += p.src->Call(Migrate(p, {"s", "0", "5000", "AUTH2", "default", "nope"}));
    t += p.src->Call(Migrate(p, {"s", "0", "5000", "AUTH2", "default", "foobar"}));
    t += p.dst->Call({"get", "s"});
    p.dst->Call({"config", "set", "requirepass", ""});
  });
}

TEST_F(MigrateTest, ArgumentErrors) {
  ForEachDirection([&](Pair& p, std::string& t) {
    p.src->Call({"set", "k", "v"});
    for (const std::vector<std::string>& tail : std::vector<std::vector<std::string>>{
             {"k", "0", "5000", "keys", "a"},
             {"", "0", "5000", "keys"},
             {"k", "0", "5000", "auth"},
             {"k", "0", "5000", "auth2", "user"},
             {"k", "0", "5000", "bogus"},
             {"k", "zero", "5000"},
             {"k", "0", "soon"},
             {"k", "0", "5000", "copy", "auth"},
             {"k"},
             {"", "0", "5000"},
         }) {
      t += p.src->Call(Migrate(p, tail));
    }
    t += p.src->Call({"exists", "k"});
  });
}

// What MIGRATE sends in cluster mode: outside a cluster it is RESTORE.
TEST_F(MigrateTest, RestoreAskingIsRestore) {
  ForEachDirection([&](Pair& p, std::string& t) {
    p.src->Call({"rpush", "l", "a", "b"});
    const std::string dump = p.src->Call({"dump", "l"});
    const std::string payload =
        dump.substr(dump.find("\r\n") + 2, dump.size() - dump.find("\r\n") - 4);
    t += p.dst->Call({"restore-asking", "l", "0", payload});
    t += p.dst->Call({"restore-asking", "l", "0", payload});
    t += p.dst->Call({"restore-asking", "l", "0", payload, "replace", "absttl"});
    t += p.dst->Call({"restore-asking", "l", "0", "bad"});
    t += p.dst->Call({"lrange", "l", "0", "-1"});
  });
}

// A loopback port nothing listens on.
int ClosedPort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a));
  socklen_t len = sizeof(a);
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  close(fd);
  return ntohs(a.sin_port);
}

TEST_F(MigrateTest, UnreachableTargetAndTimeout) {
  ForEachDirection([&](Pair& p, std::string& t) {
    p.src->Call({"set", "k", "v"});
    t += p.src->Call({"migrate", "127.0.0.1", std::to_string(ClosedPort()), "k", "0", "1000"});
    // A name the resolver refuses without asking a DNS server (tests send nothing off the host).
    t += p.src->Call({"migrate", "no such host", "6379", "k", "0", "1000"});
    t += p.src->Call({"exists", "k"});
    // A target that does not answer in time (DEBUG SLEEP): a timeout, not retried.
    auto sleeper = RawConnection::Connect(p.dst_port);
    ASSERT_TRUE(sleeper);
    sleeper->Send(EncodeCommand({"debug", "sleep", "1"}));
    usleep(100000);
    t += p.src->Call(Migrate(p, {"k", "0", "300"}));
    t += p.src->Call({"exists", "k"});
    sleeper->ReadReply();
    // The timed-out connection was dropped; the next MIGRATE connects again.
    // (The target may have run the dropped connection's RESTORE after its sleep.)
    t += p.src->Call(Migrate(p, {"k", "0", "1000", "replace"}));
    t += p.dst->Call({"get", "k"});
  });
}

TEST_F(MigrateTest, TargetClosingTheCachedConnectionIsRetried) {
  ForEachDirection([&](Pair& p, std::string& t) {
    p.src->Call({"mset", "a", "1", "b", "2"});
    t += p.src->Call(Migrate(p, {"a", "0", "1000"}));
    // The target kills MIGRATE's connection (the only other client): the next MIGRATE finds
    // its cached connection dead and connects again.
    p.dst->Call({"client", "kill", "type", "normal", "skipme", "yes"});
    usleep(50000);
    t += p.src->Call(Migrate(p, {"b", "0", "1000"}));
    t += p.dst->Call({"mget", "a", "b"});
  });
}

TEST_F(MigrateTest, CachedSocketInInfoAndDelEventsAtTheSource) {
  ForEachDirection([&](Pair& p, std::string& t) {
    auto sub = RawConnection::Connect(p.src_port);
    ASSERT_TRUE(sub);
    t += sub->Call({"subscribe", "__keyevent@0__:del"});
    p.src->Call({"mset", "k", "v", "j", "w"});
    t += p.src->Call(Migrate(p, {"", "0", "1000", "keys", "j", "k"}));
    t += sub->ReadReply().value_or("<none>");
    t += sub->ReadReply().value_or("<none>");
    const std::string info = p.src->Call({"info", "stats"});
    EXPECT_NE(info.find("migrate_cached_sockets:"), std::string::npos) << info;
    EXPECT_EQ(info.find("migrate_cached_sockets:0\r\n"), std::string::npos) << info;
  });
}

// The server's cron closes connections idle for more than 10 seconds (Redis checks once a second
// that more than 10 whole seconds passed: 11 to 12 seconds).
TEST_F(MigrateTest, CachedConnectionsCloseAfterTenIdleSeconds) {
  std::vector<std::unique_ptr<RawConnection>> sources;
  for (ServerProcess* s : {kv_source_, redis_source_}) {
    sources.push_back(RawConnection::Connect(s->port()));
    ASSERT_TRUE(sources.back());
    sources.back()->Call({"set", "idle", "v"});
    EXPECT_EQ(sources.back()->Call({"migrate", "127.0.0.1", std::to_string(kv_target_->port()),
                                    "idle", "0", "1000", "replace"}),
              "+OK\r\n");
    EXPECT_EQ(sources.back()->Call({"info", "stats"}).find("migrate_cached_sockets:0\r\n"),
              std::string::npos);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(12500));
  for (auto& c : sources) {
    EXPECT_NE(c->Call({"info", "stats"}).find("migrate_cached_sockets:0\r\n"), std::string::npos);
  }
}

// What a source with appendonly yes logs for MIGRATE: a DEL of the keys the target acknowledged
// (nothing for COPY, nor when no key moved).
std::string IncrFileAfterMigrations(bool redis, int target_port) {
  const std::string dir = MakeTempDir();
  const std::vector<std::string> args = {"--appendonly", "yes", "--dir", dir};
  auto server = redis ? ServerProcess::StartRedis(args) : ServerProcess::StartKvserver(args);
  if (!server) return "did not start";
  {
    auto c = RawConnection::Connect(server->port());
    auto target = RawConnection::Connect(target_port);
    target->Call({"flushall"});
    target->Call({"set", "busy", "x"});
    const std::string port = std::to_string(target_port);
    c->Call({"mset", "a", "1", "b", "2", "c", "3", "busy", "4"});
    c->Call({"migrate", "127.0.0.1", port, "", "0", "1000", "keys", "a", "busy", "b"});
    c->Call({"migrate", "127.0.0.1", port, "c", "0", "1000", "copy"});
    c->Call({"migrate", "127.0.0.1", port, "busy", "0", "1000"});
    c->Call({"migrate", "127.0.0.1", port, "nokey", "0", "1000"});
    c->Call({"select", "2"});
    c->Call({"set", "d", "5"});
    c->Call({"migrate", "127.0.0.1", port, "d", "3", "1000"});
    // Inside a transaction and a script, with other writes around it.
    c->Call({"mset", "e", "6", "f", "7"});
    c->Call({"multi"});
    c->Call({"incr", "e"});
    c->Call({"migrate", "127.0.0.1", port, "e", "0", "1000", "replace"});
    c->Call({"exec"});
    c->Call({"eval",
             "redis.call('incr', KEYS[1]); return redis.call('migrate', ARGV[1], ARGV[2], "
             "KEYS[1], '0', '1000', 'replace')",
             "1", "f", "127.0.0.1", port});
  }
  server->Stop();
  return ReadFile(dir + "/appendonlydir/appendonly.aof.1.incr.aof");
}

TEST_F(MigrateTest, SourceDeletionsArePropagatedAsDel) {
  const std::string from_redis = IncrFileAfterMigrations(true, kv_target_->port());
  EXPECT_NE(from_redis.find("DEL"), std::string::npos) << Escape(from_redis);
  EXPECT_NE(from_redis.find("MULTI"), std::string::npos) << Escape(from_redis);
  EXPECT_EQ(IncrFileAfterMigrations(false, kv_target_->port()), from_redis);
}

}  // namespace
}  // namespace kv::test
