// Whole RDB files between kvserver and a real redis-server 7.0.15: a dataset of every type and
// encoding (in several databases, some keys with deadlines) saved by one server and loaded by the
// other at start-up must read the same there (contents, encodings, deadlines), and kvserver's
// file passes redis-check-rdb. Redis's own test files (tests/assets/*.rdb in Redis's source,
// written by older versions: zipmaps, ziplists, intsets, old quicklists) load into kvserver as
// they load into Redis.

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/differential/persistence_histories.h"
#include "tests/support/persistence_files.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

constexpr int kDatabases = 3;

std::string KeyName(size_t i) { return "key:" + std::to_string(i); }

// Every history in its own key, spread over databases 0 to 2; every fourth key gets a deadline
// in 2100.
void Populate(RawConnection& c) {
  const std::vector<History> histories = Histories();
  for (size_t i = 0; i < histories.size(); ++i) {
    c.Call({"select", std::to_string(i % kDatabases)});
    for (const Args& cmd : histories[i].setup) c.Call(cmd);
    ASSERT_EQ(c.Call({"rename", "k", KeyName(i)}), "+OK\r\n") << histories[i].name;
    if (i % 4 == 1) c.Call({"pexpireat", KeyName(i), "4102444800123"});
  }
  c.Call({"select", "0"});
}

std::vector<std::string> SortedKeys(RawConnection& c) {
  std::vector<std::string> keys;
  if (auto r = ParseReply(c.Call({"keys", "*"}))) {
    for (const RespReply& e : r->elements) keys.push_back(e.str);
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

// Every key of databases 0..n-1 reads the same on both servers.
void ExpectSameDataset(RawConnection& kv, RawConnection& redis, int databases = kDatabases) {
  size_t compared = 0;
  for (int db = 0; db < databases; ++db) {
    SCOPED_TRACE("db " + std::to_string(db));
    kv.Call({"select", std::to_string(db)});
    redis.Call({"select", std::to_string(db)});
    const std::vector<std::string> keys = SortedKeys(redis);
    ASSERT_EQ(SortedKeys(kv), keys);
    for (const std::string& key : keys) {
      SCOPED_TRACE(key);
      EXPECT_EQ(Contents(kv, key), Contents(redis, key));
      EXPECT_EQ(kv.Call({"object", "encoding", key}), redis.Call({"object", "encoding", key}));
      EXPECT_EQ(kv.Call({"pexpiretime", key}), redis.Call({"pexpiretime", key}));
      if (redis.Call({"type", key}) == "+stream\r\n") {
        // Loaded from the same file: the delivery and seen times agree too.
        EXPECT_EQ(StreamContents(kv, key, true), StreamContents(redis, key, true));
        EXPECT_EQ(kv.Call({"xinfo", "groups", key}), redis.Call({"xinfo", "groups", key}));
      }
      ++compared;
    }
  }
  kv.Call({"select", "0"});
  redis.Call({"select", "0"});
  EXPECT_GT(compared, 0u);
}

TEST(RdbFileTest, KvserverFileLoadsIntoRedis) {
  const std::string dir = MakeTempDir();
  auto kv_server = ServerProcess::StartKvserver({"--dir", dir, "--enable-debug-command", "yes"});
  ASSERT_NE(kv_server, nullptr);
  auto kv = RawConnection::Connect(kv_server->port());
  Populate(*kv);
  ASSERT_EQ(kv->Call({"save"}), "+OK\r\n");
  const std::string verdict = CheckRdb(dir + "/dump.rdb");
  EXPECT_NE(verdict.find("exit 0"), std::string::npos) << verdict;
  EXPECT_NE(verdict.find("RDB looks OK"), std::string::npos) << verdict;

  auto redis_server = ServerProcess::StartRedis({"--dir", dir, "--enable-debug-command", "yes"});
  ASSERT_NE(redis_server, nullptr);
  auto redis = RawConnection::Connect(redis_server->port());
  // A loaded value is encoded afresh (a string changed in place, "raw", loads as "int"): both
  // servers compare as loaded from the file.
  ASSERT_EQ(kv->Call({"debug", "reload", "nosave"}), "+OK\r\n");
  ExpectSameDataset(*kv, *redis);
  // Redis's digest of the whole dataset (values, deadlines, databases) agrees too.
  EXPECT_EQ(kv->Call({"debug", "digest"}), redis->Call({"debug", "digest"}));
  // With compression and the checksum off too.
  kv->Call({"config", "set", "rdbcompression", "no"});
  kv->Call({"config", "set", "rdbchecksum", "no"});
  kv->Call({"config", "set", "dbfilename", "plain.rdb"});
  ASSERT_EQ(kv->Call({"save"}), "+OK\r\n");
  redis->Call({"config", "set", "dbfilename", "plain.rdb"});
  ASSERT_EQ(redis->Call({"debug", "reload", "nosave"}), "+OK\r\n");
  ExpectSameDataset(*kv, *redis);
}

TEST(RdbFileTest, RedisFileLoadsIntoKvserver) {
  auto redis_server = ServerProcess::StartRedis({"--enable-debug-command", "yes"});
  ASSERT_NE(redis_server, nullptr);
  auto redis = RawConnection::Connect(redis_server->port());
  Populate(*redis);
  ASSERT_EQ(redis->Call({"save"}), "+OK\r\n");
  ASSERT_EQ(redis->Call({"debug", "reload", "nosave"}), "+OK\r\n");
  auto kv_server =
      ServerProcess::StartKvserver({"--dir", redis_server->dir(), "--enable-debug-command", "yes"});
  ASSERT_NE(kv_server, nullptr);
  auto kv = RawConnection::Connect(kv_server->port());
  ExpectSameDataset(*kv, *redis);
  EXPECT_EQ(kv->Call({"debug", "digest"}), redis->Call({"debug", "digest"}));
  const std::string log = kv_server->ReadLog();
  EXPECT_NE(log.find("Loading RDB produced by version 7.0.15"), std::string::npos) << log;
  EXPECT_NE(log.find("Done loading RDB, keys loaded: "), std::string::npos) << log;
  EXPECT_NE(log.find("DB loaded from disk: "), std::string::npos) << log;
  // DEBUG RELOAD round-trips kvserver's own file, and the save resets the change counter.
  kv->Call({"set", "extra", "1"});
  ASSERT_EQ(kv->Call({"debug", "reload"}), "+OK\r\n");
  EXPECT_NE(kv->Call({"info", "persistence"}).find("rdb_changes_since_last_save:0\r\n"),
            std::string::npos);
  redis->Call({"set", "extra", "1"});
  ExpectSameDataset(*kv, *redis);
  // NOSAVE reloads the file as it was: a key set since is gone.
  kv->Call({"set", "later", "1"});
  ASSERT_EQ(kv->Call({"debug", "reload", "nosave"}), "+OK\r\n");
  EXPECT_EQ(kv->Call({"exists", "later"}), ":0\r\n");
  EXPECT_EQ(kv->Call({"debug", "reload", "bogus"}),
            "-ERR DEBUG RELOAD only supports the MERGE, NOFLUSH and NOSAVE options.\r\n");
}

// DEBUG RELOAD loads as Redis's rdbLoad does: the other clients are served from inside the load
// (every loading-process-events-interval-bytes), getting -LOADING and INFO's loading:1, while the
// caller waits for its +OK; then everything is back (debug.c with key-load-delay slowing it down).
TEST(RdbFileTest, DebugReloadServesOtherClientsWhileLoading) {
  auto kv_server =
      ServerProcess::StartKvserver({"--dir", MakeTempDir(), "--enable-debug-command", "yes"});
  auto redis_server = ServerProcess::StartRedis({"--enable-debug-command", "yes"});
  ASSERT_NE(kv_server, nullptr);
  ASSERT_NE(redis_server, nullptr);
  std::vector<SeenDuringLoad> seen;
  for (ServerProcess* server : {kv_server.get(), redis_server.get()}) {
    auto c = RawConnection::Connect(server->port());
    ASSERT_EQ(c->Call({"debug", "populate", "10000", "key", "10"}), "+OK\r\n");
    ASSERT_EQ(c->Call({"config", "set", "key-load-delay", "200"}), "+OK\r\n");
    ASSERT_EQ(c->Call({"config", "set", "loading-process-events-interval-bytes", "1024"}),
              "+OK\r\n");
    seen.push_back(ObserveSlowLoad(server->port(), {"debug", "reload"}));
    EXPECT_EQ(c->Call({"dbsize"}), ":10000\r\n");
  }
  EXPECT_EQ(seen[1], SeenDuringAServedLoad()) << "redis";
  EXPECT_EQ(seen[0], seen[1]) << "kvserver against redis";
}

TEST(RdbFileTest, RedisTestAssetsLoad) {
  const char* env = std::getenv("KV_REDIS_SOURCE");
  const std::string assets =
      std::string(env != nullptr ? env : "/work/redis-7.0.15") + "/tests/assets";
  if (!std::filesystem::exists(assets + "/encodings.rdb")) {
    GTEST_SKIP() << "Redis's source is not at " << assets << " (set KV_REDIS_SOURCE)";
  }
  for (const char* name : {"encodings.rdb", "hash-zipmap.rdb", "hash-ziplist.rdb",
                           "list-quicklist.rdb", "zset-ziplist.rdb"}) {
    SCOPED_TRACE(name);
    const std::string dir = MakeTempDir();
    std::filesystem::copy_file(assets + "/" + name, dir + "/" + name);
    auto redis_server = ServerProcess::StartRedis({"--dir", dir, "--dbfilename", name});
    auto kv_server = ServerProcess::StartKvserver({"--dir", dir, "--dbfilename", name});
    ASSERT_NE(redis_server, nullptr);
    ASSERT_NE(kv_server, nullptr);
    auto redis = RawConnection::Connect(redis_server->port());
    auto kv = RawConnection::Connect(kv_server->port());
    ExpectSameDataset(*kv, *redis, 1);
  }
}

TEST(RdbFileTest, CorruptFileRefusesToStart) {
  // A file cut short: kvserver says why and exits instead of starting with part of the data.
  auto redis_server = ServerProcess::StartRedis();
  ASSERT_NE(redis_server, nullptr);
  auto redis = RawConnection::Connect(redis_server->port());
  Populate(*redis);
  ASSERT_EQ(redis->Call({"save"}), "+OK\r\n");
  const std::string path = redis_server->dir() + "/dump.rdb";
  std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
  const std::string dir = redis_server->dir();
  std::string out;
  {
    const std::string cmd =
        std::string(KVSERVER_BINARY) + " --port 0 --bind 127.0.0.1 --dir '" + dir + "' 2>&1";
    FILE* p = ::popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    const int status = ::pclose(p);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << out;
  }
  EXPECT_NE(out.find("Internal error in RDB reading offset"), std::string::npos) << out;
  EXPECT_NE(out.find("Fatal error loading the DB"), std::string::npos) << out;
  EXPECT_EQ(out.find("Ready to accept connections"), std::string::npos) << out;
}

// A wrong checksum (integration/rdb's "Server should not start if RDB is corrupted"): Redis's
// line with the two sums, then its "RDB CRC error", and no start.
TEST(RdbFileTest, WrongChecksumRefusesToStart) {
  auto redis_server = ServerProcess::StartRedis();
  ASSERT_NE(redis_server, nullptr);
  auto redis = RawConnection::Connect(redis_server->port());
  redis->Call({"set", "a", "1"});
  ASSERT_EQ(redis->Call({"save"}), "+OK\r\n");
  const std::string path = redis_server->dir() + "/dump.rdb";
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-8, std::ios::end);
    f << "foobar00";
  }
  const std::string cmd = std::string(KVSERVER_BINARY) + " --port 0 --bind 127.0.0.1 --dir '" +
                          redis_server->dir() + "' 2>&1";
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int status = ::pclose(p);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << out;
  EXPECT_NE(out.find("Wrong RDB checksum expected: ("), std::string::npos) << out;
  EXPECT_NE(out.find(") but got (30307261626f6f66). Aborting now."), std::string::npos) << out;
  EXPECT_NE(out.find("RDB CRC error"), std::string::npos) << out;
  EXPECT_EQ(out.find("Ready to accept connections"), std::string::npos) << out;
}

}  // namespace
}  // namespace kv::test
