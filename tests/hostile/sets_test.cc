// Hostile input to the set commands, against the real binary: huge counts, a million arguments,
// members at proto-max-bulk-len. Redis's errors or results, never a crash, a hang or memory
// without bound.

#include <string>

#include "gtest/gtest.h"
#include "tests/integration/raw_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

// "*<n+2>\r\n$<name>...\r\n$<key>..." then the members m0, m1, ... (or integers 0, 1, ...).
std::string ManyMembers(std::string_view name, std::string_view key, size_t n, bool integers) {
  std::string out;
  out.reserve(n * 16);
  out += "*" + std::to_string(n + 2) + "\r\n";
  out += BulkReply(name);
  out += BulkReply(key);
  for (size_t i = 0; i < n; ++i) out += BulkReply((integers ? "" : "m") + std::to_string(i));
  return out;
}

TEST(HostileSets, HugeCountsGetRedisErrorsOrBoundedResults) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto c = server->Connect();
  ASSERT_EQ(Command(c.get(), "SADD s a b c")->integer, 3);
  EXPECT_EQ(Str(Command(c.get(), "SRANDMEMBER s -9223372036854775808")),
            "ERR value is out of range, value must between -9223372036854775807 and "
            "9223372036854775807");
  // Counts past the set's size: the whole set.
  Reply all = Command(c.get(), "SRANDMEMBER s 9223372036854775807");
  ASSERT_TRUE(all);
  EXPECT_EQ(all->elements, 3u);
  EXPECT_EQ(Str(Command(c.get(), "SPOP s -9223372036854775808")),
            "ERR value is out of range, must be positive");
  Reply popped = Command(c.get(), "SPOP s 9223372036854775807");
  ASSERT_TRUE(popped);
  EXPECT_EQ(popped->elements, 3u);
  EXPECT_EQ(Command(c.get(), "EXISTS s")->integer, 0);
  EXPECT_EQ(Str(Command(c.get(), "SINTERCARD 9223372036854775807 s")),
            "ERR Number of keys can't be greater than number of args");
  EXPECT_EQ(Command(c.get(), "SINTERCARD 1 s LIMIT 9223372036854775807")->integer, 0);
  ASSERT_EQ(Command(c.get(), "SADD s a b c")->integer, 3);
  Reply scan = Command(c.get(), "SSCAN s 0 COUNT 9223372036854775807");
  ASSERT_TRUE(scan);
  EXPECT_EQ(scan->elements, 2u);
}

// A reply of 2^63 - 1 random members cannot be made: past the output buffer limit the reply stops
// and the client is closed, as Redis closes a client over its limit; the server goes on serving
// others.
TEST(HostileSets, RandMemberWithAHugeNegativeCountClosesTheClient) {
  auto server = ServerProcess::StartKvserver({"--client-output-buffer-limit", "normal 64mb 0 0"});
  ASSERT_TRUE(server);
  auto c = server->Connect();
  ASSERT_EQ(Command(c.get(), "SADD s a")->integer, 1);
  RawClient raw(server->port());
  ASSERT_TRUE(raw.SendAll(Resp({"SRANDMEMBER", "s", "-9223372036854775807"})));
  bool closed = false;
  const std::string got = raw.ReadUntilClosed(60000, &closed);
  EXPECT_TRUE(closed);
  // The reply stopped just past the limit, and the client is closed without any of it, as
  // Redis's CLIENT_CLOSE_ASAP.
  EXPECT_EQ(got.size(), 0u);
  EXPECT_EQ(Str(Command(c.get(), "PING")), "PONG");
  // A big but finite count still gets its whole reply.
  RawClient raw2(server->port());
  const std::string reply =
      raw2.Exchange(Resp({"SRANDMEMBER", "s", "-100000"}), 9 + 100000 * 7, 60000);
  EXPECT_EQ(reply.size(), 9u + 100000 * 7);
  EXPECT_EQ(reply.substr(0, 16), "*100000\r\n$1\r\na\r\n");
}

TEST(HostileSets, AMillionMembersInOneCommand) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  RawClient raw(server->port());
  ASSERT_TRUE(raw.ok());
  EXPECT_EQ(raw.Exchange(ManyMembers("SADD", "big", 1000000, false), 10, 120000), ":1000000\r\n");
  EXPECT_EQ(raw.Exchange(ManyMembers("SADD", "ints", 1000000, true), 10, 120000), ":1000000\r\n");
  auto c = server->Connect();
  EXPECT_EQ(Command(c.get(), "SCARD big")->integer, 1000000);
  EXPECT_EQ(Str(Command(c.get(), "OBJECT ENCODING ints")), "hashtable");
  EXPECT_EQ(Command(c.get(), "SISMEMBER big m999999")->integer, 1);
  const std::string mis =
      raw.Exchange(ManyMembers("SMISMEMBER", "big", 1000000, false), 10 + 4 * 1000000, 120000);
  ASSERT_EQ(mis.size(), 10u + 4 * 1000000);
  EXPECT_EQ(mis.substr(0, 14), "*1000000\r\n:1\r\n");
  EXPECT_EQ(raw.Exchange(ManyMembers("SREM", "big", 1000000, false), 10, 120000), ":1000000\r\n");
  EXPECT_EQ(Command(c.get(), "EXISTS big")->integer, 0);
  // SINTERCARD over a million key arguments (all missing but one).
  std::string inter =
      "*1000003\r\n" + BulkReply("SINTERCARD") + BulkReply("1000001") + BulkReply("ints");
  for (size_t i = 0; i < 1000000; ++i) inter += BulkReply("k" + std::to_string(i));
  EXPECT_EQ(raw.Exchange(inter, 4, 120000), ":0\r\n");
  EXPECT_EQ(raw.Exchange("PING\r\n", 7), "+PONG\r\n");
}

TEST(HostileSets, MembersAtProtoMaxBulkLen) {
  auto server = ServerProcess::StartKvserver({"--proto-max-bulk-len", "8mb"});
  ASSERT_TRUE(server);
  const size_t limit = 8 * 1024 * 1024;
  auto c = server->Connect();
  const std::string a(limit, 'a'), b(limit, 'b');
  EXPECT_EQ(Command(c.get(), "SADD s %b %b", a.data(), a.size(), b.data(), b.size())->integer, 2);
  EXPECT_EQ(Command(c.get(), "SADD s %b", a.data(), a.size())->integer, 0);
  EXPECT_EQ(Command(c.get(), "SISMEMBER s %b", b.data(), b.size())->integer, 1);
  EXPECT_EQ(Str(Command(c.get(), "OBJECT ENCODING s")), "hashtable");
  Reply members = Command(c.get(), "SMEMBERS s");
  ASSERT_TRUE(members);
  ASSERT_EQ(members->elements, 2u);
  EXPECT_EQ(members->element[0]->len + members->element[1]->len, 2 * limit);
  EXPECT_EQ(Command(c.get(), "SREM s %b", a.data(), a.size())->integer, 1);
  Reply pop = Command(c.get(), "SPOP s");
  ASSERT_TRUE(pop);
  EXPECT_TRUE(std::string_view(pop->str, pop->len) == b);
}

}  // namespace
}  // namespace kv::test
