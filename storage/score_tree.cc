#include "storage/score_tree.h"

#include <malloc.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

namespace kv {

// Up to kInnerCapacity children; sep_*[i] is child i's lower bound (unused for i = 0).
struct ScoreTree::Inner {
  uint32_t n;
  uint64_t count[kInnerCapacity];
  void* child[kInnerCapacity];
  double sep_score[kInnerCapacity];
  ScoredMember* sep_block[kInnerCapacity];
};

namespace {

static_assert(sizeof(ScoreTree::Leaf) == 512);

// Below these a node is refilled from a sibling or merged into it.
constexpr uint32_t kLeafMin = ScoreTree::kLeafCapacity / 4;
constexpr uint32_t kInnerMin = ScoreTree::kInnerCapacity / 4;

void* Allocate(size_t n) {
  void* p = std::malloc(n);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

// The sign of key (score, member) against entry `e`.
inline int CompareToEntry(double score, std::string_view member, const ScoredMember* e) {
  return CompareScored(score, member, e->score(), e->member());
}

}  // namespace

ScoreTree::ScoreTree(ScoreTree&& other) noexcept { *this = std::move(other); }

ScoreTree& ScoreTree::operator=(ScoreTree&& other) noexcept {
  if (this == &other) return *this;
  if (root_ != nullptr) FreeSubtree(root_, height_);
  root_ = std::exchange(other.root_, nullptr);
  height_ = std::exchange(other.height_, 0);
  size_ = std::exchange(other.size_, 0);
  node_bytes_ = std::exchange(other.node_bytes_, 0);
  first_ = std::exchange(other.first_, nullptr);
  last_ = std::exchange(other.last_, nullptr);
  return *this;
}

ScoreTree::~ScoreTree() {
  if (root_ != nullptr) FreeSubtree(root_, height_);
}

ScoreTree::Leaf* ScoreTree::NewLeaf() {
  auto* leaf = static_cast<Leaf*>(Allocate(sizeof(Leaf)));
  leaf->prev = leaf->next = nullptr;
  leaf->n = 0;
  node_bytes_ += malloc_usable_size(leaf);
  return leaf;
}

void ScoreTree::FreeLeaf(Leaf* leaf) {
  node_bytes_ -= malloc_usable_size(leaf);
  std::free(leaf);
}

ScoreTree::Inner* ScoreTree::NewInner() {
  auto* in = static_cast<Inner*>(Allocate(sizeof(Inner)));
  in->n = 0;
  in->sep_block[0] = nullptr;
  node_bytes_ += malloc_usable_size(in);
  return in;
}

void ScoreTree::FreeInner(Inner* in) {
  node_bytes_ -= malloc_usable_size(in);
  std::free(in);
}

// A bound between two neighbouring entries: the right one's score alone when the scores differ
// (every key with that score is at least (score, "")), else a copy of the right one.
void ScoreTree::SetSeparator(Inner* in, uint32_t i, const ScoredMember* left_last,
                             const ScoredMember* right_first) {
  FreeSeparator(in, i);
  const double score = right_first->score();
  in->sep_score[i] = score;
  if (left_last->score() < score) return;
  ScoredMember* copy = ScoredMember::Make(score, right_first->member());
  node_bytes_ += copy->allocated();
  in->sep_block[i] = copy;
}

void ScoreTree::FreeSeparator(Inner* in, uint32_t i) {
  if (ScoredMember* b = in->sep_block[i]) {
    node_bytes_ -= b->allocated();
    ScoredMember::Free(b);
  }
  in->sep_block[i] = nullptr;
}

void ScoreTree::FreeSubtree(void* node, size_t level) {
  if (level == 1) return FreeLeaf(static_cast<Leaf*>(node));
  auto* in = static_cast<Inner*>(node);
  for (uint32_t i = 0; i < in->n; ++i) {
    FreeSubtree(in->child[i], level - 1);
    if (i > 0) FreeSeparator(in, i);
  }
  FreeInner(in);
}

ScoreTree::Leaf* ScoreTree::Descend(double score, std::string_view member, Path* path) const {
  void* node = root_;
  path->depth = 0;
  for (size_t level = height_; level > 1; --level) {
    auto* in = static_cast<Inner*>(node);
    // The last child whose bound is <= the key.
    uint32_t lo = 1, hi = in->n;
    while (lo < hi) {
      const uint32_t mid = (lo + hi) / 2;
      const Key sep{in->sep_score[mid], in->sep_block[mid]};
      if (CompareScored(sep.score, sep.member(), score, member) <= 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    path->steps[path->depth++] = {in, lo - 1};
    node = in->child[lo - 1];
  }
  return static_cast<Leaf*>(node);
}

ScoreTree::Leaf* ScoreTree::DescendRank(size_t rank, Path* path, uint32_t* index) const {
  void* node = root_;
  path->depth = 0;
  for (size_t level = height_; level > 1; --level) {
    auto* in = static_cast<Inner*>(node);
    uint32_t i = 0;
    while (rank >= in->count[i]) rank -= in->count[i++];
    path->steps[path->depth++] = {in, i};
    node = in->child[i];
  }
  *index = static_cast<uint32_t>(rank);
  return static_cast<Leaf*>(node);
}

namespace {

// The first index of `leaf` whose entry is >= (score, member).
uint32_t LeafLowerBound(const ScoreTree::Leaf* leaf, double score, std::string_view member) {
  uint32_t lo = 0, hi = leaf->n;
  while (lo < hi) {
    const uint32_t mid = (lo + hi) / 2;
    if (CompareToEntry(score, member, leaf->e[mid]) > 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

}  // namespace

void ScoreTree::Insert(ScoredMember* m) {
  ++size_;
  if (root_ == nullptr) {
    Leaf* leaf = NewLeaf();
    leaf->e[0] = m;
    leaf->n = 1;
    root_ = first_ = last_ = leaf;
    height_ = 1;
    return;
  }
  const double score = m->score();
  const std::string_view member = m->member();
  Path path;
  Leaf* leaf = Descend(score, member, &path);
  for (int d = 0; d < path.depth; ++d) ++path.steps[d].node->count[path.steps[d].idx];
  const uint32_t pos = LeafLowerBound(leaf, score, member);
  if (leaf->n < kLeafCapacity) {
    std::memmove(&leaf->e[pos + 1], &leaf->e[pos], (leaf->n - pos) * sizeof(leaf->e[0]));
    leaf->e[pos] = m;
    ++leaf->n;
    return;
  }
  InsertIntoFullLeaf(path, leaf, pos, m);
}

void ScoreTree::InsertIntoFullLeaf(Path& path, Leaf* leaf, uint32_t pos, ScoredMember* m) {
  constexpr uint32_t kTotal = kLeafCapacity + 1;
  ScoredMember* all[kTotal];
  std::memcpy(all, leaf->e, pos * sizeof(all[0]));
  all[pos] = m;
  std::memcpy(all + pos + 1, leaf->e + pos, (kLeafCapacity - pos) * sizeof(all[0]));

  Inner* parent = path.depth > 0 ? path.steps[path.depth - 1].node : nullptr;
  const uint32_t idx = path.depth > 0 ? path.steps[path.depth - 1].idx : 0;
  if (parent != nullptr) {
    // A sibling with room takes some entries: the left one our first ones, the right one our
    // last ones, so that both end up about equally full.
    Leaf* left = idx > 0 ? static_cast<Leaf*>(parent->child[idx - 1]) : nullptr;
    if (left != nullptr && left->n < kLeafCapacity) {
      const uint32_t moved = (kTotal - left->n + 1) / 2;
      std::memcpy(left->e + left->n, all, moved * sizeof(all[0]));
      left->n += moved;
      leaf->n = kTotal - moved;
      std::memcpy(leaf->e, all + moved, leaf->n * sizeof(all[0]));
      parent->count[idx - 1] += moved;
      parent->count[idx] -= moved;
      SetSeparator(parent, idx, left->e[left->n - 1], leaf->e[0]);
      return;
    }
    Leaf* right = idx + 1 < parent->n ? static_cast<Leaf*>(parent->child[idx + 1]) : nullptr;
    if (right != nullptr && right->n < kLeafCapacity) {
      const uint32_t moved = (kTotal - right->n + 1) / 2;
      std::memmove(right->e + moved, right->e, right->n * sizeof(all[0]));
      std::memcpy(right->e, all + kTotal - moved, moved * sizeof(all[0]));
      right->n += moved;
      leaf->n = kTotal - moved;
      std::memcpy(leaf->e, all, leaf->n * sizeof(all[0]));
      parent->count[idx + 1] += moved;
      parent->count[idx] -= moved;
      SetSeparator(parent, idx + 1, leaf->e[leaf->n - 1], right->e[0]);
      return;
    }
  }
  // Split. Appending past the last leaf (or prepending before the first) starts a new leaf
  // with the one entry, so ascending and descending loads fill their leaves.
  uint32_t keep = kTotal / 2;
  if (pos == kLeafCapacity && leaf->next == nullptr) keep = kLeafCapacity;
  Leaf* fresh = NewLeaf();
  if (pos == 0 && leaf->prev == nullptr) {
    // The new entry alone goes left, into a fresh first leaf.
    keep = 1;
    fresh->n = 1;
    fresh->e[0] = all[0];
    std::memcpy(leaf->e, all + 1, kLeafCapacity * sizeof(all[0]));
    leaf->n = kLeafCapacity;
    fresh->next = leaf;
    fresh->prev = nullptr;
    leaf->prev = fresh;
    first_ = fresh;
    // The fresh leaf takes the old one's place in the parent, the old one follows it.
    if (parent == nullptr) {
      Inner* root = NewInner();
      root->n = 2;
      root->child[0] = fresh;
      root->count[0] = 1;
      root->child[1] = leaf;
      root->count[1] = kLeafCapacity;
      root->sep_block[1] = nullptr;
      SetSeparator(root, 1, fresh->e[0], leaf->e[0]);
      root_ = root;
      ++height_;
      return;
    }
    parent->child[idx] = fresh;
    parent->count[idx] = 1;
    ScoredMember* sep_block = nullptr;
    double sep_score = leaf->e[0]->score();
    if (!(fresh->e[0]->score() < sep_score)) {
      sep_block = ScoredMember::Make(sep_score, leaf->e[0]->member());
      node_bytes_ += sep_block->allocated();
    }
    InsertChild(path, path.depth - 1, leaf, kLeafCapacity, sep_score, sep_block);
    return;
  }
  leaf->n = keep;
  std::memcpy(leaf->e, all, keep * sizeof(all[0]));
  fresh->n = kTotal - keep;
  std::memcpy(fresh->e, all + keep, fresh->n * sizeof(all[0]));
  fresh->prev = leaf;
  fresh->next = leaf->next;
  if (leaf->next != nullptr) {
    leaf->next->prev = fresh;
  } else {
    last_ = fresh;
  }
  leaf->next = fresh;

  const ScoredMember* left_last = leaf->e[leaf->n - 1];
  const ScoredMember* right_first = fresh->e[0];
  const double sep_score = right_first->score();
  ScoredMember* sep_block = nullptr;
  if (!(left_last->score() < sep_score)) {
    sep_block = ScoredMember::Make(sep_score, right_first->member());
    node_bytes_ += sep_block->allocated();
  }
  if (parent == nullptr) {
    Inner* root = NewInner();
    root->n = 2;
    root->child[0] = leaf;
    root->count[0] = leaf->n;
    root->child[1] = fresh;
    root->count[1] = fresh->n;
    root->sep_score[1] = sep_score;
    root->sep_block[1] = sep_block;
    root_ = root;
    ++height_;
    return;
  }
  parent->count[idx] = leaf->n;
  InsertChild(path, path.depth - 1, fresh, fresh->n, sep_score, sep_block);
}

void ScoreTree::InsertChild(Path& path, int level, void* child, size_t count, double sep_score,
                            ScoredMember* sep_block) {
  Inner* in = path.steps[level].node;
  const uint32_t at = path.steps[level].idx + 1;
  if (in->n < kInnerCapacity) {
    const uint32_t tail = in->n - at;
    std::memmove(&in->child[at + 1], &in->child[at], tail * sizeof(in->child[0]));
    std::memmove(&in->count[at + 1], &in->count[at], tail * sizeof(in->count[0]));
    std::memmove(&in->sep_score[at + 1], &in->sep_score[at], tail * sizeof(double));
    std::memmove(&in->sep_block[at + 1], &in->sep_block[at], tail * sizeof(in->sep_block[0]));
    in->child[at] = child;
    in->count[at] = count;
    in->sep_score[at] = sep_score;
    in->sep_block[at] = sep_block;
    ++in->n;
    return;
  }
  // Split: the children with the new one, then the upper half to a new node, whose first bound
  // goes up to the parent.
  constexpr uint32_t kTotal = kInnerCapacity + 1;
  void* children[kTotal];
  uint64_t counts[kTotal];
  double scores[kTotal];
  ScoredMember* blocks[kTotal];
  for (uint32_t i = 0, j = 0; i < kTotal; ++i) {
    if (i == at) {
      children[i] = child;
      counts[i] = count;
      scores[i] = sep_score;
      blocks[i] = sep_block;
      continue;
    }
    children[i] = in->child[j];
    counts[i] = in->count[j];
    scores[i] = in->sep_score[j];
    blocks[i] = in->sep_block[j];
    ++j;
  }
  const uint32_t half = kTotal / 2;
  Inner* right = NewInner();
  in->n = half;
  right->n = kTotal - half;
  uint64_t left_count = 0, right_count = 0;
  for (uint32_t i = 0; i < kTotal; ++i) {
    Inner* dst = i < half ? in : right;
    const uint32_t k = i < half ? i : i - half;
    dst->child[k] = children[i];
    dst->count[k] = counts[i];
    dst->sep_score[k] = scores[i];
    dst->sep_block[k] = blocks[i];
    (i < half ? left_count : right_count) += counts[i];
  }
  const double up_score = right->sep_score[0];
  ScoredMember* up_block = right->sep_block[0];
  right->sep_block[0] = nullptr;
  in->sep_block[0] = nullptr;

  if (level == 0) {
    Inner* root = NewInner();
    root->n = 2;
    root->child[0] = in;
    root->count[0] = left_count;
    root->child[1] = right;
    root->count[1] = right_count;
    root->sep_score[1] = up_score;
    root->sep_block[1] = up_block;
    root_ = root;
    ++height_;
    return;
  }
  Inner* parent = path.steps[level - 1].node;
  parent->count[path.steps[level - 1].idx] = left_count;
  InsertChild(path, level - 1, right, right_count, up_score, up_block);
}

ScoredMember* ScoreTree::Erase(double score, std::string_view member) {
  if (root_ == nullptr) return nullptr;
  Path path;
  Leaf* leaf = Descend(score, member, &path);
  const uint32_t pos = LeafLowerBound(leaf, score, member);
  if (pos == leaf->n || CompareToEntry(score, member, leaf->e[pos]) != 0) return nullptr;
  ScoredMember* m = leaf->e[pos];
  std::memmove(&leaf->e[pos], &leaf->e[pos + 1], (leaf->n - pos - 1) * sizeof(leaf->e[0]));
  --leaf->n;
  for (int d = 0; d < path.depth; ++d) --path.steps[d].node->count[path.steps[d].idx];
  --size_;
  RebalanceLeaf(path, leaf);
  return m;
}

void ScoreTree::RebalanceLeaf(Path& path, Leaf* leaf) {
  if (path.depth == 0) {
    if (leaf->n == 0) {
      FreeLeaf(leaf);
      root_ = first_ = last_ = nullptr;
      height_ = 0;
    }
    return;
  }
  if (leaf->n >= kLeafMin) return;
  Inner* parent = path.steps[path.depth - 1].node;
  const uint32_t idx = path.steps[path.depth - 1].idx;
  if (parent->n < 2) return;
  const uint32_t li = idx > 0 ? idx - 1 : idx;
  auto* left = static_cast<Leaf*>(parent->child[li]);
  auto* right = static_cast<Leaf*>(parent->child[li + 1]);
  if (left->n + right->n <= kLeafCapacity) {
    // Merge the right leaf into the left one.
    std::memcpy(left->e + left->n, right->e, right->n * sizeof(left->e[0]));
    left->n += right->n;
    left->next = right->next;
    if (right->next != nullptr) {
      right->next->prev = left;
    } else {
      last_ = left;
    }
    parent->count[li] += parent->count[li + 1];
    FreeSeparator(parent, li + 1);
    const uint32_t tail = parent->n - li - 2;
    std::memmove(&parent->child[li + 1], &parent->child[li + 2], tail * sizeof(parent->child[0]));
    std::memmove(&parent->count[li + 1], &parent->count[li + 2], tail * sizeof(parent->count[0]));
    std::memmove(&parent->sep_score[li + 1], &parent->sep_score[li + 2], tail * sizeof(double));
    std::memmove(&parent->sep_block[li + 1], &parent->sep_block[li + 2],
                 tail * sizeof(parent->sep_block[0]));
    --parent->n;
    FreeLeaf(right);
    path.steps[path.depth - 1].idx = li;
    RebalanceInner(path, path.depth - 1);
    return;
  }
  // Even them out.
  const uint32_t total = left->n + right->n;
  const uint32_t want_left = total / 2;
  if (left->n < want_left) {
    const uint32_t moved = want_left - left->n;
    std::memcpy(left->e + left->n, right->e, moved * sizeof(left->e[0]));
    left->n += moved;
    std::memmove(right->e, right->e + moved, (right->n - moved) * sizeof(left->e[0]));
    right->n -= moved;
    parent->count[li] += moved;
    parent->count[li + 1] -= moved;
  } else {
    const uint32_t moved = left->n - want_left;
    std::memmove(right->e + moved, right->e, right->n * sizeof(left->e[0]));
    std::memcpy(right->e, left->e + want_left, moved * sizeof(left->e[0]));
    right->n += moved;
    left->n -= moved;
    parent->count[li] -= moved;
    parent->count[li + 1] += moved;
  }
  SetSeparator(parent, li + 1, left->e[left->n - 1], right->e[0]);
}

void ScoreTree::RebalanceInner(Path& path, int level) {
  Inner* node = path.steps[level].node;
  if (level == 0) {
    if (node->n == 1) {
      root_ = node->child[0];
      FreeInner(node);
      --height_;
    }
    return;
  }
  if (node->n >= kInnerMin) return;
  Inner* parent = path.steps[level - 1].node;
  const uint32_t idx = path.steps[level - 1].idx;
  if (parent->n < 2) return;
  const uint32_t li = idx > 0 ? idx - 1 : idx;
  auto* left = static_cast<Inner*>(parent->child[li]);
  auto* right = static_cast<Inner*>(parent->child[li + 1]);
  if (left->n + right->n <= kInnerCapacity) {
    // Merge: the parent's bound between them comes down as the bound of right's first child.
    const uint32_t base = left->n;
    std::memcpy(left->child + base, right->child, right->n * sizeof(left->child[0]));
    std::memcpy(left->count + base, right->count, right->n * sizeof(left->count[0]));
    std::memcpy(left->sep_score + base, right->sep_score, right->n * sizeof(double));
    std::memcpy(left->sep_block + base, right->sep_block, right->n * sizeof(left->sep_block[0]));
    left->sep_score[base] = parent->sep_score[li + 1];
    left->sep_block[base] = parent->sep_block[li + 1];
    left->n += right->n;
    parent->count[li] += parent->count[li + 1];
    const uint32_t tail = parent->n - li - 2;
    std::memmove(&parent->child[li + 1], &parent->child[li + 2], tail * sizeof(parent->child[0]));
    std::memmove(&parent->count[li + 1], &parent->count[li + 2], tail * sizeof(parent->count[0]));
    std::memmove(&parent->sep_score[li + 1], &parent->sep_score[li + 2], tail * sizeof(double));
    std::memmove(&parent->sep_block[li + 1], &parent->sep_block[li + 2],
                 tail * sizeof(parent->sep_block[0]));
    --parent->n;
    FreeInner(right);
    path.steps[level - 1].idx = li;
    RebalanceInner(path, level - 1);
    return;
  }
  // Rotate children one at a time through the parent until both are about equal.
  const uint32_t want_left = (left->n + right->n) / 2;
  while (left->n < want_left) {
    const uint32_t b = left->n;
    left->child[b] = right->child[0];
    left->count[b] = right->count[0];
    left->sep_score[b] = parent->sep_score[li + 1];
    left->sep_block[b] = parent->sep_block[li + 1];
    ++left->n;
    parent->sep_score[li + 1] = right->sep_score[1];
    parent->sep_block[li + 1] = right->sep_block[1];
    parent->count[li] += right->count[0];
    parent->count[li + 1] -= right->count[0];
    const uint32_t tail = right->n - 1;
    std::memmove(&right->child[0], &right->child[1], tail * sizeof(right->child[0]));
    std::memmove(&right->count[0], &right->count[1], tail * sizeof(right->count[0]));
    std::memmove(&right->sep_score[0], &right->sep_score[1], tail * sizeof(double));
    std::memmove(&right->sep_block[0], &right->sep_block[1], tail * sizeof(right->sep_block[0]));
    right->sep_block[0] = nullptr;
    --right->n;
  }
  while (left->n > want_left) {
    const uint32_t last = left->n - 1;
    const uint32_t tail = right->n;
    std::memmove(&right->child[1], &right->child[0], tail * sizeof(right->child[0]));
    std::memmove(&right->count[1], &right->count[0], tail * sizeof(right->count[0]));
    std::memmove(&right->sep_score[1], &right->sep_score[0], tail * sizeof(double));
    std::memmove(&right->sep_block[1], &right->sep_block[0], tail * sizeof(right->sep_block[0]));
    right->child[0] = left->child[last];
    right->count[0] = left->count[last];
    right->sep_score[1] = parent->sep_score[li + 1];
    right->sep_block[1] = parent->sep_block[li + 1];
    right->sep_block[0] = nullptr;
    ++right->n;
    parent->sep_score[li + 1] = left->sep_score[last];
    parent->sep_block[li + 1] = left->sep_block[last];
    parent->count[li] -= left->count[last];
    parent->count[li + 1] += left->count[last];
    --left->n;
  }
}

size_t ScoreTree::Rank(double score, std::string_view member) const {
  if (root_ == nullptr) return npos;
  Path path;
  const Leaf* leaf = Descend(score, member, &path);
  const uint32_t pos = LeafLowerBound(leaf, score, member);
  if (pos == leaf->n || CompareToEntry(score, member, leaf->e[pos]) != 0) return npos;
  size_t rank = pos;
  for (int d = 0; d < path.depth; ++d) {
    const Inner* in = path.steps[d].node;
    for (uint32_t i = 0; i < path.steps[d].idx; ++i) rank += in->count[i];
  }
  return rank;
}

ScoreTree::Iterator ScoreTree::LowerBound(Before before, size_t* rank) const {
  *rank = 0;
  if (root_ == nullptr) return {};
  const void* node = root_;
  size_t r = 0;
  for (size_t level = height_; level > 1; --level) {
    const auto* in = static_cast<const Inner*>(node);
    uint32_t lo = 1, hi = in->n;
    while (lo < hi) {
      const uint32_t mid = (lo + hi) / 2;
      if (before(Key{in->sep_score[mid], in->sep_block[mid]})) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    for (uint32_t i = 0; i + 1 < lo; ++i) r += in->count[i];
    node = in->child[lo - 1];
  }
  const auto* leaf = static_cast<const Leaf*>(node);
  uint32_t lo = 0, hi = leaf->n;
  while (lo < hi) {
    const uint32_t mid = (lo + hi) / 2;
    const ScoredMember* e = leaf->e[mid];
    if (before(Key{e->score(), e})) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  *rank = r + lo;
  if (lo == leaf->n) return {leaf->next, 0};
  return {leaf, lo};
}

size_t ScoreTree::CountBefore(Before before) const {
  size_t rank;
  LowerBound(before, &rank);
  return rank;
}

ScoreTree::Iterator ScoreTree::Seek(size_t rank) const {
  if (rank >= size_) return {};
  // The ends are common (ZRANGE 0 n, ZREVRANGE, pops): no descent.
  if (rank < first_->n) return {first_, static_cast<uint32_t>(rank)};
  if (size_ - rank <= last_->n) {
    return {last_, static_cast<uint32_t>(last_->n - (size_ - rank))};
  }
  Path path;
  uint32_t index;
  const Leaf* leaf = DescendRank(rank, &path, &index);
  return {leaf, index};
}

void ScoreTree::EraseRange(size_t rank, size_t count,
                           absl::FunctionRef<void(ScoredMember*)> removed) {
  if (rank >= size_) return;
  count = std::min(count, size_ - rank);
  while (count > 0) {
    Path path;
    uint32_t index;
    Leaf* leaf = DescendRank(rank, &path, &index);
    const uint32_t k = static_cast<uint32_t>(std::min<size_t>(count, leaf->n - index));
    for (uint32_t i = 0; i < k; ++i) removed(leaf->e[index + i]);
    std::memmove(&leaf->e[index], &leaf->e[index + k], (leaf->n - index - k) * sizeof(leaf->e[0]));
    leaf->n -= k;
    for (int d = 0; d < path.depth; ++d) path.steps[d].node->count[path.steps[d].idx] -= k;
    size_ -= k;
    count -= k;
    RebalanceLeaf(path, leaf);
  }
}

void ScoreTree::Clear(absl::FunctionRef<void(ScoredMember*)> removed) {
  for (const Leaf* leaf = first_; leaf != nullptr; leaf = leaf->next) {
    for (uint32_t i = 0; i < leaf->n; ++i) removed(leaf->e[i]);
  }
  if (root_ != nullptr) FreeSubtree(root_, height_);
  root_ = first_ = last_ = nullptr;
  height_ = 0;
  size_ = 0;
}

bool ScoreTree::ReleaseSome(size_t budget, absl::FunctionRef<void(ScoredMember*)> removed) {
  while (root_ != nullptr && budget > 0) {
    // The last leaf, and the path to it.
    Path path;
    void* node = root_;
    for (size_t level = height_; level > 1; --level) {
      auto* in = static_cast<Inner*>(node);
      path.steps[path.depth++] = {in, in->n - 1};
      node = in->child[in->n - 1];
    }
    auto* leaf = static_cast<Leaf*>(node);
    for (; leaf->n > 0 && budget > 0; --budget) {
      removed(leaf->e[--leaf->n]);
      --size_;
    }
    if (leaf->n > 0) break;
    last_ = leaf->prev;
    if (last_ != nullptr) {
      last_->next = nullptr;
    } else {
      first_ = nullptr;
    }
    FreeLeaf(leaf);
    // Drop it from its parent, and every ancestor left without children from its own.
    while (true) {
      if (path.depth == 0) {
        root_ = nullptr;
        height_ = 0;
        break;
      }
      Inner* in = path.steps[--path.depth].node;
      if (--in->n > 0) {
        FreeSeparator(in, in->n);
        break;
      }
      FreeInner(in);
    }
  }
  return root_ == nullptr;
}

bool ScoreTree::CheckSubtree(const void* node, size_t level, const Key* low, const Key* high,
                             size_t* count, const Leaf** prev_leaf) const {
  auto in_bounds = [&](double score, std::string_view member) {
    if (low != nullptr && CompareScored(low->score, low->member(), score, member) > 0) return false;
    if (high != nullptr && CompareScored(score, member, high->score, high->member()) >= 0) {
      return false;
    }
    return true;
  };
  if (level == 1) {
    const auto* leaf = static_cast<const Leaf*>(node);
    if (leaf->n == 0 || leaf->n > kLeafCapacity) return false;
    if (leaf->prev != *prev_leaf) return false;
    if (*prev_leaf != nullptr && (*prev_leaf)->next != leaf) return false;
    if (*prev_leaf == nullptr && first_ != leaf) return false;
    *prev_leaf = leaf;
    for (uint32_t i = 0; i < leaf->n; ++i) {
      const ScoredMember* e = leaf->e[i];
      if (!in_bounds(e->score(), e->member())) return false;
      if (i > 0) {
        const ScoredMember* p = leaf->e[i - 1];
        if (CompareScored(p->score(), p->member(), e->score(), e->member()) >= 0) return false;
      }
    }
    *count = leaf->n;
    return true;
  }
  const auto* in = static_cast<const Inner*>(node);
  if (in->n == 0 || in->n > kInnerCapacity) return false;
  if (node != root_ && in->n < 2) return false;
  size_t total = 0;
  for (uint32_t i = 0; i < in->n; ++i) {
    Key lo_key{}, hi_key{};
    const Key* lo = low;
    const Key* hi = high;
    if (i > 0) {
      lo_key = Key{in->sep_score[i], in->sep_block[i]};
      lo = &lo_key;
      if (!in_bounds(lo_key.score, lo_key.member())) return false;
    }
    if (i + 1 < in->n) {
      hi_key = Key{in->sep_score[i + 1], in->sep_block[i + 1]};
      hi = &hi_key;
    }
    size_t c = 0;
    if (!CheckSubtree(in->child[i], level - 1, lo, hi, &c, prev_leaf)) return false;
    if (c != in->count[i]) return false;
    total += c;
  }
  *count = total;
  return true;
}

bool ScoreTree::Check() const {
  if (root_ == nullptr) return size_ == 0 && height_ == 0 && first_ == nullptr;
  size_t count = 0;
  const Leaf* prev = nullptr;
  if (!CheckSubtree(root_, height_, nullptr, nullptr, &count, &prev)) return false;
  return count == size_ && prev == last_ && last_->next == nullptr;
}

}  // namespace kv
