// The directive table: every directive of Redis 7.0.15's standardConfig table (config.c), in its
// order, with its type, range, default, flags and alias, plus kvserver's own two at the end.
// Each entry points at the Config field it sets.

#include <climits>
#include <deque>
#include <type_traits>

#include "server/config_directive.h"
#include "server/strings.h"

namespace kv {
namespace {

constexpr uint32_t kImmutable = kImmutableConfig;
constexpr uint32_t kProtected = kProtectedConfig;
constexpr uint32_t kHidden = kHiddenConfig;
constexpr uint32_t kSensitive = kSensitiveConfig;
constexpr uint32_t kMultiArg = kMultiArgConfig;

struct Entry {
  std::string_view name;
  std::string_view alias;
  uint32_t flags;
  DirectiveImpl impl;
};

Entry Bool(std::string_view name, std::string_view alias, uint32_t flags, bool Config::*field,
           bool def, const char* (*validate)(int64_t) = nullptr) {
  DirectiveImpl impl{DirectiveImpl::Kind::kBool};
  impl.bool_field = field;
  impl.bool_default = def;
  impl.validate_int = validate;
  return {name, alias, flags, std::move(impl)};
}

Entry String(std::string_view name, std::string_view alias, uint32_t flags,
             std::string Config::*field, const char* def, bool empty_is_null,
             const char* (*validate)(const std::string&) = nullptr) {
  DirectiveImpl impl{DirectiveImpl::Kind::kString};
  impl.string_field = field;
  impl.string_default = def;
  impl.empty_is_null = empty_is_null;
  impl.validate_string = validate;
  return {name, alias, flags, std::move(impl)};
}

// Redis's sds configs (the passwords): binary-safe, unlike its C-string ones.
Entry Sds(std::string_view name, uint32_t flags, std::string Config::*field) {
  Entry e = String(name, {}, flags, field, nullptr, true);
  e.impl.binary_safe = true;
  return e;
}

constexpr bool kEmptyIsNull = true;
constexpr bool kAllowEmpty = false;

template <auto Field>
int EnumGet(const Config& c) {
  return static_cast<int>(c.*Field);
}
template <auto Field>
void EnumSet(Config& c, int v) {
  using T = std::remove_cvref_t<decltype(std::declval<Config&>().*Field)>;
  c.*Field = static_cast<T>(v);
}

Entry Enum(std::string_view name, std::string_view alias, uint32_t flags,
           std::vector<EnumName> names, int def, int (*get)(const Config&),
           void (*set)(Config&, int), const char* (*validate)(int64_t) = nullptr) {
  DirectiveImpl impl{DirectiveImpl::Kind::kEnum};
  impl.enum_names = std::move(names);
  impl.enum_default = def;
  impl.enum_get = get;
  impl.enum_set = set;
  impl.enum_bitflags = (flags & kMultiArg) != 0;
  impl.validate_int = validate;
  return {name, alias, flags, std::move(impl)};
}

// Redis's numeric types: the unsigned ones are range-checked as unsigned.
enum class Num {
  kInt,
  kUInt,
  kLong,
  kULong,
  kLongLong,
  kULongLong,
  kSizeT,
  kSSizeT,
  kTimeT,
  kOffT
};
constexpr uint8_t kInteger = DirectiveImpl::kInteger;
constexpr uint8_t kMemory = DirectiveImpl::kMemory;
constexpr uint8_t kPercent = DirectiveImpl::kPercent;
constexpr uint8_t kOctal = DirectiveImpl::kOctal;

template <auto Field>
int64_t NumGet(const Config& c) {
  return static_cast<int64_t>(c.*Field);
}
template <auto Field>
void NumSet(Config& c, int64_t v) {
  using T = std::remove_cvref_t<decltype(std::declval<Config&>().*Field)>;
  c.*Field = static_cast<T>(v);
}

template <auto Field>
Entry Numeric(std::string_view name, std::string_view alias, uint32_t flags, Num type,
              int64_t lower, int64_t upper, int64_t def, uint8_t numeric_flags) {
  DirectiveImpl impl{DirectiveImpl::Kind::kNumeric};
  impl.numeric_unsigned = type == Num::kUInt || type == Num::kULongLong || type == Num::kSizeT;
  impl.lower = lower;
  impl.upper = upper;
  impl.numeric_default = def;
  impl.numeric_flags = numeric_flags;
  impl.numeric_get = &NumGet<Field>;
  impl.numeric_set = &NumSet<Field>;
  return {name, alias, flags, std::move(impl)};
}

Entry Special(std::string_view name, std::string_view alias, uint32_t flags,
              std::optional<std::string> (*set)(Config&, const ConfigArgs&, SetMode),
              std::string (*get)(const Config&),
              RewriteLines (*rewrite)(const Config&, std::string_view)) {
  DirectiveImpl impl{DirectiveImpl::Kind::kSpecial};
  impl.special_set = set;
  impl.special_get = get;
  impl.special_rewrite = rewrite;
  return {name, alias, flags, std::move(impl)};
}

// Enums whose Config field keeps the name (read as text elsewhere).
const std::vector<EnumName> kLogLevels = {
    {"debug", 0}, {"verbose", 1}, {"notice", 2}, {"warning", 3}};
int LogLevelGet(const Config& c) {
  for (const EnumName& e : kLogLevels) {
    if (e.name == c.loglevel) return e.value;
  }
  return 2;
}
void LogLevelSet(Config& c, int v) { c.loglevel = std::string(kLogLevels[v].name); }

const std::vector<EnumName> kProtectedAction = {{"no", 0}, {"yes", 1}, {"local", 2}};
int DebugCommandGet(const Config& c) {
  for (const EnumName& e : kProtectedAction) {
    if (e.name == c.enable_debug_command) return e.value;
  }
  return 0;
}
void DebugCommandSet(Config& c, int v) {
  c.enable_debug_command = std::string(kProtectedAction[v].name);
}

// hz: Redis accepts 0..INT_MAX and keeps the value used within 1..500.
void HzSet(Config& c, int64_t v) { c.hz = v < 1 ? 1 : (v > 500 ? 500 : v); }

const std::vector<EnumName> kShutdownOnSignal = {{"default", 0},
                                                 {"save", kShutdownSave},
                                                 {"nosave", kShutdownNoSave},
                                                 {"now", kShutdownNow},
                                                 {"force", kShutdownForce}};

std::vector<Entry> BuildEntries() {
  using C = Config;
  constexpr int64_t kIntMax = INT_MAX, kIntMin = INT_MIN, kLongMax = LONG_MAX,
                    kLLongMax = LLONG_MAX;
  std::vector<Entry> t;
  // ---- bool configs
  t.push_back(Bool("rdbchecksum", {}, kImmutable, &C::rdbchecksum, true));
  t.push_back(Bool("daemonize", {}, kImmutable, &C::daemonize, false));
  t.push_back(Bool("io-threads-do-reads", {}, kImmutable, &C::io_threads_do_reads, false));
  t.push_back(Bool("always-show-logo", {}, kImmutable, &C::always_show_logo, false));
  t.push_back(Bool("protected-mode", {}, 0, &C::protected_mode, true));
  t.push_back(Bool("rdbcompression", {}, 0, &C::rdbcompression, true));
  t.push_back(Bool("rdb-del-sync-files", {}, 0, &C::rdb_del_sync_files, false));
  t.push_back(Bool("activerehashing", {}, 0, &C::activerehashing, true));
  t.push_back(Bool("stop-writes-on-bgsave-error", {}, 0, &C::stop_writes_on_bgsave_error, true));
  t.push_back(Bool("set-proc-title", {}, kImmutable, &C::set_proc_title, true));
  t.push_back(Bool("dynamic-hz", {}, 0, &C::dynamic_hz, true));
  t.push_back(Bool("lazyfree-lazy-eviction", {}, 0, &C::lazyfree_lazy_eviction, false));
  t.push_back(Bool("lazyfree-lazy-expire", {}, 0, &C::lazyfree_lazy_expire, false));
  t.push_back(Bool("lazyfree-lazy-server-del", {}, 0, &C::lazyfree_lazy_server_del, false));
  t.push_back(Bool("lazyfree-lazy-user-del", {}, 0, &C::lazyfree_lazy_user_del, false));
  t.push_back(Bool("lazyfree-lazy-user-flush", {}, 0, &C::lazyfree_lazy_user_flush, false));
  t.push_back(Bool("repl-disable-tcp-nodelay", {}, 0, &C::repl_disable_tcp_nodelay, false));
  t.push_back(Bool("repl-diskless-sync", {}, 0, &C::repl_diskless_sync, true));
  t.push_back(
      Bool("aof-rewrite-incremental-fsync", {}, 0, &C::aof_rewrite_incremental_fsync, true));
  t.push_back(Bool("no-appendfsync-on-rewrite", {}, 0, &C::no_appendfsync_on_rewrite, false));
  t.push_back(
      Bool("cluster-require-full-coverage", {}, 0, &C::cluster_require_full_coverage, true));
  t.push_back(Bool("rdb-save-incremental-fsync", {}, 0, &C::rdb_save_incremental_fsync, true));
  t.push_back(Bool("aof-load-truncated", {}, 0, &C::aof_load_truncated, true));
  t.push_back(Bool("aof-use-rdb-preamble", {}, 0, &C::aof_use_rdb_preamble, true));
  t.push_back(Bool("aof-timestamp-enabled", {}, 0, &C::aof_timestamp_enabled, false));
  t.push_back(Bool("cluster-replica-no-failover", "cluster-slave-no-failover", 0,
                   &C::cluster_replica_no_failover, false));
  t.push_back(Bool("replica-lazy-flush", "slave-lazy-flush", 0, &C::replica_lazy_flush, false));
  t.push_back(Bool("replica-serve-stale-data", "slave-serve-stale-data", 0,
                   &C::replica_serve_stale_data, true));
  t.push_back(Bool("replica-read-only", "slave-read-only", 0, &C::replica_read_only, true));
  t.push_back(Bool("replica-ignore-maxmemory", "slave-ignore-maxmemory", 0,
                   &C::replica_ignore_maxmemory, true));
  t.push_back(Bool("jemalloc-bg-thread", {}, 0, &C::jemalloc_bg_thread, true));
  t.push_back(Bool("activedefrag", {}, 0, &C::activedefrag, false));
  t.push_back(Bool("syslog-enabled", {}, kImmutable, &C::syslog_enabled, false));
  t.push_back(Bool("cluster-enabled", {}, kImmutable, &C::cluster_enabled, false));
  t.push_back(Bool("appendonly", {}, 0, &C::appendonly, false));
  t.push_back(
      Bool("cluster-allow-reads-when-down", {}, 0, &C::cluster_allow_reads_when_down, false));
  t.push_back(Bool("cluster-allow-pubsubshard-when-down", {}, 0,
                   &C::cluster_allow_pubsubshard_when_down, true));
  t.push_back(Bool("crash-log-enabled", {}, 0, &C::crash_log_enabled, true));
  t.push_back(Bool("crash-memcheck-enabled", {}, 0, &C::crash_memcheck_enabled, true));
  t.push_back(Bool("use-exit-on-panic", {}, kHidden, &C::use_exit_on_panic, false));
  t.push_back(Bool("disable-thp", {}, kImmutable, &C::disable_thp, true));
  t.push_back(
      Bool("cluster-allow-replica-migration", {}, 0, &C::cluster_allow_replica_migration, true));
  t.push_back(Bool("replica-announced", {}, 0, &C::replica_announced, true));
  t.push_back(Bool("latency-tracking", {}, 0, &C::latency_tracking, true));
  t.push_back(Bool("aof-disable-auto-gc", {}, 0, &C::aof_disable_auto_gc, false));
  t.push_back(
      Bool("replica-ignore-disk-write-errors", {}, 0, &C::replica_ignore_disk_write_errors, false));

  // ---- string configs
  t.push_back(String("aclfile", {}, kImmutable, &C::aclfile, "", kAllowEmpty));
  t.push_back(String("unixsocket", {}, kImmutable, &C::unixsocket, nullptr, kEmptyIsNull));
  t.push_back(String("pidfile", {}, kImmutable, &C::pidfile, nullptr, kEmptyIsNull));
  t.push_back(String("replica-announce-ip", "slave-announce-ip", 0, &C::replica_announce_ip,
                     nullptr, kEmptyIsNull));
  t.push_back(String("masteruser", {}, kSensitive, &C::masteruser, nullptr, kEmptyIsNull));
  t.push_back(String("cluster-announce-ip", {}, 0, &C::cluster_announce_ip, nullptr, kEmptyIsNull));
  t.push_back(String("cluster-config-file", {}, kImmutable, &C::cluster_config_file, "nodes.conf",
                     kAllowEmpty));
  t.push_back(String("cluster-announce-hostname", {}, 0, &C::cluster_announce_hostname, nullptr,
                     kEmptyIsNull, ValidateAnnouncedHostname));
  t.push_back(String("syslog-ident", {}, kImmutable, &C::syslog_ident, "redis", kAllowEmpty));
  t.push_back(String("dbfilename", {}, kProtected, &C::dbfilename, "dump.rdb", kAllowEmpty,
                     ValidateDbFilename));
  t.push_back(String("appendfilename", {}, kImmutable, &C::appendfilename, "appendonly.aof",
                     kAllowEmpty, ValidateAppendFilename));
  t.push_back(String("appenddirname", {}, kImmutable, &C::appenddirname, "appendonlydir",
                     kAllowEmpty, ValidateAppendDirname));
  t.push_back(String("server_cpulist", {}, kImmutable, &C::server_cpulist, nullptr, kEmptyIsNull));
  t.push_back(String("bio_cpulist", {}, kImmutable, &C::bio_cpulist, nullptr, kEmptyIsNull));
  t.push_back(String("aof_rewrite_cpulist", {}, kImmutable, &C::aof_rewrite_cpulist, nullptr,
                     kEmptyIsNull));
  t.push_back(String("bgsave_cpulist", {}, kImmutable, &C::bgsave_cpulist, nullptr, kEmptyIsNull));
  t.push_back(String("ignore-warnings", {}, 0, &C::ignore_warnings, "", kAllowEmpty));
  t.push_back(String("proc-title-template", {}, 0, &C::proc_title_template,
                     "{title} {listen-addr} {server-mode}", kAllowEmpty,
                     ValidateProcTitleTemplate));
  t.push_back(String("bind-source-addr", {}, 0, &C::bind_source_addr, nullptr, kEmptyIsNull));
  t.push_back(String("logfile", {}, kImmutable, &C::logfile, "", kAllowEmpty));

  // ---- sds configs
  t.push_back(Sds("masterauth", kSensitive, &C::masterauth));
  t.push_back(Sds("requirepass", kSensitive, &C::requirepass));

  // ---- enum configs
  t.push_back(Enum("supervised", {}, kImmutable,
                   {{"upstart", 3}, {"systemd", 2}, {"auto", 1}, {"no", 0}}, 0,
                   EnumGet<&C::supervised>, EnumSet<&C::supervised>));
  t.push_back(Enum("syslog-facility", {}, kImmutable,
                   {{"user", 8},
                    {"local0", 128},
                    {"local1", 136},
                    {"local2", 144},
                    {"local3", 152},
                    {"local4", 160},
                    {"local5", 168},
                    {"local6", 176},
                    {"local7", 184}},
                   128, EnumGet<&C::syslog_facility>, EnumSet<&C::syslog_facility>));
  t.push_back(Enum("repl-diskless-load", {}, 0,
                   {{"disabled", 0}, {"on-empty-db", 1}, {"swapdb", 2}}, 0,
                   EnumGet<&C::repl_diskless_load>, EnumSet<&C::repl_diskless_load>));
  t.push_back(Enum("loglevel", {}, 0, kLogLevels, 2, LogLevelGet, LogLevelSet));
  t.push_back(Enum("maxmemory-policy", {}, 0,
                   {{"volatile-lru", 0},
                    {"volatile-lfu", 1},
                    {"volatile-random", 2},
                    {"volatile-ttl", 3},
                    {"allkeys-lru", 4},
                    {"allkeys-lfu", 5},
                    {"allkeys-random", 6},
                    {"noeviction", 7}},
                   7, EnumGet<&C::maxmemory_policy>, EnumSet<&C::maxmemory_policy>));
  t.push_back(Enum("appendfsync", {}, 0, {{"everysec", 2}, {"always", 1}, {"no", 0}}, 2,
                   EnumGet<&C::appendfsync>, EnumSet<&C::appendfsync>));
  t.push_back(Enum("oom-score-adj", {}, 0,
                   {{"no", 0}, {"yes", 1}, {"relative", 1}, {"absolute", 2}}, 0,
                   EnumGet<&C::oom_score_adj>, EnumSet<&C::oom_score_adj>));
  t.push_back(Enum("acl-pubsub-default", {}, 0, {{"allchannels", 8}, {"resetchannels", 0}}, 0,
                   EnumGet<&C::acl_pubsub_default>, EnumSet<&C::acl_pubsub_default>));
  t.push_back(Enum("sanitize-dump-payload", {}, 0, {{"no", 0}, {"yes", 1}, {"clients", 2}}, 0,
                   EnumGet<&C::sanitize_dump_payload>, EnumSet<&C::sanitize_dump_payload>));
  t.push_back(Enum("enable-protected-configs", {}, kImmutable, kProtectedAction, 0,
                   EnumGet<&C::enable_protected_configs>, EnumSet<&C::enable_protected_configs>));
  t.push_back(Enum("enable-debug-command", {}, kImmutable, kProtectedAction, 0, DebugCommandGet,
                   DebugCommandSet));
  t.push_back(Enum("enable-module-command", {}, kImmutable, kProtectedAction, 0,
                   EnumGet<&C::enable_module_command>, EnumSet<&C::enable_module_command>));
  t.push_back(Enum("cluster-preferred-endpoint-type", {}, 0,
                   {{"ip", 0}, {"hostname", 1}, {"unknown-endpoint", 2}}, 0,
                   EnumGet<&C::cluster_preferred_endpoint_type>,
                   EnumSet<&C::cluster_preferred_endpoint_type>));
  t.push_back(Enum(
      "propagation-error-behavior", {}, 0, {{"ignore", 0}, {"panic", 1}, {"panic-on-replicas", 2}},
      0, EnumGet<&C::propagation_error_behavior>, EnumSet<&C::propagation_error_behavior>));
  t.push_back(Enum("shutdown-on-sigint", {}, kMultiArg, kShutdownOnSignal, 0,
                   EnumGet<&C::shutdown_on_sigint>, EnumSet<&C::shutdown_on_sigint>,
                   ValidateShutdownOnSignal));
  t.push_back(Enum("shutdown-on-sigterm", {}, kMultiArg, kShutdownOnSignal, 0,
                   EnumGet<&C::shutdown_on_sigterm>, EnumSet<&C::shutdown_on_sigterm>,
                   ValidateShutdownOnSignal));

  // ---- integer configs
  t.push_back(
      Numeric<&C::databases>("databases", {}, kImmutable, Num::kInt, 1, kIntMax, 16, kInteger));
  t.push_back(Numeric<&C::port>("port", {}, 0, Num::kInt, 0, 65535, 6379, kInteger));
  t.push_back(
      Numeric<&C::io_threads>("io-threads", {}, kImmutable, Num::kInt, 1, 128, 1, kInteger));
  t.push_back(Numeric<&C::auto_aof_rewrite_percentage>("auto-aof-rewrite-percentage", {}, 0,
                                                       Num::kInt, 0, kIntMax, 100, kInteger));
  t.push_back(Numeric<&C::cluster_replica_validity_factor>("cluster-replica-validity-factor",
                                                           "cluster-slave-validity-factor", 0,
                                                           Num::kInt, 0, kIntMax, 10, kInteger));
  t.push_back(Numeric<&C::list_max_listpack_size>("list-max-listpack-size", "list-max-ziplist-size",
                                                  0, Num::kInt, kIntMin, kIntMax, -2, kInteger));
  t.push_back(
      Numeric<&C::tcp_keepalive>("tcp-keepalive", {}, 0, Num::kInt, 0, kIntMax, 300, kInteger));
  t.push_back(Numeric<&C::cluster_migration_barrier>("cluster-migration-barrier", {}, 0, Num::kInt,
                                                     0, kIntMax, 1, kInteger));
  t.push_back(Numeric<&C::active_defrag_cycle_min>("active-defrag-cycle-min", {}, 0, Num::kInt, 1,
                                                   99, 1, kInteger));
  t.push_back(Numeric<&C::active_defrag_cycle_max>("active-defrag-cycle-max", {}, 0, Num::kInt, 1,
                                                   99, 25, kInteger));
  t.push_back(Numeric<&C::active_defrag_threshold_lower>("active-defrag-threshold-lower", {}, 0,
                                                         Num::kInt, 0, 1000, 10, kInteger));
  t.push_back(Numeric<&C::active_defrag_threshold_upper>("active-defrag-threshold-upper", {}, 0,
                                                         Num::kInt, 0, 1000, 100, kInteger));
  t.push_back(
      Numeric<&C::lfu_log_factor>("lfu-log-factor", {}, 0, Num::kInt, 0, kIntMax, 10, kInteger));
  t.push_back(
      Numeric<&C::lfu_decay_time>("lfu-decay-time", {}, 0, Num::kInt, 0, kIntMax, 1, kInteger));
  t.push_back(Numeric<&C::replica_priority>("replica-priority", "slave-priority", 0, Num::kInt, 0,
                                            kIntMax, 100, kInteger));
  t.push_back(Numeric<&C::repl_diskless_sync_delay>("repl-diskless-sync-delay", {}, 0, Num::kInt, 0,
                                                    kIntMax, 5, kInteger));
  t.push_back(Numeric<&C::maxmemory_samples>("maxmemory-samples", {}, 0, Num::kInt, 1, kIntMax, 5,
                                             kInteger));
  t.push_back(Numeric<&C::maxmemory_eviction_tenacity>("maxmemory-eviction-tenacity", {}, 0,
                                                       Num::kInt, 0, 100, 10, kInteger));
  t.push_back(Numeric<&C::timeout>("timeout", {}, 0, Num::kInt, 0, kIntMax, 0, kInteger));
  t.push_back(Numeric<&C::replica_announce_port>("replica-announce-port", "slave-announce-port", 0,
                                                 Num::kInt, 0, 65535, 0, kInteger));
  t.push_back(Numeric<&C::tcp_backlog>("tcp-backlog", {}, kImmutable, Num::kInt, 0, kIntMax, 511,
                                       kInteger));
  t.push_back(
      Numeric<&C::cluster_port>("cluster-port", {}, kImmutable, Num::kInt, 0, 65535, 0, kInteger));
  t.push_back(Numeric<&C::cluster_announce_bus_port>("cluster-announce-bus-port", {}, 0, Num::kInt,
                                                     0, 65535, 0, kInteger));
  t.push_back(Numeric<&C::cluster_announce_port>("cluster-announce-port", {}, 0, Num::kInt, 0,
                                                 65535, 0, kInteger));
  t.push_back(Numeric<&C::cluster_announce_tls_port>("cluster-announce-tls-port", {}, 0, Num::kInt,
                                                     0, 65535, 0, kInteger));
  t.push_back(
      Numeric<&C::repl_timeout>("repl-timeout", {}, 0, Num::kInt, 1, kIntMax, 60, kInteger));
  t.push_back(Numeric<&C::repl_ping_replica_period>("repl-ping-replica-period",
                                                    "repl-ping-slave-period", 0, Num::kInt, 1,
                                                    kIntMax, 10, kInteger));
  t.push_back(Numeric<&C::list_compress_depth>("list-compress-depth", {}, 0, Num::kInt, 0, kIntMax,
                                               0, kInteger));
  t.push_back(Numeric<&C::rdb_key_save_delay>("rdb-key-save-delay", {}, kHidden, Num::kInt, kIntMin,
                                              kIntMax, 0, kInteger));
  t.push_back(Numeric<&C::key_load_delay>("key-load-delay", {}, kHidden, Num::kInt, kIntMin,
                                          kIntMax, 0, kInteger));
  t.push_back(Numeric<&C::active_expire_effort>("active-expire-effort", {}, 0, Num::kInt, 1, 10, 1,
                                                kInteger));
  {
    Entry hz = Numeric<&C::hz>("hz", {}, 0, Num::kInt, 0, kIntMax, 10, kInteger);
    hz.impl.numeric_set = HzSet;
    t.push_back(std::move(hz));
  }
  t.push_back(Numeric<&C::min_replicas_to_write>("min-replicas-to-write", "min-slaves-to-write", 0,
                                                 Num::kInt, 0, kIntMax, 0, kInteger));
  t.push_back(Numeric<&C::min_replicas_max_lag>("min-replicas-max-lag", "min-slaves-max-lag", 0,
                                                Num::kInt, 0, kIntMax, 10, kInteger));
  t.push_back(Numeric<&C::watchdog_period>("watchdog-period", {}, kHidden, Num::kInt, 0, kIntMax, 0,
                                           kInteger));
  t.push_back(Numeric<&C::shutdown_timeout>("shutdown-timeout", {}, 0, Num::kInt, 0, kIntMax, 10,
                                            kInteger));
  t.push_back(Numeric<&C::repl_diskless_sync_max_replicas>("repl-diskless-sync-max-replicas", {}, 0,
                                                           Num::kInt, 0, kIntMax, 0, kInteger));

  // ---- unsigned int configs
  t.push_back(
      Numeric<&C::maxclients>("maxclients", {}, 0, Num::kUInt, 1, UINT_MAX, 10000, kInteger));
  t.push_back(Numeric<&C::unixsocketperm>("unixsocketperm", {}, kImmutable, Num::kUInt, 0, 0777, 0,
                                          kOctal));
  t.push_back(Numeric<&C::socket_mark_id>("socket-mark-id", {}, kImmutable, Num::kUInt, 0, UINT_MAX,
                                          0, kInteger));

  // ---- unsigned long configs
  t.push_back(Numeric<&C::active_defrag_max_scan_fields>("active-defrag-max-scan-fields", {}, 0,
                                                         Num::kULong, 1, kLongMax, 1000, kInteger));
  t.push_back(Numeric<&C::slowlog_max_len>("slowlog-max-len", {}, 0, Num::kULong, 0, kLongMax, 128,
                                           kInteger));
  t.push_back(Numeric<&C::acllog_max_len>("acllog-max-len", {}, 0, Num::kULong, 0, kLongMax, 128,
                                          kInteger));

  // ---- long long configs
  t.push_back(Numeric<&C::busy_reply_threshold>("busy-reply-threshold", "lua-time-limit", 0,
                                                Num::kLongLong, 0, kLongMax, 5000, kInteger));
  t.push_back(Numeric<&C::cluster_node_timeout>("cluster-node-timeout", {}, 0, Num::kLongLong, 0,
                                                kLLongMax, 15000, kInteger));
  t.push_back(Numeric<&C::slowlog_log_slower_than>("slowlog-log-slower-than", {}, 0, Num::kLongLong,
                                                   -1, kLLongMax, 10000, kInteger));
  t.push_back(Numeric<&C::latency_monitor_threshold>("latency-monitor-threshold", {}, 0,
                                                     Num::kLongLong, 0, kLLongMax, 0, kInteger));
  t.push_back(Numeric<&C::proto_max_bulk_len>("proto-max-bulk-len", {}, 0, Num::kLongLong,
                                              1024 * 1024, kLongMax, 512LL * 1024 * 1024, kMemory));
  t.push_back(Numeric<&C::stream_node_max_entries>("stream-node-max-entries", {}, 0, Num::kLongLong,
                                                   0, kLLongMax, 100, kInteger));
  {
    Entry backlog = Numeric<&C::repl_backlog_size>("repl-backlog-size", {}, 0, Num::kLongLong, 1,
                                                   kLLongMax, 1024 * 1024, kMemory);
    // Redis's resizeReplicationBacklog: at least CONFIG_REPL_BACKLOG_MIN_SIZE.
    backlog.impl.after_config_set = [](Config& c) {
      if (c.repl_backlog_size < 16 * 1024) c.repl_backlog_size = 16 * 1024;
    };
    t.push_back(std::move(backlog));
  }

  // ---- unsigned long long configs
  t.push_back(Numeric<&C::maxmemory>("maxmemory", {}, 0, Num::kULongLong, 0, -1, 0, kMemory));
  t.push_back(Numeric<&C::cluster_link_sendbuf_limit>("cluster-link-sendbuf-limit", {}, 0,
                                                      Num::kULongLong, 0, -1, 0, kMemory));

  // ---- size_t configs
  t.push_back(Numeric<&C::hash_max_listpack_entries>("hash-max-listpack-entries",
                                                     "hash-max-ziplist-entries", 0, Num::kSizeT, 0,
                                                     kLongMax, 512, kInteger));
  t.push_back(Numeric<&C::set_max_intset_entries>("set-max-intset-entries", {}, 0, Num::kSizeT, 0,
                                                  kLongMax, 512, kInteger));
  t.push_back(Numeric<&C::zset_max_listpack_entries>("zset-max-listpack-entries",
                                                     "zset-max-ziplist-entries", 0, Num::kSizeT, 0,
                                                     kLongMax, 128, kInteger));
  t.push_back(Numeric<&C::active_defrag_ignore_bytes>(
      "active-defrag-ignore-bytes", {}, 0, Num::kSizeT, 1, kLLongMax, 100 << 20, kMemory));
  t.push_back(Numeric<&C::hash_max_listpack_value>("hash-max-listpack-value",
                                                   "hash-max-ziplist-value", 0, Num::kSizeT, 0,
                                                   kLongMax, 64, kMemory));
  t.push_back(Numeric<&C::stream_node_max_bytes>("stream-node-max-bytes", {}, 0, Num::kSizeT, 0,
                                                 kLongMax, 4096, kMemory));
  t.push_back(Numeric<&C::zset_max_listpack_value>("zset-max-listpack-value",
                                                   "zset-max-ziplist-value", 0, Num::kSizeT, 0,
                                                   kLongMax, 64, kMemory));
  t.push_back(Numeric<&C::hll_sparse_max_bytes>("hll-sparse-max-bytes", {}, 0, Num::kSizeT, 0,
                                                kLongMax, 3000, kMemory));
  t.push_back(Numeric<&C::tracking_table_max_keys>("tracking-table-max-keys", {}, 0, Num::kSizeT, 0,
                                                   kLongMax, 1000000, kInteger));
  t.push_back(Numeric<&C::client_query_buffer_limit>("client-query-buffer-limit", {}, 0,
                                                     Num::kSizeT, 1024 * 1024, kLongMax,
                                                     1024LL * 1024 * 1024, kMemory));
  t.push_back(Numeric<&C::maxmemory_clients>("maxmemory-clients", {}, 0, Num::kSSizeT, -100,
                                             kLongMax, 0, kMemory | kPercent));

  // ---- other numeric configs
  t.push_back(Numeric<&C::repl_backlog_ttl>("repl-backlog-ttl", {}, 0, Num::kTimeT, 0, kLongMax,
                                            3600, kInteger));
  t.push_back(Numeric<&C::auto_aof_rewrite_min_size>("auto-aof-rewrite-min-size", {}, 0, Num::kOffT,
                                                     0, kLLongMax, 64LL * 1024 * 1024, kMemory));
  t.push_back(Numeric<&C::loading_process_events_interval_bytes>(
      "loading-process-events-interval-bytes", {}, kHidden, Num::kOffT, 1024, kIntMax,
      1024 * 1024 * 2, kInteger));

  // ---- TLS configs (Debian's redis-server is built with TLS, so it knows them all)
  t.push_back(Numeric<&C::tls_port>("tls-port", {}, 0, Num::kInt, 0, 65535, 0, kInteger));
  t.push_back(Numeric<&C::tls_session_cache_size>("tls-session-cache-size", {}, 0, Num::kInt, 0,
                                                  kIntMax, 20 * 1024, kInteger));
  t.push_back(Numeric<&C::tls_session_cache_timeout>("tls-session-cache-timeout", {}, 0, Num::kInt,
                                                     0, kIntMax, 300, kInteger));
  t.push_back(Bool("tls-cluster", {}, 0, &C::tls_cluster, false));
  t.push_back(Bool("tls-replication", {}, 0, &C::tls_replication, false));
  t.push_back(Enum("tls-auth-clients", {}, 0, {{"no", 0}, {"yes", 1}, {"optional", 2}}, 1,
                   EnumGet<&C::tls_auth_clients>, EnumSet<&C::tls_auth_clients>));
  t.push_back(Bool("tls-prefer-server-ciphers", {}, 0, &C::tls_prefer_server_ciphers, false));
  t.push_back(Bool("tls-session-caching", {}, 0, &C::tls_session_caching, true));
  for (auto [name, field] : std::initializer_list<std::pair<std::string_view, std::string C::*>>{
           {"tls-cert-file", &C::tls_cert_file},
           {"tls-key-file", &C::tls_key_file},
           {"tls-key-file-pass", &C::tls_key_file_pass},
           {"tls-client-cert-file", &C::tls_client_cert_file},
           {"tls-client-key-file", &C::tls_client_key_file},
           {"tls-client-key-file-pass", &C::tls_client_key_file_pass},
           {"tls-dh-params-file", &C::tls_dh_params_file},
           {"tls-ca-cert-file", &C::tls_ca_cert_file},
           {"tls-ca-cert-dir", &C::tls_ca_cert_dir},
           {"tls-protocols", &C::tls_protocols},
           {"tls-ciphers", &C::tls_ciphers},
           {"tls-ciphersuites", &C::tls_ciphersuites}}) {
    t.push_back(String(name, {}, 0, field, nullptr, kEmptyIsNull));
  }

  // ---- special configs
  t.push_back(
      Special("dir", {}, kProtected, special::SetDir, special::GetDir, special::RewriteDir));
  t.push_back(
      Special("save", {}, kMultiArg, special::SetSave, special::GetSave, special::RewriteSave));
  t.push_back(Special("client-output-buffer-limit", {}, kMultiArg, special::SetOutputBufferLimit,
                      special::GetOutputBufferLimit, special::RewriteOutputBufferLimit));
  t.push_back(Special("oom-score-adj-values", {}, kMultiArg, special::SetOomScoreAdjValues,
                      special::GetOomScoreAdjValues, special::RewriteOomScoreAdjValues));
  t.push_back(Special("notify-keyspace-events", {}, 0, special::SetNotifyKeyspaceEvents,
                      special::GetNotifyKeyspaceEvents, special::RewriteNotifyKeyspaceEvents));
  t.push_back(
      Special("bind", {}, kMultiArg, special::SetBind, special::GetBind, special::RewriteBind));
  t.push_back(Special("replicaof", "slaveof", kImmutable | kMultiArg, special::SetReplicaOf,
                      special::GetReplicaOf, special::RewriteReplicaOf));
  t.push_back(Special("latency-tracking-info-percentiles", {}, kMultiArg,
                      special::SetLatencyPercentiles, special::GetLatencyPercentiles,
                      special::RewriteLatencyPercentiles));

  // ---- kvserver's own, hidden: CONFIG GET * lists exactly Redis's names, so tools that walk it
  // (Redis's test suite sets each one back to its value) meet nothing unknown.
  t.push_back(String("port-file", {}, kImmutable | kHidden, &C::port_file, "", kAllowEmpty));
  t.push_back(
      Bool("enable-fault-injection", {}, kProtected | kHidden, &C::enable_fault_injection, false));
  return t;
}

}  // namespace

const std::vector<Directive>& Directives() {
  static const std::vector<Entry> entries = BuildEntries();
  static const std::vector<Directive> directives = [] {
    std::vector<Directive> all;
    for (const Entry& e : entries) all.push_back({e.name, e.alias, e.flags, &e.impl});
    for (const Entry& e : entries) {
      if (!e.alias.empty()) all.push_back({e.alias, e.name, e.flags | kAliasConfig, &e.impl});
    }
    return all;
  }();
  return directives;
}

const Directive* FindDirective(std::string_view name) {
  for (const Directive& d : Directives()) {
    if (EqualsIgnoreCase(d.name, name)) return &d;
  }
  return nullptr;
}

}  // namespace kv
