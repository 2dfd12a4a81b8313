// MONITOR, RESET and ROLE through the real dispatcher. After MONITOR the harness's connection
// receives its own commands' lines after their replies, as a Redis monitor does; the harness's
// clock gives the timestamp.

#include <string>

#include "gtest/gtest.h"
#include "server/monitor.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

// The monitor line the harness's client (db `db`) gets at the clock's start.
std::string Line(std::string_view quoted_args, int db = 0) {
  return "+1700000000.000000 [" + std::to_string(db) + " 127.0.0.1:40001] " +
         std::string(quoted_args) + "\r\n";
}

class MonitorFamilyTest : public ::testing::Test {
 protected:
  CommandHarness h;
};

TEST_F(MonitorFamilyTest, MonitorSeesCommandsAfterTheirReplies) {
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);  // not a monitor yet
  EXPECT_EQ(h.Run({"MONITOR"}), kOk);
  EXPECT_EQ(h.state().monitors.size(), 1u);
  EXPECT_EQ(h.Run({"set", "k", "v"}), kOk + Line(R"("set" "k" "v")"));
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("v") + Line(R"("GET" "k")"));
  // Redis's sdscatrepr quoting.
  EXPECT_EQ(h.Run({"ECHO", std::string("a \"b\"\\\r\n\t\a\b\x01\xff\0z", 15)}),
            Bulk(std::string("a \"b\"\\\r\n\t\a\b\x01\xff\0z", 15)) +
                Line(R"("ECHO" "a \"b\"\\\r\n\t\a\b\x01\xff\x00z")"));
  // Errors from a command that ran are shown; rejected commands are not.
  EXPECT_EQ(h.Run({"INCR", "k"}),
            Err("value is not an integer or out of range") + Line(R"("INCR" "k")"));
  EXPECT_EQ(h.Run({"NOSUCH"}), Err("unknown command 'NOSUCH', with args beginning with: "));
  EXPECT_EQ(h.Run({"GET"}), Err("wrong number of arguments for 'get' command"));
  // The database is the one after the command.
  EXPECT_EQ(h.Run({"SELECT", "3"}), kOk + Line(R"("SELECT" "3")", 3));
  // Administrative commands are never shown, MONITOR again gets no reply at all.
  EXPECT_EQ(h.Run({"CONFIG", "GET", "hz"}), "*2\r\n" + Bulk("hz") + Bulk("10"));
  EXPECT_EQ(h.Run({"MONITOR"}), "");
  EXPECT_EQ(h.state().monitors.size(), 1u);
  // Passwords are redacted.
  EXPECT_EQ(h.Run({"AUTH", "default", "pw"}),
            kOk + Line(R"q("AUTH" "(redacted)" "(redacted)")q", 3));
  EXPECT_EQ(h.Run({"HELLO", "3", "AUTH", "default", "pw"}).substr(0, 4), "%7\r\n");
  // RESP3 changes nothing: the lines are status replies.
  EXPECT_EQ(h.Run({"PING"}), "+PONG\r\n" + Line(R"("PING")", 3));
}

// A monitor's lines are replies like any other: CLIENT REPLY silences them as Redis's addReply
// does (SKIP's own line still comes, the next command's does not).
TEST_F(MonitorFamilyTest, ClientReplySilencesMonitorLines) {
  h.Run({"MONITOR"});
  EXPECT_EQ(h.Run({"CLIENT", "REPLY", "SKIP"}), Line(R"("CLIENT" "REPLY" "SKIP")"));
  EXPECT_EQ(h.Run({"PING"}), "");
  EXPECT_EQ(h.Run({"CLIENT", "REPLY", "OFF"}), "");
  EXPECT_EQ(h.Run({"PING"}), "");
  EXPECT_EQ(h.Run({"CLIENT", "REPLY", "ON"}), kOk + Line(R"("CLIENT" "REPLY" "ON")"));
}

TEST_F(MonitorFamilyTest, MonitorClientShowsFlagO) {
  EXPECT_NE(h.Run({"CLIENT", "INFO"}).find(" flags=N "), std::string::npos);
  h.Run({"MONITOR"});
  const std::string info = h.Run({"CLIENT", "INFO"});
  EXPECT_NE(info.find(" flags=O "), std::string::npos) << info;
  EXPECT_NE(info.find(Line(R"("CLIENT" "INFO")")), std::string::npos) << info;
}

TEST_F(MonitorFamilyTest, MonitorLineForUnixSocketClients) {
  ConnState conn;
  conn.unix_socket = true;
  conn.db_index = 2;
  const std::string_view args[] = {"get", "x"};
  EXPECT_EQ(MonitorLine(1'700'000'123'004'005, conn, "/tmp/kv.sock", args),
            "+1700000123.004005 [2 unix:/tmp/kv.sock] \"get\" \"x\"\r\n");
}

TEST_F(MonitorFamilyTest, ResetRestoresANewConnection) {
  h.Run({"SELECT", "5"});
  h.Run({"HELLO", "3", "SETNAME", "me"});
  h.Run({"CLIENT", "NO-EVICT", "on"});
  h.Run({"CLIENT", "NO-TOUCH", "on"});
  h.Run({"MONITOR"});
  // RESET itself is answered in RESP2 and, no longer monitoring, not shown.
  EXPECT_EQ(h.Run({"RESET"}), "+RESET\r\n");
  EXPECT_TRUE(h.state().monitors.empty());
  EXPECT_EQ(h.conn().db_index, 0u);
  EXPECT_EQ(h.conn().protocol, 2);
  EXPECT_EQ(h.Run({"CLIENT", "GETNAME"}), kNil);
  const std::string info = h.Run({"CLIENT", "INFO"});
  EXPECT_NE(info.find(" flags=N db=0 "), std::string::npos) << info;
  // CLIENT REPLY OFF ends too: RESET's reply is sent.
  EXPECT_EQ(h.Run({"CLIENT", "REPLY", "OFF"}), "");
  EXPECT_EQ(h.Run({"reset"}), "+RESET\r\n");
  EXPECT_EQ(h.Run({"PING"}), "+PONG\r\n");
  EXPECT_EQ(h.Run({"RESET", "x"}), Err("wrong number of arguments for 'reset' command"));
}

TEST_F(MonitorFamilyTest, ResetDeauthenticatesWhenAPasswordIsRequired) {
  Config config;
  config.requirepass = "pw";
  CommandHarness locked(config);
  locked.conn().authenticated = false;
  // RESET runs before authenticating.
  EXPECT_EQ(locked.Run({"RESET"}), "+RESET\r\n");
  EXPECT_EQ(locked.Run({"AUTH", "pw"}), kOk);
  EXPECT_EQ(locked.Run({"GET", "a"}), kNil);
  EXPECT_EQ(locked.Run({"RESET"}), "+RESET\r\n");
  EXPECT_EQ(locked.Run({"GET", "a"}), "-NOAUTH Authentication required.\r\n");
}

TEST_F(MonitorFamilyTest, RoleOfAStandaloneMaster) {
  EXPECT_EQ(h.Run({"ROLE"}), "*3\r\n$6\r\nmaster\r\n:0\r\n*0\r\n");
  h.Run({"HELLO", "3"});
  EXPECT_EQ(h.Run({"role"}), "*3\r\n$6\r\nmaster\r\n:0\r\n*0\r\n");
  EXPECT_EQ(h.Run({"ROLE", "x"}), Err("wrong number of arguments for 'role' command"));
}

}  // namespace
}  // namespace kv::test
