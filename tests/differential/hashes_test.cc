// Differential tests for the hash commands: the same requests go to kvserver and to the real
// redis-server 7.0.15, and the replies must be identical: byte for byte wherever Redis's reply is
// deterministic (every error, every reply of a listpack-encoded hash, OBJECT ENCODING, DEBUG
// OBJECT's serializedlength), and as the same elements where only the order or the random
// choice may differ (a hashtable's HGETALL/HKEYS/HVALS/HSCAN, HRANDFIELD).
//
// RandomHashSequences runs seeded random sequences of every hash command (and TYPE, EXISTS, DEL,
// OBJECT ENCODING, DEBUG OBJECT, CONFIG SET of the listpack limits under both names, strings at
// the same keys), in RESP2 or RESP3, over three keys and about 60 fields, with values that cross
// the length limit and limits small enough that the entries limit is crossed too. Each run prints
// its base seed; sequence i uses base+i.
//   KV_HASH_DIFF_SEED=<seed>       replays just that sequence
//   KV_HASH_DIFF_BASE_SEED=<seed>  replays a whole run
//   KV_HASH_DIFF_SEQUENCES=<n>     changes how many sequences run (default 600)

#include <algorithm>
#include <cctype>
#include <optional>
#include <regex>
#include <string>
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

// The texts of a reply's leaves, in order (bulk strings, integers as text, nulls as "<null>").
void Leaves(const RespReply& r, std::vector<std::string>* out) {
  if (r.elements.empty() && r.type != RespReply::Type::kArray && r.type != RespReply::Type::kMap &&
      r.type != RespReply::Type::kSet) {
    if (r.type == RespReply::Type::kInteger) {
      out->push_back(std::to_string(r.integer));
    } else if (r.type == RespReply::Type::kNull || r.type == RespReply::Type::kNullBulk) {
      out->push_back("<null>");
    } else {
      out->push_back(r.str);
    }
    return;
  }
  for (const RespReply& e : r.elements) Leaves(e, out);
}

// The reply's types and element counts, without the values.
std::string Shape(const RespReply& r) {
  std::string s = TypeName(r.type);
  if (r.type == RespReply::Type::kArray || r.type == RespReply::Type::kMap ||
      r.type == RespReply::Type::kSet) {
    s += "(" + std::to_string(r.elements.size()) + ":";
    for (const RespReply& e : r.elements) s += Shape(e) + ",";
    s += ")";
  }
  return s;
}

// `leaves` as (field, value) pairs when `pairs`, each pair (or single) sorted.
std::vector<std::string> Sorted(const std::vector<std::string>& leaves, bool pairs) {
  std::vector<std::string> out;
  for (size_t i = 0; i < leaves.size(); i += pairs ? 2 : 1) {
    out.push_back(pairs && i + 1 < leaves.size() ? leaves[i] + "\x01" + leaves[i + 1] : leaves[i]);
  }
  std::sort(out.begin(), out.end());
  return out;
}

const std::regex& VolatileDebugFields() {
  static const std::regex re("at:0x[0-9a-f]+|lru:[0-9]+ lru_seconds_idle:[0-9]+");
  return re;
}

// Byte equality, or what is equal when Redis's order or random choice is not reproducible.
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
  if (cmd == "hgetall" || cmd == "hkeys" || cmd == "hvals") {
    return Sorted(la, cmd == "hgetall") == Sorted(lb, cmd == "hgetall");
  }
  if (cmd == "hscan") {
    // The whole hash in one call (the sequences' hashes are smaller than their COUNT): cursor 0,
    // the same pairs.
    if (la.empty() || lb.empty() || la[0] != "0" || lb[0] != "0") return false;
    la.erase(la.begin());
    lb.erase(lb.begin());
    return Sorted(la, true) == Sorted(lb, true);
  }
  if (cmd == "hrandfield") {
    if (Shape(*a) != Shape(*b)) return false;
    // A positive count gives distinct fields; at or past the size, the whole hash.
    if (args.size() >= 3 && !args[2].empty() && args[2][0] != '-') {
      const bool with_values = args.size() == 4;
      const auto sa = Sorted(la, with_values);
      const auto sb = Sorted(lb, with_values);
      if (std::adjacent_find(sa.begin(), sa.end()) != sa.end()) return false;
      const long count = std::strtol(args[2].c_str(), nullptr, 10);
      if (count > static_cast<long>(sb.size())) return sa == sb;
    }
    return true;
  }
  return false;
}

class Generator : public RandomChoices {
 public:
  using RandomChoices::RandomChoices;

  std::string Key() { return Pick({"h1", "h1", "h2", "str"}); }
  std::string Field() {
    if (Percent(50)) return "f" + std::to_string(Uniform(40));
    static const std::vector<std::string> fields = {"a",
                                                    "b",
                                                    "c",
                                                    "",
                                                    "1",
                                                    "2",
                                                    "-5",
                                                    "100",
                                                    "0",
                                                    "01",
                                                    "9223372036854775807",
                                                    "-9223372036854775808",
                                                    "18446744073709551616",
                                                    "x\0y\r\n"s,
                                                    std::string(8, 'k'),
                                                    std::string(9, 'k'),
                                                    std::string(16, 'l'),
                                                    std::string(17, 'l'),
                                                    std::string(64, 'm'),
                                                    std::string(65, 'm')};
    return Pick(fields);
  }
  std::string Value() {
    static const std::vector<std::string> values = {"",
                                                    "v",
                                                    "hello",
                                                    "1",
                                                    "-1",
                                                    "10",
                                                    "007",
                                                    "1.5",
                                                    "3.0e3",
                                                    " 1",
                                                    "1 ",
                                                    "abc",
                                                    "9223372036854775807",
                                                    "-9223372036854775808",
                                                    "x\0y"s,
                                                    std::string(8, 'v'),
                                                    std::string(9, 'v'),
                                                    std::string(16, 'w'),
                                                    std::string(17, 'w'),
                                                    std::string(63, 'z'),
                                                    std::string(64, 'z'),
                                                    std::string(65, 'z'),
                                                    std::string(200, 'q')};
    return Pick(values);
  }
  std::string Incr() {
    // The extremes, often enough that every run meets "would overflow" (a positive field plus
    // INT64_MAX, a negative one plus INT64_MIN) many times.
    if (Percent(15)) return Pick({"9223372036854775807", "-9223372036854775808"});
    if (Percent(10)) return Pick({"x", "", "1.5", "9223372036854775808", "-9223372036854775808"});
    return std::to_string(static_cast<int64_t>(Uniform(21)) - 10);
  }
  std::string Float() {
    return Pick({"0.1",   "-0.1",
                 "1",     "-1",
                 "1e3",   "1.5e-3",
                 "3.0",   "0x10",
                 "-5.25", "inf",
                 "-inf",  "nan",
                 "abc",   "",
                 " 1",    "1e400",
                 "10.5",  "1e100",
                 ".5",    "5.",
                 "1E2",   "123456789.123456789",
                 "1e-20"});
  }
  std::string Count() {
    // No huge negative count that Redis accepts: it would reply that many fields.
    if (Percent(10)) {
      return Pick({"x", "-9223372036854775808", "9223372036854775807", "4611686018427387904",
                   "4611686018427387903"});
    }
    return std::to_string(static_cast<int64_t>(Uniform(31)) - 10);
  }
  std::string Limit(bool entries) {
    if (entries) return Pick({"512", "128", "16", "8", "4", "2", "1", "0"});
    return Pick({"64", "16", "8", "1", "0"});
  }
  Args ConfigSet() {
    const bool entries = Percent(50);
    std::string name = entries ? "hash-max-listpack-entries" : "hash-max-listpack-value";
    if (Percent(30)) name = entries ? "hash-max-ziplist-entries" : "hash-max-ziplist-value";
    return {"config", "set", name, Limit(entries)};
  }

  Args Next() {
    const std::string k = Key();
    switch (Uniform(32)) {
      case 0:
      case 1:
      case 2:
      case 3:
      case 4:
      case 5: {
        Args a = {Case(Percent(20) ? "hmset" : "hset"), k};
        const int pairs = 1 + static_cast<int>(Uniform(Percent(20) ? 12 : 3));
        for (int i = 0; i < pairs; ++i) {
          a.push_back(Field());
          a.push_back(Value());
        }
        if (Percent(3)) a.pop_back();
        return a;
      }
      case 6:
        return {Case("hsetnx"), k, Field(), Value()};
      case 7:
      case 8:
        return {Case("hget"), k, Field()};
      case 9: {
        Args a = {Case("hmget"), k};
        for (int i = 0, n = 1 + static_cast<int>(Uniform(4)); i < n; ++i) a.push_back(Field());
        return a;
      }
      case 10:
      case 11: {
        Args a = {Case("hdel"), k};
        for (int i = 0, n = 1 + static_cast<int>(Uniform(3)); i < n; ++i) a.push_back(Field());
        return a;
      }
      case 12:
        return {Case("hlen"), k};
      case 13:
        return {Case("hstrlen"), k, Field()};
      case 14:
        return {Case("hexists"), k, Field()};
      case 15:
      case 16: {
        // The extreme increments go to one field, where they meet each other and overflow.
        std::string incr = Incr();
        const bool extreme = incr == "9223372036854775807" || incr == "-9223372036854775808";
        return {Case("hincrby"), k, extreme ? "big" : Field(), std::move(incr)};
      }
      case 17:
        return {Case("hincrbyfloat"), k, Field(), Float()};
      case 18:
        return {Case(Pick({"hgetall", "hkeys", "hvals"})), k};
      case 19:
      case 20: {
        Args a = {Case("hrandfield"), k};
        if (Percent(80)) a.push_back(Count());
        if (Percent(40)) a.push_back(Percent(90) ? Case("withvalues") : "withvalue");
        return a;
      }
      case 21: {
        Args a = {Case("hscan"), k, Percent(90) ? "0" : Pick({"x", " 0", "0\0x"s})};
        if (Percent(40)) {
          a.push_back(Case("match"));
          a.push_back(Pick({"f1*", "*", "[a-c]", "?", "f\\1*", "*0"}));
        }
        a.push_back(Case("count"));
        a.push_back(Percent(90) ? "1000" : Pick({"0", "x", "-1"}));
        if (Percent(5)) a.push_back(Pick({"type", "bogus"}));
        return a;
      }
      case 22:
      case 23:
        return {"object", "encoding", k};
      case 24:
        return {"debug", "object", k};
      case 25:
        return {Pick({"type", "exists"}), k};
      case 26:
        return Percent(30) ? Args{"del", k} : Args{"set", "str", Value()};
      case 27:
        return ConfigSet();
      case 28:
        return {"get", k};
      default: {
        static const std::vector<Args> cases = {{"hset", "h1"},
                                                {"hset", "h1", "a"},
                                                {"hsetnx", "h1", "a"},
                                                {"hget", "h1"},
                                                {"hmget", "h1"},
                                                {"hdel", "h1"},
                                                {"hlen"},
                                                {"hstrlen", "h1"},
                                                {"hexists", "h1"},
                                                {"hincrby", "h1", "a"},
                                                {"hincrbyfloat", "h1", "a"},
                                                {"hgetall"},
                                                {"hkeys", "h1", "x"},
                                                {"hrandfield"},
                                                {"hscan", "h1"}};
        Args a = Pick(cases);
        a[0] = Case(a[0]);
        return a;
      }
    }
  }

  std::vector<Args> Sequence() {
    std::vector<Args> commands;
    commands.push_back({"hello", Percent(35) ? "3" : "2"});
    commands.push_back({"config", "set", "hash-max-listpack-entries", Limit(true)});
    commands.push_back({"config", "set", "hash-max-listpack-value", Limit(false)});
    const int n = 20 + static_cast<int>(Uniform(40));
    for (int i = 0; i < n; ++i) commands.push_back(Next());
    return commands;
  }
};

class HashesDifferentialTest : public ConnectedBothServersTest<HashesDifferentialTest> {
 protected:
  static void SetUpTestSuite() {
    kvserver_ = ServerProcess::StartKvserver({"--enable-debug-command", "yes"}).release();
    redis_ = ServerProcess::StartRedis({"--enable-debug-command", "yes"}).release();
  }
  void SetUp() override {
    ConnectedBothServersTest::SetUp();
    if (HasFatalFailure()) return;
    Both({"config", "set", "hash-max-listpack-entries", "512"});
    Both({"config", "set", "hash-max-listpack-value", "64"});
  }
  void ExpectSame(const std::vector<Args>& commands) { ExpectSameReplies(commands, Same); }
};

TEST_F(HashesDifferentialTest, RandomHashSequences) {
  RandomRun run;
  run.name = "hashes differential";
  run.env = "KV_HASH_DIFF";
  run.generate = [](uint64_t seed) { return Generator(seed).Sequence(); };
  run.same = Same;
  run.kinds = {{"wrong type", "WRONGTYPE"},
               {"not an integer", "value is not an integer or out of range"},
               {"hash value not an integer", "hash value is not an integer"},
               {"hash value not a float", "hash value is not a float"},
               {"not a float", "value is not a valid float"},
               {"nan or inf", "value is NaN or Infinity"},
               {"overflow", "increment or decrement would overflow"},
               {"out of range", "value is out of range"},
               {"syntax error", "syntax error"},
               {"wrong arity", "wrong number of arguments"},
               {"invalid cursor", "invalid cursor"},
               {"listpack", "listpack"},
               {"hashtable", "hashtable"},
               {"resp3 map", "%"}};
  RunRandomSequences(*kv_, *redis_conn_, run);
  Both({"hello", "2"});
}

TEST_F(HashesDifferentialTest, ErrorsAndEdgeReplies) {
  ExpectSame({{"set", "s", "x"},
              {"hset", "h", "a", "1", "b", "2", "n", "9223372036854775807", "sp", " 1"},
              {"hset", "h", "a"},
              {"hset", "h", "a", "1", "b"},
              {"hmset", "h", "a", "1", "b"},
              {"hset", "s", "a", "1"},
              {"hsetnx", "s", "a", "1"},
              {"hget", "s", "a"},
              {"hmget", "s", "a"},
              {"hgetall", "s"},
              {"hdel", "s", "a"},
              {"hlen", "s"},
              {"hstrlen", "s", "a"},
              {"hexists", "s", "a"},
              {"hincrby", "s", "a", "1"},
              {"hincrby", "s", "a", "x"},
              {"hincrbyfloat", "s", "a", "1"},
              {"hincrbyfloat", "s", "a", "nan"},
              {"hrandfield", "s"},
              {"hrandfield", "s", "1"},
              {"hrandfield", "s", "x"},
              {"hscan", "s", "0"},
              {"hscan", "s", "x"},
              {"get", "h"},
              {"append", "h", "x"},
              {"incr", "h"},
              {"hincrby", "h", "n", "1"},
              {"hincrby", "h", "a", "-9223372036854775808"},
              {"hincrby", "h", "a", "-9223372036854775808"},
              {"hincrby", "h", "sp", "1"},
              {"hincrby", "h", "new", "9223372036854775808"},
              {"hincrbyfloat", "h", "sp", "1"},
              {"hincrbyfloat", "h", "n", "1"},
              {"hincrbyfloat", "h", "a", "inf"},
              {"hincrbyfloat", "h", "a", "-inf"},
              {"hincrbyfloat", "h", "a", "1e5000"},
              {"hincrbyfloat", "hb", "big", "1.1e4932"},
              {"hincrbyfloat", "hb", "big", "1.1e4932"},
              {"object", "encoding", "hb"},
              {"hrandfield", "h", "-9223372036854775808"},
              {"hrandfield", "h", "-9223372036854775808", "withvalues"},
              {"hrandfield", "h", "-9223372036854770000", "withvalues"},
              {"hrandfield", "h", "9223372036854775807", "withvalues"},
              {"hrandfield", "h", "4611686018427387903", "withvalues"},
              {"hrandfield", "h", "4611686018427387904", "withvalues"},
              {"hrandfield", "h", "1", "withvalue"},
              {"hrandfield", "h", "1", "withvalues", "x"},
              {"hrandfield", "h", "0"},
              {"hrandfield", "h", "0", "withvalues"},
              {"hrandfield", "nokey"},
              {"hrandfield", "nokey", "3"},
              {"hrandfield", "nokey", "x"},
              {"hscan", "h", "x"},
              {"hscan", "h", " 0"},
              {"hscan", "h", "18446744073709551615"},
              {"hscan", "h", "18446744073709551616"},
              {"hscan", "h", "-1"},
              {"hscan", "h", "0", "count", "0"},
              {"hscan", "h", "0", "count", "-1"},
              {"hscan", "h", "0", "count", "x"},
              {"hscan", "h", "0", "match"},
              {"hscan", "h", "0", "type", "hash"},
              {"hscan", "h", "0", "bogus", "1"},
              {"hscan", "h", "0", "match", "a", "match", "b"},
              {"hscan", "h", "0", "count\0x"s, "5", "MATCH", "*"},
              {"hscan", "nokey", "0", "count", "0"},
              {"hscan", "nokey", "x"},
              {"hgetall", "h"},
              {"hdel", "h", "a", "b", "n", "sp", "zz"},
              {"exists", "h"},
              {"hlen", "h"}});
}

// Redis's conversion moments at the default limits (512 fields, 64 bytes) and after CONFIG SET.
TEST_F(HashesDifferentialTest, EncodingConversions) {
  std::vector<Args> commands;
  Args fill = {"hset", "big"};
  for (int i = 0; i < 512; ++i) {
    fill.push_back("field" + std::to_string(i));
    fill.push_back(std::to_string(i));
  }
  commands.push_back(fill);
  commands.push_back({"object", "encoding", "big"});
  commands.push_back({"hset", "big", "field0", "updated"});
  commands.push_back({"object", "encoding", "big"});
  commands.push_back({"hset", "big", "field512", "x"});
  commands.push_back({"object", "encoding", "big"});
  // Lengths: 64 stays, 65 converts, for values, fields, HSETNX and HINCRBYFLOAT's result.
  const std::string v64(64, 'v'), v65(65, 'v');
  commands.push_back({"hset", "a", "f", v64});
  commands.push_back({"object", "encoding", "a"});
  commands.push_back({"hset", "a", "f", v65});
  commands.push_back({"object", "encoding", "a"});
  commands.push_back({"hset", "b", v65, "1"});
  commands.push_back({"object", "encoding", "b"});
  commands.push_back({"hsetnx", "c", "f", v64});
  commands.push_back({"hsetnx", "c", "g", v65});
  commands.push_back({"object", "encoding", "c"});
  commands.push_back({"hincrbyfloat", "d", "f", "1e60"});
  commands.push_back({"object", "encoding", "d"});
  commands.push_back({"hincrbyfloat", "d", "f", "1e70"});
  commands.push_back({"object", "encoding", "d"});
  commands.push_back({"hincrby", "e", v65, "1"});
  commands.push_back({"object", "encoding", "e"});
  // Deleting back to one field never converts back.
  commands.push_back({"hdel", "a", "f"});
  commands.push_back({"hset", "a", "x", "1"});
  commands.push_back({"hdel", "a", "x"});
  commands.push_back({"exists", "a"});
  commands.push_back({"hset", "a2", "f", v65, "g", "1"});
  commands.push_back({"hdel", "a2", "f"});
  commands.push_back({"object", "encoding", "a2"});
  // Runtime limits, under both names; existing hashes convert on their next write.
  commands.push_back({"hset", "r", "1", "1", "2", "2", "3", "3"});
  commands.push_back({"config", "set", "hash-max-ziplist-entries", "2"});
  commands.push_back({"config", "get", "hash-max-listpack-entries"});
  commands.push_back({"object", "encoding", "r"});
  commands.push_back({"hget", "r", "1"});
  commands.push_back({"object", "encoding", "r"});
  commands.push_back({"hdel", "r", "1"});
  commands.push_back({"object", "encoding", "r"});
  commands.push_back({"hset", "r", "2", "x"});
  commands.push_back({"object", "encoding", "r"});
  commands.push_back({"config", "set", "hash-max-listpack-entries", "0"});
  commands.push_back({"hset", "z", "a", "1"});
  commands.push_back({"object", "encoding", "z"});
  commands.push_back({"config", "set", "hash-max-listpack-entries", "512"});
  commands.push_back({"config", "set", "hash-max-ziplist-value", "0"});
  commands.push_back({"hset", "y", "", ""});
  commands.push_back({"object", "encoding", "y"});
  commands.push_back({"hset", "y2", "a", ""});
  commands.push_back({"object", "encoding", "y2"});
  commands.push_back({"config", "get", "hash-max-ziplist-value"});
  commands.push_back({"config", "set", "hash-max-listpack-value", "64"});
  commands.push_back({"hgetall", "big"});
  ExpectSame(commands);
}

// DEBUG OBJECT's serializedlength: a listpack as one RDB string (LZF-compressed when that helps),
// a hashtable as its size and each field and value.
TEST_F(HashesDifferentialTest, DebugObjectSerializedLength) {
  std::vector<Args> commands;
  commands.push_back({"hset", "small", "a", "1", "b", "-200", "c", "hello"});
  Args compressible = {"hset", "lzf"};
  for (int i = 0; i < 40; ++i) {
    compressible.push_back("repeated_field_name_" + std::to_string(i));
    compressible.push_back("repeated_value");
  }
  commands.push_back(compressible);
  Args table = {"hset", "table"};
  for (int i = 0; i < 600; ++i) {
    table.push_back(std::to_string(i * 997));
    table.push_back(i % 3 == 0 ? std::to_string(i - 300) : std::string(i % 70, 'a' + i % 26));
  }
  commands.push_back(table);
  commands.push_back({"hset", "mixed", "f", std::string(100, 'x'), "12345678901", "-70000"});
  for (const char* k : {"small", "lzf", "table", "mixed"}) {
    commands.push_back({"object", "encoding", k});
    commands.push_back({"debug", "object", k});
  }
  ExpectSame(commands);
}

// Redis's ld2string formatting of HINCRBYFLOAT's results.
TEST_F(HashesDifferentialTest, IncrByFloatFormatting) {
  std::vector<Args> commands;
  const std::vector<std::string> steps = {
      "0.1",  "0.2",   "-0.3",  "1e3",    "1.5e-3",  "3.0",     "0x10", "-5.25", "10.5", "1e-20",
      "1e20", "-1e20", "1e300", "-1e300", "123.456", "5.0e-10", ".5",   "5.",    "1E2",  "-0"};
  for (const std::string& s : steps) {
    commands.push_back({"hincrbyfloat", "h", "f", s});
    commands.push_back({"hincrbyfloat", "h", "g" + s, s});
  }
  commands.push_back({"hset", "h", "i", "10", "j", "-3", "k", "1.5e3"});
  commands.push_back({"hincrbyfloat", "h", "i", "0.5"});
  commands.push_back({"hincrbyfloat", "h", "j", "3"});
  commands.push_back({"hincrbyfloat", "h", "k", "1"});
  commands.push_back({"hgetall", "h"});
  ExpectSame(commands);
}

TEST_F(HashesDifferentialTest, Resp3Shapes) {
  std::vector<Args> commands = {{"hello", "3"},
                                {"hset", "h", "a", "1", "b", "2", "c", "3"},
                                {"hgetall", "h"},
                                {"hgetall", "nokey"},
                                {"hkeys", "nokey"},
                                {"hvals", "h"},
                                {"hget", "nokey", "a"},
                                {"hmget", "h", "a", "zz"},
                                {"hrandfield", "nokey"},
                                {"hrandfield", "nokey", "2"},
                                {"hrandfield", "h", "0", "withvalues"},
                                {"hrandfield", "h", "5", "withvalues"},
                                {"hrandfield", "h", "2", "withvalues"},
                                {"hrandfield", "h", "-5", "withvalues"},
                                {"hrandfield", "h", "1", "withvalues"},
                                {"hrandfield", "h", "-1"},
                                {"hrandfield", "h", "2"},
                                {"hscan", "h", "0"},
                                {"hscan", "nokey", "0"},
                                {"config", "set", "hash-max-listpack-entries", "1"},
                                {"hset", "t", "a", "1", "b", "2", "c", "3"},
                                {"hgetall", "t"},
                                {"hrandfield", "t", "5", "withvalues"},
                                {"hrandfield", "t", "2", "withvalues"},
                                {"hrandfield", "t", "-5", "withvalues"},
                                {"hscan", "t", "0", "count", "100"},
                                {"hello", "2"}};
  ExpectSame(commands);
}

TEST_F(HashesDifferentialTest, CommandInfo) {
  std::vector<Args> commands;
  for (const char* name :
       {"hset", "hsetnx", "hmset", "hget", "hmget", "hgetall", "hkeys", "hvals", "hdel", "hlen",
        "hstrlen", "hexists", "hincrby", "hincrbyfloat", "hrandfield", "hscan"}) {
    commands.push_back({"command", "info", name});
    commands.push_back({"command", "getkeys", name, "k1", "f", "v"});
  }
  ExpectSame(commands);
}

// The whole hash comes back from HSCAN, in many calls, for a hashtable of every size class.
TEST_F(HashesDifferentialTest, ScanCoversTheHashLikeRedis) {
  for (int size : {5, 200, 3000}) {
    Args fill = {"hset", "h"};
    for (int i = 0; i < size; ++i) {
      fill.push_back("f" + std::to_string(i));
      fill.push_back(std::to_string(i));
    }
    Both({"del", "h"});
    Both({"config", "set", "hash-max-listpack-entries", "1"});
    Both(fill);
    Both({"config", "set", "hash-max-listpack-entries", "512"});
    std::vector<std::string> fields[2];
    int calls[2] = {0, 0};
    for (int server = 0; server < 2; ++server) {
      RawConnection& c = server == 0 ? *kv_ : *redis_conn_;
      std::string cursor = "0";
      do {
        c.Send(EncodeCommand({"hscan", "h", cursor, "count", "10"}));
        const auto reply = ParseReply(c.ReadReply().value_or(""));
        ASSERT_TRUE(reply && reply->elements.size() == 2);
        cursor = reply->elements[0].str;
        for (size_t i = 0; i < reply->elements[1].elements.size(); i += 2) {
          fields[server].push_back(reply->elements[1].elements[i].str);
        }
        ++calls[server];
      } while (cursor != "0");
      std::sort(fields[server].begin(), fields[server].end());
      fields[server].erase(std::unique(fields[server].begin(), fields[server].end()),
                           fields[server].end());
    }
    EXPECT_EQ(fields[0], fields[1]) << size;
    EXPECT_EQ(static_cast<int>(fields[0].size()), size);
    // About the same number of calls: bucket by bucket, not everything at once.
    EXPECT_LE(calls[0], calls[1] * 2 + 2) << size;
    EXPECT_GE(calls[0] * 2 + 2, calls[1]) << size;
  }
}

}  // namespace
}  // namespace kv::test
