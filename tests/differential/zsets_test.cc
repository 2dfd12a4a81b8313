// Differential tests of the sorted set commands against a real redis-server:
// - seeded random sequences of every sorted set command over a few keys, under random
//   zset-max-listpack-entries / -value, with scores that are integers, decimals, exponents,
//   infinities and ties, members that are integers or long strings, so that sets convert both
//   ways; OBJECT ENCODING and DEBUG OBJECT's serializedlength compared, RESP2 and RESP3;
// - every error text and hostile argument, by hand;
// - the blocking pops with several connections per server.
// KV_ZSET_DIFF_SEED=<seed> replays one sequence; KV_ZSET_DIFF_BASE_SEED a run.

#include <algorithm>
#include <chrono>
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

// DEBUG OBJECT's line without what differs by nature (the address, lru and idle time).
std::string DebugObjectFields(const std::string& reply) {
  if (reply.rfind("+Value at:", 0) != 0) return reply;
  std::string out;
  size_t at = 0;
  while (at < reply.size()) {
    size_t end = reply.find_first_of(" \r", at);
    if (end == std::string::npos) end = reply.size();
    const std::string field = reply.substr(at, end - at);
    if (field.rfind("at:", 0) != 0 && field.rfind("lru:", 0) != 0 &&
        field.rfind("lru_seconds_idle:", 0) != 0) {
      out += field + " ";
    }
    at = end + 1;
  }
  return out;
}

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// ZSCAN of a big set returns hash order, which differs: compare the cursor and the pairs as a
// set.
bool SameScan(const std::string& kv, const std::string& redis) {
  const auto a = ParseReply(kv);
  const auto b = ParseReply(redis);
  if (!a || !b) return kv == redis;
  if (a->elements.size() != 2 || b->elements.size() != 2) return kv == redis;
  if (a->elements[0].str != b->elements[0].str) return false;
  auto pairs = [](const RespReply& r) {
    std::vector<std::pair<std::string, std::string>> out;
    for (size_t i = 0; i + 1 < r.elements.size(); i += 2) {
      out.emplace_back(r.elements[i].str, r.elements[i + 1].str);
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  return pairs(a->elements[1]) == pairs(b->elements[1]);
}

// ZRANDMEMBER picks at random: the same shape (the length of the reply) is all that can match,
// except where Redis returns the whole set (a count at least the set's size), which is exact.
bool SameRandom(const Args& command, const std::string& kv, const std::string& redis) {
  if (kv == redis) return true;
  if (kv.empty() || redis.empty() || kv[0] != redis[0]) return false;
  if (kv[0] == '-') return false;
  if (command.size() < 3) return kv[0] == redis[0];
  return kv.substr(0, kv.find('\r')) == redis.substr(0, redis.find('\r'));
}

bool SameZSetReply(const Args& command, const std::string& kv, const std::string& redis) {
  const std::string name = Upper(command[0]);
  if (name == "HELLO") return kv[0] == redis[0];
  if (name == "DEBUG") return DebugObjectFields(kv) == DebugObjectFields(redis);
  if (name == "ZSCAN") return SameScan(kv, redis);
  if (name == "ZRANDMEMBER") return SameRandom(command, kv, redis);
  return kv == redis;
}

class Generator : public RandomChoices {
 public:
  explicit Generator(uint64_t seed) : RandomChoices(seed) {}

  // Keys a, b, c hold sorted sets; "lex" only members of score 0 (lex ranges need equal scores,
  // or the skiplist's answer depends on its random levels); "s" is a string; "h" missing.
  std::string Key() { return Percent(5) ? Pick({"s", "h"}) : Pick({"a", "b", "c"}); }

  std::string Score() {
    switch (Uniform(12)) {
      case 0:
        return Pick({"inf", "-inf", "+inf", "-0", "0", "1e20", "-1e-5", "0x10", "3.0", "1e308",
                     "4611686018427387904", "4611686018427387903", "9007199254740993"});
      case 1:
        return std::to_string(static_cast<double>(Uniform(2000)) / 7 - 100);
      case 2:
      case 3:
        return std::to_string(static_cast<int64_t>(Uniform(6)));  // many ties
      case 4:
        return std::to_string(static_cast<int64_t>(Uniform(2000000)) - 1000000);
      case 5:
        return Pick({"0.1", "0.2", "0.3", "1.5", "2.5", "-2.5", "1e-300", "123456789.123"});
      default:
        return std::to_string(static_cast<int64_t>(Uniform(40)) - 20);
    }
  }

  std::string Member() {
    switch (Uniform(10)) {
      case 0:
        return std::to_string(static_cast<int64_t>(Uniform(200)) - 100);
      case 1:
        return Pick({"9223372036854775807", "-9223372036854775808", "007", "-0", "+1", "", "\xff",
                     std::string("a\0b", 3)});
      case 2:
        return std::string(Uniform(2) ? 64 : 65 + Uniform(60), static_cast<char>('k' + Uniform(3)));
      default:
        return Pick({"a", "b", "c", "d", "e", "f", "g", "m"}) + std::to_string(Uniform(12));
    }
  }

  std::string LexMember() {
    std::string m;
    for (size_t i = 0, n = 1 + Uniform(3); i < n; ++i) m += static_cast<char>('a' + Uniform(5));
    return m;
  }

  std::string ScoreBound() {
    if (Percent(10)) return Pick({"-inf", "+inf", "inf", "(-inf", "abc", "(", "", "nan", "1e999"});
    return (Percent(30) ? "(" : "") + Score();
  }

  std::string LexBound() {
    if (Percent(20)) return Pick({"-", "+", "-", "+", "a", "", "(", "["});
    return (Percent(50) ? "(" : "[") + LexMember();
  }

  std::string Index() {
    switch (Uniform(8)) {
      case 0:
        return Pick({"9223372036854775807", "-9223372036854775808", "abc", "1.0"});
      default:
        return std::to_string(static_cast<int64_t>(Uniform(60)) - 30);
    }
  }

  std::string Count() {
    return Percent(90) ? std::to_string(Uniform(12)) : Pick({"-1", "abc", "9223372036854775807"});
  }

  std::vector<Args> Sequence() {
    std::vector<Args> commands;
    commands.push_back({"CONFIG", "SET", "zset-max-listpack-entries",
                        Pick({"128", "128", "0", "1", "3", "8", "16", "64"})});
    commands.push_back(
        {"CONFIG", "SET", "zset-max-listpack-value", Pick({"64", "64", "0", "3", "8", "70"})});
    if (Percent(25)) commands.push_back({"HELLO", Pick({"2", "3"})});
    const size_t n = 20 + Uniform(80);
    while (commands.size() < n) commands.push_back(Next());
    for (const char* key : {"a", "b", "c", "lex"}) {
      commands.push_back({"DEBUG", "OBJECT", key});
      commands.push_back({"ZRANGE", key, "0", "-1", "WITHSCORES"});
    }
    return commands;
  }

  Args Add(const std::string& k) {
    Args a = {Case("zadd"), k};
    if (Percent(25)) {
      for (const char* opt : {"nx", "xx", "gt", "lt", "ch", "incr"}) {
        if (Percent(20)) a.push_back(Case(opt));
      }
    }
    const size_t n = Percent(10) ? 20 + Uniform(200) : 1 + Uniform(4);
    for (size_t i = 0; i < n; ++i) {
      a.push_back(Score());
      a.push_back(Member());
    }
    if (Percent(3)) a.push_back("dangling");
    return a;
  }

  Args WithLimit(Args a) {
    if (Percent(40)) {
      a.push_back(Case("limit"));
      a.push_back(Percent(90) ? std::to_string(Uniform(5)) : Index());
      a.push_back(Percent(90) ? std::to_string(static_cast<int64_t>(Uniform(6)) - 1) : Index());
    }
    return a;
  }

  Args Next() {
    const std::string k = Key();
    switch (Uniform(40)) {
      case 0:
      case 1:
      case 2:
      case 3:
        return Add(k);
      case 4:
        // Infinite increments of one member, so that some sum to NaN (often enough that every
        // run meets the "not a number" reply the kinds check asks for).
        if (Percent(60)) return {Case("zincrby"), k, Pick({"inf", "-inf"}), "a1"};
        return {Case("zincrby"), k, Score(), Member()};
      case 5: {
        Args a = {Case("zrem"), k};
        for (size_t i = 0, n = 1 + Uniform(4); i < n; ++i) a.push_back(Member());
        return a;
      }
      case 6:
        return {Case(Pick({"zcard", "zcard"})), k};
      case 7:
        return {Case("zcount"), k, ScoreBound(), ScoreBound()};
      case 8:
        return {Case(Pick({"zscore", "zrank", "zrevrank"})), k, Member()};
      case 9: {
        Args a = {Case("zmscore"), k};
        for (size_t i = 0, n = 1 + Uniform(4); i < n; ++i) a.push_back(Member());
        return a;
      }
      case 10:
      case 11: {
        Args a = {Case(Pick({"zrange", "zrevrange"})), k, Index(), Index()};
        if (Percent(50)) a.push_back(Case("withscores"));
        return a;
      }
      case 12:
      case 13: {
        const bool rev = Percent(50);
        Args a = {Case(rev ? "zrevrangebyscore" : "zrangebyscore"), k, ScoreBound(), ScoreBound()};
        if (Percent(50)) a.push_back(Case("withscores"));
        return WithLimit(a);
      }
      case 14: {
        // ZRANGE with every option, in any order.
        Args a = {Case("zrange"), k};
        const int by = static_cast<int>(Uniform(3));
        if (by == 0) {
          a.insert(a.end(), {Index(), Index()});
        } else if (by == 1) {
          a.insert(a.end(), {ScoreBound(), ScoreBound(), Case("byscore")});
        } else {
          a = {Case("zrange"), "lex", LexBound(), LexBound(), Case("bylex")};
        }
        if (Percent(40)) a.push_back(Case("rev"));
        if (Percent(40)) a.push_back(Case("withscores"));
        if (by != 0 || Percent(10)) a = WithLimit(a);
        return a;
      }
      case 15: {
        Args a = {Case("zrangestore"), Key(), k};
        if (Percent(50)) {
          a.insert(a.end(), {Index(), Index()});
        } else {
          a.insert(a.end(), {ScoreBound(), ScoreBound(), Case("byscore")});
          a = WithLimit(a);
        }
        if (Percent(30)) a.push_back(Case("rev"));
        return a;
      }
      case 16:
        return {Case("zremrangebyrank"), k, Index(), Index()};
      case 17:
        return {Case("zremrangebyscore"), k, ScoreBound(), ScoreBound()};
      case 18: {
        Args a = {Case(Pick({"zpopmin", "zpopmax"})), k};
        if (Percent(60)) a.push_back(Count());
        return a;
      }
      case 19: {
        Args a = {Case("zmpop"), Percent(95) ? "2" : Pick({"0", "-1", "3", "x"}), k, Key(),
                  Percent(95) ? Case(Pick({"min", "max"})) : "middle"};
        if (Percent(50)) a.insert(a.end(), {Case("count"), Count()});
        return a;
      }
      case 20:
        // Blocking forms: served at once, or a 1 ms timeout when there is nothing.
        switch (Uniform(3)) {
          case 0:
            return {Case("bzpopmin"), k, Key(), "0.001"};
          case 1:
            return {Case("bzpopmax"), k, "0.001"};
          default:
            return {Case("bzmpop"), "0.001", "2", k, Key(), Case(Pick({"min", "max"})),
                    Case("count"),  "3"};
        }
      case 21:
      case 22: {
        const std::string op = Pick({"zunion", "zinter", "zdiff", "zunionstore", "zinterstore",
                                     "zdiffstore", "zintercard"});
        const bool store = op.find("store") != std::string::npos;
        Args a = {Case(op)};
        if (store) a.push_back(Key());
        const size_t n = 1 + Uniform(3);
        a.push_back(Percent(97) ? std::to_string(n) : Pick({"0", "-1", "9", "x"}));
        for (size_t i = 0; i < n; ++i) a.push_back(Key());
        if (op != "zdiff" && op != "zdiffstore" && op != "zintercard") {
          if (Percent(40)) {
            a.push_back(Case("weights"));
            for (size_t i = 0; i < n; ++i) a.push_back(Percent(95) ? Score() : "w");
          }
          if (Percent(40)) {
            a.insert(a.end(), {Case("aggregate"), Case(Pick({"sum", "min", "max", "avg"}))});
          }
        }
        if (op == "zintercard" && Percent(50)) a.insert(a.end(), {Case("limit"), Count()});
        if (!store && op != "zintercard" && Percent(50)) a.push_back(Case("withscores"));
        return a;
      }
      case 23: {
        Args a = {Case("zrandmember"), k};
        if (Percent(70)) {
          a.push_back(Percent(50) ? Pick({"200", "1000", "0"})
                                  : std::to_string(static_cast<int64_t>(Uniform(10)) - 5));
          if (Percent(50)) a.push_back(Case("withscores"));
        }
        return a;
      }
      case 24:
        return {Case("zscan"), k, "0", Case("count"), "1000"};
      case 25:
        return {"DEBUG", "OBJECT", k};
      case 26:
        return {Case("object"), "encoding", k};
      case 27:
        return {Case("type"), k};
      case 28:
        return Percent(50) ? Args{"SET", "s", "str"} : Args{"DEL", k};
      case 29:
        return {"COPY", k, Key()};
      case 30: {
        // Lex commands on the key whose scores are all 0.
        Args a = {Case("zadd"), "lex"};
        for (size_t i = 0, n = 1 + Uniform(Percent(10) ? 150 : 5); i < n; ++i) {
          a.push_back("0");
          a.push_back(LexMember());
        }
        return a;
      }
      case 31:
        return WithLimit(
            {Case(Pick({"zrangebylex", "zrevrangebylex"})), "lex", LexBound(), LexBound()});
      case 32:
        return {Case(Pick({"zlexcount", "zremrangebylex"})), "lex", LexBound(), LexBound()};
      case 33:
        return {Case("zrem"), "lex", LexMember(), LexMember()};
      default:
        return Add(k);
    }
  }
};

class ZSetsDifferentialTest : public ConnectedBothServersTest<ZSetsDifferentialTest> {
 public:
  static std::vector<std::string> ServerArgs() { return {"--enable-debug-command", "yes"}; }

 protected:
  void SetUp() override {
    ConnectedBothServersTest::SetUp();
    if (HasFatalFailure()) return;
    for (RawConnection* c : {kv_.get(), redis_conn_.get()}) {
      c->Call({"CONFIG", "SET", "zset-max-listpack-entries", "128"});
      c->Call({"CONFIG", "SET", "zset-max-listpack-value", "64"});
    }
  }

  void ExpectSame(const std::vector<Args>& commands) { ExpectSameReplies(commands, SameZSetReply); }
};

TEST_F(ZSetsDifferentialTest, RandomSequences) {
  RandomRun run;
  run.name = "sorted sets differential";
  run.env = "KV_ZSET_DIFF";
  run.default_count = 500;
  run.generate = [](uint64_t seed) { return Generator(seed).Sequence(); };
  run.same = SameZSetReply;
  run.kinds = {{"wrongtype", "WRONGTYPE"},
               {"skiplist", "encoding:skiplist"},
               {"listpack", "encoding:listpack"},
               {"syntax", "syntax error"},
               {"not float", "not a float"},
               {"nan", "not a number"},
               {"resp3 double", ",1"},
               {"null array", "*-1\r\n"},
               {"not integer", "not an integer"}};
  RunRandomSequences(*kv_, *redis_conn_, run);
  EXPECT_TRUE(kvserver_->running()) << "kvserver died";
}

TEST_F(ZSetsDifferentialTest, ScoresPrintAsRedis) {
  std::vector<Args> commands;
  const std::vector<std::string> scores = {"0",        "-0",
                                           "1",        "-1",
                                           "0.1",      "1.1",
                                           "1e15",     "1e16",
                                           "1e17",     "1e18",
                                           "1e19",     "1e20",
                                           "1e-5",     "1e-300",
                                           "4.9e-324", "1.7976931348623157e308",
                                           "inf",      "-inf",
                                           "+inf",     "3.14159",
                                           "2.5e-7",   "123456789012345678",
                                           "0x1p-3",   "9007199254740993",
                                           " 1",       "1 ",
                                           "",         "nan",
                                           "1e400",    "-1e-400",
                                           "1e-320",   "00012",
                                           "+5",       ".5",
                                           "5.",       "-.5"};
  for (const char* enc : {"128", "0"}) {
    commands.push_back({"CONFIG", "SET", "zset-max-listpack-entries", enc});
    for (size_t i = 0; i < scores.size(); ++i) {
      const std::string m = "m" + std::to_string(i);
      commands.push_back({"ZADD", "z", scores[i], m});
      commands.push_back({"ZSCORE", "z", m});
    }
    commands.push_back({"ZRANGE", "z", "0", "-1", "WITHSCORES"});
    commands.push_back({"ZSCAN", "z", "0", "COUNT", "100"});
    commands.push_back({"DEBUG", "OBJECT", "z"});
    commands.push_back({"HELLO", "3"});
    commands.push_back({"ZRANGE", "z", "0", "-1", "WITHSCORES"});
    commands.push_back({"ZINCRBY", "z", "0.1", "m5"});
    commands.push_back({"ZADD", "z", "INCR", "1e300", "m5"});
    commands.push_back({"ZPOPMIN", "z"});
    commands.push_back({"ZPOPMAX", "z", "2"});
    commands.push_back({"ZMSCORE", "z", "m1", "nosuch"});
    commands.push_back({"ZUNION", "1", "z", "WITHSCORES"});
    commands.push_back({"ZRANDMEMBER", "z", "100", "WITHSCORES"});
    commands.push_back({"HELLO", "2"});
    commands.push_back({"DEL", "z"});
  }
  ExpectSame(commands);
}

TEST_F(ZSetsDifferentialTest, ErrorsAndHostileArguments) {
  ExpectSame({
      {"SET", "s", "v"},
      {"ZADD", "z", "1", "a", "2", "b", "3", "c"},
      {"ZADD", "s", "1", "a"},
      {"ZADD", "z"},
      {"ZADD", "z", "1"},
      {"ZADD", "z", "nx", "xx", "1", "a"},
      {"ZADD", "z", "gt", "lt", "1", "a"},
      {"ZADD", "z", "gt", "nx", "1", "a"},
      {"ZADD", "z", "incr", "1", "a", "2", "b"},
      {"ZADD", "z", "1", "a", "x", "b"},
      {"ZADD", "z", "nan", "a"},
      {"ZADD", "z", "incr", "inf", "a"},
      {"ZADD", "z", "incr", "-inf", "a"},
      {"ZADD", "z", "xx", "incr", "1", "nosuch"},
      {"ZADD", "nokey", "xx", "1", "a"},
      {"EXISTS", "nokey"},
      {"ZINCRBY", "z", "abc", "a"},
      {"ZINCRBY", "z", "1"},
      {"ZRANGE", "z", "0", "9223372036854775807"},
      {"ZRANGE", "z", "-9223372036854775808", "9223372036854775807"},
      {"ZRANGE", "z", "9223372036854775807", "-9223372036854775808"},
      {"ZRANGE", "z", "0", "-1", "LIMIT", "0", "1"},
      {"ZRANGE", "z", "-", "+", "BYLEX", "WITHSCORES"},
      {"ZRANGE", "z", "0", "1", "BYSCORE", "BYLEX"},
      {"ZRANGE", "z", "0", "1", "REV", "REV"},
      {"ZRANGE", "z", "0", "1", "LIMIT", "1"},
      {"ZRANGE", "z", "a", "b"},
      {"ZRANGEBYSCORE", "z", "-inf", "+inf", "LIMIT", "0", "-9223372036854775808"},
      {"ZRANGEBYSCORE", "z", "-inf", "+inf", "LIMIT", "9223372036854775807", "1"},
      {"ZRANGEBYSCORE", "z", "-inf", "+inf", "LIMIT", "-1", "1"},
      {"ZRANGEBYSCORE", "z", "(", "(("},
      {"ZRANGEBYSCORE", "z", std::string("1\0x", 3), "3"},
      {"ZRANGEBYSCORE", "z", "nan", "3"},
      {"ZRANGEBYSCORE", "z", "1", "3", "WITHSCORES", "REV"},
      {"ZRANGEBYLEX", "z", "a", "b"},
      {"ZRANGEBYLEX", "z", "-x", "+"},
      {"ZRANGEBYLEX", "z", std::string("-\0x", 3), "+"},
      {"ZRANGEBYLEX", "z", "-", "+", "LIMIT", "0"},
      {"ZLEXCOUNT", "z", "[a", "x"},
      {"ZCOUNT", "z", "x", "1"},
      {"ZREMRANGEBYRANK", "z", "a", "1"},
      {"ZREMRANGEBYSCORE", "z", "1", "x"},
      {"ZREMRANGEBYLEX", "z", "a", "[b"},
      {"ZRANGESTORE", "d", "z", "0", "-1", "WITHSCORES"},
      {"ZRANGESTORE", "d", "s", "0", "-1"},
      {"ZPOPMIN", "z", "-1"},
      {"ZPOPMIN", "z", "1", "2"},
      {"ZPOPMIN", "s"},
      {"ZMPOP", "0", "z", "MIN"},
      {"ZMPOP", "-1", "z", "MIN"},
      {"ZMPOP", "1", "z"},
      {"ZMPOP", "2", "z", "MIN"},
      {"ZMPOP", "1", "z", "MIN", "COUNT"},
      {"ZMPOP", "1", "z", "MIN", "COUNT", "0"},
      {"ZMPOP", "1", "z", "MIN", "COUNT", "1", "COUNT", "1"},
      {"ZMPOP", "9223372036854775807", "z", "MIN"},
      {"ZMPOP", "1", "s", "MIN"},
      {"BZPOPMIN", "z", "-1"},
      {"BZPOPMIN", "z", "abc"},
      {"BZPOPMIN", "z", "inf"},
      {"BZPOPMIN", "s", "0"},
      {"BZMPOP", "0", "0", "z", "MIN"},
      {"BZMPOP", "-1", "1", "z", "MIN"},
      {"ZUNION", "0", "z"},
      {"ZUNION", "-1", "z"},
      {"ZUNION", "2", "z"},
      {"ZUNION", "x", "z"},
      {"ZUNION", "1", "z", "WEIGHTS"},
      {"ZUNION", "1", "z", "WEIGHTS", "1", "2"},
      {"ZUNION", "1", "z", "WEIGHTS", "nan"},
      {"ZUNION", "1", "z", "AGGREGATE"},
      {"ZUNION", "1", "z", "AGGREGATE", "avg"},
      {"ZUNION", "2", "z", "s"},
      {"ZUNIONSTORE", "d", "1", "z", "WITHSCORES"},
      {"ZDIFF", "1", "z", "WEIGHTS", "1"},
      {"ZINTERCARD", "1", "z", "LIMIT", "-1"},
      {"ZINTERCARD", "1", "z", "LIMIT", "x"},
      {"ZINTERCARD", "1", "z", "WITHSCORES"},
      {"ZINTERCARD", "0", "z"},
      {"ZRANDMEMBER", "z", "-9223372036854775808"},
      {"ZRANDMEMBER", "z", "9223372036854775807", "WITHSCORES"},
      {"ZRANDMEMBER", "z", "-4611686018427387904", "WITHSCORES"},
      {"ZRANDMEMBER", "z", "1", "WITHSCORES", "x"},
      {"ZRANDMEMBER", "z", "1", "x"},
      {"ZRANDMEMBER", "z", "x"},
      {"ZRANDMEMBER", "s"},
      {"ZSCAN", "z", "x"},
      {"ZSCAN", "z", "0", "COUNT", "0"},
      {"ZSCAN", "z", "0", "MATCH"},
      {"ZSCAN", "z", "0", "TYPE", "zset"},
      {"ZSCAN", "s", "0"},
      {"ZSCORE", "s", "a"},
      {"ZMSCORE", "s", "a"},
      {"ZMSCORE", "nokey", "a", "b"},
      {"ZRANK", "s", "a"},
      {"ZCARD", "s"},
      {"GET", "z"},
      {"APPEND", "z", "x"},
      {"TYPE", "z"},
      {"OBJECT", "ENCODING", "z"},
  });
}

TEST_F(ZSetsDifferentialTest, ConversionsAndStoredEncodings) {
  std::vector<Args> commands = {{"CONFIG", "SET", "zset-max-listpack-entries", "5"},
                                {"CONFIG", "SET", "zset-max-listpack-value", "10"}};
  for (int i = 0; i < 8; ++i) {
    commands.push_back({"ZADD", "z", std::to_string(i), "m" + std::to_string(i)});
    commands.push_back({"OBJECT", "ENCODING", "z"});
  }
  const std::vector<Args> more = {
      {"DEBUG", "OBJECT", "z"},
      {"ZREMRANGEBYRANK", "z", "0", "4"},
      {"OBJECT", "ENCODING", "z"},  // never converts back by itself
      {"ZRANGESTORE", "d1", "z", "0", "-1"},
      {"OBJECT", "ENCODING", "d1"},
      {"ZADD", "z", "10", "a", "11", "b", "12", "c", "13", "d"},
      {"ZRANGESTORE", "d2", "z", "0", "-1"},
      {"OBJECT", "ENCODING", "d2"},
      {"ZRANGESTORE", "d3", "z", "-inf", "+inf", "BYSCORE"},
      {"OBJECT", "ENCODING", "d3"},
      {"ZUNIONSTORE", "d4", "1", "z"},
      {"OBJECT", "ENCODING", "d4"},
      {"ZINTERSTORE", "d5", "2", "z", "d1"},
      {"OBJECT", "ENCODING", "d5"},
      {"ZADD", "long", "1", "12345678901"},
      {"OBJECT", "ENCODING", "long"},
      {"ZADD", "short", "1", "a"},
      {"ZADD", "short", "2", "12345678901"},
      {"OBJECT", "ENCODING", "short"},
      {"ZUNIONSTORE", "d6", "1", "short"},
      {"OBJECT", "ENCODING", "d6"},
      {"ZREM", "short", "12345678901"},
      {"ZUNIONSTORE", "d7", "1", "short"},
      {"OBJECT", "ENCODING", "d7"},
      {"COPY", "z", "zc"},
      {"OBJECT", "ENCODING", "zc"},
      {"ZRANGE", "zc", "0", "-1", "WITHSCORES"},
      {"DEBUG", "OBJECT", "zc"},
      {"SET", "d1", "x"},
      {"EXPIRE", "d2", "100"},
      {"ZUNIONSTORE", "d1", "1", "z"},
      {"ZUNIONSTORE", "d2", "1", "z"},
      {"TTL", "d2"},
      {"TYPE", "d1"},
      {"ZUNIONSTORE", "d1", "1", "nokey"},
      {"EXISTS", "d1"},
      {"CONFIG", "SET", "zset-max-listpack-entries", "128"},
      {"CONFIG", "SET", "zset-max-listpack-value", "64"},
  };
  commands.insert(commands.end(), more.begin(), more.end());
  ExpectSame(commands);
}

// Plain sets as inputs of the set operations: each member scores 1 (then its weight).
TEST_F(ZSetsDifferentialTest, PlainSetsAsInputs) {
  std::vector<Args> commands = {
      {"SADD", "seta", "a", "b", "c"},
      {"SADD", "ints", "1", "2", "3", "-7"},
      {"ZADD", "zb", "1", "b", "2", "c", "3", "d", "-inf", "1"},
  };
  for (const std::string op : {"ZUNION", "ZINTER", "ZDIFF"}) {
    const bool diff = op == "ZDIFF";
    for (const Args& keys : std::vector<Args>{{"seta", "zb"},
                                              {"zb", "seta"},
                                              {"ints", "zb", "seta"},
                                              {"seta", "seta"},
                                              {"ints", "nokey"},
                                              {"seta", "ints"}}) {
      Args c = {op, std::to_string(keys.size())};
      c.insert(c.end(), keys.begin(), keys.end());
      Args with = c;
      with.push_back("WITHSCORES");
      commands.push_back(with);
      Args store = {op + "STORE", "out", std::to_string(keys.size())};
      store.insert(store.end(), keys.begin(), keys.end());
      if (!diff) {
        store.push_back("WEIGHTS");
        for (size_t i = 0; i < keys.size(); ++i) store.push_back(std::to_string(i + 2));
        store.insert(store.end(), {"AGGREGATE", keys.size() == 2 ? "MAX" : "MIN"});
      }
      commands.push_back(store);
      commands.push_back({"ZRANGE", "out", "0", "-1", "WITHSCORES"});
      commands.push_back({"OBJECT", "ENCODING", "out"});
    }
  }
  commands.push_back({"ZINTERCARD", "2", "seta", "zb"});
  commands.push_back({"ZINTERCARD", "2", "ints", "ints", "LIMIT", "2"});
  commands.push_back({"SET", "str", "x"});
  commands.push_back({"ZUNION", "2", "seta", "str"});
  commands.push_back({"ZINTERSTORE", "out", "2", "str", "seta"});
  ExpectSame(commands);
}

TEST_F(ZSetsDifferentialTest, BigSetsRangesAndRanks) {
  std::vector<Args> commands;
  Args add = {"ZADD", "big"};
  for (int i = 0; i < 3000; ++i) {
    add.push_back(std::to_string((i * 7919) % 1000 / 10.0));
    add.push_back("member:" + std::to_string(i));
  }
  commands.push_back(add);
  for (const auto& range : std::vector<std::pair<std::string, std::string>>{
           {"-inf", "+inf"}, {"10", "20"}, {"(10", "(20"}, {"99.9", "+inf"}, {"50", "40"}}) {
    commands.push_back({"ZCOUNT", "big", range.first, range.second});
    commands.push_back(
        {"ZRANGEBYSCORE", "big", range.first, range.second, "WITHSCORES", "LIMIT", "5", "20"});
    commands.push_back({"ZREVRANGEBYSCORE", "big", range.second, range.first, "LIMIT", "3", "10"});
  }
  for (int i = 0; i < 3000; i += 137) {
    commands.push_back({"ZRANK", "big", "member:" + std::to_string(i)});
    commands.push_back({"ZREVRANK", "big", "member:" + std::to_string(i)});
    commands.push_back({"ZRANGE", "big", std::to_string(i), std::to_string(i + 5), "WITHSCORES"});
  }
  commands.push_back({"ZREMRANGEBYSCORE", "big", "20", "30"});
  commands.push_back({"ZREMRANGEBYRANK", "big", "100", "1000"});
  commands.push_back({"ZPOPMIN", "big", "50"});
  commands.push_back({"ZPOPMAX", "big", "50"});
  commands.push_back({"ZCARD", "big"});
  commands.push_back({"DEBUG", "OBJECT", "big"});
  commands.push_back({"ZRANGE", "big", "0", "-1", "WITHSCORES"});
  commands.push_back({"ZINTERSTORE", "half", "2", "big", "big", "WEIGHTS", "0.5", "0.25"});
  commands.push_back({"ZRANGE", "half", "0", "20", "WITHSCORES"});
  ExpectSame(commands);
}

// The blocking pops across connections: which client is served, in what order, what each gets.
class ZSetsBlockingDifferentialTest : public ZSetsDifferentialTest {
 protected:
  struct Pair {
    std::unique_ptr<RawConnection> kv, redis;
  };
  Pair Connect() {
    return {RawConnection::Connect(kvserver_->port()), RawConnection::Connect(redis_->port())};
  }
  static void Send(Pair& p, const Args& args) {
    p.kv->Send(EncodeCommand(args));
    p.redis->Send(EncodeCommand(args));
  }
  static void ExpectReply(Pair& p, const std::string& what) {
    const auto a = p.kv->ReadReply();
    const auto b = p.redis->ReadReply();
    ASSERT_TRUE(a && b) << what;
    EXPECT_EQ(*a, *b) << what;
  }
  static void ExpectCall(Pair& p, const Args& args) {
    Send(p, args);
    ExpectReply(p, DescribeArgs(args));
  }
};

TEST_F(ZSetsBlockingDifferentialTest, ServedInOrderFromTheReadyKey) {
  Pair a = Connect(), b = Connect(), c = Connect(), w = Connect();
  ExpectCall(w, {"FLUSHALL"});
  Send(a, {"BZPOPMIN", "k1", "k2", "0"});
  Send(b, {"BZMPOP", "0", "2", "k2", "k1", "MAX", "COUNT", "2"});
  Send(c, {"BZPOPMAX", "k2", "0"});
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ExpectCall(w, {"ZADD", "k2", "1", "x", "2", "y", "3", "z"});
  ExpectReply(a, "a served from k2");
  ExpectReply(b, "b served from k2");
  ExpectCall(w, {"EXISTS", "k2"});
  ExpectCall(w, {"ZADD", "k1", "5", "q"});  // nobody waits on k1 any more
  ExpectCall(w, {"ZADD", "k2", "9", "last"});
  ExpectReply(c, "c waited for k2 until now");
  ExpectCall(w, {"ZRANGE", "k1", "0", "-1"});
}

TEST_F(ZSetsBlockingDifferentialTest, TimeoutsResp3AndWrongType) {
  Pair a = Connect(), w = Connect();
  ExpectCall(w, {"FLUSHALL"});
  Send(a, {"HELLO", "3"});
  ASSERT_TRUE(a.kv->ReadReply() && a.redis->ReadReply());
  ExpectCall(a, {"BZPOPMIN", "k", "0.05"});
  ExpectCall(a, {"BZMPOP", "0.05", "1", "k", "MIN"});
  Send(a, {"BZPOPMAX", "k", "0"});
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  ExpectCall(w, {"ZADD", "k", "2.5", "m", "1", "n"});
  ExpectReply(a, "RESP3 double");
  ExpectCall(w, {"SET", "str", "v"});
  ExpectCall(a, {"BZPOPMIN", "str", "k", "0"});
  ExpectCall(a, {"BZPOPMIN", "k", "str", "0"});
  // A key that becomes a list does not serve a sorted set waiter; a later sorted set does.
  Send(a, {"BZPOPMIN", "k2", "0"});
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  ExpectCall(w, {"DEL", "k2"});
  ExpectCall(w, {"ZADD", "k2", "7", "seven"});
  ExpectReply(a, "served after DEL");
}

}  // namespace
}  // namespace kv::test
