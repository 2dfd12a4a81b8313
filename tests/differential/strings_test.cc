// Differential tests for the string commands beyond GET/SET/INCR: the same requests go to
// kvserver and to the real redis-server, and the raw reply bytes must be identical.
//
// RandomStringSequences runs seeded random sequences (15-30 commands each, sent pipelined in one
// write after a FLUSHALL) of APPEND, STRLEN, GETRANGE/SUBSTR, SETRANGE, GETSET, GETDEL, GETEX
// (every option, conflicting and bad ones), SETNX, SETEX, PSETEX, MSETNX, INCRBYFLOAT (exponents,
// hex, inf, bad floats), LCS (LEN/IDX/MINMATCHLEN/WITHMATCHLEN), mixed with SET/GET/INCR/TTL/
// EXISTS/DEL, over four keys (one binary), with wrong arity now and then. Each run prints its
// base seed; sequence i uses base+i.
//   KV_STR_DIFF_SEED=<seed>       replays just that sequence
//   KV_STR_DIFF_BASE_SEED=<seed>  replays a whole run
//   KV_STR_DIFF_SEQUENCES=<n>     changes how many sequences run (default 600)
// Timing: relative expire times are at least 100 s (nothing expires during a sequence), absolute
// ones are far-future constants or long past; TTL replies of 0 or more may differ by one second.
// SETRANGE offsets are small, or large enough that the result exceeds proto-max-bulk-len (so
// neither server allocates half a gigabyte).

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/reply_pair.h"
#include "tests/support/resp_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

using namespace std::string_literals;

// Byte equality, except TTL of keys with a TTL, which may differ by one second.
bool Same(const Args& args, const std::string& a, const std::string& b) {
  if (a == b) return true;
  std::string cmd = args[0];
  for (char& c : cmd) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (cmd != "ttl" || a.size() < 4 || b.size() < 4 || a[0] != ':' || b[0] != ':') return false;
  const long long x = std::strtoll(a.c_str() + 1, nullptr, 10);
  const long long y = std::strtoll(b.c_str() + 1, nullptr, 10);
  return x >= 0 && y >= 0 && std::llabs(x - y) <= 1;
}

class Generator : public RandomChoices {
 public:
  using RandomChoices::RandomChoices;

  std::string Key() { return Pick(std::vector<std::string>{"a", "b", "c", "k\0\r\n"s}); }
  std::string Value() {
    static const std::vector<std::string> values = {"",
                                                    "x",
                                                    "hello",
                                                    "ohmytext",
                                                    "mynewtext",
                                                    "abcabcab",
                                                    "aabbcc",
                                                    "10",
                                                    "-3",
                                                    "0",
                                                    "1.5",
                                                    "0.1",
                                                    "5.0e3",
                                                    "1e3",
                                                    "-0",
                                                    " 1",
                                                    "0x1A",
                                                    "inf",
                                                    "abc",
                                                    "3.14abc",
                                                    "9223372036854775807",
                                                    "1e4",
                                                    "x\0y\r\n"s,
                                                    "\xff\xfe",
                                                    "12345678901234567890"};
    return Pick(values);
  }
  std::string Index() {
    if (Percent(5)) return Pick(std::vector<std::string>{"x", "1.5", "", "9223372036854775808"});
    if (Percent(5)) {
      return Pick(std::vector<std::string>{"9223372036854775807", "-9223372036854775808"});
    }
    return std::to_string(static_cast<int64_t>(Uniform(25)) - 12);
  }
  std::string Float() {
    static const std::vector<std::string> incrs = {
        "0.1",  "-0.1",  "1",      "-1",      "1e3",    "1.5e-3", "3.0",
        "0x10", "-5.25", "inf",    "-inf",    "nan",    "abc",    "",
        " 1",   "1 ",    "1e400",  "1e-5000", "1e5000", "10.5",   "-1e-3",
        "1\0"s, "+2.5",  "0.0001", ".5",      "5.",     "1E2",    "123456789.123456789"};
    return Pick(incrs);
  }
  // Expire arguments: mostly valid distinct-enough relative times; sometimes bad.
  std::string Seconds() {
    if (Percent(15)) return Pick(std::vector<std::string>{"0", "-1", "abc", "9223372036854776"});
    return std::to_string(100 + 10 * Uniform(50));
  }
  std::string Millis() {
    if (Percent(15)) {
      return Pick(std::vector<std::string>{"0", "-5", "1.5", "9223372036854775807"});
    }
    return std::to_string(100000 + 10000 * Uniform(50));
  }

  Args Next() {
    const std::string k = Key();
    switch (Uniform(26)) {
      case 0:
        return {Case("set"), k, Value()};
      case 1:
        return {Case("get"), k};
      case 2:
        return {Case("incr"), k};
      case 3:
      case 4:
        return {Case("append"), k, Value()};
      case 5:
        return {Case("strlen"), k};
      case 6:
        return {Case(Percent(80) ? "getrange" : "substr"), k, Index(), Index()};
      case 7:
      case 8: {
        std::string off = std::to_string(Uniform(15));
        if (Percent(10)) {
          off = Pick(
              std::vector<std::string>{"-1", "x", "536870912", "536870911", "9223372036854775807"});
        }
        const std::string v = Percent(10) ? "" : Value();
        if (off == "536870911" && v.empty()) off = "3";
        if (off == "536870911" && v.size() < 2) return {Case("setrange"), k, off, "ab"};
        return {Case("setrange"), k, off, v};
      }
      case 9:
        return {Case("getset"), k, Value()};
      case 10:
        return {Case("getdel"), k};
      case 11:
      case 12: {
        Args a = {Case("getex"), k};
        const int n = static_cast<int>(Uniform(3));
        for (int i = 0; i < n; ++i) {
          switch (Uniform(8)) {
            case 0:
              a.push_back(Case("ex"));
              a.push_back(Seconds());
              break;
            case 1:
              a.push_back(Case("px"));
              a.push_back(Millis());
              break;
            case 2:
              a.push_back(Case("exat"));
              a.push_back(Pick(std::vector<std::string>{"4102444800", "1", "100", "abc", "0"}));
              break;
            case 3:
              a.push_back(Case("pxat"));
              a.push_back(Pick(std::vector<std::string>{"4102444800000", "1", "1000", "-1"}));
              break;
            case 4:
            case 5:
              a.push_back(Case("persist"));
              break;
            case 6:
              a.push_back(Pick(std::vector<std::string>{"nx", "keepttl", "get", "bogus", "ex"}));
              break;
            default:
              break;
          }
        }
        return a;
      }
      case 13:
        return {Case("setnx"), k, Value()};
      case 14:
        return {Case("setex"), k, Seconds(), Value()};
      case 15:
        return {Case("psetex"), k, Millis(), Value()};
      case 16: {
        Args a = {Case("msetnx")};
        const int pairs = 1 + static_cast<int>(Uniform(3));
        for (int i = 0; i < pairs; ++i) {
          a.push_back(Key());
          a.push_back(Value());
        }
        if (Percent(10)) a.pop_back();
        return a;
      }
      case 17:
      case 18:
        return {Case("incrbyfloat"), k, Float()};
      case 19:
      case 20: {
        Args a = {Case("lcs"), k, Key()};
        const int n = static_cast<int>(Uniform(4));
        for (int i = 0; i < n; ++i) {
          switch (Uniform(6)) {
            case 0:
              a.push_back(Case("len"));
              break;
            case 1:
            case 2:
              a.push_back(Case("idx"));
              break;
            case 3:
              a.push_back(Case("withmatchlen"));
              break;
            case 4:
              a.push_back(Case("minmatchlen"));
              if (Percent(90)) {
                a.push_back(Pick(std::vector<std::string>{"0", "1", "2", "3", "-1", "x"}));
              }
              break;
            default:
              a.push_back("bogus");
              break;
          }
        }
        return a;
      }
      case 21:
        return {Case("ttl"), k};
      case 22:
        return {Case("set"), k, Value(), "EX", Seconds()};
      case 23:
        return {Case("exists"), k};
      case 24:
        return {Case("del"), k};
      default: {
        // Wrong arity.
        static const std::vector<Args> cases = {{"append", "a"},
                                                {"strlen"},
                                                {"getrange", "a", "0"},
                                                {"substr", "a"},
                                                {"setrange", "a"},
                                                {"getset", "a"},
                                                {"getdel"},
                                                {"getex"},
                                                {"setnx", "a"},
                                                {"setex", "a", "100"},
                                                {"psetex", "a"},
                                                {"msetnx", "a"},
                                                {"msetnx", "a", "1", "b"},
                                                {"incrbyfloat", "a"},
                                                {"lcs", "a"},
                                                {"strlen", "a", "b"},
                                                {"getdel", "a", "b"}};
        Args a = Pick(cases);
        a[0] = Case(a[0]);
        return a;
      }
    }
  }
};

// Kinds of replies a run should produce, counted from Redis's replies, so that a change to the
// generator that stops exercising something shows up.
const std::vector<std::pair<std::string, std::string>>& ExpectedKinds() {
  static const std::vector<std::pair<std::string, std::string>> kinds = {
      {"not a float", "value is not a valid float"},
      {"nan or inf", "increment would produce NaN or Infinity"},
      {"not an integer", "value is not an integer or out of range"},
      {"too long", "string exceeds maximum allowed size"},
      {"offset out of range", "offset is out of range"},
      {"syntax error", "syntax error"},
      {"invalid expire", "invalid expire time"},
      {"wrong arity", "wrong number of arguments"},
      {"lcs len and idx", "If you want both the length and indexes"},
      {"lcs matches", "$7\r\nmatches\r\n*"},
      {"float result", "."}};
  return kinds;
}

class StringsDifferentialTest : public ConnectedBothServersTest<StringsDifferentialTest> {
 protected:
  void ExpectSameReplies(const std::vector<Args>& commands) {
    ConnectedBothServersTest::ExpectSameReplies(commands, Same);
  }
};

TEST_F(StringsDifferentialTest, RandomStringSequences) {
  RandomRun run;
  run.name = "strings differential";
  run.env = "KV_STR_DIFF";
  run.generate = [](uint64_t seed) {
    Generator gen(seed);
    std::vector<Args> commands(15 + gen.Uniform(16));
    for (Args& c : commands) c = gen.Next();
    return commands;
  };
  run.same = Same;
  run.kinds = ExpectedKinds();
  // A float result is a bulk reply of INCRBYFLOAT (the only 11-letter command generated).
  run.counts = [](const std::string& kind, const Args& command, const std::string& redis) {
    return kind != "float result" || (redis[0] == '$' && command[0].size() == 11);
  };
  RunRandomSequences(*kv_, *redis_conn_, run);
  EXPECT_TRUE(kvserver_->running()) << "kvserver died";
}

// ---------------------------------------------------------------------------------------------
// Hand-written cases.

TEST_F(StringsDifferentialTest, IncrByFloatFormatting) {
  std::vector<Args> commands;
  for (const char* incr : {"0.1",      "0.2",
                           "1e3",      "-1e3",
                           "1.5e-3",   "3.0",
                           "0x10",     "0X1p4",
                           "1e-20",    "1e20",
                           "1e-300",   "123456789.123456789",
                           "-0",       "+5",
                           ".5",       "5.",
                           "1E2",      "0.30000000000000004",
                           "1e308",    "1.7976931348623157e308",
                           "4.9e-324", "1e4000",
                           "1e4932",   "1e-4950",
                           "1e-5000",  "1e5000",
                           "inf",      "-inf",
                           "infinity", "nan",
                           "-nan",     "",
                           " 1",       "1 ",
                           "\t1",      "1\n",
                           "abc",      "1e",
                           "--1",      "0x",
                           "1,5"}) {
    commands.push_back({"incrbyfloat", "fresh", incr});
    commands.push_back({"get", "fresh"});
    commands.push_back({"del", "fresh"});
    commands.push_back({"set", "v", "10.5"});
    commands.push_back({"incrbyfloat", "v", incr});
    commands.push_back({"set", "v", incr});
    commands.push_back({"incrbyfloat", "v", "1"});
  }
  commands.push_back({"incrbyfloat", "x", "0.1"});
  commands.push_back({"incrbyfloat", "x", "0.1"});
  commands.push_back({"incrbyfloat", "x", "0.1"});
  commands.push_back({"set", "m", "1.7976931348623157e308"});
  commands.push_back({"incrbyfloat", "m", "1.7976931348623157e308"});
  commands.push_back({"incrbyfloat", "m", "1e4932"});
  commands.push_back({"incrbyfloat", "m", "1e4932"});
  commands.push_back({"strlen", "m"});
  commands.push_back({"set", "t", "1", "EX", "1000"});
  commands.push_back({"incrbyfloat", "t", "2.5"});
  commands.push_back({"ttl", "t"});
  ExpectSameReplies(commands);
}

TEST_F(StringsDifferentialTest, RangesAndLengths) {
  std::vector<Args> commands = {{"set", "s", "Hello World"}, {"set", "e", ""}};
  const std::vector<std::string> idx = {"0",
                                        "1",
                                        "4",
                                        "10",
                                        "11",
                                        "12",
                                        "100",
                                        "-1",
                                        "-2",
                                        "-5",
                                        "-11",
                                        "-12",
                                        "-100",
                                        "9223372036854775807",
                                        "-9223372036854775808"};
  for (const std::string& s : idx) {
    for (const std::string& e : idx) {
      commands.push_back({"getrange", "s", s, e});
    }
    commands.push_back({"getrange", "e", s, "-1"});
    commands.push_back({"substr", "missing", s, "3"});
  }
  for (const Args& c : std::vector<Args>{{"getrange", "s", "x", "1"},
                                         {"getrange", "missing", "0", "y"},
                                         {"getrange", "s", "01", "2"},
                                         {"setrange", "r", "3", "abc"},
                                         {"get", "r"},
                                         {"setrange", "r", "0", ""},
                                         {"setrange", "r", "1", "\0\r\n"s},
                                         {"get", "r"},
                                         {"setrange", "none", "5", ""},
                                         {"exists", "none"},
                                         {"setrange", "r", "-1", "x"},
                                         {"setrange", "r", "-1", ""},
                                         {"setrange", "r", "x", "x"},
                                         {"setrange", "r", "536870912", "x"},
                                         {"setrange", "r", "536870911", "xy"},
                                         {"setrange", "new", "536870912", "x"},
                                         {"setrange", "r", "9223372036854775807", "x"},
                                         {"setrange", "r", "9223372036854775808", "x"},
                                         {"strlen", "r"},
                                         {"strlen", "missing"},
                                         {"append", "ap", "abc"},
                                         {"append", "ap", "\0"s},
                                         {"append", "ap", ""},
                                         {"get", "ap"},
                                         {"append", "ae", ""},
                                         {"exists", "ae"},
                                         {"config", "set", "proto-max-bulk-len", "1mb"},
                                         {"setrange", "big", "1048575", "x"},
                                         {"setrange", "big", "1048575", "xy"},
                                         {"setrange", "big", "1048576", "x"},
                                         {"append", "big", "x"},
                                         {"append", "big", ""},
                                         {"strlen", "big"},
                                         {"config", "set", "proto-max-bulk-len", "512mb"}}) {
    commands.push_back(c);
  }
  ExpectSameReplies(commands);
}

TEST_F(StringsDifferentialTest, GetExOptionsAndErrors) {
  std::vector<Args> commands;
  const std::vector<Args> options = {
      {},
      {"persist"},
      {"PERSIST", "persist"},
      {"ex", "100"},
      {"EX", "100", "ex", "200"},
      {"px", "100000"},
      {"exat", "4102444800"},
      {"pxat", "4102444800000"},
      {"exat", "1"},
      {"pxat", "1"},
      {"ex", "0"},
      {"ex", "-1"},
      {"ex", "abc"},
      {"ex", "9223372036854776"},
      {"px", "9223372036854775807"},
      {"exat", "9223372036854775"},
      {"ex"},
      {"ex", "100", "px", "100"},
      {"px", "100", "exat", "100"},
      {"persist", "ex", "100"},
      {"ex", "100", "persist"},
      {"keepttl"},
      {"nx"},
      {"xx"},
      {"get"},
      {"ex\0"s, "100"},
      {"persist\0x"s},
      {"bogus"},
  };
  for (const Args& opts : options) {
    for (const char* key : {"k", "missing"}) {
      commands.push_back({"set", "k", "v", "EX", "1000"});
      Args c = {"getex", key};
      c.insert(c.end(), opts.begin(), opts.end());
      commands.push_back(c);
      commands.push_back({"ttl", "k"});
      commands.push_back({"exists", "k"});
    }
  }
  ExpectSameReplies(commands);
}

TEST_F(StringsDifferentialTest, SetVariantsAndMSetNx) {
  ExpectSameReplies({{"setnx", "a", "1"},
                     {"setnx", "a", "2"},
                     {"get", "a"},
                     {"setex", "b", "100", "v"},
                     {"ttl", "b"},
                     {"setex", "b", "0", "v"},
                     {"setex", "b", "-10", "v"},
                     {"setex", "b", "x", "v"},
                     {"setex", "b", "9223372036854775", "v"},
                     {"setex", "b", "9223372036854776", "v"},
                     {"psetex", "c", "100000", "v"},
                     {"ttl", "c"},
                     {"psetex", "c", "0", "v"},
                     {"psetex", "c", "9223372036854775807", "v"},
                     {"getset", "c", "w"},
                     {"ttl", "c"},
                     {"getset", "new", "w"},
                     {"getdel", "new"},
                     {"getdel", "new"},
                     {"msetnx", "x", "1", "y", "2"},
                     {"msetnx", "x", "1", "z", "2"},
                     {"exists", "z"},
                     {"msetnx", "d", "1", "d", "2"},
                     {"get", "d"},
                     {"msetnx", "q", "1", "r"},
                     {"msetnx"},
                     {"setnx"},
                     {"setex", "a"},
                     {"psetex", "a", "1"},
                     {"getset", "a"},
                     {"getdel"},
                     {"getdel", "a", "b"}});
}

TEST_F(StringsDifferentialTest, Lcs) {
  std::vector<Args> commands;
  const std::vector<std::pair<std::string, std::string>> pairs = {{"ohmytext", "mynewtext"},
                                                                  {"", ""},
                                                                  {"abc", ""},
                                                                  {"abc", "abc"},
                                                                  {"abcabcab", "bcaabcb"},
                                                                  {"aaaa", "aa"},
                                                                  {"abab", "baba"},
                                                                  {"x\0y\r\n"s, "\0\n"s},
                                                                  {"ABCBDAB", "BDCABA"},
                                                                  {"aabbccdd", "abcd"}};
  const std::vector<Args> options = {{},
                                     {"LEN"},
                                     {"IDX"},
                                     {"IDX", "WITHMATCHLEN"},
                                     {"idx", "minmatchlen", "2"},
                                     {"idx", "minmatchlen", "2", "withmatchlen"},
                                     {"withmatchlen"},
                                     {"len", "minmatchlen", "1"},
                                     {"minmatchlen", "-5", "idx"},
                                     {"len", "idx"},
                                     {"minmatchlen"},
                                     {"minmatchlen", "x"},
                                     {"idx", "bogus"}};
  for (const auto& [a, b] : pairs) {
    commands.push_back({"mset", "a", a, "b", b});
    for (const Args& opts : options) {
      Args c = {"lcs", "a", "b"};
      c.insert(c.end(), opts.begin(), opts.end());
      commands.push_back(c);
      c[1] = "b";
      c[2] = "a";
      commands.push_back(c);
    }
  }
  commands.push_back({"lcs", "a", "missing"});
  commands.push_back({"lcs", "missing", "missing", "idx"});
  commands.push_back({"lcs", "a"});
  ExpectSameReplies(commands);
}

TEST_F(StringsDifferentialTest, LcsRandomStrings) {
  std::mt19937_64 rng(12345);
  std::vector<Args> commands;
  for (int i = 0; i < 150; ++i) {
    std::string a(rng() % 30, ' '), b(rng() % 30, ' ');
    const int alphabet = 2 + static_cast<int>(rng() % 4);
    for (char& c : a) c = static_cast<char>('a' + rng() % alphabet);
    for (char& c : b) c = static_cast<char>('a' + rng() % alphabet);
    commands.push_back({"mset", "a", a, "b", b});
    commands.push_back({"lcs", "a", "b"});
    commands.push_back({"lcs", "a", "b", "idx", "withmatchlen"});
    commands.push_back({"lcs", "a", "b", "idx", "minmatchlen", std::to_string(rng() % 4)});
  }
  ExpectSameReplies(commands);
}

TEST_F(StringsDifferentialTest, CommandInfoAndDocs) {
  std::vector<Args> commands;
  for (const char* name :
       {"setnx", "setex", "psetex", "getset", "getdel", "getex", "msetnx", "incrbyfloat", "append",
        "strlen", "getrange", "substr", "setrange", "lcs"}) {
    commands.push_back({"command", "info", name});
    commands.push_back({"command", "docs", name});
    commands.push_back({"command", "getkeys", name, "k1", "k2", "v"});
  }
  commands.push_back({"command", "getkeys", "msetnx", "a", "1", "b", "2"});
  commands.push_back({"command", "getkeys", "lcs", "a", "b", "idx"});
  ExpectSameReplies(commands);
}

}  // namespace
}  // namespace kv::test
