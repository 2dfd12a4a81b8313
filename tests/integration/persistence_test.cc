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

// Waits up to 10 s for `needle` in the server's log.
bool WaitForLog(ServerProcess& server, const std::string& needle) {
  for (int i = 0; i < 1000; ++i) {
    if (Contains(server.ReadLog(), needle)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// A second SIGINT while the final save that a signal started runs ends the process at once, as
// Redis's sigShutdownHandler: "You insist... exiting now.", exit status 1, the save's temporary
// file removed and the dump.rdb of before left as it was. A SIGTERM meanwhile is only logged.
TEST(Persistence, SecondSigintDuringTheFinalSaveExitsAtOnce) {
  const std::string dir = MakeTempDir();
  auto server = ServerProcess::StartKvserver({"--dir", dir, "--save", "3600 1"});
  ASSERT_TRUE(server);
  auto c = RawConnection::Connect(server->port());
  Fill(*c, 10);
  ASSERT_EQ(c->Call({"save"}), "+OK\r\n");
  const std::string before = ReadFile(dir + "/dump.rdb");
  Fill(*c, 300);
  // 20 ms a key: the final save takes seconds.
  EXPECT_EQ(c->Call({"config", "set", "rdb-key-save-delay", "20000"}), "+OK\r\n");
  ASSERT_EQ(::kill(server->pid(), SIGINT), 0);
  ASSERT_TRUE(WaitForLog(*server, "Saving the final RDB snapshot before exiting."));
  for (int i = 0; i < 100 && TempFiles(dir).empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(TempFiles(dir).size(), 1u);
  ASSERT_EQ(::kill(server->pid(), SIGTERM), 0);
  ASSERT_TRUE(WaitForLog(*server, "Received SIGTERM scheduling shutdown..."));
  EXPECT_TRUE(server->running());
  ASSERT_EQ(::kill(server->pid(), SIGINT), 0);
  EXPECT_EQ(server->WaitExit(5000), 1);
  const std::string log = server->ReadLog();
  EXPECT_TRUE(Contains(log, "Received SIGINT scheduling shutdown...")) << log;
  EXPECT_TRUE(Contains(log, "You insist... exiting now.")) << log;
  // Only the SAVE's.
  EXPECT_EQ(log.find("DB saved on disk"), log.rfind("DB saved on disk")) << log;
  EXPECT_TRUE(TempFiles(dir).empty());
  EXPECT_TRUE(ReadFile(dir + "/dump.rdb") == before);
}

// INFO persistence's `field` as a number (-1 when missing).
int64_t InfoNumber(RawConnection& c, const std::string& field) {
  const std::string info = c.Call({"info", "persistence"});
  const size_t at = info.find("\r\n" + field + ":");
  if (at == std::string::npos) return -1;
  return std::atoll(info.c_str() + at + field.size() + 3);
}

// Rewrites every value of DEBUG POPULATE's `keys` keys (the server's pages the child shares are
// then copied, or freed and left to the child alone).
void RewriteValues(RawConnection& c, int keys) {
  std::string pipeline;
  for (int i = 0; i < keys; ++i) {
    pipeline += EncodeCommand({"set", "key:" + std::to_string(i), std::string(1000, 'w')});
  }
  c.Send(pipeline);
  for (int i = 0; i < keys; ++i) ASSERT_EQ(c.ReadReply().value_or(""), "+OK\r\n");
}

// The forked children report their copy-on-write as Redis's childinfo.c: read from their
// /proc/self/smaps (private dirty pages) and sent through a pipe. With every value rewritten while
// a slow BGSAVE runs, INFO shows the save's progress and its current copy-on-write, then
// rdb_last_cow_size holds most of the 20 MB rewritten; the same for BGREWRITEAOF's
// aof_last_cow_size. Once a child is done the current figures are back to 0.
TEST(Persistence, ChildrenReportTheirCopyOnWrite) {
  const std::string dir = MakeTempDir();
  auto server = ServerProcess::StartKvserver({"--dir", dir, "--enable-debug-command", "yes"});
  ASSERT_TRUE(server);
  auto c = RawConnection::Connect(server->port());
  constexpr int kKeys = 20000;
  constexpr int64_t kMinCow = 5 << 20;
  ASSERT_EQ(c->Call({"debug", "populate", std::to_string(kKeys), "key", "1000"}), "+OK\r\n");
  EXPECT_EQ(InfoNumber(*c, "rdb_last_cow_size"), 0);
  EXPECT_EQ(InfoNumber(*c, "current_save_keys_total"), 0);
  EXPECT_EQ(c->Call({"config", "set", "rdb-key-save-delay", "200"}), "+OK\r\n");
  ASSERT_EQ(c->Call({"bgsave"}), "+Background saving started\r\n");
  EXPECT_EQ(InfoNumber(*c, "current_save_keys_total"), kKeys + 0);
  RewriteValues(*c, kKeys);
  int64_t current = 0;
  while (InfoNumber(*c, "rdb_bgsave_in_progress") == 1 && current == 0) {
    current = InfoNumber(*c, "current_cow_size");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_GT(current, 0);
  ASSERT_TRUE(WaitForPersistenceInfo(*c, "rdb_bgsave_in_progress:0\r\n"));
  EXPECT_GE(InfoNumber(*c, "rdb_last_cow_size"), kMinCow);
  EXPECT_EQ(InfoNumber(*c, "current_cow_size"), 0);
  EXPECT_EQ(InfoNumber(*c, "current_cow_peak"), 0);
  EXPECT_EQ(InfoNumber(*c, "current_save_keys_total"), 0);
  EXPECT_EQ(InfoNumber(*c, "aof_last_cow_size"), 0);
  EXPECT_TRUE(Contains(c->Call({"info", "stats"}), "\r\ntotal_forks:1\r\n"));

  ASSERT_EQ(c->Call({"bgrewriteaof"}), "+Background append only file rewriting started\r\n");
  RewriteValues(*c, kKeys);
  ASSERT_TRUE(WaitForPersistenceInfo(*c, "aof_rewrite_in_progress:0\r\n"));
  EXPECT_GE(InfoNumber(*c, "aof_last_cow_size"), kMinCow);
  EXPECT_TRUE(Contains(c->Call({"info", "stats"}), "\r\ntotal_forks:2\r\n"));
  EXPECT_EQ(c->Call({"config", "resetstat"}), "+OK\r\n");
  EXPECT_TRUE(Contains(c->Call({"info", "stats"}), "\r\ntotal_forks:0\r\n"));
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
