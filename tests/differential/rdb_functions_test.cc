// Function libraries in whole RDB files between kvserver and a real redis-server 7.0.15: a file
// with libraries written by either server (SAVE, BGSAVE, SHUTDOWN SAVE) loads into the other with
// the same FUNCTION LIST, kvserver's passes redis-check-rdb, DEBUG RELOAD keeps them (and MERGE
// replaces them) as in Redis, a file of 7.0's release candidates (RDB_OPCODE_FUNCTION) loads into
// both, and a file whose library does not compile stops kvserver's start.

#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "server/persistence/crc64.h"
#include "tests/support/function_list.h"
#include "tests/support/persistence_files.h"
#include "tests/support/resp_client.h"
#include "tests/support/resp_reply.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

constexpr char kLibA[] =
    "#!lua name=liba\n"
    "redis.register_function('a_get', function(keys) return redis.call('get', keys[1]) end)\n"
    "redis.register_function{function_name='a_ro', callback=function() return 'ro' end, "
    "flags={'no-writes', 'allow-stale'}, description='read only'}\n";
constexpr char kLibB[] =
    "#!lua name=libb\nredis.register_function('b_echo', function(keys, args) return args[1] "
    "end)\n";
constexpr char kLibC[] =
    "#!lua name=libc\nredis.register_function('c_one', function() return 1 end)\n";

// A library short enough for a 6-bit length.
constexpr char kShortLib[] = "#!lua name=short\nredis.register_function('s', function() end)";

std::string Libraries(RawConnection& c) {
  return CanonicalFunctionList(c.Call({"function", "list", "withcode"}));
}

// An RDB string of up to 63 bytes, stored plainly.
std::string ShortString(const std::string& s) { return std::string(1, char(s.size())) + s; }

// A version-10 RDB file holding `body` (entries after the header), with EOF and the checksum.
void WriteRdb(const std::string& path, const std::string& body) {
  std::string data = "REDIS0010" + body + "\xff";
  const uint64_t crc = Crc64(0, data);
  for (int i = 0; i < 8; ++i) data.push_back(static_cast<char>((crc >> (8 * i)) & 0xff));
  std::ofstream(path, std::ios::binary) << data;
}

// Waits until `c`'s BGSAVE is done.
void WaitForBgsave(RawConnection& c) {
  for (int i = 0; i < 500; ++i) {
    if (c.Call({"info", "persistence"}).find("rdb_bgsave_in_progress:0") != std::string::npos) {
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ADD_FAILURE() << "BGSAVE did not end";
}

TEST(RdbFileFunctionsTest, RedisFileLoadsIntoKvserver) {
  auto redis_server = ServerProcess::StartRedis({"--enable-debug-command", "yes"});
  ASSERT_NE(redis_server, nullptr);
  auto redis = RawConnection::Connect(redis_server->port());
  ASSERT_EQ(redis->Call({"function", "load", kLibA}), "$4\r\nliba\r\n");
  ASSERT_EQ(redis->Call({"function", "load", kLibB}), "$4\r\nlibb\r\n");
  redis->Call({"set", "k", "v"});
  ASSERT_EQ(redis->Call({"save"}), "+OK\r\n");
  auto kv_server =
      ServerProcess::StartKvserver({"--dir", redis_server->dir(), "--enable-debug-command", "yes"});
  ASSERT_NE(kv_server, nullptr);
  auto kv = RawConnection::Connect(kv_server->port());
  EXPECT_EQ(Libraries(*kv), Libraries(*redis));
  EXPECT_EQ(kv->Call({"fcall", "a_get", "1", "k"}), "$1\r\nv\r\n");
  EXPECT_EQ(kv->Call({"fcall", "b_echo", "0", "hi"}), "$2\r\nhi\r\n");
  // DEBUG RELOAD saves and loads them back (the functions flushed in between, as emptyData).
  ASSERT_EQ(kv->Call({"debug", "reload"}), "+OK\r\n");
  ASSERT_EQ(redis->Call({"debug", "reload"}), "+OK\r\n");
  EXPECT_EQ(Libraries(*kv), Libraries(*redis));
  // MERGE over what is loaded: each library in the file replaces its namesake.
  kv->Call({"function", "load", kLibC});
  redis->Call({"function", "load", kLibC});
  ASSERT_EQ(kv->Call({"function", "delete", "libb"}), "+OK\r\n");
  ASSERT_EQ(redis->Call({"function", "delete", "libb"}), "+OK\r\n");
  EXPECT_EQ(kv->Call({"debug", "reload", "noflush", "merge", "nosave"}),
            redis->Call({"debug", "reload", "noflush", "merge", "nosave"}));
  EXPECT_EQ(Libraries(*kv), Libraries(*redis));
  EXPECT_NE(Libraries(*kv).find("libb"), std::string::npos);
  EXPECT_NE(Libraries(*kv).find("libc"), std::string::npos);
  EXPECT_EQ(kv->Call({"get", "k"}), "$1\r\nv\r\n");
}

TEST(RdbFileFunctionsTest, KvserverFileLoadsIntoRedis) {
  const std::string dir = MakeTempDir();
  auto kv_server = ServerProcess::StartKvserver(
      {"--dir", dir, "--enable-debug-command", "yes", "--enable-protected-configs", "yes"});
  ASSERT_NE(kv_server, nullptr);
  auto kv = RawConnection::Connect(kv_server->port());
  ASSERT_EQ(kv->Call({"function", "load", kLibA}), "$4\r\nliba\r\n");
  ASSERT_EQ(kv->Call({"function", "load", kLibB}), "$4\r\nlibb\r\n");
  kv->Call({"set", "k", "v"});
  // Compressed and not, with the checksum and without, by SAVE and BGSAVE.
  struct Case {
    const char* file;
    const char* compression;
    const char* checksum;
    bool background;
  };
  for (const Case& c : {Case{"a.rdb", "yes", "yes", false}, Case{"b.rdb", "no", "no", false},
                        Case{"c.rdb", "yes", "yes", true}}) {
    SCOPED_TRACE(c.file);
    ASSERT_EQ(kv->Call({"config", "set", "dbfilename", c.file}), "+OK\r\n");
    kv->Call({"config", "set", "rdbcompression", c.compression});
    kv->Call({"config", "set", "rdbchecksum", c.checksum});
    if (c.background) {
      ASSERT_EQ(kv->Call({"bgsave"}), "+Background saving started\r\n");
      WaitForBgsave(*kv);
    } else {
      ASSERT_EQ(kv->Call({"save"}), "+OK\r\n");
    }
    const std::string verdict = CheckRdb(dir + "/" + c.file);
    EXPECT_NE(verdict.find("exit 0"), std::string::npos) << verdict;
    EXPECT_NE(verdict.find("RDB looks OK"), std::string::npos) << verdict;
    auto redis_server = ServerProcess::StartRedis({"--dir", dir, "--dbfilename", c.file});
    ASSERT_NE(redis_server, nullptr);
    auto redis = RawConnection::Connect(redis_server->port());
    EXPECT_EQ(Libraries(*redis), Libraries(*kv));
    EXPECT_EQ(redis->Call({"fcall", "a_get", "1", "k"}), "$1\r\nv\r\n");
  }
  // The libraries come before the keys, one FUNCTION2 (245) entry each, right after the aux
  // fields: the byte before liba's code is the opcode's string length.
  std::ifstream in(dir + "/b.rdb", std::ios::binary);
  const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t code = file.find("#!lua name=liba");
  ASSERT_NE(code, std::string::npos);
  EXPECT_LT(code, file.find("\x00\x01k\x01v", 0, 5));
  // A FUNCTION2 opcode then the 14-bit length of liba's code.
  ASSERT_GE(code, 3u);
  EXPECT_EQ(static_cast<unsigned char>(file[code - 3]), 0xf5);

  // SHUTDOWN SAVE writes them too, and kvserver reads its own file back at start-up.
  ASSERT_EQ(kv->Call({"config", "set", "dbfilename", "final.rdb"}), "+OK\r\n");
  kv->Call({"shutdown", "save"});
  EXPECT_EQ(kv_server->WaitExit(10000), 0);
  auto restarted = ServerProcess::StartKvserver({"--dir", dir, "--dbfilename", "final.rdb"});
  ASSERT_NE(restarted, nullptr);
  auto kv2 = RawConnection::Connect(restarted->port());
  auto redis_server = ServerProcess::StartRedis({"--dir", dir, "--dbfilename", "final.rdb"});
  ASSERT_NE(redis_server, nullptr);
  auto redis = RawConnection::Connect(redis_server->port());
  EXPECT_EQ(Libraries(*kv2), Libraries(*redis));
  EXPECT_NE(Libraries(*kv2).find("libb"), std::string::npos);
}

TEST(RdbFileFunctionsTest, PreReleaseFunctionEntriesLoad) {
  // RDB_OPCODE_FUNCTION (246): name, engine, a description flag and description, the code.
  const std::string dir = MakeTempDir();
  WriteRdb(dir + "/old.rdb",
           "\xf6" + ShortString("oldlib") + ShortString("LUA") + "\x01" + ShortString("desc") +
               ShortString("redis.register_function('old_fn', function() return 7 end)"));
  auto redis_server = ServerProcess::StartRedis({"--dir", dir, "--dbfilename", "old.rdb"});
  auto kv_server = ServerProcess::StartKvserver({"--dir", dir, "--dbfilename", "old.rdb"});
  ASSERT_NE(redis_server, nullptr);
  ASSERT_NE(kv_server, nullptr);
  auto redis = RawConnection::Connect(redis_server->port());
  auto kv = RawConnection::Connect(kv_server->port());
  EXPECT_EQ(Libraries(*kv), Libraries(*redis));
  EXPECT_NE(Libraries(*kv).find("#!LUA name=oldlib"), std::string::npos) << Libraries(*kv);
  EXPECT_EQ(kv->Call({"fcall", "old_fn", "0"}), ":7\r\n");
}

TEST(RdbFileFunctionsTest, BadLibraryStopsTheStart) {
  const std::string dir = MakeTempDir();
  for (const auto& [body, why] : std::vector<std::pair<std::string, std::string>>{
           {"\xf5" + ShortString("#!lua name=x\nreturn 1 +"), "Error compiling function"},
           {"\xf5" + ShortString(kShortLib) + "\xf5" + ShortString(kShortLib),
            "Library 'short' already exists"},
           {"\xf5\x3f", "Failed loading library payload"}}) {
    SCOPED_TRACE(why);
    WriteRdb(dir + "/dump.rdb", body);
    const std::string cmd =
        std::string(KVSERVER_BINARY) + " --port 0 --bind 127.0.0.1 --dir '" + dir + "' 2>&1";
    FILE* p = ::popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string out;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    const int status = ::pclose(p);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << out;
    EXPECT_NE(out.find("Failed loading library, " + why), std::string::npos) << out;
    EXPECT_EQ(out.find("Ready to accept connections"), std::string::npos) << out;
  }
}

}  // namespace
}  // namespace kv::test
