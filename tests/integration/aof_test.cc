// The append-only file in the kvserver process (server/persistence/aof.h): writes survive
// kill -9, appendfsync always acknowledges only what is on disk, a truncated file loads or
// refuses to start as aof-load-truncated says, BGREWRITEAOF replaces the base and deletes the
// history, CONFIG SET appendonly yes, and aof-timestamp-enabled. Every file lives in a
// temporary directory.

#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/persistence_files.h"
#include "tests/support/resp_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

namespace fs = std::filesystem;

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

std::unique_ptr<ServerProcess> StartAof(const std::string& dir,
                                        std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"--dir", dir, "--appendonly", "yes"};
  args.insert(args.end(), extra.begin(), extra.end());
  return ServerProcess::StartKvserver(args);
}

// Runs kvserver in `dir` expecting it to refuse to start: its exit status and output.
std::string RunExpectingExit(const std::string& dir, const std::string& extra, int* status) {
  const std::string cmd = std::string(KVSERVER_BINARY) +
                          " --port 0 --bind 127.0.0.1 --appendonly yes --dir '" + dir + "' " +
                          extra + " 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return "popen failed";
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  *status = ::pclose(p);
  return out;
}

// Commands of every kind, each changing the data once; what the server holds afterwards is read
// back by Snapshot.
void WriteMixed(RawConnection& c) {
  c.Call({"set", "s", "v"});
  c.Call({"set", "ttl", "v", "ex", "1000"});
  c.Call({"incrbyfloat", "f", "1.25"});
  c.Call({"rpush", "l", "a", "b", "c", "d"});
  c.Call({"lpop", "l"});
  c.Call({"blpop", "l", "0"});
  c.Call({"sadd", "set", "1", "2", "3", "4", "5"});
  c.Call({"spop", "set"});
  c.Call({"spop", "set", "2"});
  c.Call({"zadd", "z", "1", "a", "2", "b", "3", "c"});
  c.Call({"zpopmin", "z"});
  c.Call({"hset", "h", "f", "1", "g", "2"});
  c.Call({"hincrbyfloat", "h", "f", "0.5"});
  c.Call({"expire", "h", "5000"});
  c.Call({"multi"});
  c.Call({"incr", "counter"});
  c.Call({"incr", "counter"});
  c.Call({"exec"});
  c.Call({"eval", "redis.call('set', KEYS[1], 'x') return redis.call('incr', 'counter')", "1",
          "fromscript"});
  c.Call({"xadd", "st", "*", "field", "value"});
  c.Call({"select", "3"});
  c.Call({"set", "in3", "yes"});
  c.Call({"select", "0"});
}

// Every key of databases 0 and 3 with its type, contents and deadline.
std::string Snapshot(RawConnection& c) {
  std::string out;
  for (const char* db : {"0", "3"}) {
    c.Call({"select", db});
    std::string keys = c.Call({"keys", "*"});
    out += "db" + std::string(db) + " dbsize " + c.Call({"dbsize"});
    for (const char* key :
         {"s", "ttl", "f", "l", "set", "z", "h", "counter", "fromscript", "st", "in3"}) {
      const std::string type = c.Call({"type", key});
      out += std::string(key) + " " + type + " " + c.Call({"pexpiretime", key});
      if (type == "+string\r\n") out += c.Call({"get", key});
      if (type == "+list\r\n") out += c.Call({"lrange", key, "0", "-1"});
      if (type == "+set\r\n") out += c.Call({"sort", key});
      if (type == "+zset\r\n") out += c.Call({"zrange", key, "0", "-1", "withscores"});
      if (type == "+hash\r\n") out += c.Call({"hgetall", key});
      if (type == "+stream\r\n") out += c.Call({"xrange", key, "-", "+"});
    }
  }
  c.Call({"select", "0"});
  return out;
}

TEST(AofTest, KillNineKeepsEveryWrite) {
  const std::string dir = MakeTempDir();
  std::string before;
  {
    auto server = StartAof(dir);
    ASSERT_TRUE(server);
    const std::string log = server->ReadLog();
    EXPECT_TRUE(Contains(log, "Creating AOF base file appendonly.aof.1.base.rdb on server start"))
        << log;
    EXPECT_TRUE(Contains(log, "Creating AOF incr file appendonly.aof.1.incr.aof on server start"))
        << log;
    auto c = RawConnection::Connect(server->port());
    WriteMixed(*c);
    before = Snapshot(*c);
    server->Stop(9);
  }
  EXPECT_EQ(ReadFile(dir + "/appendonlydir/appendonly.aof.manifest"),
            "file appendonly.aof.1.base.rdb seq 1 type b\n"
            "file appendonly.aof.1.incr.aof seq 1 type i\n");
  auto server = StartAof(dir);
  ASSERT_TRUE(server);
  auto c = RawConnection::Connect(server->port());
  EXPECT_EQ(Snapshot(*c), before);
  const std::string log = server->ReadLog();
  EXPECT_TRUE(Contains(log, "DB loaded from base file appendonly.aof.1.base.rdb")) << log;
  EXPECT_TRUE(Contains(log, "DB loaded from incr file appendonly.aof.1.incr.aof")) << log;
  EXPECT_TRUE(Contains(log, "Opening AOF incr file appendonly.aof.1.incr.aof on server start"))
      << log;
  // The file holds what Redis's propagation makes of the commands, not the commands as sent.
  const std::string incr = ReadFile(dir + "/appendonlydir/appendonly.aof.1.incr.aof");
  EXPECT_TRUE(Contains(incr, "$4\r\nPXAT\r\n")) << incr;
  EXPECT_TRUE(Contains(incr, "$7\r\nKEEPTTL\r\n")) << incr;
  EXPECT_TRUE(Contains(incr, "$4\r\nSREM\r\n")) << incr;
  EXPECT_TRUE(Contains(incr, "*1\r\n$5\r\nMULTI\r\n")) << incr;
  EXPECT_FALSE(Contains(incr, "blpop")) << incr;
  EXPECT_FALSE(Contains(incr, "eval")) << incr;
  EXPECT_FALSE(Contains(incr, "spop")) << incr;
}

// Several writers, killed with SIGKILL at a random moment, round after round: every INCR a writer
// saw acknowledged is in the data after the restart (one more, in flight when the server died,
// may be too). SIGKILL keeps the kernel's page cache, so this shows that no reply leaves before
// its write reached the file, whatever the fsync policy: with always the loop writes the replies
// after the batch's fsync, with everysec and no the end of the batch writes them after the AOF.
class AofFsyncPolicyTest : public ::testing::TestWithParam<const char*> {};

TEST_P(AofFsyncPolicyTest, KeepsEveryAcknowledgedWriteAcrossKillNine) {
  const std::string dir = MakeTempDir();
  constexpr int kWriters = 4;
  constexpr int kRounds = 6;
  std::mt19937 rng(std::random_device{}());
  std::vector<long long> acked(kWriters, 0);
  for (int round = 0; round < kRounds; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    auto server = StartAof(dir, {"--appendfsync", GetParam()});
    ASSERT_TRUE(server);
    {
      auto c = RawConnection::Connect(server->port());
      for (int w = 0; w < kWriters; ++w) {
        const std::string got = c->Call({"get", "counter:" + std::to_string(w)});
        const long long value = got == "$-1\r\n" ? 0 : std::stoll(got.substr(got.find('\n') + 1));
        EXPECT_GE(value, acked[w]) << "writer " << w << " lost acknowledged writes";
        EXPECT_LE(value, acked[w] + 1) << "writer " << w;
        acked[w] = value;
        // The list grows with the counter, in the same transaction.
        EXPECT_EQ(c->Call({"llen", "log:" + std::to_string(w)}),
                  ":" + std::to_string(value) + "\r\n");
      }
    }
    std::atomic<bool> stop{false};
    std::vector<std::thread> writers;
    std::vector<long long> last(kWriters, 0);
    for (int w = 0; w < kWriters; ++w) {
      writers.emplace_back([&, w] {
        auto c = RawConnection::Connect(server->port());
        if (!c) return;
        const std::string key = "counter:" + std::to_string(w);
        const std::string list = "log:" + std::to_string(w);
        while (!stop) {
          c->Send("*1\r\n$5\r\nMULTI\r\n*2\r\n$4\r\nINCR\r\n$" + std::to_string(key.size()) +
                  "\r\n" + key + "\r\n*3\r\n$5\r\nRPUSH\r\n$" + std::to_string(list.size()) +
                  "\r\n" + list + "\r\n$1\r\nx\r\n*1\r\n$4\r\nEXEC\r\n");
          std::optional<std::string> r;
          for (int i = 0; i < 4; ++i) r = c->ReadReply(2000);
          if (!r || (*r)[0] != '*') return;  // the server is gone
          // EXEC's reply: *2 :<counter> :<llen>
          last[w] = std::stoll(r->substr(r->find(':') + 1));
        }
      });
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100 + rng() % 300));
    server->Stop(9);
    stop = true;
    for (auto& t : writers) t.join();
    for (int w = 0; w < kWriters; ++w) acked[w] = std::max(acked[w], last[w]);
  }
  auto server = StartAof(dir);
  ASSERT_TRUE(server);
  auto c = RawConnection::Connect(server->port());
  long long total = 0;
  for (int w = 0; w < kWriters; ++w) {
    const std::string got = c->Call({"get", "counter:" + std::to_string(w)});
    const long long value = got == "$-1\r\n" ? 0 : std::stoll(got.substr(got.find('\n') + 1));
    EXPECT_GE(value, acked[w]);
    total += value;
  }
  EXPECT_GT(total, 0);
}

INSTANTIATE_TEST_SUITE_P(Policies, AofFsyncPolicyTest,
                         ::testing::Values("always", "everysec", "no"));

// A file cut in the middle of its last command (a crash during a write).
TEST(AofTest, TruncatedLastCommand) {
  const std::string dir = MakeTempDir();
  {
    auto server = StartAof(dir);
    ASSERT_TRUE(server);
    auto c = RawConnection::Connect(server->port());
    c->Call({"set", "kept", "1"});
    c->Call({"rpush", "list", "a", "b"});
    server->Stop(9);
  }
  const std::string incr = dir + "/appendonlydir/appendonly.aof.1.incr.aof";
  const auto whole = fs::file_size(incr);
  {
    std::ofstream out(incr, std::ios::binary | std::ios::app);
    out << "*3\r\n$3\r\nset\r\n$4\r\nlost\r\n$5\r\nab";
  }
  // aof-load-truncated no: the server refuses to start and says why.
  int status = 0;
  const std::string refused = RunExpectingExit(dir, "--aof-load-truncated no", &status);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << refused;
  EXPECT_TRUE(Contains(refused,
                       "Unexpected end of file reading the append only file "
                       "appendonly.aof.1.incr.aof. You can: 1) Make a backup of your AOF file, "
                       "then use ./redis-check-aof --fix <filename.manifest>."))
      << refused;
  EXPECT_FALSE(Contains(refused, "Ready to accept connections")) << refused;
  EXPECT_GT(fs::file_size(incr), whole);  // left as it was
  // The default (yes): the partial command goes, the rest loads.
  auto server = StartAof(dir);
  ASSERT_TRUE(server);
  const std::string log = server->ReadLog();
  EXPECT_TRUE(Contains(
      log, "!!! Warning: short read while loading the AOF file appendonly.aof.1.incr.aof!!!"))
      << log;
  EXPECT_TRUE(Contains(log, "!!! Truncating the AOF appendonly.aof.1.incr.aof at offset " +
                                std::to_string(whole) + " !!!"))
      << log;
  EXPECT_TRUE(Contains(
      log, "AOF appendonly.aof.1.incr.aof loaded anyway because aof-load-truncated is enabled"))
      << log;
  auto c = RawConnection::Connect(server->port());
  EXPECT_EQ(c->Call({"get", "kept"}), "$1\r\n1\r\n");
  EXPECT_EQ(c->Call({"lrange", "list", "0", "-1"}), "*2\r\n$1\r\na\r\n$1\r\nb\r\n");
  EXPECT_EQ(c->Call({"exists", "lost"}), ":0\r\n");
  // Appending goes on after the cut.
  c->Call({"set", "after", "1"});
  server->Stop(9);
  server = StartAof(dir);
  ASSERT_TRUE(server);
  c = RawConnection::Connect(server->port());
  EXPECT_EQ(c->Call({"get", "after"}), "$1\r\n1\r\n");
  EXPECT_EQ(c->Call({"get", "kept"}), "$1\r\n1\r\n");
}

TEST(AofTest, IncompleteTransactionIsReverted) {
  const std::string dir = MakeTempDir();
  {
    auto server = StartAof(dir);
    ASSERT_TRUE(server);
    auto c = RawConnection::Connect(server->port());
    c->Call({"set", "kept", "1"});
    server->Stop(9);
  }
  const std::string incr = dir + "/appendonlydir/appendonly.aof.1.incr.aof";
  const auto whole = fs::file_size(incr);
  {
    std::ofstream out(incr, std::ios::binary | std::ios::app);
    out << "*1\r\n$5\r\nMULTI\r\n*3\r\n$3\r\nset\r\n$4\r\nhalf\r\n$1\r\n1\r\n";
  }
  auto server = StartAof(dir);
  ASSERT_TRUE(server);
  const std::string log = server->ReadLog();
  EXPECT_TRUE(Contains(
      log, "Revert incomplete MULTI/EXEC transaction in AOF file appendonly.aof.1.incr.aof"))
      << log;
  auto c = RawConnection::Connect(server->port());
  EXPECT_EQ(c->Call({"exists", "half"}), ":0\r\n");
  EXPECT_EQ(c->Call({"get", "kept"}), "$1\r\n1\r\n");
  EXPECT_EQ(fs::file_size(incr), whole);
}

TEST(AofTest, BgrewriteaofReplacesTheBaseAndDeletesHistory) {
  const std::string dir = MakeTempDir();
  auto server = StartAof(dir);
  ASSERT_TRUE(server);
  auto c = RawConnection::Connect(server->port());
  for (int i = 0; i < 200; ++i) c->Call({"incr", "n"});
  WriteMixed(*c);
  // The base is an RDB file: streams go into it once the RDB writer encodes them (the streams
  // branch); until then the stream is left out of this test.
  c->Call({"del", "st"});
  EXPECT_TRUE(WaitForPersistenceInfo(*c, "aof_rewrites:0\r\n"));
  EXPECT_EQ(c->Call({"bgrewriteaof"}), "+Background append only file rewriting started\r\n");
  // Writes go on during the rewrite, into the new incremental file.
  c->Call({"set", "during", "1"});
  ASSERT_TRUE(WaitForPersistenceInfo(*c, "aof_rewrite_in_progress:0\r\n"));
  ASSERT_TRUE(WaitForPersistenceInfo(*c, "aof_rewrites:1\r\n"));
  const std::string info = c->Call({"info", "persistence"});
  EXPECT_TRUE(Contains(info, "aof_enabled:1\r\n")) << info;
  EXPECT_TRUE(Contains(info, "aof_last_bgrewrite_status:ok\r\n")) << info;
  EXPECT_TRUE(Contains(info, "aof_last_write_status:ok\r\n")) << info;
  EXPECT_TRUE(Contains(info, "aof_buffer_length:0\r\n")) << info;
  const std::string adir = dir + "/appendonlydir";
  EXPECT_EQ(ReadFile(adir + "/appendonly.aof.manifest"),
            "file appendonly.aof.2.base.rdb seq 2 type b\n"
            "file appendonly.aof.2.incr.aof seq 2 type i\n");
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(adir)) files.push_back(e.path().filename());
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files,
            (std::vector<std::string>{"appendonly.aof.2.base.rdb", "appendonly.aof.2.incr.aof",
                                      "appendonly.aof.manifest"}));
  EXPECT_EQ(ReadFile(adir + "/appendonly.aof.2.base.rdb").substr(0, 9), "REDIS0010");
  // The new incremental file starts with a SELECT, then what came during the rewrite.
  EXPECT_EQ(ReadFile(adir + "/appendonly.aof.2.incr.aof"),
            "*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n*3\r\n$3\r\nset\r\n$6\r\nduring\r\n$1\r\n1\r\n");
  const std::string log = server->ReadLog();
  EXPECT_TRUE(Contains(log, "Background append only file rewriting started by pid")) << log;
  EXPECT_TRUE(Contains(log, "Background AOF rewrite finished successfully")) << log;
  EXPECT_TRUE(Contains(log, "Removing the history file appendonly.aof.1.base.rdb")) << log;
  const std::string before = Snapshot(*c) + c->Call({"get", "n"}) + c->Call({"get", "during"});
  server->Stop(9);
  server = StartAof(dir);
  ASSERT_TRUE(server);
  c = RawConnection::Connect(server->port());
  EXPECT_EQ(Snapshot(*c) + c->Call({"get", "n"}) + c->Call({"get", "during"}), before);
}

// aof-use-rdb-preamble no: the base is the commands that rebuild the data (".base.aof").
TEST(AofTest, CommandsBaseWithoutPreamble) {
  const std::string dir = MakeTempDir();
  auto server = StartAof(dir, {"--aof-use-rdb-preamble", "no", "--aof-timestamp-enabled", "yes"});
  ASSERT_TRUE(server);
  auto c = RawConnection::Connect(server->port());
  WriteMixed(*c);
  c->Call({"del", "st"});  // a stream cannot be written in this form yet
  std::vector<std::string> items = {"rpush", "big"};
  for (int i = 0; i < 150; ++i) items.push_back(std::to_string(i));
  c->Call(items);
  ASSERT_EQ(c->Call({"bgrewriteaof"}), "+Background append only file rewriting started\r\n");
  ASSERT_TRUE(WaitForPersistenceInfo(*c, "aof_rewrite_in_progress:0\r\n"));
  ASSERT_TRUE(WaitForPersistenceInfo(*c, "aof_last_bgrewrite_status:ok\r\n"));
  const std::string adir = dir + "/appendonlydir";
  EXPECT_EQ(ReadFile(adir + "/appendonly.aof.manifest"),
            "file appendonly.aof.2.base.aof seq 2 type b\n"
            "file appendonly.aof.2.incr.aof seq 2 type i\n");
  const std::string base = ReadFile(adir + "/appendonly.aof.2.base.aof");
  EXPECT_EQ(base.substr(0, 4), "#TS:") << base.substr(0, 100);
  // 150 items go as RPUSH batches of 64, 64 and 22.
  EXPECT_TRUE(Contains(base, "*66\r\n$5\r\nRPUSH\r\n$3\r\nbig\r\n$1\r\n0\r\n")) << base;
  EXPECT_TRUE(Contains(base, "*24\r\n$5\r\nRPUSH\r\n$3\r\nbig\r\n$3\r\n128\r\n")) << base;
  EXPECT_TRUE(Contains(base, "$9\r\nPEXPIREAT\r\n$3\r\nttl\r\n")) << base;
  const std::string before = Snapshot(*c) + c->Call({"lrange", "big", "0", "-1"});
  server->Stop(9);
  server = StartAof(dir);
  ASSERT_TRUE(server);
  c = RawConnection::Connect(server->port());
  EXPECT_EQ(Snapshot(*c) + c->Call({"lrange", "big", "0", "-1"}), before);
}

TEST(AofTest, ConfigSetAppendonlyStartsFromTheData) {
  const std::string dir = MakeTempDir();
  auto server = ServerProcess::StartKvserver({"--dir", dir});
  ASSERT_TRUE(server);
  auto c = RawConnection::Connect(server->port());
  c->Call({"set", "before", "1"});
  EXPECT_TRUE(Contains(c->Call({"info", "persistence"}), "aof_enabled:0\r\n"));
  EXPECT_EQ(c->Call({"config", "set", "appendonly", "yes"}), "+OK\r\n");
  EXPECT_EQ(c->Call({"config", "get", "appendonly"}), "*2\r\n$10\r\nappendonly\r\n$3\r\nyes\r\n");
  ASSERT_TRUE(WaitForPersistenceInfo(*c, "aof_rewrite_in_progress:0\r\n"));
  ASSERT_TRUE(WaitForPersistenceInfo(*c, "aof_rewrites:1\r\n"));
  c->Call({"set", "after", "2"});
  EXPECT_EQ(ReadFile(dir + "/appendonlydir/appendonly.aof.manifest"),
            "file appendonly.aof.1.base.rdb seq 1 type b\n"
            "file appendonly.aof.1.incr.aof seq 1 type i\n");
  server->Stop(9);
  server = StartAof(dir);
  ASSERT_TRUE(server);
  c = RawConnection::Connect(server->port());
  EXPECT_EQ(c->Call({"mget", "before", "after"}), "*2\r\n$1\r\n1\r\n$1\r\n2\r\n");
  // Turned off, nothing more is appended.
  EXPECT_EQ(c->Call({"config", "set", "appendonly", "no"}), "+OK\r\n");
  const auto size = fs::file_size(dir + "/appendonlydir/appendonly.aof.1.incr.aof");
  c->Call({"set", "ignored", "3"});
  EXPECT_EQ(fs::file_size(dir + "/appendonlydir/appendonly.aof.1.incr.aof"), size);
}

TEST(AofTest, TimestampAnnotations) {
  const std::string dir = MakeTempDir();
  auto server = StartAof(dir, {"--aof-timestamp-enabled", "yes"});
  ASSERT_TRUE(server);
  auto c = RawConnection::Connect(server->port());
  c->Call({"set", "a", "1"});
  c->Call({"set", "b", "2"});
  server->Stop(9);
  const std::string incr = ReadFile(dir + "/appendonlydir/appendonly.aof.1.incr.aof");
  ASSERT_EQ(incr.substr(0, 4), "#TS:") << incr;
  const long long ts = std::stoll(incr.substr(4));
  const long long now = std::chrono::duration_cast<std::chrono::seconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
  EXPECT_LE(std::llabs(now - ts), 60);
  // The annotations are skipped when loading.
  server = StartAof(dir);
  ASSERT_TRUE(server);
  c = RawConnection::Connect(server->port());
  EXPECT_EQ(c->Call({"mget", "a", "b"}), "*2\r\n$1\r\n1\r\n$1\r\n2\r\n");
}

TEST(AofTest, DebugLoadaofReloadsTheDirectory) {
  const std::string dir = MakeTempDir();
  auto server = StartAof(dir, {"--enable-debug-command", "yes"});
  ASSERT_TRUE(server);
  auto c = RawConnection::Connect(server->port());
  WriteMixed(*c);
  const std::string before = Snapshot(*c);
  EXPECT_EQ(c->Call({"debug", "loadaof"}), "+OK\r\n");
  EXPECT_EQ(Snapshot(*c), before);
  EXPECT_TRUE(Contains(server->ReadLog(), "Append Only File loaded by DEBUG LOADAOF"));
  // Nothing was appended by the reload itself.
  const auto size = fs::file_size(dir + "/appendonlydir/appendonly.aof.1.incr.aof");
  EXPECT_EQ(c->Call({"debug", "loadaof"}), "+OK\r\n");
  EXPECT_EQ(fs::file_size(dir + "/appendonlydir/appendonly.aof.1.incr.aof"), size);
  EXPECT_EQ(Snapshot(*c), before);
}

// Function libraries: in the incremental file as FUNCTION LOAD, in an RDB base after a rewrite.
TEST(AofTest, FunctionLibrariesSurvive) {
  const std::string dir = MakeTempDir();
  const std::string lib =
      "#!lua name=mylib\nredis.register_function('myincr', function(keys, args) return "
      "redis.call('incr', keys[1]) end)";
  auto server = StartAof(dir);
  ASSERT_TRUE(server);
  auto c = RawConnection::Connect(server->port());
  ASSERT_EQ(c->Call({"function", "load", lib}), "$5\r\nmylib\r\n");
  EXPECT_EQ(c->Call({"fcall", "myincr", "1", "n"}), ":1\r\n");
  server->Stop(9);
  server = StartAof(dir);
  ASSERT_TRUE(server);
  c = RawConnection::Connect(server->port());
  EXPECT_EQ(c->Call({"fcall", "myincr", "1", "n"}), ":2\r\n");
  ASSERT_EQ(c->Call({"bgrewriteaof"}), "+Background append only file rewriting started\r\n");
  ASSERT_TRUE(WaitForPersistenceInfo(*c, "aof_rewrite_in_progress:0\r\n"));
  ASSERT_TRUE(WaitForPersistenceInfo(*c, "aof_last_bgrewrite_status:ok\r\n"));
  server->Stop(9);
  server = StartAof(dir);
  ASSERT_TRUE(server);
  c = RawConnection::Connect(server->port());
  EXPECT_EQ(c->Call({"fcall", "myincr", "1", "n"}), ":3\r\n");
}

// A connection to a server that may not accept yet (up to 10 s).
std::unique_ptr<RawConnection> ConnectWhenListening(int port) {
  for (int i = 0; i < 1000; ++i) {
    if (auto c = RawConnection::Connect(port)) return c;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return nullptr;
}

// The file names in `dir` with their sizes.
std::string Listing(const std::string& dir) {
  std::vector<std::string> entries;
  for (const auto& e : fs::directory_iterator(dir)) {
    entries.push_back(e.path().filename().string() + " " + std::to_string(e.file_size()));
  }
  std::sort(entries.begin(), entries.end());
  std::string out;
  for (const std::string& e : entries) out += e + "\n";
  return out;
}

// INFO persistence's `field` as a number (-1 when missing).
int64_t InfoNumber(RawConnection& c, const std::string& field) {
  const std::string info = c.Call({"info", "persistence"});
  const size_t at = info.find("\r\n" + field + ":");
  if (at == std::string::npos) return -1;
  return std::atoll(info.c_str() + at + field.size() + 3);
}

// The start-up load of the AOF serves clients as the RDB file's does (Redis's
// loadAppendOnlyFiles): -LOADING and INFO's loading:1, loading_total_bytes the size of the base
// and incremental files together, clients served through the base and on into the incremental
// file; a SIGTERM meanwhile stops the server without touching the files.
TEST(AofTest, ClientsAreServedWhileTheAofLoads) {
  const std::string dir = MakeTempDir();
  const std::string aof_dir = dir + "/appendonlydir";
  {
    auto server = StartAof(dir, {"--enable-debug-command", "yes"});
    ASSERT_TRUE(server);
    auto c = RawConnection::Connect(server->port());
    ASSERT_EQ(c->Call({"debug", "populate", "5000", "base", "10"}), "+OK\r\n");
    ASSERT_EQ(c->Call({"bgrewriteaof"}), "+Background append only file rewriting started\r\n");
    ASSERT_TRUE(WaitForPersistenceInfo(*c, "aof_rewrite_in_progress:0\r\n"));
    std::string pipeline;
    for (int i = 0; i < 5000; ++i)
      pipeline += EncodeCommand({"set", "incr:" + std::to_string(i), "v"});
    c->Send(pipeline);
    for (int i = 0; i < 5000; ++i) ASSERT_EQ(c->ReadReply().value_or(""), "+OK\r\n");
  }
  uint64_t total = 0, base = 0;
  for (const auto& e : fs::directory_iterator(aof_dir)) {
    const std::string name = e.path().filename().string();
    if (name.find(".manifest") != std::string::npos) continue;
    total += e.file_size();
    if (name.find(".base.") != std::string::npos) base = e.file_size();
  }
  ASSERT_GT(base, 0u);
  const std::string files_before = Listing(aof_dir);
  const std::vector<std::string> slow = {"--dir",
                                         dir,
                                         "--appendonly",
                                         "yes",
                                         "--key-load-delay",
                                         "200",
                                         "--loading-process-events-interval-bytes",
                                         "1024"};
  {
    const int port = PickFreePort();
    auto server = ServerProcess::SpawnKvserver(port, slow);
    auto c = ConnectWhenListening(port);
    ASSERT_TRUE(c);
    const std::string info = c->Call({"info", "persistence"});
    EXPECT_TRUE(Contains(info, "loading:1\r\n")) << info;
    EXPECT_TRUE(Contains(info, "loading_total_bytes:" + std::to_string(total) + "\r\n")) << info;
    EXPECT_EQ(c->Call({"ping"}), "-LOADING Redis is loading the dataset in memory\r\n");
    EXPECT_EQ(c->Call({"set", "x", "1"}), "-LOADING Redis is loading the dataset in memory\r\n");
    // Served again once the base is in and the incremental file's commands are replayed.
    bool served_in_incr = false;
    while (InfoNumber(*c, "loading") == 1) {
      const int64_t loaded = InfoNumber(*c, "loading_loaded_bytes");
      if (loaded > static_cast<int64_t>(base)) served_in_incr = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_TRUE(served_in_incr);
    EXPECT_EQ(InfoNumber(*c, "loading"), 0);
    EXPECT_EQ(c->Call({"dbsize"}), ":10000\r\n");
    EXPECT_EQ(c->Call({"ping"}), "+PONG\r\n");
    EXPECT_TRUE(Contains(server->ReadLog(), "DB loaded from append only file"))
        << server->ReadLog();
    server->Stop(9);
  }
  // A SIGTERM while loading: no new base or incremental file, the manifest as it was.
  const std::string after_first = Listing(aof_dir);
  {
    const int port = PickFreePort();
    auto server = ServerProcess::SpawnKvserver(port, slow);
    auto c = ConnectWhenListening(port);
    ASSERT_TRUE(c);
    EXPECT_TRUE(Contains(c->Call({"info", "persistence"}), "loading:1\r\n"));
    EXPECT_EQ(server->Stop(SIGTERM), 0);
    EXPECT_TRUE(Contains(server->ReadLog(),
                         "Received shutdown signal during loading, scheduling shutdown."))
        << server->ReadLog();
    EXPECT_FALSE(Contains(server->ReadLog(), "DB loaded from append only file"));
  }
  EXPECT_EQ(Listing(aof_dir), after_first);
  EXPECT_EQ(files_before, after_first);
}

TEST(AofTest, BadManifestRefusesToStart) {
  const std::string dir = MakeTempDir();
  fs::create_directories(dir + "/appendonlydir");
  {
    std::ofstream out(dir + "/appendonlydir/appendonly.aof.manifest");
    out << "file appendonly.aof.1.base.rdb seq 1 type x\n";
  }
  int status = 0;
  const std::string out = RunExpectingExit(dir, "", &status);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << out;
  EXPECT_TRUE(Contains(out, "Unknown AOF file type")) << out;
  // As Redis, nothing is logged after the manifest's error (the suite counts its lines).
  EXPECT_EQ(out.find("Unknown AOF file type"), out.rfind("Unknown AOF file type")) << out;
  EXPECT_FALSE(Contains(out, "Ready to accept connections")) << out;
}

}  // namespace
}  // namespace kv::test
