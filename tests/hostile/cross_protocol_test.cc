// The cross-protocol guard: an HTTP request sent to the server ("POST ..." or a "Host:" header)
// closes the connection without a reply and is logged, as Redis's securityWarningCommand does.

#include <string>

#include "gtest/gtest.h"
#include "tests/integration/raw_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

constexpr std::string_view kWarning =
    "Possible SECURITY ATTACK detected. It looks like somebody is sending POST or Host: commands "
    "to Redis. This is likely due to an attacker attempting to use Cross Protocol Scripting to "
    "compromise your Redis instance. Connection aborted.";

size_t Count(const std::string& text, std::string_view what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(CrossProtocol, PostClosesWithoutReplyAndIsLogged) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  RawClient raw(server->port());
  EXPECT_EQ(raw.Exchange("PING\r\n", 7), "+PONG\r\n");
  // What a browser sends when a web page posts to the server. The commands after POST never run.
  ASSERT_TRUE(raw.SendAll(
      "POST / HTTP/1.1\r\nHost: 127.0.0.1:6379\r\nContent-Length: 20\r\n\r\nSET hacked 1\r\n"));
  bool closed = false;
  EXPECT_EQ(raw.ReadUntilClosed(5000, &closed), "");
  EXPECT_TRUE(closed);
  auto c = server->Connect();
  EXPECT_EQ(Command(c.get(), "EXISTS hacked")->integer, 0);
  EXPECT_TRUE(Eventually([&] { return Count(server->ReadLog(), kWarning) == 1; }, 5000))
      << server->ReadLog();
}

TEST(CrossProtocol, HostHeaderInAnyCaseAndMultibulkToo) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  for (const std::string& request :
       {std::string("host: example.com\r\nPING\r\n"), Resp({"HoSt:", "x"}), Resp({"post"})}) {
    RawClient raw(server->port());
    ASSERT_TRUE(raw.SendAll(request));
    bool closed = false;
    EXPECT_EQ(raw.ReadUntilClosed(5000, &closed), "") << request;
    EXPECT_TRUE(closed) << request;
  }
  // Replies of earlier commands in the same read are dropped too, as Redis frees the client
  // before writing them.
  {
    RawClient raw(server->port());
    ASSERT_TRUE(raw.SendAll(Resp({"SET", "a", "1"}) + Resp({"POST", "/"})));
    bool closed = false;
    const std::string got = raw.ReadUntilClosed(5000, &closed);
    EXPECT_TRUE(closed);
    EXPECT_TRUE(got.empty() || got == "+OK\r\n") << got;
  }
  // Logged once a minute at most, so that an attack cannot flood the log.
  EXPECT_EQ(Count(server->ReadLog(), kWarning), 1u) << server->ReadLog();
  // "POST" as an argument is just data; the server is still in order.
  auto c = server->Connect();
  EXPECT_EQ(Str(Command(c.get(), "ECHO POST")), "POST");
}

}  // namespace
}  // namespace kv::test
