// Differential tests of access control: kvserver and a real redis-server both started with the
// same requirepass get the same requests on fresh connections, and must reply with the same
// bytes (and close the same connections).

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/resp_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

using Args = std::vector<std::string>;

constexpr char kPassword[] = "s3cret";

class AuthDifferentialTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    kvserver_ = ServerProcess::StartKvserver({"--requirepass", kPassword}).release();
    redis_ = ServerProcess::StartRedis({"--requirepass", kPassword}).release();
  }
  static void TearDownTestSuite() {
    delete kvserver_;
    delete redis_;
    kvserver_ = redis_ = nullptr;
  }
  void SetUp() override {
    ASSERT_NE(kvserver_, nullptr);
    ASSERT_NE(redis_, nullptr);
  }

  // Sends the requests on one fresh connection per server and compares the replies; if the last
  // one closes the connection, it must close it on both.
  static void ExpectSame(const std::vector<std::string>& requests) {
    auto kv = RawConnection::Connect(kvserver_->port());
    auto redis = RawConnection::Connect(redis_->port());
    ASSERT_TRUE(kv && redis);
    for (const std::string& request : requests) {
      ASSERT_TRUE(kv->Send(request));
      ASSERT_TRUE(redis->Send(request));
      auto expected = redis->ReadReply();
      auto got = kv->ReadReply();
      ASSERT_TRUE(expected) << "redis gave no reply to " << Escape(request);
      ASSERT_TRUE(got) << "kvserver gave no reply to " << Escape(request)
                       << "; redis: " << Escape(*expected);
      EXPECT_EQ(Escape(*got), Escape(*expected)) << "request " << Escape(request);
    }
    // Whether the last request closed the connection (the earlier ones must not have, or the
    // next reply would have been missing).
    const bool redis_closed = redis->ReadSome(300) == 0;
    const bool kv_closed = kv->ReadSome(300) == 0;
    EXPECT_EQ(kv_closed, redis_closed) << "after " << Escape(requests.back());
  }

  static inline ServerProcess* kvserver_ = nullptr;
  static inline ServerProcess* redis_ = nullptr;
};

TEST_F(AuthDifferentialTest, CommandsBeforeAuthenticating) {
  ExpectSame({EncodeCommand({"GET", "k"}),
              EncodeCommand({"PING"}),
              EncodeCommand({"SET", "k", "v"}),
              EncodeCommand({"CONFIG", "GET", "requirepass"}),
              EncodeCommand({"CLIENT", "ID"}),
              EncodeCommand({"nosuch", "a"}),
              EncodeCommand({"GET"}),
              "PING\r\n",
              EncodeCommand({"HELLO"}),
              EncodeCommand({"HELLO", "3"}),
              EncodeCommand({"HELLO", "3", "AUTH", "default", "wrong"}),
              EncodeCommand({"HELLO", "3", "AUTH", "root", kPassword}),
              EncodeCommand({"HELLO", "4"}),
              EncodeCommand({"AUTH", "wrong"}),
              EncodeCommand({"AUTH", "default", "wrong"}),
              EncodeCommand({"AUTH", "x", kPassword}),
              EncodeCommand({"AUTH", "a", "b", "c"}),
              EncodeCommand({"AUTH"}),
              EncodeCommand({"AUTH", std::string(kPassword) + "x"}),
              EncodeCommand({"GET", "k"}),
              EncodeCommand({"QUIT"})});
}

TEST_F(AuthDifferentialTest, AuthenticatingUnlocksCommands) {
  ExpectSame({EncodeCommand({"AUTH", kPassword}), EncodeCommand({"SET", "k", "v"}),
              EncodeCommand({"GET", "k"}), EncodeCommand({"AUTH", "wrong"}),
              EncodeCommand({"GET", "k"}), EncodeCommand({"AUTH", "default", kPassword}),
              EncodeCommand({"CONFIG", "GET", "requirepass"}), EncodeCommand({"DEL", "k"})});
  ExpectSame({"AUTH " + std::string(kPassword) + "\r\n", "GET k\r\n"});
  ExpectSame({EncodeCommand({"AUTH", "default", kPassword}), EncodeCommand({"PING"})});
}

TEST_F(AuthDifferentialTest, HelloAuthAuthenticates) {
  // HELLO's map holds the server's version and the client id: only its start is compared, then
  // the replies to the commands after it.
  std::vector<std::string> after;
  for (auto* server : {kvserver_, redis_}) {
    auto c = RawConnection::Connect(server->port());
    ASSERT_TRUE(c);
    ASSERT_TRUE(
        c->Send(EncodeCommand({"HELLO", "2", "AUTH", "default", kPassword, "SETNAME", "n"}) +
                EncodeCommand({"CLIENT", "GETNAME"}) + EncodeCommand({"GET", "nokey"})));
    auto hello = c->ReadReply();
    ASSERT_TRUE(hello);
    const std::string start = "*14\r\n$6\r\nserver\r\n$5\r\nredis\r\n$7\r\nversion\r\n";
    EXPECT_EQ(hello->substr(0, start.size()), start) << Escape(*hello);
    const std::string name = c->ReadReply().value_or("<none>");
    after.push_back(name + c->ReadReply().value_or("<none>"));
  }
  EXPECT_EQ(after[0], after[1]);
  EXPECT_EQ(after[0], "$1\r\nn\r\n$-1\r\n");
}

TEST_F(AuthDifferentialTest, PreAuthProtocolLimits) {
  // More than 10 arguments, or a bulk over 16 KB, before authenticating: error, then close.
  ExpectSame({"*11\r\n"});
  ExpectSame({EncodeCommand(Args(10, "x"))});
  ExpectSame({"*2\r\n$4\r\nAUTH\r\n$16385\r\n"});
  ExpectSame({EncodeCommand({"AUTH", std::string(16384, 'p')})});
  // Inline requests have no such limit.
  ExpectSame({"AUTH " + std::string(20000, 'p') + "\r\n"});
  // Once authenticated, the usual limits apply.
  Args many = {"DEL"};
  for (int i = 0; i < 20; ++i) many.push_back("k" + std::to_string(i));
  ExpectSame({EncodeCommand({"AUTH", kPassword}), EncodeCommand(many),
              EncodeCommand({"ECHO", std::string(100000, 'e')})});
}

TEST_F(AuthDifferentialTest, ConfigSetRequirepassAtRunTime) {
  // The connection that changes the password stays authenticated; new ones need the new one.
  for (auto* server : {kvserver_, redis_}) {
    auto admin = RawConnection::Connect(server->port());
    ASSERT_TRUE(admin);
    ASSERT_TRUE(admin->Send(EncodeCommand({"AUTH", kPassword}) +
                            EncodeCommand({"CONFIG", "SET", "requirepass", "new"})));
    EXPECT_EQ(admin->ReadReply(), "+OK\r\n");
    EXPECT_EQ(admin->ReadReply(), "+OK\r\n");
  }
  ExpectSame({EncodeCommand({"PING"}), EncodeCommand({"AUTH", kPassword}),
              EncodeCommand({"AUTH", "new"}), EncodeCommand({"CONFIG", "GET", "requirepass"}),
              EncodeCommand({"CONFIG", "SET", "requirepass", kPassword}), EncodeCommand({"PING"})});
}

}  // namespace
}  // namespace kv::test
