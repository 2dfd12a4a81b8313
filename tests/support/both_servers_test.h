#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/reply_pair.h"
#include "tests/support/resp_client.h"
#include "tests/support/server_process.h"

namespace kv::test {

// The base of a differential test suite: one kvserver and one real redis-server, started once
// for the whole suite and shared by its tests. `Suite` (the derived class) gives each suite its
// own pair, and may start both with options by declaring its own (public) ServerArgs().
template <typename Suite>
class BothServersTest : public ::testing::Test {
 protected:
  static std::vector<std::string> ServerArgs() { return {}; }
  static void SetUpTestSuite() {
    kvserver_ = ServerProcess::StartKvserver(Suite::ServerArgs()).release();
    redis_ = ServerProcess::StartRedis(Suite::ServerArgs()).release();
  }
  static void TearDownTestSuite() {
    delete kvserver_;
    delete redis_;
    kvserver_ = nullptr;
    redis_ = nullptr;
  }
  void SetUp() override {
    ASSERT_NE(kvserver_, nullptr);
    ASSERT_NE(redis_, nullptr);
  }

  static inline ServerProcess* kvserver_ = nullptr;
  static inline ServerProcess* redis_ = nullptr;
};

// A BothServersTest whose tests each get a fresh connection to either server.
template <typename Suite>
class ConnectedBothServersTest : public BothServersTest<Suite> {
 protected:
  void SetUp() override {
    BothServersTest<Suite>::SetUp();
    if (this->HasFatalFailure()) return;
    kv_ = RawConnection::Connect(this->kvserver_->port());
    redis_conn_ = RawConnection::Connect(this->redis_->port());
    ASSERT_TRUE(kv_ && redis_conn_) << "cannot connect";
  }

  // Sends `args` to both servers (no FLUSHALL first); returns {kvserver's reply, Redis's}.
  std::pair<std::string, std::string> Both(const Args& args) {
    const std::string request = EncodeCommand(args);
    kv_->Send(request);
    redis_conn_->Send(request);
    return {kv_->ReadReply().value_or("<no reply>"),
            redis_conn_->ReadReply().value_or("<no reply>")};
  }

  void ExpectSameReplies(const std::vector<Args>& commands, const SameReply& same = {}) {
    kv::test::ExpectSameReplies(*kv_, *redis_conn_, commands, same);
  }

  std::unique_ptr<RawConnection> kv_, redis_conn_;
};

}  // namespace kv::test
