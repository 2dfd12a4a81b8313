#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/node_hash_map.h"
#include "storage/aggregate.h"

namespace kv {

struct CommandSpec;
struct ConnState;
struct ServerState;
class ReplyWriter;

// Where a blocked client's reply goes, and how its connection learns that its command is done.
// The connection implements it (the in-process test harness too).
class BlockedClientSink {
 public:
  virtual ~BlockedClientSink() = default;
  // The writer for the blocked command's reply, set to the client's protocol.
  virtual ReplyWriter& BlockedReply() = 0;
  // The blocked command has replied (served, timed out or CLIENT UNBLOCK): the connection goes
  // on with its input.
  virtual void Unblocked() = 0;
};

// Clients waiting on keys: BLPOP and the other blocking commands (Redis's blocked.c), one
// mechanism for every type that can be waited on (lists, sorted sets, streams).
//
// A command that finds nothing to serve calls Block() and replies nothing; its connection then
// reads no more commands. Every write that gives a key a value of a waited-on type calls
// SignalKeyAsReady(); after each command the dispatcher calls ServeReadyKeys(), which runs the
// waiting commands again, in the order their clients blocked, with the ready key as a hint
// (CommandContext::blocked_key): a command that can now be served replies and its client goes on;
// one that still finds nothing calls Block() again and keeps its place. Redis 7.0 serves the ready
// key only to clients waiting for that key's type, and so does this.
class BlockingController {
 public:
  // Blocks the client running `spec` (with `args`, which are copied) on `keys` of database `db`
  // until `deadline_ms` (Unix ms; 0 waits forever), waiting for a value of type `type`. While the
  // same command is being served again, keeps the client where it is instead.
  // With `needs_stream`, the client waits on a consumer group (XREADGROUP): it fails with
  // Redis's UNBLOCKED error once a key it waits on no longer holds a stream.
  void Block(ConnState& conn, const CommandSpec& spec, std::span<const std::string_view> args,
             size_t db, std::span<const std::string_view> keys, ValueType type, int64_t deadline_ms,
             bool needs_stream = false);

  // Redis's unblockDeletedStreamReadgroupClients: after each command, the clients blocked in
  // XREADGROUP on a key that was deleted or given another type get "-UNBLOCKED the stream key no
  // longer exists". Cheap when none waits.
  bool has_stream_waiters() const { return stream_waiters_ != 0; }
  void UnblockDeletedStreamWaiters(ServerState& state, int64_t now_ms);

  // A key of database `db` got a value that clients may be waiting for (Redis's
  // signalKeyAsReady). Cheap when nobody waits.
  void SignalKeyAsReady(size_t db, std::string_view key) {
    if (!waiting_.empty()) MarkReady(db, key);
  }
  // SWAPDB: every key of the two databases that someone waits on may now be ready (Redis's
  // scanDatabaseForReadyKeys), checked against the databases' contents by the caller's `exists`.
  template <typename ExistsFn>
  void SignalDatabase(size_t db, ExistsFn&& exists) {
    for (const auto& [k, waiters] : waiting_) {
      if (k.first == db && exists(k.second)) MarkReady(k.first, k.second);
    }
  }
  bool has_ready_keys() const { return !ready_.empty(); }
  // Serves the clients waiting on ready keys, until no key is ready (serving one may make
  // another ready: BLMOVE pushes). Runs on the loop's thread, between commands.
  void ServeReadyKeys(ServerState& state, int64_t now_ms);

  // Replies to every client whose deadline is before `now_ms` as Redis does on a timeout (a null
  // array) and lets it go on. Returns how many.
  size_t ExpireTimeouts(ServerState& state, int64_t now_ms);
  // The earliest deadline of a blocked client, 0 when none has one.
  int64_t next_deadline_ms() const { return deadlines_.empty() ? 0 : deadlines_.begin()->first; }

  // CLIENT UNBLOCK: ends client `id`'s wait as a timeout would, or with Redis's UNBLOCKED error.
  // False when that client is not blocked.
  bool Unblock(ServerState& state, uint64_t id, bool with_error, int64_t now_ms);
  // A blocked client disconnected: forget it, without replying.
  void Remove(uint64_t id);

  size_t blocked_clients() const { return clients_.size(); }
  // Blocked clients with a timeout (INFO's clients_in_timeout_table).
  size_t timed_clients() const { return deadlines_.size(); }
  // How many keys clients wait on.
  size_t waited_keys() const { return waiting_.size(); }

 private:
  using DbKey = std::pair<size_t, std::string>;
  struct Waiter {
    ConnState* conn;
    const CommandSpec* spec;
    std::vector<std::string> args;
    size_t db;
    ValueType type;
    int64_t deadline_ms;
    uint64_t order;  // when it blocked, to break deadline ties
    bool needs_stream = false;
    // Its place in each key's queue.
    std::vector<std::pair<const DbKey*, std::list<uint64_t>::iterator>> places;
  };

  // How a wait ended, which decides what Redis 7.0 counts for it.
  enum class Ending {
    kServed,     // updateStatsOnUnblock: time, failure if the reply is an error, slow log
    kUnblocked,  // CLIENT UNBLOCK: the same, and Redis passes had_errors = 1 whatever the reply
    kTimedOut,   // checkBlockedClientTimeout: no statistics at all
  };

  void MarkReady(size_t db, std::string_view key);
  // Ends a wait: removes the client from every queue and the deadlines.
  std::unique_ptr<Waiter> Detach(uint64_t id);
  // After the blocked command replied: its statistics as Redis counts them for `ending`, then
  // the connection goes on.
  void Finish(ServerState& state, Waiter& w, size_t reply_start, uint64_t ns, int64_t now_ms,
              Ending ending);
  // Replies to a client whose wait ended without being served.
  void EndWithReply(ServerState& state, uint64_t id, bool with_error, int64_t now_ms,
                    Ending ending);

  absl::flat_hash_map<uint64_t, std::unique_ptr<Waiter>> clients_;  // by client id
  // Per key, the ids of the clients waiting on it, first blocked first. Nodes stay where they
  // are, so waiters keep pointers to their keys and iterators into the queues.
  absl::node_hash_map<DbKey, std::list<uint64_t>> waiting_;
  std::vector<DbKey> ready_;
  absl::flat_hash_set<DbKey> ready_set_;
  std::set<std::pair<int64_t, uint64_t>> deadlines_;  // (deadline, client id) for timed waits
  uint64_t next_order_ = 0;
  size_t stream_waiters_ = 0;  // waiters with needs_stream
  // The client being served again, and whether its command blocked again.
  uint64_t serving_id_ = 0;
  bool reblocked_ = false;
};

}  // namespace kv
