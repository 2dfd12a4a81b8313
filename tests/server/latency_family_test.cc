// LATENCY through the real dispatcher: the events the dispatcher records, and each subcommand's
// reply for samples placed in the monitor at known times.

#include <string>

#include "gtest/gtest.h"
#include "server/command_stats.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

constexpr int64_t kStart = 1'700'000'000;  // the harness clock's start, in seconds

class LatencyFamilyTest : public ::testing::Test {
 protected:
  LatencyMonitor& monitor() { return h.state().latency_monitor; }
  CommandHarness h;
};

TEST_F(LatencyFamilyTest, NothingRecordedWhileTheThresholdIsZero) {
  EXPECT_EQ(h.Run({"CONFIG", "GET", "latency-monitor-threshold"}),
            "*2\r\n" + Bulk("latency-monitor-threshold") + Bulk("0"));
  h.Run({"PING"});
  EXPECT_EQ(h.Run({"LATENCY", "LATEST"}), "*0\r\n");
  EXPECT_EQ(h.Run({"LATENCY", "HISTORY", "command"}), "*0\r\n");
  EXPECT_EQ(h.Run({"LATENCY", "RESET"}), Int(0));
  EXPECT_EQ(h.Run({"LATENCY", "GRAPH", "command"}),
            Err("No samples available for event 'command'"));
  h.Run({"HELLO", "3"});
  EXPECT_EQ(h.Run({"LATENCY", "DOCTOR"}),
            "=292\r\ntxt:I'm sorry, Dave, I can't do that. Latency monitoring is disabled in this "
            "Redis instance. You may use \"CONFIG SET latency-monitor-threshold "
            "<milliseconds>.\" in order to enable it. If we weren't in a deep space mission I'd "
            "suggest to take a look at https://redis.io/topics/latency-monitor.\n\r\n");
}

TEST_F(LatencyFamilyTest, SlowCommandsBecomeCommandEvents) {
  Config config;
  config.enable_debug_command = "yes";
  config.latency_monitor_threshold = 1;
  CommandHarness slow(config);
  slow.Run({"DEBUG", "SLEEP", "0.003"});  // at least 3 ms
  const LatencyMonitor::Series* s = slow.state().latency_monitor.Find("command");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->latest().time_s, kStart);
  EXPECT_GE(s->latest().latency_ms, 3u);
  EXPECT_GE(s->max_ms, 3u);
}

TEST_F(LatencyFamilyTest, LatestHistoryAndReset) {
  monitor().AddSample("command", kStart - 20, 30);
  monitor().AddSample("command", kStart - 20, 10);  // same second: the worst is kept
  monitor().AddSample("command", kStart - 10, 12);
  monitor().AddSample("fast-command", kStart - 5, 2);
  EXPECT_EQ(h.Run({"LATENCY", "LATEST"}), "*2\r\n*4\r\n" + Bulk("command") + Int(kStart - 10) +
                                              Int(12) + Int(30) + "*4\r\n" + Bulk("fast-command") +
                                              Int(kStart - 5) + Int(2) + Int(2));
  EXPECT_EQ(h.Run({"LATENCY", "HISTORY", "command"}),
            "*2\r\n*2\r\n" + Int(kStart - 20) + Int(30) + "*2\r\n" + Int(kStart - 10) + Int(12));
  // HISTORY's event name is exact, RESET's in any case.
  EXPECT_EQ(h.Run({"LATENCY", "HISTORY", "COMMAND"}), "*0\r\n");
  EXPECT_EQ(h.Run({"LATENCY", "RESET", "COMMAND", "nosuch", "command"}), Int(1));
  EXPECT_EQ(h.Run({"LATENCY", "RESET"}), Int(1));
  EXPECT_EQ(h.Run({"LATENCY", "LATEST"}), "*0\r\n");
}

TEST(LatencyDoctorTest, DoctorAndGraph) {
  // The threshold comes with the server, not from a CONFIG SET: that command, timed for real,
  // could itself take 5 ms on a loaded machine (a sanitized build under ctest -j2 did) and add
  // a spike of its own to the report.
  Config config;
  config.latency_monitor_threshold = 5;
  CommandHarness h(config);
  LatencyMonitor& monitor = h.state().latency_monitor;
  EXPECT_EQ(h.Run({"LATENCY", "DOCTOR"}),
            Bulk("Dave, no latency spike was observed during the lifetime of this Redis instance, "
                 "not in the slightest bit. I honestly think you ought to sit down calmly, take a "
                 "stress pill, and think things over.\n"));
  monitor.AddSample("command", kStart - 20, 30);
  monitor.AddSample("command", kStart - 10, 10);
  EXPECT_EQ(
      h.Run({"LATENCY", "DOCTOR"}),
      Bulk("Dave, I have observed latency spikes in this Redis instance. You don't mind talking "
           "about it, do you Dave?\n\n"
           "1. command: 2 latency spikes (average 20ms, mean deviation 10ms, period 10.00 sec). "
           "Worst all time event 30ms.\n"
           "\nI have a few advices for you:\n\n"
           "- Your current Slow Log configuration only logs events that are slower than your "
           "configured latency monitor threshold. Please use 'CONFIG SET slowlog-log-slower-than "
           "5000'.\n"
           "- Check your Slow Log to understand what are the commands you are running which are "
           "too slow to execute. Please check https://redis.io/commands/slowlog for more "
           "information.\n"
           "- Deleting, expiring or evicting (because of maxmemory policy) large objects is a "
           "blocking operation. If you have very large objects that are often deleted, expired, "
           "or evicted, try to fragment those objects into multiple smaller objects.\n"));
  EXPECT_EQ(h.Run({"LATENCY", "GRAPH", "command"}),
            Bulk("command - high 30 ms, low 10 ms (all time high 30 ms)\n" + std::string(80, '-') +
                 "\n20s 30 ms\n10s 10 ms\n"));
}

TEST_F(LatencyFamilyTest, HistogramOfCommandsWithCalls) {
  EXPECT_EQ(h.Run({"LATENCY", "HISTOGRAM"}), "*0\r\n");
  for (int i = 0; i < 3; ++i) h.Run({"GET", "x"});
  h.Run({"CONFIG", "GET", "hz"});
  const std::string get_prefix =
      Bulk("get") + "*4\r\n" + Bulk("calls") + Int(3) + Bulk("histogram_usec") + "*";
  EXPECT_EQ(h.Run({"LATENCY", "HISTOGRAM", "GET", "nosuch"}).substr(0, 4 + get_prefix.size()),
            "*2\r\n" + get_prefix);
  // A container stands for its subcommands; "parent|sub" names one.
  for (auto name : {"config", "CONFIG|GET"}) {
    const std::string reply = h.Run({"LATENCY", "HISTOGRAM", name});
    const std::string expected = "*2\r\n" + Bulk("config|get");
    EXPECT_EQ(reply.substr(0, expected.size()), expected) << reply;
  }
  EXPECT_EQ(h.Run({"LATENCY", "HISTOGRAM", "config|get|x", "config|nosuch"}), "*0\r\n");
  h.Run({"HELLO", "3"});
  const std::string all = h.Run({"LATENCY", "HISTOGRAM", "get"});
  const std::string expected =
      "%1\r\n" + Bulk("get") + "%2\r\n" + Bulk("calls") + Int(3) + Bulk("histogram_usec") + "%";
  EXPECT_EQ(all.substr(0, expected.size()), expected) << all;
}

TEST(LatencyHistogramTest, CumulativeByPowersOfTwoAsRedisReportsIt) {
  LatencyHistogram hist;
  for (uint64_t ns : {500u, 1000u, 1023u, 1500u, 5000u, 5000u, 70'000u}) hist.Record(ns);
  hist.Record(5'000'000'000);  // over Redis's one-second maximum
  using P = std::pair<uint64_t, uint64_t>;
  EXPECT_EQ(hist.CumulativeByPowersOfTwo(),
            (std::vector<P>{{1, 3}, {2, 4}, {8, 6}, {132, 7}, {1082130, 8}}));
  EXPECT_TRUE(LatencyHistogram().CumulativeByPowersOfTwo().empty());
}

TEST_F(LatencyFamilyTest, ErrorsAndHelp) {
  EXPECT_EQ(h.Run({"LATENCY", "LATEST", "x"}),
            Err("wrong number of arguments for 'latency|latest' command"));
  EXPECT_EQ(h.Run({"LATENCY", "HISTORY"}),
            Err("wrong number of arguments for 'latency|history' command"));
  EXPECT_EQ(h.Run({"LATENCY", "NOPE"}), Err("unknown subcommand 'NOPE'. Try LATENCY HELP."));
  const std::string help = h.Run({"LATENCY", "HELP"});
  const std::string head =
      "*17\r\n+LATENCY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n+DOCTOR\r\n";
  EXPECT_EQ(help.substr(0, head.size()), head);
  EXPECT_NE(help.find("+    If no commands are specified then all histograms are replied.\r\n"
                      "+HELP\r\n+    Prints this help.\r\n"),
            std::string::npos);
}

}  // namespace
}  // namespace kv::test
