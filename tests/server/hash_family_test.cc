// The hash commands through the real dispatcher. Expected replies are what Redis 7.0.15 sends for
// the same commands (checked with redis-cli against redis-server 7.0.15).

#include <map>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

const std::string kWrongType =
    "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
const std::string kNotInt = Err("value is not an integer or out of range");
const std::string kSyntax = Err("syntax error");

// The bulk strings of a flat array reply (RESP2), in order.
std::vector<std::string> Bulks(const std::string& reply) {
  std::vector<std::string> out;
  size_t at = 0;
  while ((at = reply.find('$', at)) != std::string::npos) {
    const size_t eol = reply.find("\r\n", at);
    const long n = std::stol(reply.substr(at + 1, eol - at - 1));
    if (n < 0) {
      at = eol + 2;
      continue;
    }
    out.push_back(reply.substr(eol + 2, n));
    at = eol + 2 + n + 2;
  }
  return out;
}

class HashFamilyTest : public ::testing::Test {
 protected:
  CommandHarness h;
  std::string Encoding(std::string_view key) { return h.Run({"OBJECT", "ENCODING", key}); }
  void Resp3() { h.Run({"HELLO", "3"}); }
};

TEST_F(HashFamilyTest, SetGetAndCounts) {
  EXPECT_EQ(h.Run({"HSET", "h", "a", "1", "b", "2"}), Int(2));
  EXPECT_EQ(h.Run({"HSET", "h", "a", "10", "c", "3"}), Int(1));
  EXPECT_EQ(h.Run({"HMSET", "h", "d", "4"}), kOk);
  EXPECT_EQ(h.Run({"HGET", "h", "a"}), Bulk("10"));
  EXPECT_EQ(h.Run({"HGET", "h", "zz"}), kNil);
  EXPECT_EQ(h.Run({"HGET", "nokey", "a"}), kNil);
  EXPECT_EQ(h.Run({"HLEN", "h"}), Int(4));
  EXPECT_EQ(h.Run({"HLEN", "nokey"}), Int(0));
  EXPECT_EQ(h.Run({"HEXISTS", "h", "c"}), Int(1));
  EXPECT_EQ(h.Run({"HEXISTS", "h", "z"}), Int(0));
  EXPECT_EQ(h.Run({"HEXISTS", "nokey", "z"}), Int(0));
  EXPECT_EQ(h.Run({"HSTRLEN", "h", "a"}), Int(2));
  EXPECT_EQ(h.Run({"HSTRLEN", "h", "z"}), Int(0));
  EXPECT_EQ(h.Run({"HSTRLEN", "nokey", "z"}), Int(0));
  EXPECT_EQ(h.Run({"HMGET", "h", "a", "z", "d"}), "*3\r\n" + Bulk("10") + kNil + Bulk("4"));
  EXPECT_EQ(h.Run({"HMGET", "nokey", "a", "b"}), "*2\r\n" + kNil + kNil);
  EXPECT_EQ(h.Run({"TYPE", "h"}), "+hash\r\n");
  EXPECT_EQ(Encoding("h"), "$8\r\nlistpack\r\n");
  // Changes are counted as Redis's dirty counter: one per pair set.
  const uint64_t dirty = h.state().dirty;
  h.Run({"HSET", "h", "a", "1", "a", "2"});
  EXPECT_EQ(h.state().dirty, dirty + 2);
}

TEST_F(HashFamilyTest, ListPackRepliesInInsertionOrder) {
  EXPECT_EQ(h.Run({"HSET", "h", "z", "1", "y", "-2", "x", "three"}), Int(3));
  EXPECT_EQ(h.Run({"HGETALL", "h"}),
            "*6\r\n" + Bulk("z") + Bulk("1") + Bulk("y") + Bulk("-2") + Bulk("x") + Bulk("three"));
  EXPECT_EQ(h.Run({"HKEYS", "h"}), "*3\r\n" + Bulk("z") + Bulk("y") + Bulk("x"));
  EXPECT_EQ(h.Run({"HVALS", "h"}), "*3\r\n" + Bulk("1") + Bulk("-2") + Bulk("three"));
  EXPECT_EQ(h.Run({"HGETALL", "nokey"}), "*0\r\n");
  EXPECT_EQ(h.Run({"HKEYS", "nokey"}), "*0\r\n");
  Resp3();
  EXPECT_EQ(h.Run({"HGETALL", "h"}),
            "%3\r\n" + Bulk("z") + Bulk("1") + Bulk("y") + Bulk("-2") + Bulk("x") + Bulk("three"));
  EXPECT_EQ(h.Run({"HGETALL", "nokey"}), "%0\r\n");
  EXPECT_EQ(h.Run({"HKEYS", "nokey"}), "*0\r\n");
  EXPECT_EQ(h.Run({"HGET", "nokey", "a"}), "_\r\n");
}

TEST_F(HashFamilyTest, ArityErrors) {
  EXPECT_EQ(h.Run({"HSET", "h", "a", "1", "b"}),
            Err("wrong number of arguments for 'hset' command"));
  EXPECT_EQ(h.Run({"HSET", "h", "a"}), Err("wrong number of arguments for 'hset' command"));
  EXPECT_EQ(h.Run({"hmset", "h", "a", "1", "b"}),
            Err("wrong number of arguments for 'hmset' command"));
  EXPECT_EQ(h.Run({"HSETNX", "h", "a"}), Err("wrong number of arguments for 'hsetnx' command"));
  EXPECT_EQ(h.Run({"EXISTS", "h"}), Int(0));
}

TEST_F(HashFamilyTest, SetNx) {
  EXPECT_EQ(h.Run({"HSETNX", "h", "a", "1"}), Int(1));
  EXPECT_EQ(h.Run({"HSETNX", "h", "a", "2"}), Int(0));
  EXPECT_EQ(h.Run({"HGET", "h", "a"}), Bulk("1"));
  // A long value converts, as HSET's would.
  EXPECT_EQ(h.Run({"HSETNX", "h", "b", std::string(65, 'x')}), Int(1));
  EXPECT_EQ(Encoding("h"), "$9\r\nhashtable\r\n");
}

TEST_F(HashFamilyTest, DelRemovesTheEmptiedKey) {
  EXPECT_EQ(h.Run({"HDEL", "nokey", "a"}), Int(0));
  h.Run({"HSET", "h", "a", "1", "b", "2", "c", "3"});
  EXPECT_EQ(h.Run({"HDEL", "h", "a", "zz", "a"}), Int(1));
  const uint64_t dirty = h.state().dirty;
  EXPECT_EQ(h.Run({"HDEL", "h", "b", "c", "b"}), Int(2));
  EXPECT_EQ(h.state().dirty, dirty + 2);
  EXPECT_EQ(h.Run({"EXISTS", "h"}), Int(0));
  EXPECT_EQ(h.Run({"TYPE", "h"}), "+none\r\n");
}

TEST_F(HashFamilyTest, EncodingFollowsTheConfig) {
  h.state().config.hash_max_listpack_entries = 4;
  h.state().config.hash_max_listpack_value = 8;
  h.Run({"HSET", "a", "1", "1", "2", "2", "3", "3", "4", "4"});
  EXPECT_EQ(Encoding("a"), "$8\r\nlistpack\r\n");
  h.Run({"HSET", "a", "5", "5"});
  EXPECT_EQ(Encoding("a"), "$9\r\nhashtable\r\n");
  h.Run({"HDEL", "a", "1", "2", "3", "4"});
  EXPECT_EQ(Encoding("a"), "$9\r\nhashtable\r\n");

  h.Run({"HSET", "b", "f", "12345678"});
  EXPECT_EQ(Encoding("b"), "$8\r\nlistpack\r\n");
  h.Run({"HSET", "b", "f", "123456789"});
  EXPECT_EQ(Encoding("b"), "$9\r\nhashtable\r\n");

  // HINCRBYFLOAT's result counts too.
  h.Run({"HSET", "c", "f", "1"});
  EXPECT_EQ(h.Run({"HINCRBYFLOAT", "c", "f", "0.00001"}), Bulk("1.00001"));
  EXPECT_EQ(Encoding("c"), "$8\r\nlistpack\r\n");
  EXPECT_EQ(h.Run({"HINCRBYFLOAT", "c", "f", "0.00000001"}), Bulk("1.00001001"));
  EXPECT_EQ(Encoding("c"), "$9\r\nhashtable\r\n");

  // The new limits apply from the next write on; the ziplist names are aliases.
  h.Run({"HSET", "d", "1", "1", "2", "2", "3", "3"});
  EXPECT_EQ(h.Run({"CONFIG", "SET", "hash-max-ziplist-entries", "2"}), kOk);
  EXPECT_EQ(Encoding("d"), "$8\r\nlistpack\r\n");
  EXPECT_EQ(h.Run({"HGET", "d", "1"}), Bulk("1"));
  EXPECT_EQ(Encoding("d"), "$8\r\nlistpack\r\n");
  h.Run({"HSET", "d", "1", "x"});
  EXPECT_EQ(Encoding("d"), "$9\r\nhashtable\r\n");
}

TEST_F(HashFamilyTest, IncrBy) {
  EXPECT_EQ(h.Run({"HINCRBY", "h", "a", "5"}), Int(5));
  EXPECT_EQ(h.Run({"HINCRBY", "h", "a", "-7"}), Int(-2));
  EXPECT_EQ(h.Run({"HINCRBY", "h", "a", "x"}), kNotInt);
  EXPECT_EQ(h.Run({"HINCRBY", "nokey", "a", "x"}), kNotInt);
  EXPECT_EQ(h.Run({"EXISTS", "nokey"}), Int(0));
  EXPECT_EQ(h.Run({"HINCRBY", "h", "b", "9223372036854775807"}), Int(INT64_MAX));
  EXPECT_EQ(h.Run({"HINCRBY", "h", "b", "1"}), Err("increment or decrement would overflow"));
  EXPECT_EQ(h.Run({"HINCRBY", "h", "c", "-9223372036854775808"}), Int(INT64_MIN));
  EXPECT_EQ(h.Run({"HINCRBY", "h", "c", "-1"}), Err("increment or decrement would overflow"));
  h.Run({"HSET", "h", "s", " 1", "t", "1 ", "u", "1.5"});
  for (const char* f : {"s", "t", "u"}) {
    EXPECT_EQ(h.Run({"HINCRBY", "h", f, "1"}), Err("hash value is not an integer")) << f;
  }
}

TEST_F(HashFamilyTest, IncrByFloat) {
  EXPECT_EQ(h.Run({"HINCRBYFLOAT", "h", "f", "10.5"}), Bulk("10.5"));
  EXPECT_EQ(h.Run({"HINCRBYFLOAT", "h", "f", "0.1"}), Bulk("10.6"));
  EXPECT_EQ(h.Run({"HINCRBYFLOAT", "h", "g", "3.0e3"}), Bulk("3000"));
  EXPECT_EQ(h.Run({"HINCRBYFLOAT", "h", "g", "-3000"}), Bulk("0"));
  EXPECT_EQ(h.Run({"HSET", "h", "i", "9223372036854775807"}), Int(1));
  EXPECT_EQ(h.Run({"HINCRBYFLOAT", "h", "i", "1"}), Bulk("9223372036854775808"));
  EXPECT_EQ(h.Run({"HINCRBYFLOAT", "h", "i", "0x10"}), Bulk("9223372036854775824"));
  EXPECT_EQ(h.Run({"HINCRBYFLOAT", "h", "f", "inf"}), Err("value is NaN or Infinity"));
  EXPECT_EQ(h.Run({"HINCRBYFLOAT", "h", "f", "nan"}), Err("value is not a valid float"));
  EXPECT_EQ(h.Run({"HINCRBYFLOAT", "h", "f", "x"}), Err("value is not a valid float"));
  // %.17Lf of a huge value writes all its digits (4933 here), as Redis's ld2string.
  EXPECT_EQ(h.Run({"HINCRBYFLOAT", "h", "big", "1.1e4932"}).substr(0, 9), "$4933\r\n10");
  EXPECT_EQ(h.Run({"HINCRBYFLOAT", "h", "big", "1.1e4932"}),
            Err("increment would produce NaN or Infinity"));
  EXPECT_EQ(h.Run({"HINCRBYFLOAT", "h", "big", "1e4933"}), Err("value is not a valid float"));
  h.Run({"HSET", "h", "s", " 1", "n",
         std::string("1\0"
                     "2",
                     3)});
  EXPECT_EQ(h.Run({"HINCRBYFLOAT", "h", "s", "1"}), Err("hash value is not a float"));
  EXPECT_EQ(h.Run({"HINCRBYFLOAT", "h", "n", "1"}), Err("hash value is not a float"));
}

TEST_F(HashFamilyTest, WrongType) {
  h.Run({"SET", "s", "x"});
  for (const auto& cmd : std::vector<std::vector<std::string>>{
           {"HSET", "s", "a", "1"},
           {"HSETNX", "s", "a", "1"},
           {"HMSET", "s", "a", "1"},
           {"HGET", "s", "a"},
           {"HMGET", "s", "a"},
           {"HGETALL", "s"},
           {"HKEYS", "s"},
           {"HVALS", "s"},
           {"HDEL", "s", "a"},
           {"HLEN", "s"},
           {"HSTRLEN", "s", "a"},
           {"HEXISTS", "s", "a"},
           {"HINCRBY", "s", "a", "1"},
           {"HINCRBYFLOAT", "s", "a", "1"},
           {"HRANDFIELD", "s"},
           {"HRANDFIELD", "s", "2"},
           {"HSCAN", "s", "0"},
       }) {
    EXPECT_EQ(h.Run(cmd), kWrongType) << cmd[0];
  }
  h.Run({"HSET", "h", "a", "1"});
  for (const auto& cmd : std::vector<std::vector<std::string>>{
           {"GET", "h"},
           {"APPEND", "h", "x"},
           {"INCR", "h"},
           {"INCRBYFLOAT", "h", "1"},
           {"STRLEN", "h"},
           {"GETRANGE", "h", "0", "1"},
           {"SETRANGE", "h", "0", "x"},
           {"GETSET", "h", "x"},
           {"GETDEL", "h"},
           {"SETBIT", "h", "0", "1"},
           {"BITCOUNT", "h"},
           {"MGET", "h"},
       }) {
    const std::string r = h.Run(cmd);
    if (cmd[0] == "MGET") {
      EXPECT_EQ(r, "*1\r\n" + kNil);  // MGET replies nil for non-strings
    } else {
      EXPECT_EQ(r, kWrongType) << cmd[0];
    }
  }
  // SET replaces whatever type was there.
  EXPECT_EQ(h.Run({"SET", "h", "x"}), kOk);
  EXPECT_EQ(h.Run({"GET", "h"}), Bulk("x"));
}

TEST_F(HashFamilyTest, RandFieldArgumentErrors) {
  h.Run({"HSET", "h", "a", "1"});
  EXPECT_EQ(h.Run({"HRANDFIELD", "h", "x"}), kNotInt);
  EXPECT_EQ(h.Run({"HRANDFIELD", "h", "-9223372036854775808"}),
            Err("value is out of range, value must between -9223372036854775807 and "
                "9223372036854775807"));
  EXPECT_EQ(h.Run({"HRANDFIELD", "h", "1", "withvalue"}), kSyntax);
  EXPECT_EQ(h.Run({"HRANDFIELD", "h", "1", "withvalues", "x"}), kSyntax);
  EXPECT_EQ(h.Run({"HRANDFIELD", "h", "-9223372036854775808", "withvalues"}),
            Err("value is out of range, value must between -9223372036854775807 and "
                "9223372036854775807"));
  EXPECT_EQ(h.Run({"HRANDFIELD", "h", "-9223372036854770000", "withvalues"}),
            Err("value is out of range"));
  EXPECT_EQ(h.Run({"HRANDFIELD", "h", "9223372036854775807", "withvalues"}),
            Err("value is out of range"));
  // Checked before the key is looked up.
  EXPECT_EQ(h.Run({"HRANDFIELD", "nokey", "x"}), kNotInt);
  EXPECT_EQ(h.Run({"HRANDFIELD", "nokey"}), kNil);
  EXPECT_EQ(h.Run({"HRANDFIELD", "nokey", "5"}), "*0\r\n");
  EXPECT_EQ(h.Run({"HRANDFIELD", "h", "0"}), "*0\r\n");
  EXPECT_EQ(h.Run({"HRANDFIELD", "h", "0", "WITHVALUES"}), "*0\r\n");
  Resp3();
  EXPECT_EQ(h.Run({"HRANDFIELD", "nokey"}), "_\r\n");
  EXPECT_EQ(h.Run({"HRANDFIELD", "nokey", "5"}), "*0\r\n");
}

// Each of Redis's four paths, for both encodings, in both protocols.
class HashRandFieldTest : public HashFamilyTest, public ::testing::WithParamInterface<bool> {
 protected:
  void SetUp() override {
    if (GetParam()) h.state().config.hash_max_listpack_entries = 4;
    for (int i = 0; i < 10; ++i) {
      h.Run({"HSET", "h", "f" + std::to_string(i), "v" + std::to_string(i)});
    }
    ASSERT_EQ(Encoding("h"), GetParam() ? "$9\r\nhashtable\r\n" : "$8\r\nlistpack\r\n");
  }
};

TEST_P(HashRandFieldTest, Shapes) {
  std::set<std::string> all;
  for (int i = 0; i < 10; ++i) all.insert("f" + std::to_string(i));
  // One field, no count: a bulk string.
  for (int i = 0; i < 50; ++i) {
    const std::string r = h.Run({"HRANDFIELD", "h"});
    ASSERT_EQ(r[0], '$');
    ASSERT_TRUE(all.count(Bulks(r)[0]));
  }
  // Negative counts repeat.
  std::string r = h.Run({"HRANDFIELD", "h", "-25"});
  ASSERT_EQ(r.substr(0, 5), "*25\r\n");
  EXPECT_EQ(Bulks(r).size(), 25u);
  r = h.Run({"HRANDFIELD", "h", "-25", "WITHVALUES"});
  ASSERT_EQ(r.substr(0, 5), "*50\r\n");
  auto b = Bulks(r);
  for (size_t i = 0; i < b.size(); i += 2) EXPECT_EQ("v" + b[i].substr(1), b[i + 1]);
  // Positive counts: distinct, all of them at or past the size.
  for (const char* count : {"10", "20", "8", "2", "1"}) {
    r = h.Run({"HRANDFIELD", "h", count});
    b = Bulks(r);
    const size_t want = std::min<size_t>(std::stoul(count), 10);
    EXPECT_EQ(b.size(), want);
    EXPECT_EQ(std::set<std::string>(b.begin(), b.end()).size(), want) << count;
    r = h.Run({"HRANDFIELD", "h", count, "withvalues"});
    EXPECT_EQ(r.substr(0, r.find("\r\n")), "*" + std::to_string(want * 2));
  }
  Resp3();
  // WITHVALUES in RESP3: an array of [field, value] pairs; without, a flat array.
  r = h.Run({"HRANDFIELD", "h", "3", "WITHVALUES"});
  EXPECT_EQ(r.substr(0, 8), "*3\r\n*2\r\n");
  EXPECT_EQ(Bulks(r).size(), 6u);
  r = h.Run({"HRANDFIELD", "h", "-3", "WITHVALUES"});
  EXPECT_EQ(r.substr(0, 8), "*3\r\n*2\r\n");
  r = h.Run({"HRANDFIELD", "h", "20", "WITHVALUES"});
  EXPECT_EQ(r.substr(0, 9), "*10\r\n*2\r\n");
  r = h.Run({"HRANDFIELD", "h", "3"});
  EXPECT_EQ(r.substr(0, 5), "*3\r\n$");
}

INSTANTIATE_TEST_SUITE_P(Encodings, HashRandFieldTest, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "Table" : "ListPack"; });

TEST_F(HashFamilyTest, RandFieldWithAHugeNegativeCountStopsAtTheOutputLimit) {
  h.state().config.client_output_buffer_limit[0].hard = 1 << 20;
  h.Run({"HSET", "h", "a", "1"});
  const std::string r = h.Run({"HRANDFIELD", "h", "-9223372036854775807"});
  EXPECT_EQ(r.substr(0, 22), "*9223372036854775807\r\n");
  EXPECT_LT(r.size(), 2u << 20);
  EXPECT_TRUE(h.conn().close_after_reply);
}

TEST_F(HashFamilyTest, ScanErrorsInRedisOrder) {
  h.Run({"HSET", "h", "a", "1"});
  EXPECT_EQ(h.Run({"HSCAN", "h", "x"}), Err("invalid cursor"));
  EXPECT_EQ(h.Run({"HSCAN", "h", " 1"}), Err("invalid cursor"));
  EXPECT_EQ(h.Run({"HSCAN", "h", "18446744073709551616"}), Err("invalid cursor"));
  EXPECT_EQ(h.Run({"HSCAN", "nokey", "x"}), Err("invalid cursor"));
  // A missing key replies before the options are read.
  EXPECT_EQ(h.Run({"HSCAN", "nokey", "0", "COUNT", "0"}), "*2\r\n$1\r\n0\r\n*0\r\n");
  EXPECT_EQ(h.Run({"HSCAN", "h", "0", "COUNT", "0"}), kSyntax);
  EXPECT_EQ(h.Run({"HSCAN", "h", "0", "COUNT", "x"}), kNotInt);
  EXPECT_EQ(h.Run({"HSCAN", "h", "0", "TYPE", "string"}), kSyntax);
  EXPECT_EQ(h.Run({"HSCAN", "h", "0", "MATCH"}), kSyntax);
  // Any cursor of a list pack returns everything, with cursor 0.
  EXPECT_EQ(h.Run({"HSCAN", "h", "-1"}), "*2\r\n$1\r\n0\r\n*2\r\n" + Bulk("a") + Bulk("1"));
}

TEST_F(HashFamilyTest, ScanOfAListPackMatches) {
  h.Run({"HSET", "h", "apple", "1", "banana", "2", "avocado", "3", "7", "8"});
  EXPECT_EQ(h.Run({"HSCAN", "h", "0", "MATCH", "a*", "COUNT", "1"}),
            "*2\r\n$1\r\n0\r\n*4\r\n" + Bulk("apple") + Bulk("1") + Bulk("avocado") + Bulk("3"));
  EXPECT_EQ(h.Run({"HSCAN", "h", "0", "MATCH", "[0-9]"}),
            "*2\r\n$1\r\n0\r\n*2\r\n" + Bulk("7") + Bulk("8"));
  EXPECT_EQ(h.Run({"HSCAN", "h", "0", "MATCH", "*"}).substr(0, 15), "*2\r\n$1\r\n0\r\n*8\r\n");
}

// Every field present for the whole iteration comes back, while the hash grows under the scan.
TEST_F(HashFamilyTest, ScanOfATableSurvivesGrowth) {
  for (int i = 0; i < 1000; ++i) h.Run({"HSET", "h", "f" + std::to_string(i), "v"});
  ASSERT_EQ(Encoding("h"), "$9\r\nhashtable\r\n");
  std::set<std::string> seen;
  std::string cursor = "0";
  int calls = 0;
  int added = 0;
  do {
    const std::string r = h.Run({"HSCAN", "h", cursor, "COUNT", "20"});
    const auto b = Bulks(r);
    ASSERT_FALSE(b.empty());
    cursor = b[0];
    for (size_t i = 1; i < b.size(); i += 2) seen.insert(b[i]);
    for (int j = 0; j < 50; ++j) h.Run({"HSET", "h", "new" + std::to_string(added++), "v"});
    ++calls;
  } while (cursor != "0");
  for (int i = 0; i < 1000; ++i) EXPECT_TRUE(seen.count("f" + std::to_string(i))) << i;
  EXPECT_GT(calls, 10);
}

TEST_F(HashFamilyTest, ScanMatchOnATable) {
  for (int i = 0; i < 300; ++i) h.Run({"HSET", "h", "f" + std::to_string(i), std::to_string(i)});
  std::map<std::string, std::string> seen;
  std::string cursor = "0";
  do {
    const auto b = Bulks(h.Run({"HSCAN", "h", cursor, "MATCH", "f1*", "COUNT", "1000"}));
    cursor = b[0];
    for (size_t i = 1; i + 1 < b.size(); i += 2) seen[b[i]] = b[i + 1];
  } while (cursor != "0");
  EXPECT_EQ(seen.size(), 111u);  // f1, f10..f19, f100..f199
  for (const auto& [f, v] : seen) EXPECT_EQ(f.substr(1), v);
}

TEST_F(HashFamilyTest, CopyRenameAndDebugObject) {
  h.Run({"HSET", "h", "a", "1", "b", "2"});
  EXPECT_EQ(h.Run({"COPY", "h", "c"}), Int(1));
  h.Run({"HSET", "h", "a", "changed"});
  EXPECT_EQ(h.Run({"HGET", "c", "a"}), Bulk("1"));
  EXPECT_EQ(h.Run({"RENAME", "c", "d"}), kOk);
  EXPECT_EQ(h.Run({"HGETALL", "d"}), "*4\r\n" + Bulk("a") + Bulk("1") + Bulk("b") + Bulk("2"));
  const std::string usage = h.Run({"MEMORY", "USAGE", "d"});
  ASSERT_EQ(usage[0], ':');
  EXPECT_GT(std::stol(usage.substr(1)), 20);
}

}  // namespace
}  // namespace kv::test
