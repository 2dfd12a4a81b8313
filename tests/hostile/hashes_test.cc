// Hostile input against the hash commands on the real binary: a million arguments, huge counts,
// fields and values at proto-max-bulk-len. Redis's replies or errors, memory proportional to the
// data, and the server still serving afterwards.

#include <string>

#include "gtest/gtest.h"
#include "tests/integration/raw_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

#ifdef KV_SANITIZED
constexpr bool kCheckMemory = false;
#else
constexpr bool kCheckMemory = true;
#endif

// The RESP request `head...` followed by n words prefix0, prefix1, ... (field/value pairs when
// `pairs`).
std::string ManyArgs(const std::vector<std::string>& head, size_t n, bool pairs) {
  std::string out;
  out.reserve(n * 24);
  out += "*" + std::to_string(head.size() + n) + "\r\n";
  for (const std::string& h : head) out += "$" + std::to_string(h.size()) + "\r\n" + h + "\r\n";
  for (size_t i = 0; i < n; ++i) {
    const std::string word = (pairs && i % 2 == 1 ? "v" : "f") + std::to_string(pairs ? i / 2 : i);
    out += "$" + std::to_string(word.size()) + "\r\n" + word + "\r\n";
  }
  return out;
}

TEST(HostileHashes, HsetOfHalfAMillionPairsThenHdelOfAMillionFields) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  RawClient raw(server->port());
  ASSERT_TRUE(raw.ok());
  EXPECT_EQ(raw.Exchange(ManyArgs({"HSET", "h"}, 1000000, /*pairs=*/true), 9, 120000),
            ":500000\r\n");
  auto c = server->Connect();
  EXPECT_EQ(Command(c.get(), "HLEN h")->integer, 500000);
  EXPECT_EQ(Str(Command(c.get(), "HGET h f123456")), "v123456");
  EXPECT_EQ(Str(Command(c.get(), "OBJECT ENCODING h")), "hashtable");
  // Every field once, through HSCAN with a huge COUNT (one call) and through HGETALL.
  Reply scan = Command(c.get(), "HSCAN h 0 COUNT 9223372036854775807");
  ASSERT_TRUE(scan && scan->type == REDIS_REPLY_ARRAY && scan->elements == 2);
  EXPECT_EQ(std::string(scan->element[0]->str), "0");
  EXPECT_EQ(scan->element[1]->elements, 1000000u);
  Reply all = Command(c.get(), "HGETALL h");
  ASSERT_TRUE(all && all->type == REDIS_REPLY_ARRAY);
  EXPECT_EQ(all->elements, 1000000u);
  // HMGET of a million fields, half of them present.
  const std::string hmget = ManyArgs({"HMGET", "h"}, 1000000, /*pairs=*/false);
  const std::string head = raw.Exchange(hmget, 10, 120000);
  EXPECT_EQ(head, "*1000000\r\n");
  // HDEL of a million fields, half of which exist: the emptied key goes.
  RawClient raw2(server->port());
  EXPECT_EQ(raw2.Exchange(ManyArgs({"HDEL", "h"}, 1000000, /*pairs=*/false), 9, 120000),
            ":500000\r\n");
  EXPECT_EQ(Command(c.get(), "EXISTS h")->integer, 0);
  EXPECT_EQ(raw2.Exchange("PING\r\n", 7), "+PONG\r\n");
}

TEST(HostileHashes, HugeRandFieldCounts) {
  auto server = ServerProcess::StartKvserver({"--client-output-buffer-limit", "normal 16mb 0 0"});
  ASSERT_TRUE(server);
  auto c = server->Connect();
  ASSERT_EQ(Command(c.get(), "HSET h a 1 b 2 c 3")->integer, 3);
  EXPECT_EQ(Str(Command(c.get(), "HRANDFIELD h -9223372036854775808 WITHVALUES")),
            "ERR value is out of range, value must between -9223372036854775807 and "
            "9223372036854775807");
  EXPECT_EQ(Str(Command(c.get(), "HRANDFIELD h -9223372036854775807 WITHVALUES")),
            "ERR value is out of range");
  // Positive counts past the size give the whole hash.
  EXPECT_EQ(Command(c.get(), "HRANDFIELD h 9223372036854775807")->elements, 3u);
  EXPECT_EQ(Command(c.get(), "HRANDFIELD h 4611686018427387903 WITHVALUES")->elements, 6u);
  // A negative count Redis accepts asks for 9.2e18 fields: the reply stops at the output limit
  // and the client is disconnected, with the server's memory bounded meanwhile.
  const long rss_before = ResidentKb(server->pid());
  RawClient raw(server->port());
  ASSERT_TRUE(raw.SendAll("*3\r\n$10\r\nHRANDFIELD\r\n$1\r\nh\r\n$20\r\n-9223372036854775807\r\n"));
  bool closed = false;
  const std::string got = raw.ReadUntilClosed(60000, &closed);
  EXPECT_TRUE(closed);
  EXPECT_LT(got.size(), 64u << 20);
  if (kCheckMemory) EXPECT_LT(ResidentKb(server->pid()) - rss_before, 256 * 1024);
  // The server goes on serving.
  EXPECT_EQ(Command(c.get(), "HLEN h")->integer, 3);
}

TEST(HostileHashes, FieldsAndValuesAtProtoMaxBulkLen) {
  auto server = ServerProcess::StartKvserver({"--proto-max-bulk-len", "8mb"});
  ASSERT_TRUE(server);
  const size_t limit = 8 * 1024 * 1024;
  auto c = server->Connect();
  const std::string big(limit, 'a');
  Reply set = Command(c.get(), "HSET h %b %b", big.data(), big.size(), big.data(), big.size());
  ASSERT_TRUE(set);
  EXPECT_EQ(set->integer, 1);
  EXPECT_EQ(Str(Command(c.get(), "OBJECT ENCODING h")), "hashtable");
  EXPECT_EQ(Command(c.get(), "HSTRLEN h %b", big.data(), big.size())->integer,
            static_cast<long long>(limit));
  Reply get = Command(c.get(), "HGET h %b", big.data(), big.size());
  ASSERT_TRUE(get && get->type == REDIS_REPLY_STRING);
  EXPECT_TRUE(std::string_view(get->str, get->len) == big);
  EXPECT_EQ(Str(Command(c.get(), "HINCRBYFLOAT h %b 1", big.data(), big.size())),
            "ERR hash value is not a float");
  EXPECT_EQ(Str(Command(c.get(), "HINCRBY h %b 1", big.data(), big.size())),
            "ERR hash value is not an integer");
  // A field over the limit never arrives: the protocol error closes the connection.
  RawClient raw(server->port());
  ASSERT_TRUE(raw.SendAll("*4\r\n$4\r\nHSET\r\n$1\r\nh\r\n$" + std::to_string(limit + 1) + "\r\n"));
  bool closed = false;
  EXPECT_EQ(raw.ReadUntilClosed(5000, &closed), "-ERR Protocol error: invalid bulk length\r\n");
  EXPECT_TRUE(closed);
  EXPECT_EQ(Command(c.get(), "HLEN h")->integer, 1);
}

}  // namespace
}  // namespace kv::test
