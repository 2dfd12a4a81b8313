#include "storage/listpack.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kv {
namespace {

using Pos = ListPack::Pos;
constexpr Pos npos = ListPack::npos;

std::string Hex(std::string_view bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

std::string FromHex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out += static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16));
  }
  return out;
}

std::string Pattern(size_t n, char first = 'a') {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>(first + i % 26);
  return s;
}

// The element as a string (integers in decimal).
std::string Str(const ListPackValue& v) {
  char buf[ListPackValue::kIntBufSize];
  return std::string(v.ToString(buf));
}

std::vector<std::string> Forward(const ListPack& lp) {
  std::vector<std::string> out;
  for (ListPackValue v : lp) out.push_back(Str(v));
  return out;
}

std::vector<std::string> Backward(const ListPack& lp) {
  std::vector<std::string> out;
  for (ListPackValue v : lp.Reversed()) out.push_back(Str(v));
  return {out.rbegin(), out.rend()};
}

ListPack Of(const std::vector<std::string>& elements) {
  ListPack lp;
  for (const std::string& e : elements) lp.Append(e);
  return lp;
}

// The bytes of a one-element list pack: header, `entry`, terminator.
std::string OneEntryBlock(const std::string& entry) {
  const size_t total = ListPack::kEmptyBytes + entry.size();
  std::string out(6, '\0');
  for (int i = 0; i < 4; ++i) out[i] = static_cast<char>(total >> (8 * i));
  out[4] = 1;
  return out + entry + "\xff";
}

// A block of the given entries (hex) with `count` in its header and the right total.
std::string Block(std::string_view entries_hex, uint16_t count) {
  const std::string entries = FromHex(entries_hex);
  const size_t total = ListPack::kEmptyBytes + entries.size();
  std::string out(6, '\0');
  for (int i = 0; i < 4; ++i) out[i] = static_cast<char>(total >> (8 * i));
  out[4] = static_cast<char>(count & 0xff);
  out[5] = static_cast<char>(count >> 8);
  return out + entries + "\xff";
}

void ExpectHeaderCount(const ListPack& lp, uint16_t count) {
  EXPECT_EQ(lp.data()[4] | lp.data()[5] << 8, count);
}

TEST(ListPackTest, EmptyIsTheSharedSevenBytes) {
  ListPack lp;
  EXPECT_EQ(lp.size(), 0u);
  EXPECT_TRUE(lp.empty());
  EXPECT_EQ(Hex(lp.view()),
            "07000000"
            "0000"
            "ff");
  EXPECT_EQ(lp.allocated(), 0u);
  EXPECT_EQ(lp.First(), npos);
  EXPECT_EQ(lp.Last(), npos);
  EXPECT_EQ(lp.Seek(0), npos);
  EXPECT_EQ(lp.Seek(-1), npos);
  EXPECT_EQ(lp.Find(lp.First(), "x"), npos);
  EXPECT_EQ(lp.begin(), lp.end());
  EXPECT_TRUE(ListPack::Validate(lp.view(), true));
  lp.DeleteRange(0, 10);
  ListPack other;
  lp.Merge(std::move(other));
  EXPECT_EQ(lp.allocated(), 0u);
  EXPECT_EQ(Hex(lp.view()), "070000000000ff");
}

// Every integer width at its limits: the entry bytes as the listpack format defines them
// (encoding byte, little-endian two's complement value, then the 1-byte backlen).
struct IntegerCase {
  int64_t value;
  const char* entry_hex;
};

class ListPackIntegerTest : public ::testing::TestWithParam<IntegerCase> {};

TEST_P(ListPackIntegerTest, EncodesAtTheNarrowestWidth) {
  const IntegerCase& c = GetParam();
  const std::string entry = FromHex(c.entry_hex);
  ListPack from_int;
  from_int.AppendInteger(c.value);
  EXPECT_EQ(Hex(from_int.view()), Hex(OneEntryBlock(entry)));
  ListPack from_string;
  from_string.Append(std::to_string(c.value));
  EXPECT_EQ(from_string.view(), from_int.view());
  EXPECT_EQ(ListPack::EntrySizeForInteger(c.value), entry.size());
  EXPECT_EQ(ListPack::EntrySizeFor(std::to_string(c.value)), entry.size());

  const ListPackValue v = from_int.Get(from_int.First());
  EXPECT_TRUE(v.is_int);
  EXPECT_EQ(v.num, c.value);
  EXPECT_EQ(Str(v), std::to_string(c.value));
  EXPECT_TRUE(v.Equals(std::to_string(c.value)));
  EXPECT_EQ(from_int.Last(), from_int.First());
  EXPECT_TRUE(ListPack::Validate(from_int.view(), true));
}

INSTANTIATE_TEST_SUITE_P(
    Widths, ListPackIntegerTest,
    ::testing::Values(
        // 7-bit unsigned: the value itself.
        IntegerCase{0, "0001"}, IntegerCase{1, "0101"}, IntegerCase{127, "7f01"},
        // 13-bit: 110xxxxx then the low byte.
        IntegerCase{128, "c08002"}, IntegerCase{-1, "dfff02"}, IntegerCase{4095, "cfff02"},
        IntegerCase{-4096, "d00002"},
        // 16-bit: f1 then 2 bytes.
        IntegerCase{4096, "f1001003"}, IntegerCase{-4097, "f1ffef03"},
        IntegerCase{32767, "f1ff7f03"}, IntegerCase{-32768, "f1008003"},
        // 24-bit.
        IntegerCase{32768, "f200800004"}, IntegerCase{-32769, "f2ff7fff04"},
        IntegerCase{8388607, "f2ffff7f04"}, IntegerCase{-8388608, "f200008004"},
        // 32-bit.
        IntegerCase{8388608, "f30000800005"}, IntegerCase{-8388609, "f3ffff7fff05"},
        IntegerCase{INT32_MAX, "f3ffffff7f05"}, IntegerCase{INT32_MIN, "f30000008005"},
        // 64-bit.
        IntegerCase{int64_t{INT32_MAX} + 1, "f4000000800000000009"},
        IntegerCase{int64_t{INT32_MIN} - 1, "f4ffffff7fffffffff09"},
        IntegerCase{INT64_MAX, "f4ffffffffffffff7f09"},
        IntegerCase{INT64_MIN, "f4000000000000008009"}));

// String headers: 10xxxxxx (length < 64), 1110xxxx xxxxxxxx (< 4096), f0 + 32-bit length; the
// backlen is the size of header and data, 7 bits per byte, most significant first, every byte
// but the first with its high bit set.
TEST(ListPackTest, StringLengthBoundaries) {
  struct Case {
    size_t length;
    std::string header_hex;
    std::string backlen_hex;
  };
  const std::vector<Case> cases = {
      {0, "80", "01"},
      {1, "81", "02"},
      {63, "bf", "40"},
      {64, "e040", "42"},             // 66 = 2 + 64
      {125, "e07d", "7f"},            // 127: the last 1-byte backlen
      {126, "e07e", "0180"},          // 128 = 1 * 128 + 0
      {4095, "efff", "2081"},         // 4097 = 32 * 128 + 1
      {4096, "f000100000", "2085"},   // 4101 = 32 * 128 + 5
      {16377, "f0f93f0000", "7ffe"},  // 16382
      // 16383: lpEncodeBacklen's `l < 16383` makes this one 3 bytes (00 ff ff), as Redis's.
      {16378, "f0fa3f0000", "00ffff"},
      {16379, "f0fb3f0000", "018080"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.length);
    const std::string s = Pattern(c.length);
    ListPack lp;
    lp.Append(s);
    const std::string entry = FromHex(c.header_hex) + s + FromHex(c.backlen_hex);
    EXPECT_EQ(lp.view(), OneEntryBlock(entry));
    EXPECT_EQ(ListPack::EntrySizeFor(s), entry.size());
    const ListPackValue v = lp.Get(lp.First());
    EXPECT_FALSE(v.is_int);
    EXPECT_EQ(v.str, s);
    EXPECT_EQ(lp.Last(), lp.First());  // reading the backlen backwards
    EXPECT_TRUE(ListPack::Validate(lp.view(), true));
  }
}

TEST(ListPackTest, IntegerLookingStringsStayStrings) {
  const std::vector<std::string> strings = {"01",
                                            "+1",
                                            "-0",
                                            " 1",
                                            "1 ",
                                            "00",
                                            "-",
                                            "",
                                            "1.0",
                                            "0x1",
                                            "1e3",
                                            "-01",
                                            "9223372036854775808",
                                            "-9223372036854775809",
                                            "18446744073709551615",
                                            "18446744073709551616",
                                            "99999999999999999999",
                                            "100000000000000000000",
                                            "000000000000000000001",
                                            std::string("1\0", 2)};
  for (const std::string& s : strings) {
    SCOPED_TRACE(s);
    int64_t v;
    EXPECT_FALSE(ListPack::StringToInt64(s, &v));
    ListPack lp;
    lp.Append(s);
    const ListPackValue e = lp.Get(lp.First());
    EXPECT_FALSE(e.is_int);
    EXPECT_EQ(e.str, s);
    EXPECT_EQ(ListPack::EntrySizeFor(s), lp.bytes() - ListPack::kEmptyBytes);
  }
  for (const std::string s : {"0", "-1", "10", "9223372036854775807", "-9223372036854775808"}) {
    SCOPED_TRACE(s);
    int64_t v;
    ASSERT_TRUE(ListPack::StringToInt64(s, &v));
    EXPECT_EQ(std::to_string(v), s);
    ListPack lp;
    lp.Append(s);
    EXPECT_TRUE(lp.Get(lp.First()).is_int);
  }
}

TEST(ListPackTest, EqualsIsLpCompare) {
  const ListPack lp = Of({"10", "abc", "-7", "", "0"});
  const Pos ten = lp.Seek(0);
  EXPECT_TRUE(lp.Equals(ten, "10"));
  EXPECT_FALSE(lp.Equals(ten, "010"));
  EXPECT_FALSE(lp.Equals(ten, "+10"));
  EXPECT_FALSE(lp.Equals(ten, "10.0"));
  EXPECT_FALSE(lp.Equals(ten, "1"));
  EXPECT_TRUE(lp.Equals(lp.Seek(1), "abc"));
  EXPECT_FALSE(lp.Equals(lp.Seek(1), "ab"));
  EXPECT_TRUE(lp.Equals(lp.Seek(2), "-7"));
  EXPECT_TRUE(lp.Equals(lp.Seek(3), ""));
  EXPECT_FALSE(lp.Equals(lp.Seek(3), "0"));
  EXPECT_TRUE(lp.Equals(lp.Seek(4), "0"));
  EXPECT_FALSE(lp.Equals(lp.Seek(4), ""));
  EXPECT_FALSE(lp.Equals(lp.Seek(4), "-0"));
}

TEST(ListPackTest, IteratesBothWaysOverEveryEncoding) {
  std::vector<std::string> elements = {
      "a",           "127", "-4096",        Pattern(64), "32768", Pattern(4096),
      "-2147483649", "",    Pattern(20000), "8388607",   "x",     Pattern(300)};
  const ListPack lp = Of(elements);
  EXPECT_EQ(lp.size(), elements.size());
  EXPECT_EQ(Forward(lp), elements);
  EXPECT_EQ(Backward(lp), elements);
  // Positions: Next then Prev come back; Prev of the first and Next of the last are npos.
  std::vector<Pos> positions;
  for (Pos p = lp.First(); p != npos; p = lp.Next(p)) positions.push_back(p);
  ASSERT_EQ(positions.size(), elements.size());
  for (size_t i = 0; i < positions.size(); ++i) {
    EXPECT_EQ(lp.Seek(static_cast<long>(i)), positions[i]);
    EXPECT_EQ(lp.Seek(static_cast<long>(i) - static_cast<long>(positions.size())), positions[i]);
    EXPECT_EQ(lp.Prev(positions[i]), i == 0 ? npos : positions[i - 1]);
  }
  EXPECT_EQ(lp.Last(), positions.back());
  EXPECT_TRUE(ListPack::AtEnd(lp.Next(lp.Last())));
  EXPECT_TRUE(ListPack::AtEnd(lp.Prev(lp.First())));
}

TEST(ListPackTest, SeekOutOfRange) {
  const ListPack lp = Of({"a", "b", "c"});
  EXPECT_EQ(Str(lp.Get(lp.Seek(0))), "a");
  EXPECT_EQ(Str(lp.Get(lp.Seek(2))), "c");
  EXPECT_EQ(Str(lp.Get(lp.Seek(-1))), "c");
  EXPECT_EQ(Str(lp.Get(lp.Seek(-3))), "a");
  EXPECT_EQ(lp.Seek(3), npos);
  EXPECT_EQ(lp.Seek(-4), npos);
  EXPECT_EQ(lp.Seek(std::numeric_limits<long>::max()), npos);
  EXPECT_EQ(lp.Seek(std::numeric_limits<long>::min()), npos);
}

TEST(ListPackTest, InsertAtHeadMiddleAndTail) {
  ListPack lp = Of({"b", "d"});
  Pos p = lp.Insert(lp.First(), "a", ListPack::Where::kBefore);
  EXPECT_EQ(p, lp.First());
  EXPECT_EQ(Str(lp.Get(p)), "a");
  p = lp.Insert(lp.Seek(1), "c", ListPack::Where::kAfter);
  EXPECT_EQ(p, lp.Seek(2));
  EXPECT_EQ(Str(lp.Get(p)), "c");
  p = lp.Insert(lp.Last(), "5000", ListPack::Where::kAfter);
  EXPECT_EQ(p, lp.Last());
  EXPECT_TRUE(lp.Get(p).is_int);
  p = lp.InsertInteger(lp.Last(), -1, ListPack::Where::kBefore);
  EXPECT_EQ(p, lp.Seek(-2));
  lp.Prepend(Pattern(100));
  lp.PrependInteger(7);
  lp.AppendInteger(INT64_MIN);
  EXPECT_EQ(Forward(lp), (std::vector<std::string>{"7", Pattern(100), "a", "b", "c", "d", "-1",
                                                   "5000", "-9223372036854775808"}));
  EXPECT_EQ(Backward(lp), Forward(lp));
  EXPECT_EQ(lp.size(), 9u);
  EXPECT_TRUE(ListPack::Validate(lp.view(), true));
}

TEST(ListPackTest, ReplaceGrowsAndShrinksInPlace) {
  ListPack lp = Of({"head", "mid", "tail"});
  const Pos mid = lp.Seek(1);
  EXPECT_EQ(lp.Replace(mid, Pattern(5000)), mid);
  EXPECT_EQ(lp.Replace(lp.First(), "1"), lp.First());
  EXPECT_EQ(lp.Replace(lp.Last(), "-100000"), lp.Last());
  EXPECT_EQ(Forward(lp), (std::vector<std::string>{"1", Pattern(5000), "-100000"}));
  // Replacing the head moved the middle element: positions after a change shift.
  EXPECT_NE(lp.Seek(1), mid);
  EXPECT_EQ(lp.Replace(lp.Seek(1), ""), lp.Seek(1));
  EXPECT_EQ(lp.ReplaceInteger(lp.Last(), 3), lp.Last());
  EXPECT_EQ(Forward(lp), (std::vector<std::string>{"1", "", "3"}));
  EXPECT_EQ(Backward(lp), Forward(lp));
  EXPECT_EQ(lp.size(), 3u);
  // Same bytes as building the result directly.
  EXPECT_EQ(lp.view(), Of({"1", "", "3"}).view());
}

TEST(ListPackTest, DeleteReturnsTheNextPosition) {
  ListPack lp = Of({"a", "b", "c", "d"});
  Pos p = lp.Delete(lp.Seek(1));  // middle
  EXPECT_EQ(Str(lp.Get(p)), "c");
  p = lp.Delete(lp.First());  // head
  EXPECT_EQ(p, lp.First());
  EXPECT_EQ(Str(lp.Get(p)), "c");
  p = lp.Delete(lp.Last());  // tail
  EXPECT_EQ(p, npos);
  EXPECT_EQ(Forward(lp), std::vector<std::string>{"c"});
  EXPECT_EQ(lp.Delete(lp.First()), npos);
  EXPECT_TRUE(lp.empty());
  EXPECT_EQ(lp.view(), ListPack().view());
}

TEST(ListPackTest, DeleteRangeEdges) {
  const std::vector<std::string> ten = {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"};
  auto after = [&](long index, size_t count) {
    ListPack lp = Of(ten);
    lp.DeleteRange(index, count);
    EXPECT_TRUE(ListPack::Validate(lp.view(), true));
    EXPECT_EQ(lp.view(), Of(Forward(lp)).view()) << "bytes as if built directly";
    return Forward(lp);
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(after(0, 0), ten);
  EXPECT_EQ(after(10, 1), ten);   // past the end
  EXPECT_EQ(after(-11, 1), ten);  // before the start
  EXPECT_EQ(after(0, 3), (V{"3", "4", "5", "6", "7", "8", "9"}));
  EXPECT_EQ(after(4, 2), (V{"0", "1", "2", "3", "6", "7", "8", "9"}));
  EXPECT_EQ(after(7, 3), (V{"0", "1", "2", "3", "4", "5", "6"}));
  EXPECT_EQ(after(7, 1000), (V{"0", "1", "2", "3", "4", "5", "6"}));
  EXPECT_EQ(after(-3, 2), (V{"0", "1", "2", "3", "4", "5", "6", "9"}));
  EXPECT_EQ(after(-1, 5), (V{"0", "1", "2", "3", "4", "5", "6", "7", "8"}));
  EXPECT_EQ(after(-10, 10), V{});
  EXPECT_EQ(after(0, SIZE_MAX), V{});
}

TEST(ListPackTest, DeleteFromPosition) {
  ListPack lp = Of({"f1", "v1", "f2", "v2", "f3", "v3"});
  Pos p = lp.DeleteFrom(lp.Seek(2), 2);
  EXPECT_EQ(Str(lp.Get(p)), "f3");
  EXPECT_EQ(lp.size(), 4u);
  p = lp.DeleteFrom(p, 5);  // more than there are
  EXPECT_EQ(p, npos);
  EXPECT_EQ(Forward(lp), (std::vector<std::string>{"f1", "v1"}));
  EXPECT_EQ(lp.DeleteFrom(lp.First(), 0), lp.First());
  EXPECT_EQ(lp.view(), Of({"f1", "v1"}).view());
}

TEST(ListPackTest, FindWithSkipLooksOnlyAtFields) {
  // A hash: field, value, field, value. "x" and "7" are values of other fields.
  const ListPack lp = Of({"a", "x", "7", "b", "x", "7", "007", "c"});
  EXPECT_EQ(lp.Find(lp.First(), "x", 1), lp.Seek(4));
  EXPECT_EQ(lp.Find(lp.First(), "7", 1), lp.Seek(2));
  EXPECT_EQ(lp.Find(lp.First(), "b", 1), npos);  // a value only
  EXPECT_EQ(lp.Find(lp.First(), "c", 1), npos);
  EXPECT_EQ(lp.Find(lp.First(), "007", 1), lp.Seek(6));
  EXPECT_EQ(lp.Find(lp.First(), "b"), lp.Seek(3));  // every element
  EXPECT_EQ(lp.Find(lp.First(), "c"), lp.Seek(7));
  EXPECT_EQ(lp.Find(lp.Seek(3), "7"), lp.Seek(5));  // from the middle
  EXPECT_EQ(lp.Find(lp.First(), "7", 2), npos);     // 0, 3, 6: a, b, 007
  EXPECT_EQ(lp.Find(lp.First(), "007", 2), lp.Seek(6));
  EXPECT_EQ(lp.Find(lp.First(), "07"), npos);
  EXPECT_EQ(lp.Find(lp.First(), "+7"), npos);
  EXPECT_EQ(lp.Find(npos, "a"), npos);
  // Integers of every width are found by their canonical strings only.
  const ListPack ints = Of({"1", "200", "-5000", "70000", "10000000000", "-1"});
  EXPECT_EQ(ints.Find(ints.First(), "10000000000"), ints.Seek(4));
  EXPECT_EQ(ints.Find(ints.First(), "-1"), ints.Seek(5));
  EXPECT_EQ(ints.Find(ints.First(), "-5000", 1), ints.Seek(2));
  EXPECT_EQ(ints.Find(ints.First(), "200", 1), npos);
  EXPECT_EQ(ints.Find(ints.First(), "0200"), npos);
  EXPECT_EQ(ints.Find(ints.First(), std::string(40, '1')), npos);
}

TEST(ListPackTest, FindMatchesAStringEntryByItsBytes) {
  // A listpack from elsewhere (an old RDB) may hold "10" as a string: lpFind compares it by its
  // bytes. Header 0x0b bytes, 1 element; entry 82 '1' '0' backlen 03.
  const auto lp =
      ListPack::FromBytes(FromHex("0b0000000100"
                                  "82313003"
                                  "ff"));
  ASSERT_TRUE(lp.has_value());
  EXPECT_EQ(lp->Find(lp->First(), "10"), lp->First());
  EXPECT_FALSE(lp->Get(lp->First()).is_int);
  EXPECT_EQ(lp->Find(lp->First(), "010"), npos);
}

TEST(ListPackTest, DefaultStringViewsAreEmptyStrings) {
  // std::string_view{} has a null data pointer: it must work as "" everywhere.
  ListPack lp;
  lp.Append(std::string_view{});
  lp.Prepend(std::string_view{});
  lp.Insert(lp.First(), std::string_view{}, ListPack::Where::kAfter);
  lp.Replace(lp.Last(), std::string_view{});
  const std::string_view none[] = {std::string_view{}, std::string_view{}};
  lp.AppendMany(none);
  EXPECT_EQ(lp.size(), 5u);
  EXPECT_EQ(lp.Find(lp.First(), std::string_view{}), lp.First());
  EXPECT_TRUE(lp.Equals(lp.Last(), std::string_view{}));
  EXPECT_EQ(lp.view(), Of({"", "", "", "", ""}).view());
  EXPECT_EQ(ListPack::EntrySizeFor(std::string_view{}), 2u);
}

TEST(ListPackTest, AppendManyEqualsAppends) {
  std::vector<std::string> elements;
  for (int i = 0; i < 200; ++i) {
    elements.push_back(i % 3 == 0 ? std::to_string(i * 123457 - 9000000) : Pattern(i % 90));
  }
  const std::vector<std::string_view> views(elements.begin(), elements.end());
  ListPack batch = Of({"first"});
  batch.AppendMany(views);
  std::vector<std::string> all = {"first"};
  all.insert(all.end(), elements.begin(), elements.end());
  EXPECT_EQ(batch.view(), Of(all).view());
  EXPECT_EQ(batch.size(), all.size());
  batch.AppendMany({});
  EXPECT_EQ(batch.view(), Of(all).view());
}

TEST(ListPackTest, CountSaturatesAtTheHeaderLimit) {
  // 65535 in the header means "unknown": size() walks. Counting as Redis counts keeps the bytes
  // the same as Redis's after every step.
  ListPack lp;
  std::vector<std::string> ones(65534, "1");
  const std::vector<std::string_view> views(ones.begin(), ones.end());
  lp.AppendMany(views);
  ExpectHeaderCount(lp, 65534);
  lp.Append("x");
  ExpectHeaderCount(lp, 65535);
  EXPECT_EQ(lp.size(), 65535u);
  lp.Append("y");
  ExpectHeaderCount(lp, 65535);
  EXPECT_EQ(lp.size(), 65536u);
  ExpectHeaderCount(lp, 65535);  // does not fit: stays unknown
  lp.Delete(lp.First());
  lp.Delete(lp.First());
  ExpectHeaderCount(lp, 65535);  // deletes leave an unknown count unknown
  EXPECT_EQ(lp.Seek(-1), lp.Last());
  EXPECT_EQ(Str(lp.Get(lp.Seek(-2))), "x");
  EXPECT_EQ(Str(lp.Get(lp.Seek(65533))), "y");
  EXPECT_EQ(lp.Seek(65534), npos);
  EXPECT_EQ(lp.Seek(-65535), npos);
  EXPECT_EQ(Str(lp.Get(lp.Seek(-65534))), "1");
  EXPECT_TRUE(ListPack::Validate(lp.view(), true));
  EXPECT_EQ(lp.size(), 65534u);  // walks, and as lpLength, writes the count back
  ExpectHeaderCount(lp, 65534);
  // A batch across the limit saturates too.
  lp.AppendMany(std::span(views).subspan(0, 10));
  ExpectHeaderCount(lp, 65535);
  EXPECT_EQ(lp.size(), 65544u);
  // Deleting a range with an unknown count walks instead of cutting at the end.
  lp.DeleteRange(-20, 100);
  EXPECT_EQ(lp.size(), 65524u);
  lp.DeleteRange(100, 65424);
  EXPECT_EQ(lp.size(), 100u);
  ExpectHeaderCount(lp, 100);
}

TEST(ListPackTest, ValidateRejectsCorruption) {
  const ListPack lp = Of({"hello", "1000", Pattern(200)});
  const std::string good(lp.view());
  EXPECT_TRUE(ListPack::Validate(good, true));
  EXPECT_TRUE(ListPack::Validate(good, false));
  EXPECT_TRUE(ListPack::FromBytes(good).has_value());

  auto corrupt = [&](size_t at, uint8_t byte) {
    std::string bad = good;
    bad[at] = static_cast<char>(byte);
    return bad;
  };
  // Header: the total must be the size, and the last byte the terminator.
  EXPECT_FALSE(ListPack::Validate(corrupt(0, good[0] + 1), false));
  EXPECT_FALSE(ListPack::Validate(corrupt(good.size() - 1, 0), false));
  EXPECT_FALSE(ListPack::Validate(good.substr(0, 6), false));
  EXPECT_FALSE(ListPack::Validate(good.substr(0, good.size() - 1), false));
  EXPECT_FALSE(ListPack::Validate("", false));
  // Entries: only a deep check sees them.
  const std::string bad_count = corrupt(4, 4);
  EXPECT_TRUE(ListPack::Validate(bad_count, false));
  EXPECT_FALSE(ListPack::Validate(bad_count, true));
  std::string unknown_count = corrupt(4, 0xff);
  unknown_count[5] = '\xff';
  EXPECT_TRUE(ListPack::Validate(unknown_count, true));  // an unknown count is not checked
  const std::string bad_encoding = corrupt(6, 0xf5);
  EXPECT_FALSE(ListPack::Validate(bad_encoding, true));
  EXPECT_FALSE(ListPack::FromBytes(bad_encoding).has_value());
  EXPECT_TRUE(ListPack::FromBytes(bad_encoding, false).has_value());
  const std::string bad_backlen = corrupt(6 + 6, 7);  // "hello": 85 h e l l o [06]
  EXPECT_FALSE(ListPack::Validate(bad_backlen, true));
  const std::string too_long = corrupt(6, 0x80 | 63);  // a string running past the next entries
  EXPECT_FALSE(ListPack::Validate(too_long, true));
  // The last entry's header: e0 c8 (a 200-byte string), made ef c8 (4040 bytes).
  const std::string past_end = corrupt(good.size() - 1 - 2 - 200 - 2, 0xef);
  EXPECT_FALSE(ListPack::Validate(past_end, true));
  // Hand-made blocks (Block fills in the total).
  EXPECT_TRUE(ListPack::Validate(Block("0001"
                                       "0001",
                                       2),
                                 true));
  EXPECT_TRUE(ListPack::Validate(Block("0001"
                                       "0001",
                                       0xffff),
                                 true));
  EXPECT_FALSE(ListPack::Validate(Block("0001"
                                        "0001",
                                        1),
                                  true));                            // wrong count
  EXPECT_FALSE(ListPack::Validate(Block("7f", 1), true));            // no backlen
  EXPECT_FALSE(ListPack::Validate(Block("0002", 1), true));          // wrong backlen
  EXPECT_FALSE(ListPack::Validate(Block("f5", 1), true));            // no such encoding
  EXPECT_FALSE(ListPack::Validate(Block("f0fffffffe05", 1), true));  // a 4 GB string
  EXPECT_FALSE(ListPack::Validate(Block("f0ff", 1), true));          // its length cut short
  EXPECT_FALSE(ListPack::Validate(Block("81610283", 1), true));      // a header past the end
  EXPECT_FALSE(ListPack::Validate(Block("8161ff02", 1), true));      // backlen with a high bit
  EXPECT_TRUE(ListPack::Validate(Block("816102", 1), true));
  // Every truncation of a valid block, with its total patched, fails the deep check.
  for (size_t n = ListPack::kEmptyBytes; n < good.size(); ++n) {
    std::string cut = good.substr(0, n);
    for (int i = 0; i < 4; ++i) cut[i] = static_cast<char>(n >> (8 * i));
    cut[n - 1] = '\xff';
    EXPECT_FALSE(ListPack::Validate(cut, true)) << n;
  }
}

// Random damage to valid blocks (flipped bytes, patched lengths, truncations): the deep check
// never reads outside the block (each candidate sits in a heap block of its exact size, so the
// sanitizer build sees any stray read), and whatever passes it reads consistently both ways.
TEST(ListPackTest, DeepValidationGuardsEveryRead) {
  std::mt19937 rng(99);
  const std::vector<ListPack> originals = [] {
    std::vector<ListPack> v;
    v.push_back(Of({"a", "1", "-300", Pattern(70), "70000", "", Pattern(5000), "-5000000000"}));
    v.push_back(Of({Pattern(63), Pattern(64), "127", "128", "-4096"}));
    v.push_back(Of({"x"}));
    return v;
  }();
  int passed = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string bytes(originals[rng() % originals.size()].view());
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits; ++e) {
      switch (rng() % 4) {
        case 0:  // any byte anywhere
          bytes[rng() % bytes.size()] = static_cast<char>(rng());
          break;
        case 1:  // an encoding-looking byte
          bytes[6 + rng() % (bytes.size() - 6)] = static_cast<char>(0xe0 + rng() % 32);
          break;
        case 2:  // cut, keeping the header's total right
          bytes.resize(ListPack::kEmptyBytes + rng() % (bytes.size() - 6));
          bytes.back() = '\xff';
          break;
        default:  // a flipped bit
          bytes[rng() % bytes.size()] ^= static_cast<char>(1 << (rng() % 8));
      }
    }
    if (rng() % 2) {
      for (int i = 0; i < 4; ++i) bytes[i] = static_cast<char>(bytes.size() >> (8 * i));
    }
    const std::unique_ptr<char[]> exact(new char[bytes.size()]);
    std::memcpy(exact.get(), bytes.data(), bytes.size());
    const std::string_view candidate(exact.get(), bytes.size());
    ListPack::Validate(candidate, false);
    if (!ListPack::Validate(candidate, true)) continue;
    ++passed;
    const auto lp = ListPack::FromBytes(candidate);
    ASSERT_TRUE(lp.has_value());
    const std::vector<std::string> forward = Forward(*lp);
    ASSERT_EQ(forward.size(), lp->size());
    ASSERT_EQ(Backward(*lp), forward);
    if (!forward.empty()) {
      const Pos found = lp->Find(lp->First(), forward.back());
      ASSERT_NE(found, npos);
      ASSERT_EQ(Str(lp->Get(found)), forward.back());
    }
  }
  EXPECT_GT(passed, 100) << "some damage leaves a valid list pack (a changed value)";
}

TEST(ListPackTest, ValidateCallsBackWithEachEntry) {
  const ListPack lp = Of({"a", "1", "b", "2"});
  std::vector<std::string> seen;
  EXPECT_TRUE(ListPack::Validate(lp.view(), [&](ListPackValue v) {
    seen.push_back(Str(v));
    return true;
  }));
  EXPECT_EQ(seen, (std::vector<std::string>{"a", "1", "b", "2"}));
  int calls = 0;
  EXPECT_FALSE(ListPack::Validate(lp.view(), [&](ListPackValue) { return ++calls < 2; }));
  EXPECT_EQ(calls, 2);
}

TEST(ListPackTest, CloneAndMove) {
  ListPack a = Of({"x", "12", Pattern(100)});
  ListPack b = a.Clone();
  EXPECT_EQ(a.view(), b.view());
  EXPECT_NE(a.data(), b.data());
  b.Append("more");
  EXPECT_EQ(a.size(), 3u);
  EXPECT_EQ(b.size(), 4u);
  ListPack c(std::move(b));
  EXPECT_TRUE(b.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty
  EXPECT_EQ(b.allocated(), 0u);
  EXPECT_EQ(c.size(), 4u);
  a = std::move(c);
  EXPECT_EQ(a.size(), 4u);
  EXPECT_EQ(ListPack().Clone().allocated(), 0u);
}

TEST(ListPackTest, ElementsFromItsOwnBlock) {
  // Appending, inserting or replacing with bytes that live in the block itself (which may move).
  ListPack lp = Of({Pattern(60), Pattern(3000, 'A')});
  for (int i = 0; i < 20; ++i) lp.Append(lp.Get(lp.Seek(i % 2)).str);
  lp.Replace(lp.First(), lp.Get(lp.Seek(1)).str);
  lp.Insert(lp.Seek(1), lp.Get(lp.Last()).str, ListPack::Where::kAfter);
  const std::string_view own[] = {lp.Get(lp.First()).str, lp.Get(lp.Seek(2)).str};
  lp.AppendMany(own);
  EXPECT_EQ(lp.size(), 25u);
  EXPECT_EQ(Str(lp.Get(lp.First())), Pattern(3000, 'A'));
  EXPECT_EQ(Str(lp.Get(lp.Seek(1))), Pattern(3000, 'A'));
  EXPECT_EQ(Str(lp.Get(lp.Seek(2))), Pattern(3000, 'A'));
  EXPECT_EQ(Str(lp.Get(lp.Seek(-1))), Pattern(3000, 'A'));
  EXPECT_EQ(Str(lp.Get(lp.Seek(-2))), Pattern(3000, 'A'));
  EXPECT_EQ(Str(lp.Get(lp.Seek(-3))), Pattern(3000, 'A'));
  EXPECT_EQ(Str(lp.Get(lp.Seek(3))), Pattern(60));
  EXPECT_TRUE(ListPack::Validate(lp.view(), true));
}

TEST(ListPackTest, MergeAppendsTheOther) {
  ListPack a = Of({"a", "1"});
  ListPack b = Of({"b", Pattern(500), "-2"});
  a.Merge(std::move(b));
  EXPECT_TRUE(b.empty());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(a.view(), Of({"a", "1", "b", Pattern(500), "-2"}).view());
  ListPack empty;
  empty.Merge(std::move(a));
  EXPECT_EQ(empty.view(), Of({"a", "1", "b", Pattern(500), "-2"}).view());
  empty.Merge(ListPack());
  EXPECT_EQ(empty.size(), 5u);
}

TEST(ListPackTest, RandomPairPicksFieldPositions) {
  const ListPack lp = Of({"f0", "v0", "f1", "v1", "f2", "v2"});
  std::vector<int> hits(3);
  for (uint64_t r = 0; r < 30; ++r) {
    const Pos p = lp.RandomPair(3, r);
    ASSERT_NE(p, npos);
    const std::string field = Str(lp.Get(p));
    ASSERT_EQ(field[0], 'f');
    EXPECT_EQ(Str(lp.Get(lp.Next(p))), "v" + field.substr(1));
    ++hits[field[1] - '0'];
  }
  EXPECT_EQ(hits, (std::vector<int>{10, 10, 10}));
}

TEST(ListPackTest, SizesForCallers) {
  EXPECT_EQ(ListPack::kMaxSafetySize, size_t{1} << 30);
  ListPack lp;
  EXPECT_TRUE(lp.SafeToAdd(ListPack::kMaxSafetySize - ListPack::kEmptyBytes));
  EXPECT_FALSE(lp.SafeToAdd(ListPack::kMaxSafetySize - ListPack::kEmptyBytes + 1));
  // EntrySizeFor is what an append adds, for every kind of element.
  for (const std::string& s : {std::string("7"), std::string("-70000"), Pattern(10), Pattern(63),
                               Pattern(64), Pattern(5000), std::string("01")}) {
    const size_t before = lp.bytes();
    lp.Append(s);
    EXPECT_EQ(lp.bytes() - before, ListPack::EntrySizeFor(s)) << s.substr(0, 10);
  }
}

TEST(ListPackTest, MemoryFollowsTheBytes) {
  ListPack lp;
  for (int i = 0; i < 1000; ++i) lp.Append(Pattern(40));
  EXPECT_GE(lp.allocated(), lp.bytes());
  const size_t big = lp.allocated();
  lp.DeleteRange(10, 990);
  EXPECT_EQ(lp.size(), 10u);
  EXPECT_LT(lp.allocated(), big / 10) << "a block that shrank much gives memory back";
  lp.ShrinkToFit();
  EXPECT_LE(lp.allocated(), lp.bytes() + 16);
  EXPECT_EQ(lp.view(), Of(std::vector<std::string>(10, Pattern(40))).view());
}

// Thousands of random operations against a vector of strings; after each, the contents (both
// ways), the size, random seeks and a deep validation must agree with the model.
TEST(ListPackTest, RandomOperationsMatchAModel) {
  std::mt19937_64 rng(20240607);
  auto element = [&]() -> std::string {
    switch (rng() % 8) {
      case 0:
        return std::to_string(static_cast<int64_t>(rng() % 256) - 128);
      case 1:
        return std::to_string(static_cast<int64_t>(rng() % 20000) - 10000);
      case 2:
        return std::to_string(static_cast<int64_t>(rng()) >> (rng() % 64));
      case 3: {
        static const char* kTricky[] = {
            "01", "+1", "-0", " 1", "", "-", "9223372036854775808", "-9223372036854775809", "00"};
        return kTricky[rng() % 9];
      }
      case 4:
        return Pattern(60 + rng() % 10, 'A');
      case 5:
        return Pattern(rng() % 5 == 0 ? 4090 + rng() % 10 : 100 + rng() % 200, 'k');
      default:
        return Pattern(rng() % 20);
    }
  };
  ListPack lp;
  std::vector<std::string> model;
  for (int step = 0; step < 6000; ++step) {
    const size_t n = model.size();
    const size_t at = n == 0 ? 0 : rng() % n;
    const auto op = n == 0 ? rng() % 3 : rng() % 12;
    switch (op) {
      case 0: {
        const std::string e = element();
        lp.Append(e);
        model.push_back(e);
        break;
      }
      case 1: {
        const std::string e = element();
        lp.Prepend(e);
        model.insert(model.begin(), e);
        break;
      }
      case 2: {
        std::vector<std::string> batch(rng() % 8);
        for (auto& e : batch) e = element();
        const std::vector<std::string_view> views(batch.begin(), batch.end());
        lp.AppendMany(views);
        model.insert(model.end(), batch.begin(), batch.end());
        break;
      }
      case 3:
      case 4: {
        const std::string e = element();
        const bool after = rng() % 2;
        const Pos p = lp.Insert(lp.Seek(static_cast<long>(at)), e,
                                after ? ListPack::Where::kAfter : ListPack::Where::kBefore);
        model.insert(model.begin() + static_cast<long>(at + after), e);
        ASSERT_EQ(p, lp.Seek(static_cast<long>(at + after)));
        break;
      }
      case 5:
      case 6: {
        const std::string e = element();
        const Pos p = lp.Seek(static_cast<long>(at));
        ASSERT_EQ(lp.Replace(p, e), p);
        model[at] = e;
        break;
      }
      case 7:
      case 8: {
        const Pos next = lp.Delete(lp.Seek(static_cast<long>(at)));
        model.erase(model.begin() + static_cast<long>(at));
        ASSERT_EQ(next, at < model.size() ? lp.Seek(static_cast<long>(at)) : npos);
        break;
      }
      case 9: {
        const size_t count = rng() % 6;
        const bool negative = rng() % 2;
        const long index = negative ? static_cast<long>(at) - static_cast<long>(n) : at;
        lp.DeleteRange(index, count);
        model.erase(model.begin() + static_cast<long>(at),
                    model.begin() + static_cast<long>(std::min(n, at + count)));
        break;
      }
      case 10: {
        const size_t count = rng() % 4;
        lp.DeleteFrom(lp.Seek(static_cast<long>(at)), count);
        model.erase(model.begin() + static_cast<long>(at),
                    model.begin() + static_cast<long>(std::min(n, at + count)));
        break;
      }
      default: {
        // Find the first occurrence of an element that is there, and of one that may not be.
        const std::string& wanted = model[at];
        size_t first = 0;
        while (model[first] != wanted) ++first;
        ASSERT_EQ(lp.Find(lp.First(), wanted), lp.Seek(static_cast<long>(first)));
        const std::string maybe = element();
        size_t i = 0;
        while (i < n && model[i] != maybe) ++i;
        ASSERT_EQ(lp.Find(lp.First(), maybe), i < n ? lp.Seek(static_cast<long>(i)) : npos);
        break;
      }
    }
    ASSERT_EQ(lp.size(), model.size()) << "step " << step << " op " << op;
    ASSERT_EQ(Forward(lp), model) << "step " << step << " op " << op;
    if (step % 10 == 0) {
      ASSERT_EQ(Backward(lp), model) << "step " << step;
      ASSERT_TRUE(ListPack::Validate(lp.view(), true)) << "step " << step;
      ASSERT_EQ(lp.view(), Of(model).view()) << "bytes as if built by appends, step " << step;
    }
    if (!model.empty()) {
      const long index = static_cast<long>(rng() % model.size());
      ASSERT_EQ(Str(lp.Get(lp.Seek(index))), model[static_cast<size_t>(index)]);
      ASSERT_EQ(Str(lp.Get(lp.Seek(index - static_cast<long>(model.size())))),
                model[static_cast<size_t>(index)]);
    }
    // Keep it from growing without bound: a list pack of a few hundred elements.
    if (model.size() > 300) {
      lp.DeleteRange(0, 150);
      model.erase(model.begin(), model.begin() + 150);
    }
  }
}

}  // namespace
}  // namespace kv
