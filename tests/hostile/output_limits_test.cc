// Slow readers and client-output-buffer-limit: a client that pipelines GETs and never reads must
// not grow the server, others keep being served, and a client past its output limit is
// disconnected and logged as Redis does.

#include <cstdio>
#include <string>

#include "gtest/gtest.h"
#include "tests/integration/raw_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

using SteadyClock = std::chrono::steady_clock;

// `n` inline GETs of key `v`.
std::string Gets(size_t n) {
  std::string out;
  out.reserve(n * 7);
  for (size_t i = 0; i < n; ++i) out += "GET v\r\n";
  return out;
}

constexpr std::string_view kScheduled =
    "scheduled to be closed ASAP for overcoming of output buffer limits.";
constexpr std::string_view kClosedByCron = "closed for overcoming of output buffer limits.";

TEST(OutputLimits, DefaultsAndConfigSet) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto c = server->Connect();
  Reply r = Command(c.get(), "CONFIG GET client-output-buffer-limit");
  ASSERT_TRUE(r && r->type == REDIS_REPLY_ARRAY && r->elements == 2);
  // Redis's defaults, except the 1 GB hard limit for normal clients (Redis has none).
  EXPECT_EQ(std::string(r->element[1]->str),
            "normal 1073741824 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60");
}

TEST(OutputLimits, MillionGetsNeverReadKeepMemoryFlatAndOthersServed) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto other = server->Connect();
  const std::string value(1024, 'v');
  ASSERT_EQ(Str(Command(other.get(), "SET v %b", value.data(), value.size())), "OK");
  const long baseline_kb = ResidentKb(server->pid());
  ASSERT_GT(baseline_kb, 0);

  // A million GETs of the 1 KB value (a GB of replies), written as fast as the server takes
  // them, and no reply read.
  RawClient greedy(server->port());
  ASSERT_TRUE(greedy.ok());
  const std::string pipeline = Gets(1000000);
  size_t sent = 0;
  long peak_kb = baseline_kb;
  int served = 0;
  const auto deadline = SteadyClock::now() + std::chrono::seconds(3);
  while (SteadyClock::now() < deadline) {
    if (sent < pipeline.size()) {
      const ssize_t n = greedy.SendSome(std::string_view(pipeline).substr(sent));
      ASSERT_GE(n, 0) << "the server dropped the client";
      sent += static_cast<size_t>(n);
    }
    // Another client is served all along.
    Reply get = Command(other.get(), "GET v");
    ASSERT_TRUE(get) << "no reply for the other client";
    ASSERT_EQ(Str(get), value);
    ++served;
    peak_kb = std::max(peak_kb, ResidentKb(server->pid()));
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::printf("%zu GETs sent, other client served %d times, RSS %ld kB -> peak %ld kB\n", sent / 7,
              served, baseline_kb, peak_kb);
  EXPECT_GT(sent, 7u * 10000) << "the server read almost nothing";
  EXPECT_GT(served, 10);
  // Reading pauses at 16 MB of pending replies; without that the server would buffer up to a GB.
  EXPECT_LT(peak_kb - baseline_kb, 64 * 1024)
      << "RSS grew from " << baseline_kb << " kB to " << peak_kb << " kB";
  // The slow client is below the hard limit and still connected: its replies arrive intact.
  const std::string reply = BulkReply(value);
  std::string got = greedy.Read(reply.size() * 100, 10000);
  ASSERT_EQ(got.size(), reply.size() * 100);
  for (size_t i = 0; i < 100; ++i) {
    ASSERT_EQ(got.compare(i * reply.size(), reply.size(), reply), 0) << "reply " << i;
  }
  EXPECT_EQ(server->ReadLog().find(kScheduled), std::string::npos);
}

// Pipelines `count` GETs of a 1 KB value on a client with a tiny receive window that reads
// nothing, until the server drops it (`observer` sees it leave) or `timeout_ms` passes. Returns
// whether the server dropped it; the client then sees the connection closed.
bool ClosedWhileNotReading(ServerProcess& server, redisContext* observer, size_t count,
                           int timeout_ms) {
  RawClient greedy;
  if (!greedy.ConnectTcp(server.port(), 4096)) return false;
  if (!Eventually([&] { return InfoField(observer, "connected_clients") == "2"; }, 5000)) {
    return false;
  }
  const std::string pipeline = Gets(count);
  size_t sent = 0;
  const auto deadline = SteadyClock::now() + std::chrono::milliseconds(timeout_ms);
  while (SteadyClock::now() < deadline) {
    if (sent < pipeline.size()) {
      const ssize_t n = greedy.SendSome(std::string_view(pipeline).substr(sent));
      if (n < 0) break;  // reset by the server
      sent += static_cast<size_t>(n);
    }
    if (InfoField(observer, "connected_clients") == "1") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (InfoField(observer, "connected_clients") != "1") return false;
  bool closed = false;
  greedy.ReadUntilClosed(10000, &closed);
  return closed;
}

TEST(OutputLimits, HardLimitDisconnectsAndIsLogged) {
  auto server = ServerProcess::StartKvserver({"--client-output-buffer-limit", "normal 1mb 0 0"});
  ASSERT_TRUE(server);
  auto other = server->Connect();
  const std::string value(1024, 'v');
  ASSERT_EQ(Str(Command(other.get(), "SET v %b", value.data(), value.size())), "OK");
  // 20 MB of replies: past the 1 MB hard limit long before reading would pause at 16 MB.
  EXPECT_TRUE(ClosedWhileNotReading(*server, other.get(), 20000, 10000));
  EXPECT_TRUE(
      Eventually([&] { return server->ReadLog().find(kScheduled) != std::string::npos; }, 5000))
      << server->ReadLog();
  // The log line names the client as CLIENT LIST does.
  const std::string log = server->ReadLog();
  const size_t at = log.find(kScheduled);
  const size_t line = log.rfind('\n', at);
  EXPECT_NE(log.substr(line, at - line).find("Client id="), std::string::npos) << log;
  EXPECT_NE(log.substr(line, at - line).find(" cmd=get "), std::string::npos) << log;
  // The server and its other clients carry on.
  EXPECT_EQ(Str(Command(other.get(), "PING")), "PONG");
  EXPECT_TRUE(Eventually([&] { return InfoField(other.get(), "connected_clients") == "1"; }, 5000));
}

TEST(OutputLimits, ConfigSetLimitAppliesToRunningServer) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto other = server->Connect();
  const std::string value(1024, 'v');
  ASSERT_EQ(Str(Command(other.get(), "SET v %b", value.data(), value.size())), "OK");
  ASSERT_EQ(Str(Command(other.get(), "CONFIG SET client-output-buffer-limit %s",
                        "pubsub 1mb 1mb 0 normal 2mb 0 0")),
            "OK");
  EXPECT_TRUE(ClosedWhileNotReading(*server, other.get(), 20000, 10000));
  EXPECT_NE(server->ReadLog().find(kScheduled), std::string::npos);
  EXPECT_EQ(Str(Command(other.get(), "PING")), "PONG");
}

TEST(OutputLimits, SoftLimitForSecondsDisconnects) {
  // 256 KB pending for more than one second: the client never reads, so its replies stay.
  auto server = ServerProcess::StartKvserver({"--client-output-buffer-limit", "normal 0 256kb 1"});
  ASSERT_TRUE(server);
  auto other = server->Connect();
  const std::string value(1024, 'v');
  ASSERT_EQ(Str(Command(other.get(), "SET v %b", value.data(), value.size())), "OK");
  EXPECT_TRUE(ClosedWhileNotReading(*server, other.get(), 20000, 15000));
  const std::string log = server->ReadLog();
  EXPECT_TRUE(log.find(kScheduled) != std::string::npos ||
              log.find(kClosedByCron) != std::string::npos)
      << log;
  EXPECT_EQ(Str(Command(other.get(), "PING")), "PONG");
}

}  // namespace
}  // namespace kv::test
