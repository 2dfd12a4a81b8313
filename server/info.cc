#include "server/info.h"

#include <malloc.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "fmt/format.h"
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
                  "blocked_clients:0\r\ntracking_clients:0\r\nclients_in_timeout_table:0\r\n");
}

void MemorySection(ServerState& s, std::string& out) {
  const size_t used = UsedMemory();
  const size_t rss = ResidentMemory();
  if (used > s.used_memory_peak) s.used_memory_peak = used;
  const size_t system = TotalSystemMemory();
  absl::StrAppend(
      &out, "# Memory\r\n", "used_memory:", used, "\r\n", "used_memory_human:", Human(used), "\r\n",
      "used_memory_rss:", rss, "\r\n", "used_memory_rss_human:", Human(rss), "\r\n",
      "used_memory_peak:", s.used_memory_peak, "\r\n",
      "used_memory_peak_human:", Human(s.used_memory_peak), "\r\n",
      fmt::format("used_memory_peak_perc:{:.2f}%\r\n",
                  s.used_memory_peak ? 100.0 * used / s.used_memory_peak : 100.0),
      "total_system_memory:", system, "\r\n", "total_system_memory_human:", Human(system), "\r\n",
      "maxmemory:0\r\nmaxmemory_human:0B\r\nmaxmemory_policy:noeviction\r\n",
      fmt::format("mem_fragmentation_ratio:{:.2f}\r\n",
                  used ? static_cast<double>(rss) / used : 0.0),
      "mem_allocator:libc\r\nlazyfree_pending_objects:0\r\n");
}

void PersistenceSection(ServerState& s, std::string& out) {
  absl::StrAppend(&out, "# Persistence\r\n", "loading:0\r\nasync_loading:0\r\n",
                  "current_cow_peak:0\r\ncurrent_cow_size:0\r\n",
                  "rdb_changes_since_last_save:0\r\nrdb_bgsave_in_progress:0\r\n",
                  "rdb_last_save_time:", s.start_time_ms / 1000, "\r\n",
                  "rdb_last_bgsave_status:ok\r\nrdb_last_bgsave_time_sec:-1\r\n",
                  "aof_enabled:0\r\naof_rewrite_in_progress:0\r\naof_rewrite_scheduled:0\r\n",
                  "aof_last_bgrewrite_status:ok\r\naof_last_write_status:ok\r\n");
}

void StatsSection(ServerState& s, std::string& out) {
  const ServerStats& st = s.stats;
  absl::StrAppend(&out, "# Stats\r\n", "total_connections_received:", st.total_connections_received,
                  "\r\n", "total_commands_processed:", st.total_commands_processed, "\r\n",
                  "instantaneous_ops_per_sec:", s.instantaneous_ops_per_sec, "\r\n",
                  "total_net_input_bytes:", st.total_net_input_bytes, "\r\n",
                  "total_net_output_bytes:", st.total_net_output_bytes, "\r\n",
                  "rejected_connections:", st.rejected_connections, "\r\n",
                  "sync_full:0\r\nsync_partial_ok:0\r\nsync_partial_err:0\r\n",
                  "expired_keys:", s.dbs.ExpiredKeys(), "\r\n", "evicted_keys:0\r\n",
                  "keyspace_hits:", st.keyspace_hits, "\r\n",
                  "keyspace_misses:", st.keyspace_misses, "\r\n",
                  "pubsub_channels:0\r\npubsub_patterns:0\r\nlatest_fork_usec:0\r\n",
                  "total_error_replies:", st.total_error_replies, "\r\n");
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
  rusage self{};
  getrusage(RUSAGE_SELF, &self);
  auto secs = [](const timeval& tv) { return tv.tv_sec + tv.tv_usec / 1e6; };
  absl::StrAppend(&out, "# CPU\r\n",
                  fmt::format("used_cpu_sys:{:.6f}\r\nused_cpu_user:{:.6f}\r\n",
                              secs(self.ru_stime), secs(self.ru_utime)),
                  "used_cpu_sys_children:0.000000\r\nused_cpu_user_children:0.000000\r\n");
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

size_t UsedMemory() {
  struct mallinfo2 mi = mallinfo2();
  return mi.uordblks + mi.hblkhd;
}

size_t ResidentMemory() {
  std::ifstream statm("/proc/self/statm");
  size_t pages_total = 0, pages_resident = 0;
  statm >> pages_total >> pages_resident;
  return pages_resident * static_cast<size_t>(sysconf(_SC_PAGE_SIZE));
}

std::string BuildInfo(ServerState& state, std::span<const std::string_view> sections,
                      int64_t now_ms) {
  static constexpr std::string_view kDefault[] = {"server",  "clients",     "memory", "persistence",
                                                  "stats",   "replication", "cpu",    "modules",
                                                  "cluster", "keyspace"};
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
  auto section = [&](std::string_view name, auto&& fill) {
    if (!want(name)) return;
    if (!out.empty()) out += "\r\n";
    fill();
  };
  section("server", [&] { ServerSection(state, now_ms, out); });
  section("clients", [&] { ClientsSection(state, out); });
  section("memory", [&] { MemorySection(state, out); });
  section("persistence", [&] { PersistenceSection(state, out); });
  section("stats", [&] { StatsSection(state, out); });
  section("replication", [&] { ReplicationSection(state, out); });
  section("cpu", [&] { CpuSection(out); });
  // kvserver loads no modules: the section is there, empty, as in a Redis without modules.
  section("modules", [&] { out += "# Modules\r\n"; });
  section("cluster", [&] { out += "# Cluster\r\ncluster_enabled:0\r\n"; });
  section("keyspace", [&] { KeyspaceSection(state, out); });
  return out;
}

}  // namespace kv
