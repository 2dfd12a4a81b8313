#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/functional/function_ref.h"
#include "storage/entry.h"
#include "storage/key_hash.h"
#include "storage/keyspace_observer.h"
#include "storage/lazy_free.h"
#include "storage/value.h"

namespace kv {

// Expiry times are absolute Unix milliseconds; kNoExpiry marks a key without a TTL.
constexpr int64_t kNoExpiry = -1;

// One logical database: keys to values, plus a second map holding the deadline of every key with
// a TTL (Redis's split), so that active expiry walks only volatile keys.
//
// Each key and its value live in one Entry; the tables hold pointers to them.
//
// The keys live in segments: small flat_hash_sets, each holding the keys whose hash starts with
// a given bit prefix (extendible hashing). A directory of 2^depth entries, indexed by the top
// `depth` bits of a key's hash, points at the segments; a segment of local depth d < depth fills
// 2^(depth-d) consecutive entries. A segment that outgrows kMaxSegmentSize splits in two on its
// next hash bit, alone: no resize ever touches more than one segment's keys, so a growing table
// has no latency spike, and the directory doubles only as an array of pointers.
//
// Every segment is a contiguous range of hash values, so a SCAN cursor is a position in hash
// space: a call returns the whole segment holding the cursor and the next cursor is where that
// segment ends. Splits only cut ranges into smaller ranges, so every key present for the whole
// iteration is returned (a key may come twice if its segment split mid-iteration).
//
// Every lookup applies lazy expiry first, with the `now_ms` the caller passes. Pointers returned
// by lookups are valid only until the next change to this Db: no view survives a handler.
class Db {
 public:
  struct ExpireCycleResult {
    size_t checked = 0;
    size_t expired = 0;
  };

  // A segment splits once it holds more keys than this (7/8 of a 4096-slot table). Smaller
  // segments would make SCAN's steps finer, but each segment's control bytes then sit on a page of
  // their own and lookups in a large Db take a TLB miss more (measured: 512-slot segments made
  // Find on 1M keys ~75% slower; 4096-slot ones match a single table).
  static constexpr size_t kMaxSegmentSize = 3584;

  Db();
  Db(Db&&) noexcept = default;
  Db& operator=(Db&&) noexcept = default;

  // The time commands run at, in Unix milliseconds: accesses are stamped with it (Redis's cached
  // LRU clock). The server sets it before each command.
  void SetClock(int64_t now_ms) {
    clock_s_ = static_cast<uint32_t>(now_ms / 1000);
    now_ms_ = now_ms;
  }

  // Where this database reports expirations and additions, and its number there (DbSet keeps it
  // right across SWAPDB). Null: nobody listens.
  void SetObserver(KeyspaceObserver* observer, size_t index) {
    observer_ = observer;
    index_ = index;
  }
  // While loading an append-only file nothing expires (Redis's keyIsExpired while loading): the
  // file's commands ran before their keys' deadlines, and replay must see the keys they saw.
  void SuspendExpiry(bool on) { expiry_suspended_ = on; }
  // While clients are paused, Redis keeps the dataset still: a lookup reports an expired key
  // missing but leaves it in place (not deleted, not counted in expired_keys, no event) until the
  // pause ends. A write that stores at such a key deletes it first, as always.
  void KeepExpiredKeys(bool on) { keep_expired_ = on; }
  // Whether every added key is reported to the observer (keyspace notifications' "new" events);
  // off, an insertion costs no call.
  void ReportAdditions(bool on) { report_additions_ = on; }

  // The live value of `key`, or nullptr when it is absent or has expired (and is then deleted).
  // Marks the key as accessed now.
  Value* Find(std::string_view key, int64_t now_ms);
  // As Find, without marking the key accessed (Redis's LOOKUP_NOTOUCH).
  Value* Peek(std::string_view key, int64_t now_ms);
  bool Exists(std::string_view key, int64_t now_ms) { return Peek(key, now_ms) != nullptr; }
  // Whether `key` is in the table, expired or not (Redis's dictFind on the main dict).
  bool Contains(std::string_view key) const;

  // Stores a string at `key`, replacing any value. The TTL is cleared unless `keep_ttl`; an
  // `expire_at_ms` other than kNoExpiry sets a new one. A key whose deadline passed (at the time
  // SetClock gave) is expired first, as Redis's lookupKeyWrite before setKey.
  void SetString(std::string_view key, std::string_view value, int64_t expire_at_ms = kNoExpiry,
                 bool keep_ttl = false);
  // Finds `key` or inserts an empty string there; `*inserted` tells which.
  Value& FindOrInsert(std::string_view key, int64_t now_ms, bool* inserted);
  // Stores `value` at `key`, replacing any value, with deadline `expire_at_ms` (or none). This is
  // the way to overwrite a key with a new aggregate (Redis's setKey). Like SetString, an expired
  // key there is expired first.
  void Put(std::string_view key, DetachedValue value, int64_t expire_at_ms);
  // A loader's store (Redis's dbAddRDBLoad): adds `key` with `value` and deadline `expire_at_ms`
  // unless the key is in the table, expired or not; then returns nullptr and leaves `value` as it
  // was. One lookup, no expiry.
  Value* AddNew(std::string_view key, DetachedValue& value, int64_t expire_at_ms);
  // The same for a string value, made in the key's entry from `str` itself.
  Value* AddNewString(std::string_view key, std::string_view str, int64_t expire_at_ms);
  // Lays out an empty Db for `keys` keys, `volatile_keys` of them with a deadline (an RDB file's
  // RESIZEDB, as Redis's dictExpand): the segments that splitting would have made, made at once,
  // so that loading splits none. Does nothing to a Db that holds keys.
  void Reserve(size_t keys, size_t volatile_keys);
  // Removes a live `key` and hands over its value and deadline; false if it is not live.
  bool Take(std::string_view key, int64_t now_ms, DetachedValue* value, int64_t* expire_at_ms);

  // Removes `key` if it is live; returns whether it was. With `lazy`, its value goes to the lazy
  // freeing sink (UNLINK, lazyfree-lazy-user-del, -lazy-eviction).
  bool Delete(std::string_view key, int64_t now_ms, bool lazy = false);

  // The deadline of a live key, kNoExpiry if it has none. The key must exist.
  int64_t GetExpire(std::string_view key) const;
  // Whether `key` is still in the table with a deadline before `now_ms` (Redis's keyIsExpired):
  // logically gone but not deleted yet. Deletes nothing.
  bool IsExpired(std::string_view key, int64_t now_ms) const;
  // Sets the deadline of an existing key.
  void SetExpire(std::string_view key, int64_t at_ms);
  // Removes the deadline of an existing key; returns whether it had one.
  bool Persist(std::string_view key);

  // Calls `fn` for every key, expired or not, in no particular order. `fn` must not change the Db.
  void ForEach(absl::FunctionRef<void(std::string_view key, const Value& value)> fn) const;
  // One SCAN step: calls `fn` for every key (expired or not) of the segment holding hash
  // position `cursor` and returns the cursor of the next segment, 0 after the last. Any 64-bit
  // cursor is accepted. `fn` must not change the Db.
  uint64_t Scan(uint64_t cursor, absl::FunctionRef<void(std::string_view key)> fn) const;
  // A random live key, std::nullopt if there is none; expired keys met on the way are deleted.
  std::optional<std::string> RandomKey(int64_t now_ms);

  size_t size() const { return size_; }
  size_t expires_size() const { return expires_.size(); }
  uint64_t expired_keys() const { return expired_keys_; }
  // Redis's estimate of the average TTL of volatile keys, from active expiry's samples.
  int64_t avg_ttl_ms() const { return expires_.empty() ? 0 : avg_ttl_ms_; }
  // The number of segments and the directory's depth, for tests.
  size_t segment_count() const { return segments_.size(); }
  int directory_depth() const { return depth_; }
  // Removes every key. With `async`, the old tables go to the lazy freeing sink (FLUSHDB ASYNC),
  // which counts each key as an object, and are freed a few keys at a time.
  void Clear(bool async = false);

  // Lazy freeing (Redis's lazyfree-lazy-expire and -lazy-server-del): values deleted by expiry,
  // or overwritten (SET, RENAME, a STORE over a key), go to `freer`, which frees the big ones in
  // steps (null: everything is freed at once).
  void SetLazyFree(LazyFreeSink* freer, bool lazy_expire, bool lazy_server_del) {
    freer_ = freer;
    lazy_expire_ = lazy_expire;
    lazy_server_del_ = lazy_server_del;
  }

  // Memory accounting and eviction sampling (db_memory.cc), from the real allocation sizes
  // (malloc_usable_size) of the blocks this layout uses.
  struct KeyMemory {
    size_t allocated = 0;    // the key's own blocks: entry (key and value header), value bytes,
                             // and its deadline's copy of the key; deleting the key frees these
    size_t table_share = 0;  // its share of the hash tables' slots and control bytes
  };
  // What `key` takes, std::nullopt if it is not in the table (expired or not, as Redis's MEMORY
  // USAGE looks the key up without expiring it). `samples` as Aggregate::AllocatedBytes.
  std::optional<KeyMemory> MemoryOf(std::string_view key, size_t samples = 0) const;
  // The bytes of the tables themselves: slots and control bytes of every segment and the
  // directory, plus each entry's fixed header (main); the deadlines' table (expires).
  struct TableOverhead {
    size_t main = 0;
    size_t expires = 0;
  };
  TableOverhead Overhead() const;
  // Eviction's sample (Redis's dictGetSomeKeys): up to `n` keys, expired or not, with their
  // values and deadlines. From the whole keyspace, consecutive keys from a random position; with
  // `volatile_only`, keys with a TTL, continuing a walk over the deadlines where the previous
  // sample stopped. `fn` must not change the Db.
  void SampleKeys(
      size_t n, bool volatile_only,
      absl::FunctionRef<void(std::string_view key, const Value& value, int64_t expire_at_ms)> fn);

  // The LFU policies: while enabled, every access (Find, FindOrInsert) updates the key's counter
  // as Redis's updateLFU, with lfu-log-factor and lfu-decay-time.
  void SetLfu(bool enabled, int64_t log_factor, int64_t decay_time) {
    lfu_ = enabled;
    lfu_log_factor_ = log_factor;
    lfu_decay_time_ = decay_time;
  }
  // The counter decayed to the current clock (Redis's LFUDecrAndReturn), as OBJECT FREQ and
  // eviction read it. Meaningful only while LFU is enabled: the LRU and LFU data share a value's
  // 24 bits, as in Redis.
  uint8_t LfuCounter(const Value& v) const;
  // Seconds since the value's last access (Redis's estimateObjectIdleTime, which wraps with the
  // 24-bit clock every 194 days). Meaningful only while LFU is disabled.
  uint32_t IdleSeconds(const Value& v) const;

  // One step of active expiry: examines up to `max_checks` volatile keys, continuing where the
  // previous step stopped so that every volatile key is visited in turn, and deletes the expired.
  ExpireCycleResult ActiveExpire(int64_t now_ms, size_t max_checks);

 private:
  using Map = absl::flat_hash_set<Entry::Ptr, EntryHash, EntryEq>;
  using ExpireMap = absl::flat_hash_map<CompactString, int64_t, KeyHash, KeyEq>;
  struct Segment {
    Map map;
    int depth = 0;    // how many leading hash bits all its keys share
    size_t slot = 0;  // its index in segments_
  };
  class FlushedTables;

  size_t DirIndex(size_t hash) const { return depth_ == 0 ? 0 : hash >> (64 - depth_); }
  Segment& SegmentFor(size_t hash) const { return *dir_[DirIndex(hash)]; }
  // Inserts `key` if absent, with the string `*str` if given (else an empty string); returns the
  // value and whether it was inserted. May split the segment, so the iterator is only valid until
  // the next insertion.
  std::pair<Value*, bool> Insert(std::string_view key, const std::string_view* str = nullptr);
  void Split(size_t hash);
  // Gives a value just inserted at `key` (or overwritten, `inserted` false) its contents, access
  // time and deadline.
  void Store(std::string_view key, Value& v, DetachedValue value, int64_t expire_at_ms,
             bool inserted);
  // Removes `key` from the keys (not from the deadlines); returns whether it was there. With
  // `lazy`, an aggregate goes to the lazy freeing sink.
  bool EraseKey(std::string_view key, bool lazy);
  // Before `v` is overwritten: with lazyfree-lazy-server-del, its aggregate goes to the sink.
  void ReleaseOverwritten(Value& v) {
    if (lazy_server_del_ && freer_ != nullptr && !v.is_string()) {
      freer_->FreeValue(std::move(v.Detach().aggregate));
    }
  }
  // Redis's LRU_CLOCK() and LFUGetTimeInMinutes(), from the command's time.
  uint32_t LruClock() const { return clock_s_ & Value::kLruMax; }
  uint32_t LfuMinutes() const { return (clock_s_ / 60) & 0xffff; }
  // Stamps a new value as Redis's createObject: the LRU clock, or the LFU time and LFU_INIT_VAL.
  void InitLru(Value& v) const { v.set_lru(lfu_ ? LfuMinutes() << 8 | kLfuInit : LruClock()); }
  // Marks an accessed value (Redis's lookupKey): its LFU counter, or its LRU clock.
  void Touch(Value& v) {
    if (lfu_) {
      UpdateLfu(v);
    } else {
      v.set_lru(LruClock());
    }
  }
  void UpdateLfu(Value& v);
  static constexpr uint32_t kLfuInit = 5;  // LFU_INIT_VAL
  // Deletes `key` if its deadline has passed; returns whether it did. Inline: with no volatile
  // key, the common case, a lookup pays one test.
  bool ExpireIfNeeded(std::string_view key, int64_t now_ms) {
    return !expires_.empty() && ExpireVolatile(key, now_ms, keep_expired_);
  }
  // Before storing at `key`: an expired key there is deleted even while expired keys are kept.
  void ExpireBeforeStore(std::string_view key, int64_t now_ms) {
    if (!expires_.empty()) ExpireVolatile(key, now_ms, false);
  }
  // With `keep`, an expired key is reported (true) but stays.
  bool ExpireVolatile(std::string_view key, int64_t now_ms, bool keep);

  std::vector<Segment*> dir_;
  std::vector<std::unique_ptr<Segment>> segments_;
  int depth_ = 0;
  size_t size_ = 0;
  uint32_t clock_s_ = 0;
  int64_t now_ms_ = 0;
  KeyspaceObserver* observer_ = nullptr;
  size_t index_ = 0;
  bool report_additions_ = false;
  bool expiry_suspended_ = false;
  bool keep_expired_ = false;
  bool lfu_ = false;
  int64_t lfu_log_factor_ = 10;
  int64_t lfu_decay_time_ = 1;
  uint64_t rng_ = 0x9E3779B97F4A7C15ull;  // RandomKey's and SampleKeys's xorshift state
  uint64_t NextRandom() {
    rng_ ^= rng_ << 13;
    rng_ ^= rng_ >> 7;
    rng_ ^= rng_ << 17;
    return rng_;
  }

  ExpireMap expires_;
  LazyFreeSink* freer_ = nullptr;
  bool lazy_expire_ = false;
  bool lazy_server_del_ = false;
  std::string expire_cursor_;  // the volatile key the next active expiry step starts from
  std::string sample_cursor_;  // the volatile key the next volatile eviction sample starts from
  uint64_t expired_keys_ = 0;
  int64_t avg_ttl_ms_ = 0;
};

}  // namespace kv
