#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "absl/container/btree_map.h"
#include "storage/aggregate.h"
#include "storage/listpack.h"

namespace kv {

// A stream entry id, <ms>-<seq>, ordered as Redis compares them (ms first).
struct StreamId {
  uint64_t ms = 0;
  uint64_t seq = 0;

  friend auto operator<=>(const StreamId&, const StreamId&) = default;
  static constexpr StreamId Max() { return {UINT64_MAX, UINT64_MAX}; }
  bool IsZero() const { return ms == 0 && seq == 0; }
  // Redis's streamIncrID/streamDecrID: false (and 0-0, or max-max) past the last/first id.
  bool Incr();
  bool Decr();
  std::string ToString() const;
};

// A consumer group's pending entry (Redis's streamNACK).
struct StreamConsumer;
struct StreamNack {
  int64_t delivery_time = 0;
  uint64_t delivery_count = 1;
  StreamConsumer* consumer = nullptr;
};

struct StreamConsumer {
  std::string name;
  int64_t seen_time = 0;
  std::set<StreamId> pel;  // its entries of the group's PEL
};

// A consumer group (Redis's streamCG). Consumers are kept in name order, as Redis's radix tree.
struct StreamGroup {
  static constexpr int64_t kInvalidEntriesRead = -1;  // SCG_INVALID_ENTRIES_READ

  StreamId last_id;
  int64_t entries_read = kInvalidEntriesRead;
  std::map<StreamId, StreamNack> pel;
  std::map<std::string, std::unique_ptr<StreamConsumer>, std::less<>> consumers;

  StreamConsumer* FindConsumer(std::string_view name);
  // A new consumer (the name must be new).
  StreamConsumer* CreateConsumer(std::string_view name, int64_t now_ms);
  // Removes the consumer and its pending entries; returns how many it had.
  size_t DeleteConsumer(StreamConsumer* c);
  // Records that `id` was delivered to `c` at `now_ms` (streamReplyWithRange's NACK handling):
  // a new pending entry, or one taken over from another consumer with its count reset to 1.
  void Deliver(StreamId id, StreamConsumer* c, int64_t now_ms);
  // Removes a pending entry; false when `id` is not pending.
  bool Ack(StreamId id);
  // Moves a pending entry to consumer `to`.
  void Reassign(StreamNack& nack, StreamId id, StreamConsumer* to);
};

// A stream (Redis's t_stream.c): entries in listpack nodes keyed by their master id, laid out
// byte for byte as Redis's so that node shaping, `~` trimming and RDB lengths agree with it.
//
// A node's listpack begins with the master entry
//   [count][deleted][num-fields][field 1]...[field N][0]
// followed by entries
//   [flags][ms-delta][seq-delta]([num-fields][field][value]... | [value]...)[lp-count]
// where ids are deltas against the node's master id and the SAMEFIELDS flag says the entry has
// the master's fields (values only). Deleted entries stay as tombstones (the DELETED flag) until
// their node's last live entry goes, as in Redis.
class Stream final : public Aggregate {
 public:
  static constexpr ValueType kType = ValueType::kStream;
  static constexpr size_t kMaxListPackSize = size_t{1} << 30;  // STREAM_LISTPACK_MAX_SIZE

  // The listpack nodes by master id. A B-tree keeps each node's key and block pointer inline,
  // 24 bytes a node instead of a red-black tree's 64-byte allocation.
  using NodeMap = absl::btree_map<StreamId, ListPack>;

  struct NodeLimits {
    size_t max_bytes = 4096;    // stream-node-max-bytes (0: no limit)
    int64_t max_entries = 100;  // stream-node-max-entries (0: no limit)
  };
  enum class TrimStrategy { kNone, kMaxLen, kMinId };
  struct TrimArgs {
    TrimStrategy strategy = TrimStrategy::kNone;
    bool approx = false;
    int64_t limit = 0;  // at most this many entries (0: no limit)
    int64_t maxlen = 0;
    StreamId minid;
  };

  // Walks entries between two ids (inclusive), forward or backward, skipping tombstones: Redis's
  // streamIterator. Valid while the stream does not change.
  class Iterator {
   public:
    Iterator(const Stream& s, StreamId start, StreamId end, bool rev);
    // The next entry's id and field count; false when the range is done.
    bool Next(StreamId* id, int64_t* num_fields);
    // The current entry's next field and value (call num_fields times after Next).
    void NextField(ListPackValue* field, ListPackValue* value);

   private:
    bool EnterNode();
    // The first entry of the current node (forward) or its last (backward), npos when none.
    ListPack::Pos FirstInNode() const;
    int64_t IntAt(ListPack::Pos p) const;
    const Stream& s_;
    StreamId start_, end_;
    bool rev_;
    bool started_ = false;
    bool done_ = false;
    NodeMap::const_iterator node_;
    const ListPack* lp_ = nullptr;
    StreamId master_id_;
    int64_t master_fields_count_ = 0;
    ListPack::Pos master_fields_ = ListPack::npos;  // the master entry's first field
    ListPack::Pos entry_ = ListPack::npos;          // the current entry's flags
    ListPack::Pos entry_fields_ = ListPack::npos;   // its first field (or value)
    int64_t entry_num_fields_ = 0;
    bool same_fields_ = false;
    ListPack::Pos field_cursor_ = ListPack::npos;
    ListPack::Pos master_field_cursor_ = ListPack::npos;
  };

  Stream() = default;

  ValueType type() const override { return kType; }
  Encoding encoding() const override { return Encoding::kStream; }
  size_t size() const override { return length_; }
  std::unique_ptr<Aggregate> Clone() const override;
  size_t AllocatedBytes(size_t samples) const override;
  // Redis's lazyfreeGetFreeEffort for a stream: nodes plus groups' pending entries.
  size_t FreeEffort() const override;
  // The nodes from the oldest on, then each group's pending entries and consumers, about `budget`
  // of them (lazy freeing, see Releasable).
  bool ReleaseSome(size_t budget) override;

  uint64_t length() const { return length_; }
  StreamId last_id() const { return last_id_; }
  StreamId first_id() const { return first_id_; }
  StreamId max_deleted_id() const { return max_deleted_id_; }
  uint64_t entries_added() const { return entries_added_; }
  void set_last_id(StreamId id) { last_id_ = id; }
  void set_max_deleted_id(StreamId id) { max_deleted_id_ = id; }
  void set_entries_added(uint64_t n) { entries_added_ = n; }
  // Loading (RDB, RESTORE): a node as saved, keyed by its master id (false when that key is
  // taken), and the counters saved with the nodes. The caller has checked the node's layout.
  bool InsertNode(StreamId master, ListPack lp) {
    return nodes_.try_emplace(master, std::move(lp)).second;
  }
  void set_length(uint64_t n) { length_ = n; }
  void set_first_id(StreamId id) { first_id_ = id; }

  // Appends an entry with id `id` (greater than last_id(), checked by the caller) and the
  // field/value pairs `fv` (an even count), opening a new node as Redis's streamAppendItem.
  void Append(StreamId id, std::span<const std::string_view> fv, const NodeLimits& limits);
  // Marks entry `id` deleted (XDEL); false when there is no such live entry. Does not touch
  // max_deleted_id (the caller does, as XDEL).
  bool Delete(StreamId id);
  // Redis's streamTrim: the number of entries removed.
  int64_t Trim(const TrimArgs& args);
  // Whether a live entry `id` exists.
  bool Contains(StreamId id) const;
  // The first (or last) live entry's id; false when empty.
  bool EdgeId(bool first, StreamId* id) const;

  // The listpack nodes, by master id (DEBUG OBJECT, RDB lengths, XINFO).
  const NodeMap& nodes() const { return nodes_; }

  // Redis's streamRangeHasTombstones and streamEstimateDistanceFromFirstEverEntry (-1 when
  // unknown): what consumer groups' entries-read and lag rest on.
  bool RangeHasTombstones(StreamId start, StreamId end) const;
  int64_t EstimateDistanceFromFirstEver(StreamId id) const;
  // Moves `g`'s last id to `id` (delivered past it), keeping entries_read as Redis does.
  void AdvanceGroup(StreamGroup& g, StreamId id) const;
  // The group's lag, nullopt when it cannot be known (streamReplyWithCGLag).
  std::optional<int64_t> GroupLag(const StreamGroup& g) const;

  // Consumer groups, in name order.
  StreamGroup* FindGroup(std::string_view name);
  // nullptr when a group of that name exists.
  StreamGroup* CreateGroup(std::string_view name, StreamId last_id, int64_t entries_read);
  bool DestroyGroup(std::string_view name);
  const std::map<std::string, std::unique_ptr<StreamGroup>, std::less<>>& groups() const {
    return groups_;
  }

 private:
  NodeMap nodes_;
  uint64_t length_ = 0;
  StreamId last_id_;
  StreamId first_id_;
  StreamId max_deleted_id_;
  uint64_t entries_added_ = 0;
  std::map<std::string, std::unique_ptr<StreamGroup>, std::less<>> groups_;
};

}  // namespace kv
