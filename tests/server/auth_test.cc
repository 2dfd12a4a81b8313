// AUTH, HELLO AUTH, requirepass and the commands allowed before authenticating, through the real
// dispatcher. Every expected reply is what Redis 7.0.15 sends (the differential suite checks the
// same against a real redis-server).

#include "server/auth.h"

#include <string>

#include "gtest/gtest.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

const std::string kNoAuth = "-NOAUTH Authentication required.\r\n";
const std::string kWrongPass = "-WRONGPASS invalid username-password pair or user is disabled.\r\n";

Config WithPassword(std::string password) {
  Config c;
  c.requirepass = std::move(password);
  return c;
}

TEST(AuthTest, WithoutPasswordEveryClientIsAuthenticated) {
  CommandHarness h;
  EXPECT_EQ(h.Run({"GET", "k"}), kNil);
  EXPECT_EQ(h.Run({"AUTH", "x"}),
            Err("AUTH <password> called without any password configured for the default user. "
                "Are you sure your configuration is correct?"));
  // With a user name, the default user's "nopass" accepts any password; other users do not
  // exist.
  EXPECT_EQ(h.Run({"AUTH", "default", "anything"}), kOk);
  EXPECT_EQ(h.Run({"AUTH", "alice", "anything"}), kWrongPass);
  EXPECT_EQ(h.Run({"AUTH", "a", "b", "c"}), Err("syntax error"));
  EXPECT_EQ(h.Run({"AUTH"}), Err("wrong number of arguments for 'auth' command"));
}

TEST(AuthTest, OnlyNoAuthCommandsRunBeforeAuthenticating) {
  CommandHarness h(WithPassword("s3cret"));
  h.conn().authenticated = false;
  EXPECT_TRUE(AuthRequired(h.conn(), h.state()));
  EXPECT_EQ(h.Run({"GET", "k"}), kNoAuth);
  EXPECT_EQ(h.Run({"PING"}), kNoAuth);
  EXPECT_EQ(h.Run({"CONFIG", "GET", "requirepass"}), kNoAuth);
  EXPECT_EQ(h.Run({"CLIENT", "ID"}), kNoAuth);
  // Unknown commands and wrong arities are reported first, as in Redis's processCommand.
  EXPECT_EQ(h.Run({"NOSUCH"}), Err("unknown command 'NOSUCH', with args beginning with: "));
  EXPECT_EQ(h.Run({"GET"}), Err("wrong number of arguments for 'get' command"));
  EXPECT_EQ(h.Run({"HELLO"}),
            "-NOAUTH HELLO must be called with the client already authenticated, otherwise the "
            "HELLO AUTH <user> <pass> option can be used to authenticate the client and select "
            "the RESP protocol version at the same time\r\n");
  EXPECT_EQ(h.Run({"AUTH", "wrong"}), kWrongPass);
  EXPECT_EQ(h.Run({"AUTH", "default", "wrong"}), kWrongPass);
  EXPECT_EQ(h.Run({"AUTH", "S3CRET"}), kWrongPass);
  EXPECT_EQ(h.Run({"AUTH", "s3cre"}), kWrongPass);
  EXPECT_EQ(h.Run({"AUTH", "s3crett"}), kWrongPass);
  EXPECT_EQ(h.Run({"AUTH", "other", "s3cret"}), kWrongPass);
  EXPECT_FALSE(h.conn().authenticated);
  EXPECT_EQ(h.Run({"AUTH", "s3cret"}), kOk);
  EXPECT_TRUE(h.conn().authenticated);
  EXPECT_FALSE(AuthRequired(h.conn(), h.state()));
  EXPECT_EQ(h.Run({"PING"}), "+PONG\r\n");
  // A wrong password later does not log the client out.
  EXPECT_EQ(h.Run({"AUTH", "wrong"}), kWrongPass);
  EXPECT_EQ(h.Run({"PING"}), "+PONG\r\n");
}

TEST(AuthTest, QuitWorksBeforeAuthenticating) {
  CommandHarness h(WithPassword("pw"));
  h.conn().authenticated = false;
  EXPECT_EQ(h.Run({"QUIT"}), kOk);
  EXPECT_TRUE(h.conn().close_after_reply);
}

TEST(AuthTest, HelloAuth) {
  CommandHarness h(WithPassword("pw"));
  h.conn().authenticated = false;
  EXPECT_EQ(h.Run({"HELLO", "3", "AUTH", "default", "bad"}), kWrongPass);
  EXPECT_EQ(h.conn().protocol, 2);
  EXPECT_EQ(h.Run({"HELLO", "3", "AUTH", "bob", "pw"}), kWrongPass);
  const std::string hello = h.Run({"HELLO", "3", "AUTH", "default", "pw", "SETNAME", "me"});
  EXPECT_EQ(hello.substr(0, 4), "%7\r\n") << hello;
  EXPECT_TRUE(h.conn().authenticated);
  EXPECT_EQ(h.conn().protocol, 3);
  EXPECT_EQ(h.conn().name, "me");
  EXPECT_EQ(h.Run({"GET", "k"}), "_\r\n");
}

TEST(AuthTest, ConfigSetRequirepass) {
  CommandHarness h;
  EXPECT_EQ(h.Run({"CONFIG", "GET", "requirepass"}), "*2\r\n$11\r\nrequirepass\r\n$0\r\n\r\n");
  EXPECT_EQ(h.Run({"CONFIG", "SET", "requirepass", "pw"}), kOk);
  // The client that set it was authenticated when it connected and stays so; CONFIG GET shows
  // the password, as Redis does.
  EXPECT_EQ(h.Run({"CONFIG", "GET", "requirepass"}), "*2\r\n$11\r\nrequirepass\r\n$2\r\npw\r\n");
  EXPECT_EQ(h.Run({"AUTH", "nope"}), kWrongPass);
  EXPECT_EQ(h.Run({"AUTH", "pw"}), kOk);
  EXPECT_EQ(h.Run({"CONFIG", "SET", "requirepass", ""}), kOk);
  EXPECT_EQ(h.Run({"AUTH", "pw"}),
            Err("AUTH <password> called without any password configured for the default user. "
                "Are you sure your configuration is correct?"));
}

}  // namespace
}  // namespace kv::test
