// Pub/sub through the real dispatcher: SUBSCRIBE and friends, PUBLISH, PUBSUB, the RESP2
// subscribed mode, RESP3 push frames, and what a disconnect or RESET leaves behind.

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

// A pub/sub frame: *n (RESP2) or >n (RESP3) with bulk strings, and a trailing count if given.
std::string Frame(bool resp3, std::vector<std::string> bulks, const int64_t* count = nullptr) {
  std::string f = (resp3 ? ">" : "*") + std::to_string(bulks.size() + (count ? 1 : 0)) + "\r\n";
  for (const std::string& b : bulks) f += Bulk(b);
  if (count != nullptr) f += Int(*count);
  return f;
}
std::string Sub(std::string_view kind, std::string_view name, int64_t count, bool resp3 = false) {
  return Frame(resp3, {std::string(kind), std::string(name)}, &count);
}
std::string Msg(std::string_view channel, std::string_view message, bool resp3 = false) {
  return Frame(resp3, {"message", std::string(channel), std::string(message)});
}
std::string PMsg(std::string_view pattern, std::string_view channel, std::string_view message,
                 bool resp3 = false) {
  return Frame(resp3,
               {"pmessage", std::string(pattern), std::string(channel), std::string(message)});
}

class PubSubFamilyTest : public ::testing::Test {
 protected:
  CommandHarness h;
};

TEST_F(PubSubFamilyTest, SubscribeRepliesOneFramePerChannelWithTheRunningCount) {
  EXPECT_EQ(h.Run({"SUBSCRIBE", "a", "b", "a"}),
            Sub("subscribe", "a", 1) + Sub("subscribe", "b", 2) + Sub("subscribe", "a", 2));
  EXPECT_EQ(h.Run({"PSUBSCRIBE", "x*"}), Sub("psubscribe", "x*", 3));
  // Shard channels are counted on their own.
  EXPECT_EQ(h.Run({"SSUBSCRIBE", "s"}), Sub("ssubscribe", "s", 1));
  EXPECT_EQ(h.Run({"UNSUBSCRIBE", "b", "nope"}),
            Sub("unsubscribe", "b", 2) + Sub("unsubscribe", "nope", 2));
  EXPECT_EQ(h.Run({"PUNSUBSCRIBE"}), Sub("punsubscribe", "x*", 1));
  EXPECT_EQ(h.Run({"SUNSUBSCRIBE"}), Sub("sunsubscribe", "s", 0));
  // Nothing left to leave: one frame with a null name.
  EXPECT_EQ(h.Run({"UNSUBSCRIBE", "a"}), Sub("unsubscribe", "a", 0));
  EXPECT_EQ(h.Run({"UNSUBSCRIBE"}), "*3\r\n" + Bulk("unsubscribe") + kNil + Int(0));
  EXPECT_EQ(h.Run({"PUNSUBSCRIBE"}), "*3\r\n" + Bulk("punsubscribe") + kNil + Int(0));
  EXPECT_FALSE(h.conn().pubsub_mode);
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
}

TEST_F(PubSubFamilyTest, PublishReachesChannelThenPatternSubscribersInOrder) {
  auto& a = h.NewClient();
  auto& b = h.NewClient();
  a.Run({"SUBSCRIBE", "news"});
  b.Run({"PSUBSCRIBE", "n*", "*s"});
  b.Run({"SUBSCRIBE", "news"});
  // a and b on the channel (in subscription order), then b once per matching pattern.
  EXPECT_EQ(h.Run({"PUBLISH", "news", "hi"}), Int(4));
  EXPECT_EQ(a.TakeOutput(), Msg("news", "hi"));
  const std::string got = b.TakeOutput();
  EXPECT_TRUE(got.starts_with(Msg("news", "hi"))) << got;
  EXPECT_NE(got.find(PMsg("n*", "news", "hi")), std::string::npos);
  EXPECT_NE(got.find(PMsg("*s", "news", "hi")), std::string::npos);
  EXPECT_EQ(got.size(), Msg("news", "hi").size() + PMsg("n*", "news", "hi").size() +
                            PMsg("*s", "news", "hi").size());
  EXPECT_EQ(h.Run({"PUBLISH", "other", "x"}), Int(0));
  // Binary-safe channels and messages.
  const std::string bin("c\0\r\n", 4);
  a.Run({"SUBSCRIBE", bin});
  EXPECT_EQ(h.Run({"PUBLISH", bin, std::string("\0m", 2)}), Int(1));
  EXPECT_EQ(a.TakeOutput(), Msg(bin, std::string("\0m", 2)));
}

TEST_F(PubSubFamilyTest, ShardChannelsIgnorePatterns) {
  auto& a = h.NewClient();
  a.Run({"PSUBSCRIBE", "*"});
  a.Run({"SSUBSCRIBE", "s1"});
  EXPECT_EQ(h.Run({"SPUBLISH", "s1", "m"}), Int(1));
  EXPECT_EQ(a.TakeOutput(), Frame(false, {"smessage", "s1", "m"}));
  // PUBLISH and SPUBLISH are different namespaces.
  EXPECT_EQ(h.Run({"PUBLISH", "s1", "m"}), Int(1));
  EXPECT_EQ(a.TakeOutput(), PMsg("*", "s1", "m"));
}

TEST_F(PubSubFamilyTest, Resp2SubscriberMayOnlySubscribePingQuitReset) {
  h.Run({"SUBSCRIBE", "c"});
  EXPECT_EQ(h.Run({"GET", "k"}),
            Err("Can't execute 'get': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / "
                "RESET are allowed in this context"));
  EXPECT_EQ(h.Run({"CLIENT", "ID"}),
            Err("Can't execute 'client|id': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / "
                "QUIT / RESET are allowed in this context"));
  // Still an unknown command first, and arity first.
  EXPECT_EQ(h.Run({"NOPE"}), Err("unknown command 'NOPE', with args beginning with: "));
  EXPECT_EQ(h.Run({"PING"}), "*2\r\n" + Bulk("pong") + Bulk(""));
  EXPECT_EQ(h.Run({"PING", "x"}), "*2\r\n" + Bulk("pong") + Bulk("x"));
  EXPECT_EQ(h.Run({"RESET"}), "+RESET\r\n");
  EXPECT_EQ(h.Run({"PING"}), "+PONG\r\n");
  EXPECT_EQ(h.Run({"PUBLISH", "c", "m"}), Int(0)) << "RESET left the channel";
}

TEST_F(PubSubFamilyTest, Resp3SubscriberGetsPushFramesAndRunsAnything) {
  h.Run({"HELLO", "3"});
  EXPECT_EQ(h.Run({"SUBSCRIBE", "c"}), Sub("subscribe", "c", 1, true));
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  EXPECT_EQ(h.Run({"PING"}), "+PONG\r\n");
  // Publishing to itself: the message comes first, then PUBLISH's own reply.
  EXPECT_EQ(h.Run({"PUBLISH", "c", "m"}), Msg("c", "m", true) + Int(1));
  EXPECT_EQ(h.Run({"UNSUBSCRIBE"}), Sub("unsubscribe", "c", 0, true));
  EXPECT_EQ(h.Run({"UNSUBSCRIBE"}), ">3\r\n" + Bulk("unsubscribe") + "_\r\n" + Int(0));
}

TEST_F(PubSubFamilyTest, ClientReplyOffKeepsPushedFrames) {
  h.Run({"HELLO", "3"});
  EXPECT_EQ(h.Run({"CLIENT", "REPLY", "OFF"}), "");
  EXPECT_EQ(h.Run({"SUBSCRIBE", "c"}), Sub("subscribe", "c", 1, true));
  // The message is pushed, PUBLISH's reply is not.
  EXPECT_EQ(h.Run({"PUBLISH", "c", "m"}), Msg("c", "m", true));
  EXPECT_EQ(h.Run({"GET", "k"}), "");
  auto& other = h.NewClient();
  other.Run({"PUBLISH", "c", "n"});
  EXPECT_EQ(h.TakeOutput(), Msg("c", "n", true));
  // An error reply is counted, but not sent.
  EXPECT_EQ(h.Run({"INCR", "nope", "x"}), "");
  EXPECT_NE(h.Run({"CLIENT", "REPLY", "ON"}), "");
}

TEST_F(PubSubFamilyTest, PubSubIntrospection) {
  auto& a = h.NewClient();
  auto& b = h.NewClient();
  a.Run({"SUBSCRIBE", "ch1", "ch2"});
  b.Run({"SUBSCRIBE", "ch1"});
  a.Run({"PSUBSCRIBE", "p*", "q*"});
  b.Run({"PSUBSCRIBE", "p*"});
  b.Run({"SSUBSCRIBE", "sh"});
  EXPECT_EQ(h.Run({"PUBSUB", "NUMSUB", "ch1", "ch2", "ch3"}),
            "*6\r\n" + Bulk("ch1") + Int(2) + Bulk("ch2") + Int(1) + Bulk("ch3") + Int(0));
  EXPECT_EQ(h.Run({"PUBSUB", "NUMSUB"}), "*0\r\n");
  EXPECT_EQ(h.Run({"PUBSUB", "NUMPAT"}), Int(2)) << "unique patterns";
  EXPECT_EQ(h.Run({"PUBSUB", "CHANNELS", "*2"}), "*1\r\n" + Bulk("ch2"));
  const std::string all = h.Run({"PUBSUB", "CHANNELS"});
  EXPECT_TRUE(all == "*2\r\n" + Bulk("ch1") + Bulk("ch2") ||
              all == "*2\r\n" + Bulk("ch2") + Bulk("ch1"))
      << all;
  EXPECT_EQ(h.Run({"PUBSUB", "SHARDCHANNELS"}), "*1\r\n" + Bulk("sh"));
  EXPECT_EQ(h.Run({"PUBSUB", "SHARDNUMSUB", "sh", "ch1"}),
            "*4\r\n" + Bulk("sh") + Int(1) + Bulk("ch1") + Int(0));
  EXPECT_EQ(h.Run({"PUBSUB", "CHANNELS", "a", "b"}),
            Err("unknown subcommand or wrong number of arguments for 'CHANNELS'. Try PUBSUB "
                "HELP."));
  EXPECT_EQ(h.Run({"PUBSUB", "NUMPAT", "x"}),
            Err("wrong number of arguments for 'pubsub|numpat' command"));
  EXPECT_EQ(h.Run({"PUBSUB"}), Err("wrong number of arguments for 'pubsub' command"));
  const std::string info = h.Run({"INFO", "stats"});
  EXPECT_NE(info.find("pubsub_channels:2\r\npubsub_patterns:2\r\npubsubshard_channels:1\r\n"),
            std::string::npos)
      << info;
  const std::string list = h.Run({"CLIENT", "LIST"});
  EXPECT_NE(list.find("id=2 "), std::string::npos);
  EXPECT_NE(list.find("flags=P db=0 sub=2 psub=2 ssub=0"), std::string::npos) << list;
  EXPECT_NE(list.find("flags=P db=0 sub=1 psub=1 ssub=1"), std::string::npos) << list;
  EXPECT_EQ(h.Run({"CLIENT", "LIST", "TYPE", "pubsub"}).find("id=1 "), std::string::npos);
  // A client that goes away leaves nothing behind.
  a.Disconnect();
  b.Disconnect();
  EXPECT_EQ(h.Run({"PUBSUB", "NUMSUB", "ch1"}), "*2\r\n" + Bulk("ch1") + Int(0));
  EXPECT_EQ(h.Run({"PUBSUB", "NUMPAT"}), Int(0));
  EXPECT_EQ(h.Run({"PUBSUB", "CHANNELS"}), "*0\r\n");
  EXPECT_EQ(h.Run({"PUBSUB", "SHARDCHANNELS"}), "*0\r\n");
  EXPECT_EQ(h.Run({"PUBLISH", "ch1", "x"}), Int(0));
}

TEST_F(PubSubFamilyTest, PatternsUseTheKeysGlobAndStayBounded) {
  auto& a = h.NewClient();
  a.Run({"PSUBSCRIBE", "h?llo", "h[^e]llo", "h\\*", "*a*a*a*a*a*a*a*a*a*a*b"});
  a.TakeOutput();
  EXPECT_EQ(h.Run({"PUBLISH", "hallo", "m"}), Int(2));
  EXPECT_EQ(h.Run({"PUBLISH", "hello", "m"}), Int(1));
  EXPECT_EQ(h.Run({"PUBLISH", "h*", "m"}), Int(1));
  // A pathological pattern against a long channel name answers at once (Redis's bound on
  // '*' backtracking), and does not match.
  EXPECT_EQ(h.Run({"PUBLISH", std::string(100000, 'a'), "m"}), Int(0));
}

TEST_F(PubSubFamilyTest, ManySubscriptionsOnOneConnection) {
  std::vector<std::string> args = {"SUBSCRIBE"};
  for (int i = 0; i < 100000; ++i) args.push_back("c" + std::to_string(i));
  const std::string reply = h.Run(args);
  EXPECT_TRUE(reply.ends_with(Sub("subscribe", "c99999", 100000)));
  args[0] = "PSUBSCRIBE";
  EXPECT_TRUE(h.Run(args).ends_with(Sub("psubscribe", "c99999", 200000)));
  auto& p = h.NewClient();
  EXPECT_EQ(p.Run({"PUBLISH", "c500", "m"}), Int(2));
  EXPECT_EQ(p.Run({"PUBSUB", "NUMPAT"}), Int(100000));
  EXPECT_EQ(h.TakeOutput(), Msg("c500", "m") + PMsg("c500", "c500", "m"));
  // In subscription order, as Redis's pattern list.
  const std::string gone = h.Run({"PUNSUBSCRIBE"});
  EXPECT_TRUE(gone.starts_with(Sub("punsubscribe", "c0", 199999)));
  EXPECT_TRUE(gone.ends_with(Sub("punsubscribe", "c99999", 100000)));
  h.Run({"UNSUBSCRIBE"});
  EXPECT_EQ(p.Run({"PUBSUB", "NUMPAT"}), Int(0));
  EXPECT_EQ(p.Run({"PUBSUB", "CHANNELS"}), "*0\r\n");
}

TEST_F(PubSubFamilyTest, SubscribeInsideMultiRunsAtExec) {
  EXPECT_EQ(h.Run({"MULTI"}), kOk);
  EXPECT_EQ(h.Run({"SUBSCRIBE", "c"}), "+QUEUED\r\n");
  EXPECT_EQ(h.Run({"SSUBSCRIBE", "s"}), "+QUEUED\r\n");
  // SUBSCRIBE is allowed inside EXEC (Redis keeps that for compatibility), SSUBSCRIBE is not.
  EXPECT_EQ(h.Run({"EXEC"}), "*2\r\n" + Sub("subscribe", "c", 1) +
                                 Err("SSUBSCRIBE isn't allowed for a DENY BLOCKING client"));
  EXPECT_TRUE(h.conn().pubsub_mode);
}

}  // namespace
}  // namespace kv::test
