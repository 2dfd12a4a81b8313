// Keyspace notifications against the real redis-server: a listener subscribed to every keyspace
// and keyevent channel (PSUBSCRIBE *) while another client runs seeded random commands of every
// family kvserver has (strings, bitmaps, keyspace, hashes, lists with their blocking pops, sets,
// sorted sets, geo, HyperLogLog, streams with their consumer groups), under random
// notify-keyspace-events classes (K, E, every type class, x, e, m, n, A); after each command the
// listener's messages must equal Redis's, in Redis's order. Blocked clients being served are
// scripted in ServedBlockedClients. Expiry runs in a scripted test (a TTL passing is timing, not
// order).
//   KV_EVENTS_DIFF_SEED=<seed>       replays one sequence
//   KV_EVENTS_DIFF_BASE_SEED=<seed>  replays a whole run
//   KV_EVENTS_DIFF_SEQUENCES=<n>     changes how many sequences run (default 150)

#include <algorithm>
#include <chrono>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/paired_clients.h"

namespace kv::test {
namespace {

constexpr size_t kListener = 0;
constexpr size_t kWriter = 1;

class Generator : public RandomChoices {
 public:
  using RandomChoices::RandomChoices;

  std::string Key() { return Pick({"a", "b", "c", "n"}); }
  // Keys of the aggregate commands: mostly their own (so that they mostly succeed), sometimes
  // another type's (WRONGTYPE notifies nothing).
  std::string KeyOf(const char* own) { return Percent(80) ? Pick({own, "t"}) : Key(); }
  std::string Member() { return Pick({"1", "2", "3", "x"}); }
  std::string Score() { return Pick({"1", "2", "-3", "+inf"}); }
  std::string Lon() { return Pick({"13.361389", "15.087269", "2.35"}); }
  std::string Lat() { return Pick({"38.115556", "37.502669", "48.85"}); }
  std::string Classes() {
    // Always at least one channel kind, and some classes.
    std::string c = Pick({"K", "E", "KE"});
    for (const char* cls : {"g", "$", "l", "s", "h", "z", "x", "e", "t", "m", "n", "A", "d"}) {
      if (Percent(35)) c += cls;
    }
    return c;
  }

  // Streams, with explicit ids (a "*" id is the server's clock, which differs between the two).
  std::string StreamId() { return Pick({"1", "2-*", "3-1", "4-*", "5", "0-1", "9-9"}); }
  std::string Group() { return Pick({"g", "h"}); }
  std::string Consumer() { return Pick({"c1", "c2"}); }
  Args StreamCommand() {
    switch (Uniform(16)) {
      case 0:
      case 1:
        return {"XADD", KeyOf("x"), StreamId(), "f", Member()};
      case 2:
        return {"XADD",
                KeyOf("x"),
                Pick({"NOMKSTREAM", "MAXLEN", "MINID"}),
                Pick({"1", "3-0", "0"}),
                StreamId(),
                "f",
                "v"};
      case 3:
        return {"XADD", KeyOf("x"), "MAXLEN", "~", "1", StreamId(), "f", "v"};
      case 4:
        return {"XTRIM", KeyOf("x"), Pick({"MAXLEN", "MINID"}), Pick({"=", "~"}),
                Pick({"0", "1", "3-1", "9"})};
      case 5:
        return {"XDEL", KeyOf("x"), StreamId(), Pick({"1-0", "5-0"})};
      case 6:
        return {"XSETID", KeyOf("x"), Pick({"9-9", "0-1", "20"})};
      case 7:
        return {"XGROUP",
                "CREATE",
                KeyOf("x"),
                Group(),
                Pick({"$", "0"}),
                Pick({"MKSTREAM", "ENTRIESREAD"}),
                Pick({"1", "MKSTREAM"})};
      case 8:
        return {"XGROUP", "CREATE", KeyOf("x"), Group(), Pick({"$", "0"})};
      case 9:
        return {"XGROUP", Pick({"SETID", "DESTROY"}), KeyOf("x"), Group(), Pick({"$", "0"})};
      case 10:
        return {"XGROUP", "DESTROY", KeyOf("x"), Group()};
      case 11:
        return {"XGROUP", Pick({"CREATECONSUMER", "DELCONSUMER"}), KeyOf("x"), Group(), Consumer()};
      case 12:
        return {
            "XREADGROUP",         "GROUP",   Group(),    Consumer(),      Pick({"COUNT", "NOACK"}),
            Pick({"1", "COUNT"}), "STREAMS", KeyOf("x"), Pick({">", "0"})};
      case 13:
        return {"XCLAIM",
                KeyOf("x"),
                Group(),
                Consumer(),
                "0",
                StreamId(),
                Pick({"1-0", "5-0"}),
                Pick({"FORCE", "JUSTID", "LASTID"}),
                Pick({"9-0", "JUSTID"})};
      case 14:
        return {"XAUTOCLAIM",
                KeyOf("x"),
                Group(),
                Consumer(),
                "0",
                "0",
                "COUNT",
                "2",
                Pick({"JUSTID", "COUNT"}),
                Pick({"JUSTID", "3"})};
      default:
        return {"XACK", KeyOf("x"), Group(), StreamId(), "1-0"};
    }
  }

  Args Command() {
    switch (Uniform(125)) {
      case 0:
        return {"CONFIG", "SET", "notify-keyspace-events", Classes()};
      case 1:
        return {"SET", Key(), Pick({"1", "x"})};
      case 2:
        return {"SET", Key(), "v", Pick({"NX", "XX", "GET", "KEEPTTL"})};
      case 3:
        return {"SET", Key(), "v", "EX", "100"};
      case 4:
        return {"SETEX", Key(), "100", "v"};
      case 5:
        return {"SETNX", Key(), "v"};
      case 6:
        return {"MSET", Key(), "1", Key(), "2"};
      case 7:
        return {"MSETNX", Key(), "1", Key(), "2"};
      case 8:
        return {"GETSET", Key(), "3"};
      case 9:
        return {"INCR", Key()};
      case 10:
        return {"DECRBY", Key(), "3"};
      case 11:
        return {"INCRBYFLOAT", Key(), "1.5"};
      case 12:
        return {"APPEND", Key(), "z"};
      case 13:
        return {"SETRANGE", Key(), Pick({"0", "3"}), Pick({"", "q"})};
      case 14:
        return {"GETDEL", Key()};
      case 15:
        return {"GETEX", Key(), Pick({"PERSIST", "EX", "PXAT"}), "100"};
      case 16:
        return Percent(50) ? Args{"GETEX", Key(), "PERSIST"} : Args{"GETEX", Key(), "PXAT", "1"};
      case 17:
        return {"SETBIT", Key(), Pick({"0", "7", "20"}), Pick({"0", "1"})};
      case 18:
        return {"BITFIELD", Key(), "SET", "u8", "0", Pick({"0", "200"}), "GET", "u8", "0"};
      case 19:
        return {"BITOP", Pick({"AND", "OR", "NOT"}), Key(), Key()};
      case 20:
        return {"DEL", Key(), Key()};
      case 21:
        return {"UNLINK", Key()};
      case 22:
        return {"EXPIRE", Key(), Pick({"100", "0", "-1"})};
      case 23:
        return {"PEXPIRE", Key(), "100000", Pick({"NX", "XX", "GT", "LT"})};
      case 24:
        return {"EXPIREAT", Key(), Pick({"1", "99999999999"})};
      case 25:
        return {"PERSIST", Key()};
      case 26:
        return {"RENAME", Key(), Key()};
      case 27:
        return {"RENAMENX", Key(), Key()};
      case 28:
        return {"COPY", Key(), Key(), Pick({"REPLACE", "DB"}), "3"};
      case 29:
        return {"MOVE", Key(), Pick({"2", "3"})};
      case 30:
        return {"SELECT", Pick({"0", "3"})};
      case 31:
        return {"SWAPDB", "0", "3"};
      case 32:
        return {"GET", Key()};
      case 33:
        return {"MGET", Key(), Key()};
      case 34:
        return {"EXISTS", Key()};
      case 35:
        return {"TYPE", Key()};
      case 36:
        return {"TTL", Key()};
      case 37:
        return {"STRLEN", Key()};
      case 38:
        return {"GETRANGE", Key(), "0", "-1"};
      case 39:
        return {"BITCOUNT", Key()};
      case 40:
        return {"TOUCH", Key()};
      case 41:
        return {"FLUSHDB"};
      case 42:
        return {"LCS", Key(), Key()};
      // Hashes.
      case 44:
        return {"HSET", Key(), Pick({"f", "g"}), "1", Pick({"f", "h"}), "2"};
      case 45:
        return {"HSETNX", Key(), Pick({"f", "g"}), "v"};
      case 46:
        return {"HDEL", Key(), Pick({"f", "g"}), Pick({"h", "x"})};
      case 47:
        return {"HINCRBY", Key(), Pick({"f", "n"}), "2"};
      case 48:
        return {"HINCRBYFLOAT", Key(), "n", "0.5"};
      case 49:
        return {"HMSET", Key(), "f", "1"};
      case 50:
        return {"HGET", Key(), "f"};
      // Lists.
      case 52:
        return {Pick({"LPUSH", "RPUSH", "LPUSHX", "RPUSHX"}), KeyOf("l"), Member(), Member()};
      case 53:
        return {"LINSERT", KeyOf("l"), Pick({"BEFORE", "AFTER"}), Member(), "y"};
      case 54:
        return {"LSET", KeyOf("l"), Pick({"0", "-1", "9"}), "w"};
      case 55:
        return {"LREM", KeyOf("l"), Pick({"0", "1", "-1"}), Member()};
      case 56:
        return {"LTRIM", KeyOf("l"), Pick({"0", "1", "5"}), Pick({"-1", "0", "1"})};
      case 57:
        return Percent(50) ? Args{Pick({"LPOP", "RPOP"}), KeyOf("l")}
                           : Args{Pick({"LPOP", "RPOP"}), KeyOf("l"), Pick({"0", "1", "3"})};
      case 58:
        return {"LMPOP",         "2", KeyOf("l"), KeyOf("l"), Pick({"LEFT", "RIGHT"}), "COUNT",
                Pick({"1", "5"})};
      case 59:
        return {"LMOVE", KeyOf("l"), KeyOf("l"), Pick({"LEFT", "RIGHT"}), Pick({"LEFT", "RIGHT"})};
      case 60:
        return {"RPOPLPUSH", KeyOf("l"), KeyOf("l")};
      case 61:
        // A timeout that passes at once when nothing is there: the step waits for it.
        return {Pick({"BLPOP", "BRPOP"}), KeyOf("l"), KeyOf("l"), "0.01"};
      case 62:
        return {"BLMOVE", KeyOf("l"), KeyOf("l"), Pick({"LEFT", "RIGHT"}), "RIGHT", "0.01"};
      case 63:
        return {"BLMPOP", "0.01", "1", KeyOf("l"), "LEFT", "COUNT", "2"};
      case 64:
        return {"LRANGE", KeyOf("l"), "0", "-1"};
      // Sets.
      case 65:
        return {"SADD", KeyOf("s"), Member(), Member()};
      case 66:
        return {"SREM", KeyOf("s"), Member(), Member()};
      case 67:
        return {"SMOVE", KeyOf("s"), KeyOf("s"), Member()};
      case 68:
        // The whole set or nothing: which members a partial SPOP takes is random, and the sets
        // of the two servers would part.
        return {"SPOP", KeyOf("s"), Pick({"0", "9"})};
      case 69:
        return {Pick({"SINTERSTORE", "SUNIONSTORE", "SDIFFSTORE"}), KeyOf("s"), KeyOf("s"),
                KeyOf("s")};
      case 70:
        return {"SCARD", KeyOf("s")};  // (SMEMBERS's order is the table's)
      // Sorted sets.
      case 71:
        return {"ZADD", KeyOf("z"), Score(), Member(), Score(), Member()};
      case 72:
        return {"ZADD", KeyOf("z"), Pick({"NX", "XX", "GT", "LT", "CH"}), Score(), Member()};
      case 73:
        return Percent(50) ? Args{"ZINCRBY", KeyOf("z"), "1", Member()}
                           : Args{"ZADD", KeyOf("z"), "INCR", "2", Member()};
      case 74:
        return {"ZREM", KeyOf("z"), Member(), Member()};
      case 75:
        return Percent(50) ? Args{Pick({"ZPOPMIN", "ZPOPMAX"}), KeyOf("z")}
                           : Args{Pick({"ZPOPMIN", "ZPOPMAX"}), KeyOf("z"), Pick({"0", "2"})};
      case 76:
        return {"ZMPOP", "2", KeyOf("z"), KeyOf("z"), Pick({"MIN", "MAX"}), "COUNT", "2"};
      case 77:
        return {Pick({"BZPOPMIN", "BZPOPMAX"}), KeyOf("z"), "0.01"};
      case 78:
        return {"BZMPOP", "0.01", "1", KeyOf("z"), "MIN"};
      case 79:
        return {"ZREMRANGEBYRANK", KeyOf("z"), Pick({"0", "5"}), Pick({"0", "-1"})};
      case 80:
        return {"ZREMRANGEBYSCORE", KeyOf("z"), Pick({"-inf", "2"}), Pick({"1", "+inf"})};
      case 81:
        return {"ZREMRANGEBYLEX", KeyOf("z"), Pick({"-", "[2"}), Pick({"+", "[3"})};
      case 82:
        return {"ZRANGESTORE", KeyOf("z"), KeyOf("z"), Pick({"0", "5"}), "-1"};
      case 83:
        return {Pick({"ZUNIONSTORE", "ZINTERSTORE", "ZDIFFSTORE"}), KeyOf("z"), "2", KeyOf("z"),
                KeyOf("z")};
      case 84:
        return {"ZRANGE", KeyOf("z"), "0", "-1", "WITHSCORES"};
      // Geo, whose sets are sorted sets.
      case 85:
        return {"GEOADD", KeyOf("z"), Lon(), Lat(), Member()};
      case 86:
        return {"GEOADD", KeyOf("z"), Pick({"NX", "XX", "CH"}), Lon(), Lat(), Member()};
      case 87:
        return {"GEOSEARCHSTORE", KeyOf("z"),         KeyOf("z"), "FROMLONLAT", Lon(), Lat(),
                "BYRADIUS",       Pick({"1", "500"}), "km"};
      case 88:
        return {"GEORADIUS",
                KeyOf("z"),
                Lon(),
                Lat(),
                Pick({"1", "500"}),
                "km",
                Pick({"STORE", "STOREDIST"}),
                KeyOf("z")};
      case 89:
        return {"GEORADIUSBYMEMBER", KeyOf("z"), Member(), "500", "km", "STORE", KeyOf("z")};
      // HyperLogLog.
      case 90:
        return {"PFADD", KeyOf("p"), Member(), Member()};
      case 91:
        return {"PFADD", KeyOf("p")};
      case 92:
        return {"PFMERGE", KeyOf("p"), KeyOf("p")};
      case 93:
        return {"PFCOUNT", KeyOf("p")};
      // Generic commands on the aggregates.
      case 94:
        return {"RENAME", Pick({"l", "s", "z", "p", "x"}), Pick({"l", "s", "z", "p", "x", "t"})};
      case 95:
        return {"COPY", Pick({"l", "s", "z", "p", "x"}), "t", "REPLACE"};
      case 96:
        return {"EXPIRE", Pick({"l", "s", "z", "p", "x"}), Pick({"100", "0"})};
      case 97:
        return {"DEL", Pick({"l", "s", "z", "p", "x", "t"})};
      case 98:
        return {"MOVE", Pick({"l", "s", "z", "p", "x"}), "3"};
      case 99:
        return Percent(50) ? Args{"SORT", KeyOf("l"), "ALPHA", "STORE", KeyOf("l")}
                           : Args{"SORT", KeyOf("s"), "STORE", KeyOf("s")};
      default:
        return Uniform(100) < 60 ? StreamCommand() : Args{"GETBIT", Key(), "3"};
    }
  }
};

class KeyspaceEventsDiffTest : public BothServersTest<KeyspaceEventsDiffTest> {};

TEST_F(KeyspaceEventsDiffTest, RandomCommandsUnderRandomClasses) {
  PairedClients clients(kvserver_->port(), redis_->port());
  ASSERT_TRUE(clients.Open(kListener) && clients.Open(kWriter));
  const uint64_t base = EnvU64("KV_EVENTS_DIFF_BASE_SEED").value_or(std::random_device{}());
  const std::optional<uint64_t> only = EnvU64("KV_EVENTS_DIFF_SEED");
  const uint64_t count = only ? 1 : EnvU64("KV_EVENTS_DIFF_SEQUENCES").value_or(150);
  std::printf("keyspace events differential: %llu sequences from seed %llu\n",
              static_cast<unsigned long long>(count),
              static_cast<unsigned long long>(only.value_or(base)));
  clients.Step(kListener, {"PSUBSCRIBE", "*"});
  bool failed = false;
  size_t messages = 0;
  for (uint64_t s = 0; s < count && !failed; ++s) {
    const uint64_t seed = only.value_or(base + s);
    Generator gen(seed);
    clients.Step(kWriter, {"RESET"});
    clients.Step(kWriter, {"FLUSHALL"});
    const std::string classes = gen.Classes();
    clients.Step(kWriter, {"CONFIG", "SET", "notify-keyspace-events", classes});
    std::string history = "classes " + classes + "\n";
    for (int step = 0; step < 40 && !failed; ++step) {
      const Args cmd = gen.Command();
      history += DescribeArgs(cmd) + "\n";
      PairedClients::Received got = clients.Step(kWriter, cmd);
      messages += got.redis[kListener].size();
      // SPOP replies its members in the order of the set's table: the events are compared.
      const bool random_reply = cmd[0] == "SPOP";
      for (size_t c : {kListener, kWriter}) {
        if (c == kWriter && random_reply) continue;
        if (got.kv[c] == got.redis[c]) continue;
        failed = true;
        std::string a, b;
        for (const auto& f : got.kv[c]) a += "  " + Escape(f) + "\n";
        for (const auto& f : got.redis[c]) b += "  " + Escape(f) + "\n";
        ADD_FAILURE() << "seed " << seed << " (replay: KV_EVENTS_DIFF_SEED=" << seed
                      << "), connection " << c << " after:\n"
                      << history << "kvserver:\n"
                      << a << "redis:\n"
                      << b;
      }
    }
  }
  clients.Step(kWriter, {"CONFIG", "SET", "notify-keyspace-events", ""});
  if (!only && count >= 100) EXPECT_GT(messages, 1000u);
}

// Clients blocked on lists, sorted sets and streams, served by another client's write: the events
// of the write, then of each served pop (and the emptied key's "del"), in Redis's order.
TEST_F(KeyspaceEventsDiffTest, ServedBlockedClients) {
  PairedClients clients(kvserver_->port(), redis_->port());
  ASSERT_TRUE(clients.Open(kListener) && clients.Open(kWriter));
  // The blocked clients stay outside `clients`: a step's marker PING would queue behind their
  // blocked command. Each is a pair: [0] on kvserver, [1] on redis-server.
  std::unique_ptr<RawConnection> blocked[2][2];
  for (auto& pair : blocked) {
    pair[0] = RawConnection::Connect(kvserver_->port());
    pair[1] = RawConnection::Connect(redis_->port());
    ASSERT_TRUE(pair[0] && pair[1]);
  }
  auto send = [&](int b, const Args& cmd) {
    blocked[b][0]->Send(EncodeCommand(cmd));
    blocked[b][1]->Send(EncodeCommand(cmd));
  };
  auto expect_same_reply = [&](int b) {
    const std::string kv = blocked[b][0]->ReadReply(2000).value_or("<no reply>");
    const std::string redis = blocked[b][1]->ReadReply(2000).value_or("<no reply>");
    EXPECT_EQ(kv, redis);
    EXPECT_NE(redis, "<no reply>") << "the script expects every waiter served";
  };
  clients.Step(kListener, {"PSUBSCRIBE", "__key*"});
  clients.Step(kWriter, {"FLUSHALL"});
  clients.Step(kWriter, {"RPUSH", "lsrc", "s1", "s2"});
  clients.Step(kWriter, {"ZADD", "zsrc", "1", "a", "2", "b"});
  clients.Step(kWriter, {"XGROUP", "CREATE", "xs", "g", "$", "MKSTREAM"});
  clients.Step(kWriter, {"CONFIG", "SET", "notify-keyspace-events", "KEA"});
  // (blocking command, the write that serves it)
  const std::vector<std::pair<Args, Args>> script = {
      {{"BLPOP", "l", "0"}, {"RPUSH", "l", "a", "b"}},
      {{"BRPOP", "l2", "l9", "0"}, {"LPUSH", "l2", "x"}},
      {{"BLMPOP", "0", "1", "l3", "RIGHT", "COUNT", "5"}, {"RPUSH", "l3", "1", "2"}},
      {{"BLMOVE", "m", "dst", "LEFT", "RIGHT", "0"}, {"RPUSH", "m", "v"}},
      {{"BRPOPLPUSH", "m2", "m2", "0"}, {"RPUSH", "m2", "v"}},
      {{"BZPOPMIN", "z", "0"}, {"ZADD", "z", "1", "a", "2", "b"}},
      {{"BZPOPMAX", "z2", "0"}, {"ZADD", "z2", "1", "a"}},
      {{"BZMPOP", "0", "1", "z3", "MIN", "COUNT", "9"}, {"ZADD", "z3", "1", "a", "2", "b"}},
      {{"BZPOPMIN", "g", "0"}, {"GEOADD", "g", "13.361389", "38.115556", "Palermo"}},
      {{"BLPOP", "moved", "0"}, {"LMOVE", "lsrc", "moved", "LEFT", "LEFT"}},
      {{"BZPOPMIN", "zs", "0"}, {"ZUNIONSTORE", "zs", "1", "zsrc"}},
      // The served XREADGROUP creates its consumer: "xgroup-createconsumer" after the "xadd".
      {{"XREADGROUP", "GROUP", "g", "newc", "BLOCK", "0", "STREAMS", "xs", ">"},
       {"XADD", "xs", "1-1", "f", "v"}},
      {{"XREAD", "BLOCK", "0", "STREAMS", "xr", "$"}, {"XADD", "xr", "1-1", "f", "v"}},
  };
  for (const auto& [wait, write] : script) {
    SCOPED_TRACE(DescribeArgs(wait) + " served by " + DescribeArgs(write));
    send(0, wait);
    // A second waiter on the same key for the single-key pops: served too if something is left.
    const bool two = wait[0] == "BLPOP" || wait[0] == "BZPOPMIN";
    if (two) send(1, wait);
    clients.Step(kListener, {"PING"});  // the waiters' commands have reached the servers
    PairedClients::Received got = clients.Step(kWriter, write);
    EXPECT_EQ(got.kv[kListener], got.redis[kListener]);
    EXPECT_EQ(got.kv[kWriter], got.redis[kWriter]);
    expect_same_reply(0);
    if (two) {
      // Still waiting when the write left nothing: a push of our own serves it.
      const std::string key = wait[1];
      PairedClients::Received more = clients.Step(
          kWriter, wait[0] == "BLPOP" ? Args{"RPUSH", key, "more"} : Args{"ZADD", key, "7", "q"});
      EXPECT_EQ(more.kv[kListener], more.redis[kListener]);
      expect_same_reply(1);
    }
  }
  clients.Step(kWriter, {"CONFIG", "SET", "notify-keyspace-events", ""});
}

// Lazy and active expiry, key misses and "new" keys, scripted (expiry needs time to pass).
TEST_F(KeyspaceEventsDiffTest, ExpiryMissesAndNewKeys) {
  PairedClients clients(kvserver_->port(), redis_->port());
  ASSERT_TRUE(clients.Open(kListener) && clients.Open(kWriter));
  clients.Step(kListener, {"PSUBSCRIBE", "__key*"});
  const std::vector<Args> script = {
      {"FLUSHALL"},
      {"CONFIG", "SET", "notify-keyspace-events", "KEA"},
      {"SET", "lazy", "1", "PX", "30"},
      // Expired by the GET or by active expiry before it: either way the event comes no later
      // than the GET's step, as nothing reads the listener in between.
      {"sleep-ms", "60"},
      {"GET", "lazy"},
      {"SET", "active", "1", "PX", "30"},
      {"sleep-ms", "400"},
      {"CONFIG", "SET", "notify-keyspace-events", "Emn$g"},
      {"GET", "missing"},
      {"SET", "fresh", "1"},
      {"SET", "fresh", "2"},
      {"INCR", "counter"},
      {"RENAME", "fresh", "counter"},
      {"CONFIG", "SET", "notify-keyspace-events", ""},
  };
  for (const Args& cmd : script) {
    SCOPED_TRACE(DescribeArgs(cmd));
    if (cmd[0] == "sleep-ms") {
      std::this_thread::sleep_for(std::chrono::milliseconds(std::stoi(cmd[1])));
      continue;
    }
    PairedClients::Received got = clients.Step(kWriter, cmd);
    EXPECT_EQ(got.kv[kListener], got.redis[kListener]);
    EXPECT_EQ(got.kv[kWriter], got.redis[kWriter]);
  }
}

}  // namespace
}  // namespace kv::test
