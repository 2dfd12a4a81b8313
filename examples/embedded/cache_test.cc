// An application's tests against an embedded kvserver: a session cache whose entries expire
// (tested with the manual clock, no sleeping) and a client that retries while the server is
// loading (tested with an injected fault).

#include <hiredis/hiredis.h>
#include <kvserver/gtest.h>

#include <chrono>
#include <optional>
#include <string>

namespace {

// The code under test: a tiny session cache on top of hiredis.
class SessionCache {
 public:
  explicit SessionCache(redisContext* redis) : redis_(redis) {}

  void Put(const std::string& id, const std::string& user, std::chrono::seconds ttl) {
    Reply r(redisCommand(redis_, "SET session:%s %s EX %lld", id.c_str(), user.c_str(),
                         static_cast<long long>(ttl.count())));
  }

  // Retries while the server replies -LOADING, as a client must after a restart.
  std::optional<std::string> Get(const std::string& id, int* attempts) {
    for (*attempts = 1; *attempts <= 5; ++*attempts) {
      Reply r(redisCommand(redis_, "GET session:%s", id.c_str()));
      if (!r) return std::nullopt;
      if (r->type == REDIS_REPLY_ERROR && std::string(r->str).starts_with("LOADING")) continue;
      if (r->type != REDIS_REPLY_STRING) return std::nullopt;
      return std::string(r->str, r->len);
    }
    return std::nullopt;
  }

 private:
  struct Reply {
    explicit Reply(void* r) : reply(static_cast<redisReply*>(r)) {}
    ~Reply() { freeReplyObject(reply); }
    redisReply* operator->() const { return reply; }
    explicit operator bool() const { return reply != nullptr; }
    redisReply* reply;
  };
  redisContext* redis_;
};

class SessionCacheTest : public kvserver::testing::ServerTest {};

TEST_F(SessionCacheTest, SessionsExpireAfterTheirTtl) {
  SessionCache cache(redis());
  cache.Put("abc", "alice", std::chrono::seconds(30));
  int attempts = 0;
  clock().Advance(std::chrono::seconds(29));
  EXPECT_EQ(cache.Get("abc", &attempts), "alice");
  clock().Advance(std::chrono::seconds(2));
  EXPECT_EQ(cache.Get("abc", &attempts), std::nullopt);
  EXPECT_EQ(server().KeyCount(), 0u);
}

TEST_F(SessionCacheTest, GetRetriesWhileTheServerIsLoading) {
  SessionCache cache(redis());
  cache.Put("abc", "alice", std::chrono::seconds(30));
  InjectFault(kvserver::Fault::Error("LOADING Redis is loading the dataset in memory")
                  .Times(2)
                  .OnlyFor("get"));
  int attempts = 0;
  EXPECT_EQ(cache.Get("abc", &attempts), "alice");
  EXPECT_EQ(attempts, 3);
}

}  // namespace
