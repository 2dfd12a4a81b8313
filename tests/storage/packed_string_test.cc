#include "storage/packed_string.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace kv {
namespace {

TEST(PackedStringTest, EveryFormHoldsItsBytes) {
  for (size_t n : {0u, 1u, 7u, 8u, 15u, 16u, 17u, 100u, 65535u, 65536u, 200000u}) {
    std::string s(n, '\0');
    for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>(i * 7 + n);
    PackedString p(s);
    EXPECT_EQ(p.size(), n);
    EXPECT_EQ(p.view(), s) << n;
    EXPECT_EQ(p.on_heap(), n > PackedString::kInlineCapacity) << n;
    if (n > PackedString::kInlineCapacity) {
      // A short string's block holds just its bytes; a long one adds an 8-byte size.
      const size_t header = n > PackedString::kMaxShort ? 8 : 0;
      EXPECT_GE(p.allocated(), n + header);
      EXPECT_LT(p.allocated(), n + header + n / 64 + 64);
    } else {
      EXPECT_EQ(p.allocated(), 0u);
    }
  }
}

TEST(PackedStringTest, MoveLeavesEmpty) {
  PackedString a("a member long enough for the heap");
  PackedString b(std::move(a));
  EXPECT_EQ(b.view(), "a member long enough for the heap");
  EXPECT_EQ(a.size(), 0u);  // NOLINT(bugprone-use-after-move): moved-from is empty
  PackedString c("short");
  c = std::move(b);
  EXPECT_EQ(c.view(), "a member long enough for the heap");
  PackedString d;
  EXPECT_EQ(d.view(), "");
  EXPECT_FALSE(d.on_heap());
}

TEST(PackedStringTest, BinarySafe) {
  const std::string s("\0\r\n\xff\0", 5);
  EXPECT_EQ(PackedString(s).view(), s);
  const std::string t = std::string(20, '\0') + "x";
  EXPECT_EQ(PackedString(t).view(), t);
}

}  // namespace
}  // namespace kv
