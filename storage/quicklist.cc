#include "storage/quicklist.h"

#include <liblzf/lzf.h>
#include <malloc.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <utility>

namespace kv {
namespace {

// A node's byte budgets for fill -1..-5 (optimization_level).
constexpr size_t kOptimizationLevel[] = {4096, 8192, 16384, 32768, 65536};
// How many bytes an element adds beyond its own, at most (SIZE_ESTIMATE_OVERHEAD).
constexpr size_t kSizeEstimateOverhead = 8;
// Nodes under this many bytes are not worth compressing (MIN_COMPRESS_BYTES), nor is saving less
// than kMinCompressImprove bytes.
constexpr size_t kMinCompressBytes = 48;
constexpr size_t kMinCompressImprove = 8;

bool MeetsOptimizationRequirement(size_t sz, int fill) {
  if (fill >= 0) return false;
  const size_t level = static_cast<size_t>(-fill) - 1;
  return level < std::size(kOptimizationLevel) && sz <= kOptimizationLevel[level];
}

uint8_t* AllocateOrThrow(size_t n) {
  void* p = std::malloc(n == 0 ? 1 : n);
  if (p == nullptr) throw std::bad_alloc();
  return static_cast<uint8_t*>(p);
}

uint8_t* CopyBytes(const void* src, size_t n) {
  uint8_t* p = AllocateOrThrow(n);
  if (n != 0) std::memcpy(p, src, n);
  return p;
}

}  // namespace

// A node holds its elements as a ListPack (packed) or one element's bytes (plain); either may be
// LZF-compressed into `blob` instead. `sz` is always the uncompressed size, as Redis's node->sz.
// 40 bytes: the list pack and the blob share a word.
struct QuickList::Node {
  Node() { new (&lp) ListPack(); }
  ~Node() { ReleaseStorage(); }
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  bool holds_list_pack() const { return !compressed && !plain; }
  // Makes `b` the node's bytes (LZF data or a plain element), freeing what it held.
  void TakeBlob(uint8_t* b, bool is_compressed, bool is_plain) {
    ReleaseStorage();
    blob = b;
    compressed = is_compressed;
    plain = is_plain;
  }
  // Makes `l` the node's elements, freeing what it held: an uncompressed packed node.
  void TakeListPack(ListPack l) {
    ReleaseStorage();
    new (&lp) ListPack(std::move(l));
    compressed = false;
    plain = false;
  }
  std::string_view plain_view() const { return {reinterpret_cast<const char*>(blob), sz}; }
  void ReleaseStorage() {
    if (holds_list_pack()) {
      lp.~ListPack();
    } else {
      std::free(blob);
    }
  }

  Node* prev = nullptr;
  Node* next = nullptr;
  union {
    ListPack lp;    // a packed node's elements, while not compressed
    uint8_t* blob;  // a compressed node's LZF data, or a plain node's element
  };
  size_t sz = 0;
  uint32_t blob_size = 0;  // the LZF data's bytes, when compressed
  uint16_t count = 0;
  bool compressed : 1 = false;
  bool plain : 1 = false;
  // Decompressed by an iterator for use, to be compressed again when it is done with it.
  bool recompress : 1 = false;
  // Kept uncompressed for the duration of a replace (quicklistReplaceEntry).
  bool dont_compress : 1 = false;
};

static_assert(sizeof(ListPack) == sizeof(uint8_t*));

QuickList::QuickList(int fill, int compress_depth, size_t packed_threshold)
    : fill_(static_cast<int16_t>(std::clamp(fill, kFillMin, kFillMax))),
      compress_(static_cast<uint16_t>(std::clamp(compress_depth, 0, kCompressMax))),
      packed_threshold_(static_cast<uint32_t>(packed_threshold)) {}

QuickList::QuickList(QuickList&& other) noexcept
    : head_(std::exchange(other.head_, nullptr)),
      tail_(std::exchange(other.tail_, nullptr)),
      count_(std::exchange(other.count_, 0)),
      len_(std::exchange(other.len_, 0)),
      fill_(other.fill_),
      compress_(other.compress_),
      packed_threshold_(other.packed_threshold_) {}

QuickList& QuickList::operator=(QuickList&& other) noexcept {
  if (this != &other) {
    this->~QuickList();
    new (this) QuickList(std::move(other));
  }
  return *this;
}

QuickList::~QuickList() {
  Node* n = head_;
  while (n != nullptr) {
    Node* next = n->next;
    FreeNode(n);
    n = next;
  }
}

bool QuickList::ReleaseSome(size_t budget) {
  for (; head_ != nullptr && budget > 0; --budget) {
    Node* n = head_;
    head_ = n->next;
    if (head_ != nullptr) {
      head_->prev = nullptr;
    } else {
      tail_ = nullptr;
    }
    count_ -= n->count;
    --len_;
    FreeNode(n);
  }
  return head_ == nullptr;
}

QuickList::Node* QuickList::NewNode() { return new Node(); }

void QuickList::FreeNode(Node* n) { delete n; }

QuickList QuickList::Clone() const {
  QuickList copy(fill_, compress_, packed_threshold_);
  for (const Node* cur = head_; cur != nullptr; cur = cur->next) {
    Node* n = NewNode();
    if (cur->compressed) {
      n->TakeBlob(CopyBytes(cur->blob, cur->blob_size), true, cur->plain);
      n->blob_size = cur->blob_size;
    } else if (cur->plain) {
      n->TakeBlob(CopyBytes(cur->blob, cur->sz), false, true);
    } else {
      n->lp = cur->lp.Clone();
    }
    n->count = cur->count;
    n->sz = cur->sz;
    copy.count_ += n->count;
    copy.InsertNode(copy.tail_, n, true);
  }
  return copy;
}

// ---- Compression ----

bool QuickList::CompressNode(Node* n) {
  if (n->dont_compress) return false;
  // Only inner nodes are compressed (Redis asserts it).
  if (n->prev == nullptr || n->next == nullptr) return false;
  n->recompress = false;
  if (n->sz < kMinCompressBytes || n->sz > UINT32_MAX) return false;
  const void* src = n->plain ? static_cast<const void*>(n->blob) : n->lp.data();
  uint8_t* out = AllocateOrThrow(n->sz);
  const unsigned int csz =
      lzf_compress(src, static_cast<unsigned int>(n->sz), out, static_cast<unsigned int>(n->sz));
  if (csz == 0 || csz + kMinCompressImprove >= n->sz) {
    std::free(out);
    return false;
  }
  if (void* shrunk = std::realloc(out, csz)) out = static_cast<uint8_t*>(shrunk);
  n->TakeBlob(out, true, n->plain);
  n->blob_size = csz;
  return true;
}

void QuickList::DecompressNode(Node* n) {
  if (n == nullptr || !n->compressed) return;
  n->recompress = false;
  uint8_t* raw = AllocateOrThrow(n->sz);
  if (lzf_decompress(n->blob, n->blob_size, raw, static_cast<unsigned int>(n->sz)) != n->sz) {
    // Our own LZF data: it always decompresses to its size.
    std::abort();
  }
  n->blob_size = 0;
  if (n->plain) {
    n->TakeBlob(raw, false, true);
  } else {
    std::optional<ListPack> lp = ListPack::FromBytes(
        std::string_view(reinterpret_cast<const char*>(raw), n->sz), /*deep=*/false);
    std::free(raw);
    if (!lp) std::abort();
    n->TakeListPack(std::move(*lp));
  }
}

void QuickList::DecompressForUse(Node* n) {
  if (n != nullptr && n->compressed) {
    DecompressNode(n);
    n->recompress = true;
  }
}

void QuickList::CompressIfRaw(Node* n) {
  if (n != nullptr && !n->compressed) CompressNode(n);
}

void QuickList::CompressAround(Node* node) {
  if (len_ == 0) return;
  // Nothing is compressed while the list has no more nodes than both ends keep uncompressed.
  if (compress_ == 0 || len_ < static_cast<uint32_t>(compress_) * 2) return;
  // Walk `compress_` nodes in from each end, making sure they are uncompressed; the nodes just
  // beyond, and `node` unless it is among them, get compressed.
  Node* forward = head_;
  Node* reverse = tail_;
  bool in_depth = false;
  for (int depth = 0; depth < compress_; ++depth) {
    DecompressNode(forward);
    DecompressNode(reverse);
    if (forward == node || reverse == node) in_depth = true;
    // The two walks met: every node is within the depth.
    if (forward == reverse || forward->next == reverse) return;
    forward = forward->next;
    reverse = reverse->prev;
  }
  if (!in_depth) CompressIfRaw(node);
  CompressIfRaw(forward);
  CompressIfRaw(reverse);
}

void QuickList::Compress(Node* n) {
  if (n->recompress) {
    CompressIfRaw(n);
  } else {
    CompressAround(n);
  }
}

void QuickList::RecompressOnly(Node* n) {
  if (n->recompress) CompressIfRaw(n);
}

// ---- Nodes ----

void QuickList::InsertNode(Node* old_node, Node* new_node, bool after) {
  if (after) {
    new_node->prev = old_node;
    if (old_node != nullptr) {
      new_node->next = old_node->next;
      if (old_node->next != nullptr) old_node->next->prev = new_node;
      old_node->next = new_node;
    }
    if (tail_ == old_node) tail_ = new_node;
  } else {
    new_node->next = old_node;
    if (old_node != nullptr) {
      new_node->prev = old_node->prev;
      if (old_node->prev != nullptr) old_node->prev->next = new_node;
      old_node->prev = new_node;
    }
    if (head_ == old_node) head_ = new_node;
  }
  if (len_ == 0) head_ = tail_ = new_node;
  // The length first: compression decisions depend on it.
  ++len_;
  if (old_node != nullptr) Compress(old_node);
  Compress(new_node);
}

void QuickList::DeleteNode(Node* n) {
  if (n->next != nullptr) n->next->prev = n->prev;
  if (n->prev != nullptr) n->prev->next = n->next;
  if (n == tail_) tail_ = n->prev;
  if (n == head_) head_ = n->next;
  --len_;
  count_ -= n->count;
  // Nodes that were beyond the depth may now be within it, and must be decompressed.
  CompressAround(nullptr);
  FreeNode(n);
}

bool QuickList::DeleteIndex(Node* n, ListPack::Pos* pos) {
  if (n->plain) {
    DeleteNode(n);
    return true;
  }
  *pos = n->lp.Delete(*pos);
  --n->count;
  bool gone = false;
  if (n->count == 0) {
    gone = true;
    DeleteNode(n);
  } else {
    n->sz = n->lp.bytes();
  }
  --count_;
  return gone;
}

bool QuickList::AllowInsert(const Node* n, size_t sz) const {
  if (n == nullptr || n->plain || IsLarge(sz)) return false;
  // Overestimates the element's bytes in the list pack (an integer takes fewer).
  const size_t new_sz = n->sz + sz + kSizeEstimateOverhead;
  if (MeetsOptimizationRequirement(new_sz, fill_)) return true;
  if (new_sz > kSizeSafetyLimit) return false;
  return static_cast<int>(n->count) < fill_;
}

bool QuickList::AllowMerge(const Node* a, const Node* b) const {
  if (a == nullptr || b == nullptr || a->plain || b->plain) return false;
  // About the merged list pack's size: one header and terminator fewer.
  const unsigned int merge_sz = static_cast<unsigned int>(a->sz + b->sz - 11);
  if (MeetsOptimizationRequirement(merge_sz, fill_)) return true;
  if (merge_sz > kSizeSafetyLimit) return false;
  return static_cast<int>(a->count + b->count) <= fill_;
}

QuickList::Node* QuickList::NewPlainNode(std::string_view s) {
  Node* n = NewNode();
  n->TakeBlob(CopyBytes(s.data(), s.size()), false, true);
  n->sz = s.size();
  n->count = 1;
  return n;
}

void QuickList::InsertPlainNode(Node* old_node, std::string_view s, bool after) {
  InsertNode(old_node, NewPlainNode(s), after);
  ++count_;
}

QuickList::Node* QuickList::MergeListPacks(Node* a, Node* b) {
  DecompressNode(a);
  DecompressNode(b);
  // Redis's lpMerge keeps the bigger list pack's block (the first one's when equal), and the
  // node holding it stays.
  Node* keep;
  Node* gone;
  if (a->lp.bytes() >= b->lp.bytes()) {
    a->lp.Merge(std::move(b->lp));
    keep = a;
    gone = b;
  } else {
    ListPack merged = std::move(a->lp);
    merged.Merge(std::move(b->lp));
    b->lp = std::move(merged);
    keep = b;
    gone = a;
  }
  keep->count = static_cast<uint16_t>(keep->lp.size());
  keep->sz = keep->lp.bytes();
  gone->count = 0;
  DeleteNode(gone);
  Compress(keep);
  return keep;
}

void QuickList::MergeNodes(Node* center) {
  Node* prev = center->prev;
  Node* prev_prev = prev != nullptr ? prev->prev : nullptr;
  Node* next = center->next;
  Node* next_next = next != nullptr ? next->next : nullptr;
  if (AllowMerge(prev, prev_prev)) MergeListPacks(prev_prev, prev);
  if (AllowMerge(next, next_next)) MergeListPacks(next, next_next);
  Node* target = center;
  if (AllowMerge(center, center->prev)) target = MergeListPacks(center->prev, center);
  if (AllowMerge(target, target->next)) MergeListPacks(target, target->next);
}

QuickList::Node* QuickList::SplitNode(Node* n, long offset, bool after) {
  Node* split = NewNode();
  split->lp = n->lp.Clone();
  if (offset < 0) offset += n->count;
  // "To the end" is SIZE_MAX, as Redis passes -1 to an unsigned count.
  const long orig_start = after ? offset + 1 : 0;
  const size_t orig_extent = after ? SIZE_MAX : static_cast<size_t>(offset);
  const long new_start = after ? 0 : offset;
  const size_t new_extent = after ? static_cast<size_t>(offset + 1) : SIZE_MAX;
  n->lp.DeleteRange(orig_start, orig_extent);
  n->count = static_cast<uint16_t>(n->lp.size());
  n->sz = n->lp.bytes();
  split->lp.DeleteRange(new_start, new_extent);
  split->count = static_cast<uint16_t>(split->lp.size());
  split->sz = split->lp.bytes();
  return split;
}

// ---- Elements ----

void QuickList::AppendListPackNode(ListPack lp) {
  Node* n = NewNode();
  n->count = static_cast<uint16_t>(lp.size());
  n->sz = lp.bytes();
  n->TakeListPack(std::move(lp));
  count_ += n->count;
  InsertNode(tail_, n, true);
}

void QuickList::AppendPlainNode(std::string_view element) { InsertPlainNode(tail_, element, true); }

void QuickList::Push(std::string_view s, End end) {
  if (end == End::kHead) {
    if (IsLarge(s.size())) return InsertPlainNode(head_, s, false);
    if (AllowInsert(head_, s.size())) {
      head_->lp.Prepend(s);
      head_->sz = head_->lp.bytes();
    } else {
      Node* n = NewNode();
      n->lp.Prepend(s);
      n->sz = n->lp.bytes();
      InsertNode(head_, n, false);
    }
    ++head_->count;
  } else {
    if (IsLarge(s.size())) return InsertPlainNode(tail_, s, true);
    if (AllowInsert(tail_, s.size())) {
      tail_->lp.Append(s);
      tail_->sz = tail_->lp.bytes();
    } else {
      Node* n = NewNode();
      n->lp.Append(s);
      n->sz = n->lp.bytes();
      InsertNode(tail_, n, true);
    }
    ++tail_->count;
  }
  ++count_;
}

ListPackValue QuickList::Peek(End end) const {
  const Node* n = end == End::kHead ? head_ : tail_;
  if (n->plain) return ListPackValue{.str = n->plain_view()};
  return n->lp.Get(end == End::kHead ? n->lp.First() : n->lp.Last());
}

void QuickList::Pop(End end) {
  Node* n = end == End::kHead ? head_ : tail_;
  ListPack::Pos pos = n->plain ? kOnPlain : (end == End::kHead ? n->lp.First() : n->lp.Last());
  DeleteIndex(n, &pos);
}

QuickList::Node* QuickList::Locate(long index, bool forward, long* offset) const {
  // -(index + 1) cannot overflow, where -index - 1 would for LONG_MIN.
  const uint64_t i = forward ? static_cast<uint64_t>(index) : static_cast<uint64_t>(-(index + 1));
  if (i >= count_) return nullptr;
  // Walk from whichever end is nearer.
  bool seek_forward = forward;
  uint64_t seek = i;
  if (i > (count_ - 1) / 2) {
    seek_forward = !forward;
    seek = count_ - 1 - i;
  }
  Node* n = seek_forward ? head_ : tail_;
  uint64_t accum = 0;
  while (n != nullptr && accum + n->count <= seek) {
    accum += n->count;
    n = seek_forward ? n->next : n->prev;
  }
  if (n == nullptr) return nullptr;
  if (seek_forward != forward) accum = count_ - n->count - accum;
  *offset =
      forward ? static_cast<long>(i - accum) : -static_cast<long>(i) - 1 + static_cast<long>(accum);
  return n;
}

bool QuickList::DeleteRange(long start, long count) {
  if (count <= 0) return false;
  uint64_t extent = static_cast<uint64_t>(count);
  if (start >= 0 && extent > count_ - static_cast<uint64_t>(start)) {
    extent = count_ - static_cast<uint64_t>(start);
  } else if (start < 0 && extent > static_cast<uint64_t>(-(start + 1)) + 1) {
    extent = static_cast<uint64_t>(-(start + 1)) + 1;
  }
  long offset = 0;
  Node* node = Locate(start, start >= 0, &offset);
  if (node == nullptr) return false;
  // Redis finds the node with an iterator whose release compresses it.
  Compress(node);

  while (extent != 0) {
    Node* next = node->next;
    uint64_t del;
    bool whole = false;
    if (offset == 0 && extent >= node->count) {
      whole = true;
      del = node->count;
    } else if (offset >= 0 && extent + static_cast<uint64_t>(offset) >= node->count) {
      del = node->count - static_cast<uint64_t>(offset);
    } else if (offset < 0) {
      // First node of a range that runs to the tail: -offset elements are left in it.
      del = std::min<uint64_t>(static_cast<uint64_t>(-offset), extent);
    } else {
      del = extent;
    }
    if (whole || node->plain) {
      DeleteNode(node);
    } else {
      DecompressForUse(node);
      node->lp.DeleteRange(offset, del);
      node->sz = node->lp.bytes();
      node->count = static_cast<uint16_t>(node->count - del);
      count_ -= del;
      if (node->count == 0) {
        DeleteNode(node);
      } else {
        RecompressOnly(node);
      }
    }
    extent -= del;
    node = next;
    offset = 0;
  }
  return true;
}

bool QuickList::ReplaceAt(long index, std::string_view s) {
  bool found = false;
  Iterator it = At(index, Direction::kBackward, &found);
  if (!found) return false;
  ListPackValue unused;
  it.Next(&unused);
  it.ReplaceCurrent(s);
  return true;
}

void QuickList::InsertAt(Node* node, ListPack::Pos pos, long offset, std::string_view s,
                         bool after) {
  const size_t sz = s.size();
  const bool full = !AllowInsert(node, sz);
  bool at_tail = false;
  bool at_head = false;
  bool avail_next = false;
  bool avail_prev = false;
  if (after && (offset == node->count - 1 || offset == -1)) {
    at_tail = true;
    avail_next = AllowInsert(node->next, sz);
  }
  if (!after && (offset == 0 || offset == -static_cast<long>(node->count))) {
    at_head = true;
    avail_prev = AllowInsert(node->prev, sz);
  }

  if (IsLarge(sz)) {
    if (node->plain || (at_tail && after) || (at_head && !after)) {
      InsertPlainNode(node, s, after);
    } else {
      // In the middle of a packed node: split it around the new plain node.
      DecompressForUse(node);
      Node* rest = SplitNode(node, offset, after);
      Node* entry = NewPlainNode(s);
      InsertNode(node, entry, after);
      InsertNode(entry, rest, after);
      ++count_;
    }
    return;
  }

  if (!full) {
    DecompressForUse(node);
    node->lp.Insert(pos, s, after ? ListPack::Where::kAfter : ListPack::Where::kBefore);
    ++node->count;
    node->sz = node->lp.bytes();
    RecompressOnly(node);
  } else if (at_tail && avail_next && after) {
    // Full, but the next node has room at its head.
    Node* next = node->next;
    DecompressForUse(next);
    next->lp.Prepend(s);
    ++next->count;
    next->sz = next->lp.bytes();
    RecompressOnly(next);
    RecompressOnly(node);
  } else if (at_head && avail_prev && !after) {
    // Full, but the previous node has room at its tail.
    Node* prev = node->prev;
    DecompressForUse(prev);
    prev->lp.Append(s);
    ++prev->count;
    prev->sz = prev->lp.bytes();
    RecompressOnly(prev);
    RecompressOnly(node);
  } else if ((at_tail && !avail_next && after) || (at_head && !avail_prev && !after)) {
    // Full at an edge whose neighbour is full too: a node of its own.
    Node* n = NewNode();
    n->lp.Prepend(s);
    n->count = 1;
    n->sz = n->lp.bytes();
    InsertNode(node, n, after);
  } else {
    // Full, in the middle: split the node there, and merge what can be merged again.
    DecompressForUse(node);
    Node* split = SplitNode(node, offset, after);
    if (after) {
      split->lp.Prepend(s);
    } else {
      split->lp.Append(s);
    }
    ++split->count;
    split->sz = split->lp.bytes();
    InsertNode(node, split, after);
    MergeNodes(node);
  }
  ++count_;
}

void QuickList::ReplaceEntry(Node* node, ListPack::Pos pos, long offset, std::string_view s) {
  if (!node->plain && !IsLarge(s.size())) {
    node->lp.Replace(pos, s);
    node->sz = node->lp.bytes();
    Compress(node);
  } else if (node->plain) {
    if (IsLarge(s.size())) {
      node->TakeBlob(CopyBytes(s.data(), s.size()), false, true);
      node->sz = s.size();
      Compress(node);
    } else {
      // A small element replacing a plain one goes into a packed node.
      InsertAt(node, pos, offset, s, true);
      DeleteNode(node);
    }
  } else {
    // A large element replacing a packed one: a plain node after it, then the old one goes
    // (it is then the last of its node).
    node->dont_compress = true;
    InsertAt(node, pos, offset, s, true);
    if (node->count == 1) {
      DeleteNode(node);
    } else {
      ListPack::Pos last = node->lp.Last();
      DeleteIndex(node, &last);
      node->dont_compress = false;
      Compress(node);
      Compress(node->next);
    }
  }
}

// ---- Iteration ----

QuickList::Iterator::Iterator(QuickList* ql, Node* node, long offset, Direction direction)
    : ql_(ql), node_(node), offset_(offset), direction_(direction) {}

QuickList::Iterator::Iterator(Iterator&& other) noexcept
    : ql_(other.ql_),
      node_(std::exchange(other.node_, nullptr)),
      pos_(other.pos_),
      offset_(other.offset_),
      direction_(other.direction_) {}

QuickList::Iterator::~Iterator() {
  if (node_ != nullptr) ql_->Compress(node_);
}

QuickList::Iterator QuickList::Begin(Direction direction) {
  return Iterator(this, direction == Direction::kForward ? head_ : tail_,
                  direction == Direction::kForward ? 0 : -1, direction);
}

QuickList::Iterator QuickList::At(long index, Direction direction, bool* found) {
  long offset = 0;
  Node* n = Locate(index, index >= 0, &offset);
  *found = n != nullptr;
  return Iterator(this, n, offset, direction);
}

bool QuickList::Iterator::Next(ListPackValue* value) {
  while (node_ != nullptr) {
    const bool plain = node_->plain;
    if (pos_ == ListPack::npos) {
      DecompressForUse(node_);
      pos_ = plain ? kOnPlain : node_->lp.Seek(offset_);
    } else if (plain) {
      pos_ = ListPack::npos;
    } else if (direction_ == Direction::kForward) {
      pos_ = node_->lp.Next(pos_);
      ++offset_;
    } else {
      pos_ = node_->lp.Prev(pos_);
      --offset_;
    }
    if (pos_ != ListPack::npos) {
      *value = plain ? ListPackValue{.str = node_->plain_view()} : node_->lp.Get(pos_);
      return true;
    }
    // This node is done: compress it again and go on with the next one.
    ql_->Compress(node_);
    if (direction_ == Direction::kForward) {
      node_ = node_->next;
      offset_ = 0;
    } else {
      node_ = node_->prev;
      offset_ = -1;
    }
  }
  return false;
}

void QuickList::Iterator::DeleteCurrent() {
  Node* prev = node_->prev;
  Node* next = node_->next;
  ListPack::Pos pos = pos_;
  const bool node_gone = ql_->DeleteIndex(node_, &pos);
  // Next seeks the same offset again, which is now the following element.
  pos_ = ListPack::npos;
  if (node_gone) {
    if (direction_ == Direction::kForward) {
      node_ = next;
      offset_ = 0;
    } else {
      node_ = prev;
      offset_ = -1;
    }
  }
}

void QuickList::Iterator::Insert(std::string_view s, bool after) {
  ql_->InsertAt(node_, pos_, offset_, s, after);
  Reset();
}

void QuickList::Iterator::ReplaceCurrent(std::string_view s) {
  ql_->ReplaceEntry(node_, pos_, offset_, s);
  Reset();
}

// ---- Introspection ----

void QuickList::ForEachNode(absl::FunctionRef<void(const NodeView&)> fn) const {
  for (const Node* n = head_; n != nullptr; n = n->next) {
    std::string_view stored;
    if (n->compressed) {
      stored = std::string_view(reinterpret_cast<const char*>(n->blob), n->blob_size);
    } else if (n->plain) {
      stored = n->plain_view();
    } else {
      stored = n->lp.view();
    }
    fn(NodeView{n->plain, n->compressed, n->sz, stored, n->count});
  }
}

size_t QuickList::UncompressedBytes() const {
  size_t total = 0;
  for (const Node* n = head_; n != nullptr; n = n->next) total += n->sz;
  return total;
}

size_t QuickList::AllocatedBytes(size_t samples) const {
  size_t total = 0;
  size_t measured = 0;
  const Node* n = head_;
  for (; n != nullptr && (samples == 0 || measured < samples); n = n->next, ++measured) {
    total += malloc_usable_size(const_cast<Node*>(n));
    total += (n->compressed || n->plain) ? malloc_usable_size(n->blob) : n->lp.allocated();
  }
  if (n != nullptr && measured != 0) {
    total = static_cast<size_t>(static_cast<double>(total) / static_cast<double>(measured) *
                                static_cast<double>(len_));
  }
  return total;
}

bool QuickList::Valid() const {
  size_t count = 0;
  uint32_t len = 0;
  const Node* prev = nullptr;
  for (const Node* n = head_; n != nullptr; prev = n, n = n->next) {
    if (n->prev != prev || n->count == 0) return false;
    if (!n->compressed && !n->plain &&
        (n->lp.size() != n->count || n->lp.bytes() != n->sz || n->lp.empty())) {
      return false;
    }
    if (n->plain && n->count != 1) return false;
    if (n->recompress || n->dont_compress) return false;
    count += n->count;
    ++len;
  }
  if (prev != tail_ || count != count_ || len != len_) return false;
  if (head_ != nullptr && (head_->compressed || tail_->compressed)) return false;
  return true;
}

}  // namespace kv
