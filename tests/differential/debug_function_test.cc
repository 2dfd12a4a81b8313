// DEBUG (refused, as both servers run with enable-debug-command at its default "no") and FUNCTION
// FLUSH against the real redis-server: byte-identical replies.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/reply_pair.h"
#include "tests/support/resp_client.h"

namespace kv::test {
namespace {

class DebugFunctionDifferentialTest
    : public ConnectedBothServersTest<DebugFunctionDifferentialTest> {};

TEST_F(DebugFunctionDifferentialTest, SameReplies) {
  const std::vector<Args> commands = {{"debug", "log", "hello"},
                                      {"DEBUG", "SET-ACTIVE-EXPIRE", "0"},
                                      {"debug", "bogus"},
                                      {"debug"},
                                      {"function", "flush"},
                                      {"FUNCTION", "FLUSH", "ASYNC"},
                                      {"function", "flush", "sync"},
                                      {"function", "flush", "bogus"},
                                      {"function", "flush", "sync", "x"},
                                      {"function", "Flush", "a", "b"},
                                      {"function", "bogus"},
                                      {"function"},
                                      {"config", "get", "enable-debug-command"},
                                      {"config", "set", "enable-debug-command", "yes"}};
  ExpectSameReplies(commands);
}

}  // namespace
}  // namespace kv::test
