// Access control on the real binary: requirepass from the command line and the config file,
// pre-auth limits that close the connection, and a password that never reaches the log.

#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "tests/integration/raw_client.h"
#include "tests/support/resp_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

TEST(Auth, RequirepassFromConfigFileAndPreAuthLimits) {
  const std::string conf = MakeTempDir() + "/kv.conf";
  std::ofstream(conf) << "requirepass \"file pass\"\n";
  auto server = ServerProcess::StartKvserverWithConfig(conf);
  ASSERT_TRUE(server);
  RawClient raw(server->port());
  EXPECT_EQ(raw.Exchange("GET k\r\n", 34), "-NOAUTH Authentication required.\r\n");
  // An unauthenticated client may not send a large argument: error, then the close.
  ASSERT_TRUE(raw.SendAll("*2\r\n$4\r\nAUTH\r\n$20000\r\n"));
  bool closed = false;
  EXPECT_EQ(raw.ReadUntilClosed(5000, &closed),
            "-ERR Protocol error: unauthenticated bulk length\r\n");
  EXPECT_TRUE(closed);
  // Once authenticated it may.
  RawClient ok(server->port());
  const std::string value(100000, 'v');
  EXPECT_EQ(
      ok.Exchange(Resp({"AUTH", "file pass"}) + Resp({"SET", "k", value}) + "STRLEN k\r\n", 19),
      "+OK\r\n+OK\r\n:100000\r\n");
}

TEST(Auth, PasswordNeverLogged) {
  auto server = ServerProcess::StartKvserver({"--requirepass", "Secret-One", "--loglevel", "debug",
                                              "--client-output-buffer-limit", "normal 1mb 0 0"});
  ASSERT_TRUE(server);
  {
    auto raw = RawConnection::Connect(server->port());
    ASSERT_TRUE(raw);
    ASSERT_TRUE(raw->Send(Resp({"AUTH", "Wrong-Guess"}) + Resp({"AUTH", "default", "Secret-One"}) +
                          Resp({"HELLO", "2", "AUTH", "default", "Secret-One"}) +
                          Resp({"CONFIG", "SET", "requirepass", "Secret-Two"})));
    EXPECT_EQ(raw->ReadReply(),
              "-WRONGPASS invalid username-password pair or user is disabled.\r\n");
    EXPECT_EQ(raw->ReadReply(), "+OK\r\n");
    EXPECT_EQ(raw->ReadReply().value_or("").substr(0, 5), "*14\r\n");
    EXPECT_EQ(raw->ReadReply(), "+OK\r\n");
    // A client closed for its output limit is logged with its CLIENT LIST line, which holds no
    // arguments.
    std::string gets;
    for (int i = 0; i < 200; ++i) gets += "GET v\r\n";
    ASSERT_TRUE(raw->Send(Resp({"SET", "v", std::string(100000, 'x')}) + gets));
  }
  // A protocol error with the password in it.
  RawClient bad(server->port());
  ASSERT_TRUE(bad.SendAll("*1\r\n$x Secret-Two\r\n"));
  bool closed = false;
  bad.ReadUntilClosed(5000, &closed);
  EXPECT_TRUE(closed);
  auto c = server->Connect();
  EXPECT_EQ(Str(Command(c.get(), "AUTH Secret-Two")), "OK");
  EXPECT_EQ(server->Stop(), 0);
  const std::string log = server->ReadLog();
  EXPECT_NE(log.find("Ready to accept connections"), std::string::npos);
  for (const char* secret : {"Secret-One", "Secret-Two", "Wrong-Guess"}) {
    EXPECT_EQ(log.find(secret), std::string::npos) << secret << " in the log:\n" << log;
  }
}

}  // namespace
}  // namespace kv::test
