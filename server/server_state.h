#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "server/blocking.h"
#include "server/client_pause.h"
#include "server/command_stats.h"
#include "server/config.h"
#include "server/duration_clock.h"
#include "server/eviction.h"
#include "server/fault_injector.h"
#include "server/keyspace_events.h"
#include "server/latency_monitor.h"
#include "server/lazy_free.h"
#include "server/monitor.h"
#include "server/persistence/migrate_client.h"
#include "server/persistence/persistence_stats.h"
#include "server/persistence/propagation.h"
#include "server/pubsub.h"
#include "server/random_source.h"
#include "server/slowlog.h"
#include "server/tracking.h"
#include "server/transaction.h"
#include "storage/clock.h"
#include "storage/db_set.h"
#include "storage/keyspace_observer.h"

namespace kv {

class ClientRegistry;
class CommandRegistry;
class Dispatcher;
struct ServerState;

// What the databases report on their own (expired keys, added keys) reaches the same hooks as a
// command's writes: keyspace notifications, WATCH and client tracking.
class KeyspaceHooks final : public KeyspaceObserver {
 public:
  explicit KeyspaceHooks(ServerState* state) : state_(state) {}
  void KeyExpired(size_t db, std::string_view key) override;
  void KeyAdded(size_t db, std::string_view key) override;

 private:
  ServerState* state_;
};
class Scripting;
class AppendOnlyFile;

struct ServerStats {
  uint64_t total_connections_received = 0;
  uint64_t total_commands_processed = 0;
  uint64_t rejected_connections = 0;
  uint64_t keyspace_hits = 0;
  uint64_t keyspace_misses = 0;
  uint64_t total_net_input_bytes = 0;
  uint64_t total_net_output_bytes = 0;
  uint64_t total_error_replies = 0;
  uint64_t total_reads_processed = 0;   // socket reads
  uint64_t total_writes_processed = 0;  // socket writes
  uint64_t evicted_keys = 0;
};

// The state shared by every connection of one server: configuration, data, counters and the
// hooks commands use to act on the server. One per Server; there are no globals.
struct ServerState {
  ServerState(Config cfg, const Clock* clk, const CommandRegistry* reg)
      : config(std::move(cfg)), dbs(config.databases), clock(clk), registry(reg) {
    dbs.SetObserver(&keyspace_hooks);
    ApplyStorageConfig();
  }
  ServerState(const ServerState&) = delete;
  ServerState& operator=(const ServerState&) = delete;

  // Hands the directives storage follows (the LFU counters' settings, lazy freeing) to every
  // database; run after CONFIG SET.
  void ApplyStorageConfig() {
    for (size_t i = 0; i < dbs.count(); ++i) {
      dbs.db(i).SetLfu(IsLfuPolicy(config.maxmemory_policy), config.lfu_log_factor,
                       config.lfu_decay_time);
    }
    dbs.SetLazyFree(&lazy_freer, config.lazyfree_lazy_expire, config.lazyfree_lazy_server_del);
    dbs.ReportAdditions((config.notify_keyspace_events & kNotifyNew) != 0);
  }

  // Whether a changed key must reach WATCH or client tracking: while false (nobody watches or
  // tracks), CommandContext::KeyModified costs this test.
  bool KeyHooksArmed() const { return !watches.empty() || tracking.active(); }
  // Redis's signalModifiedKey: `key` of database `db` changed, by the client `by` (null outside a
  // client's command): its watchers' EXEC fails and its readers are invalidated.
  void SignalModifiedKey(const ConnState* by, size_t db, std::string_view key);
  // Redis's signalFlushedDb, before FLUSHDB (`db`) or FLUSHALL (`db` < 0) empties the data: every
  // key watched there is touched, and every tracking client invalidates everything.
  void SignalFlushedDb(int64_t db);
  // A client goes away: its subscriptions, transaction, watched keys and tracking go with it.
  void ForgetClient(ConnState& conn);
  // Work for the end of the event loop turn (Redis's beforeSleep): BCAST invalidations.
  void RequestAfterBatch() {
    if (after_batch) after_batch();
  }
  // What the end of a loop turn runs (the server calls it; the test harness after each command).
  void RunAfterBatch() {
    if (tracking.has_broadcast()) tracking.Broadcast(*this);
  }

  Config config;
  // What the databases free lazily (UNLINK, FLUSHALL ASYNC, ...); it outlives them.
  LazyFreer lazy_freer;
  DbSet dbs;
  const Clock* clock;
  const CommandRegistry* registry;
  ServerStats stats;
  // Redis's server.dirty: the changes write commands made, as Redis counts them (INFO's
  // rdb_changes_since_last_save; a successful save resets it).
  uint64_t dirty = 0;
  // Snapshots: LASTSAVE, INFO persistence.
  PersistenceStats persistence;
  // What write commands feed the append-only file (server/persistence/propagation.h), and the
  // file itself while appendonly is on (null when off).
  Propagation propagation;
  std::shared_ptr<AppendOnlyFile> aof;
  // MIGRATE's connections to its targets, kept for reuse (INFO's migrate_cached_sockets).
  MigrateSocketCache migrate_sockets;
  // Redis's server.loading: an append-only file's commands are being replayed.
  bool loading = false;
  // DEBUG SET-ACTIVE-EXPIRE: whether the cron runs active expiry (lazy expiry always runs).
  bool active_expire_enabled = true;
  // DEBUG PAUSE-CRON: the server's cron does nothing while set (Redis's server.pause_cron). A
  // shutdown signal then waits for the cron (Redis's shutdown_asap, which SHUTDOWN ABORT
  // cancels): shutdown_signal is the signal, run_signal_shutdown what the cron calls for it.
  bool pause_cron = false;
  int shutdown_signal = 0;
  std::function<void(int signo)> run_signal_shutdown;
  // DEBUG SET-DISABLE-DENY-SCRIPTS: scripts may call commands flagged noscript.
  bool script_disable_deny_script = false;
  // DEBUG QUICKLIST-PACKED-THRESHOLD: list elements of this many bytes or more get a quicklist
  // node of their own (a global in Redis, applied to every list's next change).
  size_t list_packed_threshold = size_t{1} << 30;
  // Faults armed by the embedding API or KVFAULT (enable-fault-injection).
  FaultInjector faults;
  // INFO commandstats and latencystats, indexed by CommandSpec::stats_slot (sized by the
  // dispatcher); INFO errorstats.
  std::vector<CommandStats> command_stats;
  ErrorStats error_stats;
  // Times each command for those statistics.
  DurationClock command_clock;
  // SLOWLOG, LATENCY's events and the MONITOR connections (in the order they started), all fed
  // by the dispatcher after each command.
  SlowLog slowlog;
  LatencyMonitor latency_monitor;
  std::vector<ConnState*> monitors;
  // The commands' random picks (SPOP, SRANDMEMBER, ...).
  RandomSource random;
  // maxmemory: the allocator's use as the check before each command reads it, and eviction.
  MemoryGauge memory_gauge;
  Evictor evictor;
  // EVAL's script cache and the function libraries with their Lua interpreters
  // (server/scripting), made on first use.
  std::shared_ptr<Scripting> scripting;

  // Facts about the running process, for INFO.
  std::string run_id;
  int64_t start_time_ms = 0;
  uint16_t tcp_port = 0;
  size_t connected_clients = 0;
  std::string executable;
  int64_t instantaneous_ops_per_sec = 0;  // sampled by the server's cron, as the two below
  double instantaneous_input_kbps = 0;
  double instantaneous_output_kbps = 0;
  size_t used_memory_peak = 0;
  size_t used_memory_startup = 0;  // INFO's used_memory_startup: the allocator's use at start

  // Set by the server: SHUTDOWN asks it to stop once the current batch is done.
  std::function<void()> request_shutdown;
  // Set by the server: serves clients from inside a long load at start-up (Redis's
  // processEventsWhileBlocked); false once the server is stopping, which ends the load.
  std::function<bool()> process_events_while_loading;
  // Set by the server: its connections, for the CLIENT commands. Null when there are none to
  // show (the CLIENT commands then see only the calling connection).
  ClientRegistry* clients = nullptr;
  // CLIENT PAUSE; the server wakes the connections it holds when pause_changed is called (after
  // CLIENT PAUSE and UNPAUSE).
  ClientPause pause;
  std::function<void()> pause_changed;
  // Connections CLIENT PAUSE holds (set by the server): Redis counts them as blocked clients.
  size_t paused_clients = 0;
  // Clients blocked on keys (BLPOP and friends). The server re-arms its timeout timer when
  // blocking_deadlines_changed is called (after a client blocks with a timeout).
  BlockingController blocking;
  std::function<void()> blocking_deadlines_changed;
  // Set by the server: called after CONFIG SET so that derived settings (parser limits, log
  // level) follow the new values.
  std::function<void()> config_changed;
  // Set by the server: puts into effect a CONFIG SET that changed `old` into `config`
  // (listeners for port and bind; the process's oom score, title and crash handlers). Redis's
  // apply functions: on failure it returns the directive concerned and Redis's error text, and
  // CONFIG SET restores `old` and calls it again.
  struct ApplyError {
    std::string directive;
    std::string message;
  };
  std::function<std::optional<ApplyError>(const Config& old)> apply_config;

  // Pub/sub, WATCH, client tracking, and the hooks the databases report to.
  PubSub pubsub;
  WatchTable watches;
  Tracking tracking;
  KeyspaceHooks keyspace_hooks{this};
  // Every client by id (tracking's redirections and readers), kept by the server and the harness.
  absl::flat_hash_map<uint64_t, ConnState*> clients_by_id;
  // The client whose command runs (Redis's server.current_client), and how deeply commands are
  // nested (1 for a command, 2 inside EXEC: Redis's fixed_time_expire), set by the dispatcher.
  ConnState* current_client = nullptr;
  int executing = 0;
  // Redis's server.in_exec: EXEC is running its queued commands.
  bool in_exec = false;
  // The dispatcher, for EXEC to run queued commands through it.
  Dispatcher* dispatcher = nullptr;
  // Set by the server: arranges for RunAfterBatch to run once the current loop turn's work is done.
  std::function<void()> after_batch;
};

}  // namespace kv
