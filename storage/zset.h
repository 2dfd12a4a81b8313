#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>

#include "absl/functional/function_ref.h"
#include "storage/aggregate.h"
#include "storage/listpack.h"
#include "storage/member_index.h"
#include "storage/score_tree.h"

namespace kv {

// A range of scores (Redis's zrangespec): min and max, each inclusive or exclusive.
struct ScoreRange {
  double min = 0;
  double max = 0;
  bool minex = false;
  bool maxex = false;

  bool GteMin(double v) const { return minex ? v > min : v >= min; }
  bool LteMax(double v) const { return maxex ? v < max : v <= max; }
  // Ranges that can hold nothing (zslIsInRange's first test).
  bool Empty() const { return min > max || (min == max && (minex || maxex)); }
};

// A range of members (Redis's zlexrangespec): each end a string, inclusive or exclusive, or the
// smallest ("-") or largest ("+") string possible.
struct LexRange {
  enum class Bound : uint8_t { kValue, kMin, kMax };
  std::string_view min, max;
  Bound min_bound = Bound::kValue;
  Bound max_bound = Bound::kValue;
  bool minex = false;
  bool maxex = false;

  // Redis's sdscmplex between two ends or a member (Bound::kValue).
  static int Compare(Bound ab, std::string_view a, Bound bb, std::string_view b);
  bool GteMin(std::string_view v) const {
    const int c = Compare(Bound::kValue, v, min_bound, min);
    return minex ? c > 0 : c >= 0;
  }
  bool LteMax(std::string_view v) const {
    const int c = Compare(Bound::kValue, v, max_bound, max);
    return maxex ? c < 0 : c <= 0;
  }
  bool Empty() const {
    const int c = Compare(min_bound, min, max_bound, max);
    return c > 0 || (c == 0 && (minex || maxex));
  }
};

// A sorted set, as Redis 7.0 keeps it: a listpack of member, score pairs in order while small
// ("listpack", byte for byte Redis's: scores written as Redis's zzlInsertAt writes them), and
// past zset-max-listpack-entries / -value its big form ("skiplist" to OBJECT ENCODING): the
// ScoreTree for order and ranks, and the MemberIndex for member lookups, sharing one
// ScoredMember block per member. It converts at Redis's moments: the thresholds come from the
// caller, checked as zsetAdd checks them; it goes back to a listpack only when asked
// (ConvertToListPackIfNeeded, as Redis's zsetConvertToListpackIfNeeded for results it builds).
//
// Bytes of overhead per member of the big form (what the set's used_memory holds beyond each
// member's bytes and its 8-byte score), for 1,000,000 14-byte members with random scores
// (bench/harness.py's big set): 34.6 in kvserver on Debian's mimalloc, 87.8 in Redis 7.0.15.
// kvserver's: about 10 bytes of rounding of each 23-byte ScoredMember block to mimalloc's 32-byte
// class (24 under glibc), 10.5 of tree leaves (61 pointers in 512 bytes, about 80% full) and
// 11 to 14 of index slots. tests/storage/zset_test.cc pins the structure's own count of it.
//
// The object itself is 16 bytes (vtable pointer and one word: see below), so that a small set
// costs its key's entry, this object and its listpack block, as Redis's robj and listpack.
class ZSet final : public Aggregate {
 public:
  static constexpr ValueType kType = ValueType::kZSet;

  struct Limits {
    size_t max_listpack_entries;
    size_t max_listpack_value;
  };
  // zsetAdd's input flags and outcomes.
  enum AddFlag : int { kAddNx = 1, kAddXx = 2, kAddGt = 4, kAddLt = 8, kAddIncr = 16 };
  enum AddOutcome : int { kOutNan = 1, kOutAdded = 2, kOutUpdated = 4, kOutNop = 8 };

  // An empty sorted set in the listpack form, or the big one.
  explicit ZSet(bool big = false);
  // A listpack-form set holding `lp`'s member/score pairs (RDB loading; the caller checked that
  // they are pairs in order of score and member, with distinct members).
  explicit ZSet(ListPack lp) noexcept : lp_(std::move(lp)) {}
  ~ZSet() override;
  ZSet(const ZSet&) = delete;
  ZSet& operator=(const ZSet&) = delete;

  ValueType type() const override { return kType; }
  Encoding encoding() const override {
    return is_listpack() ? Encoding::kListPack : Encoding::kSkipList;
  }
  size_t size() const override;
  std::unique_ptr<Aggregate> Clone() const override;
  size_t AllocatedBytes(size_t samples) const override;
  size_t FreeEffort() const override { return is_listpack() ? 1 : size(); }
  // The big form's members and tree nodes in steps, then its index's table; a listpack is one
  // block, freed by the destructor.
  bool ReleaseSome(size_t budget) override;

  bool is_listpack() const { return (word() & kBigBit) == 0; }
  // The big form's member index (null for a listpack): DEBUG HTSTATS-KEY reads its shape.
  const MemberIndex* index() const {
    const Big* b = big();
    return b == nullptr ? nullptr : &b->index;
  }
  // The listpack form's block (RDB length, tests).
  const ListPack& listpack() const { return lp_; }

  // One entry of the set in order; stays valid until the set changes.
  class Iterator {
   public:
    Iterator() = default;
    bool valid() const { return lp_ != nullptr ? eptr_ != ListPack::npos : it_.valid(); }
    // The member; a listpack integer is written into `buf` in decimal.
    std::string_view member(char (&buf)[ListPackValue::kIntBufSize]) const;
    double score() const;
    void Next();
    void Prev();

   private:
    friend class ZSet;
    const ListPack* lp_ = nullptr;  // the listpack form
    ListPack::Pos eptr_ = ListPack::npos;
    ListPack::Pos sptr_ = ListPack::npos;
    ScoreTree::Iterator it_;  // the big form
  };

  bool Score(std::string_view member, double* score) const;
  // Redis's zsetAdd: adds or updates `member` under the flags, writes the outcome into *out and,
  // when it applies, the new score into *newscore. False when the score is or would become NaN.
  bool Add(double score, std::string_view member, int flags, int* out, double* newscore,
           const Limits& limits);
  // Adds a member known to be absent to a big set (building results).
  void AddNew(double score, std::string_view member);
  bool Remove(std::string_view member);
  // The member's 0-based rank (from the highest score with `reverse`) and its score.
  bool Rank(std::string_view member, bool reverse, size_t* rank, double* score) const;

  // The entry at 0-based `rank` from the lowest score (invalid past the end).
  Iterator Seek(size_t rank) const;
  // The first and the last entry inside a range (invalid when none), as Redis's
  // zzl/zslFirstInRange, LastInRange, FirstInLexRange, LastInLexRange.
  Iterator FirstInRange(const ScoreRange& range) const;
  Iterator LastInRange(const ScoreRange& range) const;
  Iterator FirstInLexRange(const LexRange& range) const;
  Iterator LastInLexRange(const LexRange& range) const;
  // ZCOUNT and ZLEXCOUNT.
  size_t CountInRange(const ScoreRange& range) const;
  size_t CountInLexRange(const LexRange& range) const;
  // The number of entries before the first one in range, for a big set (ranks of ranges).
  size_t RankOfFirstInRange(const ScoreRange& range) const;
  size_t RankOfFirstInLexRange(const LexRange& range) const;

  // ZREMRANGEBYRANK (0-based, inclusive, within the set), ZREMRANGEBYSCORE and ZREMRANGEBYLEX;
  // each returns how many entries it removed.
  size_t DeleteRangeByRank(size_t start, size_t end);
  size_t DeleteRangeByScore(const ScoreRange& range);
  size_t DeleteRangeByLex(const LexRange& range);

  // Redis's zsetConvert to the skiplist encoding.
  void ConvertToBig();
  // Redis's zsetConvertToListpackIfNeeded: a big set small enough for the limits (its longest
  // member `maxelelen`, all of them `totelelen` bytes) becomes a listpack.
  void ConvertToListPackIfNeeded(size_t maxelelen, size_t totelelen, const Limits& limits);

  // One ZSCAN step of a big set (see MemberIndex::Scan).
  uint64_t Scan(uint64_t cursor, size_t count,
                absl::FunctionRef<void(std::string_view member, double score)> fn) const;
  // Every entry in order.
  void ForEach(absl::FunctionRef<void(std::string_view member, double score)> fn) const;

  // Checks the big form's invariants (tree, index, the same members in both); for tests.
  bool Check() const;

 private:
  struct Big {
    ScoreTree tree;
    MemberIndex index;
  };

  // Listpack form (Redis's zzl* functions).
  ListPack::Pos ListPackFind(std::string_view member, double* score) const;
  void ListPackInsert(std::string_view member, double score);
  void ListPackInsertAt(ListPack::Pos eptr, std::string_view member, double score);
  void ListPackDelete(ListPack::Pos eptr) { lp_.DeleteFrom(eptr, 2); }
  bool ListPackIsInRange(const ScoreRange& range) const;
  bool ListPackIsInLexRange(const LexRange& range) const;

  // Big form.
  bool BigIsInRange(const ScoreRange& range) const;
  bool BigIsInLexRange(const LexRange& range) const;
  // The big form's structures, or nullptr for a listpack.
  Big* big() const {
    const uintptr_t w = word();
    return (w & kBigBit) != 0 ? reinterpret_cast<Big*>(w & ~kBigBit) : nullptr;
  }
  // Makes the big form `b` the set's; the listpack must have been destroyed.
  void SetBig(std::unique_ptr<Big> b) {
    big_word_ = reinterpret_cast<uintptr_t>(b.release()) | kBigBit;
  }
  // Frees the big form (if any); the set is then an empty listpack.
  void FreeBig();

  // One word, so that the object is 16 bytes with the vtable pointer (a size class below 24: 8
  // bytes less per small sorted set, as Redis's robj): the listpack (whose block is 8-byte
  // aligned, the shared empty one included), or once converted the Big's address with the low bit
  // set. The word is read through memcpy whichever member is live.
  static constexpr uintptr_t kBigBit = 1;
  uintptr_t word() const {
    uintptr_t w;
    std::memcpy(&w, reinterpret_cast<const unsigned char*>(&lp_), sizeof w);
    return w;
  }
  union {
    ListPack lp_;
    uintptr_t big_word_;
  };
};

static_assert(sizeof(ZSet) == 16);

// Scores as a listpack holds them: Redis's zzlGetScore (an integer, or text read with strtod)
// and the text zzlInsertAt writes for a score that is not a safe integer (d2string).
double ListPackScore(ListPackValue v);
bool ScoreAsInteger(double score, int64_t* out);          // Redis's double2ll
size_t FormatScore(double score, char* buf, size_t len);  // Redis's d2string

}  // namespace kv
