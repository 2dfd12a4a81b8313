#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "server/config.h"
#include "server/fault_injector.h"
#include "storage/clock.h"
#include "storage/db_set.h"

namespace kv {

class ClientRegistry;
class CommandRegistry;

struct ServerStats {
  uint64_t total_connections_received = 0;
  uint64_t total_commands_processed = 0;
  uint64_t rejected_connections = 0;
  uint64_t keyspace_hits = 0;
  uint64_t keyspace_misses = 0;
  uint64_t total_net_input_bytes = 0;
  uint64_t total_net_output_bytes = 0;
  uint64_t total_error_replies = 0;
};

// The state shared by every connection of one server: configuration, data, counters and the
// hooks commands use to act on the server. One per Server; there are no globals.
struct ServerState {
  ServerState(Config cfg, const Clock* clk, const CommandRegistry* reg)
      : config(std::move(cfg)), dbs(config.databases), clock(clk), registry(reg) {}

  Config config;
  DbSet dbs;
  const Clock* clock;
  const CommandRegistry* registry;
  ServerStats stats;
  // DEBUG SET-ACTIVE-EXPIRE: whether the cron runs active expiry (lazy expiry always runs).
  bool active_expire_enabled = true;
  // Faults armed by the embedding API or KVFAULT (enable-fault-injection).
  FaultInjector faults;

  // Facts about the running process, for INFO.
  std::string run_id;
  int64_t start_time_ms = 0;
  uint16_t tcp_port = 0;
  size_t connected_clients = 0;
  std::string executable;
  int64_t instantaneous_ops_per_sec = 0;  // sampled by the server's cron
  size_t used_memory_peak = 0;

  // Set by the server: SHUTDOWN asks it to stop once the current batch is done.
  std::function<void()> request_shutdown;
  // Set by the server: its connections, for the CLIENT commands. Null when there are none to
  // show (the CLIENT commands then see only the calling connection).
  ClientRegistry* clients = nullptr;
  // Set by the server: called after CONFIG SET so that derived settings (parser limits, log
  // level) follow the new values.
  std::function<void()> config_changed;
};

}  // namespace kv
