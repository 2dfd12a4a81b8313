// Snapshots in the kvserver process: BGSAVE in a forked child, the save points, SHUTDOWN SAVE and
// NOSAVE, the save on SIGTERM, and loading the file back at start-up.

#include <chrono>
#include <filesystem>
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

void Fill(RawConnection& c, int n) {
  for (int i = 0; i < n; ++i) {
    c.Call({"set", "key:" + std::to_string(i), "value:" + std::to_string(i)});
  }
  c.Call({"rpush", "list", "a", "b", "c"});
  c.Call({"hset", "hash", "f", "v"});
}

// The keys a new kvserver started in `dir` finds.
std::string ReloadedDbsize(const std::string& dir) {
  auto server = ServerProcess::StartKvserver({"--dir", dir});
  if (!server) return "did not start";
  auto c = RawConnection::Connect(server->port());
  return c->Call({"dbsize"});
}

TEST(Persistence, BgsaveWritesInAChild) {
  const std::string dir = MakeTempDir();
  auto server = ServerProcess::StartKvserver({"--dir", dir});
  ASSERT_TRUE(server);
  auto c = RawConnection::Connect(server->port());
  Fill(*c, 1000);
  EXPECT_EQ(c->Call({"bgsave", "bogus"}), "-ERR syntax error\r\n");
  EXPECT_EQ(c->Call({"bgsave"}), "+Background saving started\r\n");
  // Writes go on while the child saves; they are not in the file, and stay counted.
  c->Call({"set", "after", "1"});
  ASSERT_TRUE(WaitForPersistenceInfo(*c, "rdb_bgsave_in_progress:0\r\n"));
  ASSERT_TRUE(WaitForPersistenceInfo(*c, "rdb_saves:1\r\n"));
  const std::string info = c->Call({"info", "persistence"});
  EXPECT_TRUE(Contains(info, "rdb_last_bgsave_status:ok\r\n")) << info;
  EXPECT_TRUE(Contains(info, "rdb_changes_since_last_save:1\r\n")) << info;
  EXPECT_FALSE(Contains(info, "rdb_last_bgsave_time_sec:-1")) << info;
  const std::string log = server->ReadLog();
  EXPECT_TRUE(Contains(log, "Background saving started by pid")) << log;
  EXPECT_TRUE(Contains(log, "Background saving terminated with success")) << log;
  EXPECT_EQ(ReloadedDbsize(dir), ":1002\r\n");
  // No temporary file is left behind.
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    EXPECT_EQ(entry.path().filename().string().rfind("temp-", 0), std::string::npos);
  }
}

TEST(Persistence, SavePointsStartABgsave) {
  const std::string dir = MakeTempDir();
  auto server = ServerProcess::StartKvserver({"--dir", dir, "--save", "1 2"});
  ASSERT_TRUE(server);
  auto c = RawConnection::Connect(server->port());
  EXPECT_EQ(c->Call({"config", "get", "save"}), "*2\r\n$4\r\nsave\r\n$3\r\n1 2\r\n");
  c->Call({"set", "a", "1"});
  c->Call({"set", "b", "2"});
  ASSERT_TRUE(WaitForPersistenceInfo(*c, "rdb_saves:1\r\n"));
  EXPECT_TRUE(Contains(server->ReadLog(), "2 changes in 1 seconds. Saving..."))
      << server->ReadLog();
  EXPECT_TRUE(std::filesystem::exists(dir + "/dump.rdb"));
  // Turned off, nothing more is saved.
  EXPECT_EQ(c->Call({"config", "set", "save", ""}), "+OK\r\n");
}

TEST(Persistence, ShutdownSaveAndNosave) {
  {
    const std::string dir = MakeTempDir();
    auto server = ServerProcess::StartKvserver({"--dir", dir});
    auto c = RawConnection::Connect(server->port());
    Fill(*c, 10);
    c->Send(EncodeCommand({"shutdown", "save"}));
    EXPECT_EQ(server->WaitExit(10000), 0);
    EXPECT_TRUE(Contains(server->ReadLog(), "Saving the final RDB snapshot before exiting."));
    EXPECT_EQ(ReloadedDbsize(dir), ":12\r\n");
  }
  {
    // With save points, NOSAVE skips the final save.
    const std::string dir = MakeTempDir();
    auto server = ServerProcess::StartKvserver({"--dir", dir, "--save", "3600 1"});
    auto c = RawConnection::Connect(server->port());
    Fill(*c, 10);
    c->Send(EncodeCommand({"shutdown", "nosave"}));
    EXPECT_EQ(server->WaitExit(10000), 0);
    EXPECT_FALSE(std::filesystem::exists(dir + "/dump.rdb"));
  }
  {
    // With save points, SIGTERM saves.
    const std::string dir = MakeTempDir();
    auto server = ServerProcess::StartKvserver({"--dir", dir, "--save", "3600 1"});
    auto c = RawConnection::Connect(server->port());
    Fill(*c, 10);
    EXPECT_EQ(server->Stop(SIGTERM), 0);
    EXPECT_EQ(ReloadedDbsize(dir), ":12\r\n");
  }
  {
    // A save that cannot be written stops SHUTDOWN (the directory is gone), unless FORCE.
    const std::string dir = MakeTempDir();
    auto server = ServerProcess::StartKvserver({"--dir", dir});
    auto c = RawConnection::Connect(server->port());
    std::filesystem::remove_all(dir);
    EXPECT_EQ(c->Call({"shutdown", "save"}), "-ERR Errors trying to SHUTDOWN. Check logs.\r\n");
    EXPECT_EQ(c->Call({"ping"}), "+PONG\r\n");
    EXPECT_EQ(c->Call({"save"}), "-ERR\r\n");
    c->Send(EncodeCommand({"shutdown", "save", "force"}));
    EXPECT_EQ(server->WaitExit(10000), 0);
  }
}

// Redis's FLUSHALL saves the empty dataset when save points are set (so the changes counted
// since the last save are 0 after it, unit/other's "FLUSHALL should reset the dirty counter"),
// and saves nothing without them.
TEST(Persistence, FlushallSavesWithSavePoints) {
  const std::string dir = MakeTempDir();
  auto server = ServerProcess::StartKvserver({"--dir", dir});
  ASSERT_TRUE(server);
  auto c = RawConnection::Connect(server->port());
  Fill(*c, 3);
  EXPECT_EQ(c->Call({"flushall"}), "+OK\r\n");
  EXPECT_TRUE(Contains(c->Call({"info", "persistence"}), "rdb_changes_since_last_save:12\r\n"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/dump.rdb"));

  EXPECT_EQ(c->Call({"config", "set", "save", "3600 1 300 100 60 10000"}), "+OK\r\n");
  Fill(*c, 3);
  EXPECT_EQ(c->Call({"flushall"}), "+OK\r\n");
  EXPECT_TRUE(Contains(c->Call({"info", "persistence"}), "rdb_changes_since_last_save:0\r\n"));
  EXPECT_TRUE(Contains(server->ReadLog(), "DB saved on disk")) << server->ReadLog();
  // The file holds the empty dataset.
  EXPECT_EQ(c->Call({"config", "set", "save", ""}), "+OK\r\n");
  c->Call({"set", "after", "1"});
  c->Send(EncodeCommand({"shutdown", "nosave"}));
  EXPECT_EQ(server->WaitExit(10000), 0);
  EXPECT_EQ(ReloadedDbsize(dir), ":0\r\n");
}

}  // namespace
}  // namespace kv::test
