// The stream commands through the real dispatcher, on the harness's manual clock: ids from the
// server clock (never going back), replies and errors as Redis 7.0.15 sends them (checked with
// redis-cli against redis-server 7.0.15), consumer groups, and blocking XREAD/XREADGROUP.

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

// [id, [field, value, ...]]
std::string Entry(std::string_view id, std::initializer_list<std::string> fv) {
  std::string fields = "*" + std::to_string(fv.size()) + "\r\n";
  for (const std::string& f : fv) fields += Bulk(f);
  return "*2\r\n" + Bulk(id) + fields;
}

const std::string kInvalidId = Err("Invalid stream ID specified as stream command argument");

class StreamFamilyTest : public ::testing::Test {
 protected:
  CommandHarness h;
  std::string Now(int64_t plus_ms = 0) { return std::to_string(h.clock().NowMs() + plus_ms); }
};

TEST_F(StreamFamilyTest, AutoIdsFollowTheClockAndNeverGoBack) {
  const std::string t = Now();
  EXPECT_EQ(h.Run({"XADD", "s", "*", "f", "v"}), Bulk(t + "-0"));
  EXPECT_EQ(h.Run({"XADD", "s", "*", "f", "v"}), Bulk(t + "-1"));
  h.AdvanceClock(5);
  EXPECT_EQ(h.Run({"XADD", "s", "*", "f", "v"}), Bulk(Now() + "-0"));
  // The clock steps back: the last id's sequence goes on.
  const std::string later = Now();
  h.clock().Set(h.clock().NowMs() - 1000);
  EXPECT_EQ(h.Run({"XADD", "s", "*", "f", "v"}), Bulk(later + "-1"));
  EXPECT_EQ(h.Run({"XADD", "s", later + "-*", "f", "v"}), Bulk(later + "-2"));
  EXPECT_EQ(h.Run({"XLEN", "s"}), Int(5));
  EXPECT_EQ(h.Run({"TYPE", "s"}), "+stream\r\n");
  EXPECT_EQ(h.Run({"OBJECT", "ENCODING", "s"}), Bulk("stream"));
}

TEST_F(StreamFamilyTest, ExplicitIdsAndTheirErrors) {
  EXPECT_EQ(h.Run({"XADD", "s", "0-0", "f", "v"}),
            Err("The ID specified in XADD must be greater than 0-0"));
  EXPECT_EQ(h.Run({"EXISTS", "s"}), Int(0));
  EXPECT_EQ(h.Run({"XADD", "s", "5-5", "f", "v"}), Bulk("5-5"));
  EXPECT_EQ(h.Run({"XADD", "s", "5-5", "f", "v"}),
            Err("The ID specified in XADD is equal or smaller than the target stream top item"));
  EXPECT_EQ(h.Run({"XADD", "s", "5", "f", "v"}),
            Err("The ID specified in XADD is equal or smaller than the target stream top item"));
  EXPECT_EQ(h.Run({"XADD", "s", "5-*", "f", "v"}), Bulk("5-6"));
  EXPECT_EQ(h.Run({"XADD", "s", "6", "f", "v"}), Bulk("6-0"));
  EXPECT_EQ(h.Run({"XADD", "s", "18446744073709551616-0", "f", "v"}), kInvalidId);
  EXPECT_EQ(h.Run({"XADD", "s", "1-2-3", "f", "v"}), kInvalidId);
  EXPECT_EQ(h.Run({"XADD", "s", "-", "f", "v"}), kInvalidId);
  EXPECT_EQ(h.Run({"XADD", "s", "*", "f"}), Err("wrong number of arguments for 'xadd' command"));
  EXPECT_EQ(h.Run({"XADD", "s", "18446744073709551615-18446744073709551615", "f", "v"}),
            Bulk("18446744073709551615-18446744073709551615"));
  EXPECT_EQ(h.Run({"XADD", "s", "*", "f", "v"}),
            Err("The stream has exhausted the last possible ID, unable to add more items"));
  EXPECT_EQ(h.Run({"XADD", "nokey", "NOMKSTREAM", "*", "f", "v"}), kNil);
  EXPECT_EQ(h.Run({"EXISTS", "nokey"}), Int(0));
  h.Run({"SET", "str", "x"});
  EXPECT_EQ(h.Run({"XADD", "str", "*", "f", "v"}),
            "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
}

TEST_F(StreamFamilyTest, RangesCountsAndExclusiveBounds) {
  for (int i = 1; i <= 5; ++i) {
    h.Run({"XADD", "s", std::to_string(i) + "-1", "n", std::to_string(i)});
  }
  EXPECT_EQ(h.Run({"XRANGE", "s", "-", "+", "COUNT", "2"}),
            Arr({Entry("1-1", {"n", "1"}), Entry("2-1", {"n", "2"})}));
  EXPECT_EQ(h.Run({"XRANGE", "s", "(2-1", "4"}),
            Arr({Entry("3-1", {"n", "3"}), Entry("4-1", {"n", "4"})}));
  EXPECT_EQ(h.Run({"XREVRANGE", "s", "+", "(4-1", "COUNT", "5"}), Arr({Entry("5-1", {"n", "5"})}));
  EXPECT_EQ(h.Run({"XRANGE", "s", "-", "+", "COUNT", "0"}), "*-1\r\n");
  EXPECT_EQ(h.Run({"XRANGE", "s", "-", "+", "COUNT", "-3"}), "*-1\r\n");
  EXPECT_EQ(h.Run({"XRANGE", "nokey", "-", "+"}), "*0\r\n");
  EXPECT_EQ(h.Run({"XRANGE", "s", "(18446744073709551615-18446744073709551615", "+"}),
            Err("invalid start ID for the interval"));
  EXPECT_EQ(h.Run({"XRANGE", "s", "-", "(0-0"}), Err("invalid end ID for the interval"));
  EXPECT_EQ(h.Run({"XRANGE", "s", "(-", "+"}), kInvalidId);
  EXPECT_EQ(h.Run({"XRANGE", "s", "-", "+", "COUNT"}), Err("syntax error"));
  EXPECT_EQ(h.Run({"XRANGE", "s", "-", "+", "COUNT", "99999999999999999999"}),
            Err("value is not an integer or out of range"));
  EXPECT_EQ(h.Run({"XRANGE", "s", "-", "+", "COUNT", "9223372036854775807"}).substr(0, 4),
            "*5\r\n");
}

TEST_F(StreamFamilyTest, DeleteTrimAndSetId) {
  for (int i = 1; i <= 10; ++i) h.Run({"XADD", "s", std::to_string(i), "f", "v"});
  EXPECT_EQ(h.Run({"XDEL", "s", "3", "3-0", "99"}), Int(1));
  EXPECT_EQ(h.Run({"XDEL", "s", "1", "bad"}), kInvalidId);
  EXPECT_EQ(h.Run({"XLEN", "s"}), Int(9));
  EXPECT_EQ(h.Run({"XTRIM", "s", "MAXLEN", "5"}), Int(4));
  EXPECT_EQ(h.Run({"XRANGE", "s", "-", "+", "COUNT", "1"}), Arr({Entry("6-0", {"f", "v"})}));
  EXPECT_EQ(h.Run({"XTRIM", "s", "MINID", "8"}), Int(2));
  EXPECT_EQ(h.Run({"XTRIM", "s", "MAXLEN", "~", "0", "LIMIT", "1"}), Int(0));
  EXPECT_EQ(h.Run({"XTRIM", "s", "MAXLEN", "1", "LIMIT", "1"}),
            Err("syntax error, LIMIT cannot be used without the special ~ option"));
  EXPECT_EQ(h.Run({"XTRIM", "s", "MAXLEN", "1", "MINID", "1"}),
            Err("syntax error, MAXLEN and MINID options at the same time are not compatible"));
  EXPECT_EQ(h.Run({"XTRIM", "s", "LIMIT", "1"}),
            Err("syntax error, LIMIT cannot be used without specifying a trimming strategy"));
  EXPECT_EQ(h.Run({"XTRIM", "s", "MAXLEN", "-1"}), Err("The MAXLEN argument must be >= 0."));
  EXPECT_EQ(h.Run({"XTRIM", "s", "FOO", "1"}), Err("syntax error"));
  EXPECT_EQ(h.Run({"XTRIM", "s", "MAXLEN", "0"}), Int(3));
  // An empty stream stays (Redis never deletes a stream for being empty).
  EXPECT_EQ(h.Run({"EXISTS", "s"}), Int(1));
  // Empty, it takes an id below its last one.
  EXPECT_EQ(h.Run({"XSETID", "s", "5"}), kOk);
  EXPECT_EQ(h.Run({"XSETID", "nokey", "5"}), Err("no such key"));
  h.Run({"XADD", "t", "10", "f", "v"});
  EXPECT_EQ(h.Run({"XSETID", "t", "9"}),
            Err("The ID specified in XSETID is smaller than the target stream top item"));
  EXPECT_EQ(h.Run({"XSETID", "t", "20", "ENTRIESADDED", "0"}),
            Err("The entries_added specified in XSETID is smaller than the target stream length"));
  EXPECT_EQ(h.Run({"XSETID", "t", "20", "MAXDELETEDID", "30"}),
            Err("The ID specified in XSETID is smaller than the provided max_deleted_entry_id"));
  EXPECT_EQ(h.Run({"XSETID", "t", "20", "ENTRIESADDED", "-1"}),
            Err("entries_added must be positive"));
  EXPECT_EQ(h.Run({"XSETID", "t", "20", "ENTRIESADDED", "7", "MAXDELETEDID", "15"}), kOk);
  EXPECT_EQ(h.Run({"XADD", "t", "19", "f", "v"}),
            Err("The ID specified in XADD is equal or smaller than the target stream top item"));
}

TEST_F(StreamFamilyTest, GroupsReadAckPendingAndClaim) {
  EXPECT_EQ(h.Run({"XGROUP", "CREATE", "s", "g", "$"}),
            Err("The XGROUP subcommand requires the key to exist. Note that for CREATE you may "
                "want to use the MKSTREAM option to create an empty stream automatically."));
  EXPECT_EQ(h.Run({"XGROUP", "CREATE", "s", "g", "$", "MKSTREAM"}), kOk);
  EXPECT_EQ(h.Run({"XGROUP", "CREATE", "s", "g", "$"}),
            "-BUSYGROUP Consumer Group name already exists\r\n");
  for (int i = 1; i <= 3; ++i) h.Run({"XADD", "s", std::to_string(i), "f", std::to_string(i)});
  EXPECT_EQ(h.Run({"XREADGROUP", "GROUP", "g", "alice", "COUNT", "2", "STREAMS", "s", ">"}),
            Arr({Arr({Bulk("s"), Arr({Entry("1-0", {"f", "1"}), Entry("2-0", {"f", "2"})})})}));
  h.AdvanceClock(100);
  EXPECT_EQ(h.Run({"XREADGROUP", "GROUP", "g", "bob", "STREAMS", "s", ">"}),
            Arr({Arr({Bulk("s"), Arr({Entry("3-0", {"f", "3"})})})}));
  EXPECT_EQ(h.Run({"XREADGROUP", "GROUP", "g", "bob", "STREAMS", "s", ">"}), "*-1\r\n");
  // History: the consumer's own pending entries; delivery counts go up.
  EXPECT_EQ(h.Run({"XREADGROUP", "GROUP", "g", "alice", "STREAMS", "s", "0"}),
            Arr({Arr({Bulk("s"), Arr({Entry("1-0", {"f", "1"}), Entry("2-0", {"f", "2"})})})}));
  EXPECT_EQ(h.Run({"XPENDING", "s", "g"}),
            Arr({Int(3), Bulk("1-0"), Bulk("3-0"),
                 Arr({Arr({Bulk("alice"), Bulk("2")}), Arr({Bulk("bob"), Bulk("1")})})}));
  EXPECT_EQ(h.Run({"XPENDING", "s", "g", "-", "+", "10", "bob"}),
            Arr({Arr({Bulk("3-0"), Bulk("bob"), Int(0), Int(1)})}));
  h.AdvanceClock(50);
  EXPECT_EQ(h.Run({"XPENDING", "s", "g", "IDLE", "100", "-", "+", "10"}), "*0\r\n");
  EXPECT_EQ(h.Run({"XPENDING", "s", "g", "-", "+", "1"}),
            Arr({Arr({Bulk("1-0"), Bulk("alice"), Int(50), Int(2)})}));
  EXPECT_EQ(h.Run({"XACK", "s", "g", "1", "1", "9"}), Int(1));
  EXPECT_EQ(h.Run({"XACK", "s", "nogroup", "2"}), Int(0));
  // XCLAIM: bob takes 2-0 (idle 50 >= 10); JUSTID leaves the count alone.
  EXPECT_EQ(h.Run({"XCLAIM", "s", "g", "bob", "10", "2", "JUSTID"}), Arr({Bulk("2-0")}));
  EXPECT_EQ(h.Run({"XCLAIM", "s", "g", "bob", "1000", "2"}), "*0\r\n");
  EXPECT_EQ(h.Run({"XCLAIM", "s", "g", "bob", "0", "2", "RETRYCOUNT", "7"}),
            Arr({Entry("2-0", {"f", "2"})}));
  EXPECT_EQ(h.Run({"XCLAIM", "s", "g", "bob", "0", "2", "BOGUS"}),
            Err("Unrecognized XCLAIM option 'BOGUS'"));
  EXPECT_EQ(h.Run({"XCLAIM", "s", "nog", "bob", "0", "2"}),
            "-NOGROUP No such key 's' or consumer group 'nog'\r\n");
  // A pending entry deleted from the stream: XAUTOCLAIM reports it and drops it.
  h.Run({"XDEL", "s", "3"});
  EXPECT_EQ(h.Run({"XAUTOCLAIM", "s", "g", "carol", "0", "0-0"}),
            Arr({Bulk("0-0"), Arr({Entry("2-0", {"f", "2"})}), Arr({Bulk("3-0")})}));
  EXPECT_EQ(h.Run({"XAUTOCLAIM", "s", "g", "carol", "0", "0", "COUNT", "0"}),
            Err("COUNT must be > 0"));
  EXPECT_EQ(h.Run({"XGROUP", "DELCONSUMER", "s", "g", "carol"}), Int(1));
  EXPECT_EQ(h.Run({"XGROUP", "CREATECONSUMER", "s", "g", "dave"}), Int(1));
  EXPECT_EQ(h.Run({"XGROUP", "CREATECONSUMER", "s", "g", "dave"}), Int(0));
  EXPECT_EQ(h.Run({"XGROUP", "SETID", "s", "nog", "0"}),
            "-NOGROUP No such consumer group 'nog' for key name 's'\r\n");
  EXPECT_EQ(h.Run({"XGROUP", "DESTROY", "s", "g"}), Int(1));
  EXPECT_EQ(h.Run({"XGROUP", "DESTROY", "s", "g"}), Int(0));
  EXPECT_EQ(h.Run({"XREADGROUP", "GROUP", "g", "a", "STREAMS", "s", ">"}),
            "-NOGROUP No such key 's' or consumer group 'g' in XREADGROUP with GROUP option\r\n");
  EXPECT_EQ(h.Run({"XREAD", "STREAMS", "s", ">"}),
            Err("The > ID can be specified only when calling XREADGROUP using the GROUP <group> "
                "<consumer> option."));
}

TEST_F(StreamFamilyTest, InfoGroupsAndConsumers) {
  h.Run({"XADD", "s", "1", "a", "1"});
  h.Run({"XADD", "s", "2", "b", "2"});
  h.Run({"XGROUP", "CREATE", "s", "g", "0"});
  h.Run({"XREADGROUP", "GROUP", "g", "c", "COUNT", "1", "STREAMS", "s", ">"});
  EXPECT_EQ(h.Run({"XINFO", "GROUPS", "s"}),
            Arr({Arr({Bulk("name"), Bulk("g"), Bulk("consumers"), Int(1), Bulk("pending"), Int(1),
                      Bulk("last-delivered-id"), Bulk("1-0"), Bulk("entries-read"), Int(1),
                      Bulk("lag"), Int(1)})}));
  h.AdvanceClock(7);
  EXPECT_EQ(h.Run({"XINFO", "CONSUMERS", "s", "g"}),
            Arr({Arr({Bulk("name"), Bulk("c"), Bulk("pending"), Int(1), Bulk("idle"), Int(7)})}));
  const std::string info = h.Run({"XINFO", "STREAM", "s"});
  EXPECT_NE(info.find(Bulk("first-entry") + Entry("1-0", {"a", "1"})), std::string::npos);
  EXPECT_NE(info.find(Bulk("last-entry") + Entry("2-0", {"b", "2"})), std::string::npos);
  EXPECT_EQ(h.Run({"XINFO", "STREAM", "s", "FULL", "COUNT"}),
            Err("unknown subcommand or wrong number of arguments for 'STREAM'. Try XINFO HELP."));
  EXPECT_EQ(h.Run({"XINFO", "STREAM", "nokey"}), Err("no such key"));
}

TEST_F(StreamFamilyTest, CopyRenameAndMemory) {
  h.Run({"XADD", "s", "1", "a", "1"});
  h.Run({"XGROUP", "CREATE", "s", "g", "0"});
  h.Run({"XREADGROUP", "GROUP", "g", "c", "STREAMS", "s", ">"});
  EXPECT_EQ(h.Run({"COPY", "s", "t"}), Int(1));
  EXPECT_EQ(h.Run({"XACK", "t", "g", "1"}), Int(1));
  EXPECT_EQ(h.Run({"XPENDING", "s", "g"}).substr(0, 8), "*4\r\n:1\r\n");  // the original keeps it
  EXPECT_EQ(h.Run({"RENAME", "t", "u"}), kOk);
  EXPECT_EQ(h.Run({"XLEN", "u"}), Int(1));
  const std::string mem = h.Run({"MEMORY", "USAGE", "s"});
  ASSERT_EQ(mem[0], ':');
  EXPECT_GT(std::stol(mem.substr(1)), 20);
}

TEST_F(StreamFamilyTest, BlockingXReadServedByXAdd) {
  CommandHarness::Client& c1 = h.NewClient();
  CommandHarness::Client& c2 = h.NewClient();
  h.Run({"XADD", "s", "1", "f", "old"});
  EXPECT_EQ(c1.Run({"XREAD", "BLOCK", "0", "STREAMS", "s", "$"}), "");
  EXPECT_EQ(c2.Run({"XREAD", "COUNT", "1", "BLOCK", "0", "STREAMS", "other", "s", "0", "$"}), "");
  EXPECT_EQ(h.state().blocking.blocked_clients(), 2u);
  h.Run({"XADD", "s", "2", "f", "new"});
  const std::string served = Arr({Arr({Bulk("s"), Arr({Entry("2-0", {"f", "new"})})})});
  EXPECT_EQ(c1.TakeOutput(), served);
  EXPECT_EQ(c2.TakeOutput(), served);
  EXPECT_EQ(h.state().blocking.blocked_clients(), 0u);
  // A timeout replies a null array.
  EXPECT_EQ(c1.Run({"XREAD", "BLOCK", "100", "STREAMS", "s", "$"}), "");
  h.AdvanceClock(101);
  EXPECT_EQ(c1.TakeOutput(), "*-1\r\n");
  EXPECT_EQ(c1.Run({"XREAD", "BLOCK", "-1", "STREAMS", "s", "$"}), Err("timeout is negative"));
  EXPECT_EQ(c1.Run({"XREAD", "BLOCK", "x", "STREAMS", "s", "$"}),
            Err("timeout is not an integer or out of range"));
  // Where a client may not block, an empty read replies at once.
  c1.conn().deny_blocking = true;
  EXPECT_EQ(c1.Run({"XREAD", "BLOCK", "0", "STREAMS", "s", "$"}), "*-1\r\n");
  c1.conn().deny_blocking = false;
}

TEST_F(StreamFamilyTest, BlockingXReadGroupFirstComeFirstServed) {
  h.Run({"XGROUP", "CREATE", "s", "g", "$", "MKSTREAM"});
  CommandHarness::Client& c1 = h.NewClient();
  CommandHarness::Client& c2 = h.NewClient();
  CommandHarness::Client& c3 = h.NewClient();
  EXPECT_EQ(c1.Run({"XREADGROUP", "GROUP", "g", "a", "BLOCK", "0", "STREAMS", "s", ">"}), "");
  EXPECT_EQ(c2.Run({"XREADGROUP", "GROUP", "g", "b", "BLOCK", "0", "STREAMS", "s", ">"}), "");
  EXPECT_EQ(c3.Run({"XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "s", ">"}), "");
  h.Run({"XADD", "s", "1", "f", "v"});
  EXPECT_EQ(c1.TakeOutput(), Arr({Arr({Bulk("s"), Arr({Entry("1-0", {"f", "v"})})})}));
  EXPECT_EQ(c2.TakeOutput(), "");  // the group already delivered it: b waits on
  h.Run({"XADD", "s", "2", "f", "w"});
  EXPECT_EQ(c2.TakeOutput(), Arr({Arr({Bulk("s"), Arr({Entry("2-0", {"f", "w"})})})}));
  EXPECT_EQ(h.Run({"XPENDING", "s", "g"}).substr(0, 8), "*4\r\n:2\r\n");
  // The group destroyed while c3 waits: Redis's error.
  h.Run({"XGROUP", "DESTROY", "s", "g"});
  EXPECT_EQ(c3.TakeOutput(),
            "-NOGROUP the consumer group this client was blocked on no longer exists\r\n");
  EXPECT_EQ(h.state().blocking.blocked_clients(), 0u);
}

TEST_F(StreamFamilyTest, BlockedXReadGroupFailsWhenTheKeyGoes) {
  CommandHarness::Client& c1 = h.NewClient();
  CommandHarness::Client& c2 = h.NewClient();
  CommandHarness::Client& c3 = h.NewClient();
  h.Run({"XGROUP", "CREATE", "s", "g", "$", "MKSTREAM"});
  EXPECT_EQ(c1.Run({"XREADGROUP", "GROUP", "g", "a", "BLOCK", "0", "STREAMS", "s", ">"}), "");
  EXPECT_EQ(c2.Run({"XREAD", "BLOCK", "0", "STREAMS", "s", "$"}), "");
  h.Run({"DEL", "s"});
  EXPECT_EQ(c1.TakeOutput(), "-UNBLOCKED the stream key no longer exists\r\n");
  EXPECT_EQ(c2.TakeOutput(), "");  // a plain XREAD waits on
  h.Run({"XGROUP", "CREATE", "s", "g", "$", "MKSTREAM"});
  EXPECT_EQ(c3.Run({"XREADGROUP", "GROUP", "g", "a", "BLOCK", "0", "STREAMS", "s", ">"}), "");
  h.Run({"SET", "s", "x"});
  EXPECT_EQ(c3.TakeOutput(), "-UNBLOCKED the stream key no longer exists\r\n");
  EXPECT_EQ(h.state().blocking.blocked_clients(), 1u);
  h.Run({"DEL", "s"});
  h.Run({"XADD", "s", "1", "f", "v"});
  EXPECT_EQ(c2.TakeOutput(), "*1\r\n*2\r\n$1\r\ns\r\n*1\r\n" + Entry("1-0", {"f", "v"}));
}

}  // namespace
}  // namespace kv::test
