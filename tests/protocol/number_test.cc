// ParseInt64 must accept exactly what Redis's string2ll (src/util.c) accepts.

#include "protocol/number.h"

#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <random>
#include <string>

namespace kv {
namespace {

TEST(ParseInt64Test, AcceptsCanonicalDecimals) {
  EXPECT_EQ(ParseInt64("0"), 0);
  EXPECT_EQ(ParseInt64("1"), 1);
  EXPECT_EQ(ParseInt64("-1"), -1);
  EXPECT_EQ(ParseInt64("10"), 10);
  EXPECT_EQ(ParseInt64("1234567890"), 1234567890);
  EXPECT_EQ(ParseInt64("-1234567890"), -1234567890);
  EXPECT_EQ(ParseInt64("100000000000000000"), 100000000000000000LL);
}

TEST(ParseInt64Test, ExactLimits) {
  EXPECT_EQ(ParseInt64("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(ParseInt64("-9223372036854775808"), INT64_MIN);
  EXPECT_EQ(ParseInt64("9223372036854775806"), INT64_MAX - 1);
  EXPECT_EQ(ParseInt64("-9223372036854775807"), INT64_MIN + 1);
  // One past each limit.
  EXPECT_EQ(ParseInt64("9223372036854775808"), std::nullopt);
  EXPECT_EQ(ParseInt64("-9223372036854775809"), std::nullopt);
  // Values that overflow an unsigned 64-bit accumulator too.
  EXPECT_EQ(ParseInt64("18446744073709551615"), std::nullopt);
  EXPECT_EQ(ParseInt64("18446744073709551616"), std::nullopt);
  EXPECT_EQ(ParseInt64("99999999999999999999"), std::nullopt);
  EXPECT_EQ(ParseInt64("-18446744073709551616"), std::nullopt);
  EXPECT_EQ(ParseInt64("-99999999999999999999"), std::nullopt);
}

TEST(ParseInt64Test, LengthLimit) {
  // string2ll rejects strings of 21 characters or more (LONG_STR_SIZE), even valid-looking ones.
  EXPECT_EQ(ParseInt64("-9223372036854775808").has_value(), true);  // 20 characters
  EXPECT_EQ(ParseInt64("-09223372036854775808"), std::nullopt);     // 21
  EXPECT_EQ(ParseInt64("000000000000000000001"), std::nullopt);     // 21
  EXPECT_EQ(ParseInt64("100000000000000000000"), std::nullopt);     // 21
  EXPECT_EQ(ParseInt64(std::string(1000, '1')), std::nullopt);
}

TEST(ParseInt64Test, RejectsNonCanonicalForms) {
  for (const char* s : {"",    "-",  "+",   "-0",  "+0",   "+1",  " 1",  "1 ", "\t1", "1\n",
                        "007", "00", "01",  "-01", "0x10", "1e3", "1.0", "1.", ".1",  "--1",
                        "-+1", "1-", "abc", "1a",  "a1",   "１",  "0 ",  " 0"}) {
    EXPECT_EQ(ParseInt64(s), std::nullopt) << '"' << s << '"';
  }
  EXPECT_EQ(ParseInt64(std::string("1\0", 2)), std::nullopt);
  EXPECT_EQ(ParseInt64(std::string("\0"
                                   "1",
                                   2)),
            std::nullopt);
  EXPECT_EQ(ParseInt64(std::string_view("12345").substr(0, 0)), std::nullopt);
}

TEST(ParseInt64Test, UsesOnlyTheViewBytes) {
  // The view is not NUL-terminated: bytes past its end must not matter.
  const std::string s = "12345";
  EXPECT_EQ(ParseInt64(std::string_view(s).substr(0, 3)), 123);
  EXPECT_EQ(ParseInt64(std::string_view(s).substr(1, 2)), 23);
}

TEST(ParseInt64Test, RoundTripsWithFormatInt64) {
  std::mt19937_64 rng(42);
  char buf[kMaxInt64Chars];
  auto check = [&](int64_t v) {
    const size_t n = FormatInt64(v, buf);
    ASSERT_LE(n, kMaxInt64Chars);
    const std::string text(buf, n);
    EXPECT_EQ(text, std::to_string(v));
    EXPECT_EQ(ParseInt64(text), v) << text;
  };
  for (int64_t v :
       {int64_t{0}, int64_t{1}, int64_t{-1}, int64_t{9}, int64_t{10}, int64_t{-10}, INT64_MAX,
        INT64_MIN, INT64_MAX - 1, INT64_MIN + 1, int64_t{INT_MAX}, int64_t{INT_MIN}}) {
    check(v);
  }
  for (int i = 0; i < 20000; ++i) {
    const int64_t v = static_cast<int64_t>(rng()) >> (rng() % 64);
    check(v);
  }
}

TEST(FormatInt64Test, Examples) {
  char buf[kMaxInt64Chars];
  EXPECT_EQ(std::string(buf, FormatInt64(0, buf)), "0");
  EXPECT_EQ(std::string(buf, FormatInt64(-5, buf)), "-5");
  EXPECT_EQ(std::string(buf, FormatInt64(INT64_MIN, buf)), "-9223372036854775808");
  EXPECT_EQ(FormatInt64(INT64_MIN, buf), 20u);
  EXPECT_EQ(std::string(buf, FormatInt64(INT64_MAX, buf)), "9223372036854775807");
}

// A direct transcription of the rules, to compare against on many generated strings.
std::optional<int64_t> ReferenceString2ll(const std::string& s) {
  if (s.empty() || s.size() >= 21) return std::nullopt;
  if (s == "0") return 0;
  size_t i = 0;
  bool negative = false;
  if (s[0] == '-') {
    negative = true;
    if (++i == s.size()) return std::nullopt;
  }
  if (s[i] < '1' || s[i] > '9') return std::nullopt;
  __int128 v = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    v = v * 10 + (s[i] - '0');
  }
  if (negative) v = -v;
  if (v > INT64_MAX || v < INT64_MIN) return std::nullopt;
  return static_cast<int64_t>(v);
}

TEST(ParseInt64Test, MatchesReferenceOnGeneratedStrings) {
  std::mt19937 rng(1234);
  const std::string alphabet = "0123456789-+ x";
  for (int i = 0; i < 200000; ++i) {
    std::string s(rng() % 22, ' ');
    for (char& c : s) {
      // Mostly digits, so that many strings are valid or overflow.
      c = (rng() % 8 != 0) ? static_cast<char>('0' + rng() % 10)
                           : alphabet[rng() % alphabet.size()];
    }
    if (rng() % 3 == 0 && !s.empty()) s[0] = '-';
    ASSERT_EQ(ParseInt64(s), ReferenceString2ll(s)) << '"' << s << '"';
  }
}

}  // namespace
}  // namespace kv
