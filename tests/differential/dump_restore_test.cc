// DUMP and RESTORE against a real redis-server 7.0.15: for every type and encoding, the value
// built by the same commands on both servers is dumped by each and restored into both, and the
// contents and OBJECT ENCODING of all of them must agree; where Redis's encoding is deterministic
// (everything but hash tables), the DUMP payloads are the same bytes. RESTORE's options, errors
// and corrupt payloads get the same replies.

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "server/persistence/crc64.h"
#include "tests/differential/persistence_histories.h"
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
    if (history.deterministic && !history.timed) {
      EXPECT_EQ(from_kv, from_redis) << "DUMP payloads differ";
    }
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

TEST_F(DumpRestoreTest, CorruptStreamPayloads) {
  // Redis's DUMP of a stream with tombstones, groups, PELs and consumers, corrupted (bytes
  // flipped, cut short; the checksum made right again) and restored into both servers with
  // sanitize-dump-payload yes: Redis's verdict ("Bad data format" or OK) and, when it loads, the
  // same stream. kvserver checks deeply whatever the setting; Redis's deep checks need "yes".
  //   KV_STREAM_CORRUPT_SEED=<n> tries other corruptions.
  Both({"flushall"});
  Both({"config", "set", "stream-node-max-entries", "4"});
  for (int i = 1; i <= 12; ++i) {
    Both({"xadd", "s", std::to_string(i) + "-1", "f", std::to_string(i * 100), "g", "text"});
  }
  Both({"xadd", "s", "13-1", "other", "1"});
  Both({"xdel", "s", "2-1", "9-1"});
  Both({"xgroup", "create", "s", "grp", "0"});
  redis_->Call({"xreadgroup", "group", "grp", "alice", "count", "3", "streams", "s", ">"});
  redis_->Call({"xreadgroup", "group", "grp", "bob", "count", "2", "streams", "s", ">"});
  Both({"config", "set", "stream-node-max-entries", "100"});
  Both({"config", "set", "sanitize-dump-payload", "yes"});
  // With the nodes LZF-compressed, and as they are.
  const std::string compressed = BulkText(redis_->Call({"dump", "s"}));
  redis_->Call({"config", "set", "rdbcompression", "no"});
  const std::string plain = BulkText(redis_->Call({"dump", "s"}));
  redis_->Call({"config", "set", "rdbcompression", "yes"});
  ASSERT_FALSE(compressed.empty());
  ASSERT_NE(plain, compressed);
  const uint64_t seed = EnvU64("KV_STREAM_CORRUPT_SEED").value_or(1234);
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 rng(static_cast<uint32_t>(seed));
  size_t refused = 0;
  for (int round = 0; round < 1000; ++round) {
    const std::string& good = round % 2 == 0 ? compressed : plain;
    std::string bad = good.substr(0, good.size() - 10);
    const bool cut = round % 4 == 0;
    if (cut) {
      bad.resize(1 + rng() % (bad.size() - 1));
    } else {
      for (int flips = 1 + rng() % 2; flips > 0; --flips) {
        bad[1 + rng() % (bad.size() - 1)] ^= static_cast<char>(1 << (rng() % 8));
      }
    }
    const std::string payload = WithFooter(bad);
    const std::string key = "r" + std::to_string(round);
    const Args restore = {"restore", key, "0", payload};
    const std::string reply = redis_->Call(restore);
    const std::string kv_reply = kv_->Call(restore);
    if (cut && kv_reply == "-ERR Bad data format\r\n") {
      // Redis reads a payload cut short on into its footer (the version and CRC bytes, which
      // may happen to complete the stream); kvserver's reader stops at the body's end.
      ++refused;
      redis_->Call({"del", key});
      continue;
    }
    EXPECT_EQ(kv_reply, reply) << DescribeArgs(restore);
    if (reply != "+OK\r\n") {
      ++refused;
      continue;
    }
    EXPECT_EQ(StreamContents(*kv_, key, true), StreamContents(*redis_, key, true)) << round;
  }
  EXPECT_GT(refused, 300u);
  Both({"config", "set", "sanitize-dump-payload", "no"});
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
