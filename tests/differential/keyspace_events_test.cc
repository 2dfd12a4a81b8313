// Keyspace notifications against the real redis-server: a listener subscribed to every keyspace
// and keyevent channel (PSUBSCRIBE *) while another client runs seeded random commands of every
// family kvserver has, under random notify-keyspace-events classes (K, E, every type class, x, e,
// m, n, A); after each command the listener's messages must equal Redis's, in Redis's order.
// Expiry runs in a scripted test (a TTL passing is timing, not order).
//   KV_EVENTS_DIFF_SEED=<seed>       replays one sequence
//   KV_EVENTS_DIFF_BASE_SEED=<seed>  replays a whole run
//   KV_EVENTS_DIFF_SEQUENCES=<n>     changes how many sequences run (default 150)

#include <algorithm>
#include <chrono>
#include <random>
#include <string>
#include <thread>
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
  std::string Classes() {
    // Always at least one channel kind, and some classes.
    std::string c = Pick({"K", "E", "KE"});
    for (const char* cls : {"g", "$", "l", "s", "h", "z", "x", "e", "t", "m", "n", "A", "d"}) {
      if (Percent(35)) c += cls;
    }
    return c;
  }

  Args Command() {
    switch (Uniform(52)) {
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
      default:
        return {"GETBIT", Key(), "3"};
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
      for (size_t c : {kListener, kWriter}) {
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
