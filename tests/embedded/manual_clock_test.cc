// kvserver::ManualClock: keys expire exactly when the clock says, through lazy expiry (a command
// touches the key) and active expiry (nobody does), with no sleeping.

#include <chrono>
#include <string>

#include "gtest/gtest.h"
#include "kvserver/gtest.h"
#include "tests/integration/raw_client.h"

namespace kv::test {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

class ManualClockTest : public kvserver::testing::ServerTest {};

TEST_F(ManualClockTest, LazyExpiryAtTheExactDeadline) {
  RawClient c(port());
  EXPECT_REPLY(c, "SET k v PX 1000\r\n", "+OK\r\n");
  clock().Advance(milliseconds(999));
  EXPECT_REPLY(c, "PTTL k\r\n", ":1\r\n");
  // As in Redis, a key expires once the time is past its deadline, not at it.
  clock().Advance(milliseconds(1));
  EXPECT_REPLY(c, "PTTL k\r\n", ":0\r\n");
  EXPECT_REPLY(c, "GET k\r\n", "$1\r\nv\r\n");
  clock().Advance(milliseconds(1));
  EXPECT_REPLY(c, "GET k\r\n", "$-1\r\n");
  EXPECT_REPLY(c, "EXISTS k\r\n", ":0\r\n");
}

TEST_F(ManualClockTest, ActiveExpiryDeletesUntouchedKeysWhenTheClockPassesTheirDeadline) {
  RawClient c(port());
  std::string pipeline;
  std::string replies;
  for (int i = 0; i < 100; ++i) {
    pipeline += "SET volatile:" + std::to_string(i) + " v EX 30\r\n";
    replies += "+OK\r\n";
  }
  pipeline += "SELECT 5\r\nSET other-db v PX 30000\r\nSET forever v\r\n";
  replies += "+OK\r\n+OK\r\n+OK\r\n";
  EXPECT_REPLY(c, pipeline, replies);
  clock().Advance(seconds(30));
  // Deadline reached, not passed: nothing is deleted.
  EXPECT_EQ(server().KeyCount(), 102u);
  clock().Advance(milliseconds(1));
  // No client touched a key, yet only the key without a TTL is left, and INFO counts them.
  EXPECT_EQ(server().KeyCount(0), 0u);
  EXPECT_EQ(server().KeyCount(5), 1u);
  EXPECT_EQ(server().KeyCount(), 1u);
  kvserver::testing::RedisReply info = Command("INFO stats");
  ASSERT_TRUE(info);
  EXPECT_NE(std::string(info->str, info->len).find("\r\nexpired_keys:101\r\n"), std::string::npos);
}

TEST_F(ManualClockTest, TtlCountsDownWithTheClock) {
  RawClient c(port());
  EXPECT_REPLY(c, "SET session abc EX 30\r\n", "+OK\r\n");
  clock().Advance(seconds(12));
  EXPECT_REPLY(c, "TTL session\r\n", ":18\r\n");
  EXPECT_REPLY(c, "EXPIRE session 5 GT\r\n", ":0\r\n");
  clock().Advance(seconds(18));
  EXPECT_REPLY(c, "TTL session\r\n", ":0\r\n");
  clock().Advance(milliseconds(1));
  EXPECT_REPLY(c, "TTL session\r\n", ":-2\r\n");
}

TEST_F(ManualClockTest, TimeAndExpireAtFollowTheClock) {
  RawClient c(port());
  clock().Set(std::chrono::system_clock::time_point(seconds(2'000'000'000)));
  EXPECT_REPLY(c, "TIME\r\n", "*2\r\n$10\r\n2000000000\r\n$1\r\n0\r\n");
  EXPECT_REPLY(c, "SET k v EXAT 2000000010\r\n", "+OK\r\n");
  EXPECT_REPLY(c, "TTL k\r\n", ":10\r\n");
  clock().Advance(seconds(11));
  EXPECT_EQ(server().KeyCount(), 0u);
}

TEST(ManualClock, OneClockDrivesSeveralServers) {
  kvserver::ManualClock clock;
  kvserver::Server a(kvserver::Options().UseClock(clock));
  kvserver::Server b(kvserver::Options().UseClock(clock));
  RawClient ca(a.Start().port);
  RawClient cb(b.Start().port);
  EXPECT_REPLY(ca, "SET k v PX 10\r\n", "+OK\r\n");
  EXPECT_REPLY(cb, "SET k v PX 20\r\n", "+OK\r\n");
  EXPECT_NE(a.clock(), nullptr);
  clock.Advance(milliseconds(11));
  EXPECT_EQ(a.KeyCount(), 0u);
  EXPECT_EQ(b.KeyCount(), 1u);
  // A server that stopped (or was destroyed) no longer hears the clock; the others still do.
  a.Stop();
  clock.Advance(milliseconds(10));
  EXPECT_EQ(b.KeyCount(), 0u);
}

TEST(ManualClock, StartsAtTheGivenTime) {
  const auto start = std::chrono::system_clock::time_point(seconds(1'800'000'000));
  kvserver::ManualClock clock(start);
  EXPECT_EQ(clock.Now(), start);
  clock.Advance(seconds(5));
  EXPECT_EQ(clock.Now(), start + seconds(5));
  kvserver::ManualClock copy = clock;  // copies share the time
  copy.Advance(milliseconds(1));
  EXPECT_EQ(clock.Now(), start + seconds(5) + milliseconds(1));
}

}  // namespace
}  // namespace kv::test
