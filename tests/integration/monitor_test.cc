// MONITOR against the real kvserver binary: a monitor connection receives, as they run, the
// commands of other clients (an idle monitor is woken to write them), several monitors each get
// every line, QUIT and RESET end monitoring, and a monitor that falls behind is closed by
// client-output-buffer-limit like any client.

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/resp_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

class MonitorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = ServerProcess::StartKvserver();
    ASSERT_NE(server_, nullptr);
  }

  std::unique_ptr<RawConnection> Connect() {
    auto c = RawConnection::Connect(server_->port());
    EXPECT_TRUE(c) << "cannot connect";
    return c;
  }

  static std::string Call(RawConnection& c, const std::vector<std::string>& args) {
    return c.Call(args);
  }
  static std::string LocalAddress(const RawConnection& c) { return c.LocalAddress(); }

  // The monitor line without its timestamp: "[0 127.0.0.1:port] "get" "k"\r\n".
  static std::string Untimed(const std::string& line) { return line.substr(line.find(" [") + 1); }

  std::unique_ptr<ServerProcess> server_;
};

TEST_F(MonitorTest, MonitorsSeeOtherClientsCommandsAsTheyRun) {
  auto monitor1 = Connect();
  auto monitor2 = Connect();
  auto client = Connect();
  ASSERT_TRUE(monitor1 && monitor2 && client);
  EXPECT_EQ(Call(*monitor1, {"MONITOR"}), "+OK\r\n");
  EXPECT_EQ(Call(*monitor2, {"MONITOR"}), "+OK\r\n");
  const std::string peer = LocalAddress(*client);
  // Each command's line arrives while the monitors sit idle, one command at a time.
  EXPECT_EQ(Call(*client, {"SET", "k", "a b"}), "+OK\r\n");
  for (RawConnection* m : {monitor1.get(), monitor2.get()}) {
    const std::string line = m->ReadReply().value_or("<no line>");
    EXPECT_EQ(line[0], '+') << line;
    EXPECT_EQ(Untimed(line), "[0 " + peer + "] \"SET\" \"k\" \"a b\"\r\n");
  }
  EXPECT_EQ(Call(*client, {"GET", "k"}), "$3\r\na b\r\n");
  EXPECT_EQ(Untimed(monitor1->ReadReply().value_or("")), "[0 " + peer + "] \"GET\" \"k\"\r\n");
  EXPECT_EQ(Untimed(monitor2->ReadReply().value_or("")), "[0 " + peer + "] \"GET\" \"k\"\r\n");

  // CLIENT LIST marks monitors with O (CLIENT LIST is administrative: no line for it).
  const std::string list = Call(*client, {"CLIENT", "LIST"});
  size_t monitors = 0;
  for (size_t at = list.find("flags=O "); at != std::string::npos;
       at = list.find("flags=O ", at + 1)) {
    ++monitors;
  }
  EXPECT_EQ(monitors, 2u) << list;

  // QUIT ends the first monitor (the second sees it: QUIT is not administrative), RESET stops the
  // second, which then runs commands normally.
  EXPECT_EQ(Call(*monitor1, {"QUIT"}), "+OK\r\n");
  EXPECT_EQ(Untimed(monitor2->ReadReply().value_or("")),
            "[0 " + LocalAddress(*monitor1) + "] \"QUIT\"\r\n");
  EXPECT_EQ(Call(*monitor2, {"RESET"}), "+RESET\r\n");
  EXPECT_EQ(Call(*client, {"PING"}), "+PONG\r\n");
  EXPECT_EQ(Call(*monitor2, {"ECHO", "x"}), "$1\r\nx\r\n");
  EXPECT_EQ(monitor2->pending(), "");
  EXPECT_EQ(Call(*client, {"CLIENT", "LIST"}).find("flags=O"), std::string::npos);
}

TEST_F(MonitorTest, PipelinedCommandsReachTheMonitorInOrder) {
  auto monitor = Connect();
  auto client = Connect();
  ASSERT_TRUE(monitor && client);
  EXPECT_EQ(Call(*monitor, {"MONITOR"}), "+OK\r\n");
  std::string pipeline;
  for (int i = 0; i < 200; ++i) pipeline += EncodeCommand({"INCR", "n"});
  ASSERT_TRUE(client->Send(pipeline));
  for (int i = 1; i <= 200; ++i) {
    EXPECT_EQ(client->ReadReply().value_or(""), ":" + std::to_string(i) + "\r\n");
  }
  for (int i = 0; i < 200; ++i) {
    const std::string line = monitor->ReadReply().value_or("<no line>");
    ASSERT_NE(line.find("] \"INCR\" \"n\"\r\n"), std::string::npos) << i << " " << line;
  }
}

TEST_F(MonitorTest, AMonitorOverItsOutputLimitIsClosed) {
  auto monitor = Connect();
  auto client = Connect();
  ASSERT_TRUE(monitor && client);
  EXPECT_EQ(Call(*client, {"CONFIG", "SET", "client-output-buffer-limit", "normal 100kb 0 0"}),
            "+OK\r\n");
  EXPECT_EQ(Call(*monitor, {"MONITOR"}), "+OK\r\n");
  // One line is over the limit on its own: the monitor is closed, the client is served.
  EXPECT_EQ(Call(*client, {"SET", "big", std::string(300 * 1024, 'v')}), "+OK\r\n");
  bool closed = false;
  for (int i = 0; i < 50 && !closed; ++i) closed = monitor->ReadSome(100) == 0;
  EXPECT_TRUE(closed);
  EXPECT_EQ(Call(*client, {"STRLEN", "big"}), ":307200\r\n");
  EXPECT_EQ(Call(*client, {"CLIENT", "LIST"}).find("flags=O"), std::string::npos);
}

}  // namespace
}  // namespace kv::test
