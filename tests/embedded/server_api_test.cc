// The embedding API (<kvserver/server.h>): start and stop, endpoints, several servers in one
// process, directives set in code, FlushAll and KeyCount.

#include <hiredis/hiredis.h>

#include <chrono>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "kvserver/gtest.h"
#include "kvserver/server.h"
#include "tests/integration/raw_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

using kvserver::Endpoint;
using kvserver::Options;
using kvserver::Server;

std::string Ping(int port) {
  RawClient c(port);
  return c.Exchange("PING\r\n", 7);
}

TEST(EmbeddedServer, StartReturnsTheBoundLoopbackEndpoint) {
  Server server;
  const Endpoint at = server.Start();
  EXPECT_EQ(at.host, "127.0.0.1");
  ASSERT_NE(at.port, 0);
  EXPECT_EQ(server.port(), at.port);
  EXPECT_FALSE(at.unix_socket.has_value());
  EXPECT_TRUE(server.running());
  EXPECT_EQ(Ping(at.port), "+PONG\r\n");
}

TEST(EmbeddedServer, ListensOnAUnixSocketWhenConfigured) {
  const std::string path = MakeTempDir() + "/kv.sock";
  Server server(Options().Set("unixsocket", path));
  const Endpoint at = server.Start();
  ASSERT_TRUE(at.unix_socket.has_value());
  EXPECT_EQ(*at.unix_socket, path);
  kvserver::testing::RedisConnection c(redisConnectUnix(path.c_str()));
  ASSERT_TRUE(c && !c->err);
  kvserver::testing::RedisReply r(static_cast<redisReply*>(redisCommand(c.get(), "PING")));
  ASSERT_TRUE(r);
  EXPECT_EQ(std::string(r->str, r->len), "PONG");
}

TEST(EmbeddedServer, StopClosesEverythingAndIsIdempotent) {
  Server server;
  server.Stop();  // before Start: nothing to do
  const uint16_t port = server.Start().port;
  RawClient client(port);
  ASSERT_EQ(client.Exchange("PING\r\n", 7), "+PONG\r\n");
  server.Stop();
  EXPECT_FALSE(server.running());
  // The client's connection was closed and the port no longer accepts.
  bool closed = false;
  EXPECT_EQ(client.ReadUntilClosed(5000, &closed), "");
  EXPECT_TRUE(closed);
  RawClient late;
  EXPECT_FALSE(late.ConnectTcp(port));
  server.Stop();
  // Helpers still work on a stopped server: they run on the caller's thread then.
  EXPECT_EQ(server.KeyCount(), 0u);
}

TEST(EmbeddedServer, StartsOnlyOnce) {
  Server server;
  server.Start();
  EXPECT_THROW(server.Start(), kvserver::Error);
  server.Stop();
  EXPECT_THROW(server.Start(), kvserver::Error);
}

TEST(EmbeddedServer, BadDirectivesThrow) {
  EXPECT_THROW(Server(Options().Set("no-such-directive", "1")), kvserver::Error);
  try {
    Server server(Options().Set("maxclients", "0"));
    FAIL() << "maxclients 0 was accepted";
  } catch (const kvserver::Error& e) {
    EXPECT_NE(std::string(e.what()).find("maxclients: argument must be between 1 and"),
              std::string::npos)
        << e.what();
  }
}

TEST(EmbeddedServer, APortInUseMakesStartThrow) {
  Server first;
  const uint16_t port = first.Start().port;
  Server second(Options().Set("port", std::to_string(port)));
  EXPECT_THROW(second.Start(), kvserver::Error);
  EXPECT_FALSE(second.running());
  EXPECT_EQ(Ping(port), "+PONG\r\n");
}

TEST(EmbeddedServer, DirectivesSetInCodeApply) {
  Server server(Options().Set("databases", "2").Set("maxclients", "77"));
  RawClient c(server.Start().port);
  EXPECT_REPLY(c, "CONFIG GET maxclients\r\n", "*2\r\n$10\r\nmaxclients\r\n$2\r\n77\r\n");
  EXPECT_REPLY(c, "SELECT 2\r\n", "-ERR DB index is out of range\r\n");
  EXPECT_THROW(server.KeyCount(2), std::out_of_range);
}

TEST(EmbeddedServer, TwoServersRunIndependently) {
  Server a;
  Server b;
  RawClient ca(a.Start().port);
  RawClient cb(b.Start().port);
  ASSERT_NE(a.port(), b.port());
  EXPECT_REPLY(ca, "SET k from-a\r\n", "+OK\r\n");
  EXPECT_REPLY(cb, "GET k\r\n", "$-1\r\n");
  EXPECT_EQ(a.KeyCount(), 1u);
  EXPECT_EQ(b.KeyCount(), 0u);
  a.Stop();
  // Stopping one leaves the other serving.
  EXPECT_REPLY(cb, "SET k from-b\r\n", "+OK\r\n");
  EXPECT_EQ(b.KeyCount(), 1u);
}

TEST(EmbeddedServer, FlushAllAndKeyCountSeeEveryDatabase) {
  Server server;
  RawClient c(server.Start().port);
  EXPECT_REPLY(c, "MSET a 1 b 2\r\n", "+OK\r\n");
  EXPECT_REPLY(c, "SELECT 3\r\n", "+OK\r\n");
  EXPECT_REPLY(c, "SET c 3\r\n", "+OK\r\n");
  EXPECT_EQ(server.KeyCount(0), 2u);
  EXPECT_EQ(server.KeyCount(3), 1u);
  EXPECT_EQ(server.KeyCount(1), 0u);
  EXPECT_EQ(server.KeyCount(), 3u);
  EXPECT_THROW(server.KeyCount(16), std::out_of_range);
  EXPECT_THROW(server.KeyCount(-1), std::out_of_range);
  server.FlushAll();
  EXPECT_EQ(server.KeyCount(), 0u);
  EXPECT_REPLY(c, "DBSIZE\r\n", ":0\r\n");
}

TEST(EmbeddedServer, AClientsShutdownStopsItAndHelpersStillWork) {
  Server server;
  RawClient c(server.Start().port);
  EXPECT_REPLY(c, "SET k v\r\n", "+OK\r\n");
  ASSERT_TRUE(c.SendAll("SHUTDOWN\r\n"));
  bool closed = false;
  EXPECT_EQ(c.ReadUntilClosed(5000, &closed), "");
  EXPECT_TRUE(closed);
  // The loop ends by itself; the helpers then run on the caller's thread.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (server.running() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_FALSE(server.running());
  EXPECT_EQ(server.KeyCount(), 1u);
  server.FlushAll();
  EXPECT_EQ(server.KeyCount(), 0u);
  server.Stop();
}

}  // namespace
}  // namespace kv::test
