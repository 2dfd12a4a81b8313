// Client-side caching against the real redis-server: a RESP3 tracking client, a RESP2 client
// receiving redirected invalidations on __redis__:invalidate, and a writer. Seeded random
// sequences switch the tracking client between the modes (default, OPTIN, OPTOUT, BCAST with
// prefixes, NOLOOP, REDIRECT) and have it and the writer read and write keys; after every step
// each client's frames must equal Redis's.
//   KV_TRACKING_DIFF_SEED=<seed>       replays one sequence
//   KV_TRACKING_DIFF_BASE_SEED=<seed>  replays a whole run
//   KV_TRACKING_DIFF_SEQUENCES=<n>     changes how many sequences run (default 150)

#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/paired_clients.h"

namespace kv::test {
namespace {

constexpr size_t kTracker = 0;
constexpr size_t kWriter = 1;
constexpr size_t kSink = 2;

// CLIENT ID differs between the servers: the sink's id, where a frame names it (GETREDIR's
// reply, TRACKINGINFO's redirect, tracking-redir-broken), is written as <sink>.
std::vector<std::string> WithoutIds(std::vector<std::string> frames, const std::string& id,
                                    bool getredir) {
  for (std::string& f : frames) {
    if (!getredir && f.find("redirect") == std::string::npos) continue;
    for (size_t at = f.find(":" + id + "\r\n"); at != std::string::npos;
         at = f.find(":" + id + "\r\n", at + 1)) {
      f.replace(at, id.size() + 3, ":<sink>\r\n");
    }
  }
  return frames;
}

class Generator : public RandomChoices {
 public:
  using RandomChoices::RandomChoices;

  std::string Key() { return Pick({"user:1", "user:2", "obj:1", "x"}); }

  // The tracking client's or the writer's next command; `redirect` is "<sink>" to be replaced.
  std::pair<size_t, Args> Next() {
    if (Percent(40)) {
      switch (Uniform(17)) {
        case 0:
          return {kWriter, {"SET", Key(), "w"}};
        case 1:
          return {kWriter, {"MSET", Key(), "1", Key(), "2"}};
        case 2:
          return {kWriter, {"DEL", Key()}};
        case 3:
          return {kWriter, {"GET", Key()}};
        case 4:
          return {kWriter, {"INCR", "x"}};
        case 5:
          return {kWriter, {"HSET", Key(), "f", "w"}};
        case 6:
          return {kWriter, {"HDEL", Key(), "f"}};
        case 7:
          return {kWriter, {"RPUSH", Key(), "e"}};
        case 8:
          return {kWriter, {Pick({"LPOP", "RPOP"}), Key()}};
        case 9:
          return {kWriter, {"LMOVE", Key(), Key(), "LEFT", "RIGHT"}};
        case 10:
          return {kWriter, {"SADD", Key(), Pick({"1", "2"})}};
        case 11:
          return {kWriter, {Pick({"SREM", "SMOVE"}), Key(), Key(), "1"}};
        case 12:
          return {kWriter, {"ZADD", Key(), Pick({"1", "2"}), "m"}};
        case 13:
          return {kWriter,
                  Percent(50) ? Args{"ZPOPMIN", Key()} : Args{"ZREMRANGEBYRANK", Key(), "0", "0"}};
        case 14:
          return {kWriter, {Pick({"ZUNIONSTORE", "ZDIFFSTORE"}), Key(), "1", Key()}};
        case 15:
          return {kWriter, {"PFADD", Key(), Pick({"a", "b"})}};
        default:
          return {kWriter, {Pick({"FLUSHDB", "EXPIRE"}), Key(), "0"}};
      }
    }
    switch (Uniform(18)) {
      case 0:
        return {kTracker, {"CLIENT", "TRACKING", "OFF"}};
      case 1: {
        Args a = {"CLIENT", "TRACKING", "ON"};
        if (Percent(40)) a.push_back(Pick({"OPTIN", "OPTOUT"}));
        if (Percent(30)) a.push_back("NOLOOP");
        if (Percent(25)) a.insert(a.end(), {"REDIRECT", "<sink>"});
        return {kTracker, a};
      }
      case 2: {
        Args a = {"CLIENT", "TRACKING", "ON", "BCAST"};
        if (Percent(60)) a.insert(a.end(), {"PREFIX", Pick({"user:", "obj:", "u"})});
        if (Percent(30)) a.insert(a.end(), {"PREFIX", Pick({"x", "obj"})});
        if (Percent(30)) a.push_back("NOLOOP");
        if (Percent(25)) a.insert(a.end(), {"REDIRECT", "<sink>"});
        return {kTracker, a};
      }
      case 3:
        return {kTracker, {"CLIENT", "CACHING", Pick({"YES", "NO", "maybe"})}};
      case 4:
      case 5:
      case 6:
        return {kTracker, {"GET", Key()}};
      case 7:
        return {kTracker, {"MGET", Key(), Key()}};
      case 8:
        return {kTracker, {"SET", Key(), "t"}};
      case 9:
        return {kTracker, {"CLIENT", "TRACKINGINFO"}};
      case 10:
        return {kTracker, {"CLIENT", "GETREDIR"}};
      case 11:
        return {kTracker, {"EXISTS", Key()}};
      case 12:
        return {kTracker, {"HGET", Key(), "f"}};
      case 13:
        return {kTracker, {"LRANGE", Key(), "0", "-1"}};
      case 14:
        return {kTracker, {"SCARD", Key()}};
      case 15:
        return {kTracker, {"ZRANGE", Key(), "0", "-1"}};
      case 16:
        return {kTracker, {"PFCOUNT", Key()}};
      default:
        return {kTracker, {"STRLEN", Key()}};
    }
  }
};

class TrackingDiffTest : public BothServersTest<TrackingDiffTest> {};

TEST_F(TrackingDiffTest, RandomModesReadsAndWrites) {
  PairedClients clients(kvserver_->port(), redis_->port());
  for (size_t i = 0; i < 3; ++i) ASSERT_TRUE(clients.Open(i));
  const uint64_t base = EnvU64("KV_TRACKING_DIFF_BASE_SEED").value_or(std::random_device{}());
  const std::optional<uint64_t> only = EnvU64("KV_TRACKING_DIFF_SEED");
  const uint64_t count = only ? 1 : EnvU64("KV_TRACKING_DIFF_SEQUENCES").value_or(150);
  std::printf("tracking differential: %llu sequences from seed %llu\n",
              static_cast<unsigned long long>(count),
              static_cast<unsigned long long>(only.value_or(base)));
  const std::string kv_sink = clients.kv(kSink).Call({"CLIENT", "ID"}).substr(1);
  const std::string redis_sink = clients.redis(kSink).Call({"CLIENT", "ID"}).substr(1);
  const std::string kv_id = kv_sink.substr(0, kv_sink.size() - 2);
  const std::string redis_id = redis_sink.substr(0, redis_sink.size() - 2);
  clients.Step(kSink, {"SUBSCRIBE", "__redis__:invalidate"});
  bool failed = false;
  size_t invalidations = 0;
  for (uint64_t s = 0; s < count && !failed; ++s) {
    const uint64_t seed = only.value_or(base + s);
    Generator gen(seed);
    clients.Step(kTracker, {"RESET"});
    clients.Step(kTracker, {"HELLO", "3"});
    clients.Step(kWriter, {"FLUSHALL"});
    std::string history;
    for (int step = 0; step < 40 && !failed; ++step) {
      auto [conn, cmd] = gen.Next();
      history += std::to_string(conn) + ": " + DescribeArgs(cmd) + "\n";
      // The sink's id differs: each server's command names its own.
      Args kv_cmd = cmd, redis_cmd = cmd;
      for (size_t i = 0; i < cmd.size(); ++i) {
        if (cmd[i] == "<sink>") {
          kv_cmd[i] = kv_id;
          redis_cmd[i] = redis_id;
        }
      }
      PairedClients::Received got;
      if (kv_cmd == redis_cmd) {
        got = clients.Step(conn, cmd);
      } else {
        // Different bytes per server: send them by hand, then the usual marker step (a PING).
        clients.kv(conn).Send(EncodeCommand(kv_cmd));
        clients.redis(conn).Send(EncodeCommand(redis_cmd));
        PairedClients::Received rest = clients.Step(conn, {"PING"});
        got = rest;
        // The first frame of `conn` is the command's reply, the second PING's +PONG.
        for (auto* side : {&got.kv[conn], &got.redis[conn]}) {
          if (side->size() >= 1) side->pop_back();
        }
      }
      for (size_t c = 0; c < 3; ++c) {
        const bool getredir = c == conn && cmd.size() == 2 && cmd[1] == "GETREDIR";
        const auto kv = WithoutIds(got.kv[c], kv_id, getredir);
        const auto redis = WithoutIds(got.redis[c], redis_id, getredir);
        for (const std::string& f : redis)
          invalidations += f.find("invalidate") != std::string::npos;
        if (kv == redis) continue;
        failed = true;
        std::string a, b;
        for (const auto& f : kv) a += "  " + Escape(f) + "\n";
        for (const auto& f : redis) b += "  " + Escape(f) + "\n";
        ADD_FAILURE() << "seed " << seed << " (replay: KV_TRACKING_DIFF_SEED=" << seed
                      << "), connection " << c << " after:\n"
                      << history << "kvserver:\n"
                      << a << "redis:\n"
                      << b;
      }
    }
  }
  if (!only && count >= 100) EXPECT_GT(invalidations, 100u);
}

TEST_F(TrackingDiffTest, TableLimitAndInfo) {
  PairedClients clients(kvserver_->port(), redis_->port());
  ASSERT_TRUE(clients.Open(0) && clients.Open(1));
  clients.Step(0, {"FLUSHALL"});
  clients.Step(0, {"HELLO", "3"});
  clients.Step(0, {"CLIENT", "TRACKING", "ON"});
  for (int i = 0; i < 20; ++i) clients.Step(0, {"GET", "k" + std::to_string(i)});
  auto field = [](const std::string& info, const std::string& name) {
    const size_t at = info.find(name + ":");
    return at == std::string::npos ? std::string("<none>")
                                   : info.substr(at, info.find('\r', at) - at);
  };
  for (auto* c : {&clients.kv(1), &clients.redis(1)}) {
    const std::string info = c->Call({"INFO"});
    EXPECT_EQ(field(info, "tracking_total_keys"), "tracking_total_keys:20");
    EXPECT_EQ(field(info, "tracking_total_items"), "tracking_total_items:20");
    EXPECT_EQ(field(info, "tracking_clients"), "tracking_clients:1");
  }
  // The next command (here the step's own marker) trims the table; which keys go is a random
  // choice in Redis: count them.
  PairedClients::Received set = clients.Step(1, {"CONFIG", "SET", "tracking-table-max-keys", "5"});
  PairedClients::Received got = clients.Step(1, {"PING"});
  EXPECT_EQ(set.kv[0].size() + got.kv[0].size(), 15u);
  EXPECT_EQ(set.redis[0].size() + got.redis[0].size(), 15u);
  for (auto* c : {&clients.kv(1), &clients.redis(1)}) {
    EXPECT_EQ(field(c->Call({"INFO"}), "tracking_total_keys"), "tracking_total_keys:5");
    c->Call({"CONFIG", "SET", "tracking-table-max-keys", "1000000"});
  }
  clients.Step(0, {"CLIENT", "TRACKING", "OFF"});
}

}  // namespace
}  // namespace kv::test
