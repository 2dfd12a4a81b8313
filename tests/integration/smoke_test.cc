#include "gtest/gtest.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

TEST(ProcessSmoke, KvserverAnswersPing) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto c = server->Connect();
  Reply r(static_cast<redisReply*>(redisCommand(c.get(), "PING")));
  ASSERT_TRUE(r);
  EXPECT_EQ(std::string(r->str, r->len), "PONG");
}

}  // namespace
}  // namespace kv::test
