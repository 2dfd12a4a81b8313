// Client-side caching through the real dispatcher: CLIENT TRACKING in its modes (default, OPTIN,
// OPTOUT, BCAST with prefixes, NOLOOP, REDIRECT), the invalidation frames in RESP3 and through a
// RESP2 redirect client's __redis__:invalidate channel, flushes, tracking-table-max-keys, and
// CLIENT CACHING / GETREDIR / TRACKINGINFO.

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

std::string Invalidate(const std::vector<std::string>& keys) {
  std::string f = ">2\r\n" + Bulk("invalidate") + "*" + std::to_string(keys.size()) + "\r\n";
  for (const std::string& k : keys) f += Bulk(k);
  return f;
}
const std::string kInvalidateAll = ">2\r\n" + Bulk("invalidate") + "_\r\n";
std::string RedirectedMessage(const std::vector<std::string>& keys) {
  std::string f = "*3\r\n" + Bulk("message") + Bulk("__redis__:invalidate") + "*" +
                  std::to_string(keys.size()) + "\r\n";
  for (const std::string& k : keys) f += Bulk(k);
  return f;
}

class TrackingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    h.Run({"HELLO", "3"});
    writer = &h.NewClient();
  }
  CommandHarness h;
  CommandHarness::Client* writer = nullptr;
};

TEST_F(TrackingTest, ReadKeysAreInvalidatedOnceWhenWritten) {
  EXPECT_EQ(h.Run({"CLIENT", "TRACKING", "ON"}), kOk);
  h.Run({"SET", "a", "1"});
  h.Run({"SET", "b", "1"});
  EXPECT_EQ(h.Run({"GET", "a"}), Bulk("1"));
  h.Run({"MGET", "b", "c"});
  writer->Run({"SET", "a", "2"});
  EXPECT_EQ(h.TakeOutput(), Invalidate({"a"}));
  writer->Run({"SET", "a", "3"});
  EXPECT_EQ(h.TakeOutput(), "") << "invalidated once until read again";
  writer->Run({"DEL", "b", "c"});
  const std::string both = h.TakeOutput();
  EXPECT_EQ(both, Invalidate({"b"})) << "c was read but missing: tracked too, yet DEL of a "
                                        "missing key changes nothing";
  writer->Run({"SET", "c", "1"});
  EXPECT_EQ(h.TakeOutput(), Invalidate({"c"}));
  // Writes by the client itself invalidate too, after the command's reply.
  h.Run({"GET", "a"});
  EXPECT_EQ(h.Run({"SET", "a", "4"}), kOk + Invalidate({"a"}));
  EXPECT_EQ(h.Run({"CLIENT", "TRACKING", "OFF"}), kOk);
  writer->Run({"SET", "a", "5"});
  EXPECT_EQ(h.TakeOutput(), "");
}

TEST_F(TrackingTest, ListSetSortedSetGeoAndHllWritesInvalidate) {
  h.Run({"CLIENT", "TRACKING", "ON"});
  writer->Run({"RPUSH", "l", "a", "b"});
  writer->Run({"SADD", "s", "1", "2"});
  writer->Run({"ZADD", "z", "1", "a", "2", "b"});
  writer->Run({"PFADD", "p", "a"});
  struct Case {
    std::vector<std::string> read, write;
    std::vector<std::string> invalidated;
  };
  const std::vector<Case> cases = {
      {{"LRANGE", "l", "0", "-1"}, {"RPUSH", "l", "c"}, {"l"}},
      {{"LLEN", "l"}, {"LPOP", "l"}, {"l"}},
      {{"LINDEX", "l", "0"}, {"LMOVE", "l", "l2", "LEFT", "LEFT"}, {"l"}},
      {{"LLEN", "l2"}, {"RPOPLPUSH", "l", "l2"}, {"l2"}},
      {{"LLEN", "l2"}, {"LTRIM", "l2", "0", "-1"}, {"l2"}},
      {{"SMEMBERS", "s"}, {"SREM", "s", "1"}, {"s"}},
      {{"SCARD", "s"}, {"SPOP", "s"}, {"s"}},
      {{"SCARD", "s2"}, {"SUNIONSTORE", "s2", "nothing"}, {}},
      {{"ZRANGE", "z", "0", "-1"}, {"ZINCRBY", "z", "1", "a"}, {"z"}},
      {{"ZSCORE", "z", "a"}, {"ZPOPMAX", "z"}, {"z"}},
      {{"ZCARD", "zz"}, {"ZUNIONSTORE", "zz", "1", "z"}, {"zz"}},
      {{"GEOPOS", "g", "m"}, {"GEOADD", "g", "1", "1", "m"}, {"g"}},
      {{"PFCOUNT", "p"}, {"PFADD", "p", "b"}, {"p"}},
      {{"GET", "p"}, {"PFMERGE", "p"}, {"p"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.write[0]);
    h.Run(c.read);
    h.TakeOutput();
    writer->Run(c.write);
    EXPECT_EQ(h.TakeOutput(), c.invalidated.empty() ? "" : Invalidate(c.invalidated));
  }
  // A served blocked client's pop invalidates the key once: by the push that made it ready.
  auto& blocked = h.NewClient();
  blocked.Run({"BLPOP", "q", "0"});
  h.Run({"LLEN", "q"});
  writer->Run({"RPUSH", "q", "x"});
  EXPECT_EQ(h.TakeOutput(), Invalidate({"q"}));
  EXPECT_EQ(blocked.TakeOutput(), "*2\r\n" + Bulk("q") + Bulk("x"));
}

TEST_F(TrackingTest, ServedBlmoveGetsItsOwnInvalidationAfterItsReply) {
  // Redis's serveClientsBlockedOnListKey runs the served command as the current client: the
  // invalidation of the key it pushed to follows its reply (tracking.tcl's "Unblocked BLMOVE").
  writer->Run({"RPUSH", "list2", "a"});
  h.Run({"CLIENT", "TRACKING", "ON"});
  h.Run({"LRANGE", "list2", "0", "-1"});
  EXPECT_EQ(h.Run({"BLMOVE", "list1", "list2", "LEFT", "LEFT", "0"}), "");
  writer->Run({"RPUSH", "list1", "foo"});
  EXPECT_EQ(h.TakeOutput(), Bulk("foo") + Invalidate({"list2"}));
  // With NOLOOP, its own push invalidates nothing.
  h.Run({"CLIENT", "TRACKING", "OFF"});
  h.Run({"CLIENT", "TRACKING", "ON", "NOLOOP"});
  h.Run({"LRANGE", "list2", "0", "-1"});
  h.Run({"BLMOVE", "list1", "list2", "LEFT", "LEFT", "0"});
  writer->Run({"RPUSH", "list1", "bar"});
  EXPECT_EQ(h.TakeOutput(), Bulk("bar"));
}

TEST_F(TrackingTest, NoloopSkipsTheClientsOwnWrites) {
  h.Run({"CLIENT", "TRACKING", "ON", "NOLOOP"});
  h.Run({"GET", "a"});
  EXPECT_EQ(h.Run({"SET", "a", "1"}), kOk);
  writer->Run({"SET", "a", "2"});
  EXPECT_EQ(h.TakeOutput(), "") << "the own write dropped the key from the table";
}

TEST_F(TrackingTest, OptinAndOptout) {
  h.Run({"CLIENT", "TRACKING", "ON", "OPTIN"});
  h.Run({"GET", "a"});
  EXPECT_EQ(h.Run({"CLIENT", "CACHING", "YES"}), kOk);
  h.Run({"GET", "b"});
  h.Run({"GET", "c"});  // CACHING lasts one command
  writer->Run({"MSET", "a", "1", "b", "1", "c", "1"});
  EXPECT_EQ(h.TakeOutput(), Invalidate({"b"}));
  EXPECT_EQ(h.Run({"CLIENT", "CACHING", "NO"}),
            Err("CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode."));
  EXPECT_EQ(h.Run({"CLIENT", "TRACKING", "ON", "OPTOUT"}),
            Err("You can't switch OPTIN/OPTOUT mode before disabling tracking for this client, "
                "and then re-enabling it with a different mode."));
  h.Run({"CLIENT", "TRACKING", "OFF"});
  EXPECT_EQ(h.Run({"CLIENT", "CACHING", "YES"}),
            Err("CLIENT CACHING can be called only when the client is in tracking mode with "
                "OPTIN or OPTOUT mode enabled"));
  h.Run({"CLIENT", "TRACKING", "ON", "OPTOUT"});
  h.Run({"CLIENT", "CACHING", "NO"});
  h.Run({"GET", "a"});
  h.Run({"GET", "b"});
  writer->Run({"MSET", "a", "2", "b", "2"});
  EXPECT_EQ(h.TakeOutput(), Invalidate({"b"}));
  // In a transaction, CACHING covers every command of it.
  h.Run({"CLIENT", "TRACKING", "OFF"});
  h.Run({"CLIENT", "TRACKING", "ON", "OPTIN"});
  h.Run({"CLIENT", "CACHING", "YES"});
  h.Run({"MULTI"});
  h.Run({"GET", "a"});
  h.Run({"GET", "b"});
  h.Run({"EXEC"});
  writer->Run({"MSET", "a", "3", "b", "3"});
  EXPECT_EQ(h.TakeOutput(), Invalidate({"a"}) + Invalidate({"b"}));
}

TEST_F(TrackingTest, BroadcastByPrefixOncePerTurn) {
  EXPECT_EQ(h.Run({"CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "user:", "PREFIX", "obj:"}), kOk);
  // Keys written in one turn of the loop (here: one command) come in one frame per prefix,
  // sorted.
  writer->Run({"MSET", "user:2", "x", "user:1", "y", "other", "z", "obj:1", "w"});
  EXPECT_EQ(h.TakeOutput(), Invalidate({"obj:1"}) + Invalidate({"user:1", "user:2"}));
  EXPECT_EQ(h.Run({"CLIENT", "TRACKING", "ON"}),
            Err("You can't switch BCAST mode on/off before disabling tracking for this client, "
                "and then re-enabling it with a different mode."));
  EXPECT_EQ(h.Run({"CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "user:x"}),
            Err("Prefix 'user:x' overlaps with an existing prefix 'user:'. Prefixes for a single "
                "client must not overlap."));
  const std::string info = h.Run({"CLIENT", "TRACKINGINFO"});
  EXPECT_EQ(info, "%3\r\n" + Bulk("flags") + "~2\r\n" + Bulk("on") + Bulk("bcast") +
                      Bulk("redirect") + Int(0) + Bulk("prefixes") + "*2\r\n" + Bulk("obj:") +
                      Bulk("user:"));
  EXPECT_NE(h.Run({"INFO", "stats"}).find("tracking_total_prefixes:2\r\n"), std::string::npos);
  h.Run({"CLIENT", "TRACKING", "OFF"});
  EXPECT_NE(h.Run({"INFO", "stats"}).find("tracking_total_prefixes:0\r\n"), std::string::npos);
  // Without a prefix, every key.
  h.Run({"CLIENT", "TRACKING", "ON", "BCAST", "NOLOOP"});
  h.Run({"SET", "mine", "1"});
  EXPECT_EQ(h.TakeOutput(), "") << "NOLOOP: its own key";
  writer->Run({"SET", "theirs", "1"});
  EXPECT_EQ(h.TakeOutput(), Invalidate({"theirs"}));
}

TEST_F(TrackingTest, PrefixOverlapAmongGivenPrefixes) {
  EXPECT_EQ(h.Run({"CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "a", "PREFIX", "ab"}),
            Err("Prefix 'a' overlaps with another provided prefix 'ab'. Prefixes for a single "
                "client must not overlap."));
  EXPECT_EQ(h.Run({"CLIENT", "TRACKINGINFO"}).find("bcast"), std::string::npos);
  // Past the first prefix, Redis 7.0 replies the error and enables tracking anyway.
  EXPECT_EQ(
      h.Run({"CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "x", "PREFIX", "b", "PREFIX", "bc"}),
      Err("Prefix 'b' overlaps with another provided prefix 'bc'. Prefixes for a single "
          "client must not overlap.") +
          kOk);
}

TEST_F(TrackingTest, Resp2RedirectThroughTheInvalidateChannel) {
  h.Run({"HELLO", "2"});
  auto& sink = h.NewClient();
  sink.Run({"SUBSCRIBE", "__redis__:invalidate"});
  sink.TakeOutput();
  const std::string id = std::to_string(sink.conn().id);
  EXPECT_EQ(h.Run({"CLIENT", "TRACKING", "ON", "REDIRECT", id}), kOk);
  EXPECT_EQ(h.Run({"CLIENT", "GETREDIR"}), Int(static_cast<int64_t>(sink.conn().id)));
  h.Run({"GET", "k"});
  writer->Run({"SET", "k", "1"});
  EXPECT_EQ(sink.TakeOutput(), RedirectedMessage({"k"}));
  EXPECT_EQ(h.TakeOutput(), "");
  // FLUSHALL: everything, as a null.
  writer->Run({"FLUSHALL"});
  EXPECT_EQ(sink.TakeOutput(), "*3\r\n" + Bulk("message") + Bulk("__redis__:invalidate") + kNil);
  // The redirect client goes away: the flag shows it (a RESP2 client cannot be told).
  h.Run({"GET", "k"});
  sink.Disconnect();
  writer->Run({"SET", "k", "2"});
  EXPECT_NE(h.Run({"CLIENT", "TRACKINGINFO"}).find(Bulk("broken_redirect")), std::string::npos);
  EXPECT_NE(h.Run({"CLIENT", "LIST"}).find("flags=tR "), std::string::npos);
  EXPECT_EQ(h.Run({"CLIENT", "TRACKING", "ON", "REDIRECT", "9999"}),
            Err("The client ID you want redirect to does not exist"));
  const std::string live = std::to_string(writer->conn().id);
  EXPECT_EQ(h.Run({"CLIENT", "TRACKING", "ON", "REDIRECT", live, "REDIRECT", live}),
            Err("A client can only redirect to a single other client"));
}

TEST_F(TrackingTest, Resp3ClientIsToldItsRedirectIsBroken) {
  auto& sink = h.NewClient();
  h.Run({"CLIENT", "TRACKING", "ON", "REDIRECT", std::to_string(sink.conn().id)});
  h.Run({"GET", "k"});
  sink.Disconnect();
  writer->Run({"SET", "k", "1"});
  EXPECT_EQ(h.TakeOutput(),
            ">2\r\n" + Bulk("tracking-redir-broken") + Int(static_cast<int64_t>(sink.conn().id)));
}

TEST_F(TrackingTest, FlushInvalidatesEverythingForEveryTrackingClient) {
  h.Run({"CLIENT", "TRACKING", "ON"});
  EXPECT_EQ(writer->Run({"FLUSHDB"}), kOk);
  EXPECT_EQ(h.TakeOutput(), kInvalidateAll);
  // The client's own FLUSHALL: after its reply.
  EXPECT_EQ(h.Run({"FLUSHALL"}), kOk + kInvalidateAll);
}

TEST_F(TrackingTest, ExpiryAndEvictionInvalidate) {
  h.Run({"CLIENT", "TRACKING", "ON"});
  h.Run({"SET", "k", "v", "PX", "100"});
  h.Run({"GET", "k"});
  h.AdvanceClock(200);
  h.state().dbs.ActiveExpireAll(h.clock().NowMs());
  EXPECT_EQ(h.TakeOutput(), Invalidate({"k"}));
}

TEST_F(TrackingTest, TableKeepsToItsLimit) {
  h.Run({"CLIENT", "TRACKING", "ON"});
  for (int i = 0; i < 10; ++i) h.Run({"GET", "k" + std::to_string(i)});
  EXPECT_NE(h.Run({"INFO", "stats"}).find("tracking_total_keys:10\r\ntracking_total_items:10\r\n"),
            std::string::npos);
  h.Run({"CONFIG", "SET", "tracking-table-max-keys", "4"});
  h.TakeOutput();
  // The next command trims the table; the dropped keys are invalidated.
  const std::string out = writer->Run({"PING"});
  EXPECT_EQ(out, "+PONG\r\n");
  const std::string invalidations = h.TakeOutput();
  EXPECT_NE(h.Run({"INFO", "stats"}).find("tracking_total_keys:4\r\n"), std::string::npos);
  size_t frames = 0;
  for (size_t at = invalidations.find("invalidate"); at != std::string::npos;
       at = invalidations.find("invalidate", at + 1)) {
    ++frames;
  }
  EXPECT_GE(frames, 6u);
}

TEST_F(TrackingTest, ClientListAndInfo) {
  EXPECT_EQ(h.Run({"CLIENT", "GETREDIR"}), Int(-1));
  EXPECT_EQ(h.Run({"CLIENT", "TRACKINGINFO"}), "%3\r\n" + Bulk("flags") + "~1\r\n" + Bulk("off") +
                                                   Bulk("redirect") + Int(-1) + Bulk("prefixes") +
                                                   "*0\r\n");
  h.Run({"CLIENT", "TRACKING", "ON", "OPTIN", "NOLOOP"});
  h.Run({"CLIENT", "CACHING", "YES"});
  EXPECT_EQ(h.Run({"CLIENT", "TRACKINGINFO"}),
            "%3\r\n" + Bulk("flags") + "~4\r\n" + Bulk("on") + Bulk("optin") + Bulk("caching-yes") +
                Bulk("noloop") + Bulk("redirect") + Int(0) + Bulk("prefixes") + "*0\r\n");
  EXPECT_EQ(h.Run({"CLIENT", "GETREDIR"}), Int(0));
  EXPECT_NE(h.Run({"CLIENT", "INFO"}).find(" flags=t "), std::string::npos);
  EXPECT_NE(h.Run({"INFO", "clients"}).find("tracking_clients:1\r\n"), std::string::npos);
  EXPECT_EQ(h.Run({"CLIENT", "TRACKING", "MAYBE"}), Err("syntax error"));
  EXPECT_EQ(h.Run({"CLIENT", "TRACKING", "ON", "PREFIX", "a"}),
            Err("PREFIX option requires BCAST mode to be enabled"));
  EXPECT_EQ(h.Run({"CLIENT", "TRACKING", "ON", "OPTIN", "OPTOUT"}),
            Err("You can't specify both OPTIN mode and OPTOUT mode"));
  h.Run({"RESET"});
  EXPECT_NE(h.Run({"INFO", "clients"}).find("tracking_clients:0\r\n"), std::string::npos);
}

}  // namespace
}  // namespace kv::test
