// PING, ECHO, QUIT, SELECT through the real dispatcher. Every expected reply is what Redis 7.0.15
// sends for the same command.

#include <string>

#include "gtest/gtest.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

class ConnectionFamilyTest : public ::testing::Test {
 protected:
  CommandHarness h;
};

TEST_F(ConnectionFamilyTest, Ping) {
  EXPECT_EQ(h.Run({"PING"}), "+PONG\r\n");
  EXPECT_EQ(h.Run({"ping", "hello"}), "$5\r\nhello\r\n");
  EXPECT_EQ(h.Run({"PING", ""}), "$0\r\n\r\n");
  EXPECT_EQ(h.Run({"PING", "a", "b"}), Err("wrong number of arguments for 'ping' command"));
  h.conn().protocol = 3;
  EXPECT_EQ(h.Run({"PING"}), "+PONG\r\n");
  EXPECT_EQ(h.Run({"PING", "x"}), "$1\r\nx\r\n");
}

TEST_F(ConnectionFamilyTest, Echo) {
  EXPECT_EQ(h.Run({"ECHO", "x"}), "$1\r\nx\r\n");
  EXPECT_EQ(h.Run({"echo", ""}), "$0\r\n\r\n");
  EXPECT_EQ(h.Run({"ECHO", std::string("a\0b\r\n", 5)}), std::string("$5\r\na\0b\r\n\r\n", 11));
  EXPECT_EQ(h.Run({"ECHO"}), Err("wrong number of arguments for 'echo' command"));
  EXPECT_EQ(h.Run({"ECHO", "a", "b"}), Err("wrong number of arguments for 'echo' command"));
}

TEST_F(ConnectionFamilyTest, QuitRepliesOkAndClosesAfterTheReply) {
  EXPECT_FALSE(h.conn().close_after_reply);
  EXPECT_EQ(h.Run({"QUIT"}), "+OK\r\n");
  EXPECT_TRUE(h.conn().close_after_reply);
}

TEST_F(ConnectionFamilyTest, QuitIgnoresArguments) {
  EXPECT_EQ(h.Run({"quit", "x", "y"}), "+OK\r\n");
  EXPECT_TRUE(h.conn().close_after_reply);
}

TEST_F(ConnectionFamilyTest, SelectSwitchesDatabases) {
  EXPECT_EQ(h.Run({"SET", "k", "db0"}), "+OK\r\n");
  EXPECT_EQ(h.Run({"SELECT", "15"}), "+OK\r\n");
  EXPECT_EQ(h.conn().db_index, 15u);
  EXPECT_EQ(h.Run({"GET", "k"}), "$-1\r\n");
  EXPECT_EQ(h.Run({"SET", "k", "db15"}), "+OK\r\n");
  EXPECT_EQ(h.Run({"select", "0"}), "+OK\r\n");
  EXPECT_EQ(h.Run({"GET", "k"}), "$3\r\ndb0\r\n");
  EXPECT_EQ(h.Run({"SELECT", "15"}), "+OK\r\n");
  EXPECT_EQ(h.Run({"GET", "k"}), "$4\r\ndb15\r\n");
}

TEST_F(ConnectionFamilyTest, SelectRangeErrors) {
  const std::string kOutOfRange = Err("DB index is out of range");
  EXPECT_EQ(h.Run({"SELECT", "16"}), kOutOfRange);
  EXPECT_EQ(h.Run({"SELECT", "-1"}), kOutOfRange);
  EXPECT_EQ(h.Run({"SELECT", "2147483647"}), kOutOfRange);
  EXPECT_EQ(h.Run({"SELECT", "-2147483648"}), kOutOfRange);
  // Outside int: getIntFromObjectOrReply's own text.
  const std::string kNotInt32 =
      Err("value is out of range, value must between -2147483648 and 2147483647");
  EXPECT_EQ(h.Run({"SELECT", "2147483648"}), kNotInt32);
  EXPECT_EQ(h.Run({"SELECT", "-2147483649"}), kNotInt32);
  EXPECT_EQ(h.Run({"SELECT", "9223372036854775807"}), kNotInt32);
  EXPECT_EQ(h.conn().db_index, 0u) << "a failed SELECT keeps the database";
}

TEST_F(ConnectionFamilyTest, SelectNonInteger) {
  const std::string kNotInt = Err("value is not an integer or out of range");
  for (const char* index : {"abc", "", " 1", "01", "-0", "1.0", "+1", "9223372036854775808"}) {
    EXPECT_EQ(h.Run({"SELECT", index}), kNotInt) << index;
  }
}

TEST_F(ConnectionFamilyTest, SelectHonoursTheDatabasesSetting) {
  Config config;
  config.databases = 2;
  CommandHarness small(config);
  EXPECT_EQ(small.Run({"SELECT", "1"}), "+OK\r\n");
  EXPECT_EQ(small.Run({"SELECT", "2"}), Err("DB index is out of range"));
}

TEST_F(ConnectionFamilyTest, ArityErrors) {
  EXPECT_EQ(h.Run({"SELECT"}), Err("wrong number of arguments for 'select' command"));
  EXPECT_EQ(h.Run({"SELECT", "1", "2"}), Err("wrong number of arguments for 'select' command"));
}

}  // namespace
}  // namespace kv::test
