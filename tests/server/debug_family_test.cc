// DEBUG and FUNCTION through the real dispatcher. Expected replies are Redis 7.0.15's.

#include <string>

#include "gtest/gtest.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

const std::string kNotAllowed = Err(
    "DEBUG command not allowed. If the enable-debug-command option is set to \"local\", you can "
    "run it from a local connection, otherwise you need to set this option in the configuration "
    "file, and then restart the server.");

Config DebugEnabled(const char* mode) {
  Config c;
  c.enable_debug_command = mode;
  return c;
}

TEST(DebugFamilyTest, RefusedUnlessEnabled) {
  CommandHarness h;
  EXPECT_EQ(h.Run({"DEBUG", "LOG", "x"}), kNotAllowed);
  EXPECT_EQ(h.Run({"DEBUG", "SET-ACTIVE-EXPIRE", "0"}), kNotAllowed);
  EXPECT_TRUE(h.state().active_expire_enabled);
  EXPECT_EQ(h.Run({"DEBUG", "bogus"}), kNotAllowed);
  // The arity check comes first.
  EXPECT_EQ(h.Run({"DEBUG"}), Err("wrong number of arguments for 'debug' command"));
  // It cannot be changed at run time.
  EXPECT_EQ(h.Run({"CONFIG", "SET", "enable-debug-command", "yes"}),
            Err("CONFIG SET failed (possibly related to argument 'enable-debug-command') - can't "
                "set immutable config"));
  EXPECT_EQ(h.Run({"CONFIG", "GET", "enable-debug-command"}),
            "*2\r\n" + Bulk("enable-debug-command") + Bulk("no"));
}

// A load serves the other clients from inside it, and DEBUG is an ok-loading command: another
// DEBUG RELOAD or LOADAOF meanwhile would empty the data under the running load, so it gets
// -LOADING; the other subcommands run.
TEST(DebugFamilyTest, NoSecondLoadWhileLoading) {
  CommandHarness h(DebugEnabled("yes"));
  h.state().persistence.loading = true;
  const std::string loading = "-LOADING Redis is loading the dataset in memory\r\n";
  EXPECT_EQ(h.Run({"DEBUG", "RELOAD"}), loading);
  EXPECT_EQ(h.Run({"DEBUG", "RELOAD", "NOSAVE"}), loading);
  EXPECT_EQ(h.Run({"DEBUG", "LOADAOF"}), loading);
  EXPECT_EQ(h.Run({"DEBUG", "LOG", "x"}), kOk);
  h.state().persistence.loading = false;
  EXPECT_EQ(h.Run({"DEBUG", "RELOAD", "BOGUS"}),
            Err("DEBUG RELOAD only supports the MERGE, NOFLUSH and NOSAVE options."));
}

TEST(DebugFamilyTest, LocalAllowsLoopbackClients) {
  CommandHarness h(DebugEnabled("local"));  // the harness's client comes from 127.0.0.1
  EXPECT_EQ(h.Run({"DEBUG", "LOG", "hello"}), kOk);
}

TEST(DebugFamilyTest, Subcommands) {
  CommandHarness h(DebugEnabled("yes"));
  EXPECT_EQ(h.Run({"DEBUG", "LOG", "hello"}), kOk);
  EXPECT_EQ(h.Run({"debug", "sleep", "0"}), kOk);
  EXPECT_EQ(h.Run({"DEBUG", "SLEEP", "0.001"}), kOk);
  EXPECT_EQ(h.Run({"DEBUG", "SLEEP", "abc"}), kOk);  // strtod: no number is 0 seconds
  EXPECT_EQ(h.Run({"DEBUG", "SET-ACTIVE-EXPIRE", "0"}), kOk);
  EXPECT_FALSE(h.state().active_expire_enabled);
  EXPECT_EQ(h.Run({"DEBUG", "set-active-expire", "1"}), kOk);
  EXPECT_TRUE(h.state().active_expire_enabled);
  EXPECT_EQ(h.Run({"DEBUG", "SET-ACTIVE-EXPIRE", "x"}), kOk);  // atoi: 0
  EXPECT_FALSE(h.state().active_expire_enabled);
  EXPECT_EQ(h.Run({"DEBUG", "AOF-FLUSH-SLEEP", "0"}), kOk);
  EXPECT_EQ(h.Run({"DEBUG", "AOF-FLUSH-SLEEP"}),
            Err("unknown subcommand or wrong number of arguments for 'AOF-FLUSH-SLEEP'. Try DEBUG "
                "HELP."));
  const std::string help = h.Run({"DEBUG", "HELP"});
  // The array's count is its lines' (each a status line).
  size_t lines = 0;
  for (size_t at = help.find("\r\n+"); at != std::string::npos; at = help.find("\r\n+", at + 1)) {
    ++lines;
  }
  EXPECT_EQ(help.substr(0, help.find("\r\n")), "*" + std::to_string(lines));
  EXPECT_GT(lines, 40u);
  EXPECT_NE(help.find("+PAUSE-CRON <0|1>\r\n"), std::string::npos);
  EXPECT_NE(help.find("+AOF-FLUSH-SLEEP <microsec>\r\n"), std::string::npos);
  EXPECT_NE(help.find("+RELOAD [option ...]\r\n"), std::string::npos);
  EXPECT_NE(help.find("+DIGEST\r\n"), std::string::npos);
  EXPECT_NE(help.find("+DIGEST-VALUE <key> [<key> ...]\r\n"), std::string::npos);
  EXPECT_NE(help.find("+POPULATE <count> [<prefix>] [<size>]\r\n"), std::string::npos);
  EXPECT_NE(help.find("+PROTOCOL <type>\r\n"), std::string::npos);
  EXPECT_NE(help.find("+OBJECT <key>\r\n"), std::string::npos);
  EXPECT_NE(help.find("+SET-ACTIVE-EXPIRE <0|1>\r\n"), std::string::npos);
  EXPECT_NE(help.find("+QUICKLIST-PACKED-THRESHOLD <size>\r\n"), std::string::npos);
}

TEST(DebugFamilyTest, UnsupportedSubcommandsGetAnError) {
  CommandHarness h(DebugEnabled("yes"));
  for (const char* sub : {"OBJECT", "POPULATE", "PROTOCOL", "JMAP", "bogus"}) {
    EXPECT_EQ(h.Run({"DEBUG", sub}), Err("unknown subcommand or wrong number of arguments for '" +
                                         std::string(sub) + "'. Try DEBUG HELP."));
  }
  EXPECT_EQ(h.Run({"DEBUG", "LOG"}),
            Err("unknown subcommand or wrong number of arguments for 'LOG'. Try DEBUG HELP."));
  EXPECT_EQ(h.Run({"DEBUG", "sleep", "1", "2"}),
            Err("unknown subcommand or wrong number of arguments for 'sleep'. Try DEBUG HELP."));
  EXPECT_EQ(h.Run({"DEBUG", "DIGEST", "x"}),
            Err("unknown subcommand or wrong number of arguments for 'DIGEST'. Try DEBUG HELP."));
  EXPECT_EQ(h.Run({"DEBUG", "HELP", "x"}),
            Err("unknown subcommand or wrong number of arguments for 'HELP'. Try DEBUG HELP."));
}

// DEBUG OBJECT's line without the address (which differs run to run).
std::string ObjectLine(CommandHarness& h, const std::string& key) {
  std::string line = h.Run({"DEBUG", "OBJECT", key});
  const size_t at = line.find("at:0x");
  if (at != std::string::npos) line.erase(at, line.find(' ', at) - at + 1);
  return line;
}

TEST(DebugFamilyTest, Object) {
  CommandHarness h(DebugEnabled("yes"));
  const uint32_t lru = static_cast<uint32_t>(h.clock().NowMs() / 1000) & 0xFFFFFF;
  h.Run({"SET", "int", "100"});
  h.Run({"SET", "big", "3000000000"});
  h.Run({"SET", "str", "hello"});
  h.Run({"SET", "long", std::string(100, 'a')});
  h.Run({"SET", "plain", "0123456789abcdefghijklmnopqrstuvwxyz0123456789"});
  const std::string tail = " lru:" + std::to_string(lru) + " lru_seconds_idle:0\r\n";
  EXPECT_EQ(ObjectLine(h, "int"),
            "+Value refcount:2147483647 encoding:int serializedlength:2" + tail);
  // Past 32 bits an integer is saved as its digits.
  EXPECT_EQ(ObjectLine(h, "big"), "+Value refcount:1 encoding:int serializedlength:11" + tail);
  EXPECT_EQ(ObjectLine(h, "str"), "+Value refcount:1 encoding:embstr serializedlength:6" + tail);
  // 100 equal bytes compress to a few; 46 bytes with one repeat do not gain the 4 bytes LZF must.
  EXPECT_EQ(ObjectLine(h, "long"), "+Value refcount:1 encoding:raw serializedlength:13" + tail);
  EXPECT_EQ(ObjectLine(h, "plain"), "+Value refcount:1 encoding:raw serializedlength:47" + tail);
  h.clock().Advance(7000);
  EXPECT_EQ(ObjectLine(h, "str"), "+Value refcount:1 encoding:embstr serializedlength:6 lru:" +
                                      std::to_string(lru) + " lru_seconds_idle:7\r\n");
  EXPECT_EQ(h.Run({"DEBUG", "OBJECT", "nokey"}), Err("no such key"));
  // Under an LFU policy lru holds Redis's minutes and counter (for values made under it: the
  // field is shared, as in Redis).
  h.Run({"CONFIG", "SET", "maxmemory-policy", "allkeys-lfu"});
  h.Run({"SET", "fresh", "v"});
  const std::string lfu = ObjectLine(h, "fresh");
  const uint32_t minutes = static_cast<uint32_t>(h.clock().NowMs() / 1000) / 60 & 0xFFFF;
  EXPECT_NE(lfu.find(" lru:" + std::to_string(minutes << 8 | 5) + " "), std::string::npos) << lfu;
}

TEST(ScriptingFamilyTest, FunctionFlush) {
  CommandHarness h;
  EXPECT_EQ(h.Run({"FUNCTION", "FLUSH"}), kOk);
  EXPECT_EQ(h.Run({"function", "flush", "async"}), kOk);
  EXPECT_EQ(h.Run({"FUNCTION", "FLUSH", "SYNC"}), kOk);
  EXPECT_EQ(h.Run({"FUNCTION", "FLUSH", "bogus"}),
            Err("FUNCTION FLUSH only supports SYNC|ASYNC option"));
  EXPECT_EQ(h.Run({"FUNCTION", "flush", "sync", "x"}),
            Err("unknown subcommand or wrong number of arguments for 'flush'. Try FUNCTION HELP."));
  EXPECT_EQ(h.Run({"FUNCTION", "bogus"}), Err("unknown subcommand 'bogus'. Try FUNCTION HELP."));
  EXPECT_EQ(h.Run({"FUNCTION"}), Err("wrong number of arguments for 'function' command"));
  // Flushing functions leaves the keys alone.
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  EXPECT_EQ(h.Run({"FUNCTION", "FLUSH"}), kOk);
  EXPECT_EQ(h.Run({"DBSIZE"}), Int(1));
}

}  // namespace
}  // namespace kv::test
