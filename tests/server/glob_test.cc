// GlobMatch against Redis's stringmatchlen: *, ?, [abc], [^a-z], ranges either way round,
// backslash escapes (also inside brackets), unterminated brackets and case folding. Each expected
// result was produced by Redis 7.0.15's own stringmatchlen on the same pattern and string,
// including its quirks ("*" does not match the empty string, "[]" matches nothing).

#include "server/glob.h"

#include <string>

#include "gtest/gtest.h"

namespace kv {
namespace {

struct GlobCase {
  const char* pattern;
  const char* str;
  bool nocase;
  bool match;
};

class RedisGlobTest : public ::testing::TestWithParam<GlobCase> {};

TEST_P(RedisGlobTest, MatchesLikeRedis) {
  const GlobCase& c = GetParam();
  EXPECT_EQ(GlobMatch(c.pattern, c.str, c.nocase), c.match)
      << "pattern '" << c.pattern << "' string '" << c.str << "' nocase " << c.nocase;
}

constexpr GlobCase kCases[] = {
    {"*", "", false, false},
    {"*", "anything", false, true},
    {"", "", false, true},
    {"", "a", false, false},
    {"a", "", false, false},
    {"h*llo", "hllo", false, true},
    {"h*llo", "heeeello", false, true},
    {"h*llo", "hello world", false, false},
    {"*o", "hello", false, true},
    {"h*", "hello", false, true},
    {"**a**", "xxaxx", false, true},
    {"a*b*c", "aXXbYYc", false, true},
    {"a*b*c", "aXXcYYb", false, false},
    {"*a*", "bbb", false, false},
    {"h?llo", "hello", false, true},
    {"h?llo", "hllo", false, false},
    {"h?llo", "heello", false, false},
    {"???", "abc", false, true},
    {"???", "ab", false, false},
    {"?", "", false, false},
    {"h[ae]llo", "hello", false, true},
    {"h[ae]llo", "hallo", false, true},
    {"h[ae]llo", "hillo", false, false},
    {"h[^e]llo", "hallo", false, true},
    {"h[^e]llo", "hello", false, false},
    {"h[^a-c]llo", "hdllo", false, true},
    {"h[^a-c]llo", "hbllo", false, false},
    {"h[a-b]llo", "hallo", false, true},
    {"h[a-b]llo", "hbllo", false, true},
    {"h[a-b]llo", "hcllo", false, false},
    {"[z-a]", "m", false, true},
    {"[z-a]", "A", false, false},
    {"[a-z]", "M", false, false},
    {"[a-z]", "M", true, true},
    {"[A-Z]", "m", true, true},
    {"[abc]", "B", true, true},
    {"[abc]", "B", false, false},
    {"[]", "a", false, false},
    {"[]a]", "]", false, false},
    {"[]a]", "a", false, false},
    {"[a-]", "-", false, false},
    {"[-a]", "-", false, true},
    {"[a-", "a", false, true},
    {"[a-", "b", false, false},
    {"[abc", "c", false, true},
    {"[abc", "c]", false, false},
    {"[", "[", false, false},
    {"[^", "x", false, true},
    {"[^]", "x", false, true},
    {"\\*", "*", false, true},
    {"\\*", "a", false, false},
    {"\\?", "?", false, true},
    {"\\?", "a", false, false},
    {"a\\[b", "a[b", false, true},
    {"\\\\", "\\", false, true},
    {"\\", "\\", false, true},
    {"a\\", "a\\", false, true},
    {"\\a", "a", false, true},
    {"[\\]]", "]", false, true},
    {"[\\-]", "-", false, true},
    {"[a\\-z]", "b", false, false},
    {"[\\^a]", "^", false, true},
    {"[\\a]", "A", true, false},
    {"HELLO", "hello", true, true},
    {"HELLO", "hello", false, false},
    {"h*L?O", "HeLLo", true, true},
    {"*a", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", false, false},
    {"a*a*a*a*a*a*a*a*a*b",
     "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false,
     false},
    {"*[xy]", "abcy", false, true},
    {"config|[gs]et", "config|get", false, true},
};

INSTANTIATE_TEST_SUITE_P(StringMatchLen, RedisGlobTest, ::testing::ValuesIn(kCases));

TEST(GlobTest, NocaseDefaultsToOff) {
  EXPECT_FALSE(GlobMatch("ABC", "abc"));
  EXPECT_TRUE(GlobMatch("ABC", "abc", true));
  EXPECT_TRUE(GlobMatch("A?C", "AbC"));
  EXPECT_FALSE(GlobMatch("a?C", "AbC"));
  EXPECT_TRUE(GlobMatch("A?c", "abC", true));
}

TEST(GlobTest, BinarySafe) {
  // Lengths are explicit: a NUL byte is an ordinary character on either side.
  EXPECT_TRUE(GlobMatch("*", std::string("a\0b", 3)));
  EXPECT_TRUE(GlobMatch(std::string("a\0?", 3), std::string("a\0b", 3)));
  EXPECT_FALSE(GlobMatch(std::string("a\0c", 3), std::string("a\0b", 3)));
  EXPECT_TRUE(GlobMatch("a?b", std::string("a\0b", 3)));
  EXPECT_FALSE(GlobMatch("a", std::string("a\0", 2)));
}

TEST(GlobTest, ManyStarsFinishQuickly) {
  // Redis's skipLongerMatches cut: without it this is exponential.
  const std::string pattern = "a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b";
  const std::string str(5000, 'a');
  EXPECT_FALSE(GlobMatch(pattern, str));
  EXPECT_TRUE(GlobMatch(pattern, str + "b"));
}

TEST(GlobTest, DeepNestingIsBounded) {
  // Every '*' is a level of recursion; kvserver stops at 1000 levels instead of exhausting the
  // stack.
  std::string pattern;
  for (int i = 0; i < 5000; ++i) pattern += "a*";
  EXPECT_FALSE(GlobMatch(pattern, std::string(6000, 'a')));
}

}  // namespace
}  // namespace kv
