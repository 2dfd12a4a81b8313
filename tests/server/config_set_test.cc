// CONFIG SET over the whole directive table in-process: protected directives and
// enable-protected-configs, aliases, sensitive values, the apply step and its rollback, and the
// directives that act at once (latency tracking and its percentiles, repl-backlog-size).

#include <unistd.h>

#include <filesystem>
#include <string>

#include "gtest/gtest.h"
#include "server/config_missing_features.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

std::string SetFailed(std::string_view arg, std::string_view why) {
  return Err("CONFIG SET failed (possibly related to argument '" + std::string(arg) + "') - " +
             std::string(why));
}

std::string Pair(std::string_view name, std::string_view value) {
  return "$" + std::to_string(name.size()) + "\r\n" + std::string(name) + "\r\n$" +
         std::to_string(value.size()) + "\r\n" + std::string(value) + "\r\n";
}

TEST(ConfigSetTest, ProtectedDirectivesFollowEnableProtectedConfigs) {
  const std::string cwd = std::filesystem::current_path().string();
  const std::string tmp = std::filesystem::temp_directory_path().string();
  {
    CommandHarness h;  // enable-protected-configs no
    EXPECT_EQ(h.Run({"CONFIG", "SET", "dir", tmp}), SetFailed("dir", "can't set protected config"));
    EXPECT_EQ(h.Run({"CONFIG", "SET", "dbfilename", "x.rdb"}),
              SetFailed("dbfilename", "can't set protected config"));
    EXPECT_EQ(h.Run({"CONFIG", "SET", "enable-fault-injection", "yes"}),
              SetFailed("enable-fault-injection", "can't set protected config"));
  }
  for (int setting : {1, 2}) {  // yes; local (the harness's client is on 127.0.0.1)
    Config config;
    config.enable_protected_configs = setting;
    CommandHarness h(config);
    EXPECT_EQ(h.Run({"CONFIG", "SET", "dir", tmp}), kOk);
    EXPECT_EQ(std::filesystem::current_path(), std::filesystem::canonical(tmp));
    EXPECT_EQ(h.Run({"CONFIG", "SET", "dbfilename", "x.rdb", "enable-fault-injection", "yes"}),
              kOk);
    EXPECT_TRUE(h.state().config.enable_fault_injection);
    std::filesystem::current_path(cwd);
  }
}

TEST(ConfigSetTest, AFailedSetLeavesTheWorkingDirectory) {
  const std::string cwd = std::filesystem::current_path().string();
  Config config;
  config.enable_protected_configs = 1;
  CommandHarness h(config);
  EXPECT_EQ(h.Run({"CONFIG", "SET", "dir", "/", "hz", "x"}),
            SetFailed("hz", "argument couldn't be parsed into an integer"));
  EXPECT_EQ(std::filesystem::current_path().string(), cwd);
}

TEST(ConfigSetTest, AliasesAreDirectivesOfTheirOwnName) {
  CommandHarness h;
  // As in Redis, an alias and its primary in one CONFIG SET are no duplicate: the last wins.
  EXPECT_EQ(
      h.Run({"CONFIG", "SET", "hash-max-ziplist-entries", "10", "hash-max-listpack-entries", "20"}),
      kOk);
  EXPECT_EQ(h.state().config.hash_max_listpack_entries, 20);
  EXPECT_EQ(h.Run({"CONFIG", "SET", "slave-read-only", "x"}),
            SetFailed("slave-read-only", "argument must be 'yes' or 'no'"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "SLAVEOF", "no one"}),
            SetFailed("SLAVEOF", "can't set immutable config"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "min-slaves-to-write", "1"}),
            SetFailed("min-slaves-to-write", MissingFeatureError("min-replicas-to-write")));
}

TEST(ConfigSetTest, SensitiveValuesNeverReachTheSlowlog) {
  CommandHarness h;
  ASSERT_EQ(h.Run({"CONFIG", "SET", "slowlog-log-slower-than", "0"}), kOk);
  ASSERT_EQ(h.Run({"CONFIG", "SET", "masterauth", "s3cret", "masteruser", "u5er"}), kOk);
  const std::string log = h.Run({"SLOWLOG", "GET", "1"});
  EXPECT_EQ(log.find("s3cret"), std::string::npos) << log;
  EXPECT_EQ(log.find("u5er"), std::string::npos) << log;
  EXPECT_NE(log.find("(redacted)"), std::string::npos) << log;
}

TEST(ConfigSetTest, TheApplyStepRollsEverythingBack) {
  CommandHarness h;
  std::vector<std::pair<int64_t, int64_t>> seen;  // (port, maxmemory) the hook saw
  h.state().apply_config = [&](const Config& old) -> std::optional<ServerState::ApplyError> {
    seen.emplace_back(h.state().config.port, static_cast<int64_t>(h.state().config.maxmemory));
    if (h.state().config.port == 7777) {
      return ServerState::ApplyError{"port", "Unable to listen on this port. Check server logs."};
    }
    (void)old;
    return std::nullopt;
  };
  EXPECT_EQ(h.Run({"CONFIG", "SET", "maxmemory", "10000001", "port", "7777"}),
            SetFailed("port", "Unable to listen on this port. Check server logs."));
  // The hook ran for the new values, then again for the old ones.
  EXPECT_EQ(seen, (std::vector<std::pair<int64_t, int64_t>>{{7777, 10000001}, {6379, 0}}));
  EXPECT_EQ(h.state().config.maxmemory, 0u);
  EXPECT_EQ(h.state().config.port, 6379);
  EXPECT_EQ(h.Run({"CONFIG", "SET", "port", "7000"}), kOk);
  EXPECT_EQ(h.state().config.port, 7000);
}

TEST(ConfigSetTest, ReplBacklogSizeHasRedisMinimumWhenChanged) {
  CommandHarness h;
  EXPECT_EQ(h.Run({"CONFIG", "SET", "repl-backlog-size", "100"}), kOk);
  EXPECT_EQ(h.Run({"CONFIG", "GET", "repl-backlog-size"}),
            "*2\r\n" + Pair("repl-backlog-size", "16384"));
}

TEST(ConfigSetTest, LatencyTrackingAndItsPercentiles) {
  CommandHarness h;
  h.Run({"PING"});
  EXPECT_EQ(h.Run({"CONFIG", "SET", "latency-tracking-info-percentiles", "0 50 99.99 100"}), kOk);
  std::string info = h.Run({"INFO", "latencystats"});
  EXPECT_NE(info.find("latency_percentiles_usec_ping:p0="), std::string::npos) << info;
  EXPECT_NE(info.find(",p50="), std::string::npos) << info;
  EXPECT_NE(info.find(",p99.99="), std::string::npos) << info;
  EXPECT_NE(info.find(",p100="), std::string::npos) << info;
  EXPECT_EQ(h.Run({"CONFIG", "SET", "latency-tracking-info-percentiles", ""}), kOk);
  info = h.Run({"INFO", "latencystats"});
  EXPECT_NE(info.find("latency_percentiles_usec_ping:\r\n"), std::string::npos) << info;
  // Off: commands run from now on get no histogram.
  EXPECT_EQ(h.Run({"CONFIG", "SET", "latency-tracking", "no"}), kOk);
  h.Run({"DBSIZE"});
  info = h.Run({"INFO", "latencystats"});
  EXPECT_EQ(info.find("latency_percentiles_usec_dbsize"), std::string::npos) << info;
  EXPECT_NE(info.find("latency_percentiles_usec_ping"), std::string::npos) << info;
}

}  // namespace
}  // namespace kv::test
