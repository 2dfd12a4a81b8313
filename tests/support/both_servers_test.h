#pragma once

#include "gtest/gtest.h"
#include "tests/support/server_process.h"

namespace kv::test {

// The base of a differential test suite: one kvserver and one real redis-server, started once
// for the whole suite and shared by its tests. `Suite` (the derived class) gives each suite its
// own pair.
template <typename Suite>
class BothServersTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    kvserver_ = ServerProcess::StartKvserver().release();
    redis_ = ServerProcess::StartRedis().release();
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

}  // namespace kv::test
