// What a client's buffers cost once its big request is done, against the real binary and, as the
// reference, against redis-server: the same steps must hold for both (Redis's unit/lazyfree and
// unit/querybuf check the same things).

#include <hiredis/hiredis.h>

#include <chrono>
#include <memory>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/integration/raw_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

long long UsedMemory(redisContext* c) { return std::stoll(InfoField(c, "used_memory")); }

// qbuf + qbuf-free of the client named `name` in CLIENT LIST, as Redis's client_query_buffer.
long long QueryBufferSize(redisContext* c, const std::string& name) {
  const std::string list = Str(Command(c, "CLIENT LIST"));
  std::smatch m;
  const std::regex line("name=" + name + " .* qbuf=([0-9]+) qbuf-free=([0-9]+)");
  if (!std::regex_search(list, m, line)) return -1;
  return std::stoll(m[1]) + std::stoll(m[2]);
}

class ClientBuffers : public ::testing::TestWithParam<ServerStarter> {};

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

// One 400 KB request, then small ones: the input buffer shrinks while the client stays active
// (Redis's clientsCronResizeQueryBuffer), but not to nothing.
TEST_P(ClientBuffers, QueryBufferShrinksAfterOneBigRequest) {
  auto server = GetParam()({});
  ASSERT_TRUE(server);
  auto c = server->Connect();
  auto observer = server->Connect();
  ASSERT_EQ(Str(Command(c.get(), "CLIENT SETNAME big")), "OK");
  const std::string large(400000, 'A');
  ASSERT_EQ(Str(Command(c.get(), "SET x %b", large.data(), large.size())), "OK");
  const long long grown = QueryBufferSize(observer.get(), "big");
  ASSERT_GT(grown, 32768);
  long long now = grown;
  const std::string small(100, 'A');
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (now >= grown && std::chrono::steady_clock::now() < deadline) {
    ASSERT_EQ(Str(Command(c.get(), "SET x %b", small.data(), small.size())), "OK");
    now = QueryBufferSize(observer.get(), "big");
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_GT(now, 0);
  EXPECT_LT(now, grown);
}

INSTANTIATE_TEST_SUITE_P(BothServers, ClientBuffers,
                         ::testing::Values(&ServerProcess::StartKvserver,
                                           &ServerProcess::StartRedis),
                         BothServersTestName<::testing::TestParamInfo<ServerStarter>>);

}  // namespace
}  // namespace kv::test
