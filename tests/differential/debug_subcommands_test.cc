// DEBUG subcommands Redis's test suite relies on, against the real redis-server (both with
// enable-debug-command yes): DIGEST and DIGEST-VALUE give the same 40 hex digits for the same
// data, for every type and encoding, with and without TTLs, in several databases (the suite
// compares values with their copies, and datasets before and after an operation); PROTOCOL gives
// the same bytes for each RESP3 type in RESP2 and RESP3 (the suite's client parsing tests).

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/reply_pair.h"
#include "tests/support/resp_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

class DebugSubcommandsTest : public ConnectedBothServersTest<DebugSubcommandsTest> {
 public:
  static std::vector<std::string> ServerArgs() { return {"--enable-debug-command", "yes"}; }

 protected:
  void SetUp() override {
    ConnectedBothServersTest::SetUp();
    if (HasFatalFailure()) return;
    Both({"FLUSHALL"});
  }

  // Sends `args` to both servers; the replies must be equal. Returns kvserver's.
  std::string Both(const Args& args) {
    const std::string kv = kv_->Call(args);
    const std::string redis = redis_conn_->Call(args);
    EXPECT_EQ(Escape(kv), Escape(redis)) << args[0] << " " << (args.size() > 1 ? args[1] : "");
    return kv;
  }
};

TEST_F(DebugSubcommandsTest, DigestOfNothing) {
  EXPECT_EQ(Both({"DEBUG", "DIGEST"}), "+" + std::string(40, '0') + "\r\n");
  EXPECT_EQ(Both({"DEBUG", "DIGEST-VALUE"}), "*0\r\n");
  Both({"DEBUG", "DIGEST-VALUE", "missing", "other"});
  Both({"DEBUG", "DIGEST", "extra"});
}

TEST_F(DebugSubcommandsTest, DigestsOfEveryTypeAndEncoding) {
  std::vector<Args> setup = {
      {"SET", "str", "hello"},
      {"SET", "int", "12345"},
      {"SET", "neg", "-7"},
      {"SET", "bin", std::string("a\0b\r\n", 5)},
      {"RPUSH", "list", "a", "1", "-2", "bb", "9223372036854775807", ""},
      {"RPUSH", "list2", "1", "-2", "bb", "a", "9223372036854775807", ""},
      {"SADD", "intset", "1", "2", "3", "-100", "70000"},
      {"SADD", "set", "a", "b", "1", "xyz"},
      {"HSET", "hash", "f1", "v1", "f2", "2", "3", "three"},
      {"ZADD", "zset", "1", "a", "2.5", "b", "-inf", "c", "inf", "d", "0.1", "e", "3", "42"},
      {"SET", "ttl", "v", "EX", "1000"},
      {"RPUSH", "ttllist", "x", "EX"},
      {"EXPIRE", "ttllist", "1000"},
  };
  // Past the listpack and intset limits: hashtable, skiplist and multi-node quicklist encodings.
  Args big_hash = {"HSET", "bighash"};
  Args big_set = {"SADD", "bigset"};
  Args big_intset = {"SADD", "bigintset"};
  Args big_zset = {"ZADD", "bigzset"};
  Args big_list = {"RPUSH", "biglist"};
  for (int i = 0; i < 600; ++i) {
    const std::string n = std::to_string(i);
    big_hash.insert(big_hash.end(), {"field:" + n, "value:" + n});
    big_set.push_back("member:" + n);
    big_intset.push_back(n);
    big_zset.insert(big_zset.end(), {std::to_string(i * 0.37), "m" + n});
    big_list.push_back(i % 3 == 0 ? n : "element:" + n);
  }
  setup.insert(setup.end(), {big_hash, big_set, big_intset, big_zset, big_list});
  for (const Args& args : setup) Both(args);
  Both({"OBJECT", "ENCODING", "bighash"});
  Both({"OBJECT", "ENCODING", "bigset"});
  Both({"OBJECT", "ENCODING", "bigzset"});

  const std::string digest = Both({"DEBUG", "DIGEST"});
  EXPECT_NE(digest, "+" + std::string(40, '0') + "\r\n");
  Both({"DEBUG",   "DIGEST-VALUE", "str",       "int",     "neg",     "bin",    "list",
        "list2",   "intset",       "set",       "hash",    "zset",    "ttl",    "ttllist",
        "bighash", "bigset",       "bigintset", "bigzset", "biglist", "missing"});

  // The same values elsewhere: a copy digests as the original, a TTL changes it, another
  // database changes the dataset's digest.
  Both({"COPY", "biglist", "biglist2"});
  Both({"DEBUG", "DIGEST-VALUE", "biglist", "biglist2"});
  Both({"PERSIST", "ttl"});
  Both({"DEBUG", "DIGEST-VALUE", "ttl"});
  Both({"MOVE", "hash", "5"});
  Both({"DEBUG", "DIGEST"});
  Both({"SELECT", "5"});
  Both({"DEBUG", "DIGEST-VALUE", "hash"});
  Both({"DEBUG", "DIGEST"});
}

// DEBUG POPULATE's keys and values (compared through the dataset's digest and a few reads), its
// prefix and size, keys it leaves alone, and its errors.
TEST_F(DebugSubcommandsTest, Populate) {
  Both({"SET", "key:3", "mine"});
  Both({"DEBUG", "POPULATE", "1000"});
  Both({"DBSIZE"});
  Both({"GET", "key:3"});
  Both({"GET", "key:999"});
  Both({"DEBUG", "POPULATE", "10", "p", "3"});
  Both({"DEBUG", "POPULATE", "10", "q", "20"});
  Both({"GET", "p:7"});
  Both({"GET", "q:7"});
  Both({"DEBUG", "POPULATE", "3", std::string(200, 'x')});
  Both({"DEBUG", "POPULATE", "3", std::string("ab\0cd", 5), "0"});
  Both({"EXISTS", "ab:0", "ab:1", "ab:2", "cd:0"});
  Both({"DEBUG", "DIGEST"});
  Both({"DEBUG", "POPULATE", "0"});
  Both({"DEBUG", "POPULATE", "-1"});
  Both({"DEBUG", "POPULATE", "x"});
  Both({"DEBUG", "POPULATE", "5", "k", "-1"});
  Both({"DEBUG", "POPULATE", "5", "k", "1.5"});
  Both({"DEBUG", "POPULATE"});
  Both({"DEBUG", "POPULATE", "1", "a", "1", "extra"});
  Both({"DBSIZE"});
}

TEST_F(DebugSubcommandsTest, ProtocolTypesInResp2AndResp3) {
  const std::vector<std::string> types = {"string",   "integer", "double", "bignum", "null",
                                          "array",    "set",     "map",    "attrib", "push",
                                          "verbatim", "true",    "false",  "bogus",  "STRING"};
  for (const std::string& type : types) Both({"DEBUG", "PROTOCOL", type});
  // HELLO's reply names the connection's id, which differs.
  ASSERT_EQ(kv_->Call({"HELLO", "3"}).substr(0, 3), "%7\r");
  ASSERT_EQ(redis_conn_->Call({"HELLO", "3"}).substr(0, 3), "%7\r");
  for (const std::string& type : types) {
    Both({"DEBUG", "PROTOCOL", type});
    // The real reply after the push or the attribute.
    if (type == "push" || type == "attrib") {
      EXPECT_EQ(Escape(kv_->ReadReply().value_or("<none>")),
                Escape(redis_conn_->ReadReply().value_or("<none>")));
    }
  }
  Both({"DEBUG", "PROTOCOL"});
  Both({"DEBUG", "PROTOCOL", "string", "extra"});
}

}  // namespace
}  // namespace kv::test
