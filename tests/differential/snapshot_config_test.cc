// Snapshot settings and their effects against the real redis-server: the default save points
// (no configuration file, no --save), what --save arguments make of them, and the final save at
// SHUTDOWN they cause; stop-writes-on-bgsave-error after a BGSAVE failed; BGSAVE, BGSAVE SCHEDULE,
// SAVE and BGREWRITEAOF while the other child runs (slowed down by rdb-key-save-delay).

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
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

// The value of `field` in an INFO reply ("" when absent).
std::string InfoField(const std::string& info, const std::string& field) {
  const size_t at = info.find("\r\n" + field + ":");
  if (at == std::string::npos) return "";
  const size_t start = at + field.size() + 3;
  return info.substr(start, info.find('\r', start) - start);
}

// A BGSAVE that fails (its directory is gone) makes writes, PING and scripts that may write get
// Redis's MISCONF error while save points are set and stop-writes-on-bgsave-error is on, until a
// save succeeds; reads go on.
TEST(StopWritesDifferentialTest, FailedBgsaveRefusesWrites) {
  const std::vector<std::string> args = {"--save", "3600 1", "--enable-protected-configs", "yes"};
  auto kv = ServerProcess::StartKvserver(args);
  auto redis = ServerProcess::StartRedis(args);
  ASSERT_TRUE(kv && redis);
  auto kc = RawConnection::Connect(kv->port());
  auto rc = RawConnection::Connect(redis->port());
  std::vector<std::string> dirs;
  for (RawConnection* c : {kc.get(), rc.get()}) {
    dirs.push_back(MakeTempDir());
    ASSERT_EQ(c->Call({"config", "set", "dir", dirs.back()}), "+OK\r\n");
    ASSERT_EQ(c->Call({"set", "x", "x"}), "+OK\r\n");
    std::filesystem::remove_all(dirs.back());
    ASSERT_EQ(c->Call({"bgsave"}), "+Background saving started\r\n");
    ASSERT_TRUE(WaitForPersistenceInfo(*c, "rdb_bgsave_in_progress:0\r\n"));
    EXPECT_EQ(InfoField(c->Call({"info", "persistence"}), "rdb_last_bgsave_status"), "err");
  }
  const std::vector<std::vector<std::string>> commands = {
      {"get", "x"},
      {"set", "x", "y"},
      {"ping"},
      {"ping", "hello"},
      {"incr", "n"},
      {"del", "x"},
      {"dbsize"},
      {"multi"},
      {"set", "x", "z"},
      {"get", "x"},
      {"exec"},
      {"multi"},
      {"get", "x"},
      {"exec"},
      {"eval", "return redis.call('set', KEYS[1], 1)", "1", "x"},
      {"eval", "return redis.call('get', KEYS[1])", "1", "x"},
      {"eval", "#!lua\nreturn redis.call('set', KEYS[1], 1)", "1", "x"},
      {"eval", "#!lua flags=no-writes\nreturn redis.call('get', KEYS[1])", "1", "x"},
      {"eval", "#!lua\nreturn 1", "0"},
      {"config", "set", "stop-writes-on-bgsave-error", "no"},
      {"set", "x", "a"},
      {"ping"},
      {"config", "set", "stop-writes-on-bgsave-error", "yes"},
      {"set", "x", "b"},
      {"config", "set", "save", ""},
      {"set", "x", "c"},
      {"config", "set", "save", "3600 1"},
      {"set", "x", "d"},
      {"get", "x"},
  };
  for (const auto& command : commands) {
    const std::string k = kc->Call(command), r = rc->Call(command);
    EXPECT_EQ(Escape(k), Escape(r)) << command[0] << " " << (command.size() > 1 ? command[1] : "");
  }
  // A save that succeeds (in a directory that exists) lets writes in again.
  for (RawConnection* c : {kc.get(), rc.get()}) {
    ASSERT_EQ(c->Call({"config", "set", "dir", MakeTempDir()}), "+OK\r\n");
    ASSERT_EQ(c->Call({"bgsave"}), "+Background saving started\r\n");
    ASSERT_TRUE(WaitForPersistenceInfo(*c, "rdb_last_bgsave_status:ok\r\n"));
    EXPECT_EQ(c->Call({"set", "x", "e"}), "+OK\r\n");
    EXPECT_EQ(c->Call({"ping"}), "+PONG\r\n");
  }
}

// One child at a time, as Redis: while a BGSAVE runs, another BGSAVE and SAVE are refused and
// BGREWRITEAOF is scheduled; while the AOF rewrite runs, BGSAVE is refused unless SCHEDULE'd;
// scheduled work starts once the child is done. rdb-key-save-delay (microseconds per key, in
// the child) makes each child last about 2 s.
TEST(ChildProcessesDifferentialTest, BgsaveAndBgrewriteaofTakeTurns) {
  auto kv = ServerProcess::StartKvserver({"--dir", MakeTempDir()});
  auto redis = ServerProcess::StartRedis();
  ASSERT_TRUE(kv && redis);
  auto kc = RawConnection::Connect(kv->port());
  auto rc = RawConnection::Connect(redis->port());
  const std::vector<RawConnection*> both = {kc.get(), rc.get()};
  // Sends each command to both servers; their replies must be the same bytes.
  auto same = [&](const std::vector<std::vector<std::string>>& commands) {
    for (const auto& command : commands) {
      const std::string k = kc->Call(command), r = rc->Call(command);
      EXPECT_EQ(Escape(k), Escape(r))
          << command[0] << " " << (command.size() > 1 ? command[1] : "");
    }
  };
  // Until both servers showed `needle` in INFO persistence (each may show it only briefly).
  auto wait_both = [&](const std::string& needle) {
    bool seen[2] = {false, false};
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!(seen[0] && seen[1]) && std::chrono::steady_clock::now() < deadline) {
      for (size_t i = 0; i < 2; ++i) {
        if (!seen[i]) seen[i] = Contains(both[i]->Call({"info", "persistence"}), needle);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    EXPECT_TRUE(seen[0]) << "kvserver: " << needle;
    EXPECT_TRUE(seen[1]) << "redis: " << needle;
  };
  // Inside EXEC BGSAVE is always scheduled; the cron starts it.
  same({{"multi"}, {"bgsave"}, {"exec"}});
  wait_both("rdb_saves:1\r\n");
  wait_both("rdb_bgsave_in_progress:0\r\n");
  for (RawConnection* c : both) {
    for (int i = 0; i < 100; ++i) c->Call({"set", "key:" + std::to_string(i), "v"});
  }
  same({{"config", "set", "rdb-key-save-delay", "20000"},
        {"bgsave"},
        {"bgsave"},
        {"bgsave", "schedule"},
        {"save"},
        {"bgrewriteaof"},
        {"bgrewriteaof"}});
  for (RawConnection* c : both) {
    const std::string info = c->Call({"info", "persistence"});
    EXPECT_NE(info.find("rdb_bgsave_in_progress:1\r\n"), std::string::npos) << info;
    EXPECT_NE(info.find("aof_rewrite_scheduled:1\r\n"), std::string::npos) << info;
  }
  // The BGSAVE ends, then the scheduled rewrite starts.
  wait_both("aof_rewrite_in_progress:1\r\n");
  same({{"bgsave"}, {"bgrewriteaof"}, {"bgsave", "schedule"}, {"bgsave", "schedule"}});
  // The rewrite ends, then the scheduled BGSAVE runs.
  wait_both("rdb_saves:3\r\n");
  wait_both("rdb_bgsave_in_progress:0\r\n");
  for (RawConnection* c : both) {
    const std::string info = c->Call({"info", "persistence"});
    EXPECT_NE(info.find("rdb_last_bgsave_status:ok\r\n"), std::string::npos) << info;
    EXPECT_NE(info.find("aof_last_bgrewrite_status:ok\r\n"), std::string::npos) << info;
  }
  same({{"config", "set", "rdb-key-save-delay", "0"}, {"dbsize"}});
}

}  // namespace
}  // namespace kv::test
