// Keyspace notifications through the real dispatcher: the classes of notify-keyspace-events,
// CONFIG GET's rendering, and the events of every string, bitmap and keyspace command, of lazy and
// active expiry, eviction and key misses, with Redis's names and order.

#include "server/keyspace_events.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

std::string PMsg(std::string_view channel, std::string_view message) {
  return "*4\r\n" + Bulk("pmessage") + Bulk("*") + Bulk(channel) + Bulk(message);
}
// A keyspace and a keyevent message for `event` on `key` of database 0.
std::string Both(std::string_view event, std::string_view key, int db = 0) {
  const std::string d = std::to_string(db);
  return PMsg("__keyspace@" + d + "__:" + std::string(key), event) +
         PMsg("__keyevent@" + d + "__:" + std::string(event), key);
}

class KeyspaceEventsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    listener = &h.NewClient();
    listener->Run({"PSUBSCRIBE", "*"});
  }
  // Enables `classes`, runs `cmd` and returns what the listener received.
  std::string Events(std::string_view classes, const std::vector<std::string>& cmd) {
    h.Run({"CONFIG", "SET", "notify-keyspace-events", classes});
    listener->TakeOutput();
    h.Run(cmd);
    return listener->TakeOutput();
  }

  CommandHarness h;
  CommandHarness::Client* listener = nullptr;
};

TEST(KeyspaceEventsFlagsTest, ParseAndFormatAsRedis) {
  EXPECT_EQ(FormatKeyspaceEvents(*ParseKeyspaceEvents("gKE")), "gKE");
  EXPECT_EQ(FormatKeyspaceEvents(*ParseKeyspaceEvents("$lshzxeKE")), "$lshzxeKE");
  EXPECT_EQ(FormatKeyspaceEvents(*ParseKeyspaceEvents("KA")), "AK");
  EXPECT_EQ(FormatKeyspaceEvents(*ParseKeyspaceEvents("EA")), "AE");
  EXPECT_EQ(FormatKeyspaceEvents(*ParseKeyspaceEvents("mKEn")), "nKEm");
  // 'n' is outside 'A' and, as in Redis, not shown beside it.
  EXPECT_EQ(FormatKeyspaceEvents(*ParseKeyspaceEvents("AnK")), "AK");
  EXPECT_EQ(FormatKeyspaceEvents(*ParseKeyspaceEvents("")), "");
  EXPECT_EQ(ParseKeyspaceEvents("Kq"), std::nullopt);
  EXPECT_EQ(*ParseKeyspaceEvents("A"), static_cast<uint32_t>(kNotifyAll));
}

TEST_F(KeyspaceEventsTest, ConfigSetAndGet) {
  EXPECT_EQ(h.Run({"CONFIG", "SET", "notify-keyspace-events", "KA"}), kOk);
  EXPECT_EQ(h.Run({"CONFIG", "GET", "notify-keyspace-events"}),
            "*2\r\n" + Bulk("notify-keyspace-events") + Bulk("AK"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "notify-keyspace-events", "KZ"}),
            Err("CONFIG SET failed (possibly related to argument 'notify-keyspace-events') - "
                "Invalid event class character. Use 'Ag$lshzxeKEtmdn'."));
}

TEST_F(KeyspaceEventsTest, NothingWithoutKeyspaceOrKeyeventChannels) {
  EXPECT_EQ(Events("A", {"SET", "k", "v"}), "");
  EXPECT_EQ(Events("K", {"SET", "k", "v"}), "") << "no class";
  EXPECT_EQ(Events("Kg", {"SET", "k", "v"}), "") << "set is a string event";
}

TEST_F(KeyspaceEventsTest, StringCommands) {
  EXPECT_EQ(Events("KEA", {"SET", "k", "v"}), Both("set", "k"));
  EXPECT_EQ(Events("KEA", {"SET", "k", "v", "EX", "100"}), Both("set", "k") + Both("expire", "k"));
  EXPECT_EQ(Events("KEA", {"SET", "k", "v", "NX"}), "");
  EXPECT_EQ(Events("KEA", {"SETEX", "k", "10", "v"}), Both("set", "k") + Both("expire", "k"));
  EXPECT_EQ(Events("KEA", {"SETNX", "k2", "v"}), Both("set", "k2"));
  EXPECT_EQ(Events("KEA", {"MSET", "a", "1", "b", "2"}), Both("set", "a") + Both("set", "b"));
  EXPECT_EQ(Events("KEA", {"GETSET", "a", "3"}), Both("set", "a"));
  EXPECT_EQ(Events("KEA", {"INCR", "a"}), Both("incrby", "a"));
  EXPECT_EQ(Events("KEA", {"DECRBY", "a", "2"}), Both("incrby", "a"));
  EXPECT_EQ(Events("KEA", {"INCRBYFLOAT", "a", "1.5"}), Both("incrbyfloat", "a"));
  EXPECT_EQ(Events("KEA", {"APPEND", "a", "x"}), Both("append", "a"));
  EXPECT_EQ(Events("KEA", {"SETRANGE", "a", "1", "y"}), Both("setrange", "a"));
  EXPECT_EQ(Events("KEA", {"SETRANGE", "a", "1", ""}), "");
  EXPECT_EQ(Events("KEA", {"GETDEL", "a"}), Both("del", "a"));
  EXPECT_EQ(Events("KEA", {"GETEX", "b", "PX", "1000"}), Both("expire", "b"));
  EXPECT_EQ(Events("KEA", {"GETEX", "b", "PERSIST"}), Both("persist", "b"));
  EXPECT_EQ(Events("KEA", {"GETEX", "b", "PERSIST"}), "");
  EXPECT_EQ(Events("KEA", {"GETEX", "b", "PXAT", "1"}), Both("del", "b"));
  EXPECT_EQ(Events("KEA", {"SETBIT", "bits", "3", "1"}), Both("setbit", "bits"));
  EXPECT_EQ(Events("KEA", {"SETBIT", "bits", "3", "1"}), "") << "no change";
  EXPECT_EQ(Events("KEA", {"BITFIELD", "bits", "SET", "u8", "0", "255", "GET", "u8", "0"}),
            Both("setbit", "bits"));
  EXPECT_EQ(Events("KEA", {"BITOP", "NOT", "dest", "bits"}), Both("set", "dest"));
  EXPECT_EQ(Events("KEA", {"BITOP", "AND", "dest", "nothing"}), Both("del", "dest"));
  EXPECT_EQ(Events("KEA", {"INCR", "k"}), "") << "WRONGTYPE-like errors notify nothing";
}

TEST_F(KeyspaceEventsTest, GenericCommands) {
  h.Run({"MSET", "a", "1", "b", "2", "c", "3"});
  EXPECT_EQ(Events("KEg", {"DEL", "a", "nope", "b"}), Both("del", "a") + Both("del", "b"));
  EXPECT_EQ(Events("KEg", {"UNLINK", "c"}), Both("del", "c"));
  h.Run({"SET", "a", "1"});
  EXPECT_EQ(Events("KEg", {"EXPIRE", "a", "100"}), Both("expire", "a"));
  EXPECT_EQ(Events("KEg", {"EXPIRE", "a", "100", "NX"}), "");
  EXPECT_EQ(Events("KEg", {"PERSIST", "a"}), Both("persist", "a"));
  EXPECT_EQ(Events("KEg", {"PEXPIREAT", "a", "1"}), Both("del", "a"));
  h.Run({"SET", "a", "1"});
  EXPECT_EQ(Events("KEg", {"RENAME", "a", "b"}), Both("rename_from", "a") + Both("rename_to", "b"));
  EXPECT_EQ(Events("KEg", {"COPY", "b", "c"}), Both("copy_to", "c"));
  EXPECT_EQ(Events("KEg", {"MOVE", "c", "5"}), Both("move_from", "c") + Both("move_to", "c", 5));
  EXPECT_EQ(Events("KEg", {"COPY", "b", "c", "DB", "7"}), Both("copy_to", "c", 7));
  EXPECT_EQ(Events("KEA", {"FLUSHALL"}), "") << "Redis 7.0 notifies no flush";
}

TEST_F(KeyspaceEventsTest, HashCommands) {
  EXPECT_EQ(Events("KEh", {"HSET", "h", "a", "1", "b", "2"}), Both("hset", "h"));
  EXPECT_EQ(Events("KEh", {"HSETNX", "h", "a", "1"}), "");
  EXPECT_EQ(Events("KEh", {"HSETNX", "h", "c", "1"}), Both("hset", "h"));
  EXPECT_EQ(Events("KEh", {"HMSET", "h", "a", "3"}), Both("hset", "h"));
  EXPECT_EQ(Events("KEh", {"HINCRBY", "h", "a", "1"}), Both("hincrby", "h"));
  EXPECT_EQ(Events("KEh", {"HINCRBYFLOAT", "h", "a", "1.5"}), Both("hincrbyfloat", "h"));
  EXPECT_EQ(Events("KEh", {"HDEL", "h", "nope"}), "");
  EXPECT_EQ(Events("KEh", {"HDEL", "h", "a", "b"}), Both("hdel", "h"));
  // The last field gone: the key is deleted after the hash event.
  EXPECT_EQ(Events("KEhg", {"HDEL", "h", "c"}), Both("hdel", "h") + Both("del", "h"));
  EXPECT_EQ(Events("Enh", {"HSET", "h2", "f", "v"}),
            PMsg("__keyevent@0__:new", "h2") + PMsg("__keyevent@0__:hset", "h2"));
  EXPECT_EQ(Events("Em", {"HGET", "missing", "f"}), PMsg("__keyevent@0__:keymiss", "missing"));
}

TEST_F(KeyspaceEventsTest, NewKeysComeBeforeTheCommandsEvent) {
  EXPECT_EQ(Events("En", {"SET", "k", "v"}), PMsg("__keyevent@0__:new", "k"));
  EXPECT_EQ(Events("En", {"SET", "k", "w"}), "") << "an overwrite is no new key";
  EXPECT_EQ(Events("E$n", {"INCR", "n"}),
            PMsg("__keyevent@0__:new", "n") + PMsg("__keyevent@0__:incrby", "n"));
  // RENAME over an existing key deletes it and adds the key anew, as Redis.
  h.Run({"SET", "x", "1"});
  EXPECT_EQ(Events("Eng", {"RENAME", "k", "x"}), PMsg("__keyevent@0__:new", "x") +
                                                     PMsg("__keyevent@0__:rename_from", "k") +
                                                     PMsg("__keyevent@0__:rename_to", "x"));
  EXPECT_EQ(Events("En", {"SETRANGE", "nokey", "0", ""}), "");
}

TEST_F(KeyspaceEventsTest, ExpiryLazyAndActive) {
  h.Run({"SET", "a", "1", "PX", "100"});
  h.Run({"SET", "b", "1", "PX", "100"});
  h.Run({"CONFIG", "SET", "notify-keyspace-events", "KEx"});
  listener->TakeOutput();
  h.AdvanceClock(200);
  // Lazy: a read of the expired key deletes it.
  EXPECT_EQ(h.Run({"GET", "a"}), kNil);
  EXPECT_EQ(listener->TakeOutput(), Both("expired", "a"));
  // Active expiry.
  h.state().dbs.ActiveExpireAll(h.clock().NowMs());
  EXPECT_EQ(listener->TakeOutput(), Both("expired", "b"));
  // A write over an expired key expires it first.
  h.Run({"SET", "c", "1", "PX", "100"});
  h.AdvanceClock(200);
  EXPECT_EQ(Events("Exn$", {"MSET", "c", "2"}), PMsg("__keyevent@0__:expired", "c") +
                                                    PMsg("__keyevent@0__:new", "c") +
                                                    PMsg("__keyevent@0__:set", "c"));
}

TEST_F(KeyspaceEventsTest, KeyMisses) {
  h.Run({"SET", "here", "1"});
  EXPECT_EQ(Events("Em", {"GET", "nope"}), PMsg("__keyevent@0__:keymiss", "nope"));
  EXPECT_EQ(Events("Em", {"GET", "here"}), "");
  EXPECT_EQ(Events("Em", {"MGET", "here", "x", "y"}),
            PMsg("__keyevent@0__:keymiss", "x") + PMsg("__keyevent@0__:keymiss", "y"));
  EXPECT_EQ(Events("Em", {"EXISTS", "x"}), PMsg("__keyevent@0__:keymiss", "x"));
  EXPECT_EQ(Events("Em", {"TYPE", "x"}), PMsg("__keyevent@0__:keymiss", "x"));
  EXPECT_EQ(Events("Em", {"TTL", "x"}), PMsg("__keyevent@0__:keymiss", "x"));
  EXPECT_EQ(Events("Em", {"OBJECT", "ENCODING", "x"}), "") << "OBJECT does not notify";
  // Write lookups are not misses.
  EXPECT_EQ(Events("Em", {"INCR", "x"}), "");
  EXPECT_EQ(Events("Em", {"DEL", "y"}), "");
}

TEST_F(KeyspaceEventsTest, EvictionNotifies) {
  h.Run({"SET", "k", "v"});
  h.Run({"CONFIG", "SET", "maxmemory-policy", "allkeys-random"});
  h.Run({"CONFIG", "SET", "notify-keyspace-events", "Ee"});
  listener->TakeOutput();
  h.Run({"CONFIG", "SET", "maxmemory", "1"});
  h.Run({"PING"});  // eviction runs before a command
  EXPECT_EQ(listener->TakeOutput(), PMsg("__keyevent@0__:evicted", "k"));
  h.Run({"CONFIG", "SET", "maxmemory", "0"});
}

TEST_F(KeyspaceEventsTest, OtherDatabasesNameTheirNumber) {
  h.Run({"SELECT", "9"});
  EXPECT_EQ(Events("KE$", {"SET", "k", "v"}), Both("set", "k", 9));
}

TEST_F(KeyspaceEventsTest, Resp3SubscriberSeesItsOwnEventsBeforeTheReply) {
  h.Run({"CONFIG", "SET", "notify-keyspace-events", "E$"});
  h.Run({"HELLO", "3"});
  h.Run({"SUBSCRIBE", "__keyevent@0__:set"});
  EXPECT_EQ(h.Run({"SET", "k", "v"}),
            ">3\r\n" + Bulk("message") + Bulk("__keyevent@0__:set") + Bulk("k") + kOk);
}

}  // namespace
}  // namespace kv::test
