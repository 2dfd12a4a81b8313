// Snapshots in the kvserver process: BGSAVE in a forked child, the save points, SHUTDOWN SAVE and
// NOSAVE, the save on SIGTERM, and loading the file back at start-up.

#include <signal.h>

#include <chrono>
#include <cstdlib>
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
  ASSERT_TRUE(WaitForPersistenceInfo(*c, "rdb_bgsave_in_progress:0\r\n"));
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

// The temporary files of a BGSAVE child in `dir`.
std::vector<std::string> TempFiles(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().filename().string().rfind("temp-", 0) == 0) out.push_back(entry.path());
  }
  return out;
}

// rdb-key-save-delay makes the child sleep that many microseconds per key (Redis's test knob): the
// save is seen in progress with its temporary file, and SHUTDOWN NOSAVE kills the child and
// removes the file (unit/shutdown's "Temp rdb will be deleted if we use bg_unlink when
// shutdown").
TEST(Persistence, SlowBgsaveIsSeenAndShutdownRemovesItsTempFile) {
  const std::string dir = MakeTempDir();
  auto server = ServerProcess::StartKvserver({"--dir", dir});
  ASSERT_TRUE(server);
  auto c = RawConnection::Connect(server->port());
  for (int i = 0; i < 20; ++i) c->Call({"set", std::to_string(i), std::to_string(i)});
  EXPECT_EQ(c->Call({"config", "set", "rdb-key-save-delay", "100000"}), "+OK\r\n");
  EXPECT_EQ(c->Call({"bgsave"}), "+Background saving started\r\n");
  const std::string info = c->Call({"info", "persistence"});
  EXPECT_TRUE(Contains(info, "rdb_bgsave_in_progress:1\r\n")) << info;
  EXPECT_FALSE(Contains(info, "rdb_current_bgsave_time_sec:-1")) << info;
  std::vector<std::string> temp;
  for (int i = 0; i < 100 && temp.empty(); ++i) {
    temp = TempFiles(dir);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(temp.size(), 1u);
  c->Send(EncodeCommand({"shutdown", "nosave"}));
  EXPECT_EQ(server->WaitExit(10000), 0);
  EXPECT_TRUE(TempFiles(dir).empty());
  EXPECT_FALSE(std::filesystem::exists(dir + "/dump.rdb"));
  EXPECT_TRUE(Contains(server->ReadLog(), "There is a child saving an .rdb. Killing it!"));
}

// A BGSAVE child killed by another signal than the server's own SIGUSR1 is a failed save: writes
// are refused with MISCONF (the save points are set) until a save succeeds (Redis's
// integration/rdb "failed bgsave prevents writes").
TEST(Persistence, KilledBgsaveChildStopsWrites) {
  const std::string dir = MakeTempDir();
  auto server = ServerProcess::StartKvserver({"--dir", dir, "--save", "3600 1"});
  ASSERT_TRUE(server);
  auto c = RawConnection::Connect(server->port());
  for (int i = 0; i < 100; ++i) c->Call({"set", std::to_string(i), "v"});
  EXPECT_EQ(c->Call({"config", "set", "rdb-key-save-delay", "10000000"}), "+OK\r\n");
  EXPECT_EQ(c->Call({"bgsave"}), "+Background saving started\r\n");
  const std::string children = RunShell("pgrep -P " + std::to_string(server->pid()));
  const int child = std::atoi(children.c_str());
  ASSERT_GT(child, 0) << children;
  ::kill(child, SIGKILL);
  ASSERT_TRUE(WaitForPersistenceInfo(*c, "rdb_bgsave_in_progress:0\r\n"));
  EXPECT_TRUE(Contains(c->Call({"info", "persistence"}), "rdb_last_bgsave_status:err\r\n"));
  EXPECT_EQ(c->Call({"get", "1"}), "$1\r\nv\r\n");
  EXPECT_EQ(c->Call({"set", "1", "w"}).substr(0, 9), "-MISCONF ");
  EXPECT_TRUE(Contains(server->ReadLog(), "Background saving terminated by signal 9"));
  EXPECT_EQ(c->Call({"config", "set", "rdb-key-save-delay", "0"}), "+OK\r\n");
  EXPECT_EQ(c->Call({"bgsave"}), "+Background saving started\r\n");
  ASSERT_TRUE(WaitForPersistenceInfo(*c, "rdb_last_bgsave_status:ok\r\n"));
  EXPECT_EQ(c->Call({"set", "1", "w"}), "+OK\r\n");
}

// A connection to a server that may not accept yet (up to 10 s).
std::unique_ptr<RawConnection> ConnectWhenListening(int port) {
  for (int i = 0; i < 1000; ++i) {
    if (auto c = RawConnection::Connect(port)) return c;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return nullptr;
}

// `dir`/dump.rdb with `keys` keys of 100 bytes.
void WriteDataset(const std::string& dir, int keys) {
  auto server = ServerProcess::StartKvserver({"--dir", dir, "--enable-debug-command", "yes"});
  ASSERT_TRUE(server);
  auto c = RawConnection::Connect(server->port());
  ASSERT_EQ(c->Call({"debug", "populate", std::to_string(keys), "key", "100"}), "+OK\r\n");
  ASSERT_EQ(c->Call({"save"}), "+OK\r\n");
}

// A slow load at start-up (key-load-delay: microseconds per key, as Redis) serves clients every
// loading-process-events-interval-bytes: INFO says loading:1 with Redis's loading_* fields, the
// commands without the ok-loading flag get -LOADING, CONFIG SET works except for dir (unit/
// introspection's "config during loading"); once loaded, everything is there.
TEST(Persistence, ClientsAreServedWhileLoading) {
  const std::string dir = MakeTempDir();
  WriteDataset(dir, 20000);
  const auto size = std::filesystem::file_size(dir + "/dump.rdb");
  const int port = PickFreePort();
  auto server = ServerProcess::SpawnKvserver(
      port, {"--dir", dir, "--key-load-delay", "100", "--loading-process-events-interval-bytes",
             "1024", "--enable-protected-configs", "yes"});
  auto c = ConnectWhenListening(port);
  ASSERT_TRUE(c);
  const std::string info = c->Call({"info", "persistence"});
  EXPECT_TRUE(Contains(info, "loading:1\r\n")) << info;
  EXPECT_TRUE(Contains(info, "loading_total_bytes:" + std::to_string(size) + "\r\n")) << info;
  for (const char* field : {"loading_start_time:", "loading_loaded_bytes:", "loading_loaded_perc:",
                            "loading_eta_seconds:", "loading_rdb_used_mem:"}) {
    EXPECT_TRUE(Contains(info, field)) << field << " in " << info;
  }
  EXPECT_EQ(c->Call({"ping"}), "-LOADING Redis is loading the dataset in memory\r\n");
  EXPECT_EQ(c->Call({"get", "key:1"}), "-LOADING Redis is loading the dataset in memory\r\n");
  EXPECT_EQ(c->Call({"config", "set", "loglevel", "debug"}), "+OK\r\n");
  EXPECT_EQ(c->Call({"config", "get", "loglevel"}), "*2\r\n$8\r\nloglevel\r\n$5\r\ndebug\r\n");
  EXPECT_EQ(c->Call({"config", "set", "dir", "asdf"}),
            "-LOADING Redis is loading the dataset in memory\r\n");
  EXPECT_TRUE(Contains(c->Call({"info", "persistence"}), "loading:1\r\n"));
  ASSERT_TRUE(WaitForPersistenceInfo(*c, "\r\nloading:0\r\n"));
  EXPECT_EQ(c->Call({"dbsize"}), ":20000\r\n");
  EXPECT_EQ(c->Call({"ping"}), "+PONG\r\n");
  EXPECT_FALSE(Contains(c->Call({"info", "persistence"}), "loading_start_time"));
  EXPECT_TRUE(Contains(server->ReadLog(), "DB loaded from disk")) << server->ReadLog();
}

// SIGTERM or SHUTDOWN while loading stops the server without saving: the file it was loading
// stays as it was.
TEST(Persistence, ShutdownWhileLoadingDoesNotSave) {
  const std::string dir = MakeTempDir();
  WriteDataset(dir, 20000);
  const std::string before = ReadFile(dir + "/dump.rdb");
  for (const bool by_signal : {true, false}) {
    const int port = PickFreePort();
    auto server = ServerProcess::SpawnKvserver(
        port, {"--dir", dir, "--save", "3600 1", "--key-load-delay", "200",
               "--loading-process-events-interval-bytes", "1024"});
    auto c = ConnectWhenListening(port);
    ASSERT_TRUE(c);
    EXPECT_TRUE(Contains(c->Call({"info", "persistence"}), "loading:1\r\n"));
    if (by_signal) {
      EXPECT_EQ(server->Stop(SIGTERM), 0);
      EXPECT_TRUE(Contains(server->ReadLog(),
                           "Received shutdown signal during loading, scheduling shutdown."))
          << server->ReadLog();
    } else {
      c->Send(EncodeCommand({"shutdown"}));
      EXPECT_EQ(server->WaitExit(10000), 0);
    }
    EXPECT_FALSE(Contains(server->ReadLog(), "DB saved on disk")) << server->ReadLog();
    EXPECT_TRUE(ReadFile(dir + "/dump.rdb") == before);
  }
}

}  // namespace
}  // namespace kv::test
