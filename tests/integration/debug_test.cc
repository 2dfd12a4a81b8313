// DEBUG against the real binary: SET-ACTIVE-EXPIRE really stops and restarts the server's active
// expiry cycle, and DEBUG is refused unless enable-debug-command allows it.

#include <string>

#include "gtest/gtest.h"
#include "tests/integration/raw_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

TEST(Debug, SetActiveExpireStopsAndRestartsActiveExpiry) {
  auto server = ServerProcess::StartKvserver({"--enable-debug-command", "yes"});
  ASSERT_TRUE(server);
  auto c = server->Connect();
  ASSERT_EQ(Str(Command(c.get(), "DEBUG SET-ACTIVE-EXPIRE 0")), "OK");
  for (int i = 0; i < 10; ++i) {
    ASSERT_EQ(Str(Command(c.get(), "SET volatile:%d v PX 10", i)), "OK");
  }
  auto dbsize = [&] {
    Reply r = Command(c.get(), "DBSIZE");
    return r ? r->integer : -1;
  };
  // DBSIZE does not look at keys: with active expiry off, the dead keys stay counted for as long
  // as we look (ten cron periods at the default hz 10, and more).
  EXPECT_FALSE(Eventually([&] { return dbsize() != 10; }, 1500)) << "DBSIZE " << dbsize();
  ASSERT_EQ(Str(Command(c.get(), "DEBUG SET-ACTIVE-EXPIRE 1")), "OK");
  EXPECT_TRUE(Eventually([&] { return dbsize() == 0; }, 5000)) << "DBSIZE " << dbsize();
}

TEST(Debug, RefusedByDefault) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto c = server->Connect();
  EXPECT_EQ(
      Str(Command(c.get(), "DEBUG LOG hello")),
      "ERR DEBUG command not allowed. If the enable-debug-command option is set to \"local\", "
      "you can run it from a local connection, otherwise you need to set this option in the "
      "configuration file, and then restart the server.");
  // Tests connect over loopback, which "local" allows.
  auto local = ServerProcess::StartKvserver({"--enable-debug-command", "local"});
  ASSERT_TRUE(local);
  auto l = local->Connect();
  EXPECT_EQ(Str(Command(l.get(), "DEBUG LOG hello")), "OK");
  EXPECT_TRUE(local->running());
}

}  // namespace
}  // namespace kv::test
