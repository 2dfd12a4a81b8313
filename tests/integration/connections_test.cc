// Connection handling of the real kvserver binary: many concurrent clients, maxclients, the idle
// timeout, the unix socket, and a client that never reads its replies.

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/integration/raw_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

using SteadyClock = std::chrono::steady_clock;

TEST(Connections, ThousandConcurrentClients) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  constexpr int kClients = 1000;
  std::vector<RedisConnection> clients;
  clients.reserve(kClients);
  for (int i = 0; i < kClients; ++i) {
    timeval tv{10, 0};
    RedisConnection c(redisConnectWithTimeout("127.0.0.1", server->port(), tv));
    ASSERT_TRUE(c && c->err == 0) << "client " << i << ": " << (c ? c->errstr : "null");
    redisSetTimeout(c.get(), tv);
    clients.push_back(std::move(c));
  }
  // Every client queues its commands, all of them are written, and only then are the replies
  // read: the server has all 1000 connections busy at once.
  for (int i = 0; i < kClients; ++i) {
    redisContext* c = clients[i].get();
    ASSERT_EQ(redisAppendCommand(c, "SET client:%d value-of-%d", i, i), REDIS_OK);
    ASSERT_EQ(redisAppendCommand(c, "GET client:%d", i), REDIS_OK);
    ASSERT_EQ(redisAppendCommand(c, "INCR shared"), REDIS_OK);
  }
  for (int i = 0; i < kClients; ++i) {
    int done = 0;
    while (!done) ASSERT_EQ(redisBufferWrite(clients[i].get(), &done), REDIS_OK);
  }
  std::vector<bool> seen(kClients + 1, false);
  for (int i = 0; i < kClients; ++i) {
    redisContext* c = clients[i].get();
    void* raw = nullptr;
    ASSERT_EQ(redisGetReply(c, &raw), REDIS_OK) << "client " << i << ": " << c->errstr;
    EXPECT_EQ(Str(Reply(static_cast<redisReply*>(raw))), "OK");
    ASSERT_EQ(redisGetReply(c, &raw), REDIS_OK) << "client " << i << ": " << c->errstr;
    EXPECT_EQ(Str(Reply(static_cast<redisReply*>(raw))), "value-of-" + std::to_string(i));
    ASSERT_EQ(redisGetReply(c, &raw), REDIS_OK) << "client " << i << ": " << c->errstr;
    Reply incr(static_cast<redisReply*>(raw));
    ASSERT_EQ(incr->type, REDIS_REPLY_INTEGER);
    ASSERT_GE(incr->integer, 1);
    ASSERT_LE(incr->integer, kClients);
    EXPECT_FALSE(seen[incr->integer]) << "INCR returned " << incr->integer << " twice";
    seen[incr->integer] = true;
  }
  EXPECT_EQ(InfoField(clients[0].get(), "connected_clients"), std::to_string(kClients));
  Reply dbsize = Command(clients[0].get(), "DBSIZE");
  ASSERT_TRUE(dbsize);
  EXPECT_EQ(dbsize->integer, kClients + 1);
  clients.resize(1);
  EXPECT_TRUE(
      Eventually([&] { return InfoField(clients[0].get(), "connected_clients") == "1"; }, 10000));
}

TEST(Connections, MaxClients) {
  auto server = ServerProcess::StartKvserver({"--maxclients", "5"});
  ASSERT_TRUE(server);
  std::vector<RedisConnection> clients;
  for (int i = 0; i < 5; ++i) {
    clients.push_back(server->Connect());
    ASSERT_EQ(Str(Command(clients.back().get(), "PING")), "PONG");
  }
  const std::string received = InfoField(clients[0].get(), "total_connections_received");
  EXPECT_EQ(received, "5");
  {
    RawClient sixth(server->port());
    ASSERT_TRUE(sixth.ok());
    bool closed = false;
    EXPECT_EQ(sixth.ReadUntilClosed(5000, &closed), "-ERR max number of clients reached\r\n");
    EXPECT_TRUE(closed);
  }
  EXPECT_EQ(InfoField(clients[0].get(), "rejected_connections"), "1");
  // As in Redis, a rejected connection is not counted as received.
  EXPECT_EQ(InfoField(clients[0].get(), "total_connections_received"), received);
  EXPECT_EQ(InfoField(clients[0].get(), "connected_clients"), "5");
  // Once a client leaves, a new one gets in.
  clients.pop_back();
  EXPECT_TRUE(
      Eventually([&] { return InfoField(clients[0].get(), "connected_clients") == "4"; }, 5000));
  RawClient next(server->port());
  EXPECT_EQ(next.Exchange("PING\r\n", 7), "+PONG\r\n");
  // maxclients can be changed at runtime.
  EXPECT_EQ(Str(Command(clients[0].get(), "CONFIG SET maxclients 6")), "OK");
  RawClient sixth(server->port());
  EXPECT_EQ(sixth.Exchange("PING\r\n", 7), "+PONG\r\n");
}

TEST(Connections, IdleTimeoutClosesIdleClientsOnly) {
  auto server = ServerProcess::StartKvserver({"--timeout", "1"});
  ASSERT_TRUE(server);
  RawClient idle(server->port());
  ASSERT_EQ(idle.Exchange("PING\r\n", 7), "+PONG\r\n");
  const auto idle_since = SteadyClock::now();
  RawClient busy(server->port());
  // The busy client talks every 200 ms; the idle one says nothing.
  bool idle_closed = false;
  std::string idle_bytes;
  while (SteadyClock::now() - idle_since < std::chrono::seconds(6)) {
    ASSERT_EQ(busy.Exchange("PING\r\n", 7, 5000), "+PONG\r\n");
    idle_bytes += idle.ReadUntilClosed(200, &idle_closed);
    if (idle_closed) break;
  }
  const auto idle_for = SteadyClock::now() - idle_since;
  EXPECT_TRUE(idle_closed) << "the idle client was not closed within 6 s";
  EXPECT_EQ(idle_bytes, "");
  // timeout 1 means idle for more than a second: never closed before that.
  EXPECT_GE(idle_for, std::chrono::milliseconds(900));
  // The busy client is still open and served.
  EXPECT_EQ(busy.Exchange("PING\r\n", 7), "+PONG\r\n");
  bool busy_closed = false;
  busy.ReadUntilClosed(1, &busy_closed);
  EXPECT_FALSE(busy_closed);
}

TEST(Connections, IdleTimeoutSparesClientReceivingLargeReply) {
  // Like Redis, writing to a client counts as interaction: a client that is busy reading a large
  // reply for longer than the timeout is not idle.
  auto server = ServerProcess::StartKvserver({"--timeout", "1"});
  ASSERT_TRUE(server);
  auto other = server->Connect();
  const std::string value(16 * 1024 * 1024, 'r');
  ASSERT_EQ(Str(Command(other.get(), "SET big %b", value.data(), value.size())), "OK");
  RawClient slow;
  ASSERT_TRUE(slow.ConnectTcp(server->port(), 64 * 1024));
  ASSERT_TRUE(slow.SendAll("GET big\r\n"));
  const std::string header = "$" + std::to_string(value.size()) + "\r\n";
  const size_t total = header.size() + value.size() + 2;
  std::string reply;
  const auto start = SteadyClock::now();
  // About 8 MB/s: the reply takes well over the one-second timeout to deliver.
  while (reply.size() < total && SteadyClock::now() - start < std::chrono::seconds(20)) {
    std::string more = slow.Read(std::min<size_t>(192 * 1024, total - reply.size()), 5000);
    if (more.empty()) break;
    reply += more;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const auto took = SteadyClock::now() - start;
  ASSERT_EQ(reply.size(), total)
      << "the reply was cut off after "
      << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << " ms";
  EXPECT_EQ(reply.compare(0, header.size(), header), 0);
  EXPECT_EQ(reply.compare(header.size(), value.size(), value), 0);
  EXPECT_GT(took, std::chrono::milliseconds(1000)) << "the test did not outlast the timeout";
}

TEST(Connections, RaisesOpenFilesLimitForMaxclients) {
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &saved), 0);
  if (saved.rlim_max != RLIM_INFINITY && saved.rlim_max < 2000) {
    GTEST_SKIP() << "hard limit on open files too low: " << saved.rlim_max;
  }
  // The server inherits a soft limit of 64 open files; like Redis it must raise it to
  // maxclients + 32 so that 300 clients fit.
  rlimit low = saved;
  low.rlim_cur = 64;
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &low), 0);
  auto server = ServerProcess::StartKvserver({"--maxclients", "1000"});
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &saved), 0);
  ASSERT_TRUE(server);
  std::vector<RedisConnection> clients;
  for (int i = 0; i < 300; ++i) {
    timeval tv{3, 0};
    RedisConnection c(redisConnectWithTimeout("127.0.0.1", server->port(), tv));
    ASSERT_TRUE(c && c->err == 0) << "client " << i;
    redisSetTimeout(c.get(), tv);
    ASSERT_EQ(Str(Command(c.get(), "PING")), "PONG") << "client " << i;
    clients.push_back(std::move(c));
  }
  std::ifstream limits("/proc/" + std::to_string(server->pid()) + "/limits");
  std::string line;
  long soft = -1;
  while (std::getline(limits, line)) {
    if (line.rfind("Max open files", 0) == 0) soft = std::stol(line.substr(26));
  }
  EXPECT_GE(soft, 1032);
  EXPECT_NE(server->ReadLog().find("Increased maximum number of open files to 1032"),
            std::string::npos)
      << server->ReadLog();
}

TEST(Connections, ConfigSetMaxclientsRaisesOpenFilesLimit) {
  // Redis's updateMaxclients: CONFIG SET maxclients raises the open files limit to match.
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &saved), 0);
  if (saved.rlim_max != RLIM_INFINITY && saved.rlim_max < 2000) {
    GTEST_SKIP() << "hard limit on open files too low: " << saved.rlim_max;
  }
  rlimit low = saved;
  low.rlim_cur = 64;
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &low), 0);
  auto server = ServerProcess::StartKvserver({"--maxclients", "10"});
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &saved), 0);
  ASSERT_TRUE(server);
  auto first = server->Connect();
  ASSERT_EQ(Str(Command(first.get(), "CONFIG SET maxclients 300")), "OK");
  std::vector<RedisConnection> clients;
  for (int i = 0; i < 250; ++i) {
    timeval tv{3, 0};
    RedisConnection c(redisConnectWithTimeout("127.0.0.1", server->port(), tv));
    ASSERT_TRUE(c && c->err == 0) << "client " << i;
    redisSetTimeout(c.get(), tv);
    ASSERT_EQ(Str(Command(c.get(), "PING")), "PONG") << "client " << i;
    clients.push_back(std::move(c));
  }
  std::ifstream limits("/proc/" + std::to_string(server->pid()) + "/limits");
  std::string line;
  long soft = -1;
  while (std::getline(limits, line)) {
    if (line.rfind("Max open files", 0) == 0) soft = std::stol(line.substr(26));
  }
  EXPECT_GE(soft, 332);
}

TEST(Connections, UnixSocket) {
  const std::string dir = MakeTempDir();
  const std::string path = dir + "/kv.sock";
  auto server = ServerProcess::StartKvserver({"--unixsocket", path, "--unixsocketperm", "700"});
  ASSERT_TRUE(server);
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
  EXPECT_EQ(st.st_mode & 07777, 0700u);
  EXPECT_TRUE(server->ReadLog().find("Ready to accept connections unix") != std::string::npos);

  timeval tv{10, 0};
  RedisConnection unix_client(redisConnectUnixWithTimeout(path.c_str(), tv));
  ASSERT_TRUE(unix_client && unix_client->err == 0) << (unix_client ? unix_client->errstr : "null");
  redisSetTimeout(unix_client.get(), tv);
  EXPECT_EQ(Str(Command(unix_client.get(), "PING")), "PONG");
  EXPECT_EQ(Str(Command(unix_client.get(), "SET via unix")), "OK");
  // Both listeners serve the same data.
  auto tcp_client = server->Connect();
  EXPECT_EQ(Str(Command(tcp_client.get(), "GET via")), "unix");
  // A pipeline over the unix socket.
  for (int i = 0; i < 1000; ++i) redisAppendCommand(unix_client.get(), "INCR n");
  for (int i = 0; i < 1000; ++i) {
    void* raw = nullptr;
    ASSERT_EQ(redisGetReply(unix_client.get(), &raw), REDIS_OK);
    Reply r(static_cast<redisReply*>(raw));
    ASSERT_EQ(r->integer, i + 1);
  }
  // The socket file goes away with the server.
  const int status = server->Stop(SIGTERM);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_NE(::stat(path.c_str(), &st), 0) << "socket file left behind";
}

TEST(Connections, ClientThatNeverReadsDoesNotGrowServerMemory) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto other = server->Connect();
  const std::string value(512 * 1024, 'v');
  ASSERT_EQ(Str(Command(other.get(), "SET big %b", value.data(), value.size())), "OK");
  ASSERT_EQ(Command(other.get(), "GET big")->len, value.size());
  const long baseline_kb = ResidentKb(server->pid());
  ASSERT_GT(baseline_kb, 0);

  // The client pipelines GETs of a 512 KB value as fast as the socket takes them (up to 2 MB of
  // requests, 230,000 GETs, over 100 GB of replies) and reads none of the replies. The server
  // must stop reading its requests instead of buffering the replies.
  RawClient greedy(server->port());
  std::string chunk;
  for (int i = 0; i < 4096; ++i) chunk += "GET big\r\n";
  size_t sent = 0;
  long peak_kb = baseline_kb;
  const auto deadline = SteadyClock::now() + std::chrono::seconds(2);
  int rounds = 0;
  while (SteadyClock::now() < deadline) {
    if (sent < 2 * 1024 * 1024) {
      // Whole commands only, so that the stream stays well formed.
      const ssize_t n = greedy.SendSome(std::string_view(chunk).substr(sent % 9));
      ASSERT_GE(n, 0) << "the server dropped the client";
      sent += static_cast<size_t>(n);
    }
    // Other clients are served all along.
    ASSERT_EQ(Str(Command(other.get(), "PING")), "PONG");
    if (++rounds % 10 == 0) {
      Reply get = Command(other.get(), "GET big");
      ASSERT_TRUE(get);
      ASSERT_EQ(get->len, value.size());
    }
    peak_kb = std::max(peak_kb, ResidentKb(server->pid()));
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_GT(sent, 9u * 1000) << "the server read almost nothing";
  // Unbounded buffering would take gigabytes; the kernel's socket buffers do not count in RSS.
  EXPECT_LT(peak_kb - baseline_kb, 64 * 1024)
      << "RSS grew from " << baseline_kb << " kB to " << peak_kb << " kB";

  // Once the client starts reading, the replies arrive intact.
  const std::string header = "$" + std::to_string(value.size()) + "\r\n";
  const size_t reply_size = header.size() + value.size() + 2;
  size_t checked = 0;
  std::string buffer;
  while (checked < 50) {
    std::string more = greedy.Read(reply_size, 20000);
    ASSERT_FALSE(more.empty()) << "stalled after " << checked << " replies";
    buffer += more;
    while (buffer.size() >= reply_size) {
      ASSERT_EQ(buffer.compare(0, header.size(), header), 0) << "reply " << checked;
      ASSERT_EQ(buffer.compare(header.size(), value.size(), value), 0) << "reply " << checked;
      ASSERT_EQ(buffer.compare(reply_size - 2, 2, "\r\n"), 0) << "reply " << checked;
      buffer.erase(0, reply_size);
      ++checked;
    }
  }
  // Dropping the client with all that work pending frees it.
  greedy.Close();
  EXPECT_TRUE(
      Eventually([&] { return InfoField(other.get(), "connected_clients") == "1"; }, 10000));
  EXPECT_EQ(Str(Command(other.get(), "PING")), "PONG");
}

TEST(Connections, ClientsVanishingWithPendingRepliesAreForgotten) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto other = server->Connect();
  const std::string value(50 * 1024, 'z');
  ASSERT_EQ(Str(Command(other.get(), "SET v %b", value.data(), value.size())), "OK");
  std::string request;
  for (int i = 0; i < 100; ++i) request += "GET v\r\n";
  // Each asks for 5 MB of replies and disconnects without reading a byte, some after
  // reading a little.
  for (int round = 0; round < 3; ++round) {
    std::vector<RawClient> clients(10);
    for (size_t i = 0; i < clients.size(); ++i) {
      ASSERT_TRUE(clients[i].ConnectTcp(server->port()));
      ASSERT_TRUE(clients[i].SendAll(request));
      if (i % 2 == 0) clients[i].Read(1000, 1000);
    }
    ASSERT_EQ(Str(Command(other.get(), "PING")), "PONG");
  }
  EXPECT_TRUE(Eventually([&] { return InfoField(other.get(), "connected_clients") == "1"; }, 10000))
      << InfoField(other.get(), "connected_clients");
  EXPECT_EQ(Str(Command(other.get(), "PING")), "PONG");
}

TEST(Connections, StopsPromptlyWhileClientsHoldUnreadReplies) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto other = server->Connect();
  const std::string value(1024 * 1024, 's');
  ASSERT_EQ(Str(Command(other.get(), "SET v %b", value.data(), value.size())), "OK");
  std::vector<RawClient> stuck(5);
  std::string request;
  for (int i = 0; i < 100; ++i) request += "GET v\r\n";
  for (RawClient& c : stuck) {
    ASSERT_TRUE(c.ConnectTcp(server->port()));
    ASSERT_TRUE(c.SendAll(request));
  }
  ASSERT_EQ(Str(Command(other.get(), "PING")), "PONG");
  const int status = server->Stop(SIGTERM);
  ASSERT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace kv::test
