// The append-only directory between kvserver and a real redis-server 7.0.15 (both started with
// --appendonly yes --dir <tmp>): a directory Redis wrote (an RDB base from BGREWRITEAOF plus an
// incremental file of commands in several databases) loads into kvserver with the same data, and
// the reverse; and the same commands leave the same incremental file on both, which is what
// shows that kvserver propagates commands as Redis does (absolute deadlines, SREM for SPOP, SET
// for INCRBYFLOAT, LPOP for BLPOP, MULTI/EXEC around transactions and scripts, ...).

#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/differential/persistence_histories.h"
#include "tests/support/persistence_files.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

namespace fs = std::filesystem;

// Every history in its own key over databases 0 to 2, BGREWRITEAOF (a base holds them), then
// commands that go to the incremental file.
void Populate(RawConnection& c) {
  const std::vector<History> histories = Histories();
  for (size_t i = 0; i < histories.size(); ++i) {
    c.Call({"select", std::to_string(i % 3)});
    for (const Args& cmd : histories[i].setup) c.Call(cmd);
    c.Call({"rename", "k", "key:" + std::to_string(i)});
  }
  c.Call({"select", "0"});
  ASSERT_EQ(c.Call({"bgrewriteaof"}), "+Background append only file rewriting started\r\n");
  ASSERT_TRUE(WaitForPersistenceInfo(c, "aof_rewrite_in_progress:0\r\n"));
  ASSERT_TRUE(WaitForPersistenceInfo(c, "aof_last_bgrewrite_status:ok\r\n"));
  c.Call({"set", "incr:str", "v", "px", "100000000"});
  c.Call({"rpush", "incr:list", "a", "b", "c"});
  c.Call({"incrbyfloat", "incr:float", "2.5"});
  c.Call({"expire", "key:0", "100000"});
  c.Call({"multi"});
  c.Call({"hset", "incr:hash", "f", "1"});
  c.Call({"zadd", "incr:zset", "1", "m"});
  c.Call({"exec"});
  c.Call({"select", "4"});
  c.Call({"sadd", "incr:set", "x", "y"});
  c.Call({"select", "0"});
}

// redis-server accepts connections before it has loaded its files (replying -LOADING until
// then): waits for it.
void WaitLoaded(RawConnection& c) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (c.Call({"ping"}) != "+PONG\r\n" && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

std::vector<std::string> SortedKeys(RawConnection& c) {
  std::vector<std::string> keys;
  if (auto r = ParseReply(c.Call({"keys", "*"}))) {
    for (const RespReply& e : r->elements) keys.push_back(e.str);
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

void ExpectSameDataset(RawConnection& kv, RawConnection& redis) {
  size_t compared = 0;
  for (int db = 0; db < 5; ++db) {
    SCOPED_TRACE("db " + std::to_string(db));
    kv.Call({"select", std::to_string(db)});
    redis.Call({"select", std::to_string(db)});
    const std::vector<std::string> keys = SortedKeys(redis);
    ASSERT_EQ(SortedKeys(kv), keys);
    for (const std::string& key : keys) {
      SCOPED_TRACE(key);
      EXPECT_EQ(Contents(kv, key), Contents(redis, key));
      EXPECT_EQ(kv.Call({"pexpiretime", key}), redis.Call({"pexpiretime", key}));
      ++compared;
    }
  }
  kv.Call({"select", "0"});
  redis.Call({"select", "0"});
  EXPECT_GT(compared, 10u);
  EXPECT_EQ(kv.Call({"debug", "digest"}), redis.Call({"debug", "digest"}));
}

// A copy of `from`'s appendonlydir in a new temporary directory.
std::string CopyAofDir(const std::string& from) {
  const std::string to = MakeTempDir();
  fs::copy(from + "/appendonlydir", to + "/appendonlydir", fs::copy_options::recursive);
  return to;
}

const std::vector<std::string> kAofArgs = {"--appendonly", "yes", "--enable-debug-command", "yes"};

std::vector<std::string> WithDir(const std::string& dir) {
  std::vector<std::string> args = kAofArgs;
  args.insert(args.end(), {"--dir", dir});
  return args;
}

// kvserver and redis-server, each started on its own copy of dir's AOF directory, both loaded.
struct BothFromCopies {
  std::unique_ptr<ServerProcess> kv_server, redis_server;
  std::unique_ptr<RawConnection> kv, redis;
};
void StartBothFromCopies(const std::string& dir, BothFromCopies* both) {
  both->kv_server = ServerProcess::StartKvserver(WithDir(CopyAofDir(dir)));
  both->redis_server = ServerProcess::StartRedis(WithDir(CopyAofDir(dir)));
  ASSERT_NE(both->kv_server, nullptr);
  ASSERT_NE(both->redis_server, nullptr);
  both->kv = RawConnection::Connect(both->kv_server->port());
  both->redis = RawConnection::Connect(both->redis_server->port());
  WaitLoaded(*both->redis);
}

TEST(AofFilesTest, RedisDirectoryLoadsIntoKvserver) {
  const std::string dir = MakeTempDir();
  {
    auto redis_server = ServerProcess::StartRedis(WithDir(dir));
    ASSERT_NE(redis_server, nullptr);
    auto redis = RawConnection::Connect(redis_server->port());
    Populate(*redis);
  }  // stopped: the files stay as Redis left them
  const std::string manifest = ReadFile(dir + "/appendonlydir/appendonly.aof.manifest");
  ASSERT_NE(manifest.find("type b"), std::string::npos) << manifest;
  ASSERT_NE(manifest.find("type i"), std::string::npos) << manifest;
  BothFromCopies both;
  ASSERT_NO_FATAL_FAILURE(StartBothFromCopies(dir, &both));
  auto& [kv_server, redis_server, kv, redis] = both;
  ExpectSameDataset(*kv, *redis);
  const std::string log = kv_server->ReadLog();
  EXPECT_NE(log.find("Reading RDB base file on AOF loading..."), std::string::npos) << log;
  EXPECT_NE(log.find("DB loaded from append only file"), std::string::npos) << log;
}

// kvserver's directory, its base written as commands (aof-use-rdb-preamble no), into Redis.
TEST(AofFilesTest, KvserverCommandsBaseLoadsIntoRedis) {
  const std::string dir = MakeTempDir();
  std::vector<std::string> args = WithDir(dir);
  args.insert(args.end(), {"--aof-use-rdb-preamble", "no"});
  {
    auto kv_server = ServerProcess::StartKvserver(args);
    ASSERT_NE(kv_server, nullptr);
    auto kv = RawConnection::Connect(kv_server->port());
    Populate(*kv);
    kv_server->Stop(9);
  }
  const std::string base = ReadFile(dir + "/appendonlydir/appendonly.aof.2.base.aof");
  ASSERT_EQ(base.substr(0, 21), "*2\r\n$6\r\nSELECT\r\n$1\r\n0") << base.substr(0, 200);
  ASSERT_NE(base.find("$6\r\nXCLAIM\r\n"), std::string::npos);
  BothFromCopies both;
  ASSERT_NO_FATAL_FAILURE(StartBothFromCopies(dir, &both));
  auto& [kv_server, redis_server, kv, redis] = both;
  ExpectSameDataset(*kv, *redis);
  const std::string log = ReadFile(redis_server->log_path());
  EXPECT_NE(log.find("DB loaded from base file appendonly.aof.2.base.aof"), std::string::npos)
      << log;
}

// Redis's directory with a base written as commands into kvserver: the streams come as XADD,
// XSETID, XGROUP CREATE, XGROUP CREATECONSUMER and XCLAIM ... FORCE.
TEST(AofFilesTest, RedisCommandsBaseLoadsIntoKvserver) {
  const std::string dir = MakeTempDir();
  std::vector<std::string> args = WithDir(dir);
  args.insert(args.end(), {"--aof-use-rdb-preamble", "no"});
  {
    auto redis_server = ServerProcess::StartRedis(args);
    ASSERT_NE(redis_server, nullptr);
    auto redis = RawConnection::Connect(redis_server->port());
    Populate(*redis);
  }
  const std::string base = ReadFile(dir + "/appendonlydir/appendonly.aof.2.base.aof");
  ASSERT_NE(base.find("$14\r\nCREATECONSUMER\r\n"), std::string::npos) << base.substr(0, 200);
  BothFromCopies both;
  ASSERT_NO_FATAL_FAILURE(StartBothFromCopies(dir, &both));
  auto& [kv_server, redis_server, kv, redis] = both;
  ExpectSameDataset(*kv, *redis);
  const std::string log = kv_server->ReadLog();
  EXPECT_NE(log.find("DB loaded from base file appendonly.aof.2.base.aof"), std::string::npos)
      << log;
}

// Streams that the histories do not cover: several groups, consumers with and without pending
// entries, claimed entries with their own times and counts, deleted entries (pending ones
// among them), an empty stream with a group and a raised last id.
std::vector<Args> StreamHistory() {
  std::vector<Args> h;
  for (int i = 1; i <= 30; ++i) {
    h.push_back({"xadd", "s", std::to_string(i) + "-" + std::to_string(i % 3), "f",
                 std::to_string(i), "g", std::string(i, 'x')});
  }
  for (const Args& cmd : std::vector<Args>{
           {"xgroup", "create", "s", "g1", "0", "entriesread", "0"},
           {"xgroup", "create", "s", "g2", "5-2"},
           {"xgroup", "create", "s", "g3", "$"},
           {"xreadgroup", "group", "g1", "alice", "count", "6", "streams", "s", ">"},
           {"xreadgroup", "group", "g1", "bob", "count", "4", "streams", "s", ">"},
           {"xreadgroup", "group", "g2", "carol", "noack", "count", "3", "streams", "s", ">"},
           {"xreadgroup", "group", "g2", "dave", "count", "2", "streams", "s", ">"},
           {"xgroup", "createconsumer", "s", "g1", "erin"},
           {"xgroup", "createconsumer", "s", "g3", "frank"},
           {"xack", "s", "g1", "2-2", "3-0"},
           {"xclaim", "s", "g1", "bob", "0", "1-1", "time", "1234567", "retrycount", "9"},
           {"xclaim", "s", "g1", "erin", "0", "4-1", "idle", "1000", "justid"},
           {"xdel", "s", "5-2", "20-2", "30-0"},
           {"xdel", "s", "14-2"},
           {"xgroup", "create", "e", "g", "$", "mkstream"},
           {"xgroup", "createconsumer", "e", "g", "c"},
           {"xgroup", "create", "e2", "g", "$", "mkstream"},
           {"xsetid", "e2", "7-7", "entriesadded", "12", "maxdeletedid", "6-0"},
           {"xadd", "e3", "1-1", "a", "b"},
           {"xdel", "e3", "1-1"},
       }) {
    h.push_back(cmd);
  }
  return h;
}

const char* const kStreamKeys[] = {"s", "e", "e2", "e3"};

// XINFO STREAM FULL with the consumers' seen times blanked: replaying a consumer's commands
// (XCLAIM, XGROUP CREATECONSUMER) marks it seen at load time, in Redis as here. With
// `but_entries_read`, the groups' entries-read and lag too.
std::string StreamFullButSeenTimes(RawConnection& c, const std::string& key,
                                   bool but_entries_read = false) {
  auto r = ParseReply(c.Call({"xinfo", "stream", key, "full"}));
  if (!r) return "unparsable";
  std::function<void(RespReply&)> blank = [&](RespReply& x) {
    for (size_t i = 0; i + 1 < x.elements.size(); ++i) {
      const std::string& name = x.elements[i].str;
      if (name == "seen-time" || (but_entries_read && (name == "entries-read" || name == "lag"))) {
        x.elements[i + 1] = RespReply{};
      }
    }
    for (RespReply& e : x.elements) blank(e);
  };
  blank(*r);
  return Describe(*r);
}

// A base written as commands, then a restart: every stream reads back the same, delivery times
// and counts included (a pending entry whose stream entry was deleted is gone, as it is when
// Redis loads such a base: XCLAIM drops it).
TEST(AofFilesTest, StreamsSurviveCommandsRewriteAndRestart) {
  const std::string dir = MakeTempDir();
  std::vector<std::string> args = WithDir(dir);
  args.insert(args.end(), {"--aof-use-rdb-preamble", "no"});
  std::vector<std::string> before;
  {
    auto kv_server = ServerProcess::StartKvserver(args);
    ASSERT_NE(kv_server, nullptr);
    auto kv = RawConnection::Connect(kv_server->port());
    for (const Args& cmd : StreamHistory()) kv->Call(cmd);
    // The deleted pending entry 5-2 (alice's) leaves the PEL first, as the replay would drop it.
    kv->Call({"xautoclaim", "s", "g1", "bob", "0", "5-2", "count", "1", "justid"});
    for (const char* key : kStreamKeys) before.push_back(StreamFullButSeenTimes(*kv, key));
    ASSERT_EQ(kv->Call({"bgrewriteaof"}), "+Background append only file rewriting started\r\n");
    ASSERT_TRUE(WaitForPersistenceInfo(*kv, "aof_rewrite_in_progress:0\r\n"));
    ASSERT_TRUE(WaitForPersistenceInfo(*kv, "aof_last_bgrewrite_status:ok\r\n"));
    kv_server->Stop(9);
  }
  const std::string base = ReadFile(dir + "/appendonlydir/appendonly.aof.2.base.aof");
  ASSERT_NE(base.find("$4\r\nXADD\r\n"), std::string::npos) << base.substr(0, 300);
  auto kv_server = ServerProcess::StartKvserver(args);
  ASSERT_NE(kv_server, nullptr);
  auto kv = RawConnection::Connect(kv_server->port());
  size_t i = 0;
  for (const char* key : kStreamKeys) {
    SCOPED_TRACE(key);
    EXPECT_EQ(StreamFullButSeenTimes(*kv, key), before[i++]);
  }
  EXPECT_NE(before[0].find("1234567"), std::string::npos) << before[0];
}

// Without a rewrite: the incremental file alone (XREADGROUP, XCLAIM and XAUTOCLAIM as the
// XCLAIMs and XGROUP SETIDs they propagate) rebuilds the same streams in kvserver after a kill -9
// as in redis-server from a copy of the directory, and the streams as they were but for the
// entries-read of a group that XREADGROUP advanced (an XCLAIM's LASTID does not carry it, so
// Redis's replay leaves it where XGROUP CREATE put it).
TEST(AofFilesTest, StreamGroupsSurviveRestartFromIncrementalFile) {
  const std::string dir = MakeTempDir();
  std::vector<std::string> before, before_but_entries_read;
  {
    auto kv_server = ServerProcess::StartKvserver(WithDir(dir));
    ASSERT_NE(kv_server, nullptr);
    auto kv = RawConnection::Connect(kv_server->port());
    for (const Args& cmd : StreamHistory()) kv->Call(cmd);
    kv->Call({"xautoclaim", "s", "g1", "bob", "0", "5-2", "count", "3"});
    kv->Call({"xreadgroup", "group", "g3", "gus", "noack", "streams", "s", "0"});
    kv->Call({"xadd", "s", "31-0", "f", "31"});
    kv->Call({"xreadgroup", "group", "g3", "gus", "noack", "streams", "s", ">"});
    kv->Call({"xclaim", "s", "g2", "dave", "0", "9-0", "lastid", "29-0"});
    kv->Call({"xclaim", "s", "g2", "dave", "0", "1-1", "lastid", "30-0"});
    for (const char* key : kStreamKeys) {
      before.push_back(StreamFullButSeenTimes(*kv, key));
      before_but_entries_read.push_back(StreamFullButSeenTimes(*kv, key, true));
    }
    kv_server->Stop(9);
  }
  BothFromCopies both;
  ASSERT_NO_FATAL_FAILURE(StartBothFromCopies(dir, &both));
  auto& [kv_server, redis_server, kv, redis] = both;
  size_t i = 0;
  for (const char* key : kStreamKeys) {
    SCOPED_TRACE(key);
    EXPECT_EQ(StreamFullButSeenTimes(*kv, key), StreamFullButSeenTimes(*redis, key));
    EXPECT_EQ(StreamFullButSeenTimes(*kv, key, true), before_but_entries_read[i]);
    if (std::string(key) != "s") EXPECT_EQ(StreamFullButSeenTimes(*kv, key), before[i]);
    ++i;
  }
}

// The base file of the same streams written by kvserver and by redis-server (aof-use-rdb-preamble
// no), byte for byte but for the delivery times the clock gave.
TEST(AofFilesTest, StreamCommandsBaseMatchesRedis) {
  auto base_after = [](bool redis) -> std::string {
    const std::string dir = MakeTempDir();
    std::vector<std::string> args = WithDir(dir);
    args.insert(args.end(), {"--aof-use-rdb-preamble", "no"});
    auto server = redis ? ServerProcess::StartRedis(args) : ServerProcess::StartKvserver(args);
    if (!server) return "did not start";
    auto c = RawConnection::Connect(server->port());
    // One key a database: the order of keys within a database is the hash table's.
    const std::vector<Args> history = StreamHistory();
    int db = 0;
    for (const Args& cmd : history) {
      const std::string key = cmd[0] == "xgroup"       ? cmd[2]
                              : cmd[0] == "xreadgroup" ? cmd[cmd.size() - 2]
                                                       : cmd[1];
      const int want = key == "s" ? 0 : key == "e" ? 1 : key == "e2" ? 2 : 3;
      if (want != db) c->Call({"select", std::to_string(db = want)});
      c->Call(cmd);
    }
    c->Call({"bgrewriteaof"});
    if (!WaitForPersistenceInfo(*c, "aof_rewrite_in_progress:0\r\n")) return "no rewrite";
    server->Stop();
    static const std::regex kTime("\\$13\\r\\n1[0-9]{12}\\r\\n");
    return std::regex_replace(ReadFile(dir + "/appendonlydir/appendonly.aof.2.base.aof"), kTime,
                              "<ms>\r\n");
  };
  const std::string kv = base_after(false);
  const std::string redis = base_after(true);
  EXPECT_GT(redis.size(), 1000u);
  // Every kind of command rewriteStreamObject writes is there.
  for (const char* word : {"XADD", "XSETID", "XGROUP", "CREATECONSUMER", "XCLAIM", "MAXLEN"}) {
    EXPECT_NE(redis.find(std::string("\r\n") + word + "\r\n"), std::string::npos) << word;
  }
  EXPECT_EQ(kv, redis);
}

TEST(AofFilesTest, KvserverDirectoryLoadsIntoRedis) {
  const std::string dir = MakeTempDir();
  {
    auto kv_server = ServerProcess::StartKvserver(WithDir(dir));
    ASSERT_NE(kv_server, nullptr);
    auto kv = RawConnection::Connect(kv_server->port());
    Populate(*kv);
    kv_server->Stop(9);
  }
  BothFromCopies both;
  ASSERT_NO_FATAL_FAILURE(StartBothFromCopies(dir, &both));
  auto& [kv_server, redis_server, kv, redis] = both;
  ExpectSameDataset(*kv, *redis);
  const std::string log = ReadFile(redis_server->log_path());
  EXPECT_NE(log.find("DB loaded from incr file appendonly.aof.2.incr.aof"), std::string::npos)
      << log;
}

// An approximate trim with LIMIT goes to the AOF as the exact trim it came to, LIMIT kept; the
// AOF's client replays it without the limit (Redis's mustObeyClient), so that DEBUG LOADAOF with
// other node sizes rebuilds the same entries (Redis's unit/type/stream "XADD with ~ MAXLEN and
// LIMIT can propagate correctly").
TEST(AofFilesTest, ApproximateTrimWithLimitReplaysExactly) {
  for (const char* strategy : {"maxlen", "minid"}) {
    SCOPED_TRACE(strategy);
    std::vector<std::string> results[2];
    for (int redis = 0; redis < 2; ++redis) {
      std::vector<std::string> args = WithDir(MakeTempDir());
      args.insert(args.end(), {"--stream-node-max-entries", "10"});
      auto server = redis ? ServerProcess::StartRedis(args) : ServerProcess::StartKvserver(args);
      ASSERT_NE(server, nullptr);
      auto c = RawConnection::Connect(server->port());
      for (int j = 1; j <= 100; ++j) c->Call({"xadd", "s", std::to_string(j) + "-1", "f", "v"});
      const std::string threshold = std::string(strategy) == "maxlen" ? "55" : "45";
      c->Call({"xadd", "s", strategy, "~", threshold, "limit", "30", "101-1", "f", "v"});
      c->Call({"xtrim", "s", strategy, "~", threshold, "limit", "10"});
      results[redis].push_back(c->Call({"xlen", "s"}));
      c->Call({"config", "set", "stream-node-max-entries", "1"});
      results[redis].push_back(c->Call({"debug", "loadaof"}));
      results[redis].push_back(c->Call({"xlen", "s"}));
      results[redis].push_back(c->Call({"xrange", "s", "-", "+", "count", "1"}));
    }
    EXPECT_EQ(results[0], results[1]);
    EXPECT_EQ(results[0][0], results[0][2]);
  }
}

// DEBUG LOADAOF loads as Redis's loadAppendOnlyFiles does: the other clients are served from
// inside the load (every 1024 commands of the incremental file, and through the RDB base),
// getting -LOADING and INFO's loading:1, while the caller waits for its +OK.
TEST(AofDirectoryTest, DebugLoadaofServesOtherClientsWhileLoading) {
  auto kv_server = ServerProcess::StartKvserver(WithDir(MakeTempDir()));
  auto redis_server = ServerProcess::StartRedis(WithDir(MakeTempDir()));
  ASSERT_NE(kv_server, nullptr);
  ASSERT_NE(redis_server, nullptr);
  std::vector<SeenDuringLoad> seen;
  for (ServerProcess* server : {kv_server.get(), redis_server.get()}) {
    auto c = RawConnection::Connect(server->port());
    WaitLoaded(*c);
    // 4,000 keys in the base, 4,000 commands in the incremental file.
    ASSERT_EQ(c->Call({"debug", "populate", "4000", "base", "10"}), "+OK\r\n");
    ASSERT_EQ(c->Call({"bgrewriteaof"}), "+Background append only file rewriting started\r\n");
    ASSERT_TRUE(WaitForPersistenceInfo(*c, "aof_rewrite_in_progress:0\r\n"));
    std::string pipeline;
    for (int i = 0; i < 4000; ++i)
      pipeline += EncodeCommand({"set", "incr:" + std::to_string(i), "v"});
    c->Send(pipeline);
    for (int i = 0; i < 4000; ++i) ASSERT_EQ(c->ReadReply().value_or(""), "+OK\r\n");
    ASSERT_EQ(c->Call({"config", "set", "key-load-delay", "200"}), "+OK\r\n");
    ASSERT_EQ(c->Call({"config", "set", "loading-process-events-interval-bytes", "1024"}),
              "+OK\r\n");
    seen.push_back(ObserveSlowLoad(server->port(), {"debug", "loadaof"}));
    EXPECT_EQ(c->Call({"dbsize"}), ":8000\r\n");
  }
  EXPECT_EQ(seen[1], SeenDuringAServedLoad()) << "redis";
  EXPECT_EQ(seen[0], seen[1]) << "kvserver against redis";
}

// ---- fsync on a slow or failing disk (tests/preload/fsync_shim.cc preloaded into both servers)

// Both servers started with the shim and `env` set while they start (the shim reads them then).
struct ShimmedPair {
  std::unique_ptr<ServerProcess> kv_server, redis_server;
  std::unique_ptr<RawConnection> kv, redis;
};

ShimmedPair StartWithFsyncShim(const std::vector<std::pair<std::string, std::string>>& env) {
  ::setenv("LD_PRELOAD", KV_FSYNC_SHIM, 1);
  for (const auto& [name, value] : env) ::setenv(name.c_str(), value.c_str(), 1);
  ShimmedPair p;
  p.kv_server = ServerProcess::StartKvserver(WithDir(MakeTempDir()));
  p.redis_server = ServerProcess::StartRedis(WithDir(MakeTempDir()));
  ::unsetenv("LD_PRELOAD");
  for (const auto& [name, value] : env) ::unsetenv(name.c_str());
  if (p.kv_server) p.kv = RawConnection::Connect(p.kv_server->port());
  if (p.redis_server) p.redis = RawConnection::Connect(p.redis_server->port());
  if (p.redis) WaitLoaded(*p.redis);
  return p;
}

std::string InfoField(RawConnection& c, const std::string& name) {
  const std::string info = BulkText(c.Call({"info", "persistence"}));
  const size_t at = info.find(name + ":");
  if (at == std::string::npos) return "missing";
  const size_t end = info.find("\r\n", at);
  return info.substr(at + name.size() + 1, end - at - name.size() - 1);
}

// appendfsync everysec with fsyncs that take 4 s: writes wait behind the running fsync for two
// seconds, then go to the file anyway, counted in aof_delayed_fsync with Redis's log line; CONFIG
// RESETSTAT sets it back to 0.
TEST(AofFsyncTest, WritesBehindASlowFsyncAreDelayedAndCounted) {
#ifdef KV_SANITIZED
  GTEST_SKIP() << "the shim is not preloaded into sanitized binaries";
#endif
  ShimmedPair p = StartWithFsyncShim({{"KV_TEST_FSYNC_DELAY_MS", "4000"}});
  ASSERT_NE(p.kv, nullptr);
  ASSERT_NE(p.redis, nullptr);
  EXPECT_EQ(InfoField(*p.kv, "aof_delayed_fsync"), "0");
  EXPECT_EQ(InfoField(*p.redis, "aof_delayed_fsync"), "0");
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(6500);
  int i = 0;
  while (std::chrono::steady_clock::now() < end) {
    const std::string key = "k" + std::to_string(i++);
    ASSERT_EQ(p.kv->Call({"set", key, "v"}), "+OK\r\n");
    ASSERT_EQ(p.redis->Call({"set", key, "v"}), "+OK\r\n");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  for (RawConnection* c : {p.kv.get(), p.redis.get()}) {
    SCOPED_TRACE(c == p.kv.get() ? "kvserver" : "redis");
    const std::string delayed = InfoField(*c, "aof_delayed_fsync");
    EXPECT_GE(std::atoi(delayed.c_str()), 1) << delayed;
    EXPECT_EQ(InfoField(*c, "aof_last_write_status"), "ok");
    EXPECT_EQ(c->Call({"config", "resetstat"}), "+OK\r\n");
    EXPECT_EQ(InfoField(*c, "aof_delayed_fsync"), "0");
  }
  const std::string line = "Asynchronous AOF fsync is taking too long (disk is busy?).";
  EXPECT_NE(p.kv_server->ReadLog().find(line), std::string::npos);
  EXPECT_NE(ReadFile(p.redis_server->log_path()).find(line), std::string::npos);
  p.kv_server->Stop(9);
  p.redis_server->Stop(9);
}

// A background fsync that fails: aof_last_write_status turns to err, with Redis's log line.
TEST(AofFsyncTest, FailedBackgroundFsyncIsAWriteError) {
#ifdef KV_SANITIZED
  GTEST_SKIP() << "the shim is not preloaded into sanitized binaries";
#endif
  const std::string broken = MakeTempDir() + "/disk-broken";
  ShimmedPair p = StartWithFsyncShim({{"KV_TEST_FSYNC_FAIL", broken}});
  ASSERT_NE(p.kv, nullptr);
  ASSERT_NE(p.redis, nullptr);
  EXPECT_EQ(InfoField(*p.kv, "aof_last_write_status"), "ok");
  EXPECT_EQ(InfoField(*p.redis, "aof_last_write_status"), "ok");
  std::ofstream(broken) << "x";
  EXPECT_EQ(p.kv->Call({"set", "a", "1"}), "+OK\r\n");
  EXPECT_EQ(p.redis->Call({"set", "a", "1"}), "+OK\r\n");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < deadline &&
         (InfoField(*p.kv, "aof_last_write_status") != "err" ||
          InfoField(*p.redis, "aof_last_write_status") != "err")) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(InfoField(*p.kv, "aof_last_write_status"), "err");
  EXPECT_EQ(InfoField(*p.redis, "aof_last_write_status"), "err");
  const std::string line = "Fail to fsync the AOF file: Input/output error";
  EXPECT_NE(p.kv_server->ReadLog().find(line), std::string::npos) << p.kv_server->ReadLog();
  EXPECT_NE(ReadFile(p.redis_server->log_path()).find(line), std::string::npos);
  p.kv_server->Stop(9);
  p.redis_server->Stop(9);
}

// Both servers' replies to `args`, which must be equal; kvserver's.
std::string Both(ShimmedPair& p, const std::vector<std::string>& args) {
  const std::string kv = p.kv->Call(args);
  EXPECT_EQ(kv, p.redis->Call(args)) << args[0];
  return kv;
}

// A write to the AOF that fails (a full disk, appendfsync everysec): the command whose write
// failed is answered, then writes, PING and scripts' writes get Redis's MISCONF naming the error
// while reads go on, INFO says aof_last_write_status:err; once the disk has room again the retry
// writes what was kept ("AOF write error looks solved") and writes are accepted again.
TEST(AofFsyncTest, FailedWriteRefusesWritesUntilARetrySucceeds) {
#ifdef KV_SANITIZED
  GTEST_SKIP() << "the shim is not preloaded into sanitized binaries";
#endif
  const std::string full = MakeTempDir() + "/disk-full";
  ShimmedPair p =
      StartWithFsyncShim({{"KV_TEST_WRITE_FAIL", full}, {"KV_TEST_WRITE_FAIL_MATCH", ".incr.aof"}});
  ASSERT_NE(p.kv, nullptr);
  ASSERT_NE(p.redis, nullptr);
  EXPECT_EQ(Both(p, {"set", "a", "1"}), "+OK\r\n");
  std::ofstream(full) << "x";
  EXPECT_EQ(Both(p, {"set", "b", "2"}), "+OK\r\n");
  const std::string misconf =
      "-MISCONF Errors writing to the AOF file: No space left on device\r\n";
  EXPECT_EQ(Both(p, {"set", "c", "3"}), misconf);
  EXPECT_EQ(Both(p, {"ping"}), misconf);
  EXPECT_EQ(Both(p, {"get", "b"}), "$1\r\n2\r\n");
  Both(p, {"eval", "return redis.call('set', 'c', '3')", "0"});
  Both(p, {"eval", "#!lua\nreturn redis.call('set', 'c', '3')", "0"});
  EXPECT_EQ(Both(p, {"eval", "#!lua flags=no-writes\nreturn redis.call('get', 'a')", "0"}),
            "$1\r\n1\r\n");
  EXPECT_EQ(InfoField(*p.kv, "aof_last_write_status"), "err");
  EXPECT_EQ(InfoField(*p.redis, "aof_last_write_status"), "err");
  const std::string line = "Error writing to the AOF file: No space left on device";
  EXPECT_NE(p.kv_server->ReadLog().find(line), std::string::npos) << p.kv_server->ReadLog();
  EXPECT_NE(ReadFile(p.redis_server->log_path()).find(line), std::string::npos);
  std::filesystem::remove(full);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < deadline &&
         (InfoField(*p.kv, "aof_last_write_status") != "ok" ||
          InfoField(*p.redis, "aof_last_write_status") != "ok")) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(Both(p, {"set", "c", "3"}), "+OK\r\n");
  const std::string solved = "AOF write error looks solved, Redis can write again.";
  EXPECT_NE(p.kv_server->ReadLog().find(solved), std::string::npos);
  EXPECT_NE(ReadFile(p.redis_server->log_path()).find(solved), std::string::npos);
  // What was kept while the disk was full reached the file: a reload finds every write.
  EXPECT_EQ(Both(p, {"debug", "loadaof"}), "+OK\r\n");
  EXPECT_EQ(Both(p, {"mget", "a", "b", "c"}), "*3\r\n$1\r\n1\r\n$1\r\n2\r\n$1\r\n3\r\n");
  p.kv_server->Stop(9);
  p.redis_server->Stop(9);
}

// With appendfsync always a failed write cannot be taken back (replies may have promised it):
// both servers exit with status 1 and Redis's line.
TEST(AofFsyncTest, FailedWriteWithFsyncAlwaysExits) {
#ifdef KV_SANITIZED
  GTEST_SKIP() << "the shim is not preloaded into sanitized binaries";
#endif
  const std::string full = MakeTempDir() + "/disk-full";
  ShimmedPair p =
      StartWithFsyncShim({{"KV_TEST_WRITE_FAIL", full}, {"KV_TEST_WRITE_FAIL_MATCH", ".incr.aof"}});
  ASSERT_NE(p.kv, nullptr);
  ASSERT_NE(p.redis, nullptr);
  EXPECT_EQ(Both(p, {"config", "set", "appendfsync", "always"}), "+OK\r\n");
  std::ofstream(full) << "x";
  p.kv->Send(EncodeCommand({"set", "a", "1"}));
  p.redis->Send(EncodeCommand({"set", "a", "1"}));
  EXPECT_EQ(p.kv_server->WaitExit(10000), 1);
  EXPECT_EQ(p.redis_server->WaitExit(10000), 1);
  const std::string line =
      "Can't recover from AOF write error when the AOF fsync policy is 'always'. Exiting...";
  EXPECT_NE(p.kv_server->ReadLog().find(line), std::string::npos) << p.kv_server->ReadLog();
  EXPECT_NE(ReadFile(p.redis_server->log_path()).find(line), std::string::npos);
}

// ---- A single-file appendonly.aof of Redis before 7.0

// Commands as a Redis 6 AOF holds them: over two databases, a transaction, deadlines, a stream.
std::string OldAofCommands() {
  const std::vector<Args> commands = {
      {"SELECT", "0"},
      {"SET", "old:str", "v"},
      {"SET", "old:int", "12345"},
      {"RPUSH", "old:list", "a", "b", "c"},
      {"SADD", "old:set", "x", "y", "z"},
      {"HSET", "old:hash", "f", "1", "g", "2"},
      {"ZADD", "old:zset", "1", "m", "2.5", "n"},
      {"MULTI"},
      {"INCR", "old:int"},
      {"SET", "old:ttl", "t"},
      {"PEXPIREAT", "old:ttl", "4102444800000"},
      {"EXEC"},
      {"XADD", "old:stream", "1-1", "f", "v"},
      {"XGROUP", "CREATE", "old:stream", "g", "0"},
      {"XCLAIM", "old:stream", "g", "c", "0", "1-1", "TIME", "1234", "RETRYCOUNT", "3", "FORCE",
       "JUSTID", "LASTID", "1-1"},
      {"SELECT", "1"},
      {"SET", "one:a", "1"},
      {"SET", "one:b", "2"},
      {"LPUSH", "one:list", "q"},
      {"DEL", "one:b"},
  };
  std::string out;
  for (const Args& cmd : commands) out += EncodeCommand(cmd);
  return out;
}

// An RDB preamble (a dump.rdb redis-server saved) followed by commands, as Redis 6's rewrite with
// aof-use-rdb-preamble yes left appendonly.aof.
std::string OldAofWithPreamble() {
  const std::string dir = MakeTempDir();
  {
    auto redis_server = ServerProcess::StartRedis({"--dir", dir});
    if (!redis_server) return "";
    auto redis = RawConnection::Connect(redis_server->port());
    for (int i = 0; i < 12; ++i) redis->Call({"set", "pre:" + std::to_string(i), "v"});
    redis->Call({"rpush", "pre:list", "1", "2"});
    redis->Call({"xadd", "pre:stream", "5-5", "a", "b"});
    redis->Call({"save"});
  }
  const std::string rdb = ReadFile(dir + "/dump.rdb");
  if (rdb.substr(0, 5) != "REDIS") return "";
  return rdb + OldAofCommands();
}

// `old` as dir/appendonly.aof, started with appendonly yes: the file moves into appendonlydir as
// the base, under its own name, with the same manifest and log line as Redis's; a new incremental
// file takes the writes. With `interrupted`, an upgrade that stopped after writing the manifest
// (before the move) is finished. Returns the directory.
std::string UpgradedDir(bool redis, const std::string& old, bool interrupted) {
  const std::string dir = MakeTempDir();
  std::ofstream(dir + "/appendonly.aof", std::ios::binary) << old;
  if (interrupted) {
    fs::create_directory(dir + "/appendonlydir");
    std::ofstream(dir + "/appendonlydir/appendonly.aof.manifest")
        << "file appendonly.aof seq 1 type b\n";
  }
  auto server =
      redis ? ServerProcess::StartRedis(WithDir(dir)) : ServerProcess::StartKvserver(WithDir(dir));
  if (!server) return "";
  auto c = RawConnection::Connect(server->port());
  WaitLoaded(*c);
  c->Call({"set", "after:upgrade", "1"});
  c->Call({"ping"});
  const std::string log = redis ? ReadFile(server->log_path()) : server->ReadLog();
  EXPECT_NE(log.find("Successfully migrated an old-style AOF file (appendonly.aof) into the AOF "
                     "directory (appendonlydir)."),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("DB loaded from base file appendonly.aof: "), std::string::npos) << log;
  if (old.substr(0, 5) == "REDIS") {
    EXPECT_NE(log.find("Reading RDB preamble from AOF file...\n"), std::string::npos) << log;
    EXPECT_NE(log.find("Reading the remaining AOF tail...\n"), std::string::npos) << log;
  }
  EXPECT_NE(log.find("Creating AOF incr file appendonly.aof.1.incr.aof on server start"),
            std::string::npos)
      << log;
  server->Stop(9);
  return dir;
}

std::vector<std::string> DirListing(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

void ExpectUpgradeAsRedis(const std::string& old, bool interrupted) {
  const std::string kv_dir = UpgradedDir(false, old, interrupted);
  const std::string redis_dir = UpgradedDir(true, old, interrupted);
  ASSERT_FALSE(kv_dir.empty());
  ASSERT_FALSE(redis_dir.empty());
  EXPECT_FALSE(fs::exists(kv_dir + "/appendonly.aof"));
  EXPECT_EQ(DirListing(kv_dir + "/appendonlydir"), DirListing(redis_dir + "/appendonlydir"));
  EXPECT_EQ(ReadFile(kv_dir + "/appendonlydir/appendonly.aof.manifest"),
            ReadFile(redis_dir + "/appendonlydir/appendonly.aof.manifest"));
  EXPECT_EQ(ReadFile(kv_dir + "/appendonlydir/appendonly.aof"), old);
  EXPECT_EQ(ReadFile(kv_dir + "/appendonlydir/appendonly.aof.1.incr.aof"),
            ReadFile(redis_dir + "/appendonlydir/appendonly.aof.1.incr.aof"));
  // Restarted on the upgraded directories (each server on the other's too): the same data.
  auto kv_server = ServerProcess::StartKvserver(WithDir(kv_dir));
  auto redis_server = ServerProcess::StartRedis(WithDir(CopyAofDir(kv_dir)));
  ASSERT_NE(kv_server, nullptr);
  ASSERT_NE(redis_server, nullptr);
  auto kv = RawConnection::Connect(kv_server->port());
  auto redis = RawConnection::Connect(redis_server->port());
  WaitLoaded(*redis);
  ExpectSameDataset(*kv, *redis);
  EXPECT_EQ(kv->Call({"get", "after:upgrade"}), "$1\r\n1\r\n");
  auto kv_on_redis_dir = ServerProcess::StartKvserver(WithDir(CopyAofDir(redis_dir)));
  ASSERT_NE(kv_on_redis_dir, nullptr);
  auto kv2 = RawConnection::Connect(kv_on_redis_dir->port());
  ExpectSameDataset(*kv2, *redis);
  // The first rewrite makes the old file history, and deletes it.
  ASSERT_EQ(kv->Call({"bgrewriteaof"}), "+Background append only file rewriting started\r\n");
  ASSERT_TRUE(WaitForPersistenceInfo(*kv, "aof_rewrite_in_progress:0\r\n"));
  ASSERT_TRUE(WaitForPersistenceInfo(*kv, "aof_last_bgrewrite_status:ok\r\n"));
  kv->Call({"ping"});
  EXPECT_FALSE(fs::exists(kv_dir + "/appendonlydir/appendonly.aof"));
  EXPECT_EQ(ReadFile(kv_dir + "/appendonlydir/appendonly.aof.manifest"),
            "file appendonly.aof.2.base.rdb seq 2 type b\nfile appendonly.aof.2.incr.aof seq 2 "
            "type i\n");
}

TEST(AofUpgradeTest, OldCommandsFileIsUpgradedAsRedisDoes) {
  ExpectUpgradeAsRedis(OldAofCommands(), false);
}

TEST(AofUpgradeTest, OldFileWithRdbPreambleIsUpgradedAsRedisDoes) {
  const std::string old = OldAofWithPreamble();
  ASSERT_FALSE(old.empty());
  ExpectUpgradeAsRedis(old, false);
}

TEST(AofUpgradeTest, UpgradeCutShortAfterTheManifestIsFinished) {
  ExpectUpgradeAsRedis(OldAofCommands(), true);
}

// A directory whose manifest lists files of its own: an appendonly.aof beside it is left alone
// (not loaded, not moved), as Redis does.
TEST(AofUpgradeTest, OldFileBesideAManifestIsLeftAlone) {
  const std::string dir = MakeTempDir();
  {
    auto kv_server = ServerProcess::StartKvserver(WithDir(dir));
    ASSERT_NE(kv_server, nullptr);
    auto kv = RawConnection::Connect(kv_server->port());
    kv->Call({"set", "new", "1"});
    kv_server->Stop(9);
  }
  std::ofstream(dir + "/appendonly.aof", std::ios::binary) << OldAofCommands();
  const std::string redis_dir = MakeTempDir();
  fs::copy(dir, redis_dir, fs::copy_options::recursive);
  auto kv_server = ServerProcess::StartKvserver(WithDir(dir));
  auto redis_server = ServerProcess::StartRedis(WithDir(redis_dir));
  ASSERT_NE(kv_server, nullptr);
  ASSERT_NE(redis_server, nullptr);
  auto kv = RawConnection::Connect(kv_server->port());
  auto redis = RawConnection::Connect(redis_server->port());
  WaitLoaded(*redis);
  EXPECT_EQ(kv->Call({"dbsize"}), ":1\r\n");
  EXPECT_EQ(redis->Call({"dbsize"}), ":1\r\n");
  EXPECT_TRUE(fs::exists(dir + "/appendonly.aof"));
  EXPECT_TRUE(fs::exists(redis_dir + "/appendonly.aof"));
}

// The incremental file after `commands` on a fresh server, with the times that differ between
// two runs (absolute deadlines and stream ids made from the clock) replaced by "<ms>".
std::string IncrFileAfter(bool redis, const std::vector<Args>& commands) {
  const std::string dir = MakeTempDir();
  auto server =
      redis ? ServerProcess::StartRedis(WithDir(dir)) : ServerProcess::StartKvserver(WithDir(dir));
  if (!server) return "did not start";
  {
    auto c = RawConnection::Connect(server->port());
    for (const Args& cmd : commands) c->Call(cmd);
    // A client blocked on a key, served by a later push.
    auto blocked = RawConnection::Connect(server->port());
    blocked->Send(EncodeCommand({"blmove", "src", "dst", "RIGHT", "left", "0"}));
    c->Call({"ping"});
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    c->Call({"rpush", "src", "x"});
    blocked->ReadReply();
    auto blocked2 = RawConnection::Connect(server->port());
    blocked2->Send(EncodeCommand({"bzmpop", "0", "1", "zsrc", "max", "count", "5"}));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    c->Call({"zadd", "zsrc", "1", "a", "2", "b"});
    blocked2->ReadReply();
    // Clients blocked in XREADGROUP (one with NOACK), served by a later XADD.
    c->Call({"xgroup", "create", "bs", "bg", "$", "mkstream"});
    auto blocked3 = RawConnection::Connect(server->port());
    blocked3->Send(
        EncodeCommand({"xreadgroup", "group", "bg", "c1", "block", "0", "streams", "bs", ">"}));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    auto blocked4 = RawConnection::Connect(server->port());
    blocked4->Send(EncodeCommand(
        {"xreadgroup", "group", "bg", "c2", "noack", "block", "0", "streams", "bs", ">"}));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    c->Call({"xadd", "bs", "1-1", "f", "v"});
    blocked3->ReadReply();
    c->Call({"xadd", "bs", "2-1", "f", "v"});
    blocked4->ReadReply();
    c->Call({"ping"});
  }
  server->Stop();
  const std::string text = ReadFile(dir + "/appendonlydir/appendonly.aof.1.incr.aof");
  static const std::regex kTime(
      "\\$1[3-4]\\r\\n1[0-9]{12}\\r\\n|\\$1[5-9]\\r\\n1[0-9]{12}-[0-9]+\\r\\n");
  return std::regex_replace(text, kTime, "<ms>\r\n");
}

TEST(AofFilesTest, PropagatedCommandsMatchRedis) {
  const std::vector<Args> commands = {
      {"set", "a", "1"},
      {"set", "b", "2", "ex", "100"},
      {"set", "c", "3", "px", "100000", "get"},
      {"set", "d", "4", "get", "GET"},
      {"set", "e", "5", "keepttl"},
      {"setex", "f", "100", "v"},
      {"psetex", "g", "100000", "v"},
      {"getset", "a", "5"},
      {"getex", "a", "ex", "100"},
      {"getex", "a", "persist"},
      {"getex", "b", "pxat", "1"},
      {"getdel", "c"},
      {"getdel", "missing"},
      {"incrbyfloat", "fl", "1.5"},
      {"incrbyfloat", "fl", "0.25"},
      {"hset", "h", "f", "1"},
      {"hincrbyfloat", "h", "f", "2.5"},
      {"expire", "d", "100"},
      {"pexpire", "d", "100000", "xx"},
      {"expireat", "d", "4102444800"},
      {"pexpireat", "d", "4102444800000", "gt"},
      {"expire", "d", "100", "nx"},
      {"expire", "missing", "100"},
      {"expire", "f", "-1"},
      {"persist", "g"},
      {"sadd", "s", "only"},
      {"spop", "s"},
      {"sadd", "s2", "a", "b", "c"},
      {"spop", "s2", "10"},
      {"rpush", "l", "1", "2", "3", "4", "5"},
      {"blpop", "l", "0"},
      {"brpop", "nothing", "l", "0"},
      {"lmpop", "1", "l", "left", "count", "10"},
      {"rpush", "l2", "1", "2", "3"},
      {"blmpop", "0", "1", "l2", "right", "count", "2"},
      {"blmove", "l2", "l3", "left", "RIGHT", "0"},
      {"rpush", "l4", "a", "b"},
      {"brpoplpush", "l4", "l5", "0"},
      {"zadd", "z", "1", "a", "2", "b", "3", "c", "4", "d"},
      {"bzpopmin", "z", "0"},
      {"bzpopmax", "z", "0"},
      {"zmpop", "1", "z", "min", "count", "5"},
      {"geoadd", "geo", "13.361389", "38.115556", "Palermo"},
      {"xadd", "st", "*", "f", "v"},
      {"xadd", "st", "maxlen", "~", "1", "*", "f", "v"},
      {"xtrim", "st", "maxlen", "0"},
      // Consumer groups: XREADGROUP and the claims go as XCLAIM ... FORCE JUSTID LASTID, NOACK
      // reads as XGROUP CREATECONSUMER and XGROUP SETID, the rest as sent.
      {"xadd", "gs", "1-1", "a", "1"},
      {"xadd", "gs", "2-1", "a", "2"},
      {"xadd", "gs", "3-1", "a", "3"},
      {"xadd", "gs", "4-1", "a", "4"},
      {"xadd", "gs", "5-1", "a", "5"},
      {"xadd", "gs", "6-0", "a", "6"},
      {"xgroup", "create", "gs", "g", "0"},
      {"xgroup", "create", "gs", "g", "0"},
      {"xgroup", "create", "gs", "g2", "$"},
      {"xgroup", "create", "gs", "g3", "0", "entriesread", "0"},
      {"xgroup", "create", "gs", "g4", "0", "mkstream"},
      {"xgroup", "create", "gs2", "g", "$", "mkstream"},
      {"xreadgroup", "group", "g", "alice", "count", "2", "streams", "gs", ">"},
      {"xreadgroup", "group", "g", "bob", "count", "3", "streams", "gs", ">"},
      {"xreadgroup", "group", "g", "bob", "streams", "gs", ">"},
      {"xreadgroup", "group", "g", "bob", "streams", "gs", ">"},
      {"xreadgroup", "group", "g", "alice", "streams", "gs", "0"},
      {"xreadgroup", "group", "g", "newbie", "streams", "gs", "0"},
      {"xreadgroup", "group", "g3", "carol", "noack", "count", "2", "streams", "gs", ">"},
      {"xreadgroup", "group", "g3", "carol", "noack", "streams", "gs", ">"},
      {"xreadgroup", "group", "g2", "dan", "streams", "gs", ">", "gs2", ">"},
      {"xreadgroup", "group", "g", "nobody", "streams", "missing", ">"},
      {"xclaim", "gs", "g", "dave", "0", "1-1", "2-1"},
      {"xclaim", "gs", "g", "dave", "0", "1-1", "justid", "lastid", "9-9"},
      {"xclaim", "gs", "g", "dave", "0", "99-1", "lastid", "10-0"},
      {"xclaim", "gs", "g", "dave", "0", "99-1", "lastid", "10-0"},
      {"xclaim", "gs", "g", "erin", "3600000", "3-1"},
      {"xclaim", "gs", "g", "dave", "0", "6", "force", "retrycount", "4", "time", "12345"},
      {"xclaim", "gs", "g", "dave", "0", "1-1", "idle", "1000000000000000"},
      {"xdel", "gs", "4-1"},
      {"xclaim", "gs", "g", "erin", "0", "4-1", "3-1"},
      {"xautoclaim", "gs", "g", "frank", "0", "0", "count", "2"},
      {"xdel", "gs", "5-1"},
      {"xautoclaim", "gs", "g", "frank", "0", "0", "justid"},
      {"xautoclaim", "gs", "g", "frank", "3600000", "0"},
      {"multi"},
      {"xreadgroup", "group", "g4", "gina", "count", "1", "streams", "gs", ">"},
      {"xclaim", "gs", "g4", "hank", "0", "1-1"},
      {"exec"},
      {"xgroup", "setid", "gs", "g", "0", "entriesread", "0"},
      {"xgroup", "setid", "gs", "g", "$"},
      {"xgroup", "createconsumer", "gs", "g", "zed"},
      {"xgroup", "createconsumer", "gs", "g", "zed"},
      {"xgroup", "delconsumer", "gs", "g", "zed"},
      {"xgroup", "delconsumer", "gs", "g", "zed"},
      {"xgroup", "destroy", "gs", "g4"},
      {"xgroup", "destroy", "gs", "g4"},
      {"xack", "gs", "g", "1-1", "2-1"},
      {"xack", "gs", "g", "1-1"},
      {"xsetid", "gs", "100-0"},
      {"select", "2"},
      {"set", "x", "1"},
      {"multi"},
      {"incr", "x"},
      {"incr", "x"},
      {"exec"},
      {"multi"},
      {"incr", "x"},
      {"exec"},
      {"multi"},
      {"get", "x"},
      {"exec"},
      {"eval", "redis.call('set', 'y', '1') redis.call('incr', 'y')", "0"},
      {"eval", "return redis.call('get', 'y')", "0"},
      {"set", "short", "v", "px", "1"},
      {"debug", "sleep", "0.01"},
      {"set", "short", "again"},
      {"del", "nothing"},
      {"flushdb"},
      {"select", "0"},
      {"restore", "r", "100000", ReadFile("/dev/null")},  // a bad payload: not propagated
      {"rename", "a", "a2"},
      {"flushall"},
      {"flushall"},
  };
  const std::string kv = IncrFileAfter(false, commands);
  const std::string redis = IncrFileAfter(true, commands);
  EXPECT_GT(redis.size(), 1000u);
  EXPECT_EQ(kv, redis);
}

}  // namespace
}  // namespace kv::test
