#pragma once

// A GoogleTest fixture with a fresh kvserver per test (target kvserver::gtest):
//
//   class CacheTest : public kvserver::testing::ServerTest {};
//   TEST_F(CacheTest, EntriesExpire) {
//     auto set = Command("SET session abc EX 30");
//     clock().Advance(std::chrono::seconds(31));
//     EXPECT_EQ(Command("GET session")->type, REDIS_REPLY_NIL);
//   }

#include <gtest/gtest.h>
#include <hiredis/hiredis.h>

#include <memory>

#include "kvserver/server.h"

namespace kvserver::testing {

struct RedisContextFree {
  void operator()(redisContext* c) const { redisFree(c); }
};
struct RedisReplyFree {
  void operator()(redisReply* r) const { freeReplyObject(r); }
};
using RedisConnection = std::unique_ptr<redisContext, RedisContextFree>;
using RedisReply = std::unique_ptr<redisReply, RedisReplyFree>;

// SetUp starts a server on a free loopback port with a ManualClock (time stands still unless the
// test moves it); TearDown stops it. Override ServerOptions() to add directives.
class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // The options SetUp starts the server with (the fixture adds its clock).
  virtual Options ServerOptions() { return Options(); }

  Server& server() { return *server_; }
  uint16_t port() const { return server_->port(); }
  ManualClock& clock() { return clock_; }
  void InjectFault(Fault fault) { server_->InjectFault(std::move(fault)); }

  // A new hiredis connection to the server; fails the test (and returns null) if it cannot
  // connect.
  RedisConnection Connect() const;
  // The test's own connection, made on first use.
  redisContext* redis();
  // Runs a command on redis() (hiredis's format: Command("SET %s %b", key, value, len)).
  // Null when the connection failed; check redis()->err then.
  RedisReply Command(const char* format, ...);

 private:
  ManualClock clock_;
  std::unique_ptr<Server> server_;
  RedisConnection redis_;
};

}  // namespace kvserver::testing
