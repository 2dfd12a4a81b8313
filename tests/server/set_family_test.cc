// The set commands through the real dispatcher. Expected replies are what Redis 7.0.15 sends for
// the same commands (checked against redis-server); members of hash-table sets, whose order is
// the table's, are compared as sets.

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "storage/set.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"
#include "tests/support/resp_reply.h"

namespace kv::test {
namespace {

using namespace std::string_literals;

const std::string kWrongType =
    "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
const std::string kSyntax = Err("syntax error");
const std::string kNotInt = Err("value is not an integer or out of range");
const std::string kEmpty = "*0\r\n";

std::string Array(const std::vector<std::string>& items, char type = '*') {
  std::string out = type + std::to_string(items.size()) + "\r\n";
  for (const std::string& item : items) out += Bulk(item);
  return out;
}

// The bulk strings of an array or set reply.
std::vector<std::string> Elements(const std::string& reply) {
  auto r = ParseReply(reply);
  EXPECT_TRUE(r.has_value()) << reply;
  std::vector<std::string> out;
  if (!r) return out;
  for (const RespReply& e : r->elements) out.push_back(e.str);
  return out;
}

std::multiset<std::string> Members(const std::string& reply) {
  const std::vector<std::string> v = Elements(reply);
  return {v.begin(), v.end()};
}

class SetFamilyTest : public ::testing::Test {
 protected:
  std::string Encoding(const std::string& key) {
    auto r = ParseReply(h.Run({"OBJECT", "ENCODING", key}));
    return r ? r->str : "?";
  }
  void AddRange(const std::string& key, int from, int to, const std::string& prefix = "") {
    std::vector<std::string> cmd = {"SADD", key};
    for (int i = from; i < to; ++i) cmd.push_back(prefix + std::to_string(i));
    h.Run(cmd);
  }
  CommandHarness h;
};

TEST_F(SetFamilyTest, AddRemoveMembersAndCardinality) {
  EXPECT_EQ(h.Run({"SADD", "s", "3", "1", "2", "1"}), Int(3));
  EXPECT_EQ(h.Run({"SCARD", "s"}), Int(3));
  EXPECT_EQ(h.Run({"SMEMBERS", "s"}), Array({"1", "2", "3"}));  // an intset: ascending
  EXPECT_EQ(h.Run({"SISMEMBER", "s", "2"}), Int(1));
  EXPECT_EQ(h.Run({"SISMEMBER", "s", "02"}), Int(0));
  EXPECT_EQ(h.Run({"SMISMEMBER", "s", "1", "x", "3"}), "*3\r\n" + Int(1) + Int(0) + Int(1));
  EXPECT_EQ(h.Run({"SMISMEMBER", "nokey", "1"}), "*1\r\n" + Int(0));
  EXPECT_EQ(h.Run({"SREM", "s", "1", "9"}), Int(1));
  EXPECT_EQ(h.Run({"SREM", "nokey", "1"}), Int(0));
  // Removing the last member removes the key, and the rest of the arguments are not looked at.
  EXPECT_EQ(h.Run({"SREM", "s", "2", "3", "2"}), Int(2));
  EXPECT_EQ(h.Run({"EXISTS", "s"}), Int(0));
  EXPECT_EQ(h.Run({"SCARD", "s"}), Int(0));
  EXPECT_EQ(h.Run({"SMEMBERS", "s"}), kEmpty);
  EXPECT_EQ(h.Run({"TYPE", "x"}), "+none\r\n");
  EXPECT_EQ(h.Run({"SADD", "x", "a"}), Int(1));
  EXPECT_EQ(h.Run({"TYPE", "x"}), "+set\r\n");
}

TEST_F(SetFamilyTest, EncodingFollowsRedis) {
  h.Run({"SADD", "i", "1", "2"});
  EXPECT_EQ(Encoding("i"), "intset");
  h.Run({"SADD", "i", "abc"});
  EXPECT_EQ(Encoding("i"), "hashtable");
  h.Run({"SREM", "i", "abc"});
  EXPECT_EQ(Encoding("i"), "hashtable");  // never back
  // Integers beyond 64 bits, leading zeros, signs and spaces are strings.
  for (const char* m : {"18446744073709551616", "01", "+1", " 1", "-0"}) {
    h.Run({"DEL", "j"});
    h.Run({"SADD", "j", "5", m});
    EXPECT_EQ(Encoding("j"), "hashtable") << m;
  }
  // The 513th member converts; the 512th does not.
  AddRange("big", 0, 512);
  EXPECT_EQ(Encoding("big"), "intset");
  AddRange("big", 0, 512);  // duplicates do not count
  EXPECT_EQ(Encoding("big"), "intset");
  AddRange("big", 512, 513);
  EXPECT_EQ(Encoding("big"), "hashtable");
  EXPECT_EQ(h.Run({"SCARD", "big"}), Int(513));
  // CONFIG SET of the threshold applies to the next write.
  EXPECT_EQ(h.Run({"CONFIG", "SET", "set-max-intset-entries", "3"}), kOk);
  AddRange("c", 0, 3);
  EXPECT_EQ(Encoding("c"), "intset");
  AddRange("c", 3, 4);
  EXPECT_EQ(Encoding("c"), "hashtable");
  EXPECT_EQ(h.Run({"CONFIG", "SET", "set-max-intset-entries", "0"}), kOk);
  h.Run({"SADD", "z", "1"});
  EXPECT_EQ(Encoding("z"), "hashtable");
}

TEST_F(SetFamilyTest, WrongTypeBothWays) {
  h.Run({"SET", "str", "v"});
  h.Run({"SADD", "set", "a"});
  for (const std::vector<std::string>& cmd : std::vector<std::vector<std::string>>{
           {"SADD", "str", "a"},
           {"SREM", "str", "a"},
           {"SMEMBERS", "str"},
           {"SISMEMBER", "str", "a"},
           {"SMISMEMBER", "str", "a"},
           {"SCARD", "str"},
           {"SPOP", "str"},
           {"SPOP", "str", "2"},
           {"SRANDMEMBER", "str"},
           {"SRANDMEMBER", "str", "-2"},
           {"SMOVE", "str", "set", "a"},
           {"SMOVE", "set", "str", "a"},
           {"SINTER", "set", "str"},
           {"SINTERCARD", "2", "set", "str"},
           {"SINTERSTORE", "d", "set", "str"},
           {"SUNION", "set", "str"},
           {"SUNIONSTORE", "d", "set", "str"},
           {"SDIFF", "set", "str"},
           {"SDIFFSTORE", "d", "set", "str"},
           {"SSCAN", "str", "0"},
           {"GET", "set"},
           {"APPEND", "set", "x"},
           {"INCR", "set"},
           {"STRLEN", "set"},
           {"SETRANGE", "set", "0", "x"},
           {"GETRANGE", "set", "0", "1"},
           {"SETBIT", "set", "0", "1"},
           {"BITCOUNT", "set"},
       }) {
    EXPECT_EQ(h.Run(cmd), kWrongType) << cmd[0];
  }
  // A missing SMOVE source is 0 before the destination's type is checked; SINTER with a missing
  // key still checks the keys after it.
  EXPECT_EQ(h.Run({"SMOVE", "nokey", "str", "a"}), Int(0));
  EXPECT_EQ(h.Run({"SINTER", "nokey", "str"}), kWrongType);
  EXPECT_EQ(h.Run({"SET", "set", "x"}), kOk);  // SET overwrites any type
  EXPECT_EQ(h.Run({"GET", "set"}), Bulk("x"));
}

TEST_F(SetFamilyTest, PopWithAndWithoutCount) {
  EXPECT_EQ(h.Run({"SPOP", "nokey"}), kNil);
  EXPECT_EQ(h.Run({"SPOP", "nokey", "3"}), kEmpty);
  EXPECT_EQ(h.Run({"SPOP", "s", "abc"}), Err("value is out of range, must be positive"));
  EXPECT_EQ(h.Run({"SPOP", "s", "-1"}), Err("value is out of range, must be positive"));
  EXPECT_EQ(h.Run({"SPOP", "s", "1", "2"}), kSyntax);
  h.Run({"SADD", "s", "1", "2", "3"});
  EXPECT_EQ(h.Run({"SPOP", "s", "0"}), kEmpty);
  const std::string one = h.Run({"SPOP", "s"});
  EXPECT_TRUE(one == Bulk("1") || one == Bulk("2") || one == Bulk("3")) << one;
  EXPECT_EQ(h.Run({"SCARD", "s"}), Int(2));
  // Popping at least the whole set returns it as SUNION would (ascending for an intset) and
  // deletes the key.
  h.Run({"SADD", "s", "1", "2", "3"});
  EXPECT_EQ(h.Run({"SPOP", "s", "10"}), Array({"1", "2", "3"}));
  EXPECT_EQ(h.Run({"EXISTS", "s"}), Int(0));
  // Both strategies for part of the set: few members popped one by one, most through a new set.
  for (int count : {3, 90}) {
    h.Run({"DEL", "p"});
    AddRange("p", 0, 100, "m");
    const std::multiset<std::string> popped = Members(h.Run({"SPOP", "p", std::to_string(count)}));
    EXPECT_EQ(popped.size(), static_cast<size_t>(count));
    EXPECT_EQ(std::set<std::string>(popped.begin(), popped.end()).size(), popped.size());
    EXPECT_EQ(h.Run({"SCARD", "p"}), Int(100 - count));
    for (const std::string& m : popped) EXPECT_EQ(h.Run({"SISMEMBER", "p", m}), Int(0));
  }
}

// SPOP that keeps few members builds the kept set as SADD would: an intset when they are all
// integers, even if the popped set was a hash table.
TEST_F(SetFamilyTest, PopKeepingFewMembersRebuildsTheEncoding) {
  AddRange("h", 0, 600);
  EXPECT_EQ(Encoding("h"), "hashtable");
  h.Run({"SPOP", "h", "590"});
  EXPECT_EQ(Encoding("h"), "intset");
  EXPECT_EQ(h.Run({"SCARD", "h"}), Int(10));
  // With a TTL, which the new set keeps.
  AddRange("t", 0, 600);
  h.Run({"EXPIRE", "t", "100"});
  h.Run({"SPOP", "t", "595"});
  EXPECT_EQ(h.Run({"TTL", "t"}), Int(100));
  // A whole hash table of at most 512 integers comes back ascending, as SUNION's intset.
  AddRange("w", 0, 600);
  h.Run({"SREM", "w", "0", "1"});
  h.Run({"SPOP", "w", "200"});
  const std::vector<std::string> rest = Elements(h.Run({"SPOP", "w", "1000"}));
  ASSERT_EQ(rest.size(), 398u);
  EXPECT_TRUE(std::is_sorted(
      rest.begin(), rest.end(),
      [](const std::string& a, const std::string& b) { return std::stoll(a) < std::stoll(b); }));
}

TEST_F(SetFamilyTest, RandMember) {
  EXPECT_EQ(h.Run({"SRANDMEMBER", "nokey"}), kNil);
  EXPECT_EQ(h.Run({"SRANDMEMBER", "nokey", "5"}), kEmpty);
  EXPECT_EQ(h.Run({"SRANDMEMBER", "nokey", "x"}), kNotInt);
  EXPECT_EQ(h.Run({"SRANDMEMBER", "nokey", "-9223372036854775808"}),
            Err("value is out of range, value must between -9223372036854775807 and "
                "9223372036854775807"));
  EXPECT_EQ(h.Run({"SRANDMEMBER", "s", "1", "2"}), kSyntax);
  h.Run({"SADD", "s", "5", "3", "1"});
  EXPECT_EQ(h.Run({"SRANDMEMBER", "s", "0"}), kEmpty);
  EXPECT_EQ(h.Run({"SRANDMEMBER", "s", "3"}), Array({"1", "3", "5"}));
  EXPECT_EQ(h.Run({"SRANDMEMBER", "s", "9223372036854775807"}), Array({"1", "3", "5"}));
  const std::vector<std::string> rep = Elements(h.Run({"SRANDMEMBER", "s", "-20"}));
  EXPECT_EQ(rep.size(), 20u);
  for (const std::string& m : rep) EXPECT_TRUE(m == "1" || m == "3" || m == "5") << m;
  // Both strategies for distinct members: most of the set, and a small part of it.
  for (const char* prefix : {"", "m"}) {
    h.Run({"DEL", "r"});
    AddRange("r", 0, 300, prefix);
    for (int count : {250, 20}) {
      const std::multiset<std::string> got =
          Members(h.Run({"SRANDMEMBER", "r", std::to_string(count)}));
      EXPECT_EQ(got.size(), static_cast<size_t>(count));
      EXPECT_EQ(std::set<std::string>(got.begin(), got.end()).size(), got.size());
      for (const std::string& m : got) EXPECT_EQ(h.Run({"SISMEMBER", "r", m}), Int(1));
    }
  }
  // RESP3: arrays, not sets.
  h.Run({"HELLO", "3"});
  EXPECT_EQ(h.Run({"SRANDMEMBER", "s", "3"}), Array({"1", "3", "5"}));
  EXPECT_EQ(h.Run({"SRANDMEMBER", "nokey"}), "_\r\n");
}

// A reply of random members with repetition stops once it passes the output buffer limit, and the
// client is closed, instead of growing without bound.
TEST_F(SetFamilyTest, RandMemberHugeNegativeCountIsBounded) {
  h.Run({"CONFIG", "SET", "client-output-buffer-limit", "normal 1mb 0 0"});
  h.Run({"SADD", "s", "a"});
  const std::string reply = h.Run({"SRANDMEMBER", "s", "-9223372036854775807"});
  EXPECT_EQ(reply.substr(0, 27), "*9223372036854775807\r\n$1\r\na");
  EXPECT_GE(reply.size(), 1u << 20);
  // The limit does not count the first 16 KB (Redis's fixed reply buffer).
  EXPECT_LT(reply.size(), (1u << 20) + 16 * 1024 + 8 * 1024);
  EXPECT_TRUE(h.conn().close_after_reply);
}

TEST_F(SetFamilyTest, Move) {
  h.Run({"SADD", "a", "1", "x"});
  h.Run({"SADD", "b", "2"});
  EXPECT_EQ(h.Run({"SMOVE", "a", "b", "x"}), Int(1));
  EXPECT_EQ(Encoding("b"), "hashtable");
  EXPECT_EQ(h.Run({"SMOVE", "a", "b", "nope"}), Int(0));
  EXPECT_EQ(h.Run({"SMOVE", "a", "a", "1"}), Int(1));  // same set: membership only
  EXPECT_EQ(h.Run({"SMOVE", "a", "a", "9"}), Int(0));
  EXPECT_EQ(h.Run({"SMOVE", "a", "new", "1"}), Int(1));
  EXPECT_EQ(h.Run({"EXISTS", "a"}), Int(0));  // emptied: deleted
  EXPECT_EQ(Encoding("new"), "intset");       // created for its first member
  EXPECT_EQ(h.Run({"SMOVE", "new", "b", "1"}), Int(1));
  EXPECT_EQ(Members(h.Run({"SMEMBERS", "b"})), (std::multiset<std::string>{"1", "2", "x"}));
}

TEST_F(SetFamilyTest, InterUnionDiff) {
  h.Run({"SADD", "a", "1", "2", "3", "4"});
  h.Run({"SADD", "b", "3", "4", "5"});
  h.Run({"SADD", "c", "4", "x"});
  EXPECT_EQ(h.Run({"SINTER", "a", "b"}), Array({"3", "4"}));
  EXPECT_EQ(h.Run({"SINTER", "a", "a"}), Array({"1", "2", "3", "4"}));
  EXPECT_EQ(h.Run({"SINTER", "a", "b", "c"}), Array({"4"}));
  EXPECT_EQ(h.Run({"SINTER", "a", "nokey"}), kEmpty);
  EXPECT_EQ(h.Run({"SINTERCARD", "2", "a", "b"}), Int(2));
  EXPECT_EQ(h.Run({"SINTERCARD", "2", "a", "b", "LIMIT", "1"}), Int(1));
  EXPECT_EQ(h.Run({"SINTERCARD", "2", "a", "b", "limit", "0"}), Int(2));
  EXPECT_EQ(h.Run({"SINTERCARD", "1", "nokey"}), Int(0));
  EXPECT_EQ(h.Run({"SUNION", "a", "b", "nokey"}), Array({"1", "2", "3", "4", "5"}));
  EXPECT_EQ(Members(h.Run({"SUNION", "a", "c"})),
            (std::multiset<std::string>{"1", "2", "3", "4", "x"}));
  EXPECT_EQ(h.Run({"SDIFF", "a", "b"}), Array({"1", "2"}));
  EXPECT_EQ(h.Run({"SDIFF", "a", "nokey", "c"}), Array({"1", "2", "3"}));
  EXPECT_EQ(h.Run({"SDIFF", "nokey", "a"}), kEmpty);
  EXPECT_EQ(h.Run({"SDIFF", "a", "b", "a"}), kEmpty);  // the first set again: empty
  // A hash table holding only integers gives them ascending, as Redis's intset result.
  EXPECT_EQ(h.Run({"SDIFF", "c", "a"}), Array({"x"}));
  h.Run({"SADD", "h", "9", "7", "8", "y"});
  h.Run({"SREM", "h", "y"});
  EXPECT_EQ(h.Run({"SDIFF", "h", "a"}), Array({"7", "8", "9"}));
  EXPECT_EQ(h.Run({"SUNION", "h", "b"}), Array({"3", "4", "5", "7", "8", "9"}));
  // RESP3 replies are sets.
  h.Run({"HELLO", "3"});
  EXPECT_EQ(h.Run({"SMEMBERS", "a"}), Array({"1", "2", "3", "4"}, '~'));
  EXPECT_EQ(h.Run({"SINTER", "a", "b"}), Array({"3", "4"}, '~'));
  EXPECT_EQ(h.Run({"SUNION", "a", "b"}), Array({"1", "2", "3", "4", "5"}, '~'));
  EXPECT_EQ(h.Run({"SDIFF", "a", "b"}), Array({"1", "2"}, '~'));
  EXPECT_EQ(h.Run({"SMEMBERS", "nokey"}), "~0\r\n");
  EXPECT_EQ(h.Run({"SPOP", "nokey", "1"}), "~0\r\n");
  EXPECT_EQ(h.Run({"SSCAN", "nokey", "0"}), "*2\r\n$1\r\n0\r\n*0\r\n");
}

TEST_F(SetFamilyTest, StoresBuildRedisEncodings) {
  h.Run({"SADD", "a", "1", "2", "3", "x"});
  h.Run({"SADD", "b", "2", "3", "x"});
  h.Run({"SET", "dst", "old"});
  h.Run({"EXPIRE", "dst", "100"});
  // Integers only: an intset, even from hash tables; the old value and its TTL are gone.
  EXPECT_EQ(h.Run({"SINTERSTORE", "dst", "a", "b", "b"}), Int(3));
  EXPECT_EQ(Encoding("dst"), "hashtable");
  EXPECT_EQ(h.Run({"TTL", "dst"}), Int(-1));
  EXPECT_EQ(h.Run({"SDIFFSTORE", "d2", "a", "c"}), Int(4));
  EXPECT_EQ(h.Run({"SREM", "a", "x"}), Int(1));
  EXPECT_EQ(h.Run({"SINTERSTORE", "dst", "a", "b"}), Int(2));
  EXPECT_EQ(Encoding("dst"), "intset");
  EXPECT_EQ(h.Run({"SUNIONSTORE", "u", "a", "nokey"}), Int(3));
  EXPECT_EQ(Encoding("u"), "intset");
  EXPECT_EQ(h.Run({"SUNIONSTORE", "u", "a", "b"}), Int(4));
  EXPECT_EQ(Encoding("u"), "hashtable");
  // An empty result deletes the destination.
  EXPECT_EQ(h.Run({"SINTERSTORE", "u", "a", "nokey"}), Int(0));
  EXPECT_EQ(h.Run({"EXISTS", "u"}), Int(0));
  h.Run({"SET", "u", "v"});
  EXPECT_EQ(h.Run({"SDIFFSTORE", "u", "a", "a"}), Int(0));
  EXPECT_EQ(h.Run({"EXISTS", "u"}), Int(0));
  EXPECT_EQ(h.Run({"SUNIONSTORE", "u", "nokey"}), Int(0));
  // SDIFFSTORE's second algorithm (a first set much bigger than the others) adds the whole
  // first set, so a first set past the intset limit leaves a hash table even for a small result.
  AddRange("big", 0, 600);
  AddRange("small", 5, 600);
  EXPECT_EQ(h.Run({"SDIFFSTORE", "r", "big", "small"}), Int(5));
  EXPECT_EQ(Encoding("r"), "intset");  // algorithm 1: only the result was added
  h.Run({"DEL", "small"});
  AddRange("small", 0, 1);
  AddRange("small2", 1, 2);
  AddRange("small3", 2, 596);
  EXPECT_EQ(h.Run({"SDIFFSTORE", "r", "big", "small", "small2"}), Int(598));
  EXPECT_EQ(Encoding("r"), "hashtable");
}

TEST_F(SetFamilyTest, InterCardErrors) {
  h.Run({"SADD", "a", "1"});
  EXPECT_EQ(h.Run({"SINTERCARD", "0", "a"}), Err("numkeys should be greater than 0"));
  EXPECT_EQ(h.Run({"SINTERCARD", "x", "a"}), Err("numkeys should be greater than 0"));
  EXPECT_EQ(h.Run({"SINTERCARD", "2", "a"}),
            Err("Number of keys can't be greater than number of args"));
  EXPECT_EQ(h.Run({"SINTERCARD", "1", "a", "LIMIT", "-1"}), Err("LIMIT can't be negative"));
  EXPECT_EQ(h.Run({"SINTERCARD", "1", "a", "LIMIT", "x"}), Err("LIMIT can't be negative"));
  EXPECT_EQ(h.Run({"SINTERCARD", "1", "a", "LIMIT"}), kSyntax);
  EXPECT_EQ(h.Run({"SINTERCARD", "1", "a", "other", "1"}), kSyntax);
  EXPECT_EQ(h.Run({"SINTERCARD", "1"}), Err("wrong number of arguments for 'sintercard' command"));
}

TEST_F(SetFamilyTest, ScanOfIntSetIsOneCall) {
  AddRange("i", 0, 100);
  const std::string reply = h.Run({"SSCAN", "i", "0", "COUNT", "1"});
  auto r = ParseReply(reply);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->elements[0].str, "0");
  EXPECT_EQ(r->elements[1].elements.size(), 100u);
  EXPECT_EQ(h.Run({"SSCAN", "i", "0", "MATCH", "*7*"}),
            "*2\r\n$1\r\n0\r\n" + Array({"7", "17", "27", "37", "47", "57", "67", "70", "71", "72",
                                         "73", "74", "75", "76", "77", "78", "79", "87", "97"}));
}

TEST_F(SetFamilyTest, ScanErrorsInRedisOrder) {
  h.Run({"SADD", "s", "a"});
  h.Run({"SET", "str", "v"});
  EXPECT_EQ(h.Run({"SSCAN", "s", "x"}), Err("invalid cursor"));
  EXPECT_EQ(h.Run({"SSCAN", "s", " 1"}), Err("invalid cursor"));
  EXPECT_EQ(h.Run({"SSCAN", "s", "18446744073709551616"}), Err("invalid cursor"));
  EXPECT_EQ(h.Run({"SSCAN", "nokey", "x"}), Err("invalid cursor"));  // the cursor comes first
  // The options are read after the key: a missing key ignores them, a string is WRONGTYPE.
  EXPECT_EQ(h.Run({"SSCAN", "nokey", "0", "COUNT", "0"}), "*2\r\n$1\r\n0\r\n*0\r\n");
  EXPECT_EQ(h.Run({"SSCAN", "str", "0", "COUNT", "0"}), kWrongType);
  EXPECT_EQ(h.Run({"SSCAN", "s", "0", "COUNT", "0"}), kSyntax);
  EXPECT_EQ(h.Run({"SSCAN", "s", "0", "COUNT", "x"}), kNotInt);
  EXPECT_EQ(h.Run({"SSCAN", "s", "0", "TYPE", "set"}), kSyntax);  // SCAN only
  EXPECT_EQ(h.Run({"SSCAN", "s", "0", "MATCH"}), kSyntax);
  EXPECT_EQ(h.Run({"SSCAN", "s", "18446744073709551615"}).substr(0, 4), "*2\r\n");
}

// A full SSCAN of a hash table with a small COUNT returns every member, in steps of about COUNT,
// even while the set grows a lot between the calls.
TEST_F(SetFamilyTest, ScanOfHashTableWhileGrowing) {
  AddRange("s", 0, 1000, "m");
  std::multiset<std::string> seen;
  std::string cursor = "0";
  int calls = 0, grow = 1000;
  do {
    auto r = ParseReply(h.Run({"SSCAN", "s", cursor, "COUNT", "10"}));
    ASSERT_TRUE(r);
    cursor = r->elements[0].str;
    for (const RespReply& e : r->elements[1].elements) seen.insert(e.str);
    EXPECT_LT(r->elements[1].elements.size(), 60u);
    if (calls++ < 20) {
      AddRange("s", grow, grow + 500, "m");
      grow += 500;
    }
  } while (cursor != "0" && calls < 100000);
  EXPECT_GT(calls, 50);
  for (int i = 0; i < 1000; ++i) {
    EXPECT_EQ(seen.count("m" + std::to_string(i)), 1u) << i;
  }
  // MATCH filters what a step returns.
  auto r = ParseReply(h.Run({"SSCAN", "s", "0", "COUNT", "100000", "MATCH", "m1?"}));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->elements[0].str, "0");
  EXPECT_EQ(r->elements[1].elements.size(), 10u);
}

TEST_F(SetFamilyTest, DirtyCounter) {
  auto dirty = [&] { return h.state().dirty; };
  const uint64_t d0 = dirty();
  h.Run({"SADD", "s", "1", "2", "2"});
  EXPECT_EQ(dirty() - d0, 2u);
  h.Run({"SREM", "s", "1", "9"});
  EXPECT_EQ(dirty() - d0, 3u);
  h.Run({"SMOVE", "s", "t", "2"});  // removed and added
  EXPECT_EQ(dirty() - d0, 5u);
  h.Run({"SADD", "u", "1", "2", "3"});
  h.Run({"SPOP", "u", "2"});
  EXPECT_EQ(dirty() - d0, 10u);
  h.Run({"SUNIONSTORE", "d", "u", "t"});
  EXPECT_EQ(dirty() - d0, 11u);
}

TEST(SetFamilyDebugTest, DebugObjectAndMemoryUsage) {
  Config config;
  config.enable_debug_command = "yes";
  CommandHarness h(config);
  auto add_range = [&](const std::string& key, int from, int to, const std::string& prefix = "") {
    std::vector<std::string> cmd = {"SADD", key};
    for (int i = from; i < to; ++i) cmd.push_back(prefix + std::to_string(i));
    h.Run(cmd);
  };
  add_range("i", 0, 10);
  const std::string debug = h.Run({"DEBUG", "OBJECT", "i"});
  // The intset's 28 bytes as an RDB string: a 1-byte length and the bytes.
  EXPECT_NE(debug.find("encoding:intset serializedlength:29 "), std::string::npos) << debug;
  add_range("h", 0, 3, "member");
  const std::string hdebug = h.Run({"DEBUG", "OBJECT", "h"});
  // The size, then each 7-byte member with its length byte.
  EXPECT_NE(hdebug.find("encoding:hashtable serializedlength:25 "), std::string::npos) << hdebug;
  auto usage = ParseReply(h.Run({"MEMORY", "USAGE", "i"}));
  ASSERT_TRUE(usage);
  EXPECT_GT(usage->integer, 28);
  EXPECT_LT(usage->integer, 200);
}

}  // namespace
}  // namespace kv::test
