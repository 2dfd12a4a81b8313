// maxmemory against the real binary: with allkeys-lru and a 2 MB limit, writing 10 MB keeps the
// allocator's use near the limit, keys are evicted, and keys read recently outlive keys nobody
// touched.

#include <unistd.h>

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/integration/raw_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

long long InfoNumber(redisContext* c, const std::string& field) {
  return std::stoll(InfoField(c, field));
}

bool Exists(redisContext* c, const std::string& key) {
  Reply r = Command(c, "EXISTS %s", key.c_str());
  return r && r->integer == 1;
}

TEST(Maxmemory, AllkeysLruKeepsRecentlyReadKeysAndMemoryNearTheLimit) {
  auto server =
      ServerProcess::StartKvserver({"--maxmemory", "2mb", "--maxmemory-policy", "allkeys-lru"});
  ASSERT_TRUE(server);
  auto c = server->Connect();
  ASSERT_EQ(InfoField(c.get(), "maxmemory"), "2097152");
  ASSERT_EQ(InfoField(c.get(), "maxmemory_human"), "2.00M");
  ASSERT_EQ(InfoField(c.get(), "maxmemory_policy"), "allkeys-lru");
  const std::string value(1024, 'v');

  // Fill until eviction starts; every key then alive was written in the same second or so.
  std::vector<std::string> old;
  for (int i = 0; InfoNumber(c.get(), "evicted_keys") == 0; ++i) {
    ASSERT_LT(i, 10000) << "nothing evicted";
    old.push_back("old:" + std::to_string(i));
    ASSERT_EQ(Str(Command(c.get(), "SET %s %b", old.back().c_str(), value.data(), value.size())),
              "OK");
  }
  std::vector<std::string> alive;
  for (const std::string& key : old) {
    if (Exists(c.get(), key)) alive.push_back(key);
  }
  ASSERT_GT(alive.size(), 200u);
  // The LRU clock counts seconds: a second later half of them are read, another second later
  // new keys replace about half of the old ones.
  sleep(1);
  for (size_t i = 0; i < alive.size(); i += 2) {
    ASSERT_TRUE(Command(c.get(), "GET %s", alive[i].c_str()));
  }
  sleep(1);
  for (int i = 0; i < static_cast<int>(alive.size() / 2); ++i) {
    ASSERT_EQ(Str(Command(c.get(), "SET new:%d %b", i, value.data(), value.size())), "OK");
  }
  size_t read_alive = 0, untouched_alive = 0;
  for (size_t i = 0; i < alive.size(); ++i) {
    (i % 2 == 0 ? read_alive : untouched_alive) += Exists(c.get(), alive[i]);
  }
  // With 5 samples per round and a pool of 16 candidates, the untouched keys go first.
  EXPECT_GT(read_alive, 3 * untouched_alive + 10)
      << "read " << read_alive << " untouched " << untouched_alive << " of " << alive.size();

  // 10,000 keys of 1 KB: about five times the limit.
  long long peak = 0;
  for (int i = 0; i < 10000; ++i) {
    ASSERT_EQ(Str(Command(c.get(), "SET bulk:%d %b", i, value.data(), value.size())), "OK") << i;
    if (i % 250 == 0) peak = std::max(peak, InfoNumber(c.get(), "used_memory"));
  }
  const long long used = InfoNumber(c.get(), "used_memory");
  EXPECT_LT(std::max(peak, used), 2 * 1024 * 1024 + 200 * 1024);
  EXPECT_GT(used, 2 * 1024 * 1024 - 400 * 1024);
  EXPECT_GT(InfoNumber(c.get(), "evicted_keys"), 8000);
  Reply dbsize = Command(c.get(), "DBSIZE");
  EXPECT_LT(dbsize->integer, 2000);
  EXPECT_TRUE(Exists(c.get(), "bulk:9999"));
}

TEST(Maxmemory, NoevictionRefusesWritesWithRedisError) {
  auto server = ServerProcess::StartKvserver({"--maxmemory", "1mb"});
  ASSERT_TRUE(server);
  auto c = server->Connect();
  // The server's own start-up use is already about 1 MB; fill up to the limit if it is not.
  const std::string value(1024, 'v');
  std::string reply;
  for (int i = 0; i < 5000; ++i) {
    reply = Str(Command(c.get(), "SET k:%d %b", i, value.data(), value.size()));
    if (reply != "OK") break;
  }
  EXPECT_EQ(reply, "OOM command not allowed when used memory > 'maxmemory'.");
  EXPECT_EQ(InfoField(c.get(), "evicted_keys"), "0");
  EXPECT_EQ(Str(Command(c.get(), "PING")), "PONG");
  Reply dbsize = Command(c.get(), "DBSIZE");
  if (dbsize->integer > 0) {
    EXPECT_EQ(Command(c.get(), "GET k:0")->len, 1024u);
  }
}

}  // namespace
}  // namespace kv::test
