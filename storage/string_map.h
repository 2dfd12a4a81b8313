#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/functional/function_ref.h"
#include "storage/table_stats.h"

namespace kv {

// A hash table from binary-safe strings to binary-safe strings: the big form of a hash.
//
// Each field and its value live in one node, a single heap block of (nearly) their exact size:
//   [next node: 8 bytes][field length: varint][value length: varint][field bytes][value bytes]
// chained from a power-of-two array of bucket pointers. Redis spends three blocks per field
// (a 24-byte dictEntry and two sds strings with their headers); this layout spends one, plus the
// same bucket array: about 40% less memory per field for short fields and values.
//
// As Redis's dict, the table grows when it holds as many fields as buckets (to the next power of
// two), shrinks when under a tenth full, and rehashes incrementally: while a resize is under way
// both bucket arrays are live and every lookup and change moves one bucket to the new array, so
// no single command pays for rehashing a million fields. Scan() is Redis's reverse-binary cursor
// walk, which returns every field present for the whole iteration even while the table grows,
// shrinks or rehashes between calls.
//
// Views returned by lookups and passed to callbacks point into the nodes: they are valid until
// the next change to the map (or the next non-const lookup, which may move nodes between
// buckets but never moves their bytes; only Set and Erase invalidate them).
class StringMap {
 public:
  struct Entry {
    std::string_view field;
    std::string_view value;
  };

  StringMap() = default;
  StringMap(const StringMap&) = delete;
  StringMap& operator=(const StringMap&) = delete;
  StringMap(StringMap&& other) noexcept;
  StringMap& operator=(StringMap&& other) noexcept;
  ~StringMap();

  size_t size() const { return tables_[0].used + tables_[1].used; }
  bool empty() const { return size() == 0; }

  // Sizes the table for `n` fields at once (Redis's dictExpand before a bulk insert).
  void Reserve(size_t n);

  // The value of `field`, or false. The non-const form also moves the rehash along.
  bool Find(std::string_view field, std::string_view* value);
  bool Find(std::string_view field, std::string_view* value) const;
  bool Contains(std::string_view field) const {
    std::string_view unused;
    return Find(field, &unused);
  }
  // Sets `field` to `value`; returns true if the field is new. An existing field keeps its node
  // when the new value fits the block (a block much bigger than needed is given back).
  bool Set(std::string_view field, std::string_view value);
  // Adds a field known to be absent (conversion, copies): no lookup.
  void InsertNew(std::string_view field, std::string_view value);
  // Removes `field`; returns whether it was there.
  bool Erase(std::string_view field);
  void Clear();
  // Frees fields from the last bucket down (the rehash target first), about `budget` nodes and
  // buckets' worth, and each bucket array with its last bucket; true once everything is freed
  // (lazy freeing, see Releasable). Between calls size() counts the fields left, but only
  // ReleaseSome, size() and the destructor may be used.
  bool ReleaseSome(size_t budget);

  // A deep copy, sized for its fields.
  StringMap Clone() const;

  // Calls `fn` for every field in table order (no particular order). `fn` must not change the
  // map; returning false stops the walk.
  void ForEach(absl::FunctionRef<bool(const Entry&)> fn) const;

  // One step of Redis's SCAN: calls `fn` for every field in the bucket(s) at `cursor` and
  // returns the next cursor, 0 once the walk is complete. Any cursor is accepted.
  uint64_t Scan(uint64_t cursor, absl::FunctionRef<void(const Entry&)> fn) const;

  // A random field, about uniformly chosen as Redis's dictGetFairRandomKey: up to 15 fields are
  // gathered from consecutive buckets after a random one and one of them is picked. `random`
  // returns 64 random bits. The map must not be empty.
  Entry RandomEntry(absl::FunctionRef<uint64_t()> random) const;

  // Bytes of every block the map owns (bucket arrays and nodes). With `samples` > 0 only that
  // many nodes are measured and their average extrapolated, as Redis's objectComputeSize.
  size_t AllocatedBytes(size_t samples = 0) const;

  // For tests: the buckets of the main table and whether a rehash is under way.
  size_t bucket_count() const { return tables_[0].size() + tables_[1].size(); }
  bool rehashing() const { return rehash_index_ >= 0; }
  // The shape of table 0 (the main one) or 1 (the rehash target), as Redis's dictGetStats.
  TableStats Stats(int table) const;

 private:
  using Node = char;  // see the class comment for the layout

  struct Table {
    Node** buckets = nullptr;
    size_t mask = 0;  // size - 1 once allocated
    size_t used = 0;
    size_t size() const { return buckets == nullptr ? 0 : mask + 1; }
  };

  static constexpr size_t kInitialSize = 4;      // DICT_HT_INITIAL_SIZE
  static constexpr size_t kMinFillPercent = 10;  // HASHTABLE_MIN_FILL
  static constexpr size_t kFairSample = 15;      // GETFAIR_NUM_ENTRIES

  static Node* Next(const Node* n);
  static void SetNext(Node* n, Node* next);
  static Entry Decode(const Node* n);
  static size_t NodeBytes(std::string_view field, std::string_view value);
  static Node* NewNode(std::string_view field, std::string_view value, Node* next);
  static size_t Hash(std::string_view field);

  // The link (bucket slot or a node's next word) holding `field`'s node, or nullptr.
  Node** FindLink(std::string_view field, size_t hash) const;
  // Where new nodes go: the new table while rehashing.
  Table& InsertTable() { return rehashing() ? tables_[1] : tables_[0]; }
  void GrowIfNeeded();
  void ShrinkIfNeeded();
  // Starts a resize to the smallest power of two >= n (at least kInitialSize).
  void Resize(size_t n);
  // Moves up to `buckets` non-empty buckets of the old table to the new one, visiting at most
  // ten times as many empty ones (Redis's dictRehash).
  void RehashStep(size_t buckets);
  static void FreeTable(Table& t);

  Table tables_[2];
  // The next bucket of tables_[0] to move while rehashing, -1 otherwise.
  int64_t rehash_index_ = -1;
};

}  // namespace kv
