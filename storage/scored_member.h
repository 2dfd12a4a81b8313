#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace kv {

// One member of a big sorted set with its score, in one heap block of just those bytes:
//
//   [score: 8-byte double][size: 1 byte, or 0xFF then an 8-byte size][member bytes]
//
// A 16-byte member takes a 25-byte block (32 with the allocator's rounding), where Redis spends an
// sds (32 bytes), a skiplist node (48 to 64) and a dictEntry (32). The sorted set's tree and its
// member index both point at the block, so the member is stored once and the score sits next to
// it: a lookup by member finds the score without touching the tree.
//
// The type is never constructed: Make allocates a block and Free releases it.
class ScoredMember {
 public:
  ScoredMember() = delete;
  ScoredMember(const ScoredMember&) = delete;
  ScoredMember& operator=(const ScoredMember&) = delete;

  static ScoredMember* Make(double score, std::string_view member);
  static void Free(ScoredMember* m);

  double score() const {
    double s;
    std::memcpy(&s, bytes(), sizeof s);
    return s;
  }
  void set_score(double s) { std::memcpy(bytes(), &s, sizeof s); }

  std::string_view member() const {
    const unsigned char* p = bytes() + kScoreBytes;
    if (p[0] != kLongSize) return {reinterpret_cast<const char*>(p + 1), p[0]};
    uint64_t n;
    std::memcpy(&n, p + 1, sizeof n);
    return {reinterpret_cast<const char*>(p + 9), static_cast<size_t>(n)};
  }

  // Bytes taken from the allocator for the block.
  size_t allocated() const;
  // The block size Make asks for.
  static size_t BlockSize(size_t member_size) {
    return kScoreBytes + (member_size < kLongSize ? 1 : 9) + member_size;
  }

 private:
  static constexpr size_t kScoreBytes = 8;
  static constexpr unsigned char kLongSize = 0xFF;

  const unsigned char* bytes() const { return reinterpret_cast<const unsigned char*>(this); }
  unsigned char* bytes() { return reinterpret_cast<unsigned char*>(this); }
};

// The order of a sorted set (Redis's zslInsert): by score, then by member bytes as memcmp (a
// prefix first). Scores are never NaN.
inline int CompareScored(double a_score, std::string_view a_member, double b_score,
                         std::string_view b_member) {
  if (a_score < b_score) return -1;
  if (a_score > b_score) return 1;
  const int c = a_member.compare(b_member);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

}  // namespace kv
