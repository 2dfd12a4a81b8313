// FUNCTION DUMP and FUNCTION RESTORE against the real redis-server 7.0.15: a payload dumped by
// either server restores into the other (the same libraries, callable), one library dumps to the
// same bytes, the FLUSH, APPEND and REPLACE policies and every error (bad policy, bad footer, an
// entry that is not a function, a truncated entry, bad code, collisions) reply the same, and the
// old pre-release entry (RDB_OPCODE_FUNCTION) restores as in Redis.

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "server/persistence/crc64.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/function_list.h"
#include "tests/support/resp_reply.h"

namespace kv::test {
namespace {

constexpr char kLibA[] =
    "#!lua name=liba\n"
    "redis.register_function('a_get', function(keys) return redis.call('get', keys[1]) end)\n"
    "redis.register_function{function_name='a_ro', callback=function() return 'ro' end, "
    "flags={'no-writes'}, description='read only'}\n";
constexpr char kLibB[] =
    "#!lua name=libb\n"
    "redis.register_function('b_echo', function(keys, args) return args[1] end)\n";
// Another library with a function called as liba's.
constexpr char kClash[] =
    "#!lua name=clash\nredis.register_function('a_get', function() return 'clash' end)\n";
// liba again, with other functions.
constexpr char kLibA2[] =
    "#!lua name=liba\nredis.register_function('a_new', function() return 'new' end)\n";

// An RDB string of up to 16383 bytes, stored plainly (rdbSaveLen's 6- and 14-bit forms).
std::string RdbString(const std::string& s) {
  std::string out;
  if (s.size() < 64) {
    out.push_back(static_cast<char>(s.size()));
  } else {
    out.push_back(static_cast<char>(0x40 | (s.size() >> 8)));
    out.push_back(static_cast<char>(s.size() & 0xff));
  }
  return out + s;
}

// `body` with the 2-byte RDB version and the CRC64 after it, as a DUMP payload ends.
std::string WithFooter(std::string body, int version = 10) {
  body.push_back(static_cast<char>(version & 0xff));
  body.push_back(static_cast<char>(version >> 8));
  const uint64_t crc = Crc64(0, body);
  for (int i = 0; i < 8; ++i) body.push_back(static_cast<char>((crc >> (8 * i)) & 0xff));
  return body;
}

// A FUNCTION2 entry (opcode 245) for `code`.
std::string Function2(const std::string& code) { return "\xf5" + RdbString(code); }

// The bulk string of a reply, or "" (with a failure) when it is not one.
std::string BulkOf(const std::string& reply) {
  const std::optional<RespReply> r = ParseReply(reply);
  EXPECT_TRUE(r && r->type == RespReply::Type::kBulkString) << reply;
  return r ? r->str : std::string();
}

// Byte equality, FUNCTION LIST compared without order.
bool SameAsRedis(const Args& command, const std::string& kv, const std::string& redis) {
  if (kv == redis) return true;
  if (command.size() < 2 || command[0] != "FUNCTION" || command[1] != "LIST") return false;
  return CanonicalFunctionList(kv) == CanonicalFunctionList(redis);
}

class FunctionDumpDiffTest : public ConnectedBothServersTest<FunctionDumpDiffTest> {
 protected:
  void SetUp() override {
    ConnectedBothServersTest::SetUp();
    if (HasFatalFailure()) return;
    Both({"FUNCTION", "FLUSH"});
    Both({"CONFIG", "SET", "rdbcompression", "yes"});
  }
  void TearDown() override { Both({"FUNCTION", "FLUSH"}); }

  // Loads `codes` into `c` after flushing its libraries; returns its FUNCTION DUMP.
  static std::string DumpOf(RawConnection& c, const std::vector<std::string>& codes) {
    c.Call({"FUNCTION", "FLUSH"});
    for (const std::string& code : codes) {
      EXPECT_EQ(c.Call({"FUNCTION", "LOAD", code}).substr(0, 1), "$") << code;
    }
    return BulkOf(c.Call({"FUNCTION", "DUMP"}));
  }
};

TEST_F(FunctionDumpDiffTest, OneLibraryDumpsToRedisBytes) {
  ExpectSameReplies({Args{"FUNCTION", "DUMP"}});
  // Compressed (liba's code is long enough for LZF) and plain, and a code too short to compress.
  EXPECT_EQ(DumpOf(*kv_, {kLibA}), DumpOf(*redis_conn_, {kLibA}));
  EXPECT_EQ(DumpOf(*kv_, {kLibB}), DumpOf(*redis_conn_, {kLibB}));
  Both({"CONFIG", "SET", "rdbcompression", "no"});
  EXPECT_EQ(DumpOf(*kv_, {kLibA}), DumpOf(*redis_conn_, {kLibA}));
  const std::string tiny = "#!lua name=t\nredis.register_function('t',function() end)";
  EXPECT_EQ(DumpOf(*kv_, {tiny}), DumpOf(*redis_conn_, {tiny}));
}

TEST_F(FunctionDumpDiffTest, RedisPayloadRestoresIntoKvserver) {
  for (const char* compression : {"yes", "no"}) {
    SCOPED_TRACE(std::string("rdbcompression ") + compression);
    redis_conn_->Call({"CONFIG", "SET", "rdbcompression", compression});
    const std::string payload = DumpOf(*redis_conn_, {kLibA, kLibB});
    kv_->Call({"FUNCTION", "FLUSH"});
    ASSERT_EQ(kv_->Call({"FUNCTION", "RESTORE", payload}), "+OK\r\n");
    EXPECT_EQ(CanonicalFunctionList(kv_->Call({"FUNCTION", "LIST", "WITHCODE"})),
              CanonicalFunctionList(redis_conn_->Call({"FUNCTION", "LIST", "WITHCODE"})));
    ExpectSameReplies({Args{"SET", "k", "v"}, Args{"FCALL", "a_get", "1", "k"},
                       Args{"FCALL_RO", "a_ro", "0"}, Args{"FCALL", "b_echo", "0", "hello"},
                       Args{"FUNCTION", "STATS"}});
  }
}

TEST_F(FunctionDumpDiffTest, KvserverPayloadRestoresIntoRedis) {
  for (const char* compression : {"yes", "no"}) {
    SCOPED_TRACE(std::string("rdbcompression ") + compression);
    kv_->Call({"CONFIG", "SET", "rdbcompression", compression});
    const std::string payload = DumpOf(*kv_, {kLibA, kLibB});
    redis_conn_->Call({"FUNCTION", "FLUSH"});
    ASSERT_EQ(redis_conn_->Call({"FUNCTION", "RESTORE", payload}), "+OK\r\n");
    EXPECT_EQ(CanonicalFunctionList(kv_->Call({"FUNCTION", "LIST", "WITHCODE"})),
              CanonicalFunctionList(redis_conn_->Call({"FUNCTION", "LIST", "WITHCODE"})));
    ExpectSameReplies({Args{"SET", "k", "v"}, Args{"FCALL", "a_get", "1", "k"},
                       Args{"FCALL", "b_echo", "0", "hello"}});
  }
  // The empty dump restores anywhere, changing nothing.
  const std::string empty = DumpOf(*kv_, {});
  Both({"FUNCTION", "FLUSH"});
  ExpectSameReplies({Args{"FUNCTION", "RESTORE", empty}, Args{"FUNCTION", "LIST"}});
}

TEST_F(FunctionDumpDiffTest, Policies) {
  // Payloads made by Redis, restored into both servers in the same states.
  const std::string both_libs = DumpOf(*redis_conn_, {kLibA, kLibB});
  const std::string lib_a2 = DumpOf(*redis_conn_, {kLibA2});
  const std::string clash = DumpOf(*redis_conn_, {kClash});
  const std::string lib_b = DumpOf(*redis_conn_, {kLibB});
  Both({"FUNCTION", "FLUSH"});
  ExpectSameReplies(
      {
          Args{"FUNCTION", "LOAD", kLibA},
          // APPEND (the default) refuses a library already loaded and changes nothing.
          Args{"FUNCTION", "RESTORE", both_libs},
          Args{"FUNCTION", "RESTORE", both_libs, "APPEND"},
          Args{"FUNCTION", "LIST", "WITHCODE"},
          Args{"FCALL", "b_echo", "0", "x"},
          // A function of another library collides under every policy but FLUSH.
          Args{"FUNCTION", "RESTORE", clash},
          Args{"FUNCTION", "RESTORE", clash, "replace"},
          // REPLACE swaps liba for its other version: a_get goes, a_new comes.
          Args{"FUNCTION", "RESTORE", lib_a2, "REPLACE"},
          Args{"FUNCTION", "LIST", "WITHCODE"},
          Args{"FCALL", "a_get", "1", "k"},
          Args{"FCALL", "a_new", "0"},
          // Now clash's a_get no longer collides.
          Args{"FUNCTION", "RESTORE", clash},
          Args{"FUNCTION", "RESTORE", lib_b, "append"},
          Args{"FUNCTION", "LIST", "WITHCODE"},
          // FLUSH leaves only the payload's libraries.
          Args{"FUNCTION", "RESTORE", lib_a2, "FLUSH"},
          Args{"FUNCTION", "LIST", "WITHCODE"},
          Args{"FCALL", "b_echo", "0", "x"},
          Args{"FUNCTION", "STATS"},
          // Policy and arity errors.
          Args{"FUNCTION", "RESTORE", lib_b, "BOGUS"},
          Args{"FUNCTION", "RESTORE", lib_b, "FLUSH", "extra"},
          Args{"FUNCTION", "RESTORE"},
          Args{"FUNCTION", "DUMP", "extra"},
          Args{"FUNCTION", "LIST"},
      },
      SameAsRedis);
}

TEST_F(FunctionDumpDiffTest, BadPayloadsAreRefused) {
  const std::string good = DumpOf(*redis_conn_, {kLibB});
  std::string bad_crc = good;
  bad_crc.back() ^= 1;
  const std::string body = good.substr(0, good.size() - 10);
  const std::string code = kLibB;
  Both({"FUNCTION", "FLUSH"});
  ExpectSameReplies(
      {
          Args{"FUNCTION", "RESTORE", ""},
          Args{"FUNCTION", "RESTORE", "short"},
          Args{"FUNCTION", "RESTORE", bad_crc},
          // A version above 10, and an older one (accepted).
          Args{"FUNCTION", "RESTORE", WithFooter(body, 11)},
          Args{"FUNCTION", "RESTORE", WithFooter(body, 9)},
          Args{"FUNCTION", "FLUSH"},
          // Entries that are not functions: a string value (a key's DUMP) and SELECTDB.
          Args{"FUNCTION", "RESTORE",
               WithFooter(std::string("\x00\x03"
                                      "abc",
                                      5))},
          Args{"FUNCTION", "RESTORE", WithFooter(std::string("\xfe\x00", 2))},
          // An entry whose length runs past the payload's end, and one cut in its middle.
          Args{"FUNCTION", "RESTORE", WithFooter("\xf5\x7f\xff" + code)},
          Args{"FUNCTION", "RESTORE", WithFooter("\xf5\xc3\x10")},
          Args{"FUNCTION", "RESTORE", WithFooter("\xf5\xc3\x10\x40\x00\x01\x02\x03\x04")},
          // Entries whose code FUNCTION LOAD would refuse.
          Args{"FUNCTION", "RESTORE", WithFooter(Function2("return 1"))},
          Args{"FUNCTION", "RESTORE", WithFooter(Function2("#!lua name=x\nreturn 1 +"))},
          Args{"FUNCTION", "RESTORE", WithFooter(Function2("#!lua name=x\nreturn 1"))},
          Args{"FUNCTION", "RESTORE", WithFooter(Function2("#!js name=x\nreturn 1"))},
          Args{"FUNCTION", "RESTORE", WithFooter(Function2("#!lua name=bad-name\nreturn 1"))},
          // The same library twice, two libraries with one function: nothing is restored.
          Args{"FUNCTION", "RESTORE", WithFooter(Function2(code) + Function2(code))},
          Args{"FUNCTION", "RESTORE",
               WithFooter(Function2(code) +
                          Function2("#!lua name=other\nredis.register_function('b_echo', "
                                    "function() end)"))},
          // A good entry then garbage: all or nothing.
          Args{"FUNCTION", "RESTORE", WithFooter(Function2(code) + "\x01\x02")},
          Args{"FUNCTION", "RESTORE", WithFooter(Function2(code) + "\xf5")},
          Args{"FUNCTION", "LIST"},
          // Then the good payload still restores.
          Args{"FUNCTION", "RESTORE", good},
          Args{"FUNCTION", "LIST"},
      },
      SameAsRedis);
}

TEST_F(FunctionDumpDiffTest, PreReleaseEntriesRestore) {
  // RDB_OPCODE_FUNCTION (7.0-rc1/rc2): name, engine, a description flag (and description), then
  // the code without its shebang.
  const std::string body = "redis.register_function('old_fn', function() return 'old' end)";
  const std::string with_desc = "\xf6" + RdbString("oldlib") + RdbString("LUA") + "\x01" +
                                RdbString("a description") + RdbString(body);
  const std::string without_desc =
      "\xf6" + RdbString("oldlib2") + RdbString("LUA") + std::string(1, '\0') +
      RdbString("redis.register_function('old_fn2', function() return 'old2' end)");
  ExpectSameReplies(
      {
          Args{"FUNCTION", "RESTORE", WithFooter(with_desc)},
          Args{"FUNCTION", "RESTORE", WithFooter(without_desc)},
          Args{"FUNCTION", "LIST", "WITHCODE"},
          Args{"FCALL", "old_fn", "0"},
          Args{"FCALL", "old_fn2", "0"},
          // Cut short at each field.
          Args{"FUNCTION", "RESTORE", WithFooter("\xf6")},
          Args{"FUNCTION", "RESTORE", WithFooter("\xf6" + RdbString("n"))},
          Args{"FUNCTION", "RESTORE", WithFooter("\xf6" + RdbString("n") + RdbString("LUA"))},
          Args{"FUNCTION", "RESTORE",
               WithFooter("\xf6" + RdbString("n") + RdbString("LUA") + "\x01")},
          Args{"FUNCTION", "RESTORE",
               WithFooter("\xf6" + RdbString("n") + RdbString("LUA") + std::string(1, '\0'))},
          Args{"FUNCTION", "RESTORE",
               WithFooter("\xf6" + RdbString("n") + RdbString("js") + std::string(1, '\0') +
                          RdbString("return 1"))},
      },
      SameAsRedis);
}

}  // namespace
}  // namespace kv::test
