// BLPOP, BRPOP, BLMPOP, BRPOPLPUSH and BLMOVE on the blocking mechanism, in-process with several
// clients: who is served, from which key, in which order, and what is left behind. Expected
// replies are what Redis 7.0.15 sends.

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

std::string Arr(std::initializer_list<std::string> items) {
  std::string out = "*" + std::to_string(items.size()) + "\r\n";
  for (const std::string& i : items) out += i;
  return out;
}

const std::string kNullArray = "*-1\r\n";

class ListBlockingTest : public ::testing::Test {
 protected:
  CommandHarness h;
};

TEST_F(ListBlockingTest, SameKeyNamedTwice) {
  CommandHarness::Client& c = h.NewClient();
  EXPECT_EQ(c.Run({"BLPOP", "l1", "l2", "l2", "l1", "0"}), "");
  EXPECT_EQ(h.Run({"LPUSH", "l1", "a"}), Int(1));
  EXPECT_EQ(c.TakeOutput(), Arr({Bulk("l1"), Bulk("a")}));
  EXPECT_EQ(h.Run({"EXISTS", "l1"}), Int(0));
  EXPECT_EQ(c.Run({"BLPOP", "l1", "l2", "l2", "l1", "0"}), "");
  EXPECT_EQ(h.Run({"LPUSH", "l2", "b"}), Int(1));
  EXPECT_EQ(c.TakeOutput(), Arr({Bulk("l2"), Bulk("b")}));
  EXPECT_EQ(h.state().blocking.blocked_clients(), 0u);
  EXPECT_EQ(h.state().blocking.waited_keys(), 0u);
}

TEST_F(ListBlockingTest, ServedInTheOrderTheyBlocked) {
  CommandHarness::Client& c1 = h.NewClient();
  CommandHarness::Client& c2 = h.NewClient();
  CommandHarness::Client& c3 = h.NewClient();
  EXPECT_EQ(c1.Run({"BLPOP", "k", "0"}), "");
  EXPECT_EQ(c2.Run({"BRPOP", "k", "0"}), "");
  EXPECT_EQ(c3.Run({"BLPOP", "k", "0"}), "");
  EXPECT_EQ(h.state().blocking.blocked_clients(), 3u);
  // One push of three: the list is c b a; each client takes one end in its turn.
  EXPECT_EQ(h.Run({"LPUSH", "k", "a", "b"}), Int(2));
  EXPECT_EQ(c1.TakeOutput(), Arr({Bulk("k"), Bulk("b")}));
  EXPECT_EQ(c2.TakeOutput(), Arr({Bulk("k"), Bulk("a")}));
  EXPECT_EQ(c3.TakeOutput(), "");
  EXPECT_EQ(h.Run({"EXISTS", "k"}), Int(0));
  EXPECT_EQ(h.Run({"RPUSH", "k", "x", "y"}), Int(2));
  EXPECT_EQ(c3.TakeOutput(), Arr({Bulk("k"), Bulk("x")}));
  EXPECT_EQ(h.Run({"LRANGE", "k", "0", "-1"}), "*1\r\n" + Bulk("y"));
  EXPECT_EQ(h.state().blocking.blocked_clients(), 0u);
}

TEST_F(ListBlockingTest, FirstNonEmptyKeyWinsAtOnce) {
  CommandHarness::Client& c = h.NewClient();
  EXPECT_EQ(h.Run({"RPUSH", "k2", "x"}), Int(1));
  EXPECT_EQ(h.Run({"RPUSH", "k3", "y"}), Int(1));
  EXPECT_EQ(c.Run({"BLPOP", "k1", "k2", "k3", "0"}), Arr({Bulk("k2"), Bulk("x")}));
  EXPECT_EQ(c.Run({"BLMPOP", "0", "3", "k1", "k2", "k3", "RIGHT", "COUNT", "5"}),
            Arr({Bulk("k3"), "*1\r\n" + Bulk("y")}));
  // Blocked on several keys: the one that gets a list serves it.
  EXPECT_EQ(c.Run({"BRPOP", "k1", "k2", "k3", "0"}), "");
  EXPECT_EQ(h.Run({"RPUSH", "k3", "p", "q"}), Int(2));
  EXPECT_EQ(c.TakeOutput(), Arr({Bulk("k3"), Bulk("q")}));
  EXPECT_EQ(h.state().blocking.waited_keys(), 0u);
}

TEST_F(ListBlockingTest, BlmpopServedWithACount) {
  CommandHarness::Client& c = h.NewClient();
  EXPECT_EQ(c.Run({"BLMPOP", "0", "2", "a", "b", "LEFT", "COUNT", "2"}), "");
  EXPECT_EQ(h.Run({"RPUSH", "b", "1", "2", "3"}), Int(3));
  EXPECT_EQ(c.TakeOutput(), Arr({Bulk("b"), "*2\r\n" + Bulk("1") + Bulk("2")}));
  EXPECT_EQ(h.Run({"LLEN", "b"}), Int(1));
}

TEST_F(ListBlockingTest, ServedAfterEveryWayAListArrives) {
  CommandHarness::Client& c = h.NewClient();
  // RPOPLPUSH and LMOVE into the waited key.
  EXPECT_EQ(c.Run({"BLPOP", "k", "0"}), "");
  h.Run({"RPUSH", "src", "1", "2", "3", "4", "5", "6"});
  EXPECT_EQ(h.Run({"RPOPLPUSH", "src", "k"}), Bulk("6"));
  EXPECT_EQ(c.TakeOutput(), Arr({Bulk("k"), Bulk("6")}));
  EXPECT_EQ(c.Run({"BLPOP", "k", "0"}), "");
  EXPECT_EQ(h.Run({"LMOVE", "src", "k", "LEFT", "RIGHT"}), Bulk("1"));
  EXPECT_EQ(c.TakeOutput(), Arr({Bulk("k"), Bulk("1")}));
  // RENAME.
  EXPECT_EQ(c.Run({"BLPOP", "k", "0"}), "");
  EXPECT_EQ(h.Run({"RPUSH", "tmp", "r"}), Int(1));
  EXPECT_EQ(h.Run({"RENAME", "tmp", "k"}), kOk);
  EXPECT_EQ(c.TakeOutput(), Arr({Bulk("k"), Bulk("r")}));
  // COPY.
  EXPECT_EQ(c.Run({"BLPOP", "k", "0"}), "");
  EXPECT_EQ(h.Run({"COPY", "src", "k"}), Int(1));
  EXPECT_EQ(c.TakeOutput(), Arr({Bulk("k"), Bulk("2")}));
  EXPECT_EQ(h.Run({"DEL", "k"}), Int(1));
  // MOVE from another database.
  EXPECT_EQ(c.Run({"BLPOP", "k", "0"}), "");
  EXPECT_EQ(h.Run({"SELECT", "5"}), kOk);
  EXPECT_EQ(h.Run({"RPUSH", "k", "m"}), Int(1));
  EXPECT_EQ(c.TakeOutput(), "");
  EXPECT_EQ(h.Run({"MOVE", "k", "0"}), Int(1));
  EXPECT_EQ(c.TakeOutput(), Arr({Bulk("k"), Bulk("m")}));
  // SWAPDB.
  EXPECT_EQ(c.Run({"BLPOP", "k", "0"}), "");
  EXPECT_EQ(h.Run({"RPUSH", "k", "w"}), Int(1));
  EXPECT_EQ(h.Run({"SWAPDB", "0", "5"}), kOk);
  EXPECT_EQ(c.TakeOutput(), Arr({Bulk("k"), Bulk("w")}));
  // A string at the key wakes nobody.
  EXPECT_EQ(c.Run({"BLPOP", "k", "0"}), "");
  EXPECT_EQ(h.Run({"SELECT", "0"}), kOk);
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  EXPECT_EQ(c.TakeOutput(), "");
  EXPECT_EQ(h.state().blocking.blocked_clients(), 1u);
}

TEST_F(ListBlockingTest, TheClientsDatabaseIsRespected) {
  CommandHarness::Client& c = h.NewClient();
  EXPECT_EQ(c.Run({"SELECT", "3"}), kOk);
  EXPECT_EQ(c.Run({"BLPOP", "k", "0"}), "");
  EXPECT_EQ(h.Run({"LPUSH", "k", "db0"}), Int(1));
  EXPECT_EQ(c.TakeOutput(), "");
  EXPECT_EQ(h.Run({"SELECT", "3"}), kOk);
  EXPECT_EQ(h.Run({"LPUSH", "k", "db3"}), Int(1));
  EXPECT_EQ(c.TakeOutput(), Arr({Bulk("k"), Bulk("db3")}));
  EXPECT_EQ(h.Run({"EXISTS", "k"}), Int(0));
  EXPECT_EQ(h.Run({"SELECT", "0"}), kOk);
  EXPECT_EQ(h.Run({"LLEN", "k"}), Int(1));
}

TEST_F(ListBlockingTest, BlmoveChainServesOneAfterAnother) {
  CommandHarness::Client& a = h.NewClient();
  CommandHarness::Client& b = h.NewClient();
  CommandHarness::Client& c = h.NewClient();
  EXPECT_EQ(a.Run({"BLMOVE", "l1", "l2", "LEFT", "RIGHT", "0"}), "");
  EXPECT_EQ(b.Run({"BRPOPLPUSH", "l2", "l3", "0"}), "");
  EXPECT_EQ(c.Run({"BLPOP", "l3", "0"}), "");
  EXPECT_EQ(h.Run({"RPUSH", "l1", "x"}), Int(1));
  EXPECT_EQ(a.TakeOutput(), Bulk("x"));
  EXPECT_EQ(b.TakeOutput(), Bulk("x"));
  EXPECT_EQ(c.TakeOutput(), Arr({Bulk("l3"), Bulk("x")}));
  EXPECT_EQ(h.Run({"DBSIZE"}), Int(0));
  EXPECT_EQ(h.state().blocking.blocked_clients(), 0u);
  // A BLMOVE onto the very list it waits for.
  EXPECT_EQ(a.Run({"BLMOVE", "r", "r", "RIGHT", "LEFT", "0"}), "");
  EXPECT_EQ(h.Run({"RPUSH", "r", "1", "2"}), Int(2));
  EXPECT_EQ(a.TakeOutput(), Bulk("2"));
  EXPECT_EQ(h.Run({"LRANGE", "r", "0", "-1"}), "*2\r\n" + Bulk("2") + Bulk("1"));
}

TEST_F(ListBlockingTest, ServedBlmoveOntoAWrongTypeGetsTheError) {
  CommandHarness::Client& a = h.NewClient();
  CommandHarness::Client& b = h.NewClient();
  EXPECT_EQ(h.Run({"SET", "str", "v"}), kOk);
  EXPECT_EQ(a.Run({"BLMOVE", "src", "str", "LEFT", "LEFT", "0"}), "");
  EXPECT_EQ(b.Run({"BLPOP", "src", "0"}), "");
  EXPECT_EQ(h.Run({"RPUSH", "src", "x"}), Int(1));
  EXPECT_EQ(a.TakeOutput(),
            "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
  EXPECT_EQ(b.TakeOutput(), Arr({Bulk("src"), Bulk("x")}));
  EXPECT_NE(h.Run({"INFO", "errorstats"}).find("errorstat_WRONGTYPE:count=1"), std::string::npos);
  EXPECT_NE(h.Run({"INFO", "commandstats"}).find("cmdstat_blmove:calls=1,"), std::string::npos);
  EXPECT_NE(h.Run({"INFO", "commandstats"}).find("rejected_calls=0,failed_calls=1"),
            std::string::npos);
}

TEST_F(ListBlockingTest, TimeoutsAsDoubles) {
  CommandHarness::Client& c = h.NewClient();
  EXPECT_EQ(c.Run({"BLPOP", "k", "abc"}), Err("timeout is not a float or out of range"));
  EXPECT_EQ(c.Run({"BLPOP", "k", ""}), Err("timeout is not a float or out of range"));
  EXPECT_EQ(c.Run({"BLPOP", "k", " 1"}), Err("timeout is not a float or out of range"));
  EXPECT_EQ(c.Run({"BLPOP", "k", "nan"}), Err("timeout is not a float or out of range"));
  EXPECT_EQ(c.Run({"BLPOP", "k", "-1"}), Err("timeout is negative"));
  EXPECT_EQ(c.Run({"BLPOP", "k", "-0.002"}), Err("timeout is negative"));
  EXPECT_EQ(c.Run({"BLPOP", "k", "inf"}), Err("timeout is negative"));
  EXPECT_EQ(c.Run({"BLPOP", "k", "1e30"}), Err("timeout is negative"));
  EXPECT_EQ(c.Run({"BRPOPLPUSH", "k", "d", "-1"}), Err("timeout is negative"));
  EXPECT_EQ(c.Run({"BLMOVE", "k", "d", "LEFT", "LEFT", "x"}),
            Err("timeout is not a float or out of range"));
  EXPECT_EQ(c.Run({"BLMOVE", "k", "d", "UP", "LEFT", "x"}), Err("syntax error"));
  EXPECT_EQ(c.Run({"BLMPOP", "x", "1", "k", "LEFT"}),
            Err("timeout is not a float or out of range"));
  EXPECT_EQ(c.Run({"BLMPOP", "x", "0", "k", "LEFT"}), Err("numkeys should be greater than 0"));
  EXPECT_EQ(h.state().blocking.blocked_clients(), 0u);

  // 0.5 s: still waiting at the deadline itself, timed out 1 ms after, as Redis.
  EXPECT_EQ(c.Run({"BLPOP", "k", "0.5"}), "");
  h.AdvanceClock(500);
  EXPECT_EQ(c.TakeOutput(), "");
  h.AdvanceClock(1);
  EXPECT_EQ(c.TakeOutput(), kNullArray);
  // Rounded up to whole milliseconds: 0.0001 s is 1 ms.
  EXPECT_EQ(c.Run({"BRPOP", "k", "0.0001"}), "");
  h.AdvanceClock(1);
  EXPECT_EQ(c.TakeOutput(), "");
  h.AdvanceClock(1);
  EXPECT_EQ(c.TakeOutput(), kNullArray);
  // "-0" and tiny negatives round to 0: forever. In long double, -0.001 * 1000 is a hair above
  // -1, so Redis waits forever for it too.
  EXPECT_EQ(c.Run({"BLPOP", "k", "-0.001"}), "");
  h.AdvanceClock(86400000);
  EXPECT_EQ(c.TakeOutput(), "");
  EXPECT_EQ(h.Run({"CLIENT", "UNBLOCK", "2"}), Int(1));
  EXPECT_EQ(c.TakeOutput(), kNullArray);
  // A timeout too far for the clock never fires (Redis's deadline wraps and sorts last).
  EXPECT_EQ(c.Run({"BLPOP", "k", "9223372036854775"}), "");
  h.AdvanceClock(86400000);
  EXPECT_EQ(c.TakeOutput(), "");
  EXPECT_EQ(h.Run({"LPUSH", "k", "late"}), Int(1));
  EXPECT_EQ(c.TakeOutput(), Arr({Bulk("k"), Bulk("late")}));
  // Every blocking command replies a null array on a timeout, BLMOVE and BRPOPLPUSH too.
  EXPECT_EQ(c.Run({"BLMOVE", "k", "d", "LEFT", "LEFT", "0.01"}), "");
  h.AdvanceClock(11);
  EXPECT_EQ(c.TakeOutput(), kNullArray);
  EXPECT_EQ(c.Run({"BLMPOP", "0.01", "1", "k", "LEFT"}), "");
  h.AdvanceClock(11);
  EXPECT_EQ(c.TakeOutput(), kNullArray);
}

TEST_F(ListBlockingTest, ClientUnblockTimeoutOrError) {
  CommandHarness::Client& c = h.NewClient();
  EXPECT_EQ(h.Run({"CLIENT", "UNBLOCK", "2"}), Int(0));
  EXPECT_EQ(c.Run({"BLPOP", "k", "0"}), "");
  EXPECT_EQ(h.Run({"CLIENT", "UNBLOCK", "2", "TIMEOUT"}), Int(1));
  EXPECT_EQ(c.TakeOutput(), kNullArray);
  EXPECT_EQ(c.Run({"BRPOPLPUSH", "k", "d", "0"}), "");
  EXPECT_EQ(h.Run({"CLIENT", "UNBLOCK", "2", "ERROR"}), Int(1));
  EXPECT_EQ(c.TakeOutput(), "-UNBLOCKED client unblocked via CLIENT UNBLOCK\r\n");
  EXPECT_EQ(h.state().blocking.blocked_clients(), 0u);
  EXPECT_EQ(h.state().blocking.waited_keys(), 0u);
  EXPECT_EQ(h.Run({"LPUSH", "k", "x"}), Int(1));
  EXPECT_EQ(c.TakeOutput(), "");
  // Redis 7.0 counts an unblocked command as failed either way, and CLIENT UNBLOCK ERROR as a
  // failed call too (an error reply was made while it ran); a timeout counts nothing.
  auto counts = [&](const std::string& name) {
    const std::string stats = h.Run({"INFO", "commandstats"});
    const size_t at = stats.find("cmdstat_" + name + ":");
    if (at == std::string::npos) return std::string("<none>");
    const std::string line = stats.substr(at, stats.find("\r\n", at) - at);
    const size_t calls = line.find("calls=");
    return line.substr(calls, line.find(",usec") - calls) + line.substr(line.find(",rejected"));
  };
  EXPECT_EQ(counts("blpop"), "calls=1,rejected_calls=0,failed_calls=1");
  EXPECT_EQ(counts("brpoplpush"), "calls=1,rejected_calls=0,failed_calls=1");
  EXPECT_EQ(counts("client|unblock"), "calls=3,rejected_calls=0,failed_calls=1");
  EXPECT_EQ(c.Run({"BLPOP", "k2", "0.001"}), "");
  h.AdvanceClock(2);
  EXPECT_EQ(c.TakeOutput(), kNullArray);
  EXPECT_EQ(counts("blpop"), "calls=2,rejected_calls=0,failed_calls=1");
}

TEST_F(ListBlockingTest, DisconnectLeavesNothingBehind) {
  CommandHarness::Client& c = h.NewClient();
  EXPECT_EQ(c.Run({"BLPOP", "k1", "k2", "5"}), "");
  EXPECT_EQ(h.state().blocking.timed_clients(), 1u);
  h.state().blocking.Remove(c.conn().id);
  EXPECT_EQ(h.state().blocking.blocked_clients(), 0u);
  EXPECT_EQ(h.state().blocking.timed_clients(), 0u);
  EXPECT_EQ(h.state().blocking.waited_keys(), 0u);
  EXPECT_EQ(h.Run({"LPUSH", "k1", "x"}), Int(1));
  EXPECT_EQ(h.Run({"LLEN", "k1"}), Int(1));
}

TEST_F(ListBlockingTest, InfoClientListAndStats) {
  CommandHarness::Client& c = h.NewClient();
  EXPECT_EQ(c.Run({"BLPOP", "k", "0"}), "");
  EXPECT_NE(h.Run({"INFO", "clients"}).find("blocked_clients:1\r\n"), std::string::npos);
  const std::string list = h.Run({"CLIENT", "LIST", "ID", "2"});
  EXPECT_NE(list.find(" flags=b "), std::string::npos) << list;
  EXPECT_NE(list.find(" cmd=blpop "), std::string::npos) << list;
  // Counted once when it blocked, not again when served.
  EXPECT_NE(h.Run({"INFO", "commandstats"}).find("cmdstat_blpop:calls=1,"), std::string::npos);
  const uint64_t dirty = h.state().dirty;
  EXPECT_EQ(h.Run({"RPUSH", "k", "a", "b"}), Int(2));
  EXPECT_EQ(c.TakeOutput(), Arr({Bulk("k"), Bulk("a")}));
  // The push counts its two elements; the served BLPOP counts nothing, as Redis.
  EXPECT_EQ(h.state().dirty - dirty, 2u);
  EXPECT_NE(h.Run({"INFO", "commandstats"}).find("cmdstat_blpop:calls=1,"), std::string::npos);
  EXPECT_NE(h.Run({"INFO", "clients"}).find("blocked_clients:0\r\n"), std::string::npos);
  EXPECT_NE(h.Run({"CLIENT", "LIST", "ID", "2"}).find(" flags=N "), std::string::npos);
  // An immediate BLPOP counts one change, as LPOP.
  EXPECT_EQ(c.Run({"BLPOP", "k", "0"}), Arr({Bulk("k"), Bulk("b")}));
  EXPECT_EQ(h.state().dirty - dirty, 3u);
}

TEST_F(ListBlockingTest, WhereBlockingIsDeniedItIsATimeoutAtOnce) {
  CommandHarness::Client& c = h.NewClient();
  c.conn().deny_blocking = true;
  EXPECT_EQ(c.Run({"BLPOP", "k", "0"}), kNullArray);
  EXPECT_EQ(c.Run({"BLMPOP", "0", "1", "k", "LEFT"}), kNullArray);
  EXPECT_EQ(c.Run({"BRPOPLPUSH", "k", "d", "0"}), kNil);
  EXPECT_EQ(c.Run({"BLMOVE", "k", "d", "LEFT", "LEFT", "0"}), kNil);
  EXPECT_EQ(h.state().blocking.blocked_clients(), 0u);
}

TEST_F(ListBlockingTest, ServedRepliesInTheClientsProtocol) {
  CommandHarness::Client& c = h.NewClient();
  c.Run({"HELLO", "3"});
  EXPECT_EQ(c.Run({"BLPOP", "k", "0.01"}), "");
  h.AdvanceClock(11);
  EXPECT_EQ(c.TakeOutput(), "_\r\n");
  EXPECT_EQ(c.Run({"BLMPOP", "0", "1", "k", "LEFT", "COUNT", "2"}), "");
  EXPECT_EQ(h.Run({"RPUSH", "k", "1"}), Int(1));
  EXPECT_EQ(c.TakeOutput(), Arr({Bulk("k"), "*1\r\n" + Bulk("1")}));
}

}  // namespace
}  // namespace kv::test
