// MIGRATE's blocking sockets and their cache (server/persistence/migrate_client.h), and the key
// finder COMMAND GETKEYS uses for MIGRATE (migrateGetKeys).

#include "server/persistence/migrate_client.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "server/commands/migrate_keys.h"

namespace kv {
namespace {

// A connected pair: `ours` non-blocking for a MigrateSocket, `peer` for the test.
struct SocketPair {
  SocketPair() {
    int fds[2];
    EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    ours = fds[0];
    peer = fds[1];
    fcntl(ours, F_SETFL, fcntl(ours, F_GETFL) | O_NONBLOCK);
  }
  ~SocketPair() {
    if (peer != -1) close(peer);
  }
  void Send(std::string_view s) const {
    ASSERT_EQ(write(peer, s.data(), s.size()), static_cast<ssize_t>(s.size()));
  }
  int ours, peer;
};

TEST(MigrateSocketTest, ReadsPipelinedLinesWithoutTheirCrlf) {
  SocketPair p;
  MigrateSocket s(p.ours);
  p.Send("+OK\r\n-BUSYKEY Target key name already exists.\r\n+OK\n");
  std::string line;
  ASSERT_TRUE(s.ReadLine(&line, 1000));
  EXPECT_EQ(line, "+OK");
  ASSERT_TRUE(s.ReadLine(&line, 1000));
  EXPECT_EQ(line, "-BUSYKEY Target key name already exists.");
  ASSERT_TRUE(s.ReadLine(&line, 1000));
  EXPECT_EQ(line, "+OK");
}

TEST(MigrateSocketTest, ALongLineIsCutAt1023BytesAsRedisBufferDoes) {
  SocketPair p;
  MigrateSocket s(p.ours);
  p.Send("-" + std::string(1499, 'e') + "\r\n+OK\r\n");
  std::string line;
  ASSERT_TRUE(s.ReadLine(&line, 1000));
  EXPECT_EQ(line, "-" + std::string(1022, 'e'));
  ASSERT_TRUE(s.ReadLine(&line, 1000));
  EXPECT_EQ(line, std::string(1499 - 1022, 'e'));
  ASSERT_TRUE(s.ReadLine(&line, 1000));
  EXPECT_EQ(line, "+OK");
}

TEST(MigrateSocketTest, ReadTimesOutOrFailsOnClose) {
  SocketPair p;
  MigrateSocket s(p.ours);
  std::string line;
  EXPECT_FALSE(s.ReadLine(&line, 30));
  EXPECT_TRUE(s.timed_out());
  p.Send("+O");
  close(p.peer);
  p.peer = -1;
  EXPECT_FALSE(s.ReadLine(&line, 1000));
  EXPECT_FALSE(s.timed_out());  // closed, not timed out: MIGRATE retries this one
}

TEST(MigrateSocketTest, WriteTimesOutWhenThePeerDoesNotRead) {
  SocketPair p;
  MigrateSocket s(p.ours);
  EXPECT_TRUE(s.Write("*1\r\n$4\r\nPING\r\n", 1000));
  char buf[64];
  EXPECT_GT(read(p.peer, buf, sizeof(buf)), 0);
  EXPECT_FALSE(s.Write(std::string(16 << 20, 'x'), 30));
  EXPECT_TRUE(s.timed_out());
}

TEST(MigrateSocketTest, WriteFailsWhenThePeerIsGone) {
  SocketPair p;
  MigrateSocket s(p.ours);
  close(p.peer);
  p.peer = -1;
  EXPECT_FALSE(s.Write("*1\r\n$4\r\nPING\r\n", 1000));
  EXPECT_FALSE(s.timed_out());
}

// A loopback listener on a port of its own.
struct Listener {
  Listener() {
    fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
    EXPECT_EQ(listen(fd, 128), 0);
    socklen_t len = sizeof(a);
    getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    port = std::to_string(ntohs(a.sin_port));
  }
  ~Listener() { close(fd); }
  int fd;
  std::string port;
};

TEST(MigrateSocketCacheTest, KeepsOneConnectionPerHostAndPortUntilIdle) {
  Listener target;
  MigrateSocketCache cache;
  MigrateSocket* first = cache.Get("127.0.0.1", target.port, 1000, 100);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->last_dbid, -1);
  first->last_dbid = 3;
  EXPECT_EQ(cache.Get("127.0.0.1", target.port, 1000, 105), first);
  EXPECT_EQ(cache.size(), 1u);
  // "localhost" is another name, so another connection (as Redis's cache is by name).
  ASSERT_NE(cache.Get("localhost", target.port, 1000, 105), nullptr);
  EXPECT_EQ(cache.size(), 2u);
  cache.CloseIdle(115);  // idle 10 s: kept
  EXPECT_EQ(cache.size(), 2u);
  cache.CloseIdle(116);  // idle more than 10 s: closed
  EXPECT_EQ(cache.size(), 0u);
  MigrateSocket* again = cache.Get("127.0.0.1", target.port, 1000, 120);
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(again->last_dbid, -1);  // a new connection has no database selected
  cache.Close("127.0.0.1", target.port);
  EXPECT_EQ(cache.size(), 0u);
}

TEST(MigrateSocketCacheTest, HoldsAtMost64Connections) {
  std::vector<std::unique_ptr<Listener>> targets;
  MigrateSocketCache cache;
  for (size_t i = 0; i < MigrateSocketCache::kMaxItems + 6; ++i) {
    targets.push_back(std::make_unique<Listener>());
    ASSERT_NE(cache.Get("127.0.0.1", targets.back()->port, 1000, 1), nullptr);
    EXPECT_EQ(cache.size(), std::min(i + 1, MigrateSocketCache::kMaxItems));
  }
}

TEST(MigrateSocketCacheTest, AnUnresolvableHostIsNoConnection) {
  MigrateSocketCache cache;
  // Refused by the resolver without a DNS query (tests send nothing off the host).
  EXPECT_EQ(cache.Get("no such host", "6379", 1000, 1), nullptr);
  EXPECT_EQ(cache.size(), 0u);
}

std::vector<size_t> Keys(std::vector<std::string_view> argv) { return MigrateGetKeys(argv); }

TEST(MigrateGetKeysTest, KeyArgumentOrKeysList) {
  EXPECT_EQ(Keys({"migrate", "h", "1", "k", "0", "5"}), std::vector<size_t>{3});
  EXPECT_EQ(Keys({"migrate", "h", "1", "k", "0", "5", "copy", "replace"}), std::vector<size_t>{3});
  EXPECT_EQ(Keys({"migrate", "h", "1", "", "0", "5", "KEYS", "a", "b"}),
            (std::vector<size_t>{7, 8}));
  // AUTH's password and AUTH2's user and password are never taken for KEYS.
  EXPECT_EQ(Keys({"migrate", "h", "1", "", "0", "5", "auth", "keys", "keys", "a"}),
            std::vector<size_t>{9});
  EXPECT_EQ(Keys({"migrate", "h", "1", "", "0", "5", "auth2", "keys", "keys", "keys", "a"}),
            std::vector<size_t>{10});
  // KEYS with a key argument is MIGRATE's syntax error: no keys.
  EXPECT_TRUE(Keys({"migrate", "h", "1", "k", "0", "5", "keys", "a"}).empty());
  EXPECT_TRUE(Keys({"migrate", "h", "1", "", "0", "5", "keys"}).empty());
}

}  // namespace
}  // namespace kv
