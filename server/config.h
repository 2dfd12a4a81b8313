#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kv {

// Redis's client types, in the order of client-output-buffer-limit's classes (CONFIG GET lists
// them so); master has no limit of its own.
enum class ClientClass { kNormal, kReplica, kPubSub, kMaster };
inline constexpr size_t kClientClasses = 3;  // the classes with an output limit
// Redis's getClientTypeByName: normal, slave or replica, pubsub, master (any case).
std::optional<ClientClass> ClientClassByName(std::string_view name);

// One class's client-output-buffer-limit: a client whose pending replies reach `hard` bytes, or
// stay at `soft` bytes or more for over `soft_seconds`, is disconnected. 0 disables a limit.
struct OutputBufferLimit {
  uint64_t hard = 0;
  uint64_t soft = 0;
  int64_t soft_seconds = 0;
  bool operator==(const OutputBufferLimit&) const = default;
};

// Redis's maxmemory-policy values, in the order Redis lists them.
enum class MaxmemoryPolicy : uint8_t {
  kVolatileLru,
  kVolatileLfu,
  kVolatileRandom,
  kVolatileTtl,
  kAllkeysLru,
  kAllkeysLfu,
  kAllkeysRandom,
  kNoEviction,
};
std::string_view MaxmemoryPolicyName(MaxmemoryPolicy policy);
inline bool IsLfuPolicy(MaxmemoryPolicy p) {
  return p == MaxmemoryPolicy::kVolatileLfu || p == MaxmemoryPolicy::kAllkeysLfu;
}

// Redis's values of the enum directives the process acts on (the same numbers as Redis's).
enum class SupervisedMode : int { kNone = 0, kAuto = 1, kSystemd = 2, kUpstart = 3 };
enum class OomScoreAdj : int { kNo = 0, kRelative = 1, kAbsolute = 2 };
// shutdown-on-sigint/-sigterm: bit flags; 0 is "default".
enum ShutdownFlags : int {
  kShutdownSave = 1,
  kShutdownNoSave = 2,
  kShutdownNow = 4,
  kShutdownForce = 8
};

// Every directive of Redis 7.0.15 (and kvserver's own two), with Redis's names and defaults;
// conf/kvserver.conf documents each one. The table that parses, renders and rewrites them is in
// config_table.cc; commands read these fields directly. Directives whose feature kvserver does
// not have yet are kept here with their values (CONFIG GET shows them) and accepted only at
// values that ask for nothing missing: see config_missing_features.cc.
struct Config {
  // ---- network
  int64_t port = 6379;
  // kvserver listens on loopback by default (Redis's compiled-in default is "* -::*").
  std::vector<std::string> bind = {"127.0.0.1", "-::1"};
  std::string bind_source_addr;
  std::string unixsocket;
  int64_t unixsocketperm = 0;
  int64_t tcp_backlog = 511;
  int64_t tcp_keepalive = 300;
  int64_t socket_mark_id = 0;
  int64_t timeout = 0;
  int64_t maxclients = 10000;
  bool protected_mode = true;
  // ---- process
  bool daemonize = false;
  std::string pidfile;
  SupervisedMode supervised = SupervisedMode::kNone;
  std::string loglevel = "notice";
  std::string logfile;
  bool syslog_enabled = false;
  std::string syslog_ident = "redis";
  int syslog_facility = 128;  // LOG_LOCAL0
  bool always_show_logo = false;
  bool set_proc_title = true;
  std::string proc_title_template = "{title} {listen-addr} {server-mode}";
  OomScoreAdj oom_score_adj = OomScoreAdj::kNo;
  std::array<int64_t, 3> oom_score_adj_values = {0, 200, 800};  // master, replica, bgchild
  bool crash_log_enabled = true;
  bool crash_memcheck_enabled = true;
  bool use_exit_on_panic = false;
  bool disable_thp = true;
  std::string server_cpulist, bio_cpulist, aof_rewrite_cpulist, bgsave_cpulist;
  std::string ignore_warnings;
  int64_t databases = 16;
  int64_t hz = 10;
  bool dynamic_hz = true;
  int64_t io_threads = 1;
  bool io_threads_do_reads = false;
  bool jemalloc_bg_thread = true;
  int shutdown_on_sigint = 0;   // ShutdownFlags
  int shutdown_on_sigterm = 0;  // ShutdownFlags
  int64_t shutdown_timeout = 10;
  // ---- limits
  int64_t proto_max_bulk_len = 512LL * 1024 * 1024;
  int64_t client_query_buffer_limit = 1024LL * 1024 * 1024;
  // Redis's defaults, except that normal clients get a hard limit of 1 GB where Redis has none:
  // twice the largest value (proto-max-bulk-len), so any single reply fits, while a client that
  // stops reading while one command's reply grows past it (KEYS, MGET on a huge keyspace) is cut
  // off instead of taking the server's memory. Pipelined replies pause reading long before
  // (see Connection), so a well-behaved client never comes near it.
  std::array<OutputBufferLimit, kClientClasses> client_output_buffer_limit = {{
      {1024ULL * 1024 * 1024, 0, 0},
      {256ULL * 1024 * 1024, 64ULL * 1024 * 1024, 60},
      {32ULL * 1024 * 1024, 8ULL * 1024 * 1024, 60},
  }};
  int64_t maxmemory_clients = 0;  // < 0: a percentage of maxmemory (client eviction)
  // ---- eviction: a limit in bytes on the allocator's use (0: none), what goes when it is
  // reached, how many keys each eviction step samples, and how long it may take (0..100).
  uint64_t maxmemory = 0;
  MaxmemoryPolicy maxmemory_policy = MaxmemoryPolicy::kNoEviction;
  int64_t maxmemory_samples = 5;
  int64_t maxmemory_eviction_tenacity = 10;
  // The LFU counter's growth (higher: slower) and its decay: minutes per halving step.
  int64_t lfu_log_factor = 10;
  int64_t lfu_decay_time = 1;
  int64_t active_expire_effort = 1;
  bool activerehashing = true;
  // ---- security: the default user's password (empty: none, every client is authenticated).
  std::string requirepass;
  std::string aclfile;
  int64_t acllog_max_len = 128;
  int acl_pubsub_default = 0;  // 0 resetchannels, 8 allchannels
  // PROTECTED_CONFIG and the DEBUG and MODULE commands: 0 no, 1 yes, 2 local (Redis's values).
  int enable_protected_configs = 0;
  // Who may run DEBUG: "no" (nobody), "yes" (everyone) or "local" (loopback and unix socket
  // clients). Like Redis 7, only a configuration file or the command line may change it.
  std::string enable_debug_command = "no";
  int enable_module_command = 0;
  int sanitize_dump_payload = 0;
  // ---- persistence (server/persistence/)
  // seconds, changes; Redis's defaults when no configuration line sets any (`save ""`: none)
  std::vector<std::pair<int64_t, int64_t>> save = {{3600, 1}, {300, 100}, {60, 10000}};
  bool appendonly = false;
  std::string dir;  // the working directory as given (CONFIG GET shows getcwd())
  std::string dbfilename = "dump.rdb";
  bool rdbcompression = true;
  bool rdbchecksum = true;
  bool rdb_del_sync_files = false;
  bool rdb_save_incremental_fsync = true;
  bool stop_writes_on_bgsave_error = true;
  std::string appendfilename = "appendonly.aof";
  std::string appenddirname = "appendonlydir";
  int appendfsync = 2;  // 0 no, 1 always, 2 everysec
  bool no_appendfsync_on_rewrite = false;
  int64_t auto_aof_rewrite_percentage = 100;
  int64_t auto_aof_rewrite_min_size = 64LL * 1024 * 1024;
  bool aof_load_truncated = true;
  bool aof_use_rdb_preamble = true;
  bool aof_rewrite_incremental_fsync = true;
  bool aof_timestamp_enabled = false;
  bool aof_disable_auto_gc = false;
  int64_t rdb_key_save_delay = 0;
  int64_t key_load_delay = 0;
  int64_t loading_process_events_interval_bytes = 2 * 1024 * 1024;
  // ---- replication
  std::string replicaof_host;  // empty: this server is a master
  int64_t replicaof_port = 0;
  std::string masterauth, masteruser;
  bool replica_serve_stale_data = true;
  bool replica_read_only = true;
  bool replica_ignore_maxmemory = true;
  bool replica_lazy_flush = false;
  bool replica_announced = true;
  bool replica_ignore_disk_write_errors = false;
  int64_t replica_priority = 100;
  std::string replica_announce_ip;
  int64_t replica_announce_port = 0;
  bool repl_diskless_sync = true;
  int64_t repl_diskless_sync_delay = 5;
  int64_t repl_diskless_sync_max_replicas = 0;
  int repl_diskless_load = 0;  // 0 disabled, 1 on-empty-db, 2 swapdb
  bool repl_disable_tcp_nodelay = false;
  int64_t repl_ping_replica_period = 10;
  int64_t repl_timeout = 60;
  int64_t repl_backlog_size = 1024 * 1024;
  int64_t repl_backlog_ttl = 3600;
  int64_t min_replicas_to_write = 0;
  int64_t min_replicas_max_lag = 10;
  int propagation_error_behavior = 0;  // 0 ignore, 1 panic, 2 panic-on-replicas
  // ---- cluster
  bool cluster_enabled = false;
  std::string cluster_config_file = "nodes.conf";
  int64_t cluster_node_timeout = 15000;
  int64_t cluster_port = 0;
  std::string cluster_announce_ip, cluster_announce_hostname;
  int64_t cluster_announce_port = 0;
  int64_t cluster_announce_bus_port = 0;
  int64_t cluster_announce_tls_port = 0;
  int64_t cluster_replica_validity_factor = 10;
  int64_t cluster_migration_barrier = 1;
  bool cluster_require_full_coverage = true;
  bool cluster_replica_no_failover = false;
  bool cluster_allow_reads_when_down = false;
  bool cluster_allow_pubsubshard_when_down = true;
  bool cluster_allow_replica_migration = true;
  int cluster_preferred_endpoint_type = 0;  // 0 ip, 1 hostname, 2 unknown-endpoint
  uint64_t cluster_link_sendbuf_limit = 0;
  // ---- TLS
  int64_t tls_port = 0;
  std::string tls_cert_file, tls_key_file, tls_key_file_pass, tls_client_cert_file,
      tls_client_key_file, tls_client_key_file_pass, tls_dh_params_file, tls_ca_cert_file,
      tls_ca_cert_dir, tls_protocols, tls_ciphers, tls_ciphersuites;
  bool tls_cluster = false;
  bool tls_replication = false;
  int tls_auth_clients = 1;  // 0 no, 1 yes, 2 optional
  bool tls_prefer_server_ciphers = false;
  bool tls_session_caching = true;
  int64_t tls_session_cache_size = 20 * 1024;
  int64_t tls_session_cache_timeout = 300;
  // ---- introspection
  // SLOWLOG: commands that run for at least this many microseconds are logged (-1: none), and the
  // log keeps the latest slowlog_max_len of them.
  int64_t slowlog_log_slower_than = 10000;
  int64_t slowlog_max_len = 128;
  // LATENCY: commands that take at least this many milliseconds are events (0: none).
  int64_t latency_monitor_threshold = 0;
  // INFO latencystats: whether commands' latency is tracked, and the percentiles shown.
  bool latency_tracking = true;
  std::vector<double> latency_tracking_info_percentiles = {50.0, 99.0, 99.9};
  int notify_keyspace_events = 0;  // Redis's NOTIFY_* flags
  int64_t tracking_table_max_keys = 1000000;
  int64_t busy_reply_threshold = 5000;
  int64_t watchdog_period = 0;
  // ---- the aggregate types' compact encodings (Redis's listpack and intset thresholds); the
  // `*-ziplist-*` names are aliases.
  int64_t list_max_listpack_size = -2;  // > 0: entries per node; -1..-5: 4, 8, 16, 32, 64 KB
  int64_t list_compress_depth = 0;
  int64_t hash_max_listpack_entries = 512;
  int64_t hash_max_listpack_value = 64;
  int64_t set_max_intset_entries = 512;
  int64_t zset_max_listpack_entries = 128;
  int64_t zset_max_listpack_value = 64;
  int64_t hll_sparse_max_bytes = 3000;
  int64_t stream_node_max_bytes = 4096;
  int64_t stream_node_max_entries = 100;
  // Lazy freeing: which deletions hand big values to the lazy freer (server/lazy_free.h), as
  // Redis's lazyfree-lazy-* (UNLINK and the ASYNC flushes always do).
  bool lazyfree_lazy_eviction = false;
  bool lazyfree_lazy_expire = false;
  bool lazyfree_lazy_server_del = false;
  bool lazyfree_lazy_user_del = false;
  bool lazyfree_lazy_user_flush = false;
  // ---- active defragmentation (kvserver has none: activedefrag stays no)
  bool activedefrag = false;
  int64_t active_defrag_ignore_bytes = 100LL * 1024 * 1024;
  int64_t active_defrag_threshold_lower = 10;
  int64_t active_defrag_threshold_upper = 100;
  int64_t active_defrag_cycle_min = 1;
  int64_t active_defrag_cycle_max = 25;
  int64_t active_defrag_max_scan_fields = 1000;
  // ---- kvserver's own
  // The file the binary writes its TCP port to once it accepts connections.
  std::string port_file;
  // Whether clients may arm faults with KVFAULT.
  bool enable_fault_injection = false;

  // Not directives: what the configuration text asked for besides them.
  std::string config_file;  // absolute path of the file the server was started with, if any
  // rename-command lines, in order: (old name, new name; empty: the command is removed).
  std::vector<std::pair<std::string, std::string>> renamed_commands;
};

// Redis's protected actions (enable-protected-configs, -debug-command, -module-command): 0 no,
// 1 yes, 2 local (loopback and unix socket clients only).
inline bool ProtectedActionAllowed(int setting, bool local_client) {
  return setting == 1 || (setting == 2 && local_client);
}

// The line CONFIG REWRITE writes for Redis's default user, and the only `user` line kvserver
// accepts (ACL users are a missing feature).
inline constexpr std::string_view kDefaultUserLine = "user default on nopass ~* &* +@all";

// Directive flags, as Redis's standardConfig flags.
enum DirectiveFlags : uint32_t {
  kImmutableConfig = 1 << 0,  // CONFIG SET refuses it ("can't set immutable config")
  kProtectedConfig = 1 << 1,  // CONFIG SET refuses it unless enable-protected-configs allows
  kHiddenConfig = 1 << 2,     // CONFIG GET lists it only when asked by its exact name
  kSensitiveConfig = 1 << 3,  // its value never reaches SLOWLOG or MONITOR
  kMultiArgConfig = 1 << 4,   // takes any number of arguments; one argument is split on blanks
  kAliasConfig = 1 << 5,      // this entry is an alias (old name) of another
};

struct DirectiveImpl;

// A configuration directive: its name, flags, and how to set, render and rewrite it. Aliases
// are entries of their own (flag kAliasConfig) sharing their primary's implementation.
struct Directive {
  std::string_view name;
  std::string_view alias;  // the other name: the alias of a primary, the primary of an alias
  uint32_t flags;
  const DirectiveImpl* impl;

  bool is(uint32_t flag) const { return (flags & flag) != 0; }
  // The primary name (the directive's own name unless this is an alias).
  std::string_view primary() const { return is(kAliasConfig) ? alias : name; }
  // CONFIG GET's value.
  std::string Get(const Config& config) const;
  // Applies arguments; returns Redis's error text when they are not acceptable (the config is
  // then unchanged). A value kvserver cannot honour yet is refused with the missing feature.
  std::optional<std::string> Set(Config& config, const std::vector<std::string>& args) const;
};

// Every directive and alias, primaries first in table order.
const std::vector<Directive>& Directives();
// Case-insensitive lookup of a name or alias; nullptr for an unknown directive.
const Directive* FindDirective(std::string_view name);

// Redis's memtoull, as memory directives parse their values: decimal digits (leading zeros
// allowed, no sign) and an optional unit b, k, kb, m, mb, g, gb in any case. Like Redis, a number
// too large for 64 bits saturates and the multiplication wraps; the caller's range check then
// rejects the result. nullopt when the text is not of that form.
std::optional<int64_t> ParseMemory(std::string_view s);

// Redis's adjustOpenFilesLimit as CONFIG SET maxclients runs it: makes sure the process may open
// `maxclients` descriptors plus 32 reserved ones, raising the soft NOFILE limit (and the hard one
// where privileges allow) by Redis's 16-descriptor steps, and returns the number of clients that
// fit (`maxclients` itself when it does). Unlike Redis it never lowers the hard limit.
int64_t MaxClientsAfterRaisingFileLimit(int64_t maxclients);

// Why configuration text was refused, as Redis's loadServerConfigFromString reports it.
struct ConfigError {
  // Redis's text for the problem ("argument couldn't be parsed into an integer", ...).
  std::string reason;
  // The line number (from 1, within the file the line is in) and the line, trimmed; 0 and empty
  // for errors about the whole configuration (the log file cannot be opened).
  int line_no = 0;
  std::string line;
  std::string directive;  // the directive's name as written, when the line named one
  // A file (the config file or an include) could not be read: Redis logs this one instead.
  bool cannot_open_file = false;

  // Redis's output on standard error before it exits with status 1:
  // "\n*** FATAL CONFIG FILE ERROR (Redis 7.0.15) ***\nReading the configuration file, at line
  // N\n>>> 'line'\nreason\n".
  std::string Fatal() const;
  // A one-line form for the embedding API: "directive: reason".
  std::string Short() const;
};

// Applies configuration text in redis.conf syntax, as Redis's loadServerConfigFromString: one
// directive per line, `include` files (glob patterns allowed), `rename-command`. Stops at the
// first error.
std::optional<ConfigError> ApplyConfigText(std::string_view text, Config* config);
// The checks Redis makes once the whole configuration is read (the log file can be opened,
// no replicaof in cluster mode). Opens (and creates) the log file.
std::optional<ConfigError> CheckLoadedConfig(const Config& config);
// `arg` quoted so that ApplyConfigText reads back exactly its bytes (Redis's sdscatrepr).
std::string QuoteConfigArg(std::string_view arg);
// Reads a configuration file (Redis's loadServerConfig): its text, or the error.
std::optional<ConfigError> ReadConfigFile(const std::string& path, std::string* text);
// Reads and applies a file; records its absolute path in config_file.
std::optional<ConfigError> LoadConfigFile(const std::string& path, Config* config);

// The result of reading kvserver's command line: `kvserver [config-file] [--directive value ...]`.
struct CommandLine {
  enum class Action { kRun, kVersion, kHelp, kError } action = Action::kRun;
  Config config;
  std::optional<ConfigError> error;
  bool config_from_stdin = false;  // "-" as the first or last argument, as redis-server
};
CommandLine ParseCommandLine(int argc, const char* const* argv);

}  // namespace kv
