// What a client's buffers cost once its big request is done, against the real binary and, as the
// reference, against redis-server: the same steps must hold for both (Redis's unit/lazyfree and
// unit/querybuf check the same things).

#include <hiredis/hiredis.h>

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/integration/raw_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

long long UsedMemory(redisContext* c) { return std::stoll(InfoField(c, "used_memory")); }

using Starter = std::unique_ptr<ServerProcess> (*)(const std::vector<std::string>&);

class ClientBuffers : public ::testing::TestWithParam<Starter> {};

// A command with 100,000 arguments, then a deletion: the server's memory goes back to about where
// it was, nothing of the command's argument list stays with the connection.
TEST_P(ClientBuffers, ArgumentsOfAHugeCommandAreNotKept) {
  auto server = GetParam()({});
  ASSERT_TRUE(server);
  auto c = server->Connect();
  const long long before = UsedMemory(c.get());
  std::vector<std::string> words = {"SADD", "myset"};
  for (int i = 0; i < 100000; ++i) words.push_back(std::to_string(i));
  std::vector<const char*> argv;
  std::vector<size_t> lens;
  for (const std::string& w : words) {
    argv.push_back(w.data());
    lens.push_back(w.size());
  }
  Reply added(static_cast<redisReply*>(
      redisCommandArgv(c.get(), static_cast<int>(argv.size()), argv.data(), lens.data())));
  ASSERT_TRUE(added);
  ASSERT_EQ(added->integer, 100000);
  ASSERT_GT(UsedMemory(c.get()), before + 1000000);
  ASSERT_EQ(Command(c.get(), "UNLINK myset")->integer, 1);
  long long after = 0;
  EXPECT_TRUE(Eventually(
      [&] {
        after = UsedMemory(c.get());
        return after < before + 512 * 1024;
      },
      5000))
      << "used_memory " << after << " after the deletion, " << before << " before";
}

INSTANTIATE_TEST_SUITE_P(BothServers, ClientBuffers,
                         ::testing::Values(&ServerProcess::StartKvserver,
                                           &ServerProcess::StartRedis),
                         [](const ::testing::TestParamInfo<Starter>& info) {
                           return info.index == 0 ? std::string("Kvserver") : std::string("Redis");
                         });

}  // namespace
}  // namespace kv::test
