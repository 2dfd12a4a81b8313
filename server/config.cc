#include "server/config.h"

#include <unistd.h>

#include <cctype>
#include <climits>
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

std::optional<std::string> SetLogLevel(Config& c, const Args& a) {
  std::string v = ToLower(a[0]);
  if (v != "debug" && v != "verbose" && v != "notice" && v != "warning") {
    return "argument(s) must be one of the following: debug, verbose, notice, warning";
  }
  c.loglevel = v;
  return std::nullopt;
}

std::optional<std::string> SetBind(Config& c, const Args& a) {
  c.bind = a;
  return std::nullopt;
}

std::optional<std::string> SetUnixSocketPerm(Config& c, const Args& a) {
  // An octal mode, as chmod takes it.
  int64_t v = 0;
  if (a[0].empty() || a[0].size() > 4) return "argument couldn't be parsed into an integer";
  for (char ch : a[0]) {
    if (ch < '0' || ch > '7') return "argument couldn't be parsed into an integer";
    v = v * 8 + (ch - '0');
  }
  c.unixsocketperm = v;
  return std::nullopt;
}

std::string GetUnixSocketPerm(const Config& c) {
  std::ostringstream out;
  out << std::oct << c.unixsocketperm;
  return out.str();
}

std::optional<std::string> SetSave(Config& c, const Args& a) {
  // Save points would promise snapshots to disk, which kvserver does not write.
  std::string joined = JoinWords(a);
  if (!StripWhitespace(joined).empty()) {
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

std::optional<std::string> SetDir(Config& c, const Args& a) {
  if (chdir(a[0].c_str()) != 0) return std::string("No such file or directory");
  c.dir = a[0];
  return std::nullopt;
}

std::string GetDir(const Config& c) {
  if (!c.dir.empty() && c.dir[0] == '/') return c.dir;
  std::error_code ec;
  auto cwd = std::filesystem::current_path(ec);
  return ec ? c.dir : cwd.string();
}

constexpr int64_t kMaxPort = 65535;
constexpr int64_t kMb = 1024 * 1024;

}  // namespace

const std::vector<Directive>& Directives() {
  static const std::vector<Directive> directives = {
      {"port", false, 1, 1, GetInt<&Config::port>, SetInt<&Config::port, 0, kMaxPort>},
      {"bind", false, 1, 0, [](const Config& c) { return JoinWords(c.bind); }, SetBind},
      {"unixsocket", false, 1, 1, GetString<&Config::unixsocket>, SetString<&Config::unixsocket>},
      {"unixsocketperm", false, 1, 1, GetUnixSocketPerm, SetUnixSocketPerm},
      {"tcp-backlog", false, 1, 1, GetInt<&Config::tcp_backlog>,
       SetInt<&Config::tcp_backlog, 0, INT_MAX>},
      {"tcp-keepalive", true, 1, 1, GetInt<&Config::tcp_keepalive>,
       SetInt<&Config::tcp_keepalive, 0, INT_MAX>},
      {"loglevel", true, 1, 1, GetString<&Config::loglevel>, SetLogLevel},
      {"logfile", false, 1, 1, GetString<&Config::logfile>, SetString<&Config::logfile>},
      {"databases", false, 1, 1, GetInt<&Config::databases>,
       SetInt<&Config::databases, 1, INT_MAX>},
      {"maxclients", true, 1, 1, GetInt<&Config::maxclients>,
       SetInt<&Config::maxclients, 1, INT_MAX>},
      {"timeout", true, 1, 1, GetInt<&Config::timeout>, SetInt<&Config::timeout, 0, INT_MAX>},
      {"hz", true, 1, 1, GetInt<&Config::hz>, SetInt<&Config::hz, 1, 500>},
      {"proto-max-bulk-len", true, 1, 1, GetInt<&Config::proto_max_bulk_len>,
       SetMemory<&Config::proto_max_bulk_len, kMb>},
      {"client-query-buffer-limit", true, 1, 1, GetInt<&Config::client_query_buffer_limit>,
       SetMemory<&Config::client_query_buffer_limit, kMb>},
      {"save", true, 1, 0, GetString<&Config::save>, SetSave},
      {"appendonly", true, 1, 1,
       [](const Config& c) { return std::string(c.appendonly ? "yes" : "no"); }, SetAppendOnly},
      {"dir", true, 1, 1, GetDir, SetDir},
      {"daemonize", false, 1, 1, [](const Config&) { return std::string("no"); }, SetDaemonize},
      {"pidfile", false, 1, 1, GetString<&Config::pidfile>, SetString<&Config::pidfile>},
  };
  return directives;
}

const Directive* FindDirective(std::string_view name) {
  for (const Directive& d : Directives()) {
    if (EqualsIgnoreCase(d.name, name)) return &d;
  }
  return nullptr;
}

std::optional<int64_t> ParseMemory(std::string_view s) {
  size_t digits_end = 0;
  while (digits_end < s.size() && (std::isdigit(static_cast<unsigned char>(s[digits_end])) ||
                                   (digits_end == 0 && s[0] == '-'))) {
    ++digits_end;
  }
  std::string unit = ToLower(s.substr(digits_end));
  int64_t mul;
  if (unit.empty() || unit == "b") {
    mul = 1;
  } else if (unit == "k") {
    mul = 1000;
  } else if (unit == "kb") {
    mul = 1024;
  } else if (unit == "m") {
    mul = 1000 * 1000;
  } else if (unit == "mb") {
    mul = 1024 * 1024;
  } else if (unit == "g") {
    mul = 1000LL * 1000 * 1000;
  } else if (unit == "gb") {
    mul = 1024LL * 1024 * 1024;
  } else {
    return std::nullopt;
  }
  auto v = ParseInt64(s.substr(0, digits_end));
  if (!v || *v < 0) return std::nullopt;
  if (*v > INT64_MAX / mul) return std::nullopt;
  return *v * mul;
}

std::optional<std::string> ApplyConfigText(std::string_view text, std::string_view source,
                                           Config* config) {
  size_t line_no = 0;
  std::string storage;
  std::vector<std::string_view> words;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_no;
    std::string_view trimmed = StripWhitespace(line);
    if (trimmed.empty() || trimmed[0] == '#') continue;

    auto fail = [&](std::string_view why) {
      std::ostringstream out;
      out << "\n*** FATAL CONFIG FILE ERROR ***\n"
          << "Reading the configuration from " << source << ", at line " << line_no << "\n"
          << ">>> '" << trimmed << "'\n"
          << why << "\n";
      return out.str();
    };
    if (!SplitInlineArgs(trimmed, &storage, &words))
      return fail("Unbalanced quotes in configuration line");
    const Directive* d = FindDirective(words[0]);
    const size_t nargs = words.size() - 1;
    if (d == nullptr || nargs < d->min_args || (d->max_args != 0 && nargs > d->max_args)) {
      return fail("Bad directive or wrong number of arguments");
    }
    std::vector<std::string> args(words.begin() + 1, words.end());
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
    if (first.substr(0, 2) != "--") {
      if (auto err = LoadConfigFile(argv[1], &result.config)) {
        result.action = CommandLine::Action::kError;
        result.error = *err;
        return result;
      }
      i = 2;
    }
  }
  // "--name v1 v2 --other v" becomes one "name v1 v2" line per option, quoted so that empty
  // values (--save "") and values with blanks survive, as redis-server does.
  std::string text;
  for (; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg.substr(0, 2) == "--" && arg.size() > 2) {
      if (!text.empty()) text += '\n';
      text += arg.substr(2);
      continue;
    }
    if (text.empty()) {
      result.action = CommandLine::Action::kError;
      result.error = "Invalid argument '" + std::string(arg) + "': options are --name value";
      return result;
    }
    text += " \"";
    for (char c : arg) {
      if (c == '"' || c == '\\') text += '\\';
      text += c;
    }
    text += '"';
  }
  if (auto err = ApplyConfigText(text, "the command line", &result.config)) {
    result.action = CommandLine::Action::kError;
    result.error = *err;
  }
  return result;
}

}  // namespace kv
