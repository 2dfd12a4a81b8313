// Connection churn: tens of thousands of connections opened and closed, thousands at once, and
// clients vanishing mid-command, mid-reply or with megabytes of unread replies. Afterwards the
// server holds the descriptors and (outside sanitized builds, whose allocator quarantines freed
// memory) the resident memory it held before, and it exits cleanly (LSan finds no leak in
// sanitized builds).

#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/integration/raw_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

#ifdef KV_SANITIZED
constexpr bool kCheckMemory = false;
#else
constexpr bool kCheckMemory = true;
#endif

// Closes with a reset instead of FIN: the client leaves no TIME_WAIT behind (tens of thousands
// of those would exhaust the ephemeral ports) and the server sees an abrupt disconnect.
void Reset(RawClient& c) {
  linger l{1, 0};
  ::setsockopt(c.fd(), SOL_SOCKET, SO_LINGER, &l, sizeof(l));
  c.Close();
}

// Snapshot of the server's resources once it has forgotten every client but `observer`.
struct Resources {
  long fds;
  long rss_kb;
};

Resources Settle(ServerProcess& server, redisContext* observer) {
  EXPECT_TRUE(Eventually([&] { return InfoField(observer, "connected_clients") == "1"; }, 20000));
  return {OpenFdCount(server.pid()), ResidentKb(server.pid())};
}

void ExpectNothingLeft(const Resources& before, const Resources& after, long rss_slack_kb) {
  std::printf("server descriptors %ld -> %ld, RSS %ld kB -> %ld kB\n", before.fds, after.fds,
              before.rss_kb, after.rss_kb);
  EXPECT_EQ(after.fds, before.fds) << "descriptors leaked";
  if (kCheckMemory) {
    EXPECT_LT(after.rss_kb - before.rss_kb, rss_slack_kb)
        << "RSS grew from " << before.rss_kb << " kB to " << after.rss_kb << " kB";
  }
}

void ExpectCleanExit(ServerProcess& server) {
  const int status = server.Stop();
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "exit status " << status << "\n"
                                                             << server.ReadLog();
}

TEST(Churn, TwentyThousandConnectDisconnectCycles) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto observer = server->Connect();
  ASSERT_EQ(Str(Command(observer.get(), "SET k v")), "OK");
  auto cycle = [&](int i) {
    RawClient c(server->port());
    ASSERT_TRUE(c.ok()) << "connect " << i;
    switch (i % 4) {
      case 0:  // connect and leave
        break;
      case 1:  // a command and its reply
        ASSERT_EQ(c.Exchange("GET k\r\n", 7), "$1\r\nv\r\n") << "cycle " << i;
        break;
      case 2:  // half a command
        ASSERT_TRUE(c.SendAll("*2\r\n$3\r\nGET\r\n$1"));
        break;
      case 3:  // a command whose reply is never read
        ASSERT_TRUE(c.SendAll("GET k\r\nGET k\r\n"));
        break;
    }
    Reset(c);
  };
  for (int i = 0; i < 1000; ++i) cycle(i);  // warm the allocator up
  const Resources before = Settle(*server, observer.get());
  for (int i = 0; i < 20000; ++i) {
    cycle(i);
    if (HasFatalFailure()) return;
  }
  const Resources after = Settle(*server, observer.get());
  ExpectNothingLeft(before, after, 16 * 1024);
  EXPECT_EQ(InfoField(observer.get(), "total_connections_received"), "21001");
  ExpectCleanExit(*server);
}

TEST(Churn, FiveThousandSimultaneousConnections) {
  constexpr int kClients = 5000;
  rlimit limit{};
  ::getrlimit(RLIMIT_NOFILE, &limit);
  if (limit.rlim_cur < kClients + 100) {
    limit.rlim_cur = std::min<rlim_t>(limit.rlim_max, kClients + 100);
    ::setrlimit(RLIMIT_NOFILE, &limit);
  }
  if (limit.rlim_cur < kClients + 100) GTEST_SKIP() << "open files limit too low for the test";
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto observer = server->Connect();
  // The first round is a warm-up: the allocator keeps part of what 5,000 connections took (how
  // much varies from run to run), so later rounds are compared with the state after it.
  Resources before = Settle(*server, observer.get());
  for (int round = 0; round < 3; ++round) {
    std::vector<RawClient> clients(kClients);
    for (int i = 0; i < kClients; ++i) {
      ASSERT_TRUE(clients[i].ConnectTcp(server->port())) << "client " << i;
      // Let the server's accept loop keep up with the listen backlog.
      if (i % 500 == 499) {
        ASSERT_TRUE(Eventually(
            [&] { return InfoField(observer.get(), "connected_clients") == std::to_string(i + 2); },
            20000));
      }
    }
    for (RawClient& c : clients) ASSERT_TRUE(c.SendAll("PING\r\n"));
    for (int i = 0; i < kClients; ++i) ASSERT_EQ(clients[i].Read(7), "+PONG\r\n") << "client " << i;
    EXPECT_EQ(InfoField(observer.get(), "connected_clients"), std::to_string(kClients + 1));
    // Half leave politely, half abruptly.
    for (int i = 0; i < kClients; ++i) {
      if (i % 2 == 0) {
        clients[i].Close();
      } else {
        Reset(clients[i]);
      }
    }
    const Resources after = Settle(*server, observer.get());
    if (round == 0) {
      EXPECT_EQ(after.fds, before.fds) << "descriptors leaked";
      before = after;
    } else {
      // glibc keeps between ~15 and ~40 MB of the freed buffers from run to run; a leak of 10 kB
      // per connection would add 50 MB a round.
      ExpectNothingLeft(before, after, 48 * 1024);
    }
  }
  ExpectCleanExit(*server);
}

TEST(Churn, ClientsVanishMidCommandMidReplyAndWithUnreadReplies) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto observer = server->Connect();
  const std::string big(4 * 1024 * 1024, 'b');
  ASSERT_EQ(Str(Command(observer.get(), "SET big %b", big.data(), big.size())), "OK");
  const std::string mb(1024 * 1024, 'm');
  ASSERT_EQ(Str(Command(observer.get(), "SET mb %b", mb.data(), mb.size())), "OK");
  std::string unread_pipeline;
  for (int i = 0; i < 64; ++i) unread_pipeline += "GET mb\r\n";
  auto round = [&](int i) {
    RawClient c;
    ASSERT_TRUE(c.ConnectTcp(server->port(), 8192));
    switch (i % 3) {
      case 0:  // mid-command: half of a 1 MB value
        ASSERT_TRUE(
            c.SendAll("*3\r\n$3\r\nSET\r\n$1\r\nx\r\n$1048576\r\n" + std::string(512 * 1024, 'x')));
        break;
      case 1: {  // mid-reply: a few kB of a 4 MB reply
        ASSERT_TRUE(c.SendAll("GET big\r\n"));
        ASSERT_FALSE(c.Read(4096).empty());
        break;
      }
      case 2:  // 64 MB of replies requested, none read
        ASSERT_TRUE(c.SendAll(unread_pipeline));
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        break;
    }
    if (i % 2 == 0) {
      c.Close();
    } else {
      Reset(c);
    }
  };
  for (int i = 0; i < 30; ++i) round(i);  // warm-up
  const Resources before = Settle(*server, observer.get());
  for (int i = 0; i < 300; ++i) {
    round(i);
    if (HasFatalFailure()) return;
  }
  const Resources after = Settle(*server, observer.get());
  ExpectNothingLeft(before, after, 32 * 1024);
  // Nothing of the abandoned SETs was applied, and the server is in order.
  EXPECT_EQ(Command(observer.get(), "EXISTS x")->integer, 0);
  EXPECT_EQ(Command(observer.get(), "STRLEN big")->integer, static_cast<long long>(big.size()));
  ExpectCleanExit(*server);
}

}  // namespace
}  // namespace kv::test
