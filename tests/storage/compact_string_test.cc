#include "storage/compact_string.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace kv {
namespace {

// Every length around the inline/heap boundary and past a few growth steps.
class CompactStringLengthTest : public ::testing::TestWithParam<size_t> {};

std::string Pattern(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>('a' + i % 26);
  return s;
}

TEST_P(CompactStringLengthTest, HoldsTheBytes) {
  const std::string expected = Pattern(GetParam());
  CompactString s(expected);
  EXPECT_EQ(s.size(), expected.size());
  EXPECT_EQ(s.view(), expected);
  EXPECT_GE(s.capacity(), expected.size());
  EXPECT_EQ(s.allocated() == 0, expected.size() <= CompactString::kInlineCapacity);

  CompactString copy(s);
  EXPECT_EQ(copy.view(), expected);
  CompactString moved(std::move(copy));
  EXPECT_EQ(moved.view(), expected);
  EXPECT_TRUE(copy.empty());  // NOLINT(bugprone-use-after-move): a moved-from string is empty
}

TEST_P(CompactStringLengthTest, AppendsByteByByte) {
  const std::string expected = Pattern(GetParam());
  CompactString s;
  for (char c : expected) s.append(std::string_view(&c, 1));
  EXPECT_EQ(s.view(), expected);
}

TEST_P(CompactStringLengthTest, ResizeZeroFills) {
  const size_t n = GetParam();
  CompactString s("ab");
  s.resize(n);
  std::string expected("ab");
  expected.resize(n);
  EXPECT_EQ(s.view(), expected);
}

INSTANTIATE_TEST_SUITE_P(Lengths, CompactStringLengthTest,
                         ::testing::Values(0, 1, 6, 7, 8, 9, 15, 16, 36, 100, 4096, 100000));

TEST(CompactStringTest, AssignReusesOrReplacesTheBlock) {
  CompactString s(Pattern(100));
  s.assign(Pattern(60));  // fills more than half: stays in place
  EXPECT_EQ(s.view(), Pattern(60));
  s.assign(Pattern(10));  // a big block for a small value is given back
  EXPECT_EQ(s.view(), Pattern(10));
  EXPECT_LT(s.allocated(), 64u);
  s.assign("tiny");
  EXPECT_EQ(s.view(), "tiny");
  EXPECT_EQ(s.allocated(), 0u);
  s.assign(Pattern(5000));
  EXPECT_EQ(s.view(), Pattern(5000));
}

TEST(CompactStringTest, AssignAndAppendFromItself) {
  CompactString s(Pattern(40));
  s.assign(s.view().substr(10, 25));  // a part of its own bytes, in place
  EXPECT_EQ(s.view(), Pattern(40).substr(10, 25));
  CompactString t(Pattern(9));
  t.append(t.view());  // grows: the source moves while it is copied
  EXPECT_EQ(t.view(), Pattern(9) + Pattern(9));
  CompactString u("abc");
  u.append(u.view());  // inline to inline
  EXPECT_EQ(u.view(), "abcabc");
}

TEST(CompactStringTest, BinarySafe) {
  const std::string bytes("\0\r\n\xff\0x", 6);
  CompactString s(bytes);
  EXPECT_EQ(s.view(), bytes);
  s.append(bytes);
  EXPECT_EQ(s.view(), bytes + bytes);
}

TEST(CompactStringTest, ShrinkingKeepsThePrefix) {
  CompactString s(Pattern(50));
  s.resize(20);
  EXPECT_EQ(s.view(), Pattern(20));
  s.resize(3);
  EXPECT_EQ(s.view(), Pattern(3));
  s.clear();
  EXPECT_TRUE(s.empty());
}

TEST(CompactStringTest, IsOneWord) { EXPECT_EQ(sizeof(CompactString), sizeof(void*)); }

}  // namespace
}  // namespace kv
