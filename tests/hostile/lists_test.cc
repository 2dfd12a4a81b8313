// Lists under hostile input against the real binary: a million elements in one command and in
// one reply, a million keys to block on, elements at proto-max-bulk-len (packed and plain).

#include <unistd.h>

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/integration/raw_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

// The RESP request for `words` followed by prefix0, prefix1, ... (n of them), then `tail`.
std::string ManyArgs(const std::vector<std::string>& words, std::string_view prefix, size_t n,
                     const std::vector<std::string>& tail = {}) {
  std::string out;
  out.reserve(n * 16);
  out += "*" + std::to_string(words.size() + n + tail.size()) + "\r\n";
  auto add = [&](std::string_view w) {
    out += "$" + std::to_string(w.size()) + "\r\n";
    out += w;
    out += "\r\n";
  };
  for (const std::string& w : words) add(w);
  for (size_t i = 0; i < n; ++i) add(std::string(prefix) + std::to_string(i));
  for (const std::string& w : tail) add(w);
  return out;
}

size_t BulkSize(std::string_view s) {
  return 1 + std::to_string(s.size()).size() + 2 + s.size() + 2;
}

int64_t UsedMemory(redisContext* c) {
  Reply r = Command(c, "INFO memory");
  const std::string info(r->str, r->len);
  return std::stoll(info.substr(info.find("used_memory:") + 12));
}

TEST(HostileLists, AMillionElementsInOneCommandAndOneReply) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto c = server->Connect();
  RawClient raw(server->port());
  ASSERT_TRUE(raw.ok());
  EXPECT_EQ(raw.Exchange("PING\r\n", 7), "+PONG\r\n");
  const int64_t before = UsedMemory(c.get());
  EXPECT_EQ(raw.Exchange(ManyArgs({"RPUSH", "l"}, "e", 1000000), 10, 120000), ":1000000\r\n");
  // 8 or 9 bytes per element in its list packs: memory follows the data.
  const int64_t usage = Command(c.get(), "MEMORY USAGE l")->integer;
  EXPECT_GT(usage, 8 * 1000000);
  EXPECT_LT(usage, 10 * 1000000);
  EXPECT_EQ(Command(c.get(), "LLEN l")->integer, 1000000);
  EXPECT_EQ(Str(Command(c.get(), "LINDEX l 765432")), "e765432");
  EXPECT_EQ(Command(c.get(), "LPOS l e999999")->integer, 999999);
  // LRANGE to the largest index: the whole list, in one reply.
  size_t elements = 0;
  for (size_t i = 0; i < 1000000; ++i) elements += BulkSize("e" + std::to_string(i));
  const std::string range =
      raw.Exchange("*4\r\n$6\r\nLRANGE\r\n$1\r\nl\r\n$1\r\n0\r\n$19\r\n9223372036854775807\r\n",
                   10 + elements, 120000);
  EXPECT_EQ(range.size(), 10 + elements);
  EXPECT_EQ(range.substr(0, 10), "*1000000\r\n");
  EXPECT_EQ(range.substr(range.size() - 13), "$7\r\ne999999\r\n");
  // LPOP of a million in one reply, and the list is gone.
  const std::string popped =
      raw.Exchange("*3\r\n$4\r\nLPOP\r\n$1\r\nl\r\n$7\r\n2000000\r\n", 10 + elements, 120000);
  EXPECT_EQ(popped, range);
  EXPECT_EQ(Command(c.get(), "EXISTS l")->integer, 0);
  EXPECT_EQ(raw.Exchange("PING\r\n", 7), "+PONG\r\n");
  // With the list and the connection gone, what the command and replies took is given back.
  raw.Close();
  int64_t grown = 0;
  for (int i = 0; i < 100; ++i) {
    grown = UsedMemory(c.get()) - before;
    if (grown < 1000000) break;
    usleep(50000);
  }
  EXPECT_LT(grown, 1000000);
}

TEST(HostileLists, BlockOnAMillionKeys) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto c = server->Connect();
  // Blocking on a million keys takes the server more than the usual 10 s under the sanitizers.
  redisSetTimeout(c.get(), timeval{120, 0});
  RawClient raw(server->port());
  ASSERT_TRUE(raw.ok());
  ASSERT_TRUE(raw.SendAll(ManyArgs({"BLPOP"}, "key", 1000000, {"0"})));
  // Blocked on every key; the last one serves it.
  for (int i = 0; i < 1000; ++i) {
    Reply r = Command(c.get(), "INFO clients");
    ASSERT_TRUE(r) << c->errstr;
    if (std::string(r->str, r->len).find("blocked_clients:1\r\n") != std::string::npos) break;
    usleep(10000);
  }
  EXPECT_EQ(Command(c.get(), "RPUSH key999999 v")->integer, 1);
  EXPECT_EQ(raw.Exchange("", 26, 60000), "*2\r\n$9\r\nkey999999\r\n$1\r\nv\r\n");
  // Blocked again, then gone: nothing is left waiting.
  ASSERT_TRUE(raw.SendAll(ManyArgs({"BRPOP"}, "key", 1000000, {"0"})));
  usleep(200000);
  raw.Close();
  for (int i = 0; i < 1000; ++i) {
    Reply r = Command(c.get(), "INFO clients");
    ASSERT_TRUE(r) << c->errstr;
    if (std::string(r->str, r->len).find("blocked_clients:0\r\n") != std::string::npos) break;
    usleep(10000);
  }
  EXPECT_EQ(Command(c.get(), "RPUSH key5 v")->integer, 1);
  EXPECT_EQ(Command(c.get(), "LLEN key5")->integer, 1);
}

TEST(HostileLists, ElementsAtProtoMaxBulkLen) {
  auto server = ServerProcess::StartKvserver(
      {"--proto-max-bulk-len", "8mb", "--enable-debug-command", "yes"});
  ASSERT_TRUE(server);
  const size_t limit = 8 * 1024 * 1024;
  const std::string big(limit, 'b');
  const std::string other(limit, 'o');
  auto c = server->Connect();
  // In packed nodes (the default threshold is 1 GB), then in plain nodes.
  for (const char* threshold : {"0", "1mb"}) {
    SCOPED_TRACE(threshold);
    ASSERT_EQ(Str(Command(c.get(), "DEBUG QUICKLIST-PACKED-THRESHOLD %s", threshold)), "OK");
    ASSERT_EQ(Command(c.get(), "DEL l m")->type, REDIS_REPLY_INTEGER);
    EXPECT_EQ(Command(c.get(), "RPUSH l small %b", big.data(), big.size())->integer, 2);
    EXPECT_EQ(Command(c.get(), "LINSERT l BEFORE small %b", other.data(), other.size())->integer,
              3);
    EXPECT_EQ(Str(Command(c.get(), "LSET l 1 %b", big.data(), big.size())), "OK");
    Reply r = Command(c.get(), "LRANGE l 0 -1");
    ASSERT_TRUE(r && r->type == REDIS_REPLY_ARRAY && r->elements == 3);
    EXPECT_TRUE(std::string_view(r->element[0]->str, r->element[0]->len) == other);
    EXPECT_TRUE(std::string_view(r->element[1]->str, r->element[1]->len) == big);
    EXPECT_TRUE(std::string_view(r->element[2]->str, r->element[2]->len) == big);
    Reply moved = Command(c.get(), "LMOVE l m LEFT LEFT");
    ASSERT_TRUE(moved && moved->type == REDIS_REPLY_STRING);
    EXPECT_TRUE(std::string_view(moved->str, moved->len) == other);
    EXPECT_EQ(Command(c.get(), "LREM l 0 %b", big.data(), big.size())->integer, 2);
    EXPECT_EQ(Command(c.get(), "EXISTS l")->integer, 0);
  }
}

}  // namespace
}  // namespace kv::test
