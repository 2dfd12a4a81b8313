// SETBIT, GETBIT, BITCOUNT, BITPOS, BITOP, BITFIELD and BITFIELD_RO through the real dispatcher.
// Every expected reply is what Redis 7.0.15 sends for the same command.

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

using namespace std::string_literals;

const std::string kSyntax = Err("syntax error");
const std::string kNotInt = Err("value is not an integer or out of range");
const std::string kBadOffset = Err("bit offset is not an integer or out of range");
const std::string kBadBit = Err("bit is not an integer or out of range");
const std::string kBadType =
    Err("Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 "
        "is.");

std::string Array(const std::vector<std::string>& items) {
  std::string out = "*" + std::to_string(items.size()) + "\r\n";
  for (const std::string& item : items) out += item;
  return out;
}

class BitmapFamilyTest : public ::testing::Test {
 protected:
  CommandHarness h;
};

TEST_F(BitmapFamilyTest, SetBitAndGetBit) {
  EXPECT_EQ(h.Run({"SETBIT", "k", "7", "1"}), Int(0));
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("\x01"));
  EXPECT_EQ(h.Run({"SETBIT", "k", "7", "1"}), Int(1));
  EXPECT_EQ(h.Run({"SETBIT", "k", "7", "0"}), Int(1));
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("\0"s));
  // Writing past the end grows the string with zero bytes.
  EXPECT_EQ(h.Run({"SETBIT", "k", "100", "1"}), Int(0));
  EXPECT_EQ(h.Run({"STRLEN", "k"}), Int(13));
  EXPECT_EQ(h.Run({"GETBIT", "k", "100"}), Int(1));
  EXPECT_EQ(h.Run({"GETBIT", "k", "101"}), Int(0));
  EXPECT_EQ(h.Run({"GETBIT", "k", "1000000"}), Int(0));
  EXPECT_EQ(h.Run({"GETBIT", "missing", "5"}), Int(0));
  // Clearing a bit of a missing key still creates it.
  EXPECT_EQ(h.Run({"SETBIT", "z", "15", "0"}), Int(0));
  EXPECT_EQ(h.Run({"GET", "z"}), Bulk("\0\0"s));
  // Bits of an existing value, most significant first: '`' is 0b01100000.
  EXPECT_EQ(h.Run({"SET", "c", "`"}), kOk);
  EXPECT_EQ(h.Run({"GETBIT", "c", "0"}), Int(0));
  EXPECT_EQ(h.Run({"GETBIT", "c", "1"}), Int(1));
  EXPECT_EQ(h.Run({"GETBIT", "c", "2"}), Int(1));
  EXPECT_EQ(h.Run({"SETBIT", "c", "7", "1"}), Int(0));
  EXPECT_EQ(h.Run({"GET", "c"}), Bulk("a"));
  // An integer value is read as its digits.
  EXPECT_EQ(h.Run({"SET", "n", "1"}), kOk);
  EXPECT_EQ(h.Run({"GETBIT", "n", "2"}), Int(1));
  EXPECT_EQ(h.Run({"GETBIT", "n", "7"}), Int(1));
  // SETBIT keeps the TTL; the changed value is Redis's "raw" encoding.
  EXPECT_EQ(h.Run({"SET", "t", "x", "EX", "100"}), kOk);
  EXPECT_EQ(h.Run({"SETBIT", "t", "0", "1"}), Int(0));
  EXPECT_EQ(h.Run({"TTL", "t"}), Int(100));
  EXPECT_EQ(h.Run({"OBJECT", "ENCODING", "t"}), Bulk("raw"));
}

TEST_F(BitmapFamilyTest, SetBitAndGetBitErrors) {
  for (const char* offset : {"-1", "x", "", "1.5", "+1", "9223372036854775808", "4294967296"}) {
    EXPECT_EQ(h.Run({"SETBIT", "k", offset, "1"}), kBadOffset) << offset;
    EXPECT_EQ(h.Run({"GETBIT", "k", offset}), kBadOffset) << offset;
  }
  for (const char* bit : {"2", "-1", "x", "", "01", "1.0"}) {
    EXPECT_EQ(h.Run({"SETBIT", "k", "1", bit}), kBadBit) << bit;
  }
  // The offset is checked before the bit.
  EXPECT_EQ(h.Run({"SETBIT", "k", "-1", "2"}), kBadOffset);
  EXPECT_EQ(h.Run({"EXISTS", "k"}), Int(0));
  EXPECT_EQ(h.Run({"SETBIT", "k", "1"}), Err("wrong number of arguments for 'setbit' command"));
  EXPECT_EQ(h.Run({"GETBIT", "k"}), Err("wrong number of arguments for 'getbit' command"));
}

TEST_F(BitmapFamilyTest, OffsetLimitFollowsProtoMaxBulkLen) {
  EXPECT_EQ(h.Run({"CONFIG", "SET", "proto-max-bulk-len", "1mb"}), kOk);
  // The last bit of a 1 MB string is allowed; the next byte is not.
  EXPECT_EQ(h.Run({"SETBIT", "k", "8388607", "1"}), Int(0));
  EXPECT_EQ(h.Run({"STRLEN", "k"}), Int(1048576));
  EXPECT_EQ(h.Run({"SETBIT", "k", "8388608", "1"}), kBadOffset);
  EXPECT_EQ(h.Run({"GETBIT", "k", "8388608"}), kBadOffset);
  EXPECT_EQ(h.Run({"BITFIELD", "k", "SET", "u8", "8388608", "1"}), kBadOffset);
  // A field that starts below the limit may end past it, as in Redis.
  EXPECT_EQ(h.Run({"BITFIELD", "b", "SET", "u8", "8388607", "255"}), Array({Int(0)}));
  EXPECT_EQ(h.Run({"STRLEN", "b"}), Int(1048577));
}

TEST_F(BitmapFamilyTest, BitCount) {
  EXPECT_EQ(h.Run({"SET", "s", "foobar"}), kOk);
  EXPECT_EQ(h.Run({"BITCOUNT", "s"}), Int(26));
  EXPECT_EQ(h.Run({"BITCOUNT", "s", "0", "0"}), Int(4));
  EXPECT_EQ(h.Run({"BITCOUNT", "s", "1", "1"}), Int(6));
  EXPECT_EQ(h.Run({"BITCOUNT", "s", "1", "1", "byte"}), Int(6));
  EXPECT_EQ(h.Run({"BITCOUNT", "s", "5", "30", "BIT"}), Int(17));
  EXPECT_EQ(h.Run({"BITCOUNT", "s", "-2", "-1"}), Int(7));
  EXPECT_EQ(h.Run({"BITCOUNT", "s", "-1", "-2"}), Int(0));
  EXPECT_EQ(h.Run({"BITCOUNT", "s", "3", "1"}), Int(0));
  EXPECT_EQ(h.Run({"BITCOUNT", "s", "-100", "100"}), Int(26));
  EXPECT_EQ(h.Run({"BITCOUNT", "s", "9223372036854775807", "9223372036854775807", "bit"}), Int(0));
  EXPECT_EQ(h.Run({"BITCOUNT", "s", "-9223372036854775808", "9223372036854775807", "bit"}),
            Int(26));
  // One bit ranges inside a byte: 'f' is 0b01100110.
  EXPECT_EQ(h.Run({"BITCOUNT", "s", "1", "2", "BIT"}), Int(2));
  EXPECT_EQ(h.Run({"BITCOUNT", "s", "3", "4", "BIT"}), Int(0));
  EXPECT_EQ(h.Run({"BITCOUNT", "s", "0", "0", "BIT"}), Int(0));
  EXPECT_EQ(h.Run({"BITCOUNT", "missing"}), Int(0));
  EXPECT_EQ(h.Run({"SET", "e", ""}), kOk);
  EXPECT_EQ(h.Run({"BITCOUNT", "e"}), Int(0));
  EXPECT_EQ(h.Run({"BITCOUNT", "e", "0", "-1", "bit"}), Int(0));
  // Long strings take the word-at-a-time path: every length and alignment up to 100 bytes.
  std::string ones(100, '\xff');
  EXPECT_EQ(h.Run({"SET", "o", ones}), kOk);
  for (int start = 0; start < 40; start += 3) {
    for (int end = start; end < 100; end += 7) {
      EXPECT_EQ(h.Run({"BITCOUNT", "o", std::to_string(start), std::to_string(end)}),
                Int(8 * (end - start + 1)));
      EXPECT_EQ(h.Run({"BITCOUNT", "o", std::to_string(start), std::to_string(end * 8 + 3), "BIT"}),
                Int(end * 8 + 3 - start + 1));
    }
  }
}

TEST_F(BitmapFamilyTest, BitCountErrors) {
  EXPECT_EQ(h.Run({"SET", "s", "foobar"}), kOk);
  EXPECT_EQ(h.Run({"BITCOUNT", "s", "0"}), kSyntax);
  EXPECT_EQ(h.Run({"BITCOUNT", "s", "0", "1", "bogus"}), kSyntax);
  EXPECT_EQ(h.Run({"BITCOUNT", "s", "0", "1", "bit", "x"}), kSyntax);
  EXPECT_EQ(h.Run({"BITCOUNT", "s", "a", "1"}), kNotInt);
  EXPECT_EQ(h.Run({"BITCOUNT", "s", "0", "b"}), kNotInt);
  // The integers are parsed before the unit.
  EXPECT_EQ(h.Run({"BITCOUNT", "s", "a", "1", "bogus"}), kNotInt);
  // A unit word is read as a C string.
  EXPECT_EQ(h.Run({"BITCOUNT", "s", "0", "0", "bit\0x"s}), Int(0));
  // A missing key counts 0 before any argument is looked at.
  EXPECT_EQ(h.Run({"BITCOUNT", "missing", "0"}), Int(0));
  EXPECT_EQ(h.Run({"BITCOUNT", "missing", "a", "b", "c", "d"}), Int(0));
  EXPECT_EQ(h.Run({"BITCOUNT"}), Err("wrong number of arguments for 'bitcount' command"));
}

TEST_F(BitmapFamilyTest, BitPos) {
  EXPECT_EQ(h.Run({"SET", "p", "\xff\xf0\x00"s}), kOk);
  EXPECT_EQ(h.Run({"BITPOS", "p", "0"}), Int(12));
  EXPECT_EQ(h.Run({"BITPOS", "p", "1"}), Int(0));
  EXPECT_EQ(h.Run({"BITPOS", "p", "1", "1"}), Int(8));
  EXPECT_EQ(h.Run({"BITPOS", "p", "1", "2"}), Int(-1));
  EXPECT_EQ(h.Run({"BITPOS", "p", "0", "2"}), Int(16));
  EXPECT_EQ(h.Run({"BITPOS", "p", "1", "7", "15", "BIT"}), Int(7));
  EXPECT_EQ(h.Run({"BITPOS", "p", "0", "7", "15", "bit"}), Int(12));
  EXPECT_EQ(h.Run({"BITPOS", "p", "0", "0", "10", "bit"}), Int(-1));
  EXPECT_EQ(h.Run({"BITPOS", "p", "1", "-8", "-1", "bit"}), Int(-1));
  EXPECT_EQ(h.Run({"BITPOS", "p", "0", "0", "0"}), Int(-1));
  EXPECT_EQ(h.Run({"BITPOS", "p", "1", "2", "1"}), Int(-1));
  // Ones everywhere: without an end the first clear bit is just past the string; with one there
  // is none.
  EXPECT_EQ(h.Run({"SET", "o", std::string(20, '\xff')}), kOk);
  EXPECT_EQ(h.Run({"BITPOS", "o", "0"}), Int(160));
  EXPECT_EQ(h.Run({"BITPOS", "o", "0", "3"}), Int(160));
  EXPECT_EQ(h.Run({"BITPOS", "o", "0", "3", "-1"}), Int(-1));
  EXPECT_EQ(h.Run({"BITPOS", "o", "0", "3", "100", "bit"}), Int(-1));
  // Zeros everywhere: no set bit; clear bits from the start of the range.
  EXPECT_EQ(h.Run({"SET", "z", std::string(20, '\0')}), kOk);
  EXPECT_EQ(h.Run({"BITPOS", "z", "1"}), Int(-1));
  EXPECT_EQ(h.Run({"BITPOS", "z", "0", "5"}), Int(40));
  EXPECT_EQ(h.Run({"BITPOS", "z", "0", "43", "50", "bit"}), Int(43));
  EXPECT_EQ(h.Run({"SETBIT", "z", "151", "1"}), Int(0));
  EXPECT_EQ(h.Run({"BITPOS", "z", "1"}), Int(151));
  EXPECT_EQ(h.Run({"BITPOS", "z", "1", "3", "18"}), Int(151));
  EXPECT_EQ(h.Run({"BITPOS", "z", "1", "3", "17"}), Int(-1));
  EXPECT_EQ(h.Run({"BITPOS", "z", "1", "0", "150", "bit"}), Int(-1));
  EXPECT_EQ(h.Run({"BITPOS", "z", "1", "0", "151", "bit"}), Int(151));
  // A missing key is an endless run of zeros.
  EXPECT_EQ(h.Run({"BITPOS", "missing", "1"}), Int(-1));
  EXPECT_EQ(h.Run({"BITPOS", "missing", "0"}), Int(0));
  EXPECT_EQ(h.Run({"BITPOS", "missing", "0", "x", "y", "z"}), Int(0));
  EXPECT_EQ(h.Run({"SET", "e", ""}), kOk);
  EXPECT_EQ(h.Run({"BITPOS", "e", "0"}), Int(-1));
  EXPECT_EQ(h.Run({"BITPOS", "e", "1"}), Int(-1));
}

TEST_F(BitmapFamilyTest, BitPosErrors) {
  EXPECT_EQ(h.Run({"SET", "p", "abc"}), kOk);
  EXPECT_EQ(h.Run({"BITPOS", "p", "2"}), Err("The bit argument must be 1 or 0."));
  EXPECT_EQ(h.Run({"BITPOS", "missing", "-1"}), Err("The bit argument must be 1 or 0."));
  EXPECT_EQ(h.Run({"BITPOS", "p", "x"}), kNotInt);
  EXPECT_EQ(h.Run({"BITPOS", "p", "1", "x"}), kNotInt);
  EXPECT_EQ(h.Run({"BITPOS", "p", "1", "0", "x"}), kNotInt);
  EXPECT_EQ(h.Run({"BITPOS", "p", "1", "0", "1", "x"}), kSyntax);
  // The unit is checked before the end.
  EXPECT_EQ(h.Run({"BITPOS", "p", "1", "0", "x", "bogus"}), kSyntax);
  EXPECT_EQ(h.Run({"BITPOS", "p", "1", "0", "1", "bit", "x"}), kSyntax);
  EXPECT_EQ(h.Run({"BITPOS", "p"}), Err("wrong number of arguments for 'bitpos' command"));
}

TEST_F(BitmapFamilyTest, BitOp) {
  EXPECT_EQ(h.Run({"SET", "a", "\xf0\x0f\xff"s}), kOk);
  EXPECT_EQ(h.Run({"SET", "b", "\x3c\x3c"s}), kOk);
  EXPECT_EQ(h.Run({"BITOP", "AND", "d", "a", "b"}), Int(3));
  EXPECT_EQ(h.Run({"GET", "d"}), Bulk("\x30\x0c\x00"s));
  EXPECT_EQ(h.Run({"BITOP", "or", "d", "a", "b"}), Int(3));
  EXPECT_EQ(h.Run({"GET", "d"}), Bulk("\xfc\x3f\xff"s));
  EXPECT_EQ(h.Run({"BITOP", "Xor", "d", "a", "b"}), Int(3));
  EXPECT_EQ(h.Run({"GET", "d"}), Bulk("\xcc\x33\xff"s));
  EXPECT_EQ(h.Run({"BITOP", "NOT", "d", "a"}), Int(3));
  EXPECT_EQ(h.Run({"GET", "d"}), Bulk("\x0f\xf0\x00"s));
  // One source: a copy. A missing source is all zeros.
  EXPECT_EQ(h.Run({"BITOP", "AND", "d", "b"}), Int(2));
  EXPECT_EQ(h.Run({"GET", "d"}), Bulk("\x3c\x3c"s));
  EXPECT_EQ(h.Run({"BITOP", "AND", "d", "a", "missing"}), Int(3));
  EXPECT_EQ(h.Run({"GET", "d"}), Bulk("\0\0\0"s));
  EXPECT_EQ(h.Run({"BITOP", "OR", "d", "missing", "b"}), Int(2));
  EXPECT_EQ(h.Run({"GET", "d"}), Bulk("\x3c\x3c"s));
  // The destination may be a source; its TTL is dropped; the result is "raw".
  EXPECT_EQ(h.Run({"EXPIRE", "a", "100"}), Int(1));
  EXPECT_EQ(h.Run({"BITOP", "XOR", "a", "a", "b"}), Int(3));
  EXPECT_EQ(h.Run({"GET", "a"}), Bulk("\xcc\x33\xff"s));
  EXPECT_EQ(h.Run({"TTL", "a"}), Int(-1));
  EXPECT_EQ(h.Run({"OBJECT", "ENCODING", "a"}), Bulk("raw"));
  // Every source empty or missing: the destination is deleted.
  EXPECT_EQ(h.Run({"SET", "e", ""}), kOk);
  EXPECT_EQ(h.Run({"BITOP", "OR", "d", "missing", "e"}), Int(0));
  EXPECT_EQ(h.Run({"EXISTS", "d"}), Int(0));
  EXPECT_EQ(h.Run({"BITOP", "NOT", "d", "missing"}), Int(0));
  EXPECT_EQ(h.Run({"EXISTS", "d"}), Int(0));
}

TEST_F(BitmapFamilyTest, BitOpLongStrings) {
  // Lengths that cover the word loop and the byte tail, with sources of different lengths.
  std::string a(77, '\0'), b(45, '\0');
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<char>(i * 37 + 11);
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<char>(i * 91 + 5);
  EXPECT_EQ(h.Run({"MSET", "a", a, "b", b}), kOk);
  std::string and_, or_, xor_, not_;
  for (size_t i = 0; i < a.size(); ++i) {
    const char y = i < b.size() ? b[i] : '\0';
    and_ += static_cast<char>(a[i] & y);
    or_ += static_cast<char>(a[i] | y);
    xor_ += static_cast<char>(a[i] ^ y);
    not_ += static_cast<char>(~a[i]);
  }
  EXPECT_EQ(h.Run({"BITOP", "AND", "d", "a", "b"}), Int(77));
  EXPECT_EQ(h.Run({"GET", "d"}), Bulk(and_));
  EXPECT_EQ(h.Run({"BITOP", "OR", "d", "b", "a"}), Int(77));
  EXPECT_EQ(h.Run({"GET", "d"}), Bulk(or_));
  EXPECT_EQ(h.Run({"BITOP", "XOR", "d", "b", "a"}), Int(77));
  EXPECT_EQ(h.Run({"GET", "d"}), Bulk(xor_));
  EXPECT_EQ(h.Run({"BITOP", "NOT", "d", "a"}), Int(77));
  EXPECT_EQ(h.Run({"GET", "d"}), Bulk(not_));
}

TEST_F(BitmapFamilyTest, BitOpErrors) {
  EXPECT_EQ(h.Run({"BITOP", "NOT", "d", "a", "b"}),
            Err("BITOP NOT must be called with a single source key."));
  EXPECT_EQ(h.Run({"BITOP", "NAND", "d", "a"}), kSyntax);
  EXPECT_EQ(h.Run({"BITOP", "and\0x"s, "d", "a"}), Int(0));
  EXPECT_EQ(h.Run({"BITOP", "AND", "d"}), Err("wrong number of arguments for 'bitop' command"));
}

TEST_F(BitmapFamilyTest, BitfieldGetSetIncrBy) {
  EXPECT_EQ(h.Run({"BITFIELD", "b", "SET", "u8", "0", "255", "GET", "u8", "0"}),
            Array({Int(0), Int(255)}));
  EXPECT_EQ(h.Run({"BITFIELD", "b", "GET", "i8", "0", "GET", "u4", "4", "GET", "i4", "4"}),
            Array({Int(-1), Int(15), Int(-1)}));
  // '#n' offsets count in units of the type's width.
  EXPECT_EQ(h.Run({"BITFIELD", "b", "SET", "i8", "#2", "-1", "GET", "i8", "#2", "GET", "u8", "16"}),
            Array({Int(0), Int(-1), Int(255)}));
  EXPECT_EQ(h.Run({"STRLEN", "b"}), Int(3));
  EXPECT_EQ(h.Run({"BITFIELD", "b", "INCRBY", "u2", "100", "1", "OVERFLOW", "SAT", "INCRBY", "u2",
                   "102", "1"}),
            Array({Int(1), Int(1)}));
  EXPECT_EQ(h.Run({"STRLEN", "b"}), Int(13));
  // Fields across byte boundaries, 64 bits wide, and beyond the end of the string (zeros).
  EXPECT_EQ(h.Run({"BITFIELD", "w", "SET", "i64", "3", "-2", "GET", "i64", "3", "GET", "u63", "4",
                   "GET", "u8", "1000"}),
            Array({Int(0), Int(-2), Int(9223372036854775806), Int(0)}));
  EXPECT_EQ(h.Run({"BITFIELD", "w", "SET", "i64", "3", "9223372036854775807"}), Array({Int(-2)}));
  EXPECT_EQ(h.Run({"BITFIELD", "w", "GET", "i1", "3", "GET", "u1", "4"}), Array({Int(0), Int(1)}));
  // No operation at all: an empty array, and nothing created.
  EXPECT_EQ(h.Run({"BITFIELD", "none"}), "*0\r\n");
  EXPECT_EQ(h.Run({"BITFIELD", "none", "OVERFLOW", "SAT"}), "*0\r\n");
  EXPECT_EQ(h.Run({"BITFIELD", "none", "GET", "u8", "0"}), Array({Int(0)}));
  EXPECT_EQ(h.Run({"EXISTS", "none"}), Int(0));
}

TEST_F(BitmapFamilyTest, BitfieldOverflow) {
  // Unsigned: WRAP (the default), SAT and FAIL, up and down.
  EXPECT_EQ(h.Run({"BITFIELD", "u", "SET", "u8", "0", "250"}), Array({Int(0)}));
  EXPECT_EQ(h.Run({"BITFIELD", "u", "INCRBY", "u8", "0", "10"}), Array({Int(4)}));
  EXPECT_EQ(h.Run({"BITFIELD", "u", "INCRBY", "u8", "0", "-5"}), Array({Int(255)}));
  EXPECT_EQ(h.Run({"BITFIELD", "u", "OVERFLOW", "SAT", "INCRBY", "u8", "0", "10", "INCRBY", "u8",
                   "0", "-300"}),
            Array({Int(255), Int(0)}));
  EXPECT_EQ(h.Run({"BITFIELD", "u", "OVERFLOW", "FAIL", "INCRBY", "u8", "0", "-1", "INCRBY", "u8",
                   "0", "256", "INCRBY", "u8", "0", "7", "GET", "u8", "0"}),
            Array({kNil, kNil, Int(7), Int(7)}));
  // SET checks the value against the type.
  EXPECT_EQ(h.Run({"BITFIELD", "u", "SET", "u8", "0", "300", "GET", "u8", "0"}),
            Array({Int(7), Int(44)}));
  EXPECT_EQ(h.Run({"BITFIELD", "u", "OVERFLOW", "SAT", "SET", "u8", "0", "300", "SET", "u8", "0",
                   "-1", "GET", "u8", "0"}),
            Array({Int(44), Int(255), Int(255)}));
  EXPECT_EQ(h.Run({"BITFIELD", "u", "OVERFLOW", "FAIL", "SET", "u8", "0", "256", "GET", "u8", "0"}),
            Array({kNil, Int(255)}));
  // Signed.
  EXPECT_EQ(h.Run({"BITFIELD", "s", "SET", "i8", "0", "120"}), Array({Int(0)}));
  EXPECT_EQ(h.Run({"BITFIELD", "s", "INCRBY", "i8", "0", "10"}), Array({Int(-126)}));
  EXPECT_EQ(h.Run({"BITFIELD", "s", "INCRBY", "i8", "0", "-10"}), Array({Int(120)}));
  EXPECT_EQ(h.Run({"BITFIELD", "s", "OVERFLOW", "SAT", "INCRBY", "i8", "0", "100", "INCRBY", "i8",
                   "0", "-1000"}),
            Array({Int(127), Int(-128)}));
  EXPECT_EQ(h.Run({"BITFIELD", "s", "OVERFLOW", "FAIL", "INCRBY", "i8", "0", "-1", "SET", "i8", "0",
                   "200", "GET", "i8", "0"}),
            Array({kNil, kNil, Int(-128)}));
  EXPECT_EQ(h.Run({"BITFIELD", "s", "SET", "i8", "0", "200", "GET", "i8", "0"}),
            Array({Int(-128), Int(-56)}));
  // 64-bit signed limits.
  EXPECT_EQ(
      h.Run({"BITFIELD", "l", "SET", "i64", "0", "9223372036854775807", "INCRBY", "i64", "0", "1"}),
      Array({Int(0), Int(INT64_MIN)}));
  EXPECT_EQ(h.Run({"BITFIELD", "l", "OVERFLOW", "SAT", "INCRBY", "i64", "0", "-1", "INCRBY", "i64",
                   "0", "9223372036854775807", "INCRBY", "i64", "0", "1"}),
            Array({Int(INT64_MIN), Int(-1), Int(0)}));
  EXPECT_EQ(h.Run({"BITFIELD", "l", "OVERFLOW", "FAIL", "SET", "i64", "0", "9223372036854775807",
                   "INCRBY", "i64", "0", "1", "GET", "i64", "0"}),
            Array({Int(0), kNil, Int(INT64_MAX)}));
  // A 63-bit unsigned field.
  EXPECT_EQ(
      h.Run({"BITFIELD", "m", "SET", "u63", "0", "9223372036854775807", "INCRBY", "u63", "0", "1"}),
      Array({Int(0), Int(0)}));
}

TEST_F(BitmapFamilyTest, BitfieldErrors) {
  for (const char* type : {"u64", "i65", "i0", "u0", "x8", "", "i", "u-1", "I8", "u 8"}) {
    EXPECT_EQ(h.Run({"BITFIELD", "b", "GET", type, "0"}), kBadType) << type;
  }
  // The type is read as a C string.
  EXPECT_EQ(h.Run({"BITFIELD", "b", "GET", "u8\0x"s, "0"}), Array({Int(0)}));
  for (const char* offset : {"-1", "x", "#", "#-1", "#x", "1.5"}) {
    EXPECT_EQ(h.Run({"BITFIELD", "b", "GET", "u8", offset}), kBadOffset) << offset;
  }
  EXPECT_EQ(h.Run({"BITFIELD", "b", "SET", "u8", "0", "x"}), kNotInt);
  EXPECT_EQ(h.Run({"BITFIELD", "b", "INCRBY", "u8", "0", "1.5"}), kNotInt);
  EXPECT_EQ(h.Run({"BITFIELD", "b", "OVERFLOW", "bogus"}), Err("Invalid OVERFLOW type specified"));
  EXPECT_EQ(h.Run({"BITFIELD", "b", "OVERFLOW"}), kSyntax);
  EXPECT_EQ(h.Run({"BITFIELD", "b", "GET", "u8"}), kSyntax);
  EXPECT_EQ(h.Run({"BITFIELD", "b", "SET", "u8", "0"}), kSyntax);
  EXPECT_EQ(h.Run({"BITFIELD", "b", "INCRBY", "u8", "0"}), kSyntax);
  EXPECT_EQ(h.Run({"BITFIELD", "b", "BOGUS", "u8", "0"}), kSyntax);
  // Everything is parsed before anything runs: a later error leaves the key untouched.
  EXPECT_EQ(h.Run({"BITFIELD", "b", "SET", "u8", "0", "1", "GET", "u64", "0"}), kBadType);
  EXPECT_EQ(h.Run({"EXISTS", "b"}), Int(0));
  EXPECT_EQ(h.Run({"BITFIELD"}), Err("wrong number of arguments for 'bitfield' command"));
}

TEST_F(BitmapFamilyTest, BitfieldFailStillCreatesTheKey) {
  EXPECT_EQ(h.Run({"BITFIELD", "b", "OVERFLOW", "FAIL", "INCRBY", "u8", "8", "300"}),
            Array({kNil}));
  EXPECT_EQ(h.Run({"GET", "b"}), Bulk("\0\0"s));
}

TEST_F(BitmapFamilyTest, BitfieldRo) {
  EXPECT_EQ(h.Run({"SET", "b", "\x80\x01"s}), kOk);
  EXPECT_EQ(h.Run({"BITFIELD_RO", "b", "GET", "u8", "0", "GET", "i16", "0", "GET", "u1", "15"}),
            Array({Int(128), Int(-32767), Int(1)}));
  EXPECT_EQ(h.Run({"BITFIELD_RO", "b", "SET", "u8", "0", "1"}),
            Err("BITFIELD_RO only supports the GET subcommand"));
  EXPECT_EQ(h.Run({"BITFIELD_RO", "b", "GET", "u8", "0", "INCRBY", "u8", "0", "1"}),
            Err("BITFIELD_RO only supports the GET subcommand"));
  // OVERFLOW is accepted, as the parser is BITFIELD's.
  EXPECT_EQ(h.Run({"BITFIELD_RO", "b", "OVERFLOW", "SAT", "GET", "u8", "0"}), Array({Int(128)}));
  EXPECT_EQ(h.Run({"BITFIELD_RO", "b", "GET", "u64", "0"}), kBadType);
  EXPECT_EQ(h.Run({"BITFIELD_RO", "missing", "GET", "i8", "0"}), Array({Int(0)}));
  EXPECT_EQ(h.Run({"BITFIELD_RO", "b"}), "*0\r\n");
}

TEST_F(BitmapFamilyTest, ReadsCountKeyspaceHitsAndMisses) {
  EXPECT_EQ(h.Run({"SET", "k", "x"}), kOk);
  const uint64_t hits = h.state().stats.keyspace_hits;
  const uint64_t misses = h.state().stats.keyspace_misses;
  h.Run({"GETBIT", "k", "0"});
  h.Run({"BITCOUNT", "missing"});
  h.Run({"BITPOS", "k", "1"});
  h.Run({"BITOP", "OR", "d", "k", "missing"});
  h.Run({"BITFIELD_RO", "k", "GET", "u8", "0"});
  h.Run({"SETBIT", "k", "1", "1"});  // a write lookup counts nothing
  EXPECT_EQ(h.state().stats.keyspace_hits, hits + 4);
  EXPECT_EQ(h.state().stats.keyspace_misses, misses + 2);
}

TEST_F(BitmapFamilyTest, ExpiredKeysAreMissing) {
  EXPECT_EQ(h.Run({"SET", "k", "\xff"s, "PX", "10"}), kOk);
  EXPECT_EQ(h.Run({"SET", "j", "\x0f"s}), kOk);
  h.clock().Advance(11);
  EXPECT_EQ(h.Run({"GETBIT", "k", "0"}), Int(0));
  EXPECT_EQ(h.Run({"SET", "k", "\xff"s, "PX", "10"}), kOk);
  h.clock().Advance(11);
  EXPECT_EQ(h.Run({"BITOP", "OR", "d", "k", "j"}), Int(1));
  EXPECT_EQ(h.Run({"GET", "d"}), Bulk("\x0f"s));
  EXPECT_EQ(h.Run({"SET", "k", "\xff"s, "PX", "10"}), kOk);
  h.clock().Advance(11);
  EXPECT_EQ(h.Run({"SETBIT", "k", "7", "1"}), Int(0));
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("\x01"s));
  EXPECT_EQ(h.Run({"TTL", "k"}), Int(-1));
}

}  // namespace
}  // namespace kv::test
