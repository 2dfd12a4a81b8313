#include "server/info.h"

#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "fmt/format.h"
#include "server/allocator.h"
#include "server/command_registry.h"
#include "server/config_directive.h"
#include "server/memory_overhead.h"
#include "server/persistence/aof.h"
#include "server/persistence/snapshot.h"
#include "server/scripting/scripting.h"
#include "server/strings.h"
#include "server/version.h"
#include "storage/key_hash.h"

namespace kv {
namespace {

// Redis's bytesToHuman.
std::string Human(double n) {
  if (n < 1024) return fmt::format("{}B", static_cast<int64_t>(n));
  if (n < 1024.0 * 1024) return fmt::format("{:.2f}K", n / 1024);
  if (n < 1024.0 * 1024 * 1024) return fmt::format("{:.2f}M", n / (1024.0 * 1024));
  if (n < 1024.0 * 1024 * 1024 * 1024) return fmt::format("{:.2f}G", n / (1024.0 * 1024 * 1024));
  return fmt::format("{:.2f}T", n / (1024.0 * 1024 * 1024 * 1024));
}

size_t TotalSystemMemory() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page) : 0;
}

void ServerSection(ServerState& s, int64_t now_ms, std::string& out) {
  utsname u{};
  uname(&u);
  const int64_t uptime = (now_ms - s.start_time_ms) / 1000;
  absl::StrAppend(&out, "# Server\r\n", "redis_version:", kRedisCompatVersion, "\r\n",
                  "kvserver_version:", kKvserverVersion, "\r\n",
                  "redis_git_sha1:00000000\r\nredis_git_dirty:0\r\n", "redis_build_id:", kBuildId,
                  "\r\n", "redis_mode:standalone\r\n", "os:", u.sysname, " ", u.release, " ",
                  u.machine, "\r\n", "arch_bits:", sizeof(void*) * 8, "\r\n",
                  "monotonic_clock:POSIX clock_gettime\r\nmultiplexing_api:epoll\r\n",
                  "atomicvar_api:c11-builtin\r\n");
  absl::StrAppend(&out, "gcc_version:", __GNUC__, ".", __GNUC_MINOR__, ".", __GNUC_PATCHLEVEL__,
                  "\r\n", "process_id:", getpid(), "\r\n", "process_supervised:no\r\n",
                  "run_id:", s.run_id, "\r\n", "tcp_port:", s.tcp_port, "\r\n",
                  "server_time_usec:", now_ms * 1000, "\r\n", "uptime_in_seconds:", uptime, "\r\n",
                  "uptime_in_days:", uptime / 86400, "\r\n", "hz:", s.config.hz, "\r\n",
                  "configured_hz:", s.config.hz, "\r\n", "lru_clock:", (now_ms / 1000) & 0xFFFFFF,
                  "\r\n", "executable:", s.executable, "\r\n", "config_file:", s.config.config_file,
                  "\r\n", "io_threads_active:0\r\n");
}

void ClientsSection(ServerState& s, std::string& out) {
  absl::StrAppend(&out, "# Clients\r\n", "connected_clients:", s.connected_clients, "\r\n",
                  "cluster_connections:0\r\n", "maxclients:", s.config.maxclients, "\r\n",
                  "client_recent_max_input_buffer:0\r\nclient_recent_max_output_buffer:0\r\n",
                  "blocked_clients:", s.blocking.blocked_clients() + s.paused_clients, "\r\n",
                  "tracking_clients:", s.tracking.clients(), "\r\n",
                  "clients_in_timeout_table:", s.blocking.timed_clients(), "\r\n");
}

void MemorySection(ServerState& s, std::string& out) {
  const MemoryOverhead m = ComputeMemoryOverhead(s);
  const size_t used = m.total_allocated;
  const size_t rss = m.rss;
  const size_t system = TotalSystemMemory();
  const size_t startup = m.startup_allocated;
  const size_t dataset = m.dataset;
  const double ratio = used ? static_cast<double>(rss) / used : 0.0;
  absl::StrAppend(&out, "# Memory\r\n", "used_memory:", used, "\r\n",
                  "used_memory_human:", Human(used), "\r\n", "used_memory_rss:", rss, "\r\n",
                  "used_memory_rss_human:", Human(rss), "\r\n",
                  "used_memory_peak:", s.used_memory_peak, "\r\n",
                  "used_memory_peak_human:", Human(s.used_memory_peak), "\r\n",
                  fmt::format("used_memory_peak_perc:{:.2f}%\r\n",
                              s.used_memory_peak ? 100.0 * used / s.used_memory_peak : 100.0),
                  "used_memory_overhead:", m.overhead_total, "\r\n",
                  "used_memory_startup:", startup, "\r\n", "used_memory_dataset:", dataset, "\r\n",
                  fmt::format("used_memory_dataset_perc:{:.2f}%\r\n", m.dataset_perc),
                  "allocator_allocated:", used, "\r\n", "allocator_active:", used, "\r\n",
                  "allocator_resident:", rss, "\r\n", "total_system_memory:", system, "\r\n",
                  "total_system_memory_human:", Human(system), "\r\n");
  // Scripting's interpreters (made on first use); no replication or AOF: their memory is nil.
  size_t lua_eval = 0, lua_functions = 0, scripts = 0, functions = 0, libraries = 0;
  if (s.scripting) {
    lua_eval = s.scripting->eval_vm().MemoryUsed();
    lua_functions = s.scripting->functions_vm().MemoryUsed();
    scripts = s.scripting->script_count();
    functions = s.scripting->function_count();
    libraries = s.scripting->libraries().size();
  }
  absl::StrAppend(
      &out, "used_memory_lua:", lua_eval, "\r\nused_memory_vm_eval:", lua_eval,
      "\r\nused_memory_lua_human:", Human(static_cast<double>(lua_eval)),
      "\r\nused_memory_scripts_eval:0\r\nnumber_of_cached_scripts:", scripts,
      "\r\nnumber_of_functions:", functions, "\r\nnumber_of_libraries:", libraries,
      "\r\nused_memory_vm_functions:", lua_functions,
      "\r\nused_memory_vm_total:", lua_eval + lua_functions,
      "\r\nused_memory_vm_total_human:", Human(static_cast<double>(lua_eval + lua_functions)),
      "\r\nused_memory_functions:0\r\nused_memory_scripts:0\r\nused_memory_scripts_human:0B\r\n",
      "maxmemory:", s.config.maxmemory, "\r\n",
      "maxmemory_human:", Human(static_cast<double>(s.config.maxmemory)), "\r\n",
      "maxmemory_policy:", std::string(MaxmemoryPolicyName(s.config.maxmemory_policy)), "\r\n",
      "allocator_frag_ratio:1.00\r\nallocator_frag_bytes:0\r\n",
      fmt::format("allocator_rss_ratio:{:.2f}\r\n", ratio),
      "allocator_rss_bytes:", static_cast<int64_t>(rss) - static_cast<int64_t>(used), "\r\n",
      "rss_overhead_ratio:1.00\r\nrss_overhead_bytes:0\r\n",
      fmt::format("mem_fragmentation_ratio:{:.2f}\r\n", ratio),
      "mem_fragmentation_bytes:", static_cast<int64_t>(rss) - static_cast<int64_t>(used), "\r\n",
      "mem_not_counted_for_evict:0\r\nmem_replication_backlog:0\r\n"
      "mem_total_replication_buffers:0\r\nmem_clients_slaves:0\r\nmem_clients_normal:0\r\n"
      "mem_cluster_links:0\r\nmem_aof_buffer:0\r\n",
      "mem_allocator:", Allocator().name, "\r\n", "active_defrag_running:0\r\n",
      "lazyfree_pending_objects:", s.lazy_freer.pending_objects(), "\r\n",
      "lazyfreed_objects:", s.lazy_freer.freed_objects(), "\r\n");
}

void PersistenceSection(ServerState& s, std::string& out) {
  // Snapshots (SAVE, BGSAVE, the save points), the forked child's copy-on-write, and loading.
  const PersistenceStats& p = s.persistence;
  const ChildInfo& child = p.child_info;
  double fork_perc = 0;
  if (child.keys_total() != 0) {
    fork_perc =
        static_cast<double>(child.keys_processed()) / static_cast<double>(child.keys_total()) * 100;
  }
  char fork_perc_text[32];
  std::snprintf(fork_perc_text, sizeof fork_perc_text, "%.2f", fork_perc);
  absl::StrAppend(
      &out, "# Persistence\r\n", "loading:", p.loading ? 1 : 0, "\r\n", "async_loading:0\r\n",
      "current_cow_peak:", child.current_cow_peak(), "\r\n",
      "current_cow_size:", child.current_cow_size(), "\r\n",
      "current_cow_size_age:", child.current_cow_size_age_s(), "\r\n",
      "current_fork_perc:", fork_perc_text, "\r\n",
      "current_save_keys_processed:", child.keys_processed(), "\r\n",
      "current_save_keys_total:", child.keys_total(), "\r\n",
      "rdb_changes_since_last_save:", s.dirty, "\r\n",
      "rdb_bgsave_in_progress:", p.child_pid != -1 ? 1 : 0, "\r\n",
      "rdb_last_save_time:", LastSaveSeconds(s), "\r\n",
      "rdb_last_bgsave_status:", p.last_save_ok ? "ok" : "err", "\r\n",
      "rdb_last_bgsave_time_sec:", p.last_bgsave_time_sec, "\r\n", "rdb_current_bgsave_time_sec:",
      p.child_pid != -1 ? s.clock->NowMs() / 1000 - p.bgsave_start_s : -1, "\r\n",
      "rdb_saves:", p.rdb_saves, "\r\n", "rdb_last_cow_size:", child.rdb_last_cow_size(), "\r\n",
      "rdb_last_load_keys_expired:", p.last_load_keys_expired, "\r\n",
      "rdb_last_load_keys_loaded:", p.last_load_keys_loaded, "\r\n");
  if (s.aof) {
    s.aof->AppendInfo(out);
  } else {
    out +=
        "aof_enabled:0\r\naof_rewrite_in_progress:0\r\naof_rewrite_scheduled:0\r\n"
        "aof_last_rewrite_time_sec:-1\r\naof_current_rewrite_time_sec:-1\r\n"
        "aof_last_bgrewrite_status:ok\r\naof_rewrites:0\r\naof_rewrites_consecutive_failures:0\r\n"
        "aof_last_write_status:ok\r\naof_last_cow_size:0\r\nmodule_fork_in_progress:0\r\n"
        "module_fork_last_cow_size:0\r\n";
  }
  if (p.loading) {
    // Redis's progress figures: the share of the file read and the time left at that pace.
    double perc = 0;
    uint64_t remaining = 1;
    if (p.loading_total_bytes != 0) {
      perc = static_cast<double>(p.loading_loaded_bytes) /
             static_cast<double>(p.loading_total_bytes) * 100;
      remaining = p.loading_total_bytes - std::min(p.loading_total_bytes, p.loading_loaded_bytes);
    }
    const int64_t elapsed = s.clock->NowMs() / 1000 - p.loading_start_s;
    const int64_t eta = elapsed == 0 ? 1
                                     : elapsed * static_cast<int64_t>(remaining) /
                                           static_cast<int64_t>(p.loading_loaded_bytes + 1);
    char perc_text[32];
    std::snprintf(perc_text, sizeof perc_text, "%.2f", perc);
    absl::StrAppend(&out, "loading_start_time:", p.loading_start_s, "\r\n",
                    "loading_total_bytes:", p.loading_total_bytes, "\r\n",
                    "loading_rdb_used_mem:", p.loading_rdb_used_mem, "\r\n",
                    "loading_loaded_bytes:", p.loading_loaded_bytes, "\r\n",
                    "loading_loaded_perc:", perc_text, "\r\n", "loading_eta_seconds:", eta, "\r\n");
  }
}

void StatsSection(ServerState& s, std::string& out) {
  const ServerStats& st = s.stats;
  absl::StrAppend(&out, "# Stats\r\n", "total_connections_received:", st.total_connections_received,
                  "\r\n", "total_commands_processed:", st.total_commands_processed, "\r\n",
                  "instantaneous_ops_per_sec:", s.instantaneous_ops_per_sec, "\r\n",
                  "total_net_input_bytes:", st.total_net_input_bytes, "\r\n",
                  "total_net_output_bytes:", st.total_net_output_bytes, "\r\n",
                  "total_net_repl_input_bytes:0\r\ntotal_net_repl_output_bytes:0\r\n",
                  fmt::format("instantaneous_input_kbps:{:.2f}\r\n"
                              "instantaneous_output_kbps:{:.2f}\r\n",
                              s.instantaneous_input_kbps, s.instantaneous_output_kbps),
                  "instantaneous_input_repl_kbps:0.00\r\ninstantaneous_output_repl_kbps:0.00\r\n",
                  "rejected_connections:", st.rejected_connections, "\r\n",
                  "sync_full:0\r\nsync_partial_ok:0\r\nsync_partial_err:0\r\n",
                  "expired_keys:", s.dbs.ExpiredKeys(), "\r\n");
  absl::StrAppend(
      &out, "expired_stale_perc:0.00\r\nexpired_time_cap_reached_count:0\r\n",
      "expire_cycle_cpu_milliseconds:0\r\n", "evicted_keys:", st.evicted_keys, "\r\n",
      "evicted_clients:0\r\n",
      "total_eviction_exceeded_time:0\r\ncurrent_eviction_exceeded_time:0\r\n",
      "keyspace_hits:", st.keyspace_hits, "\r\n", "keyspace_misses:", st.keyspace_misses, "\r\n",
      "pubsub_channels:", s.pubsub.channel_count(false), "\r\n",
      "pubsub_patterns:", s.pubsub.pattern_count(), "\r\n",
      "pubsubshard_channels:", s.pubsub.channel_count(true), "\r\n",
      "latest_fork_usec:", s.persistence.child_info.latest_fork_usec(), "\r\n",
      "total_forks:", s.persistence.child_info.total_forks(), "\r\n",
      "migrate_cached_sockets:", s.migrate_sockets.size(), "\r\n",
      "slave_expires_tracked_keys:0\r\nactive_defrag_hits:0\r\nactive_defrag_misses:0\r\n"
      "active_defrag_key_hits:0\r\nactive_defrag_key_misses:0\r\ntotal_active_defrag_time:0\r\n"
      "current_active_defrag_time:0\r\n",
      "tracking_total_keys:", s.tracking.total_keys(), "\r\n",
      "tracking_total_items:", s.tracking.total_items(), "\r\n",
      "tracking_total_prefixes:", s.tracking.total_prefixes(), "\r\n",
      "unexpected_error_replies:0\r\n", "total_error_replies:", st.total_error_replies, "\r\n",
      "dump_payload_sanitizations:0\r\n", "total_reads_processed:", st.total_reads_processed,
      "\r\n", "total_writes_processed:", st.total_writes_processed, "\r\n",
      "io_threaded_reads_processed:0\r\nio_threaded_writes_processed:0\r\n"
      "reply_buffer_shrinks:0\r\nreply_buffer_expands:0\r\n");
}

void ReplicationSection(ServerState& s, std::string& out) {
  absl::StrAppend(&out, "# Replication\r\n", "role:master\r\nconnected_slaves:0\r\n",
                  "master_failover_state:no-failover\r\n", "master_replid:", s.run_id, "\r\n",
                  "master_replid2:0000000000000000000000000000000000000000\r\n",
                  "master_repl_offset:0\r\nsecond_repl_offset:-1\r\n",
                  "repl_backlog_active:0\r\nrepl_backlog_size:1048576\r\n",
                  "repl_backlog_first_byte_offset:0\r\nrepl_backlog_histlen:0\r\n");
}

void CpuSection(std::string& out) {
  rusage self{}, children{}, thread{};
  getrusage(RUSAGE_SELF, &self);
  getrusage(RUSAGE_CHILDREN, &children);
  // INFO runs on the event loop's thread: Redis's main thread.
  getrusage(RUSAGE_THREAD, &thread);
  auto secs = [](const timeval& tv) { return tv.tv_sec + tv.tv_usec / 1e6; };
  absl::StrAppend(
      &out, "# CPU\r\n",
      fmt::format("used_cpu_sys:{:.6f}\r\nused_cpu_user:{:.6f}\r\n"
                  "used_cpu_sys_children:{:.6f}\r\nused_cpu_user_children:{:.6f}\r\n"
                  "used_cpu_sys_main_thread:{:.6f}\r\nused_cpu_user_main_thread:{:.6f}\r\n",
                  secs(self.ru_stime), secs(self.ru_utime), secs(children.ru_stime),
                  secs(children.ru_utime), secs(thread.ru_stime), secs(thread.ru_utime)));
}

// Every command and subcommand with its statistics, in the order INFO lists them.
template <typename Fn>
void ForEachCommandStats(ServerState& s, Fn&& fn) {
  auto visit = [&](const CommandSpec& spec) {
    fn(FullName(spec), s.command_stats[spec.stats_slot]);
  };
  for (const CommandSpec* spec : s.registry->All()) {
    visit(*spec);
    for (const CommandSpec& sub : spec->subcommands) visit(sub);
  }
}

void CommandStatsSection(ServerState& s, std::string& out) {
  out += "# Commandstats\r\n";
  ForEachCommandStats(s, [&](const std::string& name, const CommandStats& c) {
    if (c.calls == 0 && c.failed_calls == 0 && c.rejected_calls == 0) return;
    const uint64_t usec = c.nanoseconds / 1000;
    absl::StrAppend(
        &out, "cmdstat_", name, ":calls=", c.calls, ",usec=", usec,
        fmt::format(",usec_per_call={:.2f}", c.calls ? static_cast<double>(usec) / c.calls : 0.0),
        ",rejected_calls=", c.rejected_calls, ",failed_calls=", c.failed_calls, "\r\n");
  });
}

void ErrorStatsSection(ServerState& s, std::string& out) {
  out += "# Errorstats\r\n";
  for (const auto& [code, count] : s.error_stats.counts()) {
    absl::StrAppend(&out, "errorstat_", code, ":count=", count, "\r\n");
  }
}

// The percentiles of latency-tracking-info-percentiles, named as Redis names them ("p99.9").
void LatencyStatsSection(ServerState& s, std::string& out) {
  out += "# Latencystats\r\n";
  const std::vector<double>& percentiles = s.config.latency_tracking_info_percentiles;
  ForEachCommandStats(s, [&](const std::string& name, const CommandStats& c) {
    if (!c.latency) return;
    absl::StrAppend(&out, "latency_percentiles_usec_", name, ":");
    for (size_t i = 0; i < percentiles.size(); ++i) {
      if (i > 0) out += ',';
      absl::StrAppend(
          &out, "p", FormatPercentile(percentiles[i]),
          fmt::format("={:.3f}", c.latency->ValueAtPercentile(percentiles[i]) / 1000.0));
    }
    out += "\r\n";
  });
}

void KeyspaceSection(ServerState& s, std::string& out) {
  out += "# Keyspace\r\n";
  for (size_t i = 0; i < s.dbs.count(); ++i) {
    const Db& db = s.dbs.db(i);
    if (db.size() == 0) continue;
    absl::StrAppend(&out, "db", i, ":keys=", db.size(), ",expires=", db.expires_size(),
                    ",avg_ttl=", db.avg_ttl_ms(), "\r\n");
  }
}

}  // namespace

size_t UsedMemory() { return Allocator().allocated_bytes(); }

size_t ResidentMemory() {
  std::ifstream statm("/proc/self/statm");
  size_t pages_total = 0, pages_resident = 0;
  statm >> pages_total >> pages_resident;
  return pages_resident * static_cast<size_t>(sysconf(_SC_PAGE_SIZE));
}

std::string BuildInfo(ServerState& state, std::span<const std::string_view> sections,
                      int64_t now_ms) {
  // Redis 7.0's default sections ("module_list" is the modules section).
  static constexpr std::string_view kDefault[] = {
      "server", "clients",     "memory",     "persistence", "stats",   "replication",
      "cpu",    "module_list", "errorstats", "cluster",     "keyspace"};
  absl::flat_hash_set<std::string, KeyHash, KeyEq> wanted;
  bool all = false;
  if (sections.empty()) {
    wanted.insert(std::begin(kDefault), std::end(kDefault));
  }
  for (std::string_view s : sections) {
    std::string lower = ToLower(s);
    if (lower == "all" || lower == "everything") {
      all = true;
    } else if (lower == "default") {
      wanted.insert(std::begin(kDefault), std::end(kDefault));
    } else {
      wanted.insert(std::move(lower));
    }
  }
  auto want = [&](std::string_view name) { return all || wanted.contains(name); };
  std::string out;
  auto section = [&](bool wanted_section, auto&& fill) {
    if (!wanted_section) return;
    if (!out.empty()) out += "\r\n";
    fill();
  };
  section(want("server"), [&] { ServerSection(state, now_ms, out); });
  section(want("clients"), [&] { ClientsSection(state, out); });
  section(want("memory"), [&] { MemorySection(state, out); });
  section(want("persistence"), [&] { PersistenceSection(state, out); });
  section(want("stats"), [&] { StatsSection(state, out); });
  section(want("replication"), [&] { ReplicationSection(state, out); });
  section(want("cpu"), [&] { CpuSection(out); });
  // kvserver loads no modules: the section is there, empty, as in a Redis without modules.
  section(want("module_list") || want("modules"), [&] { out += "# Modules\r\n"; });
  section(want("commandstats"), [&] { CommandStatsSection(state, out); });
  section(want("errorstats"), [&] { ErrorStatsSection(state, out); });
  section(want("latencystats"), [&] { LatencyStatsSection(state, out); });
  section(want("cluster"), [&] { out += "# Cluster\r\ncluster_enabled:0\r\n"; });
  section(want("keyspace"), [&] { KeyspaceSection(state, out); });
  return out;
}

}  // namespace kv
