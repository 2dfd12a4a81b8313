// Differential tests of MONITOR, SLOWLOG, RESET and ROLE: the same requests go to kvserver and
// to a real redis-server 7.0.15, and the replies (and monitor lines) must be the same bytes once
// what differs by nature is masked: entry ids, times, durations, client ports.

#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/resp_client.h"

namespace kv::test {
namespace {

// SLOWLOG entries' id, time and duration, client ports and HELLO's client id, replaced by
// letters.
std::string Mask(const std::string& reply) {
  static const std::regex kEntry("\\*6\r\n:\\d+\r\n:\\d+\r\n:\\d+\r\n");
  static const std::regex kPeer("\\$\\d+\r\n127\\.0\\.0\\.1:\\d+\r\n");
  static const std::regex kMonitor("^\\+\\d+\\.\\d{6} \\[(\\d+) 127\\.0\\.0\\.1:\\d+\\]");
  static const std::regex kHelloId("\\$2\r\nid\r\n:\\d+\r\n");
  std::string s = std::regex_replace(reply, kEntry, "*6\r\n:I\r\n:T\r\n:D\r\n");
  s = std::regex_replace(s, kPeer, "$$A\r\n127.0.0.1:P\r\n");
  s = std::regex_replace(s, kHelloId, "$$2\r\nid\r\n:N\r\n");
  return std::regex_replace(s, kMonitor, "+T [$1 127.0.0.1:P]");
}

bool SameMasked(const Args&, const std::string& kv, const std::string& redis) {
  return Mask(kv) == Mask(redis);
}

class IntrospectionLogsDiffTest : public ConnectedBothServersTest<IntrospectionLogsDiffTest> {};

TEST_F(IntrospectionLogsDiffTest, Role) { ExpectSameReplies({{"ROLE"}, {"role"}, {"ROLE", "x"}}); }

TEST_F(IntrospectionLogsDiffTest, SlowlogEntriesAndErrors) {
  Args del = {"DEL"};
  for (int i = 0; i < 40; ++i) del.push_back("key" + std::to_string(i));
  ExpectSameReplies(
      {
          {"CONFIG", "SET", "slowlog-log-slower-than", "0"},
          {"SLOWLOG", "RESET"},
          {"SET", "k", std::string(200, 'x')},
          del,
          {"AUTH", "pw"},
          {"AUTH", "default", "pw"},
          {"AUTH", "a", "b", "c"},
          {"HELLO", "2", "AUTH", "default", "pw"},
          {"CLIENT", "SETNAME", "n1"},
          {"CONFIG", "SET", "requirepass", "", "nosuch", "x"},
          {"ECHO", std::string("bin\0\r\n\"", 7)},
          {"NOSUCH", "x"},
          {"GET"},
          {"SLOWLOG", "LEN"},
          {"SLOWLOG", "GET"},
          {"SLOWLOG", "GET", "2"},
          {"slowlog", "get", "-1"},
          {"SLOWLOG", "GET", "0"},
          {"SLOWLOG", "GET", "-2"},
          {"SLOWLOG", "GET", "x"},
          {"SLOWLOG", "GET", "1", "2"},
          {"SLOWLOG", "LEN", "x"},
          {"SLOWLOG"},
          {"SLOWLOG", "NOPE"},
          {"SLOWLOG", "HELP"},
          {"CONFIG", "SET", "slowlog-max-len", "3"},
          {"PING"},
          {"SLOWLOG", "GET", "-1"},
          {"CONFIG", "SET", "slowlog-max-len", "0"},
          {"SLOWLOG", "LEN"},
          {"CONFIG", "SET", "slowlog-max-len", "128"},
          {"CONFIG", "SET", "slowlog-log-slower-than", "-1"},
          {"SLOWLOG", "RESET"},
          {"PING"},
          {"SLOWLOG", "LEN"},
          {"CONFIG", "GET", "slowlog-log-slower-than"},
          {"CONFIG", "GET", "slowlog-max-len"},
          {"CONFIG", "SET", "slowlog-log-slower-than", "-2"},
          {"CONFIG", "SET", "slowlog-max-len", "-1"},
          {"CONFIG", "SET", "slowlog-log-slower-than", "10000"},
      },
      SameMasked);
}

TEST_F(IntrospectionLogsDiffTest, ResetRestoresTheConnection) {
  ExpectSameReplies({
      {"SELECT", "5"},
      {"SET", "k", "v"},
      {"CLIENT", "SETNAME", "x"},
      {"RESET"},
      {"GET", "k"},
      {"CLIENT", "GETNAME"},
      {"DBSIZE"},
      {"RESET", "x"},
      {"CONFIG", "SET", "requirepass", "pw"},
      {"reset"},
      {"GET", "k"},
      {"AUTH", "pw"},
      {"GET", "k"},
      {"CONFIG", "SET", "requirepass", ""},
      {"LATENCY", "LATEST"},
      {"LATENCY", "HISTORY", "command"},
      {"LATENCY", "RESET"},
      {"LATENCY", "GRAPH", "command"},
      {"LATENCY", "DOCTOR"},
      {"LATENCY", "NOPE"},
      {"LATENCY", "LATEST", "x"},
      {"LATENCY", "HELP"},
  });
  // RESET also leaves RESP3.
  for (RawConnection* c : {kv_.get(), redis_conn_.get()}) {
    ASSERT_TRUE(c->Send(EncodeCommand({"HELLO", "3"})));
    ASSERT_TRUE(c->ReadReply().has_value());
  }
  ExpectSameReplies({{"GET", "nosuch"}, {"RESET"}, {"GET", "nosuch"}});
}

// A monitor connection on each server sees the same lines for the same commands from another
// connection: the quoting of binary arguments, redaction, the database, hidden commands.
TEST_F(IntrospectionLogsDiffTest, MonitorLines) {
  auto kv_monitor = RawConnection::Connect(kvserver_->port());
  auto redis_monitor = RawConnection::Connect(redis_->port());
  ASSERT_TRUE(kv_monitor && redis_monitor);
  for (RawConnection* m : {kv_monitor.get(), redis_monitor.get()}) {
    // A RESP3 monitor gets the same status lines.
    ASSERT_TRUE(m->Send(EncodeCommand({"HELLO", "3"})));
    ASSERT_TRUE(m->ReadReply().has_value());
    ASSERT_TRUE(m->Send(EncodeCommand({"MONITOR"})));
    ASSERT_EQ(m->ReadReply().value_or(""), "+OK\r\n");
  }
  const std::vector<Args> commands = {
      {"SET", "plain", "value"},
      {"set", "quotes\"and\\back", std::string("\0\x01\x7f\xff\r\n\t\a\b end", 14)},
      {"GET", "plain"},
      {"INCR", "plain"},
      {"SELECT", "2"},
      {"ECHO", "in db 2"},
      {"SELECT", "0"},
      {"AUTH", "pw"},
      {"AUTH", "default", "pw"},
      {"HELLO", "2", "AUTH", "default", "pw", "SETNAME", "c1"},
      {"CONFIG", "GET", "hz"},
      {"SLOWLOG", "LEN"},
      {"NOSUCH", "x"},
      {"GET"},
      {"CLIENT", "ID"},
      {"RESET"},
      {"PING", "end"},
  };
  std::vector<std::string> kv_lines, redis_lines;
  for (auto [monitor, port, lines] :
       {std::tuple{kv_monitor.get(), kvserver_->port(), &kv_lines},
        std::tuple{redis_monitor.get(), redis_->port(), &redis_lines}}) {
    auto client = RawConnection::Connect(port);
    ASSERT_TRUE(client);
    for (const Args& c : commands) {
      ASSERT_TRUE(client->Send(EncodeCommand(c)));
      ASSERT_TRUE(client->ReadReply().has_value()) << DescribeArgs(c);
    }
    while (lines->empty() || lines->back().find("\"end\"") == std::string::npos) {
      auto line = monitor->ReadReply();
      ASSERT_TRUE(line.has_value()) << "after " << lines->size() << " lines";
      lines->push_back(Mask(*line));
    }
  }
  EXPECT_EQ(kv_lines, redis_lines);
  EXPECT_EQ(kv_lines.size(), 13u);
}

}  // namespace
}  // namespace kv::test
