#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/functional/function_ref.h"
#include "storage/scored_member.h"

namespace kv {

// The order of a big sorted set: a counted B+ tree of pointers to ScoredMember blocks, sorted by
// (score, member) as Redis's skiplist, with order statistics (rank to element and element to
// rank in O(log n)).
//
// Leaves are 512-byte blocks of 61 pointers, linked both ways for scans; inner nodes hold up to 31
// children with each child's element count and, for every child but the first, a separator: a
// lower bound of the child's keys (score inline; the member only when the two neighbouring keys
// share a score, as an owned copy). A full leaf first hands entries to a sibling with room, so the
// leaves stay about 80% full under random inserts and full under ascending or descending ones.
// Per member that is about 10 bytes of tree, against Redis's skiplist node (40 to 64 bytes).
//
// The tree owns its nodes and separators, not the members: erasing hands the pointer back, and
// the caller frees the block.
class ScoreTree {
 public:
  static constexpr uint32_t kLeafCapacity = 61;
  static constexpr uint32_t kInnerCapacity = 31;
  static constexpr size_t npos = SIZE_MAX;

  // A key as the searches see it: the score, and the member, read only when scores tie.
  struct Key {
    double score;
    const ScoredMember* block;  // nullptr: the empty member (a separator's bound)
    std::string_view member() const { return block != nullptr ? block->member() : ""; }
  };
  // A predicate that holds for a prefix of the tree's order and not after it (e.g. "score < 5").
  using Before = absl::FunctionRef<bool(const Key&)>;

  struct Leaf {
    Leaf* prev;
    Leaf* next;
    uint32_t n;
    ScoredMember* e[kLeafCapacity];
  };

  // A position: an entry, or the end. Stays valid until the tree changes.
  class Iterator {
   public:
    Iterator() = default;
    Iterator(const Leaf* leaf, uint32_t i) : leaf_(leaf), i_(i) {}
    bool valid() const { return leaf_ != nullptr; }
    ScoredMember* operator*() const { return leaf_->e[i_]; }
    ScoredMember* operator->() const { return leaf_->e[i_]; }
    void Next() {
      if (++i_ == leaf_->n) {
        leaf_ = leaf_->next;
        i_ = 0;
      }
    }
    void Prev() {
      if (i_-- == 0) {
        leaf_ = leaf_->prev;
        i_ = leaf_ != nullptr ? leaf_->n - 1 : 0;
      }
    }
    friend bool operator==(const Iterator& a, const Iterator& b) {
      return a.leaf_ == b.leaf_ && a.i_ == b.i_;
    }

   private:
    const Leaf* leaf_ = nullptr;
    uint32_t i_ = 0;
  };

  ScoreTree() = default;
  ScoreTree(ScoreTree&& other) noexcept;
  ScoreTree& operator=(ScoreTree&& other) noexcept;
  ScoreTree(const ScoreTree&) = delete;
  ScoreTree& operator=(const ScoreTree&) = delete;
  // Frees the nodes; the members stay (see Clear).
  ~ScoreTree();

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // Adds `m`, whose (score, member) must not be in the tree yet.
  void Insert(ScoredMember* m);
  // Removes the entry with this score and member and returns it (the caller frees it), or
  // nullptr.
  ScoredMember* Erase(double score, std::string_view member);
  // The 0-based rank of the entry with this score and member, or npos.
  size_t Rank(double score, std::string_view member) const;
  // How many entries `before` holds for (the rank of the first one it does not hold for).
  size_t CountBefore(Before before) const;
  // The first entry `before` does not hold for, and its rank.
  Iterator LowerBound(Before before, size_t* rank) const;
  // The entry at `rank`, or end() past the last one.
  Iterator Seek(size_t rank) const;
  Iterator begin() const { return {first_, 0}; }
  Iterator end() const { return {}; }
  Iterator last() const { return last_ != nullptr ? Iterator(last_, last_->n - 1) : Iterator(); }

  // Removes up to `count` entries from `rank` on, handing each to `removed` in order.
  void EraseRange(size_t rank, size_t count, absl::FunctionRef<void(ScoredMember*)> removed);
  // Removes every entry, handing each to `removed` in order.
  void Clear(absl::FunctionRef<void(ScoredMember*)> removed);
  // Removes up to `budget` entries from the last one back, handing each to `removed`, and frees
  // each node once it is empty (a node per 15 to 61 entries); true once the tree is empty
  // (lazy freeing, see Releasable). Between calls the entries left are in order and linked, but
  // ranks and separators are not kept: only ReleaseSome, Clear, size() and the destructor may be
  // used.
  bool ReleaseSome(size_t budget, absl::FunctionRef<void(ScoredMember*)> removed);

  // Bytes of the nodes and separators (not the members), as the allocator counts them.
  size_t NodeBytes() const { return node_bytes_; }
  size_t height() const { return height_; }
  // Checks every invariant (order, counts, separators, links, fill); for tests.
  bool Check() const;

 private:
  struct Inner;
  struct PathStep {
    Inner* node;
    uint32_t idx;
  };
  static constexpr int kMaxHeight = 48;
  struct Path {
    PathStep steps[kMaxHeight];
    int depth = 0;
  };

  Leaf* NewLeaf();
  void FreeLeaf(Leaf* leaf);
  Inner* NewInner();
  void FreeInner(Inner* in);
  void SetSeparator(Inner* in, uint32_t i, const ScoredMember* left_last,
                    const ScoredMember* right_first);
  void FreeSeparator(Inner* in, uint32_t i);
  // Descends to the leaf whose range holds (score, member), filling `path`.
  Leaf* Descend(double score, std::string_view member, Path* path) const;
  // Descends to the leaf holding the entry at `rank` (< size), filling `path`; *index is its
  // index there.
  Leaf* DescendRank(size_t rank, Path* path, uint32_t* index) const;
  void InsertIntoFullLeaf(Path& path, Leaf* leaf, uint32_t pos, ScoredMember* m);
  // Puts `child` (with `count` entries) into path step `level`'s node after its child idx, with
  // the separator given, splitting nodes up the path as needed.
  void InsertChild(Path& path, int level, void* child, size_t count, double sep_score,
                   ScoredMember* sep_block);
  void RebalanceLeaf(Path& path, Leaf* leaf);
  void RebalanceInner(Path& path, int level);
  void FreeSubtree(void* node, size_t level);
  bool CheckSubtree(const void* node, size_t level, const Key* low, const Key* high, size_t* count,
                    const Leaf** prev_leaf) const;

  void* root_ = nullptr;
  size_t height_ = 0;  // 0: empty; 1: the root is a leaf
  size_t size_ = 0;
  size_t node_bytes_ = 0;
  Leaf* first_ = nullptr;
  Leaf* last_ = nullptr;
};

}  // namespace kv
