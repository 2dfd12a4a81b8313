// GET, SET, INCR/DECR/INCRBY/DECRBY, MSET, MGET through the real dispatcher. Every expected reply
// is what Redis 7.0.15 sends for the same command.

#include <string>

#include "gtest/gtest.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

const std::string kSyntax = Err("syntax error");
const std::string kNotInt = Err("value is not an integer or out of range");
const std::string kInvalidExpire = Err("invalid expire time in 'set' command");

class StringFamilyTest : public ::testing::Test {
 protected:
  CommandHarness h;
  int64_t now() { return h.clock().NowMs(); }
};

TEST_F(StringFamilyTest, GetMissingAndPresent) {
  EXPECT_EQ(h.Run({"GET", "k"}), kNil);
  EXPECT_EQ(h.Run({"SET", "k", "hello"}), kOk);
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("hello"));
  EXPECT_EQ(h.Run({"get", "K"}), kNil) << "keys are case-sensitive";
}

TEST_F(StringFamilyTest, BinarySafeValues) {
  const std::string value("a\0b\r\n", 5);
  EXPECT_EQ(h.Run({"SET", "k", value}), kOk);
  EXPECT_EQ(h.Run({"GET", "k"}), "$5\r\n" + value + "\r\n");
  EXPECT_EQ(h.Run({"SET", "empty", ""}), kOk);
  EXPECT_EQ(h.Run({"GET", "empty"}), "$0\r\n\r\n");
}

TEST_F(StringFamilyTest, SetClearsTtl) {
  EXPECT_EQ(h.Run({"SET", "k", "v", "EX", "100"}), kOk);
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(100));
  EXPECT_EQ(h.Run({"SET", "k", "w"}), kOk);
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(-1));
}

TEST_F(StringFamilyTest, SetNxXx) {
  EXPECT_EQ(h.Run({"SET", "k", "v", "XX"}), kNil);
  EXPECT_EQ(h.Run({"EXISTS", "k"}), Int(0));
  EXPECT_EQ(h.Run({"SET", "k", "v", "NX"}), kOk);
  EXPECT_EQ(h.Run({"SET", "k", "w", "nx"}), kNil);
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("v"));
  EXPECT_EQ(h.Run({"SET", "k", "w", "xx"}), kOk);
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("w"));
  // Repeating a flag is allowed; only the other one of the pair is not.
  EXPECT_EQ(h.Run({"SET", "k", "x", "nx", "nx"}), kNil);
  EXPECT_EQ(h.Run({"SET", "k", "x", "xx", "xx"}), kOk);
}

TEST_F(StringFamilyTest, SetGet) {
  EXPECT_EQ(h.Run({"SET", "k", "v", "GET"}), kNil);
  EXPECT_EQ(h.Run({"SET", "k", "w", "get"}), Bulk("v"));
  EXPECT_EQ(h.Run({"SET", "k", "x", "GET", "GET"}), Bulk("w"));
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("x"));
}

TEST_F(StringFamilyTest, SetGetWithNxXx) {
  // NX with GET (allowed since Redis 7.0): the old value, and no change when it exists.
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  EXPECT_EQ(h.Run({"SET", "k", "w", "NX", "GET"}), Bulk("v"));
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("v"));
  EXPECT_EQ(h.Run({"SET", "new", "v", "NX", "GET"}), kNil);
  EXPECT_EQ(h.Run({"GET", "new"}), Bulk("v"));
  EXPECT_EQ(h.Run({"SET", "missing", "v", "XX", "GET"}), kNil);
  EXPECT_EQ(h.Run({"EXISTS", "missing"}), Int(0));
  EXPECT_EQ(h.Run({"SET", "k", "z", "XX", "GET"}), Bulk("v"));
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("z"));
}

TEST_F(StringFamilyTest, SetExpireOptions) {
  EXPECT_EQ(h.Run({"SET", "ex", "v", "EX", "10"}), kOk);
  EXPECT_EQ(h.Run({"PTTL", "ex"}), Int(10000));
  EXPECT_EQ(h.Run({"SET", "px", "v", "PX", "1500"}), kOk);
  EXPECT_EQ(h.Run({"PTTL", "px"}), Int(1500));
  EXPECT_EQ(h.Run({"SET", "exat", "v", "EXAT", std::to_string(now() / 1000 + 20)}), kOk);
  EXPECT_EQ(h.Run({"PTTL", "exat"}), Int(20000 - now() % 1000));
  EXPECT_EQ(h.Run({"SET", "pxat", "v", "PXAT", std::to_string(now() + 2500)}), kOk);
  EXPECT_EQ(h.Run({"PTTL", "pxat"}), Int(2500));
  // A repeated expiry option: the last one counts.
  EXPECT_EQ(h.Run({"SET", "k", "v", "EX", "10", "ex", "20"}), kOk);
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(20));
}

TEST_F(StringFamilyTest, SetKeepTtl) {
  EXPECT_EQ(h.Run({"SET", "k", "v", "PX", "5000"}), kOk);
  h.clock().Advance(1000);
  EXPECT_EQ(h.Run({"SET", "k", "w", "KEEPTTL"}), kOk);
  EXPECT_EQ(h.Run({"PTTL", "k"}), Int(4000));
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("w"));
  EXPECT_EQ(h.Run({"SET", "k", "x", "keepttl", "keepttl"}), kOk);
  EXPECT_EQ(h.Run({"PTTL", "k"}), Int(4000));
  EXPECT_EQ(h.Run({"SET", "nottl", "v", "KEEPTTL"}), kOk);
  EXPECT_EQ(h.Run({"TTL", "nottl"}), Int(-1));
}

TEST_F(StringFamilyTest, SetInvalidCombinationsAreSyntaxErrors) {
  const std::vector<std::vector<std::string>> cases = {
      {"SET", "k", "v", "NX", "XX"},
      {"SET", "k", "v", "XX", "NX"},
      {"SET", "k", "v", "EX", "10", "PX", "100"},
      {"SET", "k", "v", "PX", "100", "EX", "10"},
      {"SET", "k", "v", "EX", "10", "EXAT", "10"},
      {"SET", "k", "v", "EXAT", "100", "EX", "1"},
      {"SET", "k", "v", "PX", "100", "PXAT", "100"},
      {"SET", "k", "v", "PXAT", "1", "EX", "1"},
      {"SET", "k", "v", "EXAT", "1", "PXAT", "1"},
      {"SET", "k", "v", "EX", "10", "KEEPTTL"},
      {"SET", "k", "v", "KEEPTTL", "EX", "10"},
      {"SET", "k", "v", "KEEPTTL", "PX", "10"},
      {"SET", "k", "v", "KEEPTTL", "EXAT", "10"},
      {"SET", "k", "v", "PXAT", "10", "KEEPTTL"},
      {"SET", "k", "v", "EX"},
      {"SET", "k", "v", "PX"},
      {"SET", "k", "v", "EXAT"},
      {"SET", "k", "v", "GET", "PXAT"},
      {"SET", "k", "v", "foo"},
      {"SET", "k", "v", "NX", "bar"},
      {"SET", "k", "v", "ex", "abc", "foo"},
      {"SET", "k", "v", "foo", "ex", "abc"},
      {"SET", "k", "v", "EXX", "1"},
      {"SET", "k", "v", "PERSIST"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(h.Run(c), kSyntax) << ::testing::PrintToString(c);
  }
  EXPECT_EQ(h.Run({"EXISTS", "k"}), Int(0)) << "no failed SET may write";
}

TEST_F(StringFamilyTest, SetOptionsAreCaseInsensitive) {
  EXPECT_EQ(h.Run({"set", "k", "v", "nX", "Ex", "5"}), kOk);
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(5));
  EXPECT_EQ(h.Run({"set", "k", "v", "xX", "pXaT", std::to_string(now() + 100), "gEt"}), Bulk("v"));
  EXPECT_EQ(h.Run({"PTTL", "k"}), Int(100));
}

TEST_F(StringFamilyTest, SetOptionEndsAtNulByte) {
  // Redis reads options as C strings, so "nx\0junk" is NX.
  EXPECT_EQ(h.Run({"SET", "k", "v", std::string("nx\0junk", 7)}), kOk);
  EXPECT_EQ(h.Run({"SET", "k", "w", std::string("NX\0", 3)}), kNil);
}

TEST_F(StringFamilyTest, SetInvalidExpireTimes) {
  for (const char* opt : {"EX", "PX", "EXAT", "PXAT"}) {
    EXPECT_EQ(h.Run({"SET", "k", "v", opt, "0"}), kInvalidExpire) << opt;
    EXPECT_EQ(h.Run({"SET", "k", "v", opt, "-1"}), kInvalidExpire) << opt;
    EXPECT_EQ(h.Run({"SET", "k", "v", opt, "-9223372036854775808"}), kInvalidExpire) << opt;
  }
  // Seconds that overflow when turned into milliseconds.
  EXPECT_EQ(h.Run({"SET", "k", "v", "EX", "9223372036854776"}), kInvalidExpire);
  EXPECT_EQ(h.Run({"SET", "k", "v", "EXAT", "9223372036854776"}), kInvalidExpire);
  // Relative times that overflow when the current time is added.
  EXPECT_EQ(h.Run({"SET", "k", "v", "EX", "9223372036854775"}), kInvalidExpire);
  EXPECT_EQ(h.Run({"SET", "k", "v", "PX", "9223372036854775807"}), kInvalidExpire);
  EXPECT_EQ(h.Run({"EXISTS", "k"}), Int(0));
  // Absolute times are not added to anything: the largest ones are fine.
  EXPECT_EQ(h.Run({"SET", "k", "v", "EXAT", "9223372036854775"}), kOk);
  EXPECT_EQ(h.Run({"PTTL", "k"}), Int(9223372036854775000 - now()));
  EXPECT_EQ(h.Run({"SET", "k", "v", "PXAT", "9223372036854775807"}), kOk);
  EXPECT_EQ(h.Run({"PTTL", "k"}), Int(9223372036854775807 - now()));
}

TEST_F(StringFamilyTest, SetNonIntegerExpire) {
  for (const char* value : {"abc", "1.5", "", " 1", "+1", "01", "9223372036854775808", "1e3"}) {
    EXPECT_EQ(h.Run({"SET", "k", "v", "EX", value}), kNotInt) << value;
    EXPECT_EQ(h.Run({"SET", "k", "v", "PXAT", value}), kNotInt) << value;
  }
  // Options are all parsed before the time is.
  EXPECT_EQ(h.Run({"SET", "k", "v", "EX", "10", "ex", "abc"}), kNotInt);
  EXPECT_EQ(h.Run({"SET", "k", "v", "EX", "abc", "NX", "XX"}), kSyntax);
}

TEST_F(StringFamilyTest, AbsoluteExpireInThePastIsAcceptedAndTheKeyIsGone) {
  EXPECT_EQ(h.Run({"SET", "k", "v", "PXAT", "1"}), kOk);
  EXPECT_EQ(h.Run({"GET", "k"}), kNil);
  EXPECT_EQ(h.Run({"SET", "k", "v", "EXAT", "1"}), kOk);
  EXPECT_EQ(h.Run({"EXISTS", "k"}), Int(0));
}

TEST_F(StringFamilyTest, KeyExpiresRightAfterItsDeadline) {
  // Redis's keyIsExpired is "now > deadline": during its last millisecond the key is still there
  // with a PTTL of 0, and one millisecond later it is gone.
  EXPECT_EQ(h.Run({"SET", "k", "v", "PX", "100"}), kOk);
  h.clock().Advance(99);
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("v"));
  EXPECT_EQ(h.Run({"PTTL", "k"}), Int(1));
  h.clock().Advance(1);
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("v"));
  EXPECT_EQ(h.Run({"PTTL", "k"}), Int(0));
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(0));
  h.clock().Advance(1);
  EXPECT_EQ(h.Run({"GET", "k"}), kNil);
  EXPECT_EQ(h.Run({"PTTL", "k"}), Int(-2));
  EXPECT_EQ(h.Run({"EXISTS", "k"}), Int(0));
}

TEST_F(StringFamilyTest, ExpiredKeyCountsAsMissingForNxXx) {
  EXPECT_EQ(h.Run({"SET", "k", "v", "EX", "1"}), kOk);
  h.clock().Advance(1001);
  EXPECT_EQ(h.Run({"SET", "k", "w", "XX"}), kNil);
  EXPECT_EQ(h.Run({"SET", "k", "w", "NX", "GET"}), kNil);
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("w"));
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(-1));
}

TEST_F(StringFamilyTest, Incr) {
  EXPECT_EQ(h.Run({"INCR", "n"}), Int(1));
  EXPECT_EQ(h.Run({"INCR", "n"}), Int(2));
  EXPECT_EQ(h.Run({"DECR", "n"}), Int(1));
  EXPECT_EQ(h.Run({"DECR", "m"}), Int(-1));
  EXPECT_EQ(h.Run({"INCRBY", "n", "10"}), Int(11));
  EXPECT_EQ(h.Run({"INCRBY", "n", "-20"}), Int(-9));
  EXPECT_EQ(h.Run({"DECRBY", "n", "-9"}), Int(0));
  EXPECT_EQ(h.Run({"DECRBY", "n", "5"}), Int(-5));
  EXPECT_EQ(h.Run({"GET", "n"}), Bulk("-5"));
  EXPECT_EQ(h.Run({"SET", "s", "41"}), kOk);
  EXPECT_EQ(h.Run({"INCR", "s"}), Int(42));
  EXPECT_EQ(h.Run({"GET", "s"}), Bulk("42"));
}

TEST_F(StringFamilyTest, IncrOnNonIntegerValues) {
  for (const char* value : {"abc", "", " 1", "1 ", "1.0", "01", "-0", "+1", "0x10",
                            "9223372036854775808", "-9223372036854775809"}) {
    EXPECT_EQ(h.Run({"SET", "n", value}), kOk);
    EXPECT_EQ(h.Run({"INCR", "n"}), kNotInt) << value;
    EXPECT_EQ(h.Run({"DECRBY", "n", "1"}), kNotInt) << value;
    EXPECT_EQ(h.Run({"GET", "n"}), Bulk(value)) << "a failed INCR changes nothing";
  }
}

TEST_F(StringFamilyTest, IncrByNonIntegerArgument) {
  for (const char* incr : {"abc", "1.5", "", "9223372036854775808", "-9223372036854775809"}) {
    EXPECT_EQ(h.Run({"INCRBY", "n", incr}), kNotInt) << incr;
    EXPECT_EQ(h.Run({"DECRBY", "n", incr}), kNotInt) << incr;
  }
  EXPECT_EQ(h.Run({"EXISTS", "n"}), Int(0)) << "a failed INCRBY creates no key";
}

TEST_F(StringFamilyTest, IncrOverflow) {
  const std::string kOverflow = Err("increment or decrement would overflow");
  EXPECT_EQ(h.Run({"SET", "n", "9223372036854775807"}), kOk);
  EXPECT_EQ(h.Run({"INCR", "n"}), kOverflow);
  EXPECT_EQ(h.Run({"INCRBY", "n", "1"}), kOverflow);
  EXPECT_EQ(h.Run({"DECRBY", "n", "-1"}), kOverflow);
  EXPECT_EQ(h.Run({"GET", "n"}), Bulk("9223372036854775807"));
  EXPECT_EQ(h.Run({"DECR", "n"}), Int(9223372036854775806));
  EXPECT_EQ(h.Run({"SET", "n", "-9223372036854775808"}), kOk);
  EXPECT_EQ(h.Run({"DECR", "n"}), kOverflow);
  EXPECT_EQ(h.Run({"INCRBY", "n", "-1"}), kOverflow);
  EXPECT_EQ(h.Run({"INCRBY", "n", "9223372036854775807"}), Int(-1));
  EXPECT_EQ(h.Run({"INCRBY", "m", "-9223372036854775808"}), Int(INT64_MIN));
  EXPECT_EQ(h.Run({"DECRBY", "m", "1"}), kOverflow);
}

TEST_F(StringFamilyTest, DecrByLlongMin) {
  // Negating LLONG_MIN overflows: Redis has its own message for it, even on a missing key.
  EXPECT_EQ(h.Run({"DECRBY", "n", "-9223372036854775808"}), Err("decrement would overflow"));
  EXPECT_EQ(h.Run({"EXISTS", "n"}), Int(0));
  EXPECT_EQ(h.Run({"SET", "n", "5"}), kOk);
  EXPECT_EQ(h.Run({"DECRBY", "n", "-9223372036854775808"}), Err("decrement would overflow"));
  EXPECT_EQ(h.Run({"DECRBY", "n", "-9223372036854775807"}),
            Err("increment or decrement would overflow"));
  EXPECT_EQ(h.Run({"DECRBY", "n", "9223372036854775807"}), Int(5 - INT64_MAX));
}

TEST_F(StringFamilyTest, IncrKeepsTtl) {
  EXPECT_EQ(h.Run({"SET", "n", "5", "EX", "100"}), kOk);
  h.clock().Advance(10'000);
  EXPECT_EQ(h.Run({"INCR", "n"}), Int(6));
  EXPECT_EQ(h.Run({"INCRBY", "n", "4"}), Int(10));
  EXPECT_EQ(h.Run({"DECR", "n"}), Int(9));
  EXPECT_EQ(h.Run({"PTTL", "n"}), Int(90'000));
  h.clock().Advance(90'001);
  EXPECT_EQ(h.Run({"INCR", "n"}), Int(1)) << "an expired counter starts again at 0";
  EXPECT_EQ(h.Run({"TTL", "n"}), Int(-1));
}

TEST_F(StringFamilyTest, MSetMGet) {
  EXPECT_EQ(h.Run({"MSET", "a", "1", "b", "2", "a", "3"}), kOk);
  EXPECT_EQ(h.Run({"MGET", "a", "b", "c"}), "*3\r\n" + Bulk("3") + Bulk("2") + kNil);
  EXPECT_EQ(h.Run({"MGET", "c"}), "*1\r\n$-1\r\n");
}

TEST_F(StringFamilyTest, MSetOddArgumentsIsAnArityError) {
  const std::string kArity = Err("wrong number of arguments for 'mset' command");
  EXPECT_EQ(h.Run({"MSET", "a"}), kArity);
  EXPECT_EQ(h.Run({"MSET", "a", "1", "b"}), kArity);
  EXPECT_EQ(h.Run({"EXISTS", "a"}), Int(0));
}

TEST_F(StringFamilyTest, MSetClearsTtl) {
  EXPECT_EQ(h.Run({"SET", "t", "v", "EX", "100"}), kOk);
  EXPECT_EQ(h.Run({"MSET", "t", "1", "u", "2"}), kOk);
  EXPECT_EQ(h.Run({"TTL", "t"}), Int(-1));
  EXPECT_EQ(h.Run({"GET", "t"}), Bulk("1"));
}

TEST_F(StringFamilyTest, Resp3Nulls) {
  h.conn().protocol = 3;
  EXPECT_EQ(h.Run({"GET", "k"}), "_\r\n");
  EXPECT_EQ(h.Run({"MGET", "k"}), "*1\r\n_\r\n");
  EXPECT_EQ(h.Run({"SET", "k", "v", "XX"}), "_\r\n");
  EXPECT_EQ(h.Run({"SET", "k", "v", "GET"}), "_\r\n");
}

TEST_F(StringFamilyTest, KeyspaceHitsAndMisses) {
  // GET, MGET and SET ... GET read keys and count; SET, INCR and MSET do not.
  const ServerStats& st = h.state().stats;
  h.Run({"SET", "k", "v"});
  h.Run({"INCR", "n"});
  h.Run({"MSET", "a", "1"});
  EXPECT_EQ(st.keyspace_hits, 0u);
  EXPECT_EQ(st.keyspace_misses, 0u);
  h.Run({"GET", "k"});
  h.Run({"GET", "missing"});
  h.Run({"MGET", "k", "missing", "a"});
  h.Run({"SET", "k", "w", "GET"});
  h.Run({"SET", "other", "w", "GET"});
  EXPECT_EQ(st.keyspace_hits, 4u);
  EXPECT_EQ(st.keyspace_misses, 3u);
}

TEST_F(StringFamilyTest, ArityErrors) {
  EXPECT_EQ(h.Run({"GET"}), Err("wrong number of arguments for 'get' command"));
  EXPECT_EQ(h.Run({"GET", "a", "b"}), Err("wrong number of arguments for 'get' command"));
  EXPECT_EQ(h.Run({"SET", "k"}), Err("wrong number of arguments for 'set' command"));
  EXPECT_EQ(h.Run({"INCR"}), Err("wrong number of arguments for 'incr' command"));
  EXPECT_EQ(h.Run({"INCR", "a", "b"}), Err("wrong number of arguments for 'incr' command"));
  EXPECT_EQ(h.Run({"DECR"}), Err("wrong number of arguments for 'decr' command"));
  EXPECT_EQ(h.Run({"INCRBY", "a"}), Err("wrong number of arguments for 'incrby' command"));
  EXPECT_EQ(h.Run({"DECRBY", "a", "1", "2"}),
            Err("wrong number of arguments for 'decrby' command"));
  EXPECT_EQ(h.Run({"MSET"}), Err("wrong number of arguments for 'mset' command"));
  EXPECT_EQ(h.Run({"MGET"}), Err("wrong number of arguments for 'mget' command"));
}

}  // namespace
}  // namespace kv::test
