// Pub/sub against the real redis-server, with several clients per server: seeded random sequences
// of SUBSCRIBE / UNSUBSCRIBE / PSUBSCRIBE / PUNSUBSCRIBE / SSUBSCRIBE / SUNSUBSCRIBE on three
// subscriber connections (RESP2 and RESP3, PING, refused commands, RESET, QUIT and reconnect) and
// PUBLISH / SPUBLISH / PUBSUB on a fourth; after every step each connection's frames must equal
// Redis's. Only what Redis leaves to its hash tables' order is compared as a set: the channels
// an UNSUBSCRIBE without arguments names, PUBSUB CHANNELS, and the pmessages one PUBLISH sends
// one client for several patterns.
//   KV_PUBSUB_DIFF_SEED=<seed>       replays one sequence
//   KV_PUBSUB_DIFF_BASE_SEED=<seed>  replays a whole run
//   KV_PUBSUB_DIFF_SEQUENCES=<n>     changes how many sequences run (default 60)

#include <algorithm>
#include <chrono>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/paired_clients.h"
#include "tests/support/resp_reply.h"

namespace kv::test {
namespace {

// A frame as text with its RESP types (RESP2 and RESP3 stay distinct).
std::string Text(const std::string& frame) {
  std::optional<RespReply> r = ParseReply(frame);
  return r ? Describe(*r) : "<malformed> " + Escape(frame);
}

bool IsKind(const std::string& frame, std::string_view kind) {
  std::optional<RespReply> r = ParseReply(frame);
  return r && !r->elements.empty() && r->elements[0].str == kind &&
         (r->type == RespReply::Type::kArray || r->type == RespReply::Type::kPush);
}

// The frames one connection received in a step, in a form where Redis's hash-order choices are
// sorted away.
std::vector<std::string> Normalize(const Args& cmd, bool own, std::vector<std::string> frames) {
  std::string name = cmd[0];
  std::transform(name.begin(), name.end(), name.begin(), ::tolower);
  // An UNSUBSCRIBE / SUNSUBSCRIBE without arguments goes through the client's channels in hash
  // order: the names are sorted, the running counts stay in place.
  if (own && cmd.size() == 1 && (name == "unsubscribe" || name == "sunsubscribe")) {
    std::vector<RespReply> parsed;
    std::vector<std::string> names;
    for (const std::string& f : frames) {
      std::optional<RespReply> r = ParseReply(f);
      if (!r || r->elements.size() != 3) return frames;
      names.push_back(r->elements[1].str);
      parsed.push_back(*r);
    }
    std::sort(names.begin(), names.end());
    std::vector<std::string> out;
    for (size_t i = 0; i < parsed.size(); ++i) {
      parsed[i].elements[1].str = names[i];
      out.push_back(Describe(parsed[i]));
    }
    return out;
  }
  std::vector<std::string> out;
  for (const std::string& f : frames) out.push_back(Text(f));
  if (own && name == "pubsub" && !frames.empty()) {
    std::optional<RespReply> r = ParseReply(frames[0]);
    if (r && r->type == RespReply::Type::kArray) {
      std::sort(r->elements.begin(), r->elements.end(),
                [](const RespReply& a, const RespReply& b) { return a.str < b.str; });
      out[0] = Describe(*r);
    }
  }
  if (own && name == "hello" && !frames.empty() && frames[0][0] != '-') out[0] = "<hello map>";
  // Consecutive pmessages (one PUBLISH matching several patterns of this client) in pattern-table
  // order: sorted.
  for (size_t i = 0; i < frames.size();) {
    size_t j = i;
    while (j < frames.size() && IsKind(frames[j], "pmessage")) ++j;
    std::sort(out.begin() + static_cast<long>(i), out.begin() + static_cast<long>(j));
    i = j == i ? i + 1 : j;
  }
  return out;
}

constexpr size_t kPublisher = 0;
constexpr size_t kClients = 4;

class Generator : public RandomChoices {
 public:
  using RandomChoices::RandomChoices;

  std::string Channel() { return Pick({"c1", "c2", "c3", "news.a", "news.b", "x"}); }
  std::string Pattern() { return Pick({"c*", "news.*", "*", "c[12]", "?1", "n*s.?", "z*"}); }
  std::string Shard() { return Pick({"s1", "s2", "s3"}); }
  Args Some(std::string cmd, int max, bool allow_none, std::string (Generator::*pick)()) {
    Args a = {Case(cmd)};
    const uint64_t n = Uniform(max + 1);
    for (uint64_t i = 0; i < (allow_none ? n : n + 1); ++i) a.push_back((this->*pick)());
    return a;
  }

  // A step: the connection and the command.
  std::pair<size_t, Args> Next() {
    if (Percent(35)) {
      switch (Uniform(8)) {
        case 0:
        case 1:
        case 2:
          return {kPublisher, {Case("publish"), Channel(), Pick({"hi", "", "m\r\n\0x"})}};
        case 3:
          return {kPublisher, {Case("spublish"), Shard(), "sm"}};
        case 4:
          return {kPublisher, {"PUBSUB", "NUMSUB", Channel(), Channel()}};
        case 5:
          return {kPublisher, {"PUBSUB", "NUMPAT"}};
        case 6:
          return {kPublisher,
                  Percent(50) ? Args{"PUBSUB", "CHANNELS"} : Args{"PUBSUB", "CHANNELS", Pattern()}};
        default:
          return {kPublisher, Percent(50) ? Args{"PUBSUB", "SHARDCHANNELS"}
                                          : Args{"PUBSUB", "SHARDNUMSUB", Shard(), Shard()}};
      }
    }
    const size_t c = 1 + Uniform(kClients - 1);
    switch (Uniform(16)) {
      case 0:
      case 1:
        return {c, Some("subscribe", 2, false, &Generator::Channel)};
      case 2:
      case 3:
        return {c, Some("unsubscribe", 2, true, &Generator::Channel)};
      case 4:
      case 5:
        return {c, Some("psubscribe", 2, false, &Generator::Pattern)};
      case 6:
        return {c, Some("punsubscribe", 2, true, &Generator::Pattern)};
      case 7:
        return {c, Some("ssubscribe", 1, false, &Generator::Shard)};
      case 8:
        return {c, Some("sunsubscribe", 1, true, &Generator::Shard)};
      case 9:
        return {c, Percent(50) ? Args{"PING"} : Args{"PING", "hey"}};
      case 10:
        return {c, {"GET", "k"}};
      case 11:
        return {c, {"HELLO", Pick({"2", "3"})}};
      case 12:
        return {c, {"RESET"}};
      case 13:
        return {c, {"QUIT"}};
      case 14:
        return {c, {Case("publish"), Channel(), "self"}};
      default:
        return {c, {"PUBSUB", "NUMSUB", Channel()}};
    }
  }
};

class PubSubDiffTest : public BothServersTest<PubSubDiffTest> {};

TEST_F(PubSubDiffTest, RandomSequencesAcrossFourClients) {
  PairedClients clients(kvserver_->port(), redis_->port());
  for (size_t i = 0; i < kClients; ++i) ASSERT_TRUE(clients.Open(i));
  const uint64_t base = EnvU64("KV_PUBSUB_DIFF_BASE_SEED").value_or(std::random_device{}());
  const std::optional<uint64_t> only = EnvU64("KV_PUBSUB_DIFF_SEED");
  const uint64_t count = only ? 1 : EnvU64("KV_PUBSUB_DIFF_SEQUENCES").value_or(60);
  std::printf("pub/sub differential: %llu sequences from seed %llu\n",
              static_cast<unsigned long long>(count),
              static_cast<unsigned long long>(only.value_or(base)));
  size_t failures = 0;
  for (uint64_t s = 0; s < count && failures == 0; ++s) {
    const uint64_t seed = only.value_or(base + s);
    Generator gen(seed);
    for (size_t i = 0; i < kClients; ++i) clients.Step(i, {"RESET"});
    std::string history;
    for (int step = 0; step < 40 && failures == 0; ++step) {
      auto [conn, cmd] = gen.Next();
      if (cmd.empty()) continue;
      history += std::to_string(conn) + ": " + DescribeArgs(cmd) + "\n";
      PairedClients::Received got = clients.Step(conn, cmd);
      for (size_t c = 0; c < kClients; ++c) {
        const auto kv = Normalize(cmd, c == conn, got.kv[c]);
        const auto redis = Normalize(cmd, c == conn, got.redis[c]);
        if (kv != redis) {
          ++failures;
          std::string a, b;
          for (const auto& f : kv) a += "  " + f + "\n";
          for (const auto& f : redis) b += "  " + f + "\n";
          ADD_FAILURE() << "seed " << seed << " (replay: KV_PUBSUB_DIFF_SEED=" << seed
                        << "), connection " << c << " after:\n"
                        << history << "kvserver:\n"
                        << a << "redis:\n"
                        << b;
        }
      }
      if (cmd[0] == "QUIT") ASSERT_TRUE(clients.Open(conn));
    }
  }
}

// Scripted cases whose exact bytes matter beyond the random run: counts in every reply, RESP3
// push frames, CLIENT REPLY OFF, a subscriber in a transaction, errors in subscribed mode.
TEST_F(PubSubDiffTest, ScriptedCases) {
  PairedClients clients(kvserver_->port(), redis_->port());
  ASSERT_TRUE(clients.Open(0) && clients.Open(1) && clients.Open(2));
  const std::vector<std::pair<size_t, Args>> script = {
      {1, {"SUBSCRIBE", "a", "b", "a"}},
      {1, {"PSUBSCRIBE", "a*", "*"}},
      {0, {"PUBLISH", "a", "1"}},
      {1, {"SET", "k", "v"}},
      {1, {"CLIENT", "ID"}},
      {1, {"MULTI"}},
      {1, {"PING"}},
      {1, {"PING", "x"}},
      {1, {"UNSUBSCRIBE", "zz"}},
      {1, {"PUNSUBSCRIBE"}},
      {1, {"UNSUBSCRIBE", "a", "b"}},
      {1, {"UNSUBSCRIBE"}},
      {1, {"PING"}},
      {2, {"HELLO", "3"}},
      {2, {"SUBSCRIBE", "c"}},
      {0, {"PUBLISH", "c", "m"}},
      {2, {"PUBLISH", "c", "self"}},
      {2, {"GET", "k"}},
      {2, {"SSUBSCRIBE", "s"}},
      {0, {"SPUBLISH", "s", "m"}},
      {2, {"SUNSUBSCRIBE", "s", "t"}},
      {2, {"RESET"}},
      {0, {"MULTI", "queued"}},
      {0, {"SUBSCRIBE", "q"}},
      {0, {"PUBLISH", "q", "inside"}},
      {0, {"SSUBSCRIBE", "sq"}},
      {0, {"EXEC"}},
      {1, {"PUBLISH", "q", "after"}},
      {0, {"UNSUBSCRIBE"}},
      {0, {"PUBSUB", "NUMSUB", "q", "a", "c"}},
      {0, {"PUBSUB", "NUMPAT"}},
      {0, {"PUBSUB", "HELP"}},
      {0, {"PUBSUB", "CHANNELS", "x", "y"}},
      {0, {"PUBSUB", "NOPE"}},
      {0, {"SUBSCRIBE"}},
      {0, {"PUBLISH", "only-one-arg"}},
  };
  bool in_multi = false;
  for (auto [conn, cmd] : script) {
    SCOPED_TRACE(std::to_string(conn) + ": " + DescribeArgs(cmd));
    // Inside MULTI the marker would be queued: read the one reply instead.
    int own = -1;
    if (cmd.size() == 2 && cmd[1] == "queued") {
      cmd.pop_back();
      in_multi = true;
      own = 1;
    } else if (in_multi && cmd[0] != "EXEC") {
      own = 1;
    } else {
      in_multi = false;
    }
    PairedClients::Received got = clients.Step(conn, cmd, own);
    for (size_t c = 0; c < 3; ++c) {
      EXPECT_EQ(Normalize(cmd, c == conn, got.kv[c]), Normalize(cmd, c == conn, got.redis[c]))
          << "connection " << c;
    }
  }
}

// CLIENT REPLY OFF silences replies but not pushed frames (subscribe confirmations, messages).
// A silenced client cannot answer a marker PING: the transcript is read frame by frame.
TEST_F(PubSubDiffTest, ClientReplyOffKeepsPushes) {
  std::vector<std::string> transcripts;
  for (ServerProcess* server : {kvserver_, redis_}) {
    auto quiet = RawConnection::Connect(server->port());
    auto other = RawConnection::Connect(server->port());
    std::string t;
    auto read = [&](RawConnection& c, int n) {
      for (int i = 0; i < n; ++i) t += Escape(c.ReadReply().value_or("<none>")) + "\n";
    };
    quiet->Send(EncodeCommand({"HELLO", "3"}));
    read(*quiet, 1);
    t = "";  // HELLO's map names the server
    quiet->Send(EncodeCommand({"CLIENT", "REPLY", "OFF"}));
    quiet->Send(EncodeCommand({"SUBSCRIBE", "c", "d"}));
    read(*quiet, 2);
    t += other->Call({"PUBLISH", "c", "m"}) + "\n";
    read(*quiet, 1);
    quiet->Send(EncodeCommand({"PUBLISH", "d", "self"}));
    quiet->Send(EncodeCommand({"GET", "k"}));
    quiet->Send(EncodeCommand({"NOSUCH"}));
    quiet->Send(EncodeCommand({"PSUBSCRIBE", "x*"}));
    read(*quiet, 2);
    quiet->Send(EncodeCommand({"CLIENT", "REPLY", "ON"}));
    read(*quiet, 1);
    quiet->Send(EncodeCommand({"PUBLISH", "d", "self"}));
    read(*quiet, 2);
    t += other->Call({"PUBSUB", "NUMSUB", "c", "d"}) + "\n";
    transcripts.push_back(t);
  }
  EXPECT_EQ(transcripts[0], transcripts[1]);
}

// A subscriber that stops reading is closed at client-output-buffer-limit pubsub, as Redis does;
// the publisher never waits, and other subscribers keep getting every message.
TEST_F(PubSubDiffTest, SlowSubscriberIsDisconnectedAtItsLimit) {
  for (ServerProcess* server : {kvserver_, redis_}) {
    SCOPED_TRACE(server == kvserver_ ? "kvserver" : "redis");
    auto admin = RawConnection::Connect(server->port());
    ASSERT_EQ(admin->Call({"CONFIG", "SET", "client-output-buffer-limit", "pubsub 256kb 0 0"}),
              "+OK\r\n");
    auto slow = RawConnection::Connect(server->port());
    auto fast = RawConnection::Connect(server->port());
    slow->Send(EncodeCommand({"SUBSCRIBE", "flood"}));
    ASSERT_TRUE(slow->ReadReply().has_value());
    fast->Send(EncodeCommand({"SUBSCRIBE", "flood"}));
    ASSERT_TRUE(fast->ReadReply().has_value());
    const std::string payload(16 * 1024, 'p');
    const size_t frame = EncodeCommand({"message", "flood", payload}).size();
    size_t fast_bytes = 0;
    auto drain = [&](int timeout_ms) {
      while (fast->ReadSome(timeout_ms) > 0) fast_bytes += fast->TakePending().size();
    };
    const int sent = 800;
    std::string last;
    // The slow subscriber never reads: its socket buffers fill, then its output grows to the
    // limit and it is closed. Publishing goes on meanwhile, and the fast one reads everything.
    for (int i = 0; i < sent; ++i) {
      last = admin->Call({"PUBLISH", "flood", payload});
      drain(0);
    }
    EXPECT_EQ(last, ":1\r\n") << "only the fast subscriber is left";
    while (fast_bytes < frame * sent && fast->ReadSome(2000) > 0) {
      fast_bytes += fast->TakePending().size();
    }
    EXPECT_EQ(fast_bytes, frame * sent);
    const std::string list = admin->Call({"CLIENT", "LIST", "TYPE", "pubsub"});
    size_t subscribers = 0;
    for (size_t at = list.find("id="); at != std::string::npos; at = list.find("id=", at + 1)) {
      ++subscribers;
    }
    EXPECT_EQ(subscribers, 1u) << list;
    admin->Call({"CONFIG", "SET", "client-output-buffer-limit", "pubsub 32mb 8mb 60"});
  }
}

}  // namespace
}  // namespace kv::test
