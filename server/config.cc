// Loading configuration: redis.conf text (Redis's loadServerConfigFromString), files with
// `include`, the command line (Redis's main()), and the checks and helpers around them.

#include "server/config.h"

#include <glob.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "protocol/inline_splitter.h"
#include "server/command_registry.h"
#include "server/config_directive.h"
#include "server/config_missing_features.h"
#include "server/strings.h"
#include "server/version.h"

namespace kv {
namespace {

// The words of Redis's CONFIG REWRITE line for its default user (kDefaultUserLine), however the
// line quotes them.
bool IsDefaultUserLine(const std::vector<std::string_view>& words) {
  std::vector<std::string_view> expected;
  std::string storage;
  SplitInlineArgs(kDefaultUserLine, &storage, &expected);
  return words == expected;
}

constexpr std::string_view kPolicyNames[] = {"volatile-lru",   "volatile-lfu", "volatile-random",
                                             "volatile-ttl",   "allkeys-lru",  "allkeys-lfu",
                                             "allkeys-random", "noeviction"};

bool HasGlob(std::string_view path) { return path.find_first_of("*?[") != std::string_view::npos; }

// Redis reads configuration files with fgets and sdscat: a NUL byte ends what is kept of a line.
void AppendFileText(std::istream& in, std::string* text) {
  std::string line;
  while (std::getline(in, line)) {
    *text += line.substr(0, line.find('\0'));
    if (!in.eof()) *text += '\n';
  }
}

std::optional<ConfigError> CannotOpen(const std::string& path) {
  ConfigError e;
  e.cannot_open_file = true;
  e.reason = "Fatal error, can't open config file '" + path + "': " + std::strerror(errno);
  return e;
}

// The command names rename-command may still use: the command table's, as renamed so far.
class CommandNames {
 public:
  explicit CommandNames(const Config& config) {
    static const CommandRegistry registry = BuildCommandRegistry();
    for (const CommandSpec* spec : registry.All()) names_.insert(std::string(spec->name));
    for (const auto& [from, to] : config.renamed_commands) Rename(from, to);
  }
  bool Has(std::string_view name) const { return names_.count(ToLower(name)) != 0; }
  void Rename(std::string_view from, std::string_view to) {
    names_.erase(ToLower(from));
    if (!to.empty()) names_.insert(ToLower(to));
  }

 private:
  std::set<std::string> names_;
};

// Redis's loadServerConfigFromString over configuration text (and the files it includes), then
// the checks on the whole: directives whose final value needs a missing feature, and the default
// user's line beside a password.
class Loader {
 public:
  explicit Loader(Config* config) : config_(config) {}

  std::optional<ConfigError> Load(std::string_view text);

 private:
  std::optional<ConfigError> Apply(std::string_view text, int depth);
  std::optional<ConfigError> Include(const std::string& pattern, int depth);

  Config* config_;
  // Where each directive was last set, for errors about its final value.
  std::map<std::string, ConfigError> last_set_;
  // Where "user default on nopass ..." was, if anywhere: with requirepass also set, Redis
  // would end up without a password (users are loaded after it), so kvserver refuses that.
  std::optional<ConfigError> default_user_line_;
  // The first save line replaces the default save points; later ones add to it (Redis's
  // setConfigSaveOption while reading the configuration).
  bool save_loaded_ = false;
};

std::optional<ConfigError> Loader::Include(const std::string& pattern, int depth) {
  // Redis recurses without a limit; a file that includes itself would never end.
  if (depth > 64) {
    ConfigError e;
    e.reason = "Too many nested include directives";
    return e;
  }
  std::string text;
  if (HasGlob(pattern)) {
    // With a wildcard, no match is fine (an empty conf.d); a match that cannot be read is not.
    glob_t matches{};
    if (::glob(pattern.c_str(), 0, nullptr, &matches) == 0) {
      for (size_t i = 0; i < matches.gl_pathc; ++i) {
        std::ifstream in(matches.gl_pathv[i]);
        if (!in) {
          auto err = CannotOpen(matches.gl_pathv[i]);
          ::globfree(&matches);
          return err;
        }
        AppendFileText(in, &text);
      }
      ::globfree(&matches);
    }
  } else if (auto err = ReadConfigFile(pattern, &text)) {
    return err;
  }
  return Apply(text, depth + 1);
}

std::optional<ConfigError> Loader::Apply(std::string_view text, int depth) {
  int line_no = 0;
  std::string storage, sub_storage;
  std::vector<std::string_view> words, sub_words;
  while (true) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    ++line_no;
    const std::string trimmed(StripChars(line, " \t\r\n"));
    auto fail = [&](std::string reason, std::string_view directive = {}) {
      ConfigError e;
      e.reason = std::move(reason);
      e.line_no = line_no;
      e.line = trimmed;
      e.directive = std::string(directive);
      return e;
    };
    if (!trimmed.empty() && trimmed[0] != '#') {
      if (!SplitInlineArgs(trimmed, &storage, &words)) {
        return fail("Unbalanced quotes in configuration line");
      }
      if (!words.empty()) {
        const std::string name = ToLower(words[0]);
        const size_t argc = words.size();
        if (const Directive* d = FindDirective(name)) {
          const bool multi = d->is(kMultiArgConfig);
          if (!multi && argc != 2) return fail("wrong number of arguments", words[0]);
          ConfigArgs args;
          if (multi && argc == 2 && !words[1].empty()) {
            // One word given to a multi-word directive is split, so that --bind "a b" and
            // --save "3600 1" work; unbalanced quotes in it give no words at all, as in Redis.
            if (SplitInlineArgs(words[1], &sub_storage, &sub_words)) {
              args.assign(sub_words.begin(), sub_words.end());
            }
          } else {
            args.assign(words.begin() + 1, words.end());
          }
          if (d->primary() == "save" && !save_loaded_) {
            save_loaded_ = true;
            config_->save.clear();
          }
          if (auto err = SetDirectiveChecked(*d, *config_, args, SetMode::kLoading)) {
            return fail(*err, words[0]);
          }
          last_set_[std::string(d->primary())] = fail("", words[0]);
        } else if ((name == "list-max-ziplist-entries" || name == "list-max-ziplist-value" ||
                    name == "lua-replicate-commands") &&
                   argc == 2) {
          // Directives Redis 7 no longer uses and still accepts.
        } else if (name == "include" && argc == 2) {
          if (auto err = Include(std::string(words[1]), depth)) return err;
        } else if (name == "rename-command" && argc == 3) {
          CommandNames names(*config_);
          if (!names.Has(words[1])) return fail("No such command in rename-command", words[0]);
          if (!words[2].empty() && names.Has(words[2])) {
            return fail("Target command name already exists", words[0]);
          }
          config_->renamed_commands.emplace_back(ToLower(words[1]), ToLower(words[2]));
        } else if (name == "user" && argc >= 2) {
          // Redis's CONFIG REWRITE writes the default user's line: that one describes what
          // kvserver does, as long as no password is set.
          if (!IsDefaultUserLine(words) || !config_->requirepass.empty()) {
            return fail(MissingFeatureError(name), words[0]);
          }
          default_user_line_ = fail(MissingFeatureError(name), words[0]);
        } else if (name == "loadmodule" && argc >= 2) {
          return fail(MissingFeatureError(name), words[0]);
        } else if (name.find('.') != std::string::npos) {
          if (argc < 2) return fail("Module config specified without value", words[0]);
          return fail(MissingFeatureError("<module>.<config>"), words[0]);
        } else if (name == "sentinel") {
          // Alone it is a no-op outside Sentinel mode (redis-server's --sentinel decides).
          if (argc != 1) {
            return fail("sentinel directive while not in sentinel mode", words[0]);
          }
        } else {
          return fail("Bad directive or wrong number of arguments", words[0]);
        }
      }
    }
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return std::nullopt;
}

std::optional<ConfigError> Loader::Load(std::string_view text) {
  if (auto err = Apply(text, 0)) return err;
  // The final values that need a feature kvserver lacks, reported at the line that set them.
  for (const MissingFeature& f : MissingFeatures()) {
    if (f.needs_feature == nullptr || !f.needs_feature(*config_)) continue;
    auto it = last_set_.find(std::string(f.directive));
    ConfigError e = it != last_set_.end() ? it->second : ConfigError{};
    e.reason = MissingFeatureError(f.directive);
    if (e.directive.empty()) e.directive = std::string(f.directive);
    return e;
  }
  if (default_user_line_ && !config_->requirepass.empty()) return default_user_line_;
  return std::nullopt;
}

bool StartsWithDashes(std::string_view arg) {
  return arg.size() >= 2 && arg[0] == '-' && arg[1] == '-';
}

}  // namespace

std::string ConfigError::Fatal() const {
  if (cannot_open_file) return reason;
  std::string out =
      "\n*** FATAL CONFIG FILE ERROR (Redis " + std::string(kRedisCompatVersion) + ") ***\n";
  if (line_no > 0) {
    out += "Reading the configuration file, at line " + std::to_string(line_no) + "\n";
    out += ">>> '" + line + "'\n";
  }
  out += reason + "\n";
  return out;
}

std::string ConfigError::Short() const {
  if (directive.empty()) return reason;
  return directive + ": " + reason;
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

std::optional<ConfigError> ApplyConfigText(std::string_view text, Config* config) {
  return Loader(config).Load(text);
}

std::optional<ConfigError> CheckLoadedConfig(const Config& config) {
  if (!config.logfile.empty()) {
    // Redis makes sure it can open the log file now: it could not say so later.
    std::FILE* f = std::fopen(config.logfile.c_str(), "a");
    if (f == nullptr) {
      ConfigError e;
      e.reason = std::string("Can't open the log file: ") + std::strerror(errno);
      return e;
    }
    std::fclose(f);
  }
  if (config.cluster_enabled && !config.replicaof_host.empty()) {
    ConfigError e;
    e.reason = "replicaof directive not allowed in cluster mode";
    return e;
  }
  return std::nullopt;
}

std::optional<ConfigError> ReadConfigFile(const std::string& path, std::string* text) {
  std::ifstream in(path);
  if (!in) return CannotOpen(path);
  AppendFileText(in, text);
  return std::nullopt;
}

std::optional<ConfigError> LoadConfigFile(const std::string& path, Config* config) {
  std::string text;
  if (auto err = ReadConfigFile(path, &text)) return err;
  std::error_code ec;
  auto abs = std::filesystem::absolute(path, ec);
  config->config_file = ec ? path : abs.string();
  return ApplyConfigText(text, config);
}

std::string QuoteConfigArg(std::string_view arg) {
  std::string out;
  AppendRepr(out, arg);
  return out;
}

CommandLine ParseCommandLine(int argc, const char* const* argv) {
  CommandLine result;
  if (argc < 2) return result;  // no arguments: the defaults, nothing to read
  const std::string_view first = argv[1];
  if (first == "-v" || first == "--version") {
    result.action = CommandLine::Action::kVersion;
    return result;
  }
  if (first == "--help" || first == "-h") {
    result.action = CommandLine::Action::kHelp;
    return result;
  }
  auto fail = [&](ConfigError e) {
    result.action = CommandLine::Action::kError;
    result.error = std::move(e);
    return result;
  };
  // Redis's main(): the file's text, then stdin's ("-" first or last), then the options, form
  // one text, so that line numbers in errors count on from the file.
  std::string text;
  int i = 1;
  if (first.empty() || first[0] != '-') {
    // Only a first argument that does not start with '-' is a file, read (and named in errors)
    // by its absolute path, as Redis does.
    std::error_code ec;
    auto abs = std::filesystem::absolute(argv[1], ec);
    result.config.config_file = ec ? argv[1] : abs.string();
    if (auto err = ReadConfigFile(result.config.config_file, &text)) return fail(*err);
    i = 2;
  }
  // "--name v1 v2 --other v" becomes the lines "name v1 v2" and "other v", each value quoted
  // (sdscatrepr) so that empty values and values with blanks survive. A word that starts with
  // "--" right after a bare option name is that option's value, except that a bare --save
  // before another option or at the end means --save "".
  std::string options;
  bool have_value = true;  // Redis's handled_last_config_arg
  for (; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "-" && (i == 1 || i == argc - 1)) {
      result.config_from_stdin = true;
      continue;
    }
    if (have_value && StartsWithDashes(arg)) {
      if (EqualsIgnoreCase(arg, "--sentinel")) {
        ConfigError e;
        e.reason = MissingFeatureError("sentinel");
        return fail(e);
      }
      if (!options.empty()) options += '\n';
      options += arg.substr(2);
      options += ' ';
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
          options += "\"\"";
          have_value = !last;
        }
      }
      continue;
    }
    // A value with no option before it becomes a line of its own, which then fails as an unknown
    // directive, as in Redis.
    AppendRepr(options, arg);
    options += ' ';
    have_value = true;
  }
  if (result.config_from_stdin) AppendFileText(std::cin, &text);
  text += '\n';
  text += options;
  if (auto err = ApplyConfigText(text, &result.config)) return fail(*err);
  return result;
}

}  // namespace kv
