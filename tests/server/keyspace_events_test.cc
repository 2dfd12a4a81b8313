// Keyspace notifications through the real dispatcher: the classes of notify-keyspace-events,
// CONFIG GET's rendering, and the events of every string, bitmap, keyspace, hash, list, set,
// sorted set, geo and HyperLogLog command (served blocked clients included), of lazy and active
// expiry, eviction and key misses, with Redis's names and order.

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

// Only the keyevent channel: one message per event, named by the event.
std::string Ev(std::string_view event, std::string_view key) {
  return PMsg("__keyevent@0__:" + std::string(event), key);
}

TEST_F(KeyspaceEventsTest, ListCommands) {
  EXPECT_EQ(Events("KEl", {"RPUSH", "l", "a", "b", "c", "d"}), Both("rpush", "l"));
  EXPECT_EQ(Events("El", {"LPUSH", "l", "z"}), Ev("lpush", "l"));
  EXPECT_EQ(Events("El", {"LPUSHX", "nol", "z"}), "");
  EXPECT_EQ(Events("El", {"RPUSHX", "l", "y"}), Ev("rpush", "l"));
  EXPECT_EQ(Events("El", {"LINSERT", "l", "BEFORE", "a", "x"}), Ev("linsert", "l"));
  EXPECT_EQ(Events("El", {"LINSERT", "l", "BEFORE", "nope", "x"}), "");
  EXPECT_EQ(Events("El", {"LSET", "l", "0", "q"}), Ev("lset", "l"));
  EXPECT_EQ(Events("El", {"LREM", "l", "0", "nope"}), "");
  EXPECT_EQ(Events("El", {"LREM", "l", "0", "x"}), Ev("lrem", "l"));
  EXPECT_EQ(Events("El", {"LPOP", "l"}), Ev("lpop", "l"));
  EXPECT_EQ(Events("El", {"RPOP", "l", "2"}), Ev("rpop", "l"));
  EXPECT_EQ(Events("El", {"LPOP", "l", "0"}), "");
  EXPECT_EQ(Events("El", {"LMPOP", "2", "nol", "l", "LEFT"}), Ev("lpop", "l"));
  // LTRIM notifies even when it keeps everything.
  EXPECT_EQ(Events("El", {"LTRIM", "l", "0", "-1"}), Ev("ltrim", "l"));
  EXPECT_EQ(Events("El", {"LRANGE", "l", "0", "-1"}), "");
  // LMOVE: the destination's push, then the source's pop (and its deletion when emptied).
  h.Run({"DEL", "l"});
  h.Run({"RPUSH", "src", "1", "2"});
  EXPECT_EQ(Events("Elgn", {"LMOVE", "src", "dst", "LEFT", "RIGHT"}),
            Ev("new", "dst") + Ev("rpush", "dst") + Ev("lpop", "src"));
  EXPECT_EQ(Events("Elg", {"RPOPLPUSH", "src", "dst"}),
            Ev("lpush", "dst") + Ev("rpop", "src") + Ev("del", "src"));
  EXPECT_EQ(Events("Elg", {"LMOVE", "dst", "dst", "LEFT", "LEFT"}),
            Ev("lpush", "dst") + Ev("lpop", "dst"));
  // The last element gone: "del" after the list event.
  EXPECT_EQ(Events("Elg", {"RPOP", "dst", "5"}), Ev("rpop", "dst") + Ev("del", "dst"));
  h.Run({"RPUSH", "l", "a"});
  EXPECT_EQ(Events("Elg", {"LREM", "l", "1", "a"}), Ev("lrem", "l") + Ev("del", "l"));
  h.Run({"RPUSH", "l", "a"});
  EXPECT_EQ(Events("Elg", {"LTRIM", "l", "1", "0"}), Ev("ltrim", "l") + Ev("del", "l"));
  h.Run({"RPUSH", "l", "a"});
  EXPECT_EQ(Events("Elg", {"BLPOP", "l", "0"}), Ev("lpop", "l") + Ev("del", "l"));
  EXPECT_EQ(Events("Elg", {"LPUSH", "l", "1"}), Ev("lpush", "l"));
  EXPECT_EQ(Events("Elg", {"BLMPOP", "0", "1", "l", "RIGHT", "COUNT", "3"}),
            Ev("rpop", "l") + Ev("del", "l"));
}

TEST_F(KeyspaceEventsTest, ServedBlockedListClientsNotifyThePops) {
  CommandHarness::Client& blocked = h.NewClient();
  CommandHarness::Client& mover = h.NewClient();
  blocked.Run({"BLPOP", "q", "0"});
  mover.Run({"BLMOVE", "q2", "moved", "RIGHT", "LEFT", "0"});
  EXPECT_EQ(Events("Elg", {"RPUSH", "q", "a", "b"}), Ev("rpush", "q") + Ev("lpop", "q"));
  EXPECT_EQ(blocked.TakeOutput(), "*2\r\n" + Bulk("q") + Bulk("a"));
  EXPECT_EQ(Events("Elg", {"RPUSH", "q2", "x"}),
            Ev("rpush", "q2") + Ev("lpush", "moved") + Ev("rpop", "q2") + Ev("del", "q2"));
  EXPECT_EQ(mover.TakeOutput(), Bulk("x"));
}

TEST_F(KeyspaceEventsTest, SetCommands) {
  EXPECT_EQ(Events("KEs", {"SADD", "s", "1", "2", "3"}), Both("sadd", "s"));
  EXPECT_EQ(Events("Es", {"SADD", "s", "1"}), "");
  EXPECT_EQ(Events("Es", {"SREM", "s", "9"}), "");
  EXPECT_EQ(Events("Es", {"SREM", "s", "1"}), Ev("srem", "s"));
  EXPECT_EQ(Events("Esg", {"SMOVE", "s", "s", "2"}), "");
  EXPECT_EQ(Events("Esg", {"SMOVE", "s", "t", "9"}), "");
  EXPECT_EQ(Events("Esgn", {"SMOVE", "s", "t", "2"}),
            Ev("srem", "s") + Ev("new", "t") + Ev("sadd", "t"));
  h.Run({"SADD", "u", "3"});
  // The member already in the destination: no "sadd".
  EXPECT_EQ(Events("Esg", {"SMOVE", "s", "u", "3"}), Ev("srem", "s") + Ev("del", "s"));
  EXPECT_EQ(Events("Esg", {"SREM", "u", "3", "4"}), Ev("srem", "u") + Ev("del", "u"));
  h.Run({"SADD", "p", "1", "2", "3"});
  EXPECT_EQ(Events("Esg", {"SPOP", "p"}), Ev("spop", "p"));
  EXPECT_EQ(Events("Esg", {"SPOP", "p", "1"}), Ev("spop", "p"));
  EXPECT_EQ(Events("Esg", {"SPOP", "p", "0"}), "");
  EXPECT_EQ(Events("Esg", {"SPOP", "p", "5"}), Ev("spop", "p") + Ev("del", "p"));
  h.Run({"SADD", "p", "1"});
  EXPECT_EQ(Events("Esg", {"SPOP", "p"}), Ev("spop", "p") + Ev("del", "p"));
  h.Run({"SADD", "a", "1", "2"});
  h.Run({"SADD", "b", "2", "3"});
  EXPECT_EQ(Events("Esg", {"SINTERSTORE", "d", "a", "b"}), Ev("sinterstore", "d"));
  EXPECT_EQ(Events("Esg", {"SUNIONSTORE", "d", "a", "b"}), Ev("sunionstore", "d"));
  EXPECT_EQ(Events("Esg", {"SDIFFSTORE", "d", "a", "b"}), Ev("sdiffstore", "d"));
  // An empty result deletes the destination: only "del", and nothing without one.
  EXPECT_EQ(Events("Esg", {"SDIFFSTORE", "d", "a", "a"}), Ev("del", "d"));
  EXPECT_EQ(Events("Esg", {"SDIFFSTORE", "d", "a", "a"}), "");
  h.Run({"SADD", "d", "x"});
  EXPECT_EQ(Events("Esg", {"SINTERSTORE", "d", "a", "missing"}), Ev("del", "d"));
  EXPECT_EQ(Events("Esg", {"SINTER", "a", "b"}), "");
}

TEST_F(KeyspaceEventsTest, SortedSetCommands) {
  EXPECT_EQ(Events("KEz", {"ZADD", "z", "1", "a", "2", "b", "3", "c", "4", "d"}),
            Both("zadd", "z"));
  EXPECT_EQ(Events("Ez", {"ZADD", "z", "1", "a"}), "") << "nothing changed";
  EXPECT_EQ(Events("Ez", {"ZADD", "z", "XX", "5", "a"}), Ev("zadd", "z"));
  EXPECT_EQ(Events("Ez", {"ZADD", "nokey", "XX", "5", "a"}), "");
  EXPECT_EQ(Events("Ez", {"ZADD", "z", "INCR", "1", "a"}), Ev("zincr", "z"));
  EXPECT_EQ(Events("Ez", {"ZINCRBY", "z", "1", "a"}), Ev("zincr", "z"));
  EXPECT_EQ(Events("Ez", {"ZREM", "z", "nope"}), "");
  EXPECT_EQ(Events("Ez", {"ZREM", "z", "a"}), Ev("zrem", "z"));
  EXPECT_EQ(Events("Ez", {"ZPOPMIN", "z"}), Ev("zpopmin", "z"));
  EXPECT_EQ(Events("Ez", {"ZPOPMAX", "z", "0"}), "");
  h.Run({"ZADD", "z", "1", "a", "5", "e", "6", "f"});
  EXPECT_EQ(Events("Ez", {"ZREMRANGEBYRANK", "z", "0", "0"}), Ev("zremrangebyrank", "z"));
  EXPECT_EQ(Events("Ez", {"ZREMRANGEBYRANK", "z", "10", "20"}), "");
  EXPECT_EQ(Events("Ez", {"ZREMRANGEBYSCORE", "z", "5", "5"}), Ev("zremrangebyscore", "z"));
  EXPECT_EQ(Events("Ez", {"ZREMRANGEBYLEX", "z", "[a", "[a"}), "");
  EXPECT_EQ(Events("Ez", {"ZRANGESTORE", "r", "z", "0", "-1"}), Ev("zrangestore", "r"));
  EXPECT_EQ(Events("Ez", {"ZUNIONSTORE", "u", "2", "z", "r"}), Ev("zunionstore", "u"));
  EXPECT_EQ(Events("Ez", {"ZINTERSTORE", "u", "2", "z", "r"}), Ev("zinterstore", "u"));
  EXPECT_EQ(Events("Ezg", {"ZDIFFSTORE", "u", "2", "z", "r"}), Ev("del", "u"));
  EXPECT_EQ(Events("Ezg", {"ZRANGESTORE", "r", "z", "5", "9"}), Ev("del", "r"));
  EXPECT_EQ(Events("Ezg", {"ZMPOP", "2", "none", "z", "MAX", "COUNT", "9"}),
            Ev("zpopmax", "z") + Ev("del", "z"));
  h.Run({"ZADD", "z", "1", "a"});
  EXPECT_EQ(Events("Ezg", {"ZREM", "z", "a", "b"}), Ev("zrem", "z") + Ev("del", "z"));
  h.Run({"ZADD", "z", "1", "a"});
  EXPECT_EQ(Events("Ezg", {"ZREMRANGEBYSCORE", "z", "-inf", "+inf"}),
            Ev("zremrangebyscore", "z") + Ev("del", "z"));
  h.Run({"ZADD", "z", "1", "a"});
  EXPECT_EQ(Events("Ezg", {"BZPOPMAX", "z", "0"}), Ev("zpopmax", "z") + Ev("del", "z"));
}

TEST_F(KeyspaceEventsTest, ServedBlockedSortedSetClientsNotifyThePops) {
  CommandHarness::Client& blocked = h.NewClient();
  blocked.Run({"BZPOPMIN", "z", "0"});
  EXPECT_EQ(Events("Ezg", {"ZADD", "z", "1", "a"}),
            Ev("zadd", "z") + Ev("zpopmin", "z") + Ev("del", "z"));
  EXPECT_EQ(blocked.TakeOutput(), "*3\r\n" + Bulk("z") + Bulk("a") + Bulk("1"));
}

TEST_F(KeyspaceEventsTest, GeoCommands) {
  EXPECT_EQ(Events("KEz", {"GEOADD", "g", "13.361389", "38.115556", "Palermo", "15.087269",
                           "37.502669", "Catania"}),
            Both("zadd", "g"));
  EXPECT_EQ(Events("Ez", {"GEOADD", "g", "NX", "13.361389", "38.115556", "Palermo"}), "");
  EXPECT_EQ(
      Events("Ez", {"GEOSEARCHSTORE", "d", "g", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km"}),
      Ev("geosearchstore", "d"));
  EXPECT_EQ(Events("Ez", {"GEORADIUS", "g", "15", "37", "200", "km", "STORE", "d"}),
            Ev("georadiusstore", "d"));
  EXPECT_EQ(Events("Ez", {"GEORADIUSBYMEMBER", "g", "Palermo", "1", "km", "STOREDIST", "d"}),
            Ev("georadiusstore", "d"));
  EXPECT_EQ(
      Events("Ezg", {"GEOSEARCHSTORE", "d", "g", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km"}),
      Ev("del", "d"));
  h.Run({"SET", "d", "x"});
  EXPECT_EQ(Events("Ezg", {"GEOSEARCHSTORE", "d", "missing", "FROMLONLAT", "0", "0", "BYRADIUS",
                           "1", "km"}),
            Ev("del", "d"));
  EXPECT_EQ(Events("Ezg", {"GEOSEARCH", "g", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km"}),
            "");
}

TEST_F(KeyspaceEventsTest, HyperLogLogCommands) {
  EXPECT_EQ(Events("KE$n", {"PFADD", "h", "a", "b"}), Both("new", "h") + Both("pfadd", "h"));
  EXPECT_EQ(Events("E$", {"PFADD", "h", "a"}), "") << "no register changed";
  EXPECT_EQ(Events("E$", {"PFADD", "h2"}), Ev("pfadd", "h2")) << "created";
  EXPECT_EQ(Events("E$", {"PFMERGE", "h3", "h", "h2"}), Ev("pfadd", "h3"));
  EXPECT_EQ(Events("E$", {"PFMERGE", "h3"}), Ev("pfadd", "h3"));
  EXPECT_EQ(Events("A$KE", {"PFCOUNT", "h"}), "") << "a cache update is no event";
  EXPECT_EQ(Events("Em", {"PFCOUNT", "missing"}), Ev("keymiss", "missing"));
  EXPECT_EQ(Events("Em", {"PFCOUNT", "missing", "h"}), Ev("keymiss", "missing"));
}

TEST_F(KeyspaceEventsTest, SortStore) {
  h.Run({"RPUSH", "l", "3", "1", "2"});
  EXPECT_EQ(Events("KEln", {"SORT", "l", "STORE", "d"}), Both("new", "d") + Both("sortstore", "d"));
  EXPECT_EQ(Events("El", {"SORT", "l", "STORE", "d"}), Ev("sortstore", "d"));
  EXPECT_EQ(Events("Elg", {"SORT", "missing", "STORE", "d"}), Ev("del", "d"));
  EXPECT_EQ(Events("Elg", {"SORT", "missing", "STORE", "d"}), "");
  EXPECT_EQ(Events("Elg", {"SORT", "l"}), "");
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
