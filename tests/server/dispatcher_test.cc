// The dispatcher: command lookup (case-insensitive, with subcommands), Redis 7's unknown-command
// and unknown-subcommand texts, arity checks, and the counters it keeps.

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "server/errors.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

class DispatcherTest : public ::testing::Test {
 protected:
  CommandHarness h;
};

TEST_F(DispatcherTest, UnknownCommandListsItsArguments) {
  EXPECT_EQ(h.Run({"foo", "a", "b"}),
            "-ERR unknown command 'foo', with args beginning with: 'a' 'b' \r\n");
  EXPECT_EQ(h.Run({"FOO"}), "-ERR unknown command 'FOO', with args beginning with: \r\n");
  EXPECT_EQ(h.Run({"foo", "", "b"}),
            "-ERR unknown command 'foo', with args beginning with: '' 'b' \r\n");
  EXPECT_EQ(h.Run({"", "a"}), "-ERR unknown command '', with args beginning with: 'a' \r\n");
}

TEST_F(DispatcherTest, UnknownCommandNameIsCutAt128Bytes) {
  const std::string name(129, 'y');
  EXPECT_EQ(h.Run({name, "a"}), "-ERR unknown command '" + std::string(128, 'y') +
                                    "', with args beginning with: 'a' \r\n");
  const std::string exact(128, 'z');
  EXPECT_EQ(h.Run({exact}), "-ERR unknown command '" + exact + "', with args beginning with: \r\n");
}

TEST_F(DispatcherTest, UnknownCommandArgumentsAreCutAt128Bytes) {
  // Redis appends "'%.*s' " with 128 minus the length so far, while that length is below 128.
  const std::string x200(200, 'x');
  EXPECT_EQ(h.Run({"foo", x200, "b"}), "-ERR unknown command 'foo', with args beginning with: '" +
                                           std::string(128, 'x') + "' \r\n");
  // 120 x's make 123 bytes with the quotes and blank: 5 bytes of the next argument fit.
  EXPECT_EQ(h.Run({"foo", std::string(120, 'x'), "abcdefghijkl", "zz"}),
            "-ERR unknown command 'foo', with args beginning with: '" + std::string(120, 'x') +
                "' 'abcde' \r\n");
  // 124 x's make 127 bytes: one more byte fits.
  EXPECT_EQ(h.Run({"foo", std::string(124, 'x'), "abcdef"}),
            "-ERR unknown command 'foo', with args beginning with: '" + std::string(124, 'x') +
                "' 'a' \r\n");
  // 125 x's make 128 bytes: nothing more is listed.
  EXPECT_EQ(
      h.Run({"foo", std::string(125, 'x'), "abcdef"}),
      "-ERR unknown command 'foo', with args beginning with: '" + std::string(125, 'x') + "' \r\n");
  // 32 one-letter arguments make exactly 128 bytes; the 33rd is left out.
  std::vector<std::string> many = {"foo"};
  std::string listed;
  for (int i = 0; i < 40; ++i) many.push_back("a");
  for (int i = 0; i < 32; ++i) listed += "'a' ";
  EXPECT_EQ(h.Run(many),
            "-ERR unknown command 'foo', with args beginning with: " + listed + "\r\n");
}

TEST_F(DispatcherTest, UnknownCommandTextIsOneLineOfCStrings) {
  // CR and LF become blanks; a NUL ends an argument, as Redis prints them with %s.
  EXPECT_EQ(h.Run({"foo", "a\r\nb", "c"}),
            "-ERR unknown command 'foo', with args beginning with: 'a  b' 'c' \r\n");
  EXPECT_EQ(h.Run({"foo", std::string("a\0b", 3), "c"}),
            "-ERR unknown command 'foo', with args beginning with: 'a' 'c' \r\n");
  EXPECT_EQ(h.Run({std::string("foo\0x", 5), "a"}),
            "-ERR unknown command 'foo', with args beginning with: 'a' \r\n");
}

TEST_F(DispatcherTest, UnknownCommandErrorBuilder) {
  const std::string_view args[] = {"a", "b"};
  EXPECT_EQ(UnknownCommandError("cmd", args, 2),
            "unknown command 'cmd', with args beginning with: 'a' 'b' ");
  EXPECT_EQ(UnknownCommandError("cmd", nullptr, 0),
            "unknown command 'cmd', with args beginning with: ");
  EXPECT_EQ(UnknownSubcommandError("x", "config"), "unknown subcommand 'x'. Try CONFIG HELP.");
  EXPECT_EQ(WrongArityError("config|get"), "wrong number of arguments for 'config|get' command");
  EXPECT_EQ(InvalidExpireError("set"), "invalid expire time in 'set' command");
}

TEST_F(DispatcherTest, CommandNamesAreCaseInsensitive) {
  EXPECT_EQ(h.Run({"SeT", "k", "v"}), "+OK\r\n");
  EXPECT_EQ(h.Run({"GET", "k"}), "$1\r\nv\r\n");
  EXPECT_EQ(h.Run({"get", "k"}), "$1\r\nv\r\n");
  EXPECT_EQ(h.Run({"gEt", "k"}), "$1\r\nv\r\n");
  EXPECT_EQ(h.Run({"CoNfIg", "GeT", "TIMEOUT"}), "*2\r\n$7\r\nTIMEOUT\r\n$1\r\n0\r\n");
  EXPECT_EQ(h.Run({"command", "COUNT"}), h.Run({"COMMAND", "count"}));
}

TEST_F(DispatcherTest, ArityErrorsNameTheCommandInLowerCase) {
  EXPECT_EQ(h.Run({"GET"}), Err("wrong number of arguments for 'get' command"));
  EXPECT_EQ(h.Run({"Get", "a", "b"}), Err("wrong number of arguments for 'get' command"));
  EXPECT_EQ(h.Run({"PING", "a", "b"}), Err("wrong number of arguments for 'ping' command"));
  EXPECT_EQ(h.Run({"ECHO"}), Err("wrong number of arguments for 'echo' command"));
  EXPECT_EQ(h.Run({"DBSIZE", "x"}), Err("wrong number of arguments for 'dbsize' command"));
  EXPECT_EQ(h.Run({"SELECT"}), Err("wrong number of arguments for 'select' command"));
}

TEST_F(DispatcherTest, ContainerWithoutSubcommandIsAnArityError) {
  EXPECT_EQ(h.Run({"CONFIG"}), Err("wrong number of arguments for 'config' command"));
  // COMMAND alone is a command of its own (arity -1).
  EXPECT_EQ(h.Run({"COMMAND"}).substr(0, 1), "*");
}

TEST_F(DispatcherTest, SubcommandArityErrorsUseTheFullName) {
  EXPECT_EQ(h.Run({"CONFIG", "GET"}), Err("wrong number of arguments for 'config|get' command"));
  EXPECT_EQ(h.Run({"config", "Set", "a"}),
            Err("wrong number of arguments for 'config|set' command"));
  EXPECT_EQ(h.Run({"CONFIG", "RESETSTAT", "x"}),
            Err("wrong number of arguments for 'config|resetstat' command"));
  EXPECT_EQ(h.Run({"CONFIG", "HELP", "x"}),
            Err("wrong number of arguments for 'config|help' command"));
  EXPECT_EQ(h.Run({"COMMAND", "COUNT", "x"}),
            Err("wrong number of arguments for 'command|count' command"));
  EXPECT_EQ(h.Run({"COMMAND", "GETKEYS", "get"}),
            Err("wrong number of arguments for 'command|getkeys' command"));
}

TEST_F(DispatcherTest, UnknownSubcommand) {
  EXPECT_EQ(h.Run({"CONFIG", "x"}), "-ERR unknown subcommand 'x'. Try CONFIG HELP.\r\n");
  EXPECT_EQ(h.Run({"config", "foo", "bar"}), "-ERR unknown subcommand 'foo'. Try CONFIG HELP.\r\n");
  EXPECT_EQ(h.Run({"command", "foo"}), "-ERR unknown subcommand 'foo'. Try COMMAND HELP.\r\n");
  // The subcommand is printed as a C string, at most 128 bytes.
  EXPECT_EQ(h.Run({"CONFIG", std::string("g\0et", 4)}),
            "-ERR unknown subcommand 'g'. Try CONFIG HELP.\r\n");
  EXPECT_EQ(h.Run({"CONFIG", std::string(200, 's')}),
            "-ERR unknown subcommand '" + std::string(128, 's') + "'. Try CONFIG HELP.\r\n");
  // "config|get" is the full name of a subcommand, not a command.
  EXPECT_EQ(h.Run({"config|get", "port"}),
            "-ERR unknown command 'config|get', with args beginning with: 'port' \r\n");
}

TEST_F(DispatcherTest, CountsCommandsAndErrorReplies) {
  const ServerStats& st = h.state().stats;
  h.Run({"SET", "k", "v"});
  h.Run({"GET", "k"});
  EXPECT_EQ(st.total_commands_processed, 2u);
  EXPECT_EQ(st.total_error_replies, 0u);
  // Rejected commands are error replies but are not processed.
  h.Run({"nosuch"});
  h.Run({"GET"});
  h.Run({"CONFIG", "nosuch"});
  EXPECT_EQ(st.total_commands_processed, 2u);
  EXPECT_EQ(st.total_error_replies, 3u);
  // A command whose handler replies with an error is both.
  h.Run({"INCR", "k"});
  h.Run({"SET", "k", "v", "EX", "0"});
  EXPECT_EQ(st.total_commands_processed, 4u);
  EXPECT_EQ(st.total_error_replies, 5u);
  // A bulk reply that happens to start with '-' is not an error.
  h.Run({"ECHO", "-ERR not an error"});
  h.Run({"SET", "n", "-5"});
  h.Run({"GET", "n"});
  EXPECT_EQ(st.total_error_replies, 5u);
}

}  // namespace
}  // namespace kv::test
