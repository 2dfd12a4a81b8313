// Fault injection through the embedding API: error replies, delayed replies, dropped
// connections, for all commands or one, once or several times.

#include <chrono>
#include <string>

#include "gtest/gtest.h"
#include "kvserver/gtest.h"
#include "tests/integration/raw_client.h"

namespace kv::test {
namespace {

using kvserver::Fault;
using Clock = std::chrono::steady_clock;

class FaultApiTest : public kvserver::testing::ServerTest {};

class FaultErrorTest : public FaultApiTest, public ::testing::WithParamInterface<std::string> {};

TEST_P(FaultErrorTest, TheNextCommandRepliesTheErrorWithoutRunning) {
  RawClient c(port());
  InjectFault(Fault::Error(GetParam()));
  EXPECT_REPLY(c, "SET k v\r\n", "-" + GetParam() + "\r\n");
  EXPECT_EQ(server().KeyCount(), 0u);
  // Once only, by default.
  EXPECT_REPLY(c, "SET k v\r\n", "+OK\r\n");
}

INSTANTIATE_TEST_SUITE_P(
    Errors, FaultErrorTest,
    ::testing::Values("LOADING Redis is loading the dataset in memory",
                      "BUSY Redis is busy running a script. You can only call SCRIPT KILL or "
                      "SHUTDOWN NOSAVE.",
                      "TRYAGAIN Multiple keys request during rehashing of slot",
                      "MOVED 3999 127.0.0.1:6381"));

TEST_F(FaultApiTest, ALeadingDashIsOptional) {
  RawClient c(port());
  InjectFault(Fault::Error("-ASK 3999 127.0.0.1:6381"));
  EXPECT_REPLY(c, "GET k\r\n", "-ASK 3999 127.0.0.1:6381\r\n");
}

TEST_F(FaultApiTest, TimesAndOnlyForSelectCommands) {
  RawClient c(port());
  InjectFault(
      Fault::Error("LOADING Redis is loading the dataset in memory").Times(2).OnlyFor("GET"));
  EXPECT_REPLY(c, "SET k v\r\n", "+OK\r\n");
  EXPECT_REPLY(c, "get k\r\n", "-LOADING Redis is loading the dataset in memory\r\n");
  EXPECT_REPLY(c, "PING\r\n", "+PONG\r\n");
  EXPECT_REPLY(c, "GET k\r\n", "-LOADING Redis is loading the dataset in memory\r\n");
  EXPECT_REPLY(c, "GET k\r\n", "$1\r\nv\r\n");
}

TEST_F(FaultApiTest, FaultsApplyInOrderAndClearFaultsDisarmsThem) {
  RawClient c(port());
  InjectFault(Fault::Error("BUSY first"));
  InjectFault(Fault::Error("BUSY second").Times(5));
  EXPECT_REPLY(c, "PING\r\n", "-BUSY first\r\n");
  EXPECT_REPLY(c, "PING\r\n", "-BUSY second\r\n");
  server().ClearFaults();
  EXPECT_REPLY(c, "PING\r\n", "+PONG\r\n");
}

TEST_F(FaultApiTest, ErrorRepliesCountAsErrorsInInfo) {
  InjectFault(Fault::Error("TRYAGAIN later"));
  kvserver::testing::RedisReply r = Command("PING");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->type, REDIS_REPLY_ERROR);
  EXPECT_EQ(std::string(r->str, r->len), "TRYAGAIN later");
  r = Command("INFO stats");
  ASSERT_TRUE(r);
  EXPECT_NE(std::string(r->str, r->len).find("\r\ntotal_error_replies:1\r\n"), std::string::npos);
}

TEST_F(FaultApiTest, DropClosesTheConnectionBeforeTheCommandRuns) {
  RawClient c(port());
  InjectFault(Fault::Drop().OnlyFor("incr"));
  // Earlier replies of the same pipeline still arrive; the dropped command and the ones after it
  // do not run.
  ASSERT_TRUE(c.SendAll("SET a 1\r\nINCR a\r\nSET b 2\r\n"));
  bool closed = false;
  EXPECT_EQ(c.ReadUntilClosed(5000, &closed), "+OK\r\n");
  EXPECT_TRUE(closed);
  RawClient d(port());
  EXPECT_REPLY(d, "MGET a b\r\n", "*2\r\n$1\r\n1\r\n$-1\r\n");
}

TEST_F(FaultApiTest, DelayHoldsOnlyThisConnectionsReplies) {
  RawClient slow(port());
  RawClient other(port());
  constexpr auto kDelay = std::chrono::milliseconds(1500);
  InjectFault(Fault::Delay(kDelay));
  const auto sent = Clock::now();
  ASSERT_TRUE(slow.SendAll("SET k v\r\nGET k\r\n"));
  // Meanwhile another client is served at once.
  EXPECT_REPLY(other, "PING\r\n", "+PONG\r\n");
  EXPECT_TRUE(slow.QuietFor(50));
  EXPECT_EQ(slow.Read(5 + 7, 20000), "+OK\r\n$1\r\nv\r\n");
  EXPECT_GE(Clock::now() - sent, kDelay);
  // Once only.
  EXPECT_REPLY(slow, "PING\r\n", "+PONG\r\n");
}

TEST_F(FaultApiTest, StopDoesNotWaitForADelay) {
  RawClient c(port());
  InjectFault(Fault::Delay(std::chrono::hours(1)));
  ASSERT_TRUE(c.SendAll("PING\r\n"));
  // The server may hold the reply when Stop comes, or not have read the command yet; either
  // way Stop returns promptly and the connection is closed without a reply.
  server().Stop();
  bool closed = false;
  EXPECT_EQ(c.ReadUntilClosed(5000, &closed), "");
  EXPECT_TRUE(closed);
}

}  // namespace
}  // namespace kv::test
