// Redis's special directives (config.c's setConfig*Option, getConfig*Option and
// rewriteConfig*Option): dir, save, client-output-buffer-limit, oom-score-adj-values,
// notify-keyspace-events, bind, replicaof and latency-tracking-info-percentiles.

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "server/config_directive.h"
#include "server/strings.h"

namespace kv::special {
namespace {

std::string CString(std::string_view s) { return std::string(s.substr(0, s.find('\0'))); }

std::string Quote(std::string_view s) {
  std::string out;
  AppendRepr(out, s);
  return out;
}

// strtoll over the whole C string, as Redis's callers check *eptr == '\0'.
bool StrToLL(const std::string& s, long long* out) {
  const std::string c = CString(s);
  char* end = nullptr;
  *out = std::strtoll(c.c_str(), &end, 10);
  return *end == '\0';
}

}  // namespace

// ---- dir: the working directory, changed at once (relative paths read later follow it).

std::optional<std::string> SetDir(Config& c, const ConfigArgs& a, SetMode) {
  if (a.size() != 1) return "wrong number of arguments";
  const std::string path = CString(a[0]);
  if (::chdir(path.c_str()) == -1) return std::string(std::strerror(errno));
  c.dir = path;
  return std::nullopt;
}

std::string GetDir(const Config&) {
  char buf[1024];
  if (::getcwd(buf, sizeof(buf)) == nullptr) return {};
  return buf;
}

RewriteLines RewriteDir(const Config& c, std::string_view name) {
  char buf[1024];
  if (::getcwd(buf, sizeof(buf)) == nullptr) return {};
  (void)c;
  return {{std::string(name) + " " + Quote(buf), true}};
}

// ---- save: pairs of seconds and changes; "" alone means none. Configuration text appends to
// the save points read so far (the loader clears the defaults at the first save line, as
// Redis), CONFIG SET replaces.

std::optional<std::string> SetSave(Config& c, const ConfigArgs& args, SetMode mode) {
  ConfigArgs a = args;
  if (a.size() == 1 && CString(a[0]).empty()) {
    c.save.clear();
    a.clear();
  }
  if (a.size() % 2 != 0) return "Invalid save parameters";
  std::vector<std::pair<int64_t, int64_t>> points;
  for (size_t j = 0; j < a.size(); j += 2) {
    long long seconds, changes;
    if (!StrToLL(a[j], &seconds) || seconds < 1 || !StrToLL(a[j + 1], &changes) || changes < 0) {
      return "Invalid save parameters";
    }
    points.emplace_back(seconds, static_cast<int>(changes));  // Redis keeps changes in an int
  }
  if (mode == SetMode::kConfigSet) c.save.clear();
  c.save.insert(c.save.end(), points.begin(), points.end());
  return std::nullopt;
}

std::string GetSave(const Config& c) {
  std::string out;
  for (const auto& [seconds, changes] : c.save) {
    if (!out.empty()) out += ' ';
    out += std::to_string(seconds) + " " + std::to_string(changes);
  }
  return out;
}

RewriteLines RewriteSave(const Config& c, std::string_view) {
  // Always written: without it a restart would bring back the defaults.
  if (c.save.empty()) return {{"save \"\"", true}};
  RewriteLines lines;
  for (const auto& [seconds, changes] : c.save) {
    lines.emplace_back("save " + std::to_string(seconds) + " " + std::to_string(changes), true);
  }
  return lines;
}

// ---- client-output-buffer-limit: "<class> <hard> <soft> <soft-seconds>" any number of times;
// every group is checked before any is applied.

std::optional<std::string> SetOutputBufferLimit(Config& c, const ConfigArgs& a, SetMode) {
  if (a.size() % 4 != 0) return "Wrong number of arguments in buffer limit configuration.";
  auto limits = c.client_output_buffer_limit;
  for (size_t j = 0; j < a.size(); j += 4) {
    auto cls = ClientClassByName(CString(a[j]));
    if (!cls || *cls == ClientClass::kMaster) {
      return "Invalid client class specified in buffer limit configuration.";
    }
    auto hard = ParseMemory(a[j + 1]);
    auto soft = ParseMemory(a[j + 2]);
    long long seconds_ll = 0;
    const bool seconds_ok = StrToLL(a[j + 3], &seconds_ll);
    const int seconds = static_cast<int>(seconds_ll);  // Redis keeps strtoll's result in an int
    if (!hard || !soft || seconds < 0 || !seconds_ok) {
      return "Error in hard, soft or soft_seconds setting in buffer limit configuration.";
    }
    limits[static_cast<size_t>(*cls)] = {static_cast<uint64_t>(*hard), static_cast<uint64_t>(*soft),
                                         seconds};
  }
  c.client_output_buffer_limit = limits;
  return std::nullopt;
}

namespace {
constexpr std::string_view kClassNames[kClientClasses] = {"normal", "slave", "pubsub"};
}

std::string GetOutputBufferLimit(const Config& c) {
  std::string out;
  for (size_t j = 0; j < kClientClasses; ++j) {
    const OutputBufferLimit& l = c.client_output_buffer_limit[j];
    if (j > 0) out += ' ';
    out += std::string(kClassNames[j]) + " " + std::to_string(l.hard) + " " +
           std::to_string(l.soft) + " " + std::to_string(l.soft_seconds);
  }
  return out;
}

RewriteLines RewriteOutputBufferLimit(const Config& c, std::string_view name) {
  static const Config kDefaults;
  RewriteLines lines;
  for (size_t j = 0; j < kClientClasses; ++j) {
    const OutputBufferLimit& l = c.client_output_buffer_limit[j];
    const std::string cls = j == 1 ? "replica" : std::string(kClassNames[j]);
    lines.emplace_back(
        std::string(name) + " " + cls + " " + FormatMemory(static_cast<int64_t>(l.hard)) + " " +
            FormatMemory(static_cast<int64_t>(l.soft)) + " " + std::to_string(l.soft_seconds),
        !(l == kDefaults.client_output_buffer_limit[j]));
  }
  return lines;
}

// ---- oom-score-adj-values: three values for master, replica and background child.

std::optional<std::string> SetOomScoreAdjValues(Config& c, const ConfigArgs& a, SetMode) {
  if (a.size() != 3) return "wrong number of arguments";
  std::array<int64_t, 3> values{};
  for (size_t i = 0; i < 3; ++i) {
    long long v = 0;
    if (!StrToLL(a[i], &v) || v < -2000 || v > 2000) {
      return "Invalid oom-score-adj-values, elements must be between -2000 and 2000.";
    }
    values[i] = v;
  }
  if (values[1] < values[0] || values[2] < values[1]) {
    spdlog::warn(
        "The oom-score-adj-values configuration may not work for non-privileged processes! "
        "Please consult the documentation.");
  }
  c.oom_score_adj_values = values;
  return std::nullopt;
}

std::string GetOomScoreAdjValues(const Config& c) {
  return std::to_string(c.oom_score_adj_values[0]) + " " +
         std::to_string(c.oom_score_adj_values[1]) + " " +
         std::to_string(c.oom_score_adj_values[2]);
}

RewriteLines RewriteOomScoreAdjValues(const Config& c, std::string_view name) {
  static const Config kDefaults;
  return {{std::string(name) + " " + GetOomScoreAdjValues(c),
           c.oom_score_adj_values != kDefaults.oom_score_adj_values}};
}

// ---- notify-keyspace-events: Redis's class characters.

int KeyspaceEventsFlags(std::string_view classes) {
  constexpr int kAll = (1 << 2) | (1 << 3) | (1 << 4) | (1 << 5) | (1 << 6) | (1 << 7) | (1 << 8) |
                       (1 << 9) | (1 << 10) | (1 << 13);
  int flags = 0;
  for (char ch : classes.substr(0, classes.find('\0'))) {
    switch (ch) {
      case 'A':
        flags |= kAll;
        break;
      case 'g':
        flags |= 1 << 2;
        break;
      case '$':
        flags |= 1 << 3;
        break;
      case 'l':
        flags |= 1 << 4;
        break;
      case 's':
        flags |= 1 << 5;
        break;
      case 'h':
        flags |= 1 << 6;
        break;
      case 'z':
        flags |= 1 << 7;
        break;
      case 'x':
        flags |= 1 << 8;
        break;
      case 'e':
        flags |= 1 << 9;
        break;
      case 'K':
        flags |= 1 << 0;
        break;
      case 'E':
        flags |= 1 << 1;
        break;
      case 't':
        flags |= 1 << 10;
        break;
      case 'm':
        flags |= 1 << 11;
        break;
      case 'd':
        flags |= 1 << 13;
        break;
      case 'n':
        flags |= 1 << 14;
        break;
      default:
        return -1;
    }
  }
  return flags;
}

std::string KeyspaceEventsString(int flags) {
  constexpr int kAll = (1 << 2) | (1 << 3) | (1 << 4) | (1 << 5) | (1 << 6) | (1 << 7) | (1 << 8) |
                       (1 << 9) | (1 << 10) | (1 << 13);
  std::string out;
  if ((flags & kAll) == kAll) {
    out += 'A';
  } else {
    static constexpr std::pair<int, char> kClasses[] = {
        {1 << 2, 'g'}, {1 << 3, '$'}, {1 << 4, 'l'},  {1 << 5, 's'},  {1 << 6, 'h'}, {1 << 7, 'z'},
        {1 << 8, 'x'}, {1 << 9, 'e'}, {1 << 10, 't'}, {1 << 13, 'd'}, {1 << 14, 'n'}};
    for (const auto& [bit, ch] : kClasses) {
      if ((flags & bit) != 0) out += ch;
    }
  }
  if ((flags & (1 << 0)) != 0) out += 'K';
  if ((flags & (1 << 1)) != 0) out += 'E';
  if ((flags & (1 << 11)) != 0) out += 'm';
  return out;
}

std::optional<std::string> SetNotifyKeyspaceEvents(Config& c, const ConfigArgs& a, SetMode) {
  if (a.size() != 1) return "wrong number of arguments";
  const int flags = KeyspaceEventsFlags(a[0]);
  if (flags == -1) return "Invalid event class character. Use 'Ag$lshzxeKEtmdn'.";
  c.notify_keyspace_events = flags;
  return std::nullopt;
}

std::string GetNotifyKeyspaceEvents(const Config& c) {
  return KeyspaceEventsString(c.notify_keyspace_events);
}

RewriteLines RewriteNotifyKeyspaceEvents(const Config& c, std::string_view name) {
  return {{std::string(name) + " " + Quote(KeyspaceEventsString(c.notify_keyspace_events)),
           c.notify_keyspace_events != 0}};
}

// ---- bind: up to 16 addresses; a single "" means none.

std::optional<std::string> SetBind(Config& c, const ConfigArgs& a, SetMode) {
  constexpr size_t kMaxBindAddresses = 16;  // Redis's CONFIG_BINDADDR_MAX
  if (a.size() > kMaxBindAddresses) return "Too many bind addresses specified.";
  c.bind.clear();
  if (a.size() == 1 && a[0].empty()) return std::nullopt;
  for (const std::string& addr : a) c.bind.push_back(CString(addr));
  return std::nullopt;
}

std::string GetBind(const Config& c) {
  std::string out;
  for (size_t i = 0; i < c.bind.size(); ++i) {
    if (i > 0) out += ' ';
    out += c.bind[i];
  }
  return out;
}

RewriteLines RewriteBind(const Config& c, std::string_view name) {
  static const Config kDefaults;
  if (c.bind == kDefaults.bind) return {};
  return {{std::string(name) + " " + (c.bind.empty() ? std::string("\"\"") : GetBind(c)), true}};
}

// ---- replicaof <host> <port> | no one

std::optional<std::string> SetReplicaOf(Config& c, const ConfigArgs& a, SetMode) {
  if (a.size() != 2) return "wrong number of arguments";
  c.replicaof_host.clear();
  c.replicaof_port = 0;
  if (EqualsIgnoreCase(CString(a[0]), "no") && EqualsIgnoreCase(CString(a[1]), "one")) {
    return std::nullopt;
  }
  const std::string port_text = CString(a[1]);
  char* end = nullptr;
  const long port = std::strtol(port_text.c_str(), &end, 10);
  if (port < 0 || port > 65535 || *end != '\0') return "Invalid master port";
  c.replicaof_host = CString(a[0]);
  c.replicaof_port = port;
  return std::nullopt;
}

std::string GetReplicaOf(const Config& c) {
  if (c.replicaof_host.empty()) return {};
  return c.replicaof_host + " " + std::to_string(c.replicaof_port);
}

RewriteLines RewriteReplicaOf(const Config& c, std::string_view name) {
  if (c.cluster_enabled || c.replicaof_host.empty()) return {};
  return {{std::string(name) + " " + GetReplicaOf(c), true}};
}

// ---- latency-tracking-info-percentiles: doubles between 0 and 100; "" alone means none.

std::optional<std::string> SetLatencyPercentiles(Config& c, const ConfigArgs& a, SetMode) {
  std::vector<double> values;
  if (!(a.size() == 1 && a[0].empty())) {
    for (const std::string& s : a) {
      // Redis's string2d: strtod over the whole text, no leading blank, no overflow, no NaN.
      errno = 0;
      char* end = nullptr;
      const double d = std::strtod(s.c_str(), &end);
      if (s.empty() || IsAsciiSpace(s[0]) || static_cast<size_t>(end - s.c_str()) != s.size() ||
          (errno == ERANGE && (d == HUGE_VAL || d == -HUGE_VAL || d == 0.0)) || std::isnan(d)) {
        return "Invalid latency-tracking-info-percentiles parameters";
      }
      if (d > 100.0 || d < 0.0) {
        return "latency-tracking-info-percentiles parameters should sit between [0.0,100.0]";
      }
      values.push_back(d);
    }
  }
  c.latency_tracking_info_percentiles = std::move(values);
  return std::nullopt;
}

std::string GetLatencyPercentiles(const Config& c) {
  std::string out;
  for (size_t i = 0; i < c.latency_tracking_info_percentiles.size(); ++i) {
    if (i > 0) out += ' ';
    out += FormatPercentile(c.latency_tracking_info_percentiles[i]);
  }
  return out;
}

RewriteLines RewriteLatencyPercentiles(const Config& c, std::string_view name) {
  std::string line(name);
  if (c.latency_tracking_info_percentiles.empty()) {
    line += " \"\"";
  } else {
    for (double p : c.latency_tracking_info_percentiles) line += " " + FormatPercentile(p);
  }
  return {{line, true}};
}

}  // namespace kv::special
