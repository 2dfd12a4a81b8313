// Hostile use of pub/sub and transactions against the real binary: 100,000 channels and patterns
// on one connection, a pathological pattern against a long channel name, 100,000 queued commands,
// WATCH of 100,000 keys, and clients that vanish mid-MULTI, while watching or while subscribed
// with replies piling up. The server answers as Redis does, keeps memory proportional to the work,
// and once the client is gone holds nothing of it (resident memory, outside sanitized builds whose
// allocator quarantines freed memory, INFO used_memory is back where it was; and the counters INFO
// shows are too).

#include <sys/socket.h>

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/integration/raw_client.h"
#include "tests/support/resp_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

#ifdef KV_SANITIZED
constexpr bool kCheckMemory = false;
#else
constexpr bool kCheckMemory = true;
#endif

// One command with `n` arguments named prefix0, prefix1, ... after `head`.
std::string ManyArgs(const std::vector<std::string>& head, const std::string& prefix, int n) {
  std::vector<std::string> args = head;
  for (int i = 0; i < n; ++i) args.push_back(prefix + std::to_string(i));
  return EncodeCommand(args);
}

// Closes with a reset, so that the server sees an abrupt disconnect.
void Vanish(std::unique_ptr<RawConnection>& c) {
  linger l{1, 0};
  ::setsockopt(c->fd(), SOL_SOCKET, SO_LINGER, &l, sizeof(l));
  c.reset();
}

std::string Info(RawConnection& c, const std::string& field) {
  const std::string info = c.Call({"INFO", "everything"});
  const size_t at = info.find(field + ":");
  if (at == std::string::npos) return "<missing>";
  const size_t start = at + field.size() + 1;
  return info.substr(start, info.find('\r', start) - start);
}

class PubSubTransactionsHostileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server = ServerProcess::StartKvserver();
    ASSERT_TRUE(server);
    admin = RawConnection::Connect(server->port());
    ASSERT_TRUE(admin);
  }
  // The allocator's live bytes (INFO used_memory), in kB: what the server holds, whatever the
  // allocator keeps cached for later.
  long UsedKb() { return std::stol(Info(*admin, "used_memory")) / 1024; }
  void ExpectMemoryBackNear(long before_kb, long slack_kb) {
    // Give the server time to notice the disconnect.
    EXPECT_TRUE(Eventually([&] { return Info(*admin, "connected_clients") == "1"; }, 20000));
    const long after = UsedKb();
    std::printf("used_memory %ld kB -> %ld kB (RSS %ld kB)\n", before_kb, after,
                ResidentKb(server->pid()));
    if (kCheckMemory) {
      EXPECT_LT(after - before_kb, slack_kb);
    }
  }

  std::unique_ptr<ServerProcess> server;
  std::unique_ptr<RawConnection> admin;
};

TEST_F(PubSubTransactionsHostileTest, HundredThousandChannelsAndPatternsThenVanish) {
  const long before = UsedKb();
  auto sub = RawConnection::Connect(server->port());
  ASSERT_TRUE(sub->Send(ManyArgs({"SUBSCRIBE"}, "channel:", 100000)));
  ASSERT_TRUE(sub->Send(ManyArgs({"PSUBSCRIBE"}, "pattern:*:", 100000)));
  std::string last;
  for (int i = 0; i < 200000; ++i) {
    std::optional<std::string> r = sub->ReadReply();
    ASSERT_TRUE(r) << "frame " << i;
    last = *r;
  }
  EXPECT_EQ(last, "*3\r\n$10\r\npsubscribe\r\n$15\r\npattern:*:99999\r\n:200000\r\n");
  EXPECT_EQ(Info(*admin, "pubsub_channels"), "100000");
  EXPECT_EQ(Info(*admin, "pubsub_patterns"), "100000");
  // A publish walks every pattern, as Redis's does, and still answers.
  EXPECT_EQ(admin->Call({"PUBLISH", "channel:7", "m"}), ":1\r\n");
  EXPECT_EQ(admin->Call({"PUBLISH", "pattern:x:5", "m"}), ":1\r\n");
  const long during = UsedKb();
  std::printf("100,000 channels and 100,000 patterns: used_memory %ld kB -> %ld kB\n", before,
              during);
  if (kCheckMemory) {
    EXPECT_LT(during - before, 200 * 1024) << "memory proportional to the work";
  }
  Vanish(sub);
  ExpectMemoryBackNear(before, 1024);
  EXPECT_EQ(Info(*admin, "pubsub_channels"), "0");
  EXPECT_EQ(Info(*admin, "pubsub_patterns"), "0");
  EXPECT_EQ(admin->Call({"PUBLISH", "channel:7", "m"}), ":0\r\n");
}

TEST_F(PubSubTransactionsHostileTest, PathologicalPatternDoesNotHang) {
  auto sub = RawConnection::Connect(server->port());
  ASSERT_TRUE(sub->Send(EncodeCommand(
      {"PSUBSCRIBE", "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", "[[[[[[[[[[a", "\\\\\\"})));
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(sub->ReadReply());
  const std::string channel(200000, 'a');
  // Redis's matcher gives up on longer matches once one '*' failed: this returns at once.
  EXPECT_EQ(admin->Call({"PUBLISH", channel, "m"}), ":0\r\n");
  EXPECT_EQ(admin->Call({"PUBSUB", "CHANNELS", "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b"}), "*0\r\n");
  EXPECT_EQ(admin->Call({"PING"}), "+PONG\r\n");
}

TEST_F(PubSubTransactionsHostileTest, HundredThousandQueuedCommands) {
  auto tx = RawConnection::Connect(server->port());
  std::string batch = EncodeCommand({"MULTI"});
  for (int i = 0; i < 100000; ++i) batch += EncodeCommand({"SET", "key:" + std::to_string(i), "v"});
  ASSERT_TRUE(tx->Send(batch));
  ASSERT_EQ(tx->ReadReply(), "+OK\r\n");
  for (int i = 0; i < 100000; ++i) ASSERT_EQ(tx->ReadReply(), "+QUEUED\r\n") << i;
  const std::string list = admin->Call({"CLIENT", "LIST"});
  EXPECT_NE(list.find("flags=x db=0 sub=0 psub=0 ssub=0 multi=100000 "), std::string::npos);
  EXPECT_EQ(admin->Call({"DBSIZE"}), ":0\r\n") << "nothing ran yet";
  ASSERT_TRUE(tx->Send(EncodeCommand({"EXEC"})));
  const std::optional<std::string> exec = tx->ReadReply(60000);
  ASSERT_TRUE(exec);
  EXPECT_TRUE(exec->starts_with("*100000\r\n+OK\r\n"));
  EXPECT_EQ(exec->size(), std::string("*100000\r\n").size() + 100000 * 5);
  EXPECT_EQ(admin->Call({"DBSIZE"}), ":100000\r\n");
}

TEST_F(PubSubTransactionsHostileTest, VanishingMidMultiRunsNothingAndKeepsNothing) {
  const long before = UsedKb();
  auto tx = RawConnection::Connect(server->port());
  std::string batch = EncodeCommand({"MULTI"});
  const std::string value(1000, 'v');
  for (int i = 0; i < 100000; ++i)
    batch += EncodeCommand({"SET", "key:" + std::to_string(i), value});
  ASSERT_TRUE(tx->Send(batch));
  for (int i = 0; i < 100001; ++i) ASSERT_TRUE(tx->ReadReply()) << i;
  const long queued = UsedKb();
  std::printf("100,000 queued SETs of 1000 bytes: used_memory %ld kB -> %ld kB\n", before, queued);
  if (kCheckMemory) {
    EXPECT_GT(queued - before, 90 * 1024) << "the queue holds the arguments";
    EXPECT_LT(queued - before, 250 * 1024) << "and not much more";
  }
  Vanish(tx);
  ExpectMemoryBackNear(before, 1024);
  EXPECT_EQ(admin->Call({"DBSIZE"}), ":0\r\n");
}

TEST_F(PubSubTransactionsHostileTest, WatchOfHundredThousandKeys) {
  const long before = UsedKb();
  auto tx = RawConnection::Connect(server->port());
  ASSERT_EQ(tx->Call({"SET", "key:4242", "1"}), "+OK\r\n");
  ASSERT_TRUE(tx->Send(ManyArgs({"WATCH"}, "key:", 100000)));
  ASSERT_EQ(tx->ReadReply(), "+OK\r\n");
  ASSERT_TRUE(tx->Send(ManyArgs({"WATCH"}, "key:", 100000)));
  ASSERT_EQ(tx->ReadReply(), "+OK\r\n");
  EXPECT_EQ(admin->Call({"SET", "key:99999", "x"}), "+OK\r\n");
  EXPECT_EQ(tx->Call({"MULTI"}), "+OK\r\n");
  EXPECT_EQ(tx->Call({"GET", "key:4242"}), "+QUEUED\r\n");
  EXPECT_EQ(tx->Call({"EXEC"}), "*-1\r\n");
  // Watched again, then the client vanishes: the server keeps none of it.
  ASSERT_TRUE(tx->Send(ManyArgs({"WATCH"}, "key:", 100000)));
  ASSERT_EQ(tx->ReadReply(), "+OK\r\n");
  Vanish(tx);
  ExpectMemoryBackNear(before, 1024);
  // A write to a key it watched finds no watcher (and no dangling state).
  EXPECT_EQ(admin->Call({"SET", "key:1", "x"}), "+OK\r\n");
}

TEST_F(PubSubTransactionsHostileTest, SubscriberVanishingWithRepliesPilingUp) {
  auto sub = RawConnection::Connect(server->port());
  ASSERT_TRUE(sub->Send(EncodeCommand({"SUBSCRIBE", "flood"})));
  ASSERT_TRUE(sub->ReadReply());
  const std::string payload(64 * 1024, 'x');
  // Under the default pubsub limit (32mb hard): 100 messages of 64 KB pile up unread.
  for (int i = 0; i < 100; ++i) {
    ASSERT_EQ(admin->Call({"PUBLISH", "flood", payload}), ":1\r\n") << i;
  }
  Vanish(sub);
  EXPECT_TRUE(Eventually(
      [&] {
        return admin->Call({"PUBLISH", "flood", "m"}) == ":0\r\n";
      },
      20000));
  EXPECT_EQ(Info(*admin, "pubsub_channels"), "0");
  // Past the hard limit, a subscriber that never reads is closed (and logged), the publisher
  // unaffected.
  auto stuck = RawConnection::Connect(server->port());
  ASSERT_TRUE(stuck->Send(EncodeCommand({"SUBSCRIBE", "flood"})));
  ASSERT_TRUE(stuck->ReadReply());
  std::string last;
  for (int i = 0; i < 1000 && last != ":0\r\n"; ++i)
    last = admin->Call({"PUBLISH", "flood", payload});
  EXPECT_EQ(last, ":0\r\n") << "closed at client-output-buffer-limit pubsub";
  EXPECT_NE(server->ReadLog().find("for overcoming of output buffer limits"), std::string::npos);
}

}  // namespace
}  // namespace kv::test
