// Server: FLUSHDB, FLUSHALL, DBSIZE, SHUTDOWN, CONFIG, INFO, ROLE.

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/commands/help.h"
#include "server/commands/local_client.h"
#include "server/config_rewrite.h"
#include "server/errors.h"
#include "server/glob.h"
#include "server/info.h"
#include "server/persistence/aof.h"
#include "server/persistence/snapshot.h"
#include "server/strings.h"

namespace kv {
namespace {

// FLUSHDB/FLUSHALL [ASYNC|SYNC], as Redis's getFlushCommandFlags: without either,
// lazyfree-lazy-user-flush decides whether the tables are freed lazily (server/lazy_free.h).
bool ParseFlushArgs(CommandContext& ctx, bool* async) {
  *async = ctx.server.config.lazyfree_lazy_user_flush;
  if (ctx.args.size() == 1) return true;
  if (ctx.args.size() == 2 && OptionIs(ctx.args[1], "sync")) {
    *async = false;
    return true;
  }
  if (ctx.args.size() == 2 && OptionIs(ctx.args[1], "async")) {
    *async = true;
    return true;
  }
  ctx.reply.Error(errors::kSyntax);
  return false;
}

void FlushDb(CommandContext& ctx) {
  bool async = false;
  if (!ParseFlushArgs(ctx, &async)) return;
  ctx.CountChanges(ctx.db().size());  // every key removed, as Redis's emptyData counts them
  // Redis's signalFlushedDb, while the keys are still there: watchers fail, caches are invalidated.
  ctx.server.SignalFlushedDb(static_cast<int64_t>(ctx.conn.db_index));
  ctx.db().Clear(async);
  ctx.reply.Ok();
  // Propagated even when there was nothing to remove (Redis's forceCommandPropagation).
  ctx.ForcePropagation();
}

void FlushAll(CommandContext& ctx) {
  bool async = false;
  if (!ParseFlushArgs(ctx, &async)) return;
  ctx.CountChanges(ctx.server.dbs.TotalKeys());
  ctx.server.SignalFlushedDb(-1);
  ctx.server.dbs.FlushAll(async);
  // Redis's flushAllDataAndResetRDB: a BGSAVE child's snapshot is stale now, and with save points
  // the empty dataset is saved at once (which also resets the changes counted since the last save).
  KillBackgroundSave(ctx.server);
  if (!ctx.server.config.save.empty()) SaveSnapshot(ctx.server);
  ctx.reply.Ok();
  ctx.ForcePropagation();
}

void DbSize(CommandContext& ctx) { ctx.reply.Integer(static_cast<int64_t>(ctx.db().size())); }

void Shutdown(CommandContext& ctx) {
  bool save = false, nosave = false, abort = false, other = false, force = false;
  for (size_t i = 1; i < ctx.args.size(); ++i) {
    std::string_view a = ctx.args[i];
    if (OptionIs(a, "nosave")) {
      nosave = true;
    } else if (OptionIs(a, "save")) {
      save = true;
    } else if (OptionIs(a, "now") || OptionIs(a, "force")) {
      other = true;
      force = force || OptionIs(a, "force");
    } else if (OptionIs(a, "abort")) {
      abort = true;
    } else {
      return ctx.reply.Error(errors::kSyntax);
    }
  }
  if ((abort && (save || nosave || other)) || (save && nosave)) {
    return ctx.reply.Error(errors::kSyntax);
  }
  // A shutdown is left pending only by a signal while DEBUG PAUSE-CRON holds the cron (Redis's
  // shutdown_asap, which its cron acts on): ABORT cancels it, as Redis's abortShutdown.
  if (abort) {
    if (ctx.server.shutdown_signal == 0) return ctx.reply.Error("No shutdown in progress.");
    ctx.server.shutdown_signal = 0;
    spdlog::warn("Shutdown manually aborted.");
    return ctx.reply.Ok();
  }
  // Redis's prepareForShutdown: a BGSAVE child goes; the final snapshot is saved when save points
  // are set (unless NOSAVE) or SAVE asks for it, and a failed save stops the shutdown unless FORCE.
  if (!FinalSave(ctx.server, save, nosave, force)) {
    return ctx.reply.Error("Errors trying to SHUTDOWN. Check logs.");
  }
  // Like Redis, a successful SHUTDOWN sends no reply: the connection just closes.
  ctx.conn.close_after_reply = true;
  if (ctx.server.request_shutdown) ctx.server.request_shutdown();
}

void ConfigGet(CommandContext& ctx) {
  // Each match with the name to reply with: like Redis, a pattern without glob characters is
  // looked up by name or alias (case-insensitively) and answered with the spelling the client
  // used; a glob lists names and aliases alike, except hidden directives.
  std::vector<std::pair<const Directive*, std::string_view>> matches;
  std::set<std::string_view> seen;  // lower-case names already listed
  std::vector<std::string> exact_names;
  exact_names.reserve(ctx.args.size());
  for (size_t i = 2; i < ctx.args.size(); ++i) {
    std::string_view pattern = ctx.args[i];
    const bool glob =
        pattern.substr(0, pattern.find('\0')).find_first_of("[*?") != std::string_view::npos;
    if (!glob) {
      const Directive* d = FindDirective(pattern);
      if (d == nullptr || seen.count(d->name) != 0) continue;
      seen.insert(d->name);
      matches.emplace_back(d, pattern);
      continue;
    }
    for (const Directive& d : Directives()) {
      if (d.is(kHiddenConfig) || seen.count(d.name) != 0) continue;
      if (GlobMatch(pattern, d.name, true)) {
        seen.insert(d.name);
        matches.emplace_back(&d, d.name);
      }
    }
  }
  ctx.reply.MapHeader(matches.size());
  for (const auto& [d, name] : matches) {
    ctx.reply.Bulk(name);
    ctx.reply.Bulk(d->Get(ctx.server.config));
  }
}

// Redis's sdssplitlen(value, " "): one word per single space, empty words kept, and an empty
// value gives no words at all. This is how CONFIG SET splits multi-word values (bind, save).
std::vector<std::string> SplitOnSpaces(std::string_view value) {
  std::vector<std::string> words;
  if (value.empty()) return words;
  size_t start = 0;
  while (true) {
    const size_t space = value.find(' ', start);
    words.emplace_back(value.substr(start, space - start));
    if (space == std::string_view::npos) break;
    start = space + 1;
  }
  return words;
}

// Redis's updateMaxmemory.
void WarnIfBelowUsedMemory(uint64_t maxmemory, uint64_t old_maxmemory) {
  if (maxmemory == 0 || maxmemory == old_maxmemory) return;
  const size_t used = UsedMemory();
  if (maxmemory < used) {
    spdlog::warn(
        "WARNING: the new maxmemory value set via CONFIG SET ({}) is smaller than the current "
        "memory usage ({}). This will result in key eviction and/or the inability to accept new "
        "write commands depending on the maxmemory-policy.",
        maxmemory, used);
  }
}

std::string CurrentDirectory() {
  char buf[4096];
  return ::getcwd(buf, sizeof(buf)) != nullptr ? std::string(buf) : std::string();
}

// CONFIG SET name value [name value ...], as Redis's configSetCommand: every name is checked
// first and the first problem found (unknown, immutable, protected, duplicate) is the error;
// then every value is set on a copy, so one bad value changes nothing; then the changes are put
// into effect (listeners, ...), and if that fails everything is restored.
void ConfigSet(CommandContext& ctx) {
  if (ctx.args.size() % 2 != 0) return ctx.reply.Error(errors::kSyntax);
  std::vector<const Directive*> targets;
  std::string unknown, error_arg, error_text;
  bool invalid = false, deny_loading = false;
  for (size_t i = 2; i < ctx.args.size(); i += 2) {
    // Redis reads names as C strings.
    const std::string_view name = ctx.args[i].substr(0, ctx.args[i].find('\0'));
    const Directive* d = FindDirective(name);
    if (d == nullptr) {
      if (!invalid) unknown = std::string(name);
      invalid = true;
      continue;
    }
    // Redis's SENSITIVE_CONFIG: the value never reaches SLOWLOG, even when CONFIG SET fails.
    if (d->is(kSensitiveConfig)) ctx.Redact(i + 1);
    if (invalid) continue;
    if (d->is(kImmutableConfig) ||
        (d->is(kProtectedConfig) &&
         !ProtectedActionAllowed(ctx.server.config.enable_protected_configs, IsLocalClient(ctx)))) {
      error_arg = std::string(name);
      error_text =
          d->is(kImmutableConfig) ? "can't set immutable config" : "can't set protected config";
      invalid = true;
    } else if (ctx.server.persistence.loading &&
               (d->primary() == "dir" || d->primary() == "appendonly" ||
                d->primary() == "repl-diskless-load")) {
      // Redis's DENY_LOADING_CONFIG directives.
      deny_loading = invalid = true;
    } else {
      // As Redis, an alias and its primary are different entries: only a repeated name counts.
      for (const Directive* t : targets) {
        if (t == d) {
          error_arg = std::string(name);
          error_text = "duplicate parameter";
          invalid = true;
          break;
        }
      }
    }
    targets.push_back(d);
  }
  // The loading error comes first: clients may handle it differently from a plain ERR.
  if (deny_loading) return ctx.reply.Error(errors::kLoading);
  if (!unknown.empty() || (invalid && error_arg.empty())) {
    return ctx.reply.Error("Unknown option or number of arguments for CONFIG SET - '" + unknown +
                           "'");
  }
  auto fail = [&] {
    ctx.reply.Error("CONFIG SET failed (possibly related to argument '" + error_arg + "') - " +
                    error_text);
  };
  if (invalid) return fail();

  // dir changes the working directory as it is set: a later failure must change it back.
  const std::string old_cwd = CurrentDirectory();
  auto restore_cwd = [&] {
    if (!old_cwd.empty() && CurrentDirectory() != old_cwd) {
      [[maybe_unused]] const int rc = ::chdir(old_cwd.c_str());
    }
  };
  Config updated = ctx.server.config;
  for (size_t t = 0; t < targets.size(); ++t) {
    std::string_view value = ctx.args[3 + 2 * t];
    std::vector<std::string> args;
    if (targets[t]->is(kMultiArgConfig)) {
      args = SplitOnSpaces(value);
    } else {
      args.emplace_back(value);
    }
    if (auto err = targets[t]->Set(updated, args)) {
      error_arg = std::string(targets[t]->name);  // Redis names an alias as such
      error_text = *err;
      restore_cwd();
      return fail();
    }
  }
  // Redis's updateMaxclients: a higher maxclients needs the descriptors to go with it.
  if (updated.maxclients > ctx.server.config.maxclients) {
    const int64_t fits = MaxClientsAfterRaisingFileLimit(updated.maxclients);
    if (fits != updated.maxclients) {
      error_arg = "maxclients";
      error_text =
          "The operating system is not able to handle the specified number of clients, try "
          "with " +
          std::to_string(fits);
      restore_cwd();
      return fail();
    }
  }
  Config old = std::move(ctx.server.config);
  ctx.server.config = std::move(updated);
  if (ctx.server.apply_config) {
    if (auto err = ctx.server.apply_config(old)) {
      spdlog::warn(
          "Failed applying new configuration. Possibly related to new {} setting. Restoring "
          "previous settings.",
          err->directive);
      Config failed = std::move(ctx.server.config);
      ctx.server.config = std::move(old);
      restore_cwd();
      ctx.server.apply_config(failed);
      error_arg = err->directive;
      error_text = err->message;
      return fail();
    }
  }
  ctx.server.ApplyStorageConfig();
  WarnIfBelowUsedMemory(ctx.server.config.maxmemory, old.maxmemory);
  if (ctx.server.config_changed) ctx.server.config_changed();
  ctx.reply.Ok();
}

// CONFIG REWRITE: the file the server was started with, rewritten in place as Redis does.
void ConfigRewrite(CommandContext& ctx) {
  const std::string& path = ctx.server.config.config_file;
  if (path.empty()) return ctx.reply.Error("The server is running without a config file");
  if (auto err = RewriteConfigFile(path, ctx.server.config)) {
    spdlog::warn("CONFIG REWRITE failed: {}", err->substr(err->find(": ") + 2));
    return ctx.reply.Error(*err);
  }
  spdlog::warn("CONFIG REWRITE executed with success.");
  ctx.reply.Ok();
}

void ConfigResetStat(CommandContext& ctx) {
  // Redis's resetServerStats, resetCommandTableStats and resetErrorTableStats.
  ctx.server.stats = ServerStats{};
  for (CommandStats& stats : ctx.server.command_stats) stats = CommandStats{};
  ctx.server.error_stats.Reset();
  ctx.server.persistence.rdb_saves = 0;
  ctx.server.persistence.child_info.ResetForkStats();
  if (ctx.server.aof) ctx.server.aof->ResetStats();
  ctx.server.lazy_freer.ResetFreedObjects();
  ctx.reply.Ok();
}

void ConfigHelp(CommandContext& ctx) {
  ReplyHelp(
      ctx, "config",
      {"GET <pattern>", "    Return parameters matching the glob-like <pattern> and their values.",
       "SET <directive> <value>", "    Set the configuration <directive> to <value>.", "RESETSTAT",
       "    Reset statistics reported by the INFO command.", "REWRITE",
       "    Rewrite the configuration file."});
}

// Never reached with a subcommand; CONFIG alone fails the arity check first.
void ConfigContainer(CommandContext& ctx) { ctx.reply.Error(WrongArityError("config")); }

void Info(CommandContext& ctx) {
  std::vector<std::string_view> sections(ctx.args.begin() + 1, ctx.args.end());
  ctx.reply.Verbatim(BuildInfo(ctx.server, sections, ctx.now_ms));
}

constexpr uint32_t kAdmin = kCmdAdmin | kCmdNoScript;

// ROLE of a Redis master without replicas: ["master", replication offset 0, no replicas].
void Role(CommandContext& ctx) {
  ctx.reply.ArrayHeader(3);
  ctx.reply.Bulk("master");
  ctx.reply.Integer(0);
  ctx.reply.ArrayHeader(0);
}

}  // namespace

void RegisterServerFamily(CommandRegistry& r) {
  r.Register({"flushdb", -1, kCmdWrite, 0, 0, 0, FlushDb, "server",
              "Remove all keys from the current database", "1.0.0",
              "@keyspace @write @slow @dangerous"});
  r.Register({"role", 1, kCmdNoScript | kCmdLoading | kCmdStale | kCmdFast, 0, 0, 0, Role, "server",
              "Return the role of the instance in the context of replication", "2.8.12",
              "@admin @fast @dangerous"});
  r.Register({"flushall", -1, kCmdWrite, 0, 0, 0, FlushAll, "server",
              "Remove all keys from all databases", "1.0.0", "@keyspace @write @slow @dangerous"});
  r.Register({"dbsize", 1, kCmdReadOnly | kCmdFast, 0, 0, 0, DbSize, "server",
              "Return the number of keys in the selected database", "1.0.0",
              "@keyspace @read @fast"});
  r.Register({"shutdown", -1, kAdmin | kCmdLoading | kCmdStale | kCmdNoMulti | kCmdAllowBusy, 0, 0,
              0, Shutdown, "server",
              "Synchronously save the dataset to disk and then shut down the server", "1.0.0",
              "@admin @slow @dangerous"});
  r.Register({"info", -1, kCmdLoading | kCmdStale, 0, 0, 0, Info, "server",
              "Get information and statistics about the server", "1.0.0", "@slow @dangerous"});
  r.Register(
      {"config",
       -2,
       0,
       0,
       0,
       0,
       ConfigContainer,
       "server",
       "A container for server configuration commands",
       "2.0.0",
       "@slow",
       {
           {"get", -3, kAdmin | kCmdLoading | kCmdStale, 0, 0, 0, ConfigGet, "server",
            "Get the values of configuration parameters", "2.0.0", "@admin @slow @dangerous"},
           {"set", -4, kAdmin | kCmdLoading | kCmdStale, 0, 0, 0, ConfigSet, "server",
            "Set configuration parameters to the given values", "2.0.0", "@admin @slow @dangerous"},
           {"resetstat", 2, kAdmin | kCmdLoading | kCmdStale, 0, 0, 0, ConfigResetStat, "server",
            "Reset the stats returned by INFO", "2.0.0", "@admin @slow @dangerous"},
           {"rewrite", 2, kAdmin | kCmdLoading | kCmdStale, 0, 0, 0, ConfigRewrite, "server",
            "Rewrite the configuration file with the in memory configuration", "2.8.0",
            "@admin @slow @dangerous"},
           {"help", 2, kCmdLoading | kCmdStale, 0, 0, 0, ConfigHelp, "server",
            "Show helpful text about the different subcommands", "5.0.0", "@slow"},
       }});
}

}  // namespace kv
