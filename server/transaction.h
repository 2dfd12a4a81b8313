#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/node_hash_map.h"
#include "storage/key_hash.h"

namespace kv {

struct CommandSpec;
struct ConnState;
class DbSet;

// A client's MULTI state (Redis's multiState): the commands queued for EXEC. Their arguments are
// copied into one block, so a transaction costs its bytes plus a few words per argument.
struct MultiState {
  struct Queued {
    const CommandSpec* spec;
    size_t first_arg;  // index into arg_ends
    size_t argc;
  };
  std::vector<Queued> commands;
  std::string bytes;             // every argument, back to back
  std::vector<size_t> arg_ends;  // where each argument ends in `bytes`
  uint32_t flags = 0;            // the union of the queued commands' flags (Redis's cmd_flags)
  bool dirty = false;            // Redis's CLIENT_DIRTY_EXEC: queueing failed, EXEC aborts
  size_t argv_len_sums = 0;      // CLIENT LIST's multi-mem, as Redis counts it

  // Queues `spec` called with `args`; `flags` are its flags for this call (CallFlags).
  void Queue(const CommandSpec& spec, uint32_t flags, std::span<const std::string_view> args);
  // The arguments of queued command `i`, as views into `bytes`.
  void Args(size_t i, std::vector<std::string_view>* out) const;
};

// WATCH's table (Redis's per-db watched_keys dicts, here one table keyed by database and key):
// who watches each key, and whether the key had already expired when it was watched. Clients keep
// pointers to the table's keys (ConnState::watched_keys) to unwatch.
class WatchTable {
 public:
  using Key = std::pair<size_t, std::string>;

  bool empty() const { return keys_.empty(); }
  size_t size() const { return keys_.size(); }

  // WATCH: `conn` watches `key` of database `db` (once); `expired` as Redis's keyIsExpired then.
  void Watch(ConnState& conn, size_t db, std::string_view key, bool expired);
  // UNWATCH, EXEC, DISCARD, a client that goes away.
  void UnwatchAll(ConnState& conn);
  // Redis's isWatchedKeyExpired: a key `conn` watches has expired since it was watched.
  bool AnyExpired(const ConnState& conn, const DbSet& dbs, int64_t now_ms) const;
  // Redis's touchWatchedKey: `key` of database `db` changed; its watchers' EXEC will fail.
  void Touch(const DbSet& dbs, size_t db, std::string_view key);
  // Redis's touchAllWatchedKeysInDb: database `emptied` is flushed (replaced_with < 0) or swapped
  // with database `replaced_with`; called while both still hold their keys.
  void TouchAllInDb(const DbSet& dbs, size_t emptied, int64_t replaced_with, int64_t now_ms);

 private:
  struct Watcher {
    ConnState* conn;
    bool expired;
  };
  struct KeyRef {
    size_t db;
    std::string_view key;
  };
  struct Hash {
    using is_transparent = void;
    size_t operator()(const Key& k) const { return (*this)(KeyRef{k.first, k.second}); }
    size_t operator()(const KeyRef& k) const {
      return KeyHash{}(k.key) ^ (k.db * 0x9E3779B97F4A7C15ull);
    }
  };
  struct Eq {
    using is_transparent = void;
    static KeyRef Ref(const Key& k) { return {k.first, k.second}; }
    static KeyRef Ref(const KeyRef& k) { return k; }
    template <typename A, typename B>
    bool operator()(const A& a, const B& b) const {
      return Ref(a).db == Ref(b).db && Ref(a).key == Ref(b).key;
    }
  };
  static void MarkDirty(ConnState& conn);

  absl::node_hash_map<Key, std::vector<Watcher>, Hash, Eq> keys_;
};

}  // namespace kv
