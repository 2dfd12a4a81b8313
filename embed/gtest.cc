#include "kvserver/gtest.h"

#include <cstdarg>

namespace kvserver::testing {

void ServerTest::SetUp() {
  server_ = std::make_unique<Server>(ServerOptions().UseClock(clock_));
  server_->Start();
}

void ServerTest::TearDown() {
  redis_.reset();
  server_.reset();
}

RedisConnection ServerTest::Connect() const {
  const Endpoint& at = server_->endpoint();
  RedisConnection c(redisConnect(at.host.c_str(), at.port));
  if (c == nullptr || c->err) {
    ADD_FAILURE() << "cannot connect to kvserver on " << at.host << ":" << at.port << ": "
                  << (c ? c->errstr : "out of memory");
    return nullptr;
  }
  return c;
}

redisContext* ServerTest::redis() {
  if (!redis_) redis_ = Connect();
  return redis_.get();
}

RedisReply ServerTest::Command(const char* format, ...) {
  redisContext* c = redis();
  if (c == nullptr) return nullptr;
  va_list ap;
  va_start(ap, format);
  void* reply = redisvCommand(c, format, ap);
  va_end(ap);
  return RedisReply(static_cast<redisReply*>(reply));
}

}  // namespace kvserver::testing
