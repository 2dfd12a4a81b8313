// SplitInlineArgs against Redis's sdssplitargs (src/sds.c). The tricky cases were checked against
// redis-server 7.0.15 with inline RPUSH/LRANGE and ECHO.

#include "protocol/inline_splitter.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kv {
namespace {

using Words = std::vector<std::string>;

// The words, or nullopt on unbalanced quotes.
std::optional<Words> Split(std::string_view line) {
  std::string storage;
  std::vector<std::string_view> words;
  if (!SplitInlineArgs(line, &storage, &words)) return std::nullopt;
  Words out;
  for (std::string_view w : words) {
    // Every word points into the storage string.
    EXPECT_GE(w.data(), storage.data());
    EXPECT_LE(w.data() + w.size(), storage.data() + storage.size());
    out.emplace_back(w);
  }
  return out;
}

TEST(InlineSplitterTest, PlainWords) {
  EXPECT_EQ(Split("SET key value"), (Words{"SET", "key", "value"}));
  EXPECT_EQ(Split("  SET \t key\t\tvalue  "), (Words{"SET", "key", "value"}));
  EXPECT_EQ(Split("a\r\nb\nc\rd"), (Words{"a", "b", "c", "d"}));
  EXPECT_EQ(Split("single"), (Words{"single"}));
}

TEST(InlineSplitterTest, EmptyAndBlankLines) {
  EXPECT_EQ(Split(""), Words{});
  EXPECT_EQ(Split("   "), Words{});
  EXPECT_EQ(Split(" \t\r\n\v\f "), Words{});
}

TEST(InlineSplitterTest, VerticalTabAndFormFeedSeparateOnlyBetweenWords) {
  // Blanks before a word are skipped with isspace(), but only ' ', \t, \r, \n end an unquoted
  // word: "a\vb" is one word (redis-server: RPUSH l a\vb c stores "a\vb" and "c").
  EXPECT_EQ(Split("a\vb c"), (Words{"a\vb", "c"}));
  EXPECT_EQ(Split("\v\fa"), (Words{"a"}));
  EXPECT_EQ(Split("a\f"), (Words{"a\f"}));
  // A closing quote may be followed by any isspace() character.
  EXPECT_EQ(Split("\"a\"\v x"), (Words{"a", "x"}));
  EXPECT_EQ(Split("'a'\f"), (Words{"a"}));
}

TEST(InlineSplitterTest, DoubleQuoteEscapes) {
  EXPECT_EQ(Split("\"a b\""), (Words{"a b"}));
  EXPECT_EQ(Split("\"\\n\\r\\t\\b\\a\\\\\\\"\""), (Words{"\n\r\t\b\a\\\""}));
  // Any other escaped character stands for itself.
  EXPECT_EQ(Split("\"\\q\\'\\ \\0\""), (Words{"q' 0"}));
  EXPECT_EQ(Split("\"it's\""), (Words{"it's"}));
}

TEST(InlineSplitterTest, HexEscapes) {
  EXPECT_EQ(Split("\"\\x41\\x4a\\x4A\""), (Words{"AJJ"}));
  EXPECT_EQ(Split("\"\\xff\\x00z\""), (Words{std::string("\xff\0z", 3)}));
  EXPECT_EQ(Split("\"\\x00\\x00\""), (Words{std::string(2, '\0')}));
  // Not two hex digits: the backslash escapes the 'x' alone.
  EXPECT_EQ(Split("\"a\\x4g\""), (Words{"ax4g"}));
  EXPECT_EQ(Split("\"\\x4\""), (Words{"x4"}));
  EXPECT_EQ(Split("\"\\xg1\""), (Words{"xg1"}));
  // Outside quotes a backslash is an ordinary character.
  EXPECT_EQ(Split("\\x41"), (Words{"\\x41"}));
}

TEST(InlineSplitterTest, SingleQuotes) {
  EXPECT_EQ(Split("'a b'"), (Words{"a b"}));
  EXPECT_EQ(Split("'x\\'y'"), (Words{"x'y"}));
  // Only \' is an escape inside single quotes.
  EXPECT_EQ(Split("'a\\nb'"), (Words{"a\\nb"}));
  EXPECT_EQ(Split("'a\\\\b'"), (Words{"a\\\\b"}));
  EXPECT_EQ(Split("'a\"b'"), (Words{"a\"b"}));
  EXPECT_EQ(Split("'\\x41'"), (Words{"\\x41"}));
}

TEST(InlineSplitterTest, EmptyQuotedWords) {
  EXPECT_EQ(Split("\"\""), (Words{""}));
  EXPECT_EQ(Split("'' x \"\""), (Words{"", "x", ""}));
}

TEST(InlineSplitterTest, QuotesInsideAWord) {
  // An opening quote in the middle of a word continues that word.
  EXPECT_EQ(Split("a\"b c\""), (Words{"ab c"}));
  EXPECT_EQ(Split("a'b c' d"), (Words{"ab c", "d"}));
  // A quote character after a closed word is part of the word only if opening it: x"y" is xy.
  EXPECT_EQ(Split("key\"\""), (Words{"key"}));
}

TEST(InlineSplitterTest, UnbalancedQuotes) {
  for (const char* line : {"\"abc", "'abc", "\"a\"b", "'a'b", "\"a\"\"b\"", "\"\"\"test-key\"\"\"",
                           "\"abc\\", "\"abc\\\"", "'abc\\'", "x \"", "x '", "\"a\"'b'"}) {
    EXPECT_EQ(Split(line), std::nullopt) << line;
  }
}

TEST(InlineSplitterTest, NulEndsTheLine) {
  EXPECT_EQ(Split(std::string("a\0b", 3)), (Words{"a"}));
  EXPECT_EQ(Split(std::string("\0abc", 4)), Words{});
  // A NUL inside quotes ends the line before the closing quote.
  EXPECT_EQ(Split(std::string("\"a\0b\"", 5)), std::nullopt);
  EXPECT_EQ(Split(std::string("'a\0'", 4)), std::nullopt);
}

TEST(InlineSplitterTest, HighBytesAreOrdinaryCharacters) {
  EXPECT_EQ(Split("\xe9t\xe9 \xff\xa0"), (Words{"\xe9t\xe9", "\xff\xa0"}));
  EXPECT_EQ(Split("\"\x85\""), (Words{"\x85"}));
}

TEST(InlineSplitterTest, ReusesOutputsAndKeepsViewsValidAcrossGrowth) {
  std::string storage = "stale";
  std::vector<std::string_view> words = {"stale"};
  std::string line;
  Words expected;
  for (int i = 0; i < 5000; ++i) {
    std::string w = "w" + std::to_string(i) + std::string(i % 37, 'x');
    line += (i % 2 ? "\"" + w + "\"" : w) + " ";
    expected.push_back(w);
  }
  ASSERT_TRUE(SplitInlineArgs(line, &storage, &words));
  ASSERT_EQ(words.size(), expected.size());
  for (size_t i = 0; i < words.size(); ++i) ASSERT_EQ(words[i], expected[i]) << i;
  // A second call replaces the previous results.
  ASSERT_TRUE(SplitInlineArgs("GET k", &storage, &words));
  ASSERT_EQ(words.size(), 2u);
  EXPECT_EQ(words[0], "GET");
  EXPECT_EQ(words[1], "k");
  EXPECT_FALSE(SplitInlineArgs("GET \"k", &storage, &words));
}

}  // namespace
}  // namespace kv
