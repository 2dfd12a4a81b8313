// Differential tests for the bitmap commands: the same requests go to kvserver and to the real
// redis-server, and the raw reply bytes must be identical.
//
// RandomBitmapSequences runs seeded random sequences (15-30 commands each, pipelined in one write
// after a FLUSHALL) of SETBIT, GETBIT, BITCOUNT, BITPOS, BITOP, BITFIELD and BITFIELD_RO (every
// option, bad offsets, bad types, bad units, wrong arity) over four keys (one binary), mixed
// with SET (random bytes, up to 90 of them, so that word-at-a-time paths and their byte tails
// are hit), GET, APPEND, STRLEN and DEL. Each run prints its base seed; sequence i uses base+i.
//   KV_BIT_DIFF_SEED=<seed>       replays just that sequence
//   KV_BIT_DIFF_BASE_SEED=<seed>  replays a whole run
//   KV_BIT_DIFF_SEQUENCES=<n>     changes how many sequences run (default 600)

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/reply_pair.h"
#include "tests/support/resp_client.h"

namespace kv::test {
namespace {

using namespace std::string_literals;

class BitmapGenerator : public RandomChoices {
 public:
  using RandomChoices::RandomChoices;

  std::string Number(int64_t lo, int64_t hi) {
    return std::to_string(lo + static_cast<int64_t>(Uniform(static_cast<uint64_t>(hi - lo + 1))));
  }
  std::string Key() { return Pick({"a", "b", "c", "k\0\r\n"s}); }
  // Runs of 0x00 and 0xff (so that BITPOS skips words), and random bytes.
  std::string Bytes() {
    const size_t n = Percent(25) ? Uniform(4) : Uniform(91);
    const int style = static_cast<int>(Uniform(4));
    std::string s(n, '\0');
    for (char& c : s) {
      const uint64_t r = Uniform(100);
      if (style == 0) {
        c = r < 90 ? '\0' : static_cast<char>(Uniform(256));
      } else if (style == 1) {
        c = r < 90 ? '\xff' : static_cast<char>(Uniform(256));
      } else {
        c = static_cast<char>(Uniform(256));
      }
    }
    return s;
  }
  std::string BitOffset() {
    if (Percent(6)) {
      return Pick({"-1", "x", "", "1.5", "+3", "#3", "4294967296", "9223372036854775807"});
    }
    return Number(0, Percent(70) ? 100 : 800);
  }
  std::string Index() {
    if (Percent(4)) return Pick({"x", "", "1.5", "9223372036854775808"});
    if (Percent(4)) return Pick({"9223372036854775807", "-9223372036854775808"});
    return Percent(60) ? Number(-12, 12) : Number(-800, 800);
  }
  std::string Unit() {
    if (Percent(5)) return Pick({"bogus", "bits", ""});
    return Case(Percent(50) ? "bit" : "byte");
  }
  std::string Type() {
    if (Percent(5)) return Pick({"u64", "i65", "i0", "u0", "x8", "", "I8", "u", "i8\0x"s});
    const bool is_signed = Percent(50);
    const int bits = 1 + static_cast<int>(Uniform(is_signed ? 64 : 63));
    return (is_signed ? "i" : "u") + std::to_string(Percent(30) ? (is_signed ? 64 : 63) : bits);
  }
  std::string FieldOffset() {
    if (Percent(5)) return Pick({"-1", "#-1", "#", "x", "#x"});
    return Percent(25) ? "#" + Number(0, 12) : Number(0, 300);
  }
  std::string FieldValue() {
    if (Percent(5)) return Pick({"x", "1.5", ""});
    if (Percent(25)) {
      return Pick({"9223372036854775807", "-9223372036854775808", "255", "256", "-129", "127",
                   "128", "4294967295", "-1"});
    }
    return Number(-300, 300);
  }

  Args Bitfield(bool read_only) {
    Args a = {Case(read_only ? "bitfield_ro" : "bitfield"), Key()};
    const int n = static_cast<int>(Uniform(5));
    for (int i = 0; i < n; ++i) {
      switch (Uniform(read_only ? 6 : 9)) {  // BITFIELD_RO sometimes gets a SET
        case 0:
        case 1:
        case 2:
          a.insert(a.end(), {Case("get"), Type(), FieldOffset()});
          break;
        case 3:
          a.push_back(Case("overflow"));
          a.push_back(Percent(90) ? Case(Pick({"wrap", "sat", "fail"})) : "bogus");
          break;
        case 4:
          a.push_back(Pick({"bogus", "get", "set"}));
          break;
        case 5:
        case 6:
          a.insert(a.end(), {Case("set"), Type(), FieldOffset(), FieldValue()});
          break;
        default:
          a.insert(a.end(), {Case("incrby"), Type(), FieldOffset(), FieldValue()});
          break;
      }
    }
    return a;
  }

  Args Next() {
    const std::string k = Key();
    switch (Uniform(20)) {
      case 0:
      case 1:
        return {Case("set"), k, Bytes()};
      case 2:
      case 3: {
        std::string bit = Percent(94) ? Number(0, 1) : Pick({"2", "-1", "x", "01"});
        return {Case("setbit"), k, BitOffset(), bit};
      }
      case 4:
        return {Case("getbit"), k, BitOffset()};
      case 5:
      case 6: {
        Args a = {Case("bitcount"), k};
        const uint64_t shape = Uniform(8);
        if (shape >= 2) a.insert(a.end(), {Index(), Index()});
        if (shape >= 5) a.push_back(Unit());
        if (shape == 7 && Percent(30)) a.push_back(Percent(50) ? "x" : Index());
        if (shape == 1) a.push_back(Index());
        return a;
      }
      case 7:
      case 8: {
        std::string bit = Percent(94) ? Number(0, 1) : Pick({"2", "-1", "x"});
        Args a = {Case("bitpos"), k, bit};
        const uint64_t shape = Uniform(6);
        if (shape >= 1) a.push_back(Index());
        if (shape >= 3) a.push_back(Index());
        if (shape >= 4) a.push_back(Unit());
        if (shape == 5 && Percent(30)) a.push_back("x");
        return a;
      }
      case 9:
      case 10: {
        std::string op = Percent(95) ? Case(Pick({"and", "or", "xor", "not"})) : "nand";
        Args a = {Case("bitop"), op, Key()};
        const int sources = (op == "not" || op == "NOT" || Percent(20)) && Percent(85)
                                ? 1
                                : 1 + static_cast<int>(Uniform(4));
        for (int i = 0; i < sources; ++i) a.push_back(Percent(90) ? Key() : "missing");
        return a;
      }
      case 11:
      case 12:
      case 13:
        return Bitfield(false);
      case 14:
        return Bitfield(true);
      case 15:
        return {Case("get"), k};
      case 16:
        return {Case("append"), k, Bytes()};
      case 17:
        return {Case("strlen"), k};
      case 18:
        return {Case("del"), k};
      default: {
        static const std::vector<Args> cases = {{"setbit", "a", "1"},
                                                {"getbit", "a"},
                                                {"bitcount"},
                                                {"bitpos", "a"},
                                                {"bitop", "and", "d"},
                                                {"bitfield"},
                                                {"bitfield_ro"},
                                                {"getbit", "a", "1", "2"},
                                                {"setbit", "a"},
                                                {"bitop", "not"},
                                                {"setbit", "a", "1", "1", "1"}};
        Args a = cases[Uniform(cases.size())];
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
      {"bad offset", "bit offset is not an integer or out of range"},
      {"bad bit", "bit is not an integer or out of range"},
      {"bad type", "Invalid bitfield type"},
      {"bad overflow", "Invalid OVERFLOW type specified"},
      {"bitfield_ro write", "BITFIELD_RO only supports the GET subcommand"},
      {"bitop not", "BITOP NOT must be called with a single source key."},
      {"bitpos bit", "The bit argument must be 1 or 0."},
      {"not an integer", "value is not an integer or out of range"},
      {"syntax error", "syntax error"},
      {"wrong arity", "wrong number of arguments"},
      {"overflow fail nil", "\r\n$-1\r\n"},
      {"negative result", ":-"}};
  return kinds;
}

class BitmapsDifferentialTest : public ConnectedBothServersTest<BitmapsDifferentialTest> {};

TEST_F(BitmapsDifferentialTest, RandomBitmapSequences) {
  RandomRun run;
  run.name = "bitmaps differential";
  run.env = "KV_BIT_DIFF";
  run.generate = [](uint64_t seed) {
    BitmapGenerator gen(seed);
    std::vector<Args> commands(15 + gen.Uniform(16));
    for (Args& c : commands) c = gen.Next();
    return commands;
  };
  run.kinds = ExpectedKinds();
  RunRandomSequences(*kv_, *redis_conn_, run);
  EXPECT_TRUE(kvserver_->running()) << "kvserver died";
}

// Every BITCOUNT and BITPOS range over strings of ones and zeros with one odd bit, in bytes and
// in bits, so that every edge mask and every word/byte boundary is compared.
TEST_F(BitmapsDifferentialTest, CountAndPosRanges) {
  std::vector<Args> commands;
  for (const std::string& value :
       {std::string(19, '\xff'), std::string(19, '\0'), "\xff\xff\xff\xef\xff\xff\xff\xff\xff"s,
        "\0\0\0\0\0\0\0\0\0\x10"s, "\x5a"s, ""s}) {
    commands.push_back({"set", "s", value});
    commands.push_back({"bitcount", "s"});
    for (const char* bit : {"0", "1"}) commands.push_back({"bitpos", "s", bit});
    for (int start = -25; start <= 25; start += 3) {
      commands.push_back({"bitpos", "s", "0", std::to_string(start)});
      commands.push_back({"bitpos", "s", "1", std::to_string(start)});
      for (int end = -25; end <= 25; end += 4) {
        for (const char* unit : {"byte", "bit"}) {
          const std::string s = std::to_string(start), e = std::to_string(end);
          const std::string bs = std::to_string(start * 7), be = std::to_string(end * 7);
          const bool bits = unit[1] == 'i';
          commands.push_back({"bitcount", "s", bits ? bs : s, bits ? be : e, unit});
          commands.push_back({"bitpos", "s", "0", bits ? bs : s, bits ? be : e, unit});
          commands.push_back({"bitpos", "s", "1", bits ? bs : s, bits ? be : e, unit});
        }
      }
    }
  }
  ExpectSameReplies(commands);
}

TEST_F(BitmapsDifferentialTest, OffsetLimitsAndLongStrings) {
  ExpectSameReplies({{"config", "set", "proto-max-bulk-len", "1mb"},
                     {"setbit", "k", "8388607", "1"},
                     {"setbit", "k", "8388608", "1"},
                     {"getbit", "k", "8388608"},
                     {"strlen", "k"},
                     {"bitcount", "k"},
                     {"bitpos", "k", "1"},
                     {"bitpos", "k", "0", "-1"},
                     {"bitpos", "k", "1", "0", "-1"},
                     {"bitpos", "k", "1", "0", "-2"},
                     {"bitfield", "b", "set", "u8", "8388607", "255"},
                     {"bitfield", "b", "set", "u8", "8388608", "255"},
                     {"bitfield", "b", "get", "i64", "#131071"},
                     {"bitfield", "b", "get", "i64", "#131072"},
                     {"strlen", "b"},
                     {"bitop", "xor", "d", "k", "b"},
                     {"bitcount", "d"},
                     {"bitpos", "d", "1", "100"},
                     {"bitop", "not", "d", "d"},
                     {"bitcount", "d", "1", "-2"},
                     {"config", "set", "proto-max-bulk-len", "512mb"}});
}

TEST_F(BitmapsDifferentialTest, CommandInfoAndDocs) {
  std::vector<Args> commands;
  for (const char* name :
       {"setbit", "getbit", "bitcount", "bitpos", "bitop", "bitfield", "bitfield_ro"}) {
    commands.push_back({"command", "info", name});
    commands.push_back({"command", "docs", name});
  }
  commands.push_back({"command", "getkeys", "bitop", "and", "d", "a", "b"});
  commands.push_back({"command", "getkeysandflags", "bitop", "and", "d", "a", "b"});
  commands.push_back({"command", "getkeysandflags", "bitfield", "k", "get", "u8", "0"});
  commands.push_back({"command", "getkeysandflags", "bitfield", "k", "overflow", "sat"});
  commands.push_back({"command", "getkeysandflags", "bitfield", "k", "set", "u8", "0", "1"});
  commands.push_back({"command", "getkeysandflags", "bitfield", "k", "get", "u8"});
  commands.push_back({"command", "getkeysandflags", "bitfield_ro", "k", "get", "u8", "0"});
  commands.push_back({"command", "getkeysandflags", "setbit", "k", "0", "1"});
  ExpectSameReplies(commands);
}

}  // namespace
}  // namespace kv::test
