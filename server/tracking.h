#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "storage/key_hash.h"

namespace kv {

struct CommandSpec;
struct ConnState;
struct ServerState;

// A client's CLIENT TRACKING state (Redis's CLIENT_TRACKING_* flags); ConnState::tracking is null
// while tracking is off.
struct ClientTracking {
  bool bcast = false;
  bool optin = false;
  bool optout = false;
  bool noloop = false;
  bool caching = false;            // CLIENT CACHING YES/NO given for the next command
  bool broken_redirect = false;    // the redirect client went away
  uint64_t redirect = 0;           // 0: none
  std::set<std::string> prefixes;  // BCAST prefixes, sorted as Redis's radix tree
};

// Options of CLIENT TRACKING ON.
struct TrackingOptions {
  bool bcast = false;
  bool optin = false;
  bool optout = false;
  bool noloop = false;
  uint64_t redirect = 0;
  std::vector<std::string> prefixes;
};

// Client-side caching (Redis's tracking.c): which clients may hold which keys, and the prefixes
// BCAST clients follow. Invalidations are pushed to the client (RESP3), or to its redirect client
// (RESP3 push, or a message on __redis__:invalidate when that client is subscribed in RESP2).
// Keys are names only: one table for every database, as in Redis.
class Tracking {
 public:
  // Whether anything can be invalidated: keys remembered or BCAST prefixes. While false, a write
  // costs nothing here.
  bool active() const { return !table_.empty() || !prefixes_.empty(); }
  size_t clients() const { return clients_; }
  size_t total_keys() const { return table_.size(); }
  size_t total_items() const { return total_items_; }
  size_t total_prefixes() const { return prefixes_.size(); }

  // Redis's checkPrefixCollisionsOrReply: the error for the first prefix that overlaps another
  // (of the client's, or given), nullopt when none does. `stop` is set when Redis stops there
  // (it goes on to enable tracking after an overlap between two given prefixes past the first).
  static std::optional<std::string> PrefixCollision(const ConnState& conn,
                                                    const std::vector<std::string>& prefixes,
                                                    bool* stop);
  // Redis's enableTracking / disableTracking.
  void Enable(ConnState& conn, const TrackingOptions& options);
  void Disable(ConnState& conn);

  // After a read-only command of a tracking (not BCAST) client: remembers the keys it read.
  void RememberKeys(ConnState& conn, const CommandSpec& spec,
                    std::span<const std::string_view> args);
  // After a read-only command called by a script of a tracking (not BCAST) client: remembers the
  // keys the script declared (Redis tracks the script's keys, not those the command read).
  void RememberScriptKeys(ConnState& conn, std::span<const std::string_view> keys);
  // Redis's trackingInvalidateKey: `key` changed (by `by`, null outside a client's command);
  // its readers are told, and with `bcast` it is queued for the BCAST clients whose prefix it has.
  void InvalidateKey(ServerState& state, const ConnState* by, std::string_view key, bool bcast);
  // Redis's trackingInvalidateKeysOnFlush: FLUSHDB/FLUSHALL invalidate everything (a null) for
  // every tracking client, and the table is emptied.
  void InvalidateAll(ServerState& state);
  // Redis's trackingHandlePendingKeyInvalidations: the invalidations for the client that ran the
  // command, held until its reply was made.
  bool has_pending() const { return !pending_.empty(); }
  void SendPending(ServerState& state);
  // Redis's trackingBroadcastInvalidationMessages, once per event loop turn: the keys changed
  // under each prefix to its BCAST clients.
  bool has_broadcast() const { return broadcast_pending_; }
  void Broadcast(ServerState& state);
  // Redis's trackingLimitUsedSlots: over tracking-table-max-keys, keys are dropped from the table
  // (their readers invalidated), with more effort each time the limit is still exceeded.
  void LimitUsedSlots(ServerState& state);

 private:
  struct BcastState {
    std::map<std::string, uint64_t> keys;  // changed this turn -> id of the client that changed it
    std::map<uint64_t, ConnState*> clients;
  };
  // Redis's sendTrackingMessage: `payload` is the RESP value (a one-key array, a BCAST key array,
  // or a null) after the header.
  void Send(ServerState& state, ConnState& conn, std::string_view payload);
  static std::string KeyArray(std::string_view key);
  // Redis's CLIENT CACHING with OPTIN / OPTOUT: whether `conn`'s reads are tracked now.
  static bool Caches(const ConnState& conn);
  void Remember(const ConnState& conn, std::string_view key);

  // key -> ids of the clients that may cache it.
  absl::flat_hash_map<std::string, absl::flat_hash_set<uint64_t>, KeyHash, KeyEq> table_;
  size_t total_items_ = 0;
  std::map<std::string, BcastState> prefixes_;
  size_t clients_ = 0;  // Redis's server.tracking_clients
  // Invalidations for the client running the command (a key, or nullopt for "everything").
  std::vector<std::optional<std::string>> pending_;
  bool broadcast_pending_ = false;
  unsigned limit_effort_ = 0;  // trackingLimitUsedSlots's timeout_counter
};

}  // namespace kv
