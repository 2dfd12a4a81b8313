// KVFAULT over the wire with the real binary: off unless enable-fault-injection is on (and CONFIG
// SET cannot turn it on), then every fault kind as a non-C++ test suite would use it.

#include <chrono>
#include <string>

#include "gtest/gtest.h"
#include "tests/integration/raw_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

const std::string kDisabled =
    "-ERR KVFAULT is disabled; start kvserver with 'enable-fault-injection yes' to use it\r\n";

TEST(FaultInjection, RefusedUnlessEnabledAtStartup) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  RawClient c(server->port());
  EXPECT_REPLY(c, "KVFAULT ERROR \"LOADING wait\"\r\n", kDisabled);
  EXPECT_REPLY(c, "KVFAULT DROP\r\n", kDisabled);
  EXPECT_REPLY(c, "KVFAULT CLEAR\r\n", kDisabled);
  // HELP works either way.
  RawClient help(server->port());
  ASSERT_TRUE(help.SendAll("KVFAULT HELP\r\n"));
  EXPECT_EQ(help.Read(std::string_view("*12\r\n+KVFAULT <subcommand>").size()),
            "*12\r\n+KVFAULT <subcommand>");
  EXPECT_REPLY(c, "CONFIG GET enable-fault-injection\r\n",
               "*2\r\n$22\r\nenable-fault-injection\r\n$2\r\nno\r\n");
  EXPECT_REPLY(c, "CONFIG SET enable-fault-injection yes\r\n",
               "-ERR CONFIG SET failed (possibly related to argument 'enable-fault-injection') - "
               "can't set protected config\r\n");
  EXPECT_REPLY(c, "PING\r\n", "+PONG\r\n");
}

class EnabledFaults : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = ServerProcess::StartKvserver({"--enable-fault-injection", "yes"});
    ASSERT_TRUE(server_);
  }
  int port() const { return server_->port(); }
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(EnabledFaults, ErrorForTheNextCommandsNamed) {
  RawClient c(port());
  EXPECT_REPLY(c, "KVFAULT ERROR \"MOVED 3999 127.0.0.1:6381\" COUNT 2 COMMAND get\r\n", "+OK\r\n");
  EXPECT_REPLY(c, "SET k v\r\n", "+OK\r\n");
  EXPECT_REPLY(c, "GET k\r\n", "-MOVED 3999 127.0.0.1:6381\r\n");
  EXPECT_REPLY(c, "GET k\r\n", "-MOVED 3999 127.0.0.1:6381\r\n");
  EXPECT_REPLY(c, "GET k\r\n", "$1\r\nv\r\n");
  // Any command, from any client; the error's own code is kept.
  EXPECT_REPLY(c, "KVFAULT ERROR LOADING\r\n", "+OK\r\n");
  RawClient other(port());
  EXPECT_REPLY(other, "PING\r\n", "-LOADING\r\n");
}

TEST_F(EnabledFaults, DelayHoldsTheReply) {
  RawClient c(port());
  EXPECT_REPLY(c, "KVFAULT DELAY 300\r\n", "+OK\r\n");
  const auto sent = std::chrono::steady_clock::now();
  EXPECT_REPLY(c, "PING\r\n", "+PONG\r\n");
  EXPECT_GE(std::chrono::steady_clock::now() - sent, std::chrono::milliseconds(300));
}

TEST_F(EnabledFaults, DropClosesTheConnection) {
  RawClient c(port());
  EXPECT_REPLY(c, "KVFAULT DROP COMMAND set\r\n", "+OK\r\n");
  ASSERT_TRUE(c.SendAll("PING\r\nSET k v\r\n"));
  bool closed = false;
  EXPECT_EQ(c.ReadUntilClosed(5000, &closed), "+PONG\r\n");
  EXPECT_TRUE(closed);
  RawClient d(port());
  EXPECT_REPLY(d, "EXISTS k\r\n", ":0\r\n");
}

TEST_F(EnabledFaults, ClearDisarmsAndKvfaultItselfIsNeverAffected) {
  RawClient c(port());
  EXPECT_REPLY(c, "KVFAULT ERROR BUSY COUNT 100\r\n", "+OK\r\n");
  EXPECT_REPLY(c, "KVFAULT DROP COUNT 3\r\n", "+OK\r\n");
  EXPECT_REPLY(c, "PING\r\n", "-BUSY\r\n");
  EXPECT_REPLY(c, "KVFAULT CLEAR\r\n", ":2\r\n");
  EXPECT_REPLY(c, "PING\r\n", "+PONG\r\n");
  EXPECT_REPLY(c, "KVFAULT CLEAR\r\n", ":0\r\n");
}

TEST_F(EnabledFaults, BadArguments) {
  RawClient c(port());
  EXPECT_REPLY(c, "KVFAULT DELAY soon\r\n",
               "-ERR delay must be a non-negative integer (milliseconds)\r\n");
  EXPECT_REPLY(c, "KVFAULT ERROR x COUNT 0\r\n", "-ERR COUNT must be a positive integer\r\n");
  EXPECT_REPLY(c, "KVFAULT DROP COUNT\r\n", "-ERR syntax error\r\n");
  EXPECT_REPLY(c, "KVFAULT DROP LATER 1\r\n", "-ERR syntax error\r\n");
  EXPECT_REPLY(c, "KVFAULT ERROR\r\n",
               "-ERR wrong number of arguments for 'kvfault|error' command\r\n");
  EXPECT_REPLY(c, "KVFAULT BREAK\r\n", "-ERR unknown subcommand 'BREAK'. Try KVFAULT HELP.\r\n");
  // Nothing was armed by the failed calls.
  EXPECT_REPLY(c, "KVFAULT CLEAR\r\n", ":0\r\n");
}

}  // namespace
}  // namespace kv::test
