#include "gtest/gtest.h"
#include "tests/support/command_harness.h"

namespace kv::test {
namespace {

TEST(HarnessSmoke, SetThenGet) {
  CommandHarness h;
  EXPECT_EQ(h.Run({"SET", "k", "v"}), "+OK\r\n");
  EXPECT_EQ(h.Run({"get", "k"}), "$1\r\nv\r\n");
}

}  // namespace
}  // namespace kv::test
