// SLOWLOG through the real dispatcher: which commands are logged, the entries' shape (Redis
// 7.0.15's: id, time, duration, arguments cut at 32 and 128 bytes, address, name), redaction and
// the errors. Durations are real, so they are masked; times come from the harness's clock.

#include <regex>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

constexpr std::string_view kAddr = "127.0.0.1:40001";

// The entries' durations replaced by "D".
std::string MaskDurations(const std::string& reply) {
  static const std::regex kEntry("\\*6\r\n:(\\d+)\r\n:(\\d+)\r\n:\\d+\r\n");
  return std::regex_replace(reply, kEntry, "*6\r\n:$1\r\n:$2\r\n:D\r\n");
}

// One SLOWLOG GET entry with its duration masked, logged at the harness clock's start.
std::string Entry(int id, const std::vector<std::string>& args, std::string_view name = "") {
  std::string out =
      "*6\r\n" + Int(id) + Int(1'700'000'000) + ":D\r\n*" + std::to_string(args.size()) + "\r\n";
  for (const std::string& a : args) out += Bulk(a);
  return out + Bulk(kAddr) + Bulk(name);
}

class SlowlogFamilyTest : public ::testing::Test {
 protected:
  void LogEverything() { ASSERT_EQ(h.Run({"CONFIG", "SET", "slowlog-log-slower-than", "0"}), kOk); }
  std::string Get(std::initializer_list<std::string_view> args) {
    return MaskDurations(h.Run(args));
  }
  CommandHarness h;
};

TEST_F(SlowlogFamilyTest, DefaultsAndDisabledLog) {
  // In the order of Redis's table.
  EXPECT_EQ(h.Run({"CONFIG", "GET", "slowlog-*"}),
            "*4\r\n" + Bulk("slowlog-max-len") + Bulk("128") + Bulk("slowlog-log-slower-than") +
                Bulk("10000"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "slowlog-log-slower-than", "-1"}), kOk);
  h.Run({"SET", "a", "b"});
  EXPECT_EQ(h.Run({"SLOWLOG", "LEN"}), Int(0));
  EXPECT_EQ(h.Run({"SLOWLOG", "GET"}), "*0\r\n");
  EXPECT_EQ(h.Run({"CONFIG", "SET", "slowlog-log-slower-than", "-2"}),
            Err("CONFIG SET failed (possibly related to argument 'slowlog-log-slower-than') - "
                "argument must be between -1 and 9223372036854775807 inclusive"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "slowlog-max-len", "-1"}),
            Err("CONFIG SET failed (possibly related to argument 'slowlog-max-len') - argument "
                "must be between 0 and 9223372036854775807 inclusive"));
}

TEST_F(SlowlogFamilyTest, ZeroLogsEveryCommandNewestFirstAfterItRan) {
  LogEverything();
  h.Run({"SET", "a", "b"});
  // Each command is logged after it ran: LEN does not count itself, GET does not show itself.
  EXPECT_EQ(h.Run({"SLOWLOG", "LEN"}), Int(2));
  EXPECT_EQ(Get({"SLOWLOG", "GET"}),
            "*3\r\n" + Entry(2, {"SLOWLOG", "LEN"}) + Entry(1, {"SET", "a", "b"}) +
                Entry(0, {"CONFIG", "SET", "slowlog-log-slower-than", "0"}));
  EXPECT_EQ(Get({"slowlog", "get", "1"}), "*1\r\n" + Entry(3, {"SLOWLOG", "GET"}));
  EXPECT_EQ(Get({"SLOWLOG", "GET", "0"}), "*0\r\n");
  EXPECT_EQ(h.Run({"SLOWLOG", "GET", "-1"}).substr(0, 4), "*6\r\n");
  // Rejected commands never ran: they are not logged.
  h.Run({"NOSUCH"});
  h.Run({"GET"});
  EXPECT_EQ(Get({"SLOWLOG", "GET", "1"}), "*1\r\n" + Entry(6, {"SLOWLOG", "GET", "-1"}));
  EXPECT_EQ(h.Run({"SLOWLOG", "RESET"}), kOk);
  // The RESET itself is logged once it ran.
  EXPECT_EQ(h.Run({"SLOWLOG", "LEN"}), Int(1));
}

TEST_F(SlowlogFamilyTest, MaxLenKeepsTheNewest) {
  LogEverything();
  EXPECT_EQ(h.Run({"CONFIG", "SET", "slowlog-max-len", "2"}), kOk);
  for (int i = 0; i < 5; ++i) h.Run({"PING"});
  EXPECT_EQ(Get({"SLOWLOG", "GET", "-1"}), "*2\r\n" + Entry(6, {"PING"}) + Entry(5, {"PING"}));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "slowlog-max-len", "0"}), kOk);
  EXPECT_EQ(h.Run({"SLOWLOG", "LEN"}), Int(0));
}

TEST_F(SlowlogFamilyTest, LongArgumentsAndManyArgumentsAreCut) {
  LogEverything();
  const std::string big(200, 'x');
  h.Run({"SET", "k", big});
  std::vector<std::string> del = {"DEL"};
  for (int i = 0; i < 40; ++i) del.push_back("k" + std::to_string(i));
  h.Run(del);
  std::vector<std::string> logged(del.begin(), del.begin() + 31);
  logged.push_back("... (10 more arguments)");
  EXPECT_EQ(Get({"SLOWLOG", "GET", "2"}),
            "*2\r\n" + Entry(2, logged) +
                Entry(1, {"SET", "k", std::string(128, 'x') + "... (72 more bytes)"}));
}

TEST_F(SlowlogFamilyTest, PasswordsAreRedactedAndNamesShown) {
  LogEverything();
  h.Run({"AUTH", "secret"});
  h.Run({"AUTH", "default", "secret"});
  h.Run({"AUTH", "a", "b", "c"});  // a syntax error before anything is redacted, as in Redis
  h.Run({"HELLO", "2", "AUTH", "default", "pw", "SETNAME", "me"});
  h.Run({"CONFIG", "SET", "requirepass", "", "nosuch", "x"});
  EXPECT_EQ(
      Get({"SLOWLOG", "GET", "5"}),
      "*5\r\n" + Entry(5, {"CONFIG", "SET", "requirepass", "(redacted)", "nosuch", "x"}, "me") +
          Entry(4, {"HELLO", "2", "AUTH", "(redacted)", "(redacted)", "SETNAME", "me"}, "me") +
          Entry(3, {"AUTH", "a", "b", "c"}) + Entry(2, {"AUTH", "(redacted)", "(redacted)"}) +
          Entry(1, {"AUTH", "(redacted)"}));
}

TEST_F(SlowlogFamilyTest, Errors) {
  EXPECT_EQ(h.Run({"SLOWLOG", "GET", "-2"}), Err("count should be greater than or equal to -1"));
  EXPECT_EQ(h.Run({"SLOWLOG", "GET", "x"}), Err("count should be greater than or equal to -1"));
  EXPECT_EQ(h.Run({"SLOWLOG", "GET", "1", "2"}),
            Err("unknown subcommand or wrong number of arguments for 'GET'. Try SLOWLOG HELP."));
  EXPECT_EQ(h.Run({"SLOWLOG", "LEN", "1"}),
            Err("wrong number of arguments for 'slowlog|len' command"));
  EXPECT_EQ(h.Run({"SLOWLOG"}), Err("wrong number of arguments for 'slowlog' command"));
  EXPECT_EQ(h.Run({"SLOWLOG", "NOPE"}), Err("unknown subcommand 'NOPE'. Try SLOWLOG HELP."));
}

TEST_F(SlowlogFamilyTest, Help) {
  EXPECT_EQ(h.Run({"slowlog", "help"}),
            "*12\r\n+SLOWLOG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n"
            "+GET [<count>]\r\n"
            "+    Return top <count> entries from the slowlog (default: 10, -1 mean all).\r\n"
            "+    Entries are made of:\r\n"
            "+    id, timestamp, time in microseconds, arguments array, client IP and port,\r\n"
            "+    client name\r\n+LEN\r\n+    Return the length of the slowlog.\r\n+RESET\r\n"
            "+    Reset the slowlog.\r\n+HELP\r\n+    Prints this help.\r\n");
}

}  // namespace
}  // namespace kv::test
