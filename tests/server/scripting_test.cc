// Scripting through the real dispatcher: what the differential test cannot see from outside
// (atomicity against blocked clients, MONITOR's order, the statistics, maxmemory inside a
// script, the caller's database) and the building blocks (SHA1, the shebang parser). Expected
// replies are Redis 7.0.15's for the same commands (checked with redis-cli against
// redis-server 7.0.15).

#include <string>

#include "gtest/gtest.h"
#include "server/scripting/lua_vm.h"
#include "server/sha1.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

// A script's name in the cache: the SHA-1 of its body in hex.
std::string ScriptName(std::string_view body) {
  char out[40];
  Sha1Hex(body, out);
  return std::string(out, 40);
}

TEST(ShebangTest, Flags) {
  uint32_t flags = 0;
  size_t len = 0;
  std::string err;
  ASSERT_TRUE(ParseScriptShebang("return 1", &flags, &len, &err));
  EXPECT_EQ(flags, kScriptEvalCompat);
  EXPECT_EQ(len, 0u);
  ASSERT_TRUE(ParseScriptShebang("#!lua flags=no-writes,allow-oom\nreturn 1", &flags, &len, &err));
  EXPECT_EQ(flags, kScriptNoWrites | kScriptAllowOom);
  EXPECT_EQ(len, 31u);
  ASSERT_TRUE(ParseScriptShebang("#!lua\nreturn 1", &flags, &len, &err));
  EXPECT_EQ(flags, 0u);
  EXPECT_FALSE(ParseScriptShebang("#!lua", &flags, &len, &err));
  EXPECT_EQ(err, "Invalid script shebang");
  EXPECT_FALSE(ParseScriptShebang("#!lua flags=No-Writes\n", &flags, &len, &err));
  EXPECT_EQ(err, "Unexpected flag in script shebang: No-Writes");
  EXPECT_FALSE(ParseScriptShebang("#!lua other=1\n", &flags, &len, &err));
  EXPECT_EQ(err, "Unknown lua shebang option: other=1");
  EXPECT_FALSE(ParseScriptShebang("#!perl\n", &flags, &len, &err));
  EXPECT_EQ(err, "Unexpected engine in script shebang: #!perl");
  EXPECT_EQ(ScriptFlagByName("No-Writes", true), kScriptNoWrites);
  EXPECT_EQ(ScriptFlagByName("No-Writes", false), 0u);
}

class ScriptingTest : public ::testing::Test {
 protected:
  CommandHarness h;
};

TEST_F(ScriptingTest, EvalAndEvalsha) {
  EXPECT_EQ(h.Run({"EVAL", "return redis.call('set', KEYS[1], ARGV[1])", "1", "k", "v"}), kOk);
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("v"));
  const std::string sha = ScriptName("return redis.call('get', KEYS[1])");
  EXPECT_EQ(h.Run({"EVALSHA", sha, "1", "k"}),
            "-NOSCRIPT No matching script. Please use EVAL.\r\n");
  EXPECT_EQ(h.Run({"SCRIPT", "LOAD", "return redis.call('get', KEYS[1])"}), Bulk(sha));
  EXPECT_EQ(h.Run({"EVALSHA", sha, "1", "k"}), Bulk("v"));
  EXPECT_EQ(h.Run({"SCRIPT", "EXISTS", sha, "x"}), "*2\r\n:1\r\n:0\r\n");
  EXPECT_EQ(h.Run({"SCRIPT", "FLUSH"}), kOk);
  EXPECT_EQ(h.Run({"SCRIPT", "EXISTS", sha}), "*1\r\n:0\r\n");
  EXPECT_EQ(h.Run({"SCRIPT", "KILL"}), "-NOTBUSY No scripts in execution right now.\r\n");
  EXPECT_EQ(h.Run({"FUNCTION", "KILL"}), "-NOTBUSY No scripts in execution right now.\r\n");
}

TEST_F(ScriptingTest, ErrorsNameTheScriptAndLine) {
  const std::string script = "local x = 1\nreturn redis.call('nosuch')";
  EXPECT_EQ(h.Run({"EVAL", script, "0"}), "-ERR Unknown Redis command called from script script: " +
                                              ScriptName(script) + ", on @user_script:2.\r\n");
  EXPECT_EQ(h.Run({"EVAL", "a = 1", "0"}),
            "-ERR user_script:1: Attempt to modify a readonly table script: " +
                ScriptName("a = 1") + ", on @user_script:1.\r\n");
  EXPECT_EQ(h.Run({"EVAL", "return a", "0"}),
            "-ERR user_script:1: Script attempted to access nonexistent global variable 'a' "
            "script: " +
                ScriptName("return a") + ", on @user_script:1.\r\n");
  EXPECT_EQ(h.Run({"EVAL", "return 1 +", "0"}),
            Err("Error compiling script (new function): user_script:1: unexpected symbol near "
                "'<eof>'"));
}

// Redis runs a script to its end before serving clients blocked on the keys it filled: a BLPOP
// waiting on the list gets nothing of what the script pushed and popped again.
TEST_F(ScriptingTest, BlockedClientsWaitForTheWholeScript) {
  auto& other = h.NewClient();
  EXPECT_EQ(other.Run({"BLPOP", "q", "0"}), "");
  EXPECT_EQ(h.Run({"EVAL",
                   "redis.call('rpush', 'q', 'a', 'b') redis.call('lpop', 'q') "
                   "return redis.call('lpop', 'q')",
                   "0"}),
            Bulk("b"));
  EXPECT_EQ(other.TakeOutput(), "");
  EXPECT_EQ(h.Run({"EVAL", "return redis.call('rpush', 'q', 'c')", "0"}), Int(1));
  EXPECT_EQ(other.TakeOutput(), "*2\r\n" + Bulk("q") + Bulk("c"));
}

TEST_F(ScriptingTest, BlockingCommandsDoNotBlockInScripts) {
  // BLPOP is noscript in Redis 7.0; BLMOVE too. Their non-blocking forms run.
  EXPECT_EQ(h.Run({"EVAL", "return redis.pcall('blpop', 'q', 0)", "0"}),
            Err("This Redis command is not allowed from script"));
  EXPECT_EQ(h.Run({"EVAL", "return redis.call('lpop', 'q')", "0"}), kNil);
}

TEST_F(ScriptingTest, SelectInsideAScriptDoesNotMoveTheCaller) {
  EXPECT_EQ(h.Run({"EVAL", "redis.call('select', 3) return redis.call('set', 'k', 'in3')", "0"}),
            kOk);
  EXPECT_EQ(h.Run({"GET", "k"}), kNil);
  EXPECT_EQ(h.Run({"SELECT", "3"}), kOk);
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("in3"));
  // The script starts in the caller's database.
  EXPECT_EQ(h.Run({"EVAL", "return redis.call('get', 'k')", "0"}), Bulk("in3"));
}

TEST_F(ScriptingTest, MonitorSeesTheScriptThenItsCommands) {
  auto& other = h.NewClient();
  EXPECT_EQ(h.Run({"MONITOR"}), kOk);
  other.Run({"EVAL", "return redis.call('set', 'k', 'v')", "0"});
  const std::string lines = h.TakeOutput();
  const size_t eval_at = lines.find("\"EVAL\"");
  const size_t set_at = lines.find("[0 lua] \"set\" \"k\" \"v\"");
  ASSERT_NE(eval_at, std::string::npos) << lines;
  ASSERT_NE(set_at, std::string::npos) << lines;
  EXPECT_LT(eval_at, set_at);
}

TEST_F(ScriptingTest, StatisticsCountInnerCommandsAndErrorsOnce) {
  h.Run({"EVAL",
         "redis.call('set', 'a', '1') redis.call('get', 'a') "
         "return redis.pcall('incrbyfloat', 'a', 'x')",
         "0"});
  const std::string stats = h.Run({"INFO", "commandstats"});
  EXPECT_NE(stats.find("cmdstat_set:calls=1,"), std::string::npos) << stats;
  EXPECT_NE(stats.find("cmdstat_get:calls=1,"), std::string::npos) << stats;
  EXPECT_NE(stats.find("cmdstat_incrbyfloat:calls=1,"), std::string::npos) << stats;
  EXPECT_NE(stats.find("failed_calls=1"), std::string::npos) << stats;
  const std::string errors = h.Run({"INFO", "errorstats"});
  EXPECT_NE(errors.find("errorstat_ERR:count=1\r\n"), std::string::npos) << errors;
  const std::string info = h.Run({"INFO", "stats"});
  EXPECT_NE(info.find("total_error_replies:1\r\n"), std::string::npos) << info;
}

TEST_F(ScriptingTest, MaxmemoryInsideScripts) {
  EXPECT_EQ(h.Run({"CONFIG", "SET", "maxmemory", "1"}), kOk);
  const std::string set = "return redis.call('set', 'a', 'b')";
  EXPECT_EQ(h.Run({"EVAL", set, "0"}),
            "-OOM command not allowed when used memory > 'maxmemory'. script: " + ScriptName(set) +
                ", on @user_script:1.\r\n");
  EXPECT_EQ(h.Run({"EVAL", "return redis.call('get', 'a')", "0"}), kNil);
  EXPECT_EQ(h.Run({"EVAL", "#!lua flags=allow-oom\nreturn redis.call('set', 'a', 'b')", "0"}), kOk);
  EXPECT_EQ(h.Run({"EVAL", "#!lua\nreturn 1", "0"}),
            "-OOM command not allowed when used memory > 'maxmemory'.\r\n");
  EXPECT_EQ(h.Run({"EVAL", "#!lua flags=no-writes\nreturn 5", "0"}), Int(5));
}

TEST_F(ScriptingTest, FunctionsLoadCallAndList) {
  EXPECT_EQ(h.Run({"FUNCTION", "LOAD",
                   "#!lua name=lib\nredis.register_function('f', function(keys, args) return "
                   "{keys[1], args[1]} end)"}),
            Bulk("lib"));
  EXPECT_EQ(h.Run({"FCALL", "f", "1", "k", "a"}), "*2\r\n" + Bulk("k") + Bulk("a"));
  EXPECT_EQ(h.Run({"FUNCTION", "STATS"}),
            "*4\r\n$14\r\nrunning_script\r\n$-1\r\n$7\r\nengines\r\n*2\r\n$3\r\nLUA\r\n*4\r\n"
            "$15\r\nlibraries_count\r\n:1\r\n$15\r\nfunctions_count\r\n:1\r\n");
  EXPECT_EQ(h.Run({"FUNCTION", "DELETE", "lib"}), kOk);
  EXPECT_EQ(h.Run({"FCALL", "f", "0"}), Err("Function not found"));
}

TEST_F(ScriptingTest, HugeAndDeepValuesComeBackWhole) {
  // A reply of 100000 elements and a deeply nested table.
  const std::string big =
      h.Run({"EVAL", "local t = {} for i = 1, 100000 do t[i] = i end return t", "0"});
  EXPECT_TRUE(big.starts_with("*100000\r\n:1\r\n:2\r\n"));
  const std::string deep = h.Run(
      {"EVAL", "local t = {} local c = t for i = 1, 100 do c[1] = {} c = c[1] end return t", "0"});
  std::string nested;
  for (int i = 0; i < 100; ++i) nested += "*1\r\n";
  EXPECT_EQ(deep, nested + "*0\r\n");
}

TEST_F(ScriptingTest, ErrorsInScriptsLeaveTheServerServing) {
  EXPECT_EQ(h.Run({"EVAL", "local function r() return r() + 1 end return r()", "0"}).substr(0, 26),
            "-ERR user_script:1: stack ");
  EXPECT_EQ(h.Run({"PING"}), "+PONG\r\n");
  EXPECT_EQ(h.Run({"EVAL", "return redis.call('ping')", "0"}), "+PONG\r\n");
}

}  // namespace
}  // namespace kv::test
