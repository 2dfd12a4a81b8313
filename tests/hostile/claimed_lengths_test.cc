// Lengths a client announces but never sends: the server must not allocate for them. Fifty
// connections each claim two billion arguments or a 512 MB bulk and then go quiet; the server's
// resident memory stays within a small bound, and it keeps serving.

#include <cstdio>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/integration/raw_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

constexpr int kConnections = 50;
// What the connections may hold at most. Under AddressSanitizer every buffer that grew on the
// way keeps its redzones and sits in the quarantine for a while (12 MB measured for 50 × 64 KB
// received); either bound is far below one claimed length (512 MB), let alone fifty.
#ifdef KV_SANITIZED
constexpr long kMaxGrowthKb = 64 * 1024;
#else
constexpr long kMaxGrowthKb = 8 * 1024;
#endif

void ExpectClaimsKeepMemoryFlat(const std::string& claim) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto other = server->Connect();
  ASSERT_EQ(Str(Command(other.get(), "PING")), "PONG");
  const long baseline_kb = ResidentKb(server->pid());
  ASSERT_GT(baseline_kb, 0);
  std::vector<RawClient> clients(kConnections);
  for (RawClient& c : clients) {
    ASSERT_TRUE(c.ConnectTcp(server->port()));
    ASSERT_TRUE(c.SendAll(claim));
  }
  // Every claim has been read (the server answers a command sent after them), and none of the
  // claiming connections got a reply or was closed.
  ASSERT_EQ(Str(Command(other.get(), "PING")), "PONG");
  ASSERT_TRUE(Eventually(
      [&] {
        return InfoField(other.get(), "connected_clients") == std::to_string(kConnections + 1);
      },
      5000));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  for (RawClient& c : clients) EXPECT_TRUE(c.QuietFor(10));
  const long after_kb = ResidentKb(server->pid());
  std::printf("%d connections, each sent a %zu-byte claim: RSS %ld kB -> %ld kB\n", kConnections,
              claim.size(), baseline_kb, after_kb);
  // A single allocation of the claimed size would be 512 MB (or 16 GB of argument slots); 50 of
  // them tens of GB. What the connections really hold is a few kB each.
  EXPECT_LT(after_kb - baseline_kb, kMaxGrowthKb)
      << "RSS grew from " << baseline_kb << " kB to " << after_kb << " kB";
  clients.clear();
  EXPECT_TRUE(Eventually([&] { return InfoField(other.get(), "connected_clients") == "1"; }, 5000));
}

TEST(ClaimedLengths, HugeMultibulkCountThenNothing) {
  ExpectClaimsKeepMemoryFlat("*2147483647\r\n");
}

TEST(ClaimedLengths, HugeBulkLengthThenNothing) {
  ExpectClaimsKeepMemoryFlat("*2\r\n$536870912\r\n");
}

TEST(ClaimedLengths, HugeBulkLengthThenSomeBytes) {
  // A part of the bulk does arrive: memory grows with what arrived (64 KB each), not with the
  // claim.
  ExpectClaimsKeepMemoryFlat("*2\r\n$3\r\nSET\r\n$536870912\r\n" + std::string(64 * 1024, 'x'));
}

}  // namespace
}  // namespace kv::test
