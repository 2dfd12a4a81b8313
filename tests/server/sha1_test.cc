// server/sha1: FIPS 180-2's test vectors, whole and fed in pieces.
#include "server/sha1.h"

#include <string>
#include <string_view>

#include "gtest/gtest.h"

namespace kv {
namespace {

std::string Hex(std::string_view s) {
  char out[40];
  Sha1Hex(s, out);
  return std::string(out, 40);
}

TEST(Sha1Test, KnownDigests) {
  EXPECT_EQ(Hex(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(Hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(Hex("Pizza & Mandolino"), "74822d82031af7493c20eefa13bd07ec4fada82f");
  // 56 and 64 bytes: the padding needs a second block, and a whole block is followed by one.
  EXPECT_EQ(Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
  EXPECT_EQ(Hex(std::string(64, 'a')), "0098ba824b5c16427bd7a1122a5a442a25ec644d");
  EXPECT_EQ(Hex(std::string(1000000, 'a')), "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

TEST(Sha1Test, PiecesGiveTheSameDigest) {
  std::string text;
  for (int i = 0; i < 300; ++i) text.push_back(static_cast<char>('a' + i % 26));
  for (size_t len : {0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 300}) {
    const std::string_view whole(text.data(), len);
    Sha1 at_once;
    at_once.Update(whole);
    for (size_t piece : {1, 7, 64}) {
      Sha1 sha;
      for (size_t at = 0; at < len; at += piece) sha.Update(whole.substr(at, piece));
      EXPECT_EQ(sha.Final(), Sha1(at_once).Final()) << len << " in pieces of " << piece;
    }
  }
}

}  // namespace
}  // namespace kv
