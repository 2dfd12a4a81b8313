// SETNX, SETEX, PSETEX, GETSET, GETDEL, GETEX, MSETNX, INCRBYFLOAT, APPEND, STRLEN,
// GETRANGE/SUBSTR, SETRANGE and LCS through the real dispatcher. Every expected reply is what
// Redis 7.0.15 sends for the same command.

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

using namespace std::string_literals;

const std::string kEmpty = "$0\r\n\r\n";
const std::string kSyntax = Err("syntax error");
const std::string kNotInt = Err("value is not an integer or out of range");
const std::string kNotFloat = Err("value is not a valid float");
const std::string kTooLong = Err("string exceeds maximum allowed size (proto-max-bulk-len)");
const std::string kWrongType =
    "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";

class StringMoreFamilyTest : public ::testing::Test {
 protected:
  CommandHarness h;
  int64_t now() { return h.clock().NowMs(); }
};

TEST_F(StringMoreFamilyTest, SetNx) {
  EXPECT_EQ(h.Run({"SETNX", "k", "v"}), Int(1));
  EXPECT_EQ(h.Run({"SETNX", "k", "w"}), Int(0));
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("v"));
  EXPECT_EQ(h.Run({"SETNX", "k"}), Err("wrong number of arguments for 'setnx' command"));
  // An expired key counts as missing.
  EXPECT_EQ(h.Run({"SET", "e", "v", "PX", "10"}), kOk);
  h.clock().Advance(11);
  EXPECT_EQ(h.Run({"SETNX", "e", "w"}), Int(1));
  EXPECT_EQ(h.Run({"TTL", "e"}), Int(-1));
}

TEST_F(StringMoreFamilyTest, SetExAndPSetEx) {
  EXPECT_EQ(h.Run({"SETEX", "k", "10", "v"}), kOk);
  EXPECT_EQ(h.Run({"PTTL", "k"}), Int(10000));
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("v"));
  EXPECT_EQ(h.Run({"PSETEX", "k", "1500", "w"}), kOk);
  EXPECT_EQ(h.Run({"PTTL", "k"}), Int(1500));
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("w"));
  EXPECT_EQ(h.Run({"SETEX", "k", "0", "v"}), Err("invalid expire time in 'setex' command"));
  EXPECT_EQ(h.Run({"SETEX", "k", "-1", "v"}), Err("invalid expire time in 'setex' command"));
  EXPECT_EQ(h.Run({"SETEX", "k", "9223372036854776", "v"}),
            Err("invalid expire time in 'setex' command"));
  EXPECT_EQ(h.Run({"PSETEX", "k", "0", "v"}), Err("invalid expire time in 'psetex' command"));
  EXPECT_EQ(h.Run({"PSETEX", "k", "9223372036854775807", "v"}),
            Err("invalid expire time in 'psetex' command"));
  EXPECT_EQ(h.Run({"SETEX", "k", "1.5", "v"}), kNotInt);
  EXPECT_EQ(h.Run({"PSETEX", "k", "x", "v"}), kNotInt);
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("w"));
  EXPECT_EQ(h.Run({"SETEX", "k", "10"}), Err("wrong number of arguments for 'setex' command"));
}

TEST_F(StringMoreFamilyTest, GetSetClearsTtl) {
  EXPECT_EQ(h.Run({"GETSET", "k", "v"}), kNil);
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("v"));
  EXPECT_EQ(h.Run({"EXPIRE", "k", "100"}), Int(1));
  EXPECT_EQ(h.Run({"GETSET", "k", "w"}), Bulk("v"));
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(-1));
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("w"));
}

TEST_F(StringMoreFamilyTest, GetDel) {
  EXPECT_EQ(h.Run({"GETDEL", "k"}), kNil);
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  EXPECT_EQ(h.Run({"GETDEL", "k"}), Bulk("v"));
  EXPECT_EQ(h.Run({"EXISTS", "k"}), Int(0));
  EXPECT_EQ(h.Run({"GETDEL", "k", "x"}), Err("wrong number of arguments for 'getdel' command"));
}

TEST_F(StringMoreFamilyTest, GetExOptions) {
  EXPECT_EQ(h.Run({"GETEX", "k"}), kNil);
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  EXPECT_EQ(h.Run({"GETEX", "k"}), Bulk("v"));
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(-1));
  EXPECT_EQ(h.Run({"GETEX", "k", "EX", "10"}), Bulk("v"));
  EXPECT_EQ(h.Run({"PTTL", "k"}), Int(10000));
  EXPECT_EQ(h.Run({"GETEX", "k", "px", "2500"}), Bulk("v"));
  EXPECT_EQ(h.Run({"PTTL", "k"}), Int(2500));
  EXPECT_EQ(h.Run({"GETEX", "k", "PXAT", std::to_string(now() + 4000)}), Bulk("v"));
  EXPECT_EQ(h.Run({"PTTL", "k"}), Int(4000));
  EXPECT_EQ(h.Run({"GETEX", "k", "EXAT", std::to_string(now() / 1000 + 30)}), Bulk("v"));
  EXPECT_EQ(h.Run({"PTTL", "k"}), Int(30000 - now() % 1000));
  EXPECT_EQ(h.Run({"GETEX", "k", "PERSIST"}), Bulk("v"));
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(-1));
  EXPECT_EQ(h.Run({"GETEX", "k", "persist", "persist"}), Bulk("v"));
  // A repeated expiry option: the last one counts.
  EXPECT_EQ(h.Run({"GETEX", "k", "EX", "10", "EX", "20"}), Bulk("v"));
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(20));
}

TEST_F(StringMoreFamilyTest, GetExPastDeadlineDeletes) {
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  EXPECT_EQ(h.Run({"GETEX", "k", "EXAT", "1"}), Bulk("v"));
  EXPECT_EQ(h.Run({"EXISTS", "k"}), Int(0));
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  EXPECT_EQ(h.Run({"GETEX", "k", "PXAT", std::to_string(now())}), Bulk("v"));
  EXPECT_EQ(h.Run({"EXISTS", "k"}), Int(0));
}

TEST_F(StringMoreFamilyTest, GetExErrors) {
  const std::vector<std::vector<std::string>> syntax = {{"GETEX", "k", "NX"},
                                                        {"GETEX", "k", "KEEPTTL"},
                                                        {"GETEX", "k", "GET"},
                                                        {"GETEX", "k", "EX"},
                                                        {"GETEX", "k", "EX", "1", "PX", "1"},
                                                        {"GETEX", "k", "PERSIST", "EX", "1"},
                                                        {"GETEX", "k", "EX", "1", "PERSIST"},
                                                        {"GETEX", "k", "PXAT", "1", "EXAT", "1"},
                                                        {"GETEX", "k", "bogus"}};
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  for (const auto& c : syntax) EXPECT_EQ(h.Run(c), kSyntax) << c[2];
  // Syntax errors come first, even for a missing key; bad times only for an existing string.
  EXPECT_EQ(h.Run({"GETEX", "missing", "NX"}), kSyntax);
  EXPECT_EQ(h.Run({"GETEX", "missing", "EX", "abc"}), kNil);
  EXPECT_EQ(h.Run({"GETEX", "k", "EX", "abc"}), kNotInt);
  EXPECT_EQ(h.Run({"GETEX", "k", "EX", "0"}), Err("invalid expire time in 'getex' command"));
  EXPECT_EQ(h.Run({"GETEX", "k", "PX", "-5"}), Err("invalid expire time in 'getex' command"));
  EXPECT_EQ(h.Run({"GETEX", "k", "EXAT", "9223372036854776"}),
            Err("invalid expire time in 'getex' command"));
  EXPECT_EQ(h.Run({"GETEX", "k", "PX", "9223372036854775807"}),
            Err("invalid expire time in 'getex' command"));
  // An option word is read up to a NUL byte, as Redis reads C strings.
  EXPECT_EQ(h.Run({"GETEX", "k", "ex\0zz"s, "10"}), Bulk("v"));
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(10));
  EXPECT_EQ(h.Run({"GETEX"}), Err("wrong number of arguments for 'getex' command"));
}

TEST_F(StringMoreFamilyTest, MSetNx) {
  EXPECT_EQ(h.Run({"MSETNX", "a", "1", "b", "2"}), Int(1));
  EXPECT_EQ(h.Run({"MGET", "a", "b"}), "*2\r\n" + Bulk("1") + Bulk("2"));
  EXPECT_EQ(h.Run({"MSETNX", "c", "3", "a", "x"}), Int(0));
  EXPECT_EQ(h.Run({"EXISTS", "c"}), Int(0));
  EXPECT_EQ(h.Run({"MSETNX", "d", "1", "d", "2"}), Int(1));
  EXPECT_EQ(h.Run({"GET", "d"}), Bulk("2"));
  EXPECT_EQ(h.Run({"MSETNX", "a", "1", "b"}),
            Err("wrong number of arguments for 'msetnx' command"));
  EXPECT_EQ(h.Run({"MSETNX", "a"}), Err("wrong number of arguments for 'msetnx' command"));
}

TEST_F(StringMoreFamilyTest, IncrByFloat) {
  EXPECT_EQ(h.Run({"INCRBYFLOAT", "x", "0.1"}), Bulk("0.1"));
  EXPECT_EQ(h.Run({"INCRBYFLOAT", "x", "0.1"}), Bulk("0.2"));
  EXPECT_EQ(h.Run({"INCRBYFLOAT", "x", "1e3"}), Bulk("1000.20000000000000001"));
  EXPECT_EQ(h.Run({"INCRBYFLOAT", "x", "-1000.2"}), Bulk("0"));
  EXPECT_EQ(h.Run({"SET", "y", "5.0e3"}), kOk);
  EXPECT_EQ(h.Run({"INCRBYFLOAT", "y", "1.5"}), Bulk("5001.5"));
  EXPECT_EQ(h.Run({"INCRBYFLOAT", "y", "-5001.5"}), Bulk("0"));
  EXPECT_EQ(h.Run({"INCRBYFLOAT", "h", "0x10"}), Bulk("16"));
  EXPECT_EQ(h.Run({"INCRBYFLOAT", "s", "1e-20"}), Bulk("0"));
  EXPECT_EQ(h.Run({"INCRBYFLOAT", "n", "-3"}), Bulk("-3"));
  EXPECT_EQ(h.Run({"INCRBYFLOAT", "i", "10"}), Bulk("10"));
  EXPECT_EQ(h.Run({"INCRBYFLOAT", "i", "5.5"}), Bulk("15.5"));
}

TEST_F(StringMoreFamilyTest, IncrByFloatErrors) {
  EXPECT_EQ(h.Run({"INCRBYFLOAT", "y", "inf"}), Err("increment would produce NaN or Infinity"));
  EXPECT_EQ(h.Run({"EXISTS", "y"}), Int(0));
  EXPECT_EQ(h.Run({"INCRBYFLOAT", "y", "1e5000"}), kNotFloat);
  EXPECT_EQ(h.Run({"INCRBYFLOAT", "y", "nan"}), kNotFloat);
  EXPECT_EQ(h.Run({"INCRBYFLOAT", "y", "abc"}), kNotFloat);
  EXPECT_EQ(h.Run({"INCRBYFLOAT", "y", ""}), kNotFloat);
  EXPECT_EQ(h.Run({"INCRBYFLOAT", "y", " 1"}), kNotFloat);
  EXPECT_EQ(h.Run({"INCRBYFLOAT", "y", "1 "}), kNotFloat);
  EXPECT_EQ(h.Run({"INCRBYFLOAT", "y", "1\0"s}), kNotFloat);
  EXPECT_EQ(h.Run({"EXISTS", "y"}), Int(0)) << "a failed increment creates nothing";
  EXPECT_EQ(h.Run({"SET", "w", " 1"}), kOk);
  EXPECT_EQ(h.Run({"INCRBYFLOAT", "w", "1"}), kNotFloat);
  EXPECT_EQ(h.Run({"SET", "w", "1.7976931348623157e308"}), kOk);
  EXPECT_EQ(h.Run({"INCRBYFLOAT", "w", "1.7976931348623157e308"}).substr(0, 7), "$309\r\n3")
      << "long double arithmetic goes past double's range";
  EXPECT_EQ(h.Run({"SET", "w", "inf"}), kOk);
  EXPECT_EQ(h.Run({"INCRBYFLOAT", "w", "1"}), Err("increment would produce NaN or Infinity"));
  EXPECT_EQ(h.Run({"INCRBYFLOAT", "w", "x"}), kNotFloat);
}

TEST_F(StringMoreFamilyTest, IncrByFloatKeepsTtl) {
  EXPECT_EQ(h.Run({"SET", "k", "1", "EX", "100"}), kOk);
  EXPECT_EQ(h.Run({"INCRBYFLOAT", "k", "0.5"}), Bulk("1.5"));
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(100));
}

TEST_F(StringMoreFamilyTest, AppendAndStrlen) {
  EXPECT_EQ(h.Run({"STRLEN", "k"}), Int(0));
  EXPECT_EQ(h.Run({"APPEND", "k", "ab"}), Int(2));
  EXPECT_EQ(h.Run({"APPEND", "k", "c\0d"s}), Int(5));
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("abc\0d"s));
  EXPECT_EQ(h.Run({"STRLEN", "k"}), Int(5));
  EXPECT_EQ(h.Run({"APPEND", "k", ""}), Int(5));
  EXPECT_EQ(h.Run({"APPEND", "e", ""}), Int(0));
  EXPECT_EQ(h.Run({"EXISTS", "e"}), Int(1)) << "APPEND creates the key even for an empty value";
  EXPECT_EQ(h.Run({"SET", "t", "1", "EX", "100"}), kOk);
  EXPECT_EQ(h.Run({"APPEND", "t", "0"}), Int(2));
  EXPECT_EQ(h.Run({"TTL", "t"}), Int(100));
}

TEST(StringMoreLimits, AppendAndSetRangeObeyProtoMaxBulkLen) {
  Config config;
  config.proto_max_bulk_len = 10;
  CommandHarness h(config);
  EXPECT_EQ(h.Run({"APPEND", "k", "0123456789"}), Int(10));
  EXPECT_EQ(h.Run({"APPEND", "k", "x"}), kTooLong);
  EXPECT_EQ(h.Run({"APPEND", "k", ""}), Int(10));
  EXPECT_EQ(h.Run({"SETRANGE", "n", "10", "x"}), kTooLong);
  EXPECT_EQ(h.Run({"SETRANGE", "n", "9", "xy"}), kTooLong);
  EXPECT_EQ(h.Run({"EXISTS", "n"}), Int(0));
  EXPECT_EQ(h.Run({"SETRANGE", "n", "9", "x"}), Int(10));
  EXPECT_EQ(h.Run({"SETRANGE", "k", "5", "0123456"}), kTooLong);
  EXPECT_EQ(h.Run({"SETRANGE", "k", "9223372036854775807", "x"}), kTooLong);
  // An empty value changes nothing and is never too long.
  EXPECT_EQ(h.Run({"SETRANGE", "k", "100", ""}), Int(10));
  EXPECT_EQ(h.Run({"SETRANGE", "m", "100", ""}), Int(0));
  // The LCS table is limited too: (2+1)*(2+1)*4 = 36 bytes > 10.
  EXPECT_EQ(h.Run({"MSET", "a", "ab", "b", "ab"}), kOk);
  EXPECT_EQ(h.Run({"LCS", "a", "b"}),
            Err("Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len"));
}

TEST_F(StringMoreFamilyTest, GetRange) {
  EXPECT_EQ(h.Run({"GETRANGE", "missing", "0", "-1"}), kEmpty);
  EXPECT_EQ(h.Run({"SET", "k", "Hello World"}), kOk);
  EXPECT_EQ(h.Run({"GETRANGE", "k", "0", "4"}), Bulk("Hello"));
  EXPECT_EQ(h.Run({"GETRANGE", "k", "-5", "-1"}), Bulk("World"));
  EXPECT_EQ(h.Run({"GETRANGE", "k", "0", "-1"}), Bulk("Hello World"));
  EXPECT_EQ(h.Run({"GETRANGE", "k", "-100", "100"}), Bulk("Hello World"));
  EXPECT_EQ(h.Run({"GETRANGE", "k", "5", "3"}), kEmpty);
  EXPECT_EQ(h.Run({"GETRANGE", "k", "-1", "-5"}), kEmpty);
  EXPECT_EQ(h.Run({"GETRANGE", "k", "20", "30"}), kEmpty);
  EXPECT_EQ(h.Run({"GETRANGE", "k", "10", "10"}), Bulk("d"));
  EXPECT_EQ(h.Run({"GETRANGE", "k", "-9223372036854775808", "9223372036854775807"}),
            Bulk("Hello World"));
  EXPECT_EQ(h.Run({"SUBSTR", "k", "6", "-1"}), Bulk("World"));
  EXPECT_EQ(h.Run({"GETRANGE", "k", "a", "1"}), kNotInt);
  EXPECT_EQ(h.Run({"GETRANGE", "k", "0", "1.0"}), kNotInt);
  EXPECT_EQ(h.Run({"GETRANGE", "missing", "x", "1"}), kNotInt) << "indexes are parsed first";
  EXPECT_EQ(h.Run({"SET", "e", ""}), kOk);
  EXPECT_EQ(h.Run({"GETRANGE", "e", "0", "-1"}), kEmpty);
  EXPECT_EQ(h.Run({"GETRANGE", "k", "0"}), Err("wrong number of arguments for 'getrange' command"));
  EXPECT_EQ(h.Run({"SUBSTR", "k", "0"}), Err("wrong number of arguments for 'substr' command"));
}

TEST_F(StringMoreFamilyTest, SetRange) {
  EXPECT_EQ(h.Run({"SETRANGE", "k", "5", "ab"}), Int(7));
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("\0\0\0\0\0ab"s));
  EXPECT_EQ(h.Run({"SETRANGE", "k", "0", "xyz"}), Int(7));
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("xyz\0\0ab"s));
  EXPECT_EQ(h.Run({"SETRANGE", "k", "6", "BCD"}), Int(9));
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("xyz\0\0aBCD"s));
  EXPECT_EQ(h.Run({"SETRANGE", "k", "1", ""}), Int(9));
  EXPECT_EQ(h.Run({"SETRANGE", "e", "1", ""}), Int(0));
  EXPECT_EQ(h.Run({"EXISTS", "e"}), Int(0));
  EXPECT_EQ(h.Run({"SETRANGE", "k", "-1", "x"}), Err("offset is out of range"));
  EXPECT_EQ(h.Run({"SETRANGE", "k", "x", "x"}), kNotInt);
  EXPECT_EQ(h.Run({"SET", "t", "abc", "EX", "100"}), kOk);
  EXPECT_EQ(h.Run({"SETRANGE", "t", "1", "X"}), Int(3));
  EXPECT_EQ(h.Run({"GET", "t"}), Bulk("aXc"));
  EXPECT_EQ(h.Run({"TTL", "t"}), Int(100));
}

// A string SETRANGE or SETBIT creates takes what it holds, as Redis's sdsnewlen: Redis's
// unit/maxmemory fills 11 MB with 50 such keys of 100 KB and expects no eviction. A string they
// extend keeps room to grow (sdsgrowzero).
TEST_F(StringMoreFamilyTest, StringsMadeBySetRangeOrSetBitTakeTheirLength) {
  auto usage = [&](const char* key) {
    const std::string r = h.Run({"MEMORY", "USAGE", key});
    return std::stoll(r.substr(1));
  };
  EXPECT_EQ(h.Run({"SETRANGE", "r", "100000", "x"}), Int(100001));
  EXPECT_LT(usage("r"), 110000);
  EXPECT_EQ(h.Run({"SETBIT", "b", "800000", "1"}), Int(0));
  EXPECT_EQ(h.Run({"STRLEN", "b"}), Int(100001));
  EXPECT_LT(usage("b"), 110000);
  EXPECT_EQ(h.Run({"SETRANGE", "r", "150000", "y"}), Int(150001));
  EXPECT_GT(usage("r"), 250000);
  EXPECT_EQ(h.Run({"GETRANGE", "r", "99999", "100001"}), Bulk("\0x\0"s));
}

TEST_F(StringMoreFamilyTest, Lcs) {
  EXPECT_EQ(h.Run({"MSET", "a", "ohmytext", "b", "mynewtext"}), kOk);
  EXPECT_EQ(h.Run({"LCS", "a", "b"}), Bulk("mytext"));
  EXPECT_EQ(h.Run({"LCS", "a", "b", "LEN"}), Int(6));
  EXPECT_EQ(h.Run({"LCS", "a", "b", "IDX"}),
            "*4\r\n$7\r\nmatches\r\n*2\r\n"
            "*2\r\n*2\r\n:4\r\n:7\r\n*2\r\n:5\r\n:8\r\n"
            "*2\r\n*2\r\n:2\r\n:3\r\n*2\r\n:0\r\n:1\r\n"
            "$3\r\nlen\r\n:6\r\n");
  EXPECT_EQ(h.Run({"LCS", "a", "b", "IDX", "WITHMATCHLEN"}),
            "*4\r\n$7\r\nmatches\r\n*2\r\n"
            "*3\r\n*2\r\n:4\r\n:7\r\n*2\r\n:5\r\n:8\r\n:4\r\n"
            "*3\r\n*2\r\n:2\r\n:3\r\n*2\r\n:0\r\n:1\r\n:2\r\n"
            "$3\r\nlen\r\n:6\r\n");
  EXPECT_EQ(h.Run({"LCS", "a", "b", "idx", "minmatchlen", "4", "withmatchlen"}),
            "*4\r\n$7\r\nmatches\r\n*1\r\n"
            "*3\r\n*2\r\n:4\r\n:7\r\n*2\r\n:5\r\n:8\r\n:4\r\n"
            "$3\r\nlen\r\n:6\r\n");
  EXPECT_EQ(h.Run({"LCS", "a", "b", "MINMATCHLEN", "-3"}), Bulk("mytext"));
  EXPECT_EQ(h.Run({"LCS", "a", "missing"}), kEmpty);
  EXPECT_EQ(h.Run({"LCS", "x", "y", "IDX"}), "*4\r\n$7\r\nmatches\r\n*0\r\n$3\r\nlen\r\n:0\r\n");
  EXPECT_EQ(h.Run({"LCS", "a", "b", "LEN", "IDX"}),
            Err("If you want both the length and indexes, please just use IDX."));
  EXPECT_EQ(h.Run({"LCS", "a", "b", "MINMATCHLEN"}), kSyntax);
  EXPECT_EQ(h.Run({"LCS", "a", "b", "MINMATCHLEN", "x"}), kNotInt);
  EXPECT_EQ(h.Run({"LCS", "a", "b", "bogus"}), kSyntax);
  EXPECT_EQ(h.Run({"LCS", "a"}), Err("wrong number of arguments for 'lcs' command"));
}

TEST_F(StringMoreFamilyTest, LcsResp3) {
  h.conn().protocol = 3;
  EXPECT_EQ(h.Run({"MSET", "a", "ab", "b", "ab"}), kOk);
  EXPECT_EQ(h.Run({"LCS", "a", "b", "IDX"}),
            "%2\r\n$7\r\nmatches\r\n*1\r\n*2\r\n*2\r\n:0\r\n:1\r\n*2\r\n:0\r\n:1\r\n"
            "$3\r\nlen\r\n:2\r\n");
  EXPECT_EQ(h.Run({"GETEX", "missing"}), "_\r\n");
}

TEST_F(StringMoreFamilyTest, ReadsCountKeyspaceHitsAndMisses) {
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  EXPECT_EQ(h.Run({"STRLEN", "k"}), Int(1));
  EXPECT_EQ(h.Run({"GETRANGE", "missing", "0", "1"}), kEmpty);
  EXPECT_EQ(h.Run({"LCS", "k", "missing"}), kEmpty);
  EXPECT_EQ(h.Run({"APPEND", "k", "w"}), Int(2));  // a write: no hit
  EXPECT_EQ(h.state().stats.keyspace_hits, 2u);
  EXPECT_EQ(h.state().stats.keyspace_misses, 2u);
}

}  // namespace
}  // namespace kv::test
