// Snapshot settings and their effects against the real redis-server: the default save points
// (no configuration file, no --save), what --save arguments make of them, and the final save at
// SHUTDOWN they cause.

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/persistence_files.h"
#include "tests/support/resp_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// CONFIG GET save of a kvserver and a redis-server both started with `args` and no `--save ""`.
std::pair<std::string, std::string> SaveWith(const std::vector<std::string>& args) {
  auto kv = ServerProcess::StartKvserverWithDefaultSave(MakeTempDir(), args);
  auto redis = ServerProcess::StartRedisWithDefaultSave(MakeTempDir(), args);
  if (!kv || !redis) return {"did not start", ""};
  auto kc = RawConnection::Connect(kv->port());
  auto rc = RawConnection::Connect(redis->port());
  const std::string kv_reply = kc->Call({"config", "get", "save"});
  const std::string redis_reply = rc->Call({"config", "get", "save"});
  // Nothing was written: nothing to save at exit either way.
  kc->Call({"config", "set", "save", ""});
  rc->Call({"config", "set", "save", ""});
  return {kv_reply, redis_reply};
}

TEST(SavePointsDifferentialTest, DefaultsAndCommandLine) {
  const auto [kv, redis] = SaveWith({});
  EXPECT_EQ(redis, "*2\r\n$4\r\nsave\r\n$23\r\n3600 1 300 100 60 10000\r\n");
  EXPECT_EQ(kv, redis);
  // The first --save replaces the defaults, the next ones add to it, "" clears.
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"--save", "100 100"},
           {"--save", "100 100", "--save", "50 5"},
           {"--save", ""},
           {"--save", "100 100", "--save", "", "--save", "7 7"}}) {
    const auto [k, r] = SaveWith(args);
    EXPECT_EQ(k, r) << args.size();
  }
}

// With the default save points, SHUTDOWN without an argument (and SIGTERM) saves before exiting,
// and the next start loads the file.
TEST(SavePointsDifferentialTest, DefaultSavePointsSaveAtShutdown) {
  const std::string kv_dir = MakeTempDir(), redis_dir = MakeTempDir();
  {
    auto kv = ServerProcess::StartKvserverWithDefaultSave(kv_dir);
    auto redis = ServerProcess::StartRedisWithDefaultSave(redis_dir);
    ASSERT_TRUE(kv && redis);
    auto kc = RawConnection::Connect(kv->port());
    auto rc = RawConnection::Connect(redis->port());
    for (RawConnection* c : {kc.get(), rc.get()}) {
      EXPECT_EQ(c->Call({"set", "k", "v"}), "+OK\r\n");
      EXPECT_EQ(c->Call({"rpush", "l", "a", "b"}), ":2\r\n");
    }
    kc->Send(EncodeCommand({"shutdown"}));
    rc->Send(EncodeCommand({"shutdown"}));
    EXPECT_EQ(kv->WaitExit(10000), 0);
    EXPECT_EQ(redis->WaitExit(10000), 0);
    EXPECT_TRUE(Contains(kv->ReadLog(), "Saving the final RDB snapshot before exiting."));
    EXPECT_TRUE(Contains(redis->ReadLog(), "Saving the final RDB snapshot before exiting."));
  }
  ASSERT_TRUE(std::filesystem::exists(kv_dir + "/dump.rdb"));
  ASSERT_TRUE(std::filesystem::exists(redis_dir + "/dump.rdb"));
  EXPECT_EQ(CheckRdb(kv_dir + "/dump.rdb").substr(0, 7), "exit 0\n");
  // Each loads the other's file.
  auto kv = ServerProcess::StartKvserver({"--dir", redis_dir});
  auto redis = ServerProcess::StartRedis({"--dir", kv_dir});
  ASSERT_TRUE(kv && redis);
  auto kc = RawConnection::Connect(kv->port());
  auto rc = RawConnection::Connect(redis->port());
  for (RawConnection* c : {kc.get(), rc.get()}) {
    EXPECT_EQ(c->Call({"get", "k"}), "$1\r\nv\r\n");
    EXPECT_EQ(c->Call({"lrange", "l", "0", "-1"}), "*2\r\n$1\r\na\r\n$1\r\nb\r\n");
  }
}

}  // namespace
}  // namespace kv::test
