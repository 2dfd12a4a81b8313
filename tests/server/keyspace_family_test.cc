// KEYS, SCAN, RANDOMKEY, TYPE, RENAME, RENAMENX, UNLINK, TOUCH, COPY, MOVE, SWAPDB, OBJECT, TIME,
// LASTSAVE, EXPIREAT, PEXPIREAT, EXPIRETIME, PEXPIRETIME through the real dispatcher. Expected
// replies are what Redis 7.0.15 sends.

#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

const std::string kNotInt = Err("value is not an integer or out of range");
const std::string kSyntax = Err("syntax error");
const std::string kSame = Err("source and destination objects are the same");
const std::string kRange = Err("DB index is out of range");

// The keys of a SCAN reply and its cursor.
std::set<std::string> ScanKeys(const std::string& reply, std::string* cursor) {
  std::set<std::string> keys;
  size_t at = reply.find("\r\n") + 2;  // *2
  size_t len_end = reply.find("\r\n", at);
  const size_t clen = std::stoul(reply.substr(at + 1, len_end - at - 1));
  *cursor = reply.substr(len_end + 2, clen);
  at = len_end + 2 + clen + 2;
  at = reply.find("\r\n", at) + 2;  // *N
  while (at < reply.size()) {
    len_end = reply.find("\r\n", at);
    const size_t n = std::stoul(reply.substr(at + 1, len_end - at - 1));
    keys.insert(reply.substr(len_end + 2, n));
    at = len_end + 2 + n + 2;
  }
  return keys;
}

class KeyspaceFamilyTest : public ::testing::Test {
 protected:
  CommandHarness h;
};

TEST_F(KeyspaceFamilyTest, TypeAndKeys) {
  EXPECT_EQ(h.Run({"TYPE", "k"}), "+none\r\n");
  EXPECT_EQ(h.Run({"MSET", "k1", "a", "k2", "b", "x", "c"}), kOk);
  EXPECT_EQ(h.Run({"TYPE", "k1"}), "+string\r\n");
  const std::string r = h.Run({"KEYS", "k*"});
  EXPECT_TRUE(r == "*2\r\n" + Bulk("k1") + Bulk("k2") || r == "*2\r\n" + Bulk("k2") + Bulk("k1"));
  EXPECT_EQ(h.Run({"KEYS", "z*"}), "*0\r\n");
  EXPECT_EQ(h.Run({"SET", "e", "v", "PX", "10"}), kOk);
  h.clock().Advance(11);
  EXPECT_EQ(h.Run({"KEYS", "e"}), "*0\r\n");
  EXPECT_EQ(h.Run({"KEYS"}), Err("wrong number of arguments for 'keys' command"));
}

TEST_F(KeyspaceFamilyTest, RenameMovesTheTtl) {
  EXPECT_EQ(h.Run({"RENAME", "a", "b"}), Err("no such key"));
  EXPECT_EQ(h.Run({"RENAMENX", "a", "b"}), Err("no such key"));
  EXPECT_EQ(h.Run({"SET", "a", "1", "EX", "100"}), kOk);
  EXPECT_EQ(h.Run({"RENAME", "a", "a"}), kOk);
  EXPECT_EQ(h.Run({"RENAMENX", "a", "a"}), Int(0));
  EXPECT_EQ(h.Run({"SET", "b", "2"}), kOk);
  EXPECT_EQ(h.Run({"RENAMENX", "a", "b"}), Int(0));
  EXPECT_EQ(h.Run({"RENAME", "a", "b"}), kOk);
  EXPECT_EQ(h.Run({"GET", "b"}), Bulk("1"));
  EXPECT_EQ(h.Run({"TTL", "b"}), Int(100));
  EXPECT_EQ(h.Run({"EXISTS", "a"}), Int(0));
  EXPECT_EQ(h.Run({"RENAMENX", "b", "c"}), Int(1));
  EXPECT_EQ(h.Run({"TTL", "c"}), Int(100));
  EXPECT_EQ(h.Run({"SET", "d", "x", "EX", "50"}), kOk);
  EXPECT_EQ(h.Run({"SET", "e", "y"}), kOk);
  EXPECT_EQ(h.Run({"RENAME", "e", "d"}), kOk);
  EXPECT_EQ(h.Run({"TTL", "d"}), Int(-1));
}

TEST_F(KeyspaceFamilyTest, UnlinkAndTouch) {
  EXPECT_EQ(h.Run({"MSET", "a", "1", "b", "2"}), kOk);
  EXPECT_EQ(h.Run({"TOUCH", "a", "a", "z"}), Int(2));
  EXPECT_EQ(h.Run({"UNLINK", "a", "a", "b", "z"}), Int(2));
  EXPECT_EQ(h.Run({"DBSIZE"}), Int(0));
}

TEST_F(KeyspaceFamilyTest, CopyAndMove) {
  EXPECT_EQ(h.Run({"COPY", "a", "b"}), Int(0));
  EXPECT_EQ(h.Run({"SET", "a", "5", "EX", "100"}), kOk);
  EXPECT_EQ(h.Run({"COPY", "a", "a"}), kSame);
  EXPECT_EQ(h.Run({"COPY", "a", "b", "foo"}), kSyntax);
  EXPECT_EQ(h.Run({"COPY", "a", "b", "DB"}), kSyntax);
  EXPECT_EQ(h.Run({"COPY", "a", "b", "DB", "x"}), kNotInt);
  EXPECT_EQ(h.Run({"COPY", "a", "b", "DB", "99"}), kRange);
  EXPECT_EQ(h.Run({"COPY", "a", "b", "DB", "4294967296"}),
            Err("value is out of range, value must between -2147483648 and 2147483647"));
  EXPECT_EQ(h.Run({"COPY", "a", "b"}), Int(1));
  EXPECT_EQ(h.Run({"TTL", "b"}), Int(100));
  EXPECT_EQ(h.Run({"OBJECT", "REFCOUNT", "a"}), Int(2147483647));
  EXPECT_EQ(h.Run({"OBJECT", "REFCOUNT", "b"}), Int(1));
  EXPECT_EQ(h.Run({"COPY", "a", "b"}), Int(0));
  EXPECT_EQ(h.Run({"COPY", "a", "b", "replace"}), Int(1));
  EXPECT_EQ(h.Run({"COPY", "a", "a", "DB", "1"}), Int(1));
  EXPECT_EQ(h.Run({"MOVE", "a", "0"}), kSame);
  EXPECT_EQ(h.Run({"MOVE", "a", "16"}), kRange);
  EXPECT_EQ(h.Run({"MOVE", "a", "x"}), kNotInt);
  EXPECT_EQ(h.Run({"MOVE", "a", "1"}), Int(0));  // exists there
  EXPECT_EQ(h.Run({"MOVE", "b", "2"}), Int(1));
  EXPECT_EQ(h.Run({"MOVE", "b", "2"}), Int(0));
  EXPECT_EQ(h.Run({"SELECT", "2"}), kOk);
  EXPECT_EQ(h.Run({"TTL", "b"}), Int(100));
}

TEST_F(KeyspaceFamilyTest, SwapDb) {
  EXPECT_EQ(h.Run({"SET", "a", "0"}), kOk);
  EXPECT_EQ(h.Run({"SWAPDB", "x", "1"}), Err("invalid first DB index"));
  EXPECT_EQ(h.Run({"SWAPDB", "0", "x"}), Err("invalid second DB index"));
  EXPECT_EQ(h.Run({"SWAPDB", "0", "4294967296"}), Err("invalid second DB index"));
  EXPECT_EQ(h.Run({"SWAPDB", "0", "16"}), kRange);
  EXPECT_EQ(h.Run({"SWAPDB", "0", "1"}), kOk);
  EXPECT_EQ(h.Run({"GET", "a"}), kNil);
  EXPECT_EQ(h.Run({"SELECT", "1"}), kOk);
  EXPECT_EQ(h.Run({"GET", "a"}), Bulk("0"));
}

TEST_F(KeyspaceFamilyTest, ExpireAtAndExpireTime) {
  const int64_t now = h.clock().NowMs();
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  EXPECT_EQ(h.Run({"EXPIRETIME", "k"}), Int(-1));
  EXPECT_EQ(h.Run({"EXPIRETIME", "z"}), Int(-2));
  EXPECT_EQ(h.Run({"EXPIREAT", "k", std::to_string(now / 1000 + 100), "XX"}), Int(0));
  EXPECT_EQ(h.Run({"EXPIREAT", "k", std::to_string(now / 1000 + 100), "NX"}), Int(1));
  EXPECT_EQ(h.Run({"EXPIRETIME", "k"}), Int(now / 1000 + 100));
  EXPECT_EQ(h.Run({"PEXPIRETIME", "k"}), Int((now / 1000 + 100) * 1000));
  EXPECT_EQ(h.Run({"PEXPIREAT", "k", std::to_string(now + 1500), "GT"}), Int(0));
  EXPECT_EQ(h.Run({"PEXPIREAT", "k", std::to_string(now + 1500), "LT"}), Int(1));
  EXPECT_EQ(h.Run({"EXPIRETIME", "k"}), Int((now + 1500 + 500) / 1000));
  EXPECT_EQ(h.Run({"EXPIREAT", "k", "9223372036854775807"}),
            Err("invalid expire time in 'expireat' command"));
  EXPECT_EQ(h.Run({"PEXPIREAT", "k", "1", "foo"}), Err("Unsupported option foo"));
  EXPECT_EQ(h.Run({"PEXPIREAT", "k", "1"}), Int(1));
  EXPECT_EQ(h.Run({"EXISTS", "k"}), Int(0));
}

TEST_F(KeyspaceFamilyTest, ObjectEncodingRefcountIdletime) {
  EXPECT_EQ(h.Run({"OBJECT", "ENCODING", "k"}), kNil);
  EXPECT_EQ(h.Run({"SET", "k", "12345"}), kOk);
  EXPECT_EQ(h.Run({"OBJECT", "ENCODING", "k"}), Bulk("int"));
  EXPECT_EQ(h.Run({"OBJECT", "REFCOUNT", "k"}), Int(1));
  EXPECT_EQ(h.Run({"SET", "k", "012"}), kOk);
  EXPECT_EQ(h.Run({"OBJECT", "ENCODING", "k"}), Bulk("embstr"));
  EXPECT_EQ(h.Run({"SET", "k", std::string(44, 'x')}), kOk);
  EXPECT_EQ(h.Run({"OBJECT", "ENCODING", "k"}), Bulk("embstr"));
  EXPECT_EQ(h.Run({"SET", "k", std::string(45, 'x')}), kOk);
  EXPECT_EQ(h.Run({"OBJECT", "ENCODING", "k"}), Bulk("raw"));
  EXPECT_EQ(h.Run({"SET", "k", "9223372036854775808"}), kOk);
  EXPECT_EQ(h.Run({"OBJECT", "encoding", "k"}), Bulk("embstr"));
  h.clock().Advance(5000);
  EXPECT_EQ(h.Run({"OBJECT", "IDLETIME", "k"}), Int(5));
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("9223372036854775808"));
  EXPECT_EQ(h.Run({"OBJECT", "IDLETIME", "k"}), Int(0));
  EXPECT_EQ(h.Run({"OBJECT", "FREQ", "k"}),
            Err("An LFU maxmemory policy is not selected, access frequency not tracked. Please "
                "note that when switching between policies at runtime LRU and LFU data will take "
                "some time to adjust."));
  EXPECT_EQ(h.Run({"OBJECT", "FREQ", "missing"}), kNil);
  EXPECT_EQ(h.Run({"OBJECT", "FOO", "k"}), Err("unknown subcommand 'FOO'. Try OBJECT HELP."));
  EXPECT_EQ(h.Run({"OBJECT", "ENCODING"}),
            Err("wrong number of arguments for 'object|encoding' command"));
  const std::string help = h.Run({"OBJECT", "HELP"});
  EXPECT_EQ(help.substr(0, 5), "*15\r\n");
  EXPECT_NE(help.find("+OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n"),
            std::string::npos);
}

TEST_F(KeyspaceFamilyTest, RandomKeyTimeLastSave) {
  EXPECT_EQ(h.Run({"RANDOMKEY"}), kNil);
  EXPECT_EQ(h.Run({"SET", "only", "1"}), kOk);
  EXPECT_EQ(h.Run({"RANDOMKEY"}), Bulk("only"));
  h.clock().Set(1'700'000'000'123);
  EXPECT_EQ(h.Run({"TIME"}), "*2\r\n" + Bulk("1700000000") + Bulk("123000"));
  EXPECT_EQ(h.Run({"LASTSAVE"})[0], ':');
}

TEST_F(KeyspaceFamilyTest, ScanOptionsAndErrors) {
  EXPECT_EQ(h.Run({"SCAN", "x"}), Err("invalid cursor"));
  EXPECT_EQ(h.Run({"SCAN", " 1"}), Err("invalid cursor"));
  EXPECT_EQ(h.Run({"SCAN", "18446744073709551616"}), Err("invalid cursor"));
  EXPECT_EQ(h.Run({"SCAN", "0", "COUNT", "0"}), kSyntax);
  EXPECT_EQ(h.Run({"SCAN", "0", "COUNT", "x"}), kNotInt);
  EXPECT_EQ(h.Run({"SCAN", "0", "MATCH"}), kSyntax);
  EXPECT_EQ(h.Run({"SCAN", "0", "foo", "bar"}), kSyntax);
  EXPECT_EQ(h.Run({"SCAN", "0"}), "*2\r\n" + Bulk("0") + "*0\r\n");
  EXPECT_EQ(h.Run({"MSET", "a1", "1", "a2", "2", "b1", "3"}), kOk);
  std::string cursor;
  EXPECT_EQ(ScanKeys(h.Run({"SCAN", "0", "MATCH", "a*", "COUNT", "100"}), &cursor),
            (std::set<std::string>{"a1", "a2"}));
  EXPECT_EQ(cursor, "0");
  EXPECT_EQ(ScanKeys(h.Run({"SCAN", "0", "TYPE", "STRING"}), &cursor).size(), 3u);
  EXPECT_EQ(ScanKeys(h.Run({"SCAN", "0", "TYPE", "list"}), &cursor).size(), 0u);
  EXPECT_EQ(h.Run({"SET", "e", "v", "PX", "1"}), kOk);
  h.clock().Advance(2);
  EXPECT_EQ(ScanKeys(h.Run({"SCAN", ""}), &cursor).count("e"), 0u);
}

// Every key present for the whole iteration is returned, while thousands of keys are added
// between the calls and the table splits many times.
TEST_F(KeyspaceFamilyTest, ScanReturnsEveryKeyPresentThroughoutWhileGrowing) {
  std::set<std::string> initial;
  for (int i = 0; i < 10000; ++i) {
    const std::string k = "init:" + std::to_string(i);
    h.Run({"SET", k, "v"});
    initial.insert(k);
  }
  std::set<std::string> seen;
  std::string cursor = "0";
  int added = 0, calls = 0;
  do {
    std::set<std::string> got = ScanKeys(h.Run({"SCAN", cursor, "COUNT", "20"}), &cursor);
    seen.insert(got.begin(), got.end());
    for (int j = 0; j < 2000; ++j) h.Run({"SET", "new:" + std::to_string(added++), "v"});
    ++calls;
  } while (cursor != "0" && calls < 100000);
  EXPECT_GT(calls, 2);
  EXPECT_GT(h.db().segment_count(), 2 * 10000 / Db::kMaxSegmentSize);
  for (const std::string& k : initial) EXPECT_EQ(seen.count(k), 1u) << k;
}

}  // namespace
}  // namespace kv::test
