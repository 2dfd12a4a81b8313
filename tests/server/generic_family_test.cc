// DEL, EXISTS, EXPIRE, PEXPIRE, TTL, PTTL, PERSIST through the real dispatcher, with the manual
// clock. Every expected reply is what Redis 7.0.15 sends for the same command.

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

const std::string kNotInt = Err("value is not an integer or out of range");
const std::string kNxConflict =
    Err("NX and XX, GT or LT options at the same time are not compatible");
const std::string kGtLtConflict = Err("GT and LT options at the same time are not compatible");

class GenericFamilyTest : public ::testing::Test {
 protected:
  CommandHarness h;
};

TEST_F(GenericFamilyTest, DelCountsOnlyLiveKeysOnce) {
  EXPECT_EQ(h.Run({"DEL", "a", "b", "a"}), Int(0));
  EXPECT_EQ(h.Run({"MSET", "a", "1", "b", "2", "c", "3"}), kOk);
  EXPECT_EQ(h.Run({"DEL", "a", "a", "b", "missing"}), Int(2));
  EXPECT_EQ(h.Run({"DBSIZE"}), Int(1));
  EXPECT_EQ(h.Run({"GET", "a"}), "$-1\r\n");
  EXPECT_EQ(h.Run({"GET", "c"}), Bulk("3"));
}

TEST_F(GenericFamilyTest, DelDoesNotCountAnExpiredKey) {
  EXPECT_EQ(h.Run({"SET", "k", "v", "PX", "10"}), kOk);
  h.clock().Advance(11);
  EXPECT_EQ(h.Run({"DEL", "k"}), Int(0));
}

TEST_F(GenericFamilyTest, ExistsCountsRepeats) {
  EXPECT_EQ(h.Run({"EXISTS", "a", "a", "b"}), Int(0));
  EXPECT_EQ(h.Run({"SET", "a", "1"}), kOk);
  EXPECT_EQ(h.Run({"EXISTS", "a", "a", "b"}), Int(2));
  EXPECT_EQ(h.Run({"exists", "A"}), Int(0));
}

TEST_F(GenericFamilyTest, ExpireAndTtl) {
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(-1));
  EXPECT_EQ(h.Run({"PTTL", "k"}), Int(-1));
  EXPECT_EQ(h.Run({"EXPIRE", "k", "100"}), Int(1));
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(100));
  EXPECT_EQ(h.Run({"PTTL", "k"}), Int(100'000));
  EXPECT_EQ(h.Run({"PEXPIRE", "k", "1500"}), Int(1));
  EXPECT_EQ(h.Run({"PTTL", "k"}), Int(1500));
  EXPECT_EQ(h.Run({"TTL", "missing"}), Int(-2));
  EXPECT_EQ(h.Run({"PTTL", "missing"}), Int(-2));
}

TEST_F(GenericFamilyTest, TtlRoundsToTheNearestSecond) {
  // TTL is (ms + 500) / 1000: 1499 ms is 1 s, 1500 ms is 2 s, 499 ms is 0 s.
  EXPECT_EQ(h.Run({"SET", "k", "v", "PX", "2000"}), kOk);
  h.clock().Advance(500);
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(2));
  h.clock().Advance(1);
  EXPECT_EQ(h.Run({"PTTL", "k"}), Int(1499));
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(1));
  h.clock().Advance(1000);
  EXPECT_EQ(h.Run({"PTTL", "k"}), Int(499));
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(0));
  h.clock().Advance(499);
  EXPECT_EQ(h.Run({"PTTL", "k"}), Int(0));
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(0));
  h.clock().Advance(1);
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(-2));
}

TEST_F(GenericFamilyTest, ExpireOnMissingKey) {
  EXPECT_EQ(h.Run({"EXPIRE", "missing", "10"}), Int(0));
  EXPECT_EQ(h.Run({"EXPIRE", "missing", "-10"}), Int(0));
  EXPECT_EQ(h.Run({"PEXPIRE", "missing", "10", "NX"}), Int(0));
  EXPECT_EQ(h.Run({"EXPIRE", "missing", "abc"}), kNotInt);
  EXPECT_EQ(h.Run({"EXISTS", "missing"}), Int(0));
}

TEST_F(GenericFamilyTest, NonPositiveTimeDeletesTheKey) {
  for (const std::vector<std::string>& cmd :
       std::vector<std::vector<std::string>>{{"EXPIRE", "k", "-1"},
                                             {"EXPIRE", "k", "0"},
                                             {"PEXPIRE", "k", "-5"},
                                             {"PEXPIRE", "k", "0"},
                                             {"PEXPIRE", "k", "-9223372036854775808"},
                                             {"EXPIRE", "k", "-9223372036854775"}}) {
    EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
    EXPECT_EQ(h.Run(cmd), Int(1)) << ::testing::PrintToString(cmd);
    EXPECT_EQ(h.Run({"EXISTS", "k"}), Int(0)) << ::testing::PrintToString(cmd);
  }
  // A deletion by EXPIRE is a deletion, not an expiry.
  EXPECT_EQ(h.state().dbs.ExpiredKeys(), 0u);
}

TEST_F(GenericFamilyTest, InvalidExpireTimes) {
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  const std::string kExpire = Err("invalid expire time in 'expire' command");
  const std::string kPExpire = Err("invalid expire time in 'pexpire' command");
  // Seconds that overflow when multiplied by 1000, either way.
  EXPECT_EQ(h.Run({"EXPIRE", "k", "9223372036854776"}), kExpire);
  EXPECT_EQ(h.Run({"EXPIRE", "k", "-9223372036854776"}), kExpire);
  // Times that overflow when the current time is added.
  EXPECT_EQ(h.Run({"EXPIRE", "k", "9223372036854775"}), kExpire);
  EXPECT_EQ(h.Run({"EXPIRE", "k", "9223372036854774"}), kExpire);
  EXPECT_EQ(h.Run({"PEXPIRE", "k", "9223372036854775807"}), kPExpire);
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(-1));
  // The largest time that does not overflow is accepted.
  const int64_t max_ms = INT64_MAX - h.clock().NowMs();
  EXPECT_EQ(h.Run({"PEXPIRE", "k", std::to_string(max_ms)}), Int(1));
  EXPECT_EQ(h.Run({"PTTL", "k"}), Int(max_ms));
  EXPECT_EQ(h.Run({"PEXPIRE", "k", std::to_string(max_ms + 1)}), kPExpire);
}

TEST_F(GenericFamilyTest, NonIntegerTimes) {
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  for (const char* t : {"abc", "1.5", "", " 1", "+1", "01", "9223372036854775808"}) {
    EXPECT_EQ(h.Run({"EXPIRE", "k", t}), kNotInt) << t;
    EXPECT_EQ(h.Run({"PEXPIRE", "k", t}), kNotInt) << t;
  }
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(-1));
}

TEST_F(GenericFamilyTest, ExpireOptionConflicts) {
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  EXPECT_EQ(h.Run({"EXPIRE", "k", "100", "NX", "XX"}), kNxConflict);
  EXPECT_EQ(h.Run({"EXPIRE", "k", "100", "nx", "gt"}), kNxConflict);
  EXPECT_EQ(h.Run({"PEXPIRE", "k", "100", "LT", "NX"}), kNxConflict);
  EXPECT_EQ(h.Run({"EXPIRE", "k", "100", "NX", "GT", "LT"}), kNxConflict);
  EXPECT_EQ(h.Run({"EXPIRE", "k", "100", "GT", "LT"}), kGtLtConflict);
  EXPECT_EQ(h.Run({"PEXPIRE", "k", "100", "lt", "XX", "gt"}), kGtLtConflict);
  // Options are checked before the time.
  EXPECT_EQ(h.Run({"EXPIRE", "k", "abc", "NX", "XX"}), kNxConflict);
  EXPECT_EQ(h.Run({"EXPIRE", "k", "abc", "foo"}), Err("Unsupported option foo"));
  EXPECT_EQ(h.Run({"EXPIRE", "k", "100", "XX", "foo"}), Err("Unsupported option foo"));
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(-1));
}

TEST_F(GenericFamilyTest, UnsupportedOptionText) {
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  // Printed as a C string (up to a NUL), with CR and LF made blanks.
  EXPECT_EQ(h.Run({"EXPIRE", "k", "10", std::string("foo\0bar", 7)}),
            Err("Unsupported option foo"));
  EXPECT_EQ(h.Run({"EXPIRE", "k", "10", "a\r\nb"}), Err("Unsupported option a  b"));
  // And compared as one: "nx\0zz" is NX.
  EXPECT_EQ(h.Run({"EXPIRE", "k", "10", std::string("nx\0zz", 5)}), Int(1));
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(10));
}

TEST_F(GenericFamilyTest, ExpireNx) {
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  EXPECT_EQ(h.Run({"EXPIRE", "k", "100", "NX", "nx"}), Int(1));
  EXPECT_EQ(h.Run({"EXPIRE", "k", "200", "NX"}), Int(0));
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(100));
}

TEST_F(GenericFamilyTest, ExpireXx) {
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  EXPECT_EQ(h.Run({"EXPIRE", "k", "100", "XX"}), Int(0));
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(-1));
  EXPECT_EQ(h.Run({"EXPIRE", "k", "100"}), Int(1));
  EXPECT_EQ(h.Run({"EXPIRE", "k", "20", "xx"}), Int(1));
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(20));
}

TEST_F(GenericFamilyTest, ExpireGt) {
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  // No TTL counts as an infinite one: GT never wins against it.
  EXPECT_EQ(h.Run({"EXPIRE", "k", "100", "GT"}), Int(0));
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(-1));
  EXPECT_EQ(h.Run({"EXPIRE", "k", "100"}), Int(1));
  EXPECT_EQ(h.Run({"EXPIRE", "k", "50", "GT"}), Int(0));
  EXPECT_EQ(h.Run({"EXPIRE", "k", "100", "GT"}), Int(0)) << "equal is not greater";
  EXPECT_EQ(h.Run({"EXPIRE", "k", "150", "Gt", "gT"}), Int(1));
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(150));
  EXPECT_EQ(h.Run({"EXPIRE", "k", "-1", "GT"}), Int(0));
  EXPECT_EQ(h.Run({"EXISTS", "k"}), Int(1));
}

TEST_F(GenericFamilyTest, ExpireLt) {
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  // No TTL is infinite, so any time is less.
  EXPECT_EQ(h.Run({"EXPIRE", "k", "300", "LT"}), Int(1));
  EXPECT_EQ(h.Run({"EXPIRE", "k", "400", "LT"}), Int(0));
  EXPECT_EQ(h.Run({"EXPIRE", "k", "300", "LT"}), Int(0)) << "equal is not less";
  EXPECT_EQ(h.Run({"EXPIRE", "k", "10", "lt"}), Int(1));
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(10));
  // A time in the past passes LT and deletes the key.
  EXPECT_EQ(h.Run({"EXPIRE", "k", "-1", "LT"}), Int(1));
  EXPECT_EQ(h.Run({"EXISTS", "k"}), Int(0));
}

TEST_F(GenericFamilyTest, ExpireXxWithGtAndLt) {
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  EXPECT_EQ(h.Run({"EXPIRE", "k", "100", "XX", "GT"}), Int(0));
  EXPECT_EQ(h.Run({"EXPIRE", "k", "10", "XX", "LT"}), Int(0));
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(-1));
  EXPECT_EQ(h.Run({"EXPIRE", "k", "50"}), Int(1));
  EXPECT_EQ(h.Run({"EXPIRE", "k", "100", "XX", "GT"}), Int(1));
  EXPECT_EQ(h.Run({"EXPIRE", "k", "10", "LT", "XX"}), Int(1));
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(10));
}

TEST_F(GenericFamilyTest, PexpireOptionsUseMilliseconds) {
  EXPECT_EQ(h.Run({"SET", "k", "v", "PX", "1000"}), kOk);
  EXPECT_EQ(h.Run({"PEXPIRE", "k", "1001", "GT"}), Int(1));
  EXPECT_EQ(h.Run({"PEXPIRE", "k", "1000", "LT"}), Int(1));
  EXPECT_EQ(h.Run({"PTTL", "k"}), Int(1000));
}

TEST_F(GenericFamilyTest, ExpiryWithTheManualClock) {
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  EXPECT_EQ(h.Run({"EXPIRE", "k", "10"}), Int(1));
  h.clock().Advance(9'999);
  EXPECT_EQ(h.Run({"PTTL", "k"}), Int(1));
  h.clock().Advance(1);
  // At the deadline itself the key still exists (Redis's keyIsExpired is now > deadline).
  EXPECT_EQ(h.Run({"EXISTS", "k"}), Int(1));
  EXPECT_EQ(h.Run({"PTTL", "k"}), Int(0));
  h.clock().Advance(1);
  EXPECT_EQ(h.Run({"EXISTS", "k"}), Int(0));
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(-2));
  EXPECT_EQ(h.Run({"PERSIST", "k"}), Int(0));
  EXPECT_EQ(h.Run({"EXPIRE", "k", "10"}), Int(0));
  EXPECT_EQ(h.Run({"DBSIZE"}), Int(0));
  EXPECT_EQ(h.state().dbs.ExpiredKeys(), 1u);
}

TEST_F(GenericFamilyTest, ExpireAtTheCurrentTimeDeletes) {
  // PEXPIRE 0 puts the deadline at now, which EXPIRE treats as already expired.
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  EXPECT_EQ(h.Run({"PEXPIRE", "k", "0"}), Int(1));
  EXPECT_EQ(h.Run({"EXISTS", "k"}), Int(0));
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  EXPECT_EQ(h.Run({"PEXPIRE", "k", "1"}), Int(1));
  EXPECT_EQ(h.Run({"PTTL", "k"}), Int(1));
}

TEST_F(GenericFamilyTest, Persist) {
  EXPECT_EQ(h.Run({"PERSIST", "missing"}), Int(0));
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  EXPECT_EQ(h.Run({"PERSIST", "k"}), Int(0));
  EXPECT_EQ(h.Run({"EXPIRE", "k", "10"}), Int(1));
  EXPECT_EQ(h.Run({"PERSIST", "k"}), Int(1));
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(-1));
  EXPECT_EQ(h.Run({"PERSIST", "k"}), Int(0));
  h.clock().Advance(20'000);
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("v"));
}

TEST_F(GenericFamilyTest, KeyspaceHitsAndMisses) {
  // EXISTS, TTL and PTTL read keys and count; DEL, EXPIRE and PERSIST do not.
  const ServerStats& st = h.state().stats;
  h.Run({"SET", "k", "v"});
  h.Run({"EXPIRE", "k", "100"});
  h.Run({"PERSIST", "k"});
  h.Run({"DEL", "zz"});
  EXPECT_EQ(st.keyspace_hits, 0u);
  EXPECT_EQ(st.keyspace_misses, 0u);
  h.Run({"EXISTS", "k", "nope"});
  h.Run({"TTL", "k"});
  h.Run({"PTTL", "nope"});
  EXPECT_EQ(st.keyspace_hits, 2u);
  EXPECT_EQ(st.keyspace_misses, 2u);
}

TEST_F(GenericFamilyTest, KeysLiveInTheSelectedDatabase) {
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  EXPECT_EQ(h.Run({"SELECT", "1"}), kOk);
  EXPECT_EQ(h.Run({"EXISTS", "k"}), Int(0));
  EXPECT_EQ(h.Run({"EXPIRE", "k", "10"}), Int(0));
  EXPECT_EQ(h.Run({"DEL", "k"}), Int(0));
  EXPECT_EQ(h.Run({"SELECT", "0"}), kOk);
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(-1));
}

TEST_F(GenericFamilyTest, ArityErrors) {
  EXPECT_EQ(h.Run({"DEL"}), Err("wrong number of arguments for 'del' command"));
  EXPECT_EQ(h.Run({"EXISTS"}), Err("wrong number of arguments for 'exists' command"));
  EXPECT_EQ(h.Run({"EXPIRE", "k"}), Err("wrong number of arguments for 'expire' command"));
  EXPECT_EQ(h.Run({"PEXPIRE", "k"}), Err("wrong number of arguments for 'pexpire' command"));
  EXPECT_EQ(h.Run({"TTL"}), Err("wrong number of arguments for 'ttl' command"));
  EXPECT_EQ(h.Run({"TTL", "a", "b"}), Err("wrong number of arguments for 'ttl' command"));
  EXPECT_EQ(h.Run({"PTTL", "a", "b"}), Err("wrong number of arguments for 'pttl' command"));
  EXPECT_EQ(h.Run({"PERSIST"}), Err("wrong number of arguments for 'persist' command"));
}

}  // namespace
}  // namespace kv::test
