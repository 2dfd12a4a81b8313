#include "storage/hyperloglog.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace kv::hll {
namespace {

TEST(HyperLogLogTest, NewHllIsOneXZeroRun) {
  const std::string s = Create();
  ASSERT_EQ(s.size(), kHeaderSize + 2);
  EXPECT_EQ(s.substr(0, 4), "HYLL");
  EXPECT_EQ(EncodingOf(s), kSparse);
  EXPECT_EQ(DecodeSparse(s), "Z:16384");
  EXPECT_TRUE(LooksValid(s));
  uint64_t card = 1;
  ASSERT_TRUE(Count(s, &card));
  EXPECT_EQ(card, 0u);
}

TEST(HyperLogLogTest, MurmurHash64AKnownValues) {
  // Hashes of Redis's: hllPatLen's seed, and the empty string.
  EXPECT_EQ(MurmurHash64A("", 0, 0xadc83b19U), MurmurHash64A("", 0, 0xadc83b19U));
  EXPECT_NE(MurmurHash64A("a", 1, 0xadc83b19U), MurmurHash64A("b", 1, 0xadc83b19U));
  // Every tail length 0..7 differs from its neighbours.
  const std::string s = "abcdefghijklmnop";
  for (int n = 1; n < 16; ++n) {
    EXPECT_NE(MurmurHash64A(s.data(), n, 0xadc83b19U), MurmurHash64A(s.data(), n - 1, 0xadc83b19U));
  }
  size_t index;
  const int count = PatternLength("a", &index);
  EXPECT_GE(count, 1);
  EXPECT_LE(count, 51);
  EXPECT_LT(index, kRegisters);
}

TEST(HyperLogLogTest, DenseRegistersDoNotDisturbNeighbours) {
  std::vector<uint8_t> registers((kRegisters * 6 + 7) / 8, 0);
  std::mt19937 rng(1);
  std::vector<uint8_t> model(kRegisters);
  for (int round = 0; round < 3; ++round) {
    for (size_t i = 0; i < kRegisters; ++i) {
      model[i] = static_cast<uint8_t>(rng() & 63);
      SetDenseRegister(registers.data(), i, model[i]);
    }
    for (size_t i = 0; i < kRegisters; ++i)
      ASSERT_EQ(GetDenseRegister(registers.data(), i), model[i]);
  }
}

// The sparse form stays equivalent to a dense one fed the same elements, converts when a run
// would pass the byte limit, and counts the same.
TEST(HyperLogLogTest, SparseAndDenseAgree) {
  for (size_t max_bytes : {size_t{3000}, size_t{100}, size_t{20000}}) {
    CompactString sparse(Create());
    CompactString dense(Create());
    ASSERT_TRUE(SparseToDense(dense));
    ASSERT_EQ(dense.size(), kDenseSize);
    std::mt19937_64 rng(max_bytes);
    for (int i = 1; i <= 30000; ++i) {
      const std::string e = std::to_string(rng());
      const int a = Add(sparse, e, max_bytes);
      const int b = Add(dense, e, max_bytes);
      ASSERT_GE(a, 0);
      ASSERT_EQ(a, b) << i;
      if (EncodingOf(sparse.view()) == kSparse)
        ASSERT_LE(sparse.size(), std::max<size_t>(max_bytes, 20));
      if (i % 1000 == 0 || i < 50) {
        uint64_t c1, c2;
        ASSERT_TRUE(Count(sparse.view(), &c1));
        ASSERT_TRUE(Count(dense.view(), &c2));
        ASSERT_EQ(c1, c2);
        // Within six standard errors, as Redis's self test demands.
        if (i > 10) {
          EXPECT_LE(std::fabs(static_cast<double>(c1) - i), std::ceil(1.04 / 128 * 6 * i)) << i;
        }
      }
    }
    // Past the limit it went dense; under a big limit it may still be sparse.
    if (max_bytes <= 3000) EXPECT_EQ(EncodingOf(sparse.view()), kDense);
    CompactString as_dense(sparse.view());
    ASSERT_TRUE(SparseToDense(as_dense));
    for (size_t r = 0; r < kRegisters; ++r) {
      ASSERT_EQ(DenseRegister(as_dense.view(), r), DenseRegister(dense.view(), r));
    }
  }
}

TEST(HyperLogLogTest, MergeAndRawCount) {
  CompactString a(Create()), b(Create());
  for (int i = 0; i < 1000; ++i) Add(a, "a" + std::to_string(i), 3000);
  for (int i = 0; i < 1000; ++i) Add(b, "b" + std::to_string(i), 3000);
  std::vector<uint8_t> max(kRegisters, 0);
  ASSERT_TRUE(MergeInto(a.view(), max.data()));
  ASSERT_TRUE(MergeInto(b.view(), max.data()));
  const uint64_t card = CountRaw(max.data());
  EXPECT_NEAR(static_cast<double>(card), 2000, 2000 * 0.05);
}

TEST(HyperLogLogTest, CacheBits) {
  CompactString s(Create());
  uint64_t card;
  EXPECT_TRUE(CachedCardinality(s.view(), &card));  // a new HLL's cache holds 0
  EXPECT_EQ(card, 0u);
  Add(s, "x", 3000);
  EXPECT_FALSE(CachedCardinality(s.view(), &card));
  SetCachedCardinality(s, 12345);
  ASSERT_TRUE(CachedCardinality(s.view(), &card));
  EXPECT_EQ(card, 12345u);
  InvalidateCache(s);
  EXPECT_EQ(static_cast<uint8_t>(s.view()[15]) & 0x80, 0x80);
}

// Random damage is detected or tolerated, never read out of bounds (run under ASan in CI).
TEST(HyperLogLogTest, CorruptionNeverReadsOutside) {
  std::mt19937 rng(9);
  for (int round = 0; round < 2000; ++round) {
    CompactString s(Create());
    const int n = static_cast<int>(rng() % 3000);
    for (int i = 0; i < n; ++i) Add(s, std::to_string(rng()), 3000);
    for (int k = 0; k < 5; ++k) {
      const size_t pos = rng() % s.size();
      s.data()[pos] = static_cast<char>(rng());
      if (rng() % 2) break;
    }
    if (!LooksValid(s.view())) continue;
    uint64_t card;
    Count(s.view(), &card);
    std::vector<uint8_t> max(kRegisters, 0);
    MergeInto(s.view(), max.data());
    Add(s, "more", 3000);
    SparseToDense(s);
  }
}

// A sparse HLL with `runs` (raw opcode bytes) after the header.
CompactString Sparse(std::string_view runs) {
  std::string s = Create();
  s.resize(kHeaderSize);
  s.append(runs);
  return CompactString(s);
}

// Runs that cover every register and then go on are corrupt for every reader (Redis 7.0.15 as
// shipped, with the CVE-2025-32023 fix), not only those that fall short.
TEST(HyperLogLogTest, RunsPastTheLastRegisterAreCorrupt) {
  for (const std::string extra : {std::string("\x80"), std::string(1, '\0')}) {
    std::string runs = "\x7f\xff";
    runs += extra;
    CompactString s = Sparse(runs);
    uint64_t card;
    EXPECT_FALSE(Count(s.view(), &card));
    std::vector<uint8_t> max(kRegisters, 0);
    EXPECT_FALSE(MergeInto(s.view(), max.data()));
    EXPECT_FALSE(SparseToDense(s));
    EXPECT_EQ(EncodingOf(s.view()), kSparse);
  }
  CompactString exact = Sparse("\x7f\xfe\x80");  // 16383 zeros and one register of 1
  uint64_t card;
  ASSERT_TRUE(Count(exact.view(), &card));
  EXPECT_EQ(card, 1u);
  std::vector<uint8_t> max(kRegisters, 0);
  ASSERT_TRUE(MergeInto(exact.view(), max.data()));
  EXPECT_EQ(max[kRegisters - 1], 1);
  ASSERT_TRUE(SparseToDense(exact));
  EXPECT_EQ(DenseRegister(exact.view(), kRegisters - 1), 1);
}

// An XZERO opcode in the last byte takes its second byte from past the end: Redis's NUL, or the
// byte a split of such an opcode left there.
TEST(HyperLogLogTest, XZeroCutShortByTheEnd) {
  CompactString s = Sparse("\x5f\xff\x5f");  // XZERO 8192, then XZERO (0x1f << 8 | NUL) + 1
  EXPECT_EQ(DecodeSparse(s.view()), "Z:8192 Z:7937");
  uint64_t card;
  EXPECT_FALSE(Count(s.view(), &card));  // 16129 registers
  // Register 8192 + 100 splits the cut-short XZERO into XZERO 100, VAL, XZERO 7836: the last
  // XZERO's second byte (7835 & 0xff) lands past the new end and is still read from there.
  ASSERT_EQ(SetRegister(s, 8192 + 100, 3, 3000), 1);
  EXPECT_EQ(static_cast<uint8_t>(s.view().back()), 0x40 | (7835 >> 8));
  EXPECT_EQ(DecodeSparse(s.view()), "Z:8192 Z:100 v:3,1 Z:7836");
  ASSERT_EQ(SetRegister(s, 8192 + 101 + 7000, 2, 3000), 1);
  EXPECT_EQ(DecodeSparse(s.view()), "Z:8192 Z:100 v:3,1 Z:7000 v:2,1 Z:835");
  // A string that grew otherwise (APPEND) has the NUL past its end again.
  s.append(std::string("\0\x7f", 2));
  EXPECT_EQ(DecodeSparse(s.view()), "Z:8192 Z:100 v:3,1 Z:7000 v:2,1 Z:769 Z:16129");
}

}  // namespace
}  // namespace kv::hll
