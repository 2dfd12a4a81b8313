// DUMP and RESTORE against a real redis-server 7.0.15: for every type and encoding, the value
// built by the same commands on both servers is dumped by each and restored into both, and the
// contents and OBJECT ENCODING of all of them must agree; where Redis's encoding is deterministic
// (everything but hash tables), the DUMP payloads are the same bytes. RESTORE's options, errors
// and corrupt payloads get the same replies.

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "server/persistence/crc64.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/reply_pair.h"
#include "tests/support/resp_reply.h"

namespace kv::test {
namespace {

class DumpRestoreTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    kv_server_ = ServerProcess::StartKvserver({"--enable-debug-command", "yes"}).release();
    redis_server_ = ServerProcess::StartRedis({"--enable-debug-command", "yes"}).release();
  }
  static void TearDownTestSuite() {
    delete kv_server_;
    delete redis_server_;
  }
  void SetUp() override {
    ASSERT_NE(kv_server_, nullptr);
    ASSERT_NE(redis_server_, nullptr);
    kv_ = RawConnection::Connect(kv_server_->port());
    redis_ = RawConnection::Connect(redis_server_->port());
    ASSERT_TRUE(kv_ && redis_);
  }

  // The same command on both; the replies must be equal.
  std::string Both(const Args& args) {
    const std::string a = kv_->Call(args), b = redis_->Call(args);
    EXPECT_EQ(a, b) << DescribeArgs(args);
    return b;
  }

  static inline ServerProcess* kv_server_ = nullptr;
  static inline ServerProcess* redis_server_ = nullptr;
  std::unique_ptr<RawConnection> kv_, redis_;
};

std::string BulkText(const std::string& reply) {
  auto r = ParseReply(reply);
  return r && r->type == RespReply::Type::kBulkString ? r->str : "";
}

// The value at `key` in a form that does not depend on a hash table's order.
std::string Contents(RawConnection& c, const std::string& key) {
  const std::string type = c.Call({"type", key});
  std::string read;
  bool unordered = false, pairs = false;
  if (type == "+string\r\n") {
    read = c.Call({"get", key});
  } else if (type == "+list\r\n") {
    read = c.Call({"lrange", key, "0", "-1"});
  } else if (type == "+zset\r\n") {
    read = c.Call({"zrange", key, "0", "-1", "withscores"});
  } else if (type == "+set\r\n") {
    read = c.Call({"smembers", key});
    unordered = true;
  } else if (type == "+hash\r\n") {
    read = c.Call({"hgetall", key});
    unordered = pairs = true;
  } else {
    return type;
  }
  if (!unordered) return type + read;
  auto r = ParseReply(read);
  if (!r) return "unparsable " + read;
  std::vector<std::string> items;
  for (size_t i = 0; i < r->elements.size(); i += pairs ? 2 : 1) {
    std::string item = r->elements[i].str;
    if (pairs) item += std::string("\0", 1) + r->elements[i + 1].str;
    items.push_back(std::move(item));
  }
  std::sort(items.begin(), items.end());
  std::string out = type;
  for (const auto& s : items) out += s + "\n";
  return out;
}

struct History {
  std::string name;
  std::vector<Args> setup;  // builds "k"
  std::string encoding;     // what OBJECT ENCODING k must say on both
  bool deterministic = true;
};

std::vector<History> Histories() {
  std::vector<History> h;
  h.push_back({"int string", {{"set", "k", "12345"}}, "int"});
  h.push_back({"wide int string", {{"set", "k", "9223372036854775807"}}, "int"});
  h.push_back({"negative int", {{"set", "k", "-2147483648"}}, "int"});
  h.push_back({"embstr", {{"set", "k", "hello"}}, "embstr"});
  h.push_back({"compressible raw", {{"set", "k", std::string(300, 'a') + "b"}}, "raw"});
  std::string noise;
  for (int i = 0; i < 2000; ++i) noise.push_back(static_cast<char>((i * 7919 + i / 13) & 0xff));
  h.push_back({"binary raw", {{"set", "k", noise}}, "raw"});
  h.push_back({"appended", {{"set", "k", "1"}, {"append", "k", "23"}}, "raw"});
  h.push_back({"empty string", {{"set", "k", ""}}, "embstr"});

  h.push_back({"small list",
               {{"rpush", "k", "a", "1", "-20000", "bbbbbbbbbbbbbbbbbbbbbbbbbb"}},
               "quicklist"});
  Args many = {"rpush", "k"};
  for (int i = 0; i < 3000; ++i)
    many.push_back(i % 4 == 0 ? std::to_string(i * 977) : "item" + std::to_string(i));
  h.push_back({"list of many nodes", {many}, "quicklist"});
  h.push_back({"compressed list",
               {{"config", "set", "list-compress-depth", "1"},
                many,
                {"config", "set", "list-compress-depth", "0"}},
               "quicklist"});
  h.push_back({"list with a plain node",
               {{"debug", "quicklist-packed-threshold", "100"},
                {"rpush", "k", "x", std::string(500, 'p'), "y"},
                {"debug", "quicklist-packed-threshold", "1073741824"}},
               "quicklist"});
  h.push_back({"list with a big element",
               {{"rpush", "k", "a", std::string(10000, 'q'), "b"}},
               "quicklist"});

  h.push_back(
      {"listpack hash", {{"hset", "k", "f", "v", "n", "12", "neg", "-3", "e", ""}}, "listpack"});
  Args big_hash = {"hset", "k"};
  for (int i = 0; i < 600; ++i) {
    big_hash.push_back("field:" + std::to_string(i));
    big_hash.push_back(std::to_string(i * 31));
  }
  h.push_back({"hashtable hash", {big_hash}, "hashtable", false});
  h.push_back(
      {"hash with a long value", {{"hset", "k", "f", std::string(100, 'v')}}, "hashtable", false});

  h.push_back({"intset", {{"sadd", "k", "5", "-1", "300", "70000"}}, "intset"});
  h.push_back({"wide intset", {{"sadd", "k", "1", "5000000000", "-5000000000"}}, "intset"});
  h.push_back({"string set", {{"sadd", "k", "a", "b", "c", "1"}}, "hashtable", false});
  Args big_set = {"sadd", "k"};
  for (int i = 0; i < 600; ++i) big_set.push_back(std::to_string(i * 3));
  h.push_back({"big integer set", {big_set}, "hashtable", false});

  h.push_back(
      {"listpack zset",
       {{"zadd", "k", "1", "a", "2.5", "b", "-inf", "c", "inf", "d", "0.1", "e", "3", "12"}},
       "listpack"});
  Args big_zset = {"zadd", "k"};
  for (int i = 0; i < 300; ++i) {
    big_zset.push_back(std::to_string(i % 7 == 0 ? i : i * 0.37));
    big_zset.push_back("member" + std::to_string(i));
  }
  h.push_back({"skiplist zset", {big_zset}, "skiplist"});
  h.push_back({"zset with a long member",
               {{"zadd", "k", "1", std::string(100, 'm'), "2", "x"}},
               "skiplist"});
  return h;
}

TEST_F(DumpRestoreTest, EveryEncodingBothWays) {
  for (const History& history : Histories()) {
    SCOPED_TRACE(history.name);
    Both({"flushall"});
    for (const Args& cmd : history.setup) Both(cmd);
    ASSERT_EQ(Both({"object", "encoding", "k"}),
              "$" + std::to_string(history.encoding.size()) + "\r\n" + history.encoding + "\r\n");
    const std::string from_kv = BulkText(kv_->Call({"dump", "k"}));
    const std::string from_redis = BulkText(redis_->Call({"dump", "k"}));
    ASSERT_FALSE(from_redis.empty());
    ASSERT_FALSE(from_kv.empty());
    if (history.deterministic) EXPECT_EQ(from_kv, from_redis) << "DUMP payloads differ";
    // Both payloads into both servers.
    Both({"restore", "fromkv", "0", from_kv});
    Both({"restore", "fromredis", "0", from_redis});
    const std::string expected = Contents(*redis_, "k");
    for (const char* key : {"k", "fromkv", "fromredis"}) {
      EXPECT_EQ(Contents(*kv_, key), expected) << key << " in kvserver";
      EXPECT_EQ(Contents(*redis_, key), expected) << key << " in Redis";
      Both({"object", "encoding", key});
    }
    if (history.deterministic) {
      // What kvserver restored from Redis dumps as Redis's bytes again.
      EXPECT_EQ(BulkText(kv_->Call({"dump", "fromredis"})), from_redis);
      EXPECT_EQ(BulkText(redis_->Call({"dump", "fromkv"})), from_kv);
    }
  }
}

TEST_F(DumpRestoreTest, ConversionOnRestoreFollowsTheLimits) {
  // Payloads made under the default limits, restored under small ones: both servers convert
  // the same way.
  for (const History& history : Histories()) {
    SCOPED_TRACE(history.name);
    Both({"flushall"});
    for (const Args& cmd : history.setup) Both(cmd);
    const std::string payload = BulkText(redis_->Call({"dump", "k"}));
    for (const char* option :
         {"hash-max-listpack-entries", "set-max-intset-entries", "zset-max-listpack-entries"}) {
      Both({"config", "set", option, "2"});
    }
    Both({"restore", "copy", "0", payload});
    Both({"object", "encoding", "copy"});
    EXPECT_EQ(Contents(*kv_, "copy"), Contents(*redis_, "copy"));
    Both({"config", "set", "hash-max-listpack-entries", "512"});
    Both({"config", "set", "set-max-intset-entries", "512"});
    Both({"config", "set", "zset-max-listpack-entries", "128"});
    // And a big encoding back under large limits.
    Both({"config", "set", "hash-max-listpack-entries", "5000"});
    Both({"config", "set", "set-max-intset-entries", "5000"});
    Both({"config", "set", "zset-max-listpack-entries", "5000"});
    Both({"restore", "copy2", "0", payload});
    Both({"object", "encoding", "copy2"});
    EXPECT_EQ(Contents(*kv_, "copy2"), Contents(*redis_, "copy2"));
    Both({"config", "set", "hash-max-listpack-entries", "512"});
    Both({"config", "set", "set-max-intset-entries", "512"});
    Both({"config", "set", "zset-max-listpack-entries", "128"});
  }
}

std::string WithFooter(std::string body, int version = 10) {
  body.push_back(static_cast<char>(version & 0xff));
  body.push_back(static_cast<char>(version >> 8));
  const uint64_t crc = Crc64(0, body);
  for (int i = 0; i < 8; ++i) body.push_back(static_cast<char>(crc >> (8 * i)));
  return body;
}

TEST_F(DumpRestoreTest, OptionsAndErrors) {
  Both({"flushall"});
  Both({"set", "src", "value"});
  const std::string payload = BulkText(redis_->Call({"dump", "src"}));
  std::string bad_crc = payload;
  bad_crc.back() ^= 0x55;
  const std::vector<Args> commands = {
      {"dump", "missing"},
      {"restore", "src", "0", payload},
      {"restore", "new", "abc", payload},
      {"restore", "new", "-1", payload},
      {"restore", "new", "0", "xyz"},
      {"restore", "new", "0", ""},
      {"restore", "new", "0", bad_crc},
      {"restore", "new", "0", WithFooter("\x00\x01v", 11)},
      {"restore", "new", "0", WithFooter("\x64\x01v")},
      {"restore", "new", "0", WithFooter("\x00\x05v")},
      {"restore", "new", "0", WithFooter(std::string("\x02\x00", 2))},
      {"restore", "new", "0", WithFooter(std::string("\x0b\x00", 2))},
      {"restore", "new", "0", payload, "idletime", "-1"},
      {"restore", "new", "0", payload, "idletime", "x"},
      {"restore", "new", "0", payload, "freq", "256"},
      {"restore", "new", "0", payload, "freq", "-1"},
      {"restore", "new", "0", payload, "idletime", "5", "freq", "5"},
      {"restore", "new", "0", payload, "freq", "5", "idletime", "5"},
      {"restore", "new", "0", payload, "idletime"},
      {"restore", "new", "0", payload, "bogus"},
      {"restore", "new", "0", payload, "replace", "absttl", "replace"},
      {"get", "new"},
      {"restore", "src", "0", payload, "REPLACE"},
      {"restore", "ttl", "100000", payload},
      {"ttl", "ttl"},
      {"restore", "past", "1", payload, "absttl"},
      {"exists", "past"},
      {"restore", "src", "1", payload, "absttl", "replace"},
      {"exists", "src"},
      {"restore", "idle", "0", payload, "idletime", "1000"},
      {"object", "idletime", "idle"},
      {"restore", "idle2", "0", payload, "IDLETIME", "0"},
      {"object", "idletime", "idle2"},
      {"config", "set", "maxmemory-policy", "allkeys-lfu"},
      {"restore", "hot", "0", payload, "freq", "100"},
      {"object", "freq", "hot"},
      {"restore", "hot2", "0", payload, "idletime", "100"},
      {"object", "freq", "hot2"},
      {"config", "set", "maxmemory-policy", "noeviction"},
      {"restore", "h", "0", payload, "freq", "7"},
      {"dbsize"},
      {"restore", "x"},
      {"dump"},
  };
  ExpectSameReplies(*kv_, *redis_, commands);
}

}  // namespace
}  // namespace kv::test
