#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
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

// Every directive kvserver understands, with Redis's names and defaults. conf/kvserver.conf
// documents each one.
struct Config {
  int64_t port = 6379;
  std::vector<std::string> bind = {"127.0.0.1", "-::1"};
  std::string unixsocket;
  int64_t unixsocketperm = 0;
  int64_t tcp_backlog = 511;
  int64_t tcp_keepalive = 300;
  std::string loglevel = "notice";
  std::string logfile;
  int64_t databases = 16;
  int64_t maxclients = 10000;
  int64_t timeout = 0;
  int64_t hz = 10;
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
  // Eviction: a limit in bytes on the allocator's use (0: none), what goes when it is reached,
  // how many keys each eviction step samples, and how long it may take (0..100, Redis's scale).
  uint64_t maxmemory = 0;
  MaxmemoryPolicy maxmemory_policy = MaxmemoryPolicy::kNoEviction;
  int64_t maxmemory_samples = 5;
  int64_t maxmemory_eviction_tenacity = 10;
  // The LFU counter's growth (higher: slower) and its decay: minutes per halving step.
  int64_t lfu_log_factor = 10;
  int64_t lfu_decay_time = 1;
  // The default user's password; empty means none (every client is authenticated).
  std::string requirepass;
  // With no password, only loopback and unix socket clients are served.
  bool protected_mode = true;
  // Accepted so that tools which ask for them (redis-benchmark reads both) get Redis's answers;
  // kvserver keeps no data on disk, so only "no persistence" values are allowed.
  std::string save;
  bool appendonly = false;
  std::string dir;
  bool daemonize = false;
  std::string pidfile;
  // Who may run DEBUG: "no" (nobody), "yes" (everyone) or "local" (loopback and unix socket
  // clients). Like Redis 7, only a configuration file or the command line may change it.
  std::string enable_debug_command = "no";
  // SLOWLOG: commands that run for at least this many microseconds are logged (-1: none), and the
  // log keeps the latest slowlog_max_len of them.
  int64_t slowlog_log_slower_than = 10000;
  int64_t slowlog_max_len = 128;
  // LATENCY: commands that take at least this many milliseconds are events (0: none).
  int64_t latency_monitor_threshold = 0;
  // The aggregate types' compact encodings (Redis's listpack and intset thresholds); the
  // `*-ziplist-*` names are aliases.
  int64_t list_max_listpack_size = -2;  // > 0: entries per node; -1..-5: 4, 8, 16, 32, 64 KB
  int64_t list_compress_depth = 0;
  int64_t hash_max_listpack_entries = 512;
  int64_t hash_max_listpack_value = 64;
  int64_t set_max_intset_entries = 512;
  int64_t zset_max_listpack_entries = 128;
  int64_t zset_max_listpack_value = 64;
  // Lazy freeing: which deletions hand big values to the background freer, as Redis's
  // lazyfree-lazy-* (UNLINK and the ASYNC flushes always do).
  bool lazyfree_lazy_eviction = false;
  bool lazyfree_lazy_expire = false;
  bool lazyfree_lazy_server_del = false;
  bool lazyfree_lazy_user_del = false;
  bool lazyfree_lazy_user_flush = false;
  // kvserver's own: the file the binary writes its TCP port to once it accepts connections.
  std::string port_file;
  // kvserver's own: whether clients may arm faults with KVFAULT.
  bool enable_fault_injection = false;
  std::string config_file;  // absolute path of the file the server was started with, if any
};

// A configuration directive: its name, whether CONFIG SET may change it, how to render its value
// for CONFIG GET and how to apply arguments to a Config.
struct Directive {
  std::string_view name;
  bool mutable_at_runtime;
  // Redis's PROTECTED_CONFIG with enable-protected-configs at its default "no": CONFIG SET
  // refuses it ("can't set protected config"); configuration files may still set it.
  bool protected_at_runtime;
  size_t min_args;
  size_t max_args;  // 0: any number (Redis's MULTI_ARG_CONFIG)
  std::string (*get)(const Config&);
  // Returns an error message (Redis's wording) when the arguments are not acceptable.
  std::optional<std::string> (*set)(Config&, const std::vector<std::string>&);
};

const std::vector<Directive>& Directives();
// Case-insensitive lookup; nullptr for an unknown directive.
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

// Applies configuration text in redis.conf syntax. `source` names it in error messages (a file
// path or "command line"). Returns an error message naming the line and the directive.
std::optional<std::string> ApplyConfigText(std::string_view text, std::string_view source,
                                           Config* config);
// `arg` quoted so that ApplyConfigText reads back exactly its bytes (Redis's sdscatrepr).
std::string QuoteConfigArg(std::string_view arg);
std::optional<std::string> LoadConfigFile(const std::string& path, Config* config);

// The result of reading kvserver's command line: `kvserver [config-file] [--directive value ...]`.
struct CommandLine {
  enum class Action { kRun, kVersion, kHelp, kError } action = Action::kRun;
  Config config;
  std::string error;
};
CommandLine ParseCommandLine(int argc, const char* const* argv);

}  // namespace kv
