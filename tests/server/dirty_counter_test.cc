// The dirty counter (Redis's server.dirty, INFO's rdb_changes_since_last_save) in-process: what
// each write command adds, as Redis 7.0.15 counts it (t_string.c, bitops.c, db.c, expire.c,
// functions.c), including the paths that add nothing; keys that expire count nothing, lazily or
// actively. The same counts are compared with the real redis-server in
// tests/differential/dirty_test.cc.

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <string_view>

#include "tests/support/command_harness.h"

namespace kv::test {
namespace {

class DirtyCounterTest : public ::testing::Test {
 protected:
  // Runs `args` and returns how many changes it counted.
  uint64_t Changes(std::initializer_list<std::string_view> args) {
    const uint64_t before = h_.state().dirty;
    h_.Run(args);
    return h_.state().dirty - before;
  }

  CommandHarness h_;
};

TEST_F(DirtyCounterTest, Strings) {
  EXPECT_EQ(Changes({"SET", "k", "v"}), 1u);
  EXPECT_EQ(Changes({"SET", "k", "v", "NX"}), 0u);
  EXPECT_EQ(Changes({"SET", "new", "v", "XX"}), 0u);
  EXPECT_EQ(Changes({"SET", "k", "w", "XX", "GET"}), 1u);
  EXPECT_EQ(Changes({"SETNX", "k", "v"}), 0u);
  EXPECT_EQ(Changes({"SETNX", "n", "1"}), 1u);
  EXPECT_EQ(Changes({"SETEX", "e", "100", "v"}), 1u);
  EXPECT_EQ(Changes({"SETEX", "e", "0", "v"}), 0u);  // invalid expire time
  EXPECT_EQ(Changes({"MSET", "a", "1", "b", "2", "a", "3"}), 3u);
  EXPECT_EQ(Changes({"MSETNX", "a", "1", "c", "2"}), 0u);
  EXPECT_EQ(Changes({"MSETNX", "c", "1", "d", "2"}), 2u);
  EXPECT_EQ(Changes({"INCR", "n"}), 1u);
  EXPECT_EQ(Changes({"INCRBY", "k", "1"}), 0u);  // not an integer
  EXPECT_EQ(Changes({"INCRBYFLOAT", "n", "0"}), 1u);
  EXPECT_EQ(Changes({"APPEND", "k", ""}), 1u);
  EXPECT_EQ(Changes({"SETRANGE", "k", "0", ""}), 0u);
  EXPECT_EQ(Changes({"SETRANGE", "missing", "3", ""}), 0u);
  EXPECT_EQ(Changes({"SETRANGE", "k", "0", "x"}), 1u);
  EXPECT_EQ(Changes({"GETSET", "k", "v"}), 1u);
  EXPECT_EQ(Changes({"GETDEL", "missing"}), 0u);
  EXPECT_EQ(Changes({"GETDEL", "k"}), 1u);
  EXPECT_EQ(Changes({"GETEX", "n"}), 0u);
  EXPECT_EQ(Changes({"GETEX", "n", "PERSIST"}), 0u);  // no TTL to remove
  EXPECT_EQ(Changes({"GETEX", "n", "EX", "100"}), 1u);
  EXPECT_EQ(Changes({"GETEX", "n", "PERSIST"}), 1u);
  EXPECT_EQ(Changes({"GETEX", "n", "EXAT", "1"}), 1u);  // in the past: deleted
  EXPECT_EQ(Changes({"GET", "a"}), 0u);
  EXPECT_EQ(Changes({"LCS", "a", "b"}), 0u);
}

TEST_F(DirtyCounterTest, Keyspace) {
  h_.Run({"MSET", "a", "1", "b", "2", "c", "3"});
  EXPECT_EQ(Changes({"DEL", "a", "b", "missing", "a"}), 2u);
  EXPECT_EQ(Changes({"UNLINK", "c", "missing"}), 1u);
  h_.Run({"MSET", "a", "1", "b", "2"});
  EXPECT_EQ(Changes({"EXPIRE", "a", "100", "XX"}), 0u);
  EXPECT_EQ(Changes({"EXPIRE", "a", "100"}), 1u);
  EXPECT_EQ(Changes({"EXPIRE", "a", "50", "GT"}), 0u);
  EXPECT_EQ(Changes({"PEXPIRE", "missing", "100"}), 0u);
  EXPECT_EQ(Changes({"PERSIST", "a"}), 1u);
  EXPECT_EQ(Changes({"PERSIST", "a"}), 0u);
  EXPECT_EQ(Changes({"RENAME", "a", "a"}), 0u);
  EXPECT_EQ(Changes({"RENAMENX", "a", "b"}), 0u);
  EXPECT_EQ(Changes({"RENAME", "a", "z"}), 1u);
  EXPECT_EQ(Changes({"COPY", "z", "b"}), 0u);
  EXPECT_EQ(Changes({"COPY", "z", "b", "REPLACE"}), 1u);
  EXPECT_EQ(Changes({"MOVE", "z", "1"}), 1u);
  EXPECT_EQ(Changes({"MOVE", "missing", "1"}), 0u);
  EXPECT_EQ(Changes({"SWAPDB", "0", "1"}), 1u);
  EXPECT_EQ(Changes({"TOUCH", "z"}), 0u);
  EXPECT_EQ(Changes({"EXPIREAT", "z", "1"}), 1u);  // in the past: deleted
  EXPECT_EQ(Changes({"FUNCTION", "FLUSH"}), 1u);
  h_.Run({"MSET", "a", "1", "b", "2"});
  h_.Run({"SELECT", "1"});
  h_.Run({"SET", "c", "3"});
  EXPECT_EQ(Changes({"FLUSHDB"}), 2u);  // db 1 held b (swapped in) and c
  EXPECT_EQ(Changes({"FLUSHALL"}), 2u);
  EXPECT_EQ(Changes({"FLUSHALL"}), 0u);
}

TEST_F(DirtyCounterTest, Bitmaps) {
  EXPECT_EQ(Changes({"SETBIT", "b", "0", "0"}), 1u);  // created
  EXPECT_EQ(Changes({"SETBIT", "b", "0", "0"}), 0u);
  EXPECT_EQ(Changes({"SETBIT", "b", "0", "1"}), 1u);
  EXPECT_EQ(Changes({"SETBIT", "b", "20", "0"}), 1u);                // grown
  EXPECT_EQ(Changes({"BITFIELD", "f", "SET", "i5", "0", "0"}), 1u);  // created
  EXPECT_EQ(Changes({"BITFIELD", "f", "SET", "i5", "0", "0", "SET", "u2", "0", "1"}), 1u);
  EXPECT_EQ(Changes({"BITFIELD", "f", "SET", "u8", "16", "0", "SET", "u2", "0", "1"}), 2u);
  EXPECT_EQ(Changes({"BITFIELD", "f", "OVERFLOW", "FAIL", "INCRBY", "u2", "0", "9"}), 0u);
  EXPECT_EQ(Changes({"BITFIELD", "f", "INCRBY", "u2", "0", "4"}), 0u);  // wraps to itself
  EXPECT_EQ(Changes({"BITFIELD", "f", "GET", "u8", "0"}), 0u);
  EXPECT_EQ(Changes({"BITOP", "AND", "dest", "missing"}), 0u);
  EXPECT_EQ(Changes({"BITOP", "OR", "dest", "b", "f"}), 1u);
  EXPECT_EQ(Changes({"BITOP", "AND", "dest", "missing"}), 1u);  // deletes dest
}

TEST_F(DirtyCounterTest, ExpiryCountsNothing) {
  h_.Run({"SET", "lazy", "v", "PX", "10"});
  h_.Run({"SET", "active", "v", "PX", "10"});
  const uint64_t before = h_.state().dirty;
  h_.clock().Advance(20);
  EXPECT_EQ(h_.Run({"GET", "lazy"}), "$-1\r\n");
  EXPECT_EQ(h_.Run({"DEL", "lazy"}), ":0\r\n");
  h_.state().dbs.ActiveExpireAll(h_.clock().NowMs());
  EXPECT_EQ(h_.Run({"DBSIZE"}), ":0\r\n");
  EXPECT_EQ(h_.state().dirty, before);
  // CONFIG RESETSTAT leaves it, as Redis's resetServerStats does.
  h_.Run({"CONFIG", "RESETSTAT"});
  EXPECT_EQ(h_.state().dirty, before);
}

}  // namespace
}  // namespace kv::test
