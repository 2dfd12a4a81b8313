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
  const std::string help = h.Run({"DEBUG", "HELP"});
  EXPECT_EQ(help.substr(0, 5), "*11\r\n");
  EXPECT_NE(help.find("+SET-ACTIVE-EXPIRE <0|1>\r\n"), std::string::npos);
}

TEST(DebugFamilyTest, UnsupportedSubcommandsGetAnError) {
  CommandHarness h(DebugEnabled("yes"));
  for (const char* sub : {"RELOAD", "OBJECT", "DIGEST", "JMAP", "bogus"}) {
    EXPECT_EQ(h.Run({"DEBUG", sub}), Err("unknown subcommand or wrong number of arguments for '" +
                                         std::string(sub) + "'. Try DEBUG HELP."));
  }
  EXPECT_EQ(h.Run({"DEBUG", "LOG"}),
            Err("unknown subcommand or wrong number of arguments for 'LOG'. Try DEBUG HELP."));
  EXPECT_EQ(h.Run({"DEBUG", "sleep", "1", "2"}),
            Err("unknown subcommand or wrong number of arguments for 'sleep'. Try DEBUG HELP."));
  EXPECT_EQ(h.Run({"DEBUG", "HELP", "x"}),
            Err("unknown subcommand or wrong number of arguments for 'HELP'. Try DEBUG HELP."));
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
