// CLIENT PAUSE against the real redis-server 7.0.15: while clients are paused the dataset stays
// still, so keys whose time is up read as missing but are not deleted (Redis's expireIfNeeded),
// and are expired once the pause ends.

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/both_servers_test.h"

namespace kv::test {
namespace {

// INFO's expired_keys, as a number.
long ExpiredKeys(RawConnection& c) {
  const std::string info = c.Call({"INFO", "stats"});
  const size_t at = info.find("expired_keys:");
  return at == std::string::npos ? -1 : std::stol(info.substr(at + 13));
}

class ClientPauseDiffTest : public ConnectedBothServersTest<ClientPauseDiffTest> {
 protected:
  // `commands` on both servers; each reply, and the change of expired_keys after each, must be
  // Redis's.
  void ExpectSameWithExpiredKeys(const std::vector<Args>& commands) {
    for (const Args& command : commands) {
      const long kv_before = ExpiredKeys(*kv_), redis_before = ExpiredKeys(*redis_conn_);
      auto [kv, redis] = Both(command);
      EXPECT_EQ(kv, redis) << DescribeArgs(command);
      EXPECT_EQ(ExpiredKeys(*kv_) - kv_before, ExpiredKeys(*redis_conn_) - redis_before)
          << "expired_keys after " << DescribeArgs(command);
    }
  }
  void TearDown() override {
    if (kv_ && redis_conn_) {
      Both({"CLIENT", "UNPAUSE"});
      Both({"DEBUG", "SET-ACTIVE-EXPIRE", "1"});
    }
  }
};

TEST_F(ClientPauseDiffTest, ExpiredKeysStayUntilThePauseEnds) {
  // Under PAUSE WRITE the reads and the admin commands of the client that paused still run.
  // Active expiry is off: once the pause ends, a cron run between two commands would delete the
  // keys on one server and leave them to the GETs on the other (seen under ASan).
  ExpectSameReplies({{"FLUSHALL"}, {"DEBUG", "SET-ACTIVE-EXPIRE", "0"}});
  ExpectSameReplies({{"MULTI"},
                     {"SET", "foo{t}", "bar", "PX", "10"},
                     {"SET", "bar{t}", "foo", "PX", "10"},
                     {"SET", "kept{t}", "v"},
                     {"CLIENT", "PAUSE", "50000", "WRITE"},
                     {"EXEC"}});
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ExpectSameWithExpiredKeys({{"GET", "foo{t}"},
                             {"EXISTS", "foo{t}", "bar{t}", "kept{t}"},
                             {"TTL", "bar{t}"},
                             {"DBSIZE"},
                             {"KEYS", "*"},
                             {"SCAN", "0"},
                             {"MGET", "foo{t}", "bar{t}", "kept{t}"},
                             {"TYPE", "foo{t}"},
                             {"CLIENT", "UNPAUSE"},
                             {"GET", "foo{t}"},
                             {"GET", "bar{t}"},
                             {"DBSIZE"}});
}

}  // namespace
}  // namespace kv::test
