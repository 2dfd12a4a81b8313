// The active expiry cycle in the kvserver process reports itself to the latency monitor, as
// Redis's activeExpireCycle does with its "expire-cycle" event (unit/latency-monitor's "LATENCY
// of expire events are correctly collected").

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/resp_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

TEST(ExpireLatency, ASlowExpireCycleIsAnExpireCycleEvent) {
  // Threshold 1 ms: freeing a set of 500,000 members (synchronously, lazyfree-lazy-expire being
  // off by default) takes longer than that on any machine.
  auto server = ServerProcess::StartKvserver({"--latency-monitor-threshold", "1"});
  ASSERT_TRUE(server);
  auto c = RawConnection::Connect(server->port());
  std::string batch;
  for (int chunk = 0; chunk < 50; ++chunk) {
    std::vector<std::string> sadd = {"SADD", "big"};
    for (int i = 0; i < 10000; ++i) sadd.push_back(std::to_string(chunk * 10000 + i));
    batch += EncodeCommand(sadd);
  }
  ASSERT_TRUE(c->Send(batch));
  for (int chunk = 0; chunk < 50; ++chunk) ASSERT_EQ(c->ReadReply(), ":10000\r\n");
  EXPECT_EQ(c->Call({"LATENCY", "RESET"}).substr(0, 1), ":");
  EXPECT_EQ(c->Call({"PEXPIRE", "big", "50"}), ":1\r\n");
  // The cron's active expiry deletes it (nobody touches the key).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (c->Call({"DBSIZE"}) != ":0\r\n" && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_EQ(c->Call({"DBSIZE"}), ":0\r\n");
  const std::string latest = c->Call({"LATENCY", "LATEST"});
  EXPECT_NE(latest.find("$12\r\nexpire-cycle\r\n"), std::string::npos) << latest;
  const std::string history = c->Call({"LATENCY", "HISTORY", "expire-cycle"});
  EXPECT_EQ(history.substr(0, 4), "*1\r\n") << history;
}

}  // namespace
}  // namespace kv::test
