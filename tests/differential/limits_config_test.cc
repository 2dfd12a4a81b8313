// Differential tests of the hostile-client directives: client-output-buffer-limit (its CONFIG
// SET syntax and errors, and CONFIG GET's format), requirepass and protected-mode. The default
// for normal clients differs on purpose (kvserver has a 1 GB hard limit, Redis none), so the
// comparison starts after both are set alike.

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/resp_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

using Args = std::vector<std::string>;

class LimitsConfigTest : public BothServersTest<LimitsConfigTest> {
 protected:
  void ExpectSame(const std::vector<Args>& commands) {
    auto kv = RawConnection::Connect(kvserver_->port());
    auto redis = RawConnection::Connect(redis_->port());
    ASSERT_TRUE(kv && redis);
    for (const Args& args : commands) {
      ASSERT_TRUE(kv->Send(EncodeCommand(args)));
      ASSERT_TRUE(redis->Send(EncodeCommand(args)));
      auto expected = redis->ReadReply();
      auto got = kv->ReadReply();
      ASSERT_TRUE(expected) << "redis gave no reply to " << Escape(EncodeCommand(args));
      ASSERT_TRUE(got) << "kvserver gave no reply to " << Escape(EncodeCommand(args)) << ": "
                       << Escape(kv->pending());
      EXPECT_EQ(Escape(*got), Escape(*expected)) << Escape(EncodeCommand(args));
    }
  }
};

TEST_F(LimitsConfigTest, ClientOutputBufferLimit) {
  const Args get = {"CONFIG", "GET", "client-output-buffer-limit"};
  auto set = [](const std::string& value) {
    return Args{"CONFIG", "SET", "client-output-buffer-limit", value};
  };
  ExpectSame({set("normal 0 0 0"),
              get,
              set("normal 1mb 2mb 3"),
              get,
              set("replica 1gb 512mb 120 pubsub 64mb 16MB 30"),
              get,
              set("SLAVE 1 2 3 Normal 4 5 6"),
              get,
              set("normal 1mb 2mb"),
              set("master 1 1 1"),
              set("nobody 1 1 1"),
              set("normal x 1 1"),
              set("normal 1 -1 1"),
              set("normal 1 1 -1"),
              set("normal 1 1 1x"),
              set("normal 5 5 5 pubsub 1 1 bad"),
              get,
              set(""),
              get,
              {"CONFIG", "SET", "client-output-buffer-limit", "normal 0 0 0", "maxclients", "100"},
              {"CONFIG", "GET", "client-output-buffer*"},
              set("normal 0 0 0 replica 256mb 64mb 60 pubsub 32mb 8mb 60"),
              get});
}

TEST_F(LimitsConfigTest, TinyHardLimitCountsLikeRedis) {
  // Redis does not count a client's first 16 KB of replies: with a 100-byte hard limit small
  // replies still arrive, and a 20 KB one closes the connection without a reply, on both.
  for (auto* server : {kvserver_, redis_}) {
    auto c = RawConnection::Connect(server->port());
    ASSERT_TRUE(c);
    ASSERT_TRUE(
        c->Send(EncodeCommand({"CONFIG", "SET", "client-output-buffer-limit", "normal 100 0 0"})));
    EXPECT_EQ(c->ReadReply(), "+OK\r\n");
    ASSERT_TRUE(c->Send(EncodeCommand({"ECHO", std::string(16000, 'e')})));
    EXPECT_EQ(c->ReadReply().value_or("").size(), 16000u + 10);
    ASSERT_TRUE(c->Send(EncodeCommand({"ECHO", std::string(20000, 'e')})));
    EXPECT_EQ(c->ReadSome(2000), 0) << "the connection stays open";
    EXPECT_EQ(c->pending(), "");
    auto admin = RawConnection::Connect(server->port());
    ASSERT_TRUE(admin);
    ASSERT_TRUE(admin->Send(
        EncodeCommand({"CONFIG", "SET", "client-output-buffer-limit", "normal 0 0 0"})));
    EXPECT_EQ(admin->ReadReply(), "+OK\r\n");
  }
}

TEST_F(LimitsConfigTest, RequirepassAndProtectedMode) {
  ExpectSame({{"CONFIG", "GET", "requirepass"},
              {"CONFIG", "GET", "protected-mode"},
              {"CONFIG", "SET", "protected-mode", "maybe"},
              {"CONFIG", "SET", "protected-mode", "NO"},
              {"CONFIG", "GET", "protected-mode"},
              {"CONFIG", "SET", "protected-mode", "yes"},
              {"CONFIG", "SET", "requirepass", "pw"},
              {"CONFIG", "GET", "requirepass"},
              {"AUTH", "pw"},
              {"CONFIG", "SET", "requirepass", ""},
              {"CONFIG", "GET", "requirepass"},
              {"AUTH", "pw"}});
}

}  // namespace
}  // namespace kv::test
