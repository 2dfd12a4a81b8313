#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/functional/function_ref.h"
#include "storage/listpack.h"

namespace kv {

// Redis 7.0's quicklist: a doubly linked list of nodes, each a ListPack of several elements (a
// "packed" node) or one big element on its own (a "plain" node), with the inner nodes optionally
// LZF-compressed. It takes the same decisions as Redis's quicklist.c for the same operations
// (when a node is full, when nodes split and merge, which nodes are compressed), so that node
// counts, sizes and compression match Redis's (DEBUG OBJECT's ql_* fields, serializedlength).
//
// `fill` is list-max-listpack-size: a positive value bounds the elements per node (and a node's
// bytes by the 8 KB safety limit), -1..-5 bound a node's bytes to 4, 8, 16, 32 or 64 KB. An
// element of `packed_threshold` bytes or more (1 GB unless DEBUG QUICKLIST-PACKED-THRESHOLD
// changed it) gets a plain node. `compress_depth` is list-compress-depth: that many nodes at each
// end stay uncompressed, the others are compressed (when it saves at least 8 bytes); 0 disables.
//
// Elements are read as ListPackValue: a view of string bytes (valid until the list changes) or
// an integer, as the list pack stores them.
class QuickList {
  struct Node;

 public:
  static constexpr int kFillMax = (1 << 15) - 1;      // FILL_MAX: a 16-bit signed field
  static constexpr int kFillMin = -5;                 // 64 KB nodes
  static constexpr int kCompressMax = (1 << 16) - 1;  // COMPRESS_MAX
  static constexpr size_t kSizeSafetyLimit = 8192;    // SIZE_SAFETY_LIMIT
  static constexpr size_t kDefaultPackedThreshold = size_t{1} << 30;
  // DEBUG QUICKLIST-PACKED-THRESHOLD refuses more (the real limit is a 32-bit size).
  static constexpr size_t kMaxPackedThreshold = (size_t{1} << 32) - (size_t{1} << 20);

  enum class End { kHead, kTail };
  // Iteration direction: from head to tail, or from tail to head.
  enum class Direction { kForward, kBackward };

  // `fill` and `compress_depth` are clamped as quicklistSetOptions does.
  explicit QuickList(int fill = -2, int compress_depth = 0,
                     size_t packed_threshold = kDefaultPackedThreshold);
  QuickList(QuickList&& other) noexcept;
  QuickList& operator=(QuickList&& other) noexcept;
  QuickList(const QuickList&) = delete;
  QuickList& operator=(const QuickList&) = delete;
  ~QuickList();

  // Frees up to `budget` nodes from the head; true once the list is empty (lazy freeing, see
  // Releasable). Between calls size() counts the elements left (the nodes are not compressed as
  // list-compress-depth wants), and only ReleaseSome, size() and the destructor may be used.
  bool ReleaseSome(size_t budget);

  // A copy with the same nodes, compressed as they are (quicklistDup).
  QuickList Clone() const;

  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  size_t node_count() const { return len_; }
  int fill() const { return fill_; }
  int compress_depth() const { return compress_; }
  size_t packed_threshold() const { return packed_threshold_; }
  // Redis's threshold is global; the owner refreshes it before changes.
  void set_packed_threshold(size_t n) { packed_threshold_ = static_cast<uint32_t>(n); }

  // Adds `s` at the head or the tail (quicklistPush).
  void Push(std::string_view s, End end);
  // Appends a whole node at the tail as it is, as RDB loading does (quicklistAppendListpack,
  // quicklistAppendPlainNode): a packed node holding `lp` (not empty, at most 65535 elements), or
  // a plain node holding `element`.
  void AppendListPackNode(ListPack lp);
  void AppendPlainNode(std::string_view element);
  // The element at the head or the tail of a non-empty list; valid until the list changes.
  ListPackValue Peek(End end) const;
  // Removes the element at the head or the tail of a non-empty list.
  void Pop(End end);
  // Deletes up to `count` elements from `start` (negative from the tail) on, as quicklistDelRange.
  // Returns whether anything was deleted.
  bool DeleteRange(long start, long count);
  // Replaces the element at `index` (negative from the tail); false when out of range.
  bool ReplaceAt(long index, std::string_view s);

  // A position in the list that walks it in one direction (quicklistIter). It may delete the
  // element it last returned and keep walking; after an insert or a replace it is done. Nodes it
  // visits are decompressed while it is on them and compressed again when it leaves, as in
  // Redis. The list must not change by other means while an iterator is alive.
  class Iterator {
   public:
    Iterator(Iterator&& other) noexcept;
    Iterator& operator=(Iterator&&) = delete;
    ~Iterator();

    // The next element, or false at the end.
    bool Next(ListPackValue* value);
    // Deletes the element Next last returned (quicklistDelEntry); Next goes on after it.
    void DeleteCurrent();
    // Inserts `s` before or after the element Next last returned (the iterator is then done).
    void InsertBefore(std::string_view s) { Insert(s, false); }
    void InsertAfter(std::string_view s) { Insert(s, true); }
    // Replaces the element Next last returned with `s` (the iterator is then done).
    void ReplaceCurrent(std::string_view s);

   private:
    friend class QuickList;
    Iterator(QuickList* ql, Node* node, long offset, Direction direction);
    void Insert(std::string_view s, bool after);
    // After an insert or a replace: the iterator is done (and leaves compression alone).
    void Reset() { node_ = nullptr; }

    QuickList* ql_;
    Node* node_;
    // The element Next last returned: its position in the node's list pack (kOnPlain for a
    // plain node's element), or ListPack::npos when Next must seek `offset_` first.
    ListPack::Pos pos_ = ListPack::npos;
    long offset_;  // its index in the node, negative when counted from the tail
    Direction direction_;
  };

  // An iterator from the head (kForward) or the tail (kBackward).
  Iterator Begin(Direction direction);
  // An iterator whose first Next returns the element at `index` (negative from the tail) and goes
  // on in `direction`; `*found` is false (and the iterator empty) when out of range.
  Iterator At(long index, Direction direction, bool* found);

  // What DEBUG OBJECT and RDB sizes need: per node, in order, whether it is plain, whether it is
  // compressed, its uncompressed bytes, and its stored bytes (the LZF data when compressed, the
  // list pack or the plain element otherwise).
  struct NodeView {
    bool plain;
    bool compressed;
    size_t uncompressed_bytes;
    std::string_view stored;
    uint16_t count;
  };
  void ForEachNode(absl::FunctionRef<void(const NodeView&)> fn) const;
  // The sum of every node's uncompressed bytes (DEBUG OBJECT's ql_uncompressed_size).
  size_t UncompressedBytes() const;
  // Bytes taken from the allocator by the nodes and their data; with `samples` > 0, measures that
  // many nodes from the head and extrapolates, as Redis's objectComputeSize.
  size_t AllocatedBytes(size_t samples) const;
  // Checks the structure: links, counts, sizes, that head and tail are uncompressed. For tests.
  bool Valid() const;

 private:
  // Iterator::pos_ on a plain node's element (no list pack position is 0: the header is there).
  static constexpr ListPack::Pos kOnPlain = 0;

  static Node* NewNode();
  void FreeNode(Node* n);
  bool AllowInsert(const Node* n, size_t sz) const;
  bool AllowMerge(const Node* a, const Node* b) const;
  bool IsLarge(size_t sz) const { return sz >= packed_threshold_; }

  // Compression, as Redis's quicklist.c names them.
  static bool CompressNode(Node* n);    // __quicklistCompressNode
  static void DecompressNode(Node* n);  // __quicklistDecompressNode, if compressed
  static void DecompressForUse(Node* n);
  static void CompressIfRaw(Node* n);   // quicklistCompressNode
  void CompressAround(Node* n);         // __quicklistCompress
  void Compress(Node* n);               // quicklistCompress
  static void RecompressOnly(Node* n);  // quicklistRecompressOnly

  void InsertNode(Node* old_node, Node* new_node, bool after);
  void DeleteNode(Node* n);
  // Deletes the element at `*pos` of `n`; `*pos` becomes the next one. True if `n` went too.
  bool DeleteIndex(Node* n, uint32_t* pos);
  Node* NewPlainNode(std::string_view s);
  void InsertPlainNode(Node* old_node, std::string_view s, bool after);
  Node* MergeListPacks(Node* a, Node* b);
  void MergeNodes(Node* center);
  static Node* SplitNode(Node* n, long offset, bool after);
  void InsertAt(Node* n, uint32_t pos, long offset, std::string_view s, bool after);
  void ReplaceEntry(Node* n, uint32_t pos, long offset, std::string_view s);
  // The node holding `index` and the element's offset in it (negative when counted from the
  // tail), as quicklistGetIteratorAtIdx.
  Node* Locate(long index, bool forward, long* offset) const;

  Node* head_ = nullptr;
  Node* tail_ = nullptr;
  size_t count_ = 0;  // elements
  uint32_t len_ = 0;  // nodes
  int16_t fill_;
  uint16_t compress_;
  uint32_t packed_threshold_;
};

}  // namespace kv
