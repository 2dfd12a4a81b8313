#include "server/config.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "protocol/inline_splitter.h"
#include "protocol/number.h"
#include "server/strings.h"

namespace kv {
namespace {

using Args = std::vector<std::string>;

template <int64_t Config::*Field, int64_t Min, int64_t Max>
std::optional<std::string> SetInt(Config& c, const Args& a) {
  auto v = ParseInt64(a[0]);
  if (!v) return "argument couldn't be parsed into an integer";
  if (*v < Min || *v > Max) {
    return "argument must be between " + std::to_string(Min) + " and " + std::to_string(Max) +
           " inclusive";
  }
  c.*Field = *v;
  return std::nullopt;
}

template <int64_t Config::*Field, int64_t Min>
std::optional<std::string> SetMemory(Config& c, const Args& a) {
  auto v = ParseMemory(a[0]);
  if (!v) return "argument must be a memory value";
  if (*v < Min) {
    return "argument must be between " + std::to_string(Min) + " and " + std::to_string(LLONG_MAX) +
           " inclusive";
  }
  c.*Field = *v;
  return std::nullopt;
}

template <int64_t Config::*Field>
std::string GetInt(const Config& c) {
  return std::to_string(c.*Field);
}

template <std::string Config::*Field>
std::optional<std::string> SetString(Config& c, const Args& a) {
  c.*Field = a[0];
  return std::nullopt;
}

template <std::string Config::*Field>
std::string GetString(const Config& c) {
  return c.*Field;
}

std::optional<bool> ParseYesNo(std::string_view s) {
  if (EqualsIgnoreCase(s, "yes")) return true;
  if (EqualsIgnoreCase(s, "no")) return false;
  return std::nullopt;
}

template <bool Config::*Field>
std::optional<std::string> SetBool(Config& c, const Args& a) {
  auto v = ParseYesNo(a[0]);
  if (!v) return "argument must be 'yes' or 'no'";
  c.*Field = *v;
  return std::nullopt;
}

template <bool Config::*Field>
std::string GetBool(const Config& c) {
  return c.*Field ? "yes" : "no";
}

std::optional<std::string> SetLogLevel(Config& c, const Args& a) {
  std::string v = ToLower(a[0]);
  if (v != "debug" && v != "verbose" && v != "notice" && v != "warning") {
    return "argument(s) must be one of the following: debug, verbose, notice, warning";
  }
  c.loglevel = v;
  return std::nullopt;
}

std::optional<std::string> SetEnableDebugCommand(Config& c, const Args& a) {
  std::string v = ToLower(a[0]);
  if (v != "no" && v != "yes" && v != "local") {
    return "argument(s) must be one of the following: no, yes, local";
  }
  c.enable_debug_command = v;
  return std::nullopt;
}

// Redis's CONFIG_BINDADDR_MAX.
constexpr size_t kMaxBindAddresses = 16;

std::optional<std::string> SetBind(Config& c, const Args& a) {
  if (a.size() > kMaxBindAddresses) return "Too many bind addresses specified.";
  // A single empty argument means no addresses at all, as in Redis.
  if (a.size() == 1 && a[0].empty()) {
    c.bind.clear();
  } else {
    c.bind = a;
  }
  return std::nullopt;
}

// Redis's OCTAL_CONFIG parsing: strtoll in base 8 (so blanks, a sign and an empty text are
// accepted as strtoll accepts them), then the range check printed in octal.
std::optional<std::string> SetUnixSocketPerm(Config& c, const Args& a) {
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(a[0].c_str(), &end, 8);
  if (errno != 0 || *end != '\0') return "argument couldn't be parsed as an octal number";
  if (static_cast<unsigned long long>(v) > 0777)
    return "argument must be between 0 and 777 inclusive";
  c.unixsocketperm = v;
  return std::nullopt;
}

// Redis takes any hz from 0 to INT_MAX and then keeps it within 1..500 (CONFIG_MIN_HZ and
// CONFIG_MAX_HZ), so CONFIG GET hz shows the value actually used.
std::optional<std::string> SetHz(Config& c, const Args& a) {
  if (auto err = SetInt<&Config::hz, 0, INT_MAX>(c, a)) return err;
  c.hz = std::clamp<int64_t>(c.hz, 1, 500);
  return std::nullopt;
}

std::string GetUnixSocketPerm(const Config& c) {
  std::ostringstream out;
  out << std::oct << c.unixsocketperm;
  return out.str();
}

std::optional<std::string> SetSave(Config& c, const Args& a) {
  // Redis's checks first (a single "" means no save points; otherwise pairs of seconds >= 1 and
  // changes >= 0), so malformed values get Redis's message.
  const bool empty = a.empty() || (a.size() == 1 && a[0].c_str()[0] == '\0');
  if (!empty) {
    if (a.size() % 2 != 0) return "Invalid save parameters";
    for (size_t j = 0; j < a.size(); ++j) {
      char* end = nullptr;
      const long long v = std::strtoll(a[j].c_str(), &end, 10);
      if (*end != '\0' || (j % 2 == 0 && v < 1) || (j % 2 == 1 && v < 0)) {
        return "Invalid save parameters";
      }
    }
    // Valid save points would promise snapshots to disk, which kvserver does not write.
    return "kvserver keeps no data on disk: only save \"\" is supported";
  }
  c.save.clear();
  return std::nullopt;
}

std::optional<std::string> SetAppendOnly(Config& c, const Args& a) {
  auto v = ParseYesNo(a[0]);
  if (!v) return "argument must be 'yes' or 'no'";
  if (*v) return "kvserver keeps no data on disk: appendonly must be no";
  c.appendonly = false;
  return std::nullopt;
}

std::optional<std::string> SetDaemonize(Config& c, const Args& a) {
  auto v = ParseYesNo(a[0]);
  if (!v) return "argument must be 'yes' or 'no'";
  if (*v) return "kvserver runs in the foreground: daemonize must be no";
  c.daemonize = false;
  return std::nullopt;
}

std::optional<std::string> SetEnableFaultInjection(Config& c, const Args& a) {
  auto v = ParseYesNo(a[0]);
  if (!v) return "argument must be 'yes' or 'no'";
  c.enable_fault_injection = *v;
  return std::nullopt;
}

std::optional<std::string> SetDir(Config& c, const Args& a) {
  if (chdir(a[0].c_str()) != 0) return std::string(std::strerror(errno));
  c.dir = a[0];
  return std::nullopt;
}

std::string GetDir(const Config& c) {
  if (!c.dir.empty() && c.dir[0] == '/') return c.dir;
  std::error_code ec;
  auto cwd = std::filesystem::current_path(ec);
  return ec ? c.dir : cwd.string();
}

// Redis's updateClientOutputBufferLimit: "<class> <hard> <soft> <soft-seconds>" any number of
// times; every triplet is checked before any is applied.
std::optional<std::string> SetOutputBufferLimit(Config& c, const Args& a) {
  if (a.size() % 4 != 0) return "Wrong number of arguments in buffer limit configuration.";
  auto limits = c.client_output_buffer_limit;
  for (size_t j = 0; j < a.size(); j += 4) {
    auto cls = ClientClassByName(a[j]);
    if (!cls || *cls == ClientClass::kMaster)
      return "Invalid client class specified in buffer limit configuration.";
    auto hard = ParseMemory(a[j + 1]);
    auto soft = ParseMemory(a[j + 2]);
    char* end = nullptr;
    // Redis keeps strtoll's result in an int.
    const int seconds = static_cast<int>(std::strtoll(a[j + 3].c_str(), &end, 10));
    if (!hard || !soft || seconds < 0 || *end != '\0') {
      return "Error in hard, soft or soft_seconds setting in buffer limit configuration.";
    }
    limits[static_cast<size_t>(*cls)] = {static_cast<uint64_t>(*hard), static_cast<uint64_t>(*soft),
                                         seconds};
  }
  c.client_output_buffer_limit = limits;
  return std::nullopt;
}

std::string GetOutputBufferLimit(const Config& c) {
  static constexpr std::string_view kNames[kClientClasses] = {"normal", "slave", "pubsub"};
  std::string out;
  for (size_t j = 0; j < kClientClasses; ++j) {
    const OutputBufferLimit& l = c.client_output_buffer_limit[j];
    if (j > 0) out += ' ';
    out += kNames[j];
    out += ' ' + std::to_string(l.hard) + ' ' + std::to_string(l.soft) + ' ' +
           std::to_string(l.soft_seconds);
  }
  return out;
}

std::optional<std::string> SetProtectedMode(Config& c, const Args& a) {
  auto v = ParseYesNo(a[0]);
  if (!v) return "argument must be 'yes' or 'no'";
  c.protected_mode = *v;
  return std::nullopt;
}

constexpr std::string_view kPolicyNames[] = {"volatile-lru",   "volatile-lfu", "volatile-random",
                                             "volatile-ttl",   "allkeys-lru",  "allkeys-lfu",
                                             "allkeys-random", "noeviction"};

std::optional<std::string> SetMaxmemoryPolicy(Config& c, const Args& a) {
  for (size_t i = 0; i < std::size(kPolicyNames); ++i) {
    if (EqualsIgnoreCase(a[0], kPolicyNames[i])) {
      c.maxmemory_policy = static_cast<MaxmemoryPolicy>(i);
      return std::nullopt;
    }
  }
  return "argument(s) must be one of the following: volatile-lru, volatile-lfu, volatile-random, "
         "volatile-ttl, allkeys-lru, allkeys-lfu, allkeys-random, noeviction";
}

// An unsigned memory directive (Redis's ULONG_LONG MEMORY_CONFIG): any value that parses.
std::optional<std::string> SetMaxmemory(Config& c, const Args& a) {
  auto v = ParseMemory(a[0]);
  if (!v) return "argument must be a memory value";
  c.maxmemory = static_cast<uint64_t>(*v);
  return std::nullopt;
}

constexpr int64_t kMaxPort = 65535;
constexpr int64_t kMb = 1024 * 1024;

}  // namespace

const std::vector<Directive>& Directives() {
  // name, CONFIG SET allowed, protected, min args, max args (0: any), get, set. Ranges and
  // mutability are Redis 7.0's.
  static const std::vector<Directive> directives = {
      {"port", false, false, 1, 1, GetInt<&Config::port>, SetInt<&Config::port, 0, kMaxPort>},
      {"bind", false, false, 0, 0, [](const Config& c) { return JoinWords(c.bind); }, SetBind},
      {"unixsocket", false, false, 1, 1, GetString<&Config::unixsocket>,
       SetString<&Config::unixsocket>},
      {"unixsocketperm", false, false, 1, 1, GetUnixSocketPerm, SetUnixSocketPerm},
      {"tcp-backlog", false, false, 1, 1, GetInt<&Config::tcp_backlog>,
       SetInt<&Config::tcp_backlog, 0, INT_MAX>},
      {"tcp-keepalive", true, false, 1, 1, GetInt<&Config::tcp_keepalive>,
       SetInt<&Config::tcp_keepalive, 0, INT_MAX>},
      {"loglevel", true, false, 1, 1, GetString<&Config::loglevel>, SetLogLevel},
      {"logfile", false, false, 1, 1, GetString<&Config::logfile>, SetString<&Config::logfile>},
      {"databases", false, false, 1, 1, GetInt<&Config::databases>,
       SetInt<&Config::databases, 1, INT_MAX>},
      {"maxclients", true, false, 1, 1, GetInt<&Config::maxclients>,
       SetInt<&Config::maxclients, 1, UINT_MAX>},
      {"timeout", true, false, 1, 1, GetInt<&Config::timeout>,
       SetInt<&Config::timeout, 0, INT_MAX>},
      {"hz", true, false, 1, 1, GetInt<&Config::hz>, SetHz},
      {"proto-max-bulk-len", true, false, 1, 1, GetInt<&Config::proto_max_bulk_len>,
       SetMemory<&Config::proto_max_bulk_len, kMb>},
      {"client-query-buffer-limit", true, false, 1, 1, GetInt<&Config::client_query_buffer_limit>,
       SetMemory<&Config::client_query_buffer_limit, kMb>},
      {"client-output-buffer-limit", true, false, 0, 0, GetOutputBufferLimit, SetOutputBufferLimit},
      {"maxmemory", true, false, 1, 1, [](const Config& c) { return std::to_string(c.maxmemory); },
       SetMaxmemory},
      {"maxmemory-policy", true, false, 1, 1,
       [](const Config& c) { return std::string(MaxmemoryPolicyName(c.maxmemory_policy)); },
       SetMaxmemoryPolicy},
      {"maxmemory-samples", true, false, 1, 1, GetInt<&Config::maxmemory_samples>,
       SetInt<&Config::maxmemory_samples, 1, INT_MAX>},
      {"maxmemory-eviction-tenacity", true, false, 1, 1,
       GetInt<&Config::maxmemory_eviction_tenacity>,
       SetInt<&Config::maxmemory_eviction_tenacity, 0, 100>},
      {"lfu-log-factor", true, false, 1, 1, GetInt<&Config::lfu_log_factor>,
       SetInt<&Config::lfu_log_factor, 0, INT_MAX>},
      {"lfu-decay-time", true, false, 1, 1, GetInt<&Config::lfu_decay_time>,
       SetInt<&Config::lfu_decay_time, 0, INT_MAX>},
      {"requirepass", true, false, 1, 1, GetString<&Config::requirepass>,
       SetString<&Config::requirepass>},
      {"protected-mode", true, false, 1, 1,
       [](const Config& c) { return std::string(c.protected_mode ? "yes" : "no"); },
       SetProtectedMode},
      {"save", true, false, 0, 0, GetString<&Config::save>, SetSave},
      {"appendonly", true, false, 1, 1,
       [](const Config& c) { return std::string(c.appendonly ? "yes" : "no"); }, SetAppendOnly},
      {"dir", true, true, 1, 1, GetDir, SetDir},
      {"daemonize", false, false, 1, 1, [](const Config&) { return std::string("no"); },
       SetDaemonize},
      {"pidfile", false, false, 1, 1, GetString<&Config::pidfile>, SetString<&Config::pidfile>},
      {"enable-debug-command", false, false, 1, 1, GetString<&Config::enable_debug_command>,
       SetEnableDebugCommand},
      {"slowlog-log-slower-than", true, false, 1, 1, GetInt<&Config::slowlog_log_slower_than>,
       SetInt<&Config::slowlog_log_slower_than, -1, LLONG_MAX>},
      {"slowlog-max-len", true, false, 1, 1, GetInt<&Config::slowlog_max_len>,
       SetInt<&Config::slowlog_max_len, 0, LONG_MAX>},
      {"latency-monitor-threshold", true, false, 1, 1, GetInt<&Config::latency_monitor_threshold>,
       SetInt<&Config::latency_monitor_threshold, 0, LLONG_MAX>},
      // The aggregate types' encodings; each `ziplist` name is an alias of the `listpack` one.
      {"list-max-listpack-size", true, false, 1, 1, GetInt<&Config::list_max_listpack_size>,
       SetInt<&Config::list_max_listpack_size, INT_MIN, INT_MAX>},
      {"list-max-ziplist-size", true, false, 1, 1, GetInt<&Config::list_max_listpack_size>,
       SetInt<&Config::list_max_listpack_size, INT_MIN, INT_MAX>},
      {"list-compress-depth", true, false, 1, 1, GetInt<&Config::list_compress_depth>,
       SetInt<&Config::list_compress_depth, 0, INT_MAX>},
      {"hash-max-listpack-entries", true, false, 1, 1, GetInt<&Config::hash_max_listpack_entries>,
       SetInt<&Config::hash_max_listpack_entries, 0, LONG_MAX>},
      {"hash-max-ziplist-entries", true, false, 1, 1, GetInt<&Config::hash_max_listpack_entries>,
       SetInt<&Config::hash_max_listpack_entries, 0, LONG_MAX>},
      {"hash-max-listpack-value", true, false, 1, 1, GetInt<&Config::hash_max_listpack_value>,
       SetMemory<&Config::hash_max_listpack_value, 0>},
      {"hash-max-ziplist-value", true, false, 1, 1, GetInt<&Config::hash_max_listpack_value>,
       SetMemory<&Config::hash_max_listpack_value, 0>},
      {"set-max-intset-entries", true, false, 1, 1, GetInt<&Config::set_max_intset_entries>,
       SetInt<&Config::set_max_intset_entries, 0, LONG_MAX>},
      {"zset-max-listpack-entries", true, false, 1, 1, GetInt<&Config::zset_max_listpack_entries>,
       SetInt<&Config::zset_max_listpack_entries, 0, LONG_MAX>},
      {"zset-max-ziplist-entries", true, false, 1, 1, GetInt<&Config::zset_max_listpack_entries>,
       SetInt<&Config::zset_max_listpack_entries, 0, LONG_MAX>},
      {"zset-max-listpack-value", true, false, 1, 1, GetInt<&Config::zset_max_listpack_value>,
       SetMemory<&Config::zset_max_listpack_value, 0>},
      {"zset-max-ziplist-value", true, false, 1, 1, GetInt<&Config::zset_max_listpack_value>,
       SetMemory<&Config::zset_max_listpack_value, 0>},
      {"lazyfree-lazy-eviction", true, false, 1, 1, GetBool<&Config::lazyfree_lazy_eviction>,
       SetBool<&Config::lazyfree_lazy_eviction>},
      {"lazyfree-lazy-expire", true, false, 1, 1, GetBool<&Config::lazyfree_lazy_expire>,
       SetBool<&Config::lazyfree_lazy_expire>},
      {"lazyfree-lazy-server-del", true, false, 1, 1, GetBool<&Config::lazyfree_lazy_server_del>,
       SetBool<&Config::lazyfree_lazy_server_del>},
      {"lazyfree-lazy-user-del", true, false, 1, 1, GetBool<&Config::lazyfree_lazy_user_del>,
       SetBool<&Config::lazyfree_lazy_user_del>},
      {"lazyfree-lazy-user-flush", true, false, 1, 1, GetBool<&Config::lazyfree_lazy_user_flush>,
       SetBool<&Config::lazyfree_lazy_user_flush>},
      {"port-file", false, false, 1, 1, GetString<&Config::port_file>,
       SetString<&Config::port_file>},
      {"enable-fault-injection", true, true, 1, 1,
       [](const Config& c) { return std::string(c.enable_fault_injection ? "yes" : "no"); },
       SetEnableFaultInjection},
  };
  return directives;
}

std::string_view MaxmemoryPolicyName(MaxmemoryPolicy policy) {
  return kPolicyNames[static_cast<size_t>(policy)];
}

std::optional<ClientClass> ClientClassByName(std::string_view name) {
  if (EqualsIgnoreCase(name, "normal")) return ClientClass::kNormal;
  if (EqualsIgnoreCase(name, "slave") || EqualsIgnoreCase(name, "replica")) {
    return ClientClass::kReplica;
  }
  if (EqualsIgnoreCase(name, "pubsub")) return ClientClass::kPubSub;
  if (EqualsIgnoreCase(name, "master")) return ClientClass::kMaster;
  return std::nullopt;
}

const Directive* FindDirective(std::string_view name) {
  for (const Directive& d : Directives()) {
    if (EqualsIgnoreCase(d.name, name)) return &d;
  }
  return nullptr;
}

std::optional<int64_t> ParseMemory(std::string_view s) {
  s = s.substr(0, s.find('\0'));  // Redis parses a C string
  if (!s.empty() && s[0] == '-') return std::nullopt;
  size_t digits = 0;
  while (digits < s.size() && std::isdigit(static_cast<unsigned char>(s[digits]))) ++digits;
  const std::string_view unit = s.substr(digits);
  uint64_t mul;
  if (unit.empty() || EqualsIgnoreCase(unit, "b")) {
    mul = 1;
  } else if (EqualsIgnoreCase(unit, "k")) {
    mul = 1000;
  } else if (EqualsIgnoreCase(unit, "kb")) {
    mul = 1024;
  } else if (EqualsIgnoreCase(unit, "m")) {
    mul = 1000 * 1000;
  } else if (EqualsIgnoreCase(unit, "mb")) {
    mul = 1024 * 1024;
  } else if (EqualsIgnoreCase(unit, "g")) {
    mul = 1000ULL * 1000 * 1000;
  } else if (EqualsIgnoreCase(unit, "gb")) {
    mul = 1024ULL * 1024 * 1024;
  } else {
    return std::nullopt;
  }
  if (digits >= 128) return std::nullopt;  // memtoull's buffer
  // strtoull: no digits is 0, too many saturates at ULLONG_MAX.
  uint64_t val = 0;
  for (size_t i = 0; i < digits; ++i) {
    const uint64_t d = static_cast<uint64_t>(s[i] - '0');
    if (val > (UINT64_MAX - d) / 10) {
      val = UINT64_MAX;
      break;
    }
    val = val * 10 + d;
  }
  return static_cast<int64_t>(val * mul);  // wraps like Redis's unchecked val*mul
}

int64_t MaxClientsAfterRaisingFileLimit(int64_t maxclients) {
  constexpr int64_t kReservedFds = 32;  // CONFIG_MIN_RESERVED_FDS
  constexpr rlim_t kStep = 16;
  const rlim_t wanted = static_cast<rlim_t>(maxclients + kReservedFds);
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return 1024 - kReservedFds;
  const rlim_t old_limit = limit.rlim_cur;
  if (old_limit == RLIM_INFINITY || old_limit >= wanted) return maxclients;
  // Redis tries wanted, wanted-16, wanted-32, ... until setrlimit accepts one. Without
  // privileges that is the first one at or below the hard limit; with them, wanted itself.
  rlimit raise = limit;
  raise.rlim_cur = wanted;
  if (raise.rlim_max != RLIM_INFINITY && raise.rlim_max < wanted) raise.rlim_max = wanted;
  if (setrlimit(RLIMIT_NOFILE, &raise) == 0) return maxclients;
  rlim_t best = old_limit;
  if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max > old_limit) {
    const rlim_t steps = (wanted - limit.rlim_max + kStep - 1) / kStep;
    best = wanted - steps * kStep;
    if (best < old_limit) best = old_limit;
    rlimit lower = limit;
    lower.rlim_cur = best;
    if (setrlimit(RLIMIT_NOFILE, &lower) != 0) best = old_limit;
  }
  return static_cast<int64_t>(best) - kReservedFds;
}

std::optional<std::string> ApplyConfigText(std::string_view text, std::string_view source,
                                           Config* config) {
  // Redis's loadServerConfigFromString: one directive per line, blank lines and comments skipped,
  // words split as redis-cli splits them, the first error ends the load.
  size_t line_no = 0;
  std::string storage, sub_storage;
  std::vector<std::string_view> words, sub_words;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_no;
    while (!line.empty() && std::string_view(" \t\r\n").find(line.front()) != line.npos) {
      line.remove_prefix(1);
    }
    while (!line.empty() && std::string_view(" \t\r\n").find(line.back()) != line.npos) {
      line.remove_suffix(1);
    }
    if (line.empty() || line[0] == '#') continue;

    auto fail = [&](std::string_view why) {
      std::ostringstream out;
      out << "\n*** FATAL CONFIG FILE ERROR ***\n"
          << "Reading the configuration from " << source << ", at line " << line_no << "\n"
          << ">>> '" << line << "'\n"
          << why << "\n";
      return out.str();
    };
    if (!SplitInlineArgs(line, &storage, &words)) {
      return fail("Unbalanced quotes in configuration line");
    }
    if (words.empty()) continue;
    const Directive* d = FindDirective(words[0]);
    if (d == nullptr) return fail("Bad directive or wrong number of arguments");
    const size_t nargs = words.size() - 1;
    const bool multi_arg = d->max_args == 0;
    if (nargs < d->min_args || (!multi_arg && nargs > d->max_args)) {
      return fail("wrong number of arguments");
    }
    std::vector<std::string> args;
    if (multi_arg && nargs == 1 && !words[1].empty()) {
      // A multi-word directive given one word splits it, so that --bind "127.0.0.1 ::1" and
      // --save "3600 1" work as in Redis.
      if (!SplitInlineArgs(words[1], &sub_storage, &sub_words)) {
        return fail("Unbalanced quotes in configuration line");
      }
      args.assign(sub_words.begin(), sub_words.end());
    } else {
      args.assign(words.begin() + 1, words.end());
    }
    if (auto err = d->set(*config, args)) {
      return fail(std::string(d->name) + ": " + *err);
    }
  }
  return std::nullopt;
}

std::optional<std::string> LoadConfigFile(const std::string& path, Config* config) {
  std::ifstream in(path);
  if (!in) return "Fatal error, can't open config file '" + path + "': " + std::strerror(errno);
  std::stringstream text;
  text << in.rdbuf();
  std::error_code ec;
  auto abs = std::filesystem::absolute(path, ec);
  config->config_file = ec ? path : abs.string();
  return ApplyConfigText(text.str(), path, config);
}

std::string QuoteConfigArg(std::string_view arg) {
  std::string out;
  AppendRepr(out, arg);
  return out;
}

namespace {

bool StartsWithDashes(std::string_view arg) {
  return arg.size() >= 2 && arg[0] == '-' && arg[1] == '-';
}

}  // namespace

CommandLine ParseCommandLine(int argc, const char* const* argv) {
  CommandLine result;
  int i = 1;
  if (argc >= 2) {
    std::string_view first = argv[1];
    if (first == "-v" || first == "--version") {
      result.action = CommandLine::Action::kVersion;
      return result;
    }
    if (first == "-h" || first == "--help") {
      result.action = CommandLine::Action::kHelp;
      return result;
    }
    // As in redis-server, only a first argument that does not start with '-' is a file.
    if (first.empty() || first[0] != '-') {
      if (auto err = LoadConfigFile(argv[1], &result.config)) {
        result.action = CommandLine::Action::kError;
        result.error = *err;
        return result;
      }
      i = 2;
    }
  }
  // Redis's main(): "--name v1 v2 --other v" becomes the lines "name v1 v2" and "other v", each
  // value quoted (sdscatrepr) so that empty values and values with blanks survive. A word that
  // starts with "--" right after a bare option name is that option's value, except that a bare
  // --save before another option or at the end means --save "".
  std::string text;
  bool have_value = true;  // Redis's handled_last_config_arg
  for (; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (have_value && StartsWithDashes(arg)) {
      if (!text.empty()) text += '\n';
      text += arg.substr(2);
      text += ' ';
      std::string storage;
      std::vector<std::string_view> words;
      const bool bare = SplitInlineArgs(arg, &storage, &words) && words.size() == 1;
      if (!bare) {
        have_value = true;  // "--port 6380" as one word carries its value
        continue;
      }
      have_value = false;
      if (EqualsIgnoreCase(arg, "--save")) {
        const bool last = i == argc - 1;
        if (last || StartsWithDashes(argv[i + 1])) {
          text += "\"\"";
          have_value = !last;
        }
      }
      continue;
    }
    // A value with no option before it becomes a line of its own, which then fails as an unknown
    // directive, as in Redis.
    AppendRepr(text, arg);
    text += ' ';
    have_value = true;
  }
  if (auto err = ApplyConfigText(text, "the command line", &result.config)) {
    result.action = CommandLine::Action::kError;
    result.error = *err;
  }
  return result;
}

}  // namespace kv
