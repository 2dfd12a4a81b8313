// Differential tests for the stream commands: the same requests go to kvserver and to the real
// redis-server 7.0.15, and the replies must be identical byte for byte, except for what depends on
// each server's clock (idle times, delivery and seen times, ids made by `*`, which are compared by
// their shape) and XINFO's radix-tree-nodes (kvserver keeps no radix tree).
//
// RandomStreamSequences runs seeded random sequences of XADD (explicit ids, MAXLEN/MINID with =, ~
// and LIMIT, NOMKSTREAM), XTRIM, XDEL, XRANGE/XREVRANGE, XLEN, XSETID, XGROUP (every subcommand),
// XREADGROUP (new entries and history, NOACK), XREAD, XACK, XPENDING, XCLAIM, XAUTOCLAIM, XINFO,
// DEBUG OBJECT (the RDB length of the listpack nodes and groups) and OBJECT ENCODING, under small
// stream-node-max-entries/-bytes so that nodes split and `~` trims whole nodes as Redis does.
//   KV_STREAM_DIFF_SEED=<seed>       replays just that sequence
//   KV_STREAM_DIFF_BASE_SEED=<seed>  replays a whole run
//   KV_STREAM_DIFF_SEQUENCES=<n>     changes how many sequences run (default 600)

#include <chrono>
#include <regex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/reply_pair.h"
#include "tests/support/resp_client.h"
#include "tests/support/resp_reply.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

using namespace std::string_literals;

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A reply's leaves (bulk and simple strings, integers as text, nulls as "<null>") and shape.
void Leaves(const RespReply& r, std::vector<std::string>* out) {
  switch (r.type) {
    case RespReply::Type::kArray:
    case RespReply::Type::kMap:
    case RespReply::Type::kSet:
      out->push_back("<" + std::string(TypeName(r.type)) + std::to_string(r.elements.size()) + ">");
      for (const RespReply& e : r.elements) Leaves(e, out);
      return;
    case RespReply::Type::kInteger:
      out->push_back(std::to_string(r.integer));
      return;
    case RespReply::Type::kNull:
    case RespReply::Type::kNullBulk:
    case RespReply::Type::kNullArray:
      out->push_back("<null " + std::string(TypeName(r.type)) + ">");
      return;
    default:
      out->push_back(r.str);
  }
}

const std::regex& VolatileDebugFields() {
  static const std::regex re("at:0x[0-9a-f]+|lru:[0-9]+ lru_seconds_idle:[0-9]+");
  return re;
}

// Masks what depends on each server's clock or on Redis's radix tree: the leaf after "idle",
// "seen-time" and "radix-tree-nodes", and integers that are Unix times in ms (delivery times).
void MaskVolatile(std::vector<std::string>* leaves) {
  for (size_t i = 0; i < leaves->size(); ++i) {
    const std::string& l = (*leaves)[i];
    if ((l == "idle" || l == "seen-time" || l == "radix-tree-nodes") && i + 1 < leaves->size()) {
      (*leaves)[i + 1] = "*";
    }
    if (l.size() >= 13 && l.size() <= 14 &&
        l.find_first_not_of("0123456789") == std::string::npos) {
      (*leaves)[i] = "<time>";
    }
  }
}

bool Same(const Args& args, const std::string& kv, const std::string& redis) {
  if (kv == redis) return true;
  const std::string cmd = Lower(args[0]);
  if (cmd == "hello") return !kv.empty() && !redis.empty() && kv[0] == redis[0];
  if (cmd == "debug") {
    return std::regex_replace(kv, VolatileDebugFields(), "") ==
           std::regex_replace(redis, VolatileDebugFields(), "");
  }
  const auto a = ParseReply(kv);
  const auto b = ParseReply(redis);
  if (!a || !b || a->type != b->type || a->type == RespReply::Type::kError) return false;
  std::vector<std::string> la, lb;
  Leaves(*a, &la);
  Leaves(*b, &lb);
  if (cmd == "xpending" && args.size() > 3) {
    // After the outer array's shape, each entry is [<array4>, id, consumer, idle, deliveries]:
    // the idle times differ.
    if (la.size() != lb.size()) return false;
    for (size_t i = 1; i + 4 < la.size(); i += 5) la[i + 3] = lb[i + 3] = "*";
    return la == lb;
  }
  if (cmd == "xinfo") {
    MaskVolatile(&la);
    MaskVolatile(&lb);
    return la == lb;
  }
  return false;
}

class Generator : public RandomChoices {
 public:
  using RandomChoices::RandomChoices;

  std::string Key() { return Pick({"s1", "s1", "s1", "s2", "str"}); }
  std::string Ms() { return std::to_string(Uniform(ms_range_)); }
  std::string Id() {
    if (Percent(4)) {
      return Pick({"0-0", "-", "+", "0", "x", "1-x", "18446744073709551615-18446744073709551615",
                   "18446744073709551616", "1--1", "(", "", " 1", "+1", "007-1",
                   "18446744073709551615"});
    }
    if (Percent(30)) return Ms();
    return Ms() + "-" + std::to_string(Uniform(4));
  }
  std::string AddId() {
    if (Percent(20)) return Ms() + "-*";
    return Id();
  }
  std::string RangeId() {
    if (Percent(15)) return Pick({"-", "+"});
    if (Percent(15)) return "(" + Id();
    return Id();
  }
  std::string Field() { return Pick({"a", "b", "c", "1", "-5", "x\0y"s, std::string(30, 'f')}); }
  std::string Value() {
    return Pick({"", "v", "1", "12345678901", "-1", std::string(20, 'v'), std::string(70, 'w')});
  }
  std::string Count() {
    if (Percent(5)) return Pick({"x", "-1", "0", "9223372036854775807", "99999999999999999999"});
    return std::to_string(1 + Uniform(8));
  }
  std::string Group() { return Pick({"g1", "g1", "g2"}); }
  std::string Consumer() { return Pick({"c1", "c2", "c3"}); }

  void Trim(Args* a) {
    const bool by_len = Percent(60);
    a->push_back(Case(by_len ? "maxlen" : "minid"));
    if (Percent(60)) a->push_back(Pick({"~", "=", "~"}));
    a->push_back(by_len ? (Percent(5) ? "-1" : std::to_string(Uniform(25))) : Id());
    if (Percent(20)) {
      a->push_back(Case("limit"));
      a->push_back(Percent(5) ? "-1" : std::to_string(Uniform(12)));
    }
  }

  Args Next() {
    const std::string k = Key();
    switch (Uniform(36)) {
      case 0:
      case 1:
      case 2:
      case 3:
      case 4:
      case 5:
      case 6:
      case 7: {
        Args a = {Case("xadd"), k};
        if (Percent(5)) a.push_back(Case("nomkstream"));
        if (Percent(25)) Trim(&a);
        a.push_back(AddId());
        const int pairs = 1 + static_cast<int>(Uniform(Percent(70) ? 2 : 4));
        const bool same = Percent(60);
        for (int i = 0; i < pairs; ++i) {
          a.push_back(same ? std::string(1, static_cast<char>('a' + i)) : Field());
          a.push_back(Value());
        }
        if (Percent(3)) a.pop_back();
        return a;
      }
      case 8:
      case 9: {
        const bool rev = Percent(30);
        Args a = {Case(rev ? "xrevrange" : "xrange"), k, RangeId(), RangeId()};
        if (Percent(50)) {
          a.push_back(Case("count"));
          a.push_back(Count());
        }
        return a;
      }
      case 10: {
        Args a = {Case("xdel"), k};
        for (int i = 0, n = 1 + static_cast<int>(Uniform(3)); i < n; ++i) a.push_back(Id());
        return a;
      }
      case 11: {
        Args a = {Case("xtrim"), k};
        Trim(&a);
        return a;
      }
      case 12:
        return {Case("xlen"), k};
      case 13: {
        Args a = {Case("xgroup"), Case("create"), k, Group(), Percent(30) ? "$" : Id()};
        if (Percent(30)) a.push_back(Case("mkstream"));
        if (Percent(15)) {
          a.push_back(Case("entriesread"));
          a.push_back(Pick({"0", "3", "-1", "-2", "100"}));
        }
        return a;
      }
      case 14: {
        Args a = {Case("xgroup"), Case("setid"), k, Group(), Percent(30) ? "$" : Id()};
        if (Percent(20)) {
          a.push_back(Case("entriesread"));
          a.push_back(Pick({"0", "2", "-1"}));
        }
        return a;
      }
      case 15:
        return {Case("xgroup"), Case(Pick({"destroy", "createconsumer", "delconsumer"})), k,
                Group(), Consumer()};
      case 16:
      case 17:
      case 18:
      case 19: {
        Args a = {Case("xreadgroup"), Case("group"), Group(), Consumer()};
        if (Percent(50)) {
          a.push_back(Case("count"));
          a.push_back(Count());
        }
        if (Percent(15)) a.push_back(Case("noack"));
        a.push_back(Case("streams"));
        a.push_back(k);
        const bool two = Percent(15);
        if (two) a.push_back(k == "s1" ? "s2" : "s1");
        a.push_back(Percent(70) ? ">" : Pick({"0", "0-0", Id()}));
        if (two) a.push_back(Percent(70) ? ">" : "0");
        return a;
      }
      case 20: {
        Args a = {Case("xread")};
        if (Percent(50)) {
          a.push_back(Case("count"));
          a.push_back(Count());
        }
        a.push_back(Case("streams"));
        a.push_back(k);
        a.push_back(Percent(80) ? Id() : "$");
        return a;
      }
      case 21:
      case 22: {
        Args a = {Case("xack"), k, Group()};
        for (int i = 0, n = 1 + static_cast<int>(Uniform(3)); i < n; ++i) a.push_back(Id());
        return a;
      }
      case 23:
        return {Case("xpending"), k, Group()};
      case 24: {
        Args a = {Case("xpending"), k, Group()};
        if (Percent(20)) {
          a.push_back(Case("idle"));
          a.push_back(Percent(50) ? "0" : "100000000");
        }
        a.push_back(RangeId());
        a.push_back(RangeId());
        a.push_back(Count());
        if (Percent(30)) a.push_back(Consumer());
        return a;
      }
      case 25:
      case 26: {
        Args a = {Case("xclaim"), k, Group(), Consumer(), Percent(85) ? "0" : "100000000"};
        for (int i = 0, n = 1 + static_cast<int>(Uniform(3)); i < n; ++i) a.push_back(Id());
        if (Percent(20)) a.push_back(Case("justid"));
        if (Percent(15)) a.push_back(Case("force"));
        if (Percent(15)) {
          a.push_back(Case("retrycount"));
          a.push_back(Pick({"0", "5", "x"}));
        }
        if (Percent(10)) {
          a.push_back(Case("lastid"));
          a.push_back(Id());
        }
        if (Percent(3)) a.push_back("bogus");
        return a;
      }
      case 27: {
        Args a = {Case("xautoclaim"), k, Group(), Consumer(), Percent(85) ? "0" : "100000000",
                  RangeId()};
        if (Percent(40)) {
          a.push_back(Case("count"));
          a.push_back(Count());
        }
        if (Percent(20)) a.push_back(Case("justid"));
        return a;
      }
      case 28: {
        Args a = {Case("xinfo"), Case("stream"), k};
        if (Percent(40)) {
          a.push_back(Case("full"));
          if (Percent(50)) {
            a.push_back(Case("count"));
            a.push_back(Pick({"0", "2", "-1", "x"}));
          }
        }
        return a;
      }
      case 29:
        return Percent(50) ? Args{Case("xinfo"), Case("groups"), k}
                           : Args{Case("xinfo"), Case("consumers"), k, Group()};
      case 30: {
        Args a = {Case("xsetid"), k, Id()};
        if (Percent(30)) {
          a.push_back(Case("entriesadded"));
          a.push_back(Pick({"0", "5", "50", "-1"}));
        }
        if (Percent(30)) {
          a.push_back(Case("maxdeletedid"));
          a.push_back(Id());
        }
        return a;
      }
      case 31:
        return Percent(50) ? Args{"debug", "object", k} : Args{"debug", "digest-value", k};
      case 32:
        return {Pick({"object", "type"}), "encoding", k};
      case 33:
        return Percent(50) ? Args{"del", k} : Args{"set", "str", "x"};
      case 34:
        return {"copy", "s1", "s2"};
      default:
        return {"type", k};
    }
  }

  std::vector<Args> Sequence() {
    std::vector<Args> commands;
    commands.push_back({"hello", Percent(30) ? "3" : "2"});
    commands.push_back(
        {"config", "set", "stream-node-max-entries", Pick({"100", "3", "5", "2", "0", "1"})});
    commands.push_back(
        {"config", "set", "stream-node-max-bytes", Pick({"4096", "60", "120", "0", "300"})});
    ms_range_ = Percent(50) ? 10 : 40;
    const int n = 30 + static_cast<int>(Uniform(60));
    for (int i = 0; i < n; ++i) commands.push_back(Next());
    commands.push_back({"xinfo", "stream", "s1", "full"});
    commands.push_back({"debug", "object", "s1"});
    commands.push_back({"debug", "digest"});
    return commands;
  }

 private:
  uint64_t ms_range_ = 10;
};

class StreamsDifferentialTest : public ConnectedBothServersTest<StreamsDifferentialTest> {
 protected:
  static void SetUpTestSuite() {
    kvserver_ = ServerProcess::StartKvserver({"--enable-debug-command", "yes"}).release();
    redis_ = ServerProcess::StartRedis({"--enable-debug-command", "yes"}).release();
  }
  void SetUp() override {
    ConnectedBothServersTest::SetUp();
    if (HasFatalFailure()) return;
    Both({"config", "set", "stream-node-max-entries", "100"});
    Both({"config", "set", "stream-node-max-bytes", "4096"});
  }
  void ExpectSame(const std::vector<Args>& commands) { ExpectSameReplies(commands, Same); }
};

TEST_F(StreamsDifferentialTest, RandomStreamSequences) {
  RandomRun run;
  run.name = "streams differential";
  run.env = "KV_STREAM_DIFF";
  run.generate = [](uint64_t seed) { return Generator(seed).Sequence(); };
  run.same = Same;
  run.kinds = {{"wrong type", "WRONGTYPE"},
               {"invalid id", "Invalid stream ID"},
               {"id too small", "equal or smaller than the target stream top item"},
               {"no group", "NOGROUP"},
               {"busy group", "BUSYGROUP"},
               {"not an integer", "value is not an integer or out of range"},
               {"syntax error", "syntax error"},
               {"wrong arity", "wrong number of arguments"},
               {"entries", "*2\r\n$"},
               {"lag", "lag"},
               {"serializedlength", "serializedlength"},
               {"resp3 map", "%"}};
  RunRandomSequences(*kv_, *redis_conn_, run);
  Both({"hello", "2"});
}

TEST_F(StreamsDifferentialTest, ApproximateTrimmingRemovesTheSameEntries) {
  // Many entries under several node shapes, then `~` trims: whole nodes only, as Redis.
  for (const auto& [entries, bytes] : std::vector<std::pair<std::string, std::string>>{
           {"100", "4096"}, {"7", "4096"}, {"100", "200"}, {"0", "500"}, {"10", "0"}}) {
    std::vector<Args> commands = {{"config", "set", "stream-node-max-entries", entries},
                                  {"config", "set", "stream-node-max-bytes", bytes}};
    for (int i = 1; i <= 400; ++i) {
      Args a = {"xadd", "s", std::to_string(i) + "-" + std::to_string(i % 3), "field",
                std::string(static_cast<size_t>(i % 17), 'x')};
      if (i % 5 == 0) a.insert(a.end(), {"other", "1"});
      commands.push_back(a);
    }
    commands.push_back({"xtrim", "s", "maxlen", "~", "350"});
    commands.push_back({"xtrim", "s", "minid", "~", "120"});
    commands.push_back({"xtrim", "s", "maxlen", "~", "10", "limit", "30"});
    commands.push_back({"xdel", "s", "200-2", "201-0", "399-0"});
    commands.push_back({"xadd", "s", "maxlen", "~", "100", "500-0", "f", "v"});
    commands.push_back({"xlen", "s"});
    commands.push_back({"xrange", "s", "-", "+", "count", "3"});
    commands.push_back({"xinfo", "stream", "s"});
    commands.push_back({"debug", "object", "s"});
    commands.push_back({"memory", "usage", "s"});
    ExpectSameReplies(commands,
                      [](const Args& args, const std::string& kv, const std::string& redis) {
                        if (Lower(args[0]) == "memory") return kv[0] == ':' && redis[0] == ':';
                        return Same(args, kv, redis);
                      });
  }
}

TEST_F(StreamsDifferentialTest, ErrorsAndBadInput) {
  std::vector<Args> commands = {
      {"set", "str", "x"},
      {"xadd", "s", "0-0", "f", "v"},
      {"xadd", "s", "0-*", "f", "v"},
      {"xadd", "s", "0", "f", "v"},
      {"xadd", "s", "18446744073709551615-18446744073709551615", "f", "v"},
      {"xadd", "s", "18446744073709551615-*", "f", "v"},
      {"xadd", "s", "*", "f", "v"},
      {"xadd", "t", "18446744073709551615-*", "f", "v"},
      {"xadd", "t", "18446744073709551615-*", "f", "v"},
      {"xadd", "s", "1-1", "f"},
      {"xadd", "s", "maxlen"},
      {"xadd", "s", "maxlen", "x", "*", "f", "v"},
      {"xadd", "s", "limit", "5", "*", "f", "v"},
      {"xadd", "str", "1", "f", "v"},
      {"xrange", "s", "-", "+", "count", "18446744073709551615"},
      {"xrange", "s", "+", "-"},
      {"xrange", "str", "-", "+"},
      {"xrevrange", "s", "(-", "-"},
      {"xlen", "str"},
      {"xdel", "str", "1"},
      {"xtrim", "str", "maxlen", "1"},
      {"xtrim", "s", "maxlen", "~", "1", "limit", "-1"},
      {"xsetid", "s", "1-0"},
      {"xsetid", "s", "0-0"},
      {"xsetid", "str", "1"},
      {"xsetid", "s", "1", "bogus"},
      {"xgroup", "create", "missing", "g", "0"},
      {"xgroup", "create", "s", "g", "0", "entriesread", "-5"},
      {"xgroup", "create", "s", "g", "0", "bogus"},
      {"xgroup", "create", "str", "g", "0"},
      {"xgroup", "setid", "s", "nog", "0"},
      {"xgroup", "createconsumer", "s", "nog", "c"},
      {"xgroup", "delconsumer", "s", "nog", "c"},
      {"xgroup", "destroy", "missing", "g"},
      {"xgroup", "bogus", "s", "g"},
      {"xgroup", "help"},
      {"xgroup", "help", "x"},
      {"xgroup"},
      {"xinfo", "help"},
      {"xinfo", "bogus", "s"},
      {"xinfo", "stream", "missing"},
      {"xinfo", "groups", "str"},
      {"xinfo", "stream", "s", "full", "count", "x"},
      {"xinfo", "stream", "s", "foo"},
      {"xreadgroup", "group", "nog", "c", "streams", "s", ">"},
      {"xreadgroup", "group", "nog", "c", "streams", "missing", ">"},
      {"xreadgroup", "streams", "s", ">"},
      {"xreadgroup", "group", "g", "c", "streams", "s"},
      {"xread", "group", "g", "c", "streams", "s", ">"},
      {"xread", "noack", "streams", "s", "0"},
      {"xread", "streams", "s", ">"},
      {"xread", "count", "-5", "streams", "s", "0"},
      {"xread", "count", "x", "streams", "s", "0"},
      {"xread", "streams", "s", "str", "0", "0"},
      {"xread", "bogus", "streams", "s", "0"},
      {"xread", "block", "-1", "streams", "s", "0"},
      {"xread", "streams", "s", "0", "extra"},
      {"xack", "missing", "g", "1"},
      {"xack", "str", "g", "1"},
      {"xpending", "missing", "g"},
      {"xpending", "s", "g", "-", "+"},
      {"xpending", "s", "g", "idle", "x", "-", "+", "1"},
      {"xclaim", "missing", "g", "c", "0", "1"},
      {"xclaim", "s", "g", "c", "x", "1"},
      {"xautoclaim", "missing", "g", "c", "0", "0"},
      {"xautoclaim", "s", "g", "c", "x", "0"},
      {"xautoclaim", "s", "g", "c", "0", "0", "count", "0"},
      {"xautoclaim", "s", "g", "c", "0", "0", "count", "9223372036854775807"},
      {"xautoclaim", "s", "g", "c", "0", "0", "count", "1000000000000000"},
      {"xautoclaim", "s", "g", "c", "0", "0", "bogus"},
  };
  ExpectSame(commands);
  // Groups on a real stream, then the errors that need one.
  ExpectSame({{"xadd", "s", "1", "f", "v"},
              {"xgroup", "create", "s", "g", "$"},
              {"xgroup", "create", "s", "g", "$"},
              {"xreadgroup", "group", "g", "c", "streams", "s", "$"},
              {"xreadgroup", "group", "g", "c", "count", "0", "streams", "s", "0"},
              {"xpending", "s", "g", "(18446744073709551615-18446744073709551615", "+", "1"},
              {"xclaim", "s", "g", "c", "0", "1", "idle", "x"},
              {"xclaim", "s", "g", "c", "0", "1", "time", "x"},
              {"xclaim", "s", "g", "c", "0", "1", "retrycount", "x"},
              {"xclaim", "s", "g", "c", "0", "1", "lastid", "x"},
              {"xinfo", "consumers", "s", "nog"},
              {"xgroup", "setid", "s", "g", "$", "entriesread", "x"}});
}

TEST_F(StreamsDifferentialTest, ManyIdsInOneClaim) {
  std::vector<Args> commands = {{"xgroup", "create", "s", "g", "0", "mkstream"}};
  for (int i = 1; i <= 300; ++i) commands.push_back({"xadd", "s", std::to_string(i), "f", "v"});
  commands.push_back({"xreadgroup", "group", "g", "a", "count", "1000", "streams", "s", ">"});
  Args claim = {"xclaim", "s", "g", "b", "0"};
  for (int i = 0; i < 5000; ++i) claim.push_back(std::to_string(i % 400) + "-0");
  claim.push_back("justid");
  commands.push_back(claim);
  commands.push_back({"xpending", "s", "g"});
  commands.push_back({"xautoclaim", "s", "g", "c", "0", "0", "count", "50", "justid"});
  commands.push_back({"xinfo", "groups", "s"});
  ExpectSame(commands);
}

// Ids made by `*`: each server uses its own clock, so compare their shape and order.
TEST_F(StreamsDifferentialTest, AutoIdsHaveTheSameShape) {
  const std::regex id_re("^\\$[0-9]+\r\n[0-9]{13}-[0-9]+\r\n$");
  for (int i = 0; i < 5; ++i) {
    auto [kv, redis] = Both({"xadd", "auto", "*", "f", std::to_string(i)});
    EXPECT_TRUE(std::regex_match(kv, id_re)) << kv;
    EXPECT_TRUE(std::regex_match(redis, id_re)) << redis;
  }
  auto [kv, redis] = Both({"xlen", "auto"});
  EXPECT_EQ(kv, redis);
  auto [kv2, redis2] = Both({"xadd", "auto", "1-1", "f", "v"});
  EXPECT_EQ(kv2, redis2);
  Both({"del", "auto"});
}

// Blocking reads across connections: served by XADD in the order the clients blocked, and
// errors when the group goes.
TEST_F(StreamsDifferentialTest, BlockingReadsAcrossConnections) {
  for (ServerProcess* server : {kvserver_, redis_}) {
    SCOPED_TRACE(server == kvserver_ ? "kvserver" : "redis");
    auto admin = RawConnection::Connect(server->port());
    auto r1 = RawConnection::Connect(server->port());
    auto r2 = RawConnection::Connect(server->port());
    auto r3 = RawConnection::Connect(server->port());
    ASSERT_TRUE(admin && r1 && r2 && r3);
    admin->Send(EncodeCommand({"del", "bs"}));
    admin->ReadReply();
    admin->Send(EncodeCommand({"xgroup", "create", "bs", "g", "$", "mkstream"}));
    EXPECT_EQ(admin->ReadReply().value_or(""), "+OK\r\n");
    r1->Send(EncodeCommand({"xread", "block", "0", "streams", "bs", "$"}));
    r2->Send(EncodeCommand({"xreadgroup", "group", "g", "c1", "block", "0", "streams", "bs", ">"}));
    r3->Send(EncodeCommand({"xreadgroup", "group", "g", "c2", "block", "0", "streams", "bs", ">"}));
    // Let them block, in order.
    for (int i = 0; i < 100; ++i) {
      admin->Send(EncodeCommand({"info", "clients"}));
      const std::string info = admin->ReadReply().value_or("");
      if (info.find("blocked_clients:3") != std::string::npos) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    admin->Send(EncodeCommand({"xadd", "bs", "5-1", "f", "v"}));
    EXPECT_EQ(admin->ReadReply().value_or(""), "$3\r\n5-1\r\n");
    const std::string entry =
        "*1\r\n*2\r\n$2\r\nbs\r\n*1\r\n*2\r\n$3\r\n5-1\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n";
    EXPECT_EQ(r1->ReadReply().value_or(""), entry);
    EXPECT_EQ(r2->ReadReply().value_or(""), entry);
    admin->Send(EncodeCommand({"xgroup", "destroy", "bs", "g"}));
    EXPECT_EQ(admin->ReadReply().value_or(""), ":1\r\n");
    EXPECT_EQ(r3->ReadReply().value_or(""),
              "-NOGROUP the consumer group this client was blocked on no longer exists\r\n");
    // The key deleted under a waiting XREADGROUP.
    admin->Send(EncodeCommand({"xgroup", "create", "bs", "g2", "$"}));
    EXPECT_EQ(admin->ReadReply().value_or(""), "+OK\r\n");
    r2->Send(
        EncodeCommand({"xreadgroup", "group", "g2", "c1", "block", "0", "streams", "bs", ">"}));
    for (int i = 0; i < 100; ++i) {
      admin->Send(EncodeCommand({"info", "clients"}));
      const std::string info = admin->ReadReply().value_or("");
      if (info.find("blocked_clients:1") != std::string::npos) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    admin->Send(EncodeCommand({"del", "bs"}));
    EXPECT_EQ(admin->ReadReply().value_or(""), ":1\r\n");
    EXPECT_EQ(r2->ReadReply().value_or(""), "-UNBLOCKED the stream key no longer exists\r\n");
    // A timeout.
    r1->Send(EncodeCommand({"xread", "block", "50", "streams", "bs", "$"}));
    EXPECT_EQ(r1->ReadReply().value_or(""), "*-1\r\n");
    admin->Send(EncodeCommand({"del", "bs"}));
    admin->ReadReply();
  }
}

}  // namespace
}  // namespace kv::test
