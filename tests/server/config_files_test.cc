// The configuration files people already have load unchanged: Debian's /etc/redis/redis.conf
// (from the installed redis-server package), Redis 7.0.15's sample redis.conf and its test
// suite's files (tests/fixtures/redis-7.0.15). tests/differential/config_get_test.cc loads the
// same files into kvserver and redis-server and compares every value.

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "server/config.h"
#include "server/config_missing_features.h"

namespace kv {
namespace {

class ConfigFilesTest : public ::testing::Test {
 protected:
  // The files' dir directives change the working directory.
  void SetUp() override { cwd_ = std::filesystem::current_path(); }
  void TearDown() override { std::filesystem::current_path(cwd_); }

  static std::string Fixture(const std::string& name) {
    return std::string(KV_TEST_FIXTURES_DIR) + "/redis-7.0.15/" + name;
  }
  static std::string Read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  std::filesystem::path cwd_;
};

TEST_F(ConfigFilesTest, DebianRedisConf) {
  const std::string path = "/etc/redis/redis.conf";
  ASSERT_TRUE(std::filesystem::exists(path))
      << "Debian's redis-server package (scripts/setup.sh installs it)";
  Config c;
  auto err = LoadConfigFile(path, &c);
  if (::access("/var/lib/redis", X_OK) != 0) {
    // As redis-server would for this user: the file's dir cannot be entered.
    ASSERT_TRUE(err);
    EXPECT_EQ(err->line, "dir /var/lib/redis");
    return;
  }
  ASSERT_FALSE(err) << err->Fatal();
  // What the file says, as CONFIG GET shows it.
  EXPECT_TRUE(c.daemonize);
  EXPECT_EQ(c.pidfile, "/run/redis/redis-server.pid");
  EXPECT_EQ(c.logfile, "/var/log/redis/redis-server.log");
  EXPECT_EQ(FindDirective("dir")->Get(c), "/var/lib/redis");
  EXPECT_EQ(FindDirective("bind")->Get(c), "127.0.0.1 -::1");
  EXPECT_EQ(FindDirective("client-output-buffer-limit")->Get(c),
            "normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60");
  EXPECT_EQ(FindDirective("proc-title-template")->Get(c), "{title} {listen-addr} {server-mode}");
  EXPECT_EQ(FindDirective("notify-keyspace-events")->Get(c), "");
  EXPECT_EQ(FindDirective("appendonly")->Get(c), "no");
  EXPECT_EQ(FindDirective("oom-score-adj-values")->Get(c), "0 200 800");
}

TEST_F(ConfigFilesTest, RedisSampleConf) {
  Config c;
  auto err = LoadConfigFile(Fixture("redis.conf"), &c);
  ASSERT_FALSE(err) << err->Fatal();
  EXPECT_FALSE(c.daemonize);
  EXPECT_EQ(c.pidfile, "/var/run/redis_6379.pid");
  EXPECT_EQ(c.logfile, "");
  EXPECT_EQ(std::filesystem::current_path(), cwd_) << "dir ./";
  EXPECT_EQ(FindDirective("save")->Get(c), "3600 1 300 100 60 10000")
      << "its save lines are comments: Redis's defaults";
}

TEST_F(ConfigFilesTest, TestSuiteMinimalConf) {
  Config c;
  auto err = LoadConfigFile(Fixture("minimal.conf"), &c);
  ASSERT_FALSE(err) << err->Fatal();
  EXPECT_TRUE(c.always_show_logo);
  EXPECT_EQ(c.loglevel, "verbose");
}

TEST_F(ConfigFilesTest, TestSuiteDefaultConfLoads) {
  // Its "save 900 1" is a save point and its "notify-keyspace-events KEA" turns notifications
  // on: both features exist now, so nothing is refused.
  const std::string text = Read(Fixture("default.conf"));
  Config c3;
  auto err = ApplyConfigText(text, &c3);
  ASSERT_FALSE(err) << err->Fatal();
  EXPECT_EQ(FindDirective("notify-keyspace-events")->Get(c3), "AKE");
  EXPECT_EQ(FindDirective("save")->Get(c3), "900 1");
  EXPECT_TRUE(c3.always_show_logo);
  EXPECT_EQ(c3.enable_protected_configs, 1);
  EXPECT_EQ(c3.enable_debug_command, "yes");
  EXPECT_EQ(c3.propagation_error_behavior, 1);
  EXPECT_EQ(c3.latency_monitor_threshold, 1);
  EXPECT_EQ(c3.logfile, "");
}

TEST_F(ConfigFilesTest, KvserverConfDocumentsEveryDirectiveWithItsDefault) {
  const std::string path = std::string(KV_TEST_FIXTURES_DIR) + "/../../conf/kvserver.conf";
  Config c;
  auto err = LoadConfigFile(path, &c);
  ASSERT_FALSE(err) << err->Fatal();
  const Config defaults;
  const std::string text = Read(path);
  for (const Directive& d : Directives()) {
    if (d.is(kAliasConfig)) continue;
    EXPECT_NE(text.find("\n" + std::string(d.name) + " "), std::string::npos)
        << d.name << " is not in conf/kvserver.conf";
    EXPECT_EQ(d.Get(c), d.Get(defaults)) << d.name << "'s line is not its default";
  }
}

}  // namespace
}  // namespace kv
