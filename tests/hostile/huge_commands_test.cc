// Commands with a million arguments, and a value exactly at proto-max-bulk-len.

#include <string>

#include "gtest/gtest.h"
#include "tests/integration/raw_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

// The RESP request for `name` followed by the words prefix0, prefix1, ... (pairs of key and value
// when `pairs`).
std::string ManyArgs(std::string_view name, size_t n, bool pairs) {
  std::string out;
  out.reserve(n * 24);
  out += "*" + std::to_string(n + 1) + "\r\n$" + std::to_string(name.size()) + "\r\n";
  out += name;
  out += "\r\n";
  for (size_t i = 0; i < n; ++i) {
    const std::string word = (pairs && i % 2 == 1 ? "v" : "k") + std::to_string(pairs ? i / 2 : i);
    out += "$" + std::to_string(word.size()) + "\r\n" + word + "\r\n";
  }
  return out;
}

TEST(HugeCommands, MsetOfHalfAMillionPairsThenDelOfAMillionKeys) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  RawClient raw(server->port());
  ASSERT_TRUE(raw.ok());
  EXPECT_EQ(raw.Exchange(ManyArgs("MSET", 1000000, /*pairs=*/true), 5, 120000), "+OK\r\n");
  auto c = server->Connect();
  EXPECT_EQ(Command(c.get(), "DBSIZE")->integer, 500000);
  EXPECT_EQ(Str(Command(c.get(), "GET k123456")), "v123456");
  EXPECT_EQ(Str(Command(c.get(), "GET k499999")), "v499999");
  // DEL of a million keys, half of which exist.
  EXPECT_EQ(raw.Exchange(ManyArgs("DEL", 1000000, /*pairs=*/false), 9, 120000), ":500000\r\n");
  EXPECT_EQ(Command(c.get(), "DBSIZE")->integer, 0);
  // The connection is still in order.
  EXPECT_EQ(raw.Exchange("PING\r\n", 7), "+PONG\r\n");
}

TEST(HugeCommands, MgetOfAMillionKeysReplyArrivesWhole) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto c = server->Connect();
  ASSERT_EQ(Str(Command(c.get(), "SET k7 seven")), "OK");
  RawClient raw(server->port());
  // A million nulls but one: "*1000000\r\n" then "$-1\r\n" each, "$5\r\nseven\r\n" for k7.
  const size_t reply_size = 10 + 999999 * 5 + 11;
  const std::string reply = raw.Exchange(ManyArgs("MGET", 1000000, false), reply_size, 120000);
  ASSERT_EQ(reply.size(), reply_size);
  EXPECT_EQ(reply.substr(0, 10), "*1000000\r\n");
  EXPECT_EQ(reply.substr(10 + 7 * 5, 11), "$5\r\nseven\r\n");
}

TEST(HugeCommands, ValueAtLoweredProtoMaxBulkLen) {
  auto server = ServerProcess::StartKvserver({"--proto-max-bulk-len", "8mb"});
  ASSERT_TRUE(server);
  const size_t limit = 8 * 1024 * 1024;
  {
    // Exactly the limit is accepted and read back intact.
    auto c = server->Connect();
    const std::string at_limit(limit, 'a');
    EXPECT_EQ(Str(Command(c.get(), "SET k %b", at_limit.data(), at_limit.size())), "OK");
    Reply get = Command(c.get(), "GET k");
    ASSERT_TRUE(get);
    EXPECT_TRUE(std::string_view(get->str, get->len) == at_limit);
    // APPEND past the limit is refused as Redis refuses it.
    EXPECT_EQ(Str(Command(c.get(), "APPEND k x")),
              "ERR string exceeds maximum allowed size (proto-max-bulk-len)");
  }
  // One byte over: Redis's protocol error, then the close, as soon as the length is read.
  RawClient raw(server->port());
  ASSERT_TRUE(raw.SendAll("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$" + std::to_string(limit + 1) + "\r\n"));
  bool closed = false;
  EXPECT_EQ(raw.ReadUntilClosed(5000, &closed), "-ERR Protocol error: invalid bulk length\r\n");
  EXPECT_TRUE(closed);
}

}  // namespace
}  // namespace kv::test
