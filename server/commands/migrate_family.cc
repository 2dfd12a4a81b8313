// MIGRATE: moves keys to another instance (kvserver or Redis) as Redis's migrateCommand does:
// each value as its DUMP payload in a RESTORE, pipelined on a cached connection, then deleted
// here once the target acknowledged it (unless COPY). Synchronous, like Redis: the event loop
// waits for the target, each wait bounded by the command's timeout.

#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "protocol/number.h"
#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/commands/lookup.h"
#include "server/commands/migrate_keys.h"
#include "server/errors.h"
#include "server/keyspace_events.h"
#include "server/persistence/dump_payload.h"
#include "server/persistence/migrate_client.h"
#include "server/persistence/propagation.h"
#include "server/strings.h"

namespace kv {
namespace {

constexpr size_t kWriteChunk = 64 * 1024;  // Redis writes the pipeline in 64 KB chunks

struct MigrateOptions {
  bool copy = false;
  bool replace = false;
  std::string_view username, password;  // empty data(): none given
  size_t first_key = 3;
  size_t num_keys = 1;
};

// The options after the timeout; false after replying an error.
bool ParseOptions(CommandContext& ctx, MigrateOptions* o) {
  const auto& args = ctx.args;
  for (size_t j = 6; j < args.size(); ++j) {
    const size_t more = args.size() - 1 - j;
    if (OptionIs(args[j], "copy")) {
      o->copy = true;
    } else if (OptionIs(args[j], "replace")) {
      o->replace = true;
    } else if (OptionIs(args[j], "auth")) {
      if (more == 0) return ctx.reply.Error(errors::kSyntax), false;
      o->password = args[++j];
      ctx.Redact(j);
    } else if (OptionIs(args[j], "auth2")) {
      if (more < 2) return ctx.reply.Error(errors::kSyntax), false;
      o->username = args[++j];
      ctx.Redact(j);
      o->password = args[++j];
      ctx.Redact(j);
    } else if (OptionIs(args[j], "keys")) {
      if (!args[3].empty()) {
        ctx.reply.Error(
            "When using MIGRATE KEYS option, the key argument must be set to the empty string");
        return false;
      }
      o->first_key = j + 1;
      o->num_keys = args.size() - j - 1;
      break;  // every remaining argument is a key
    } else {
      return ctx.reply.Error(errors::kSyntax), false;
    }
  }
  return true;
}

// The pipeline: AUTH, SELECT when the connection's database differs, then one RESTORE per key
// still alive (the keys sent are left in `keys`).
std::string BuildPipeline(CommandContext& ctx, const MigrateOptions& o, int64_t dbid, bool select,
                          std::vector<std::string_view>* keys) {
  std::string cmd;
  if (o.password.data() != nullptr) {
    // AUTH [username] password
    const std::string_view auth2[] = {"AUTH", o.username, o.password};
    const std::string_view auth[] = {"AUTH", o.password};
    if (o.username.data() != nullptr) {
      AppendRespCommand(cmd, auth2);
    } else {
      AppendRespCommand(cmd, auth);
    }
  }
  if (select) {
    const std::string db_text = std::to_string(dbid);
    const std::string_view select_db[] = {"SELECT", db_text};
    AppendRespCommand(cmd, select_db);
  }
  Db& db = ctx.db();
  const int64_t now = ctx.server.clock->NowMs();
  size_t alive = 0;
  for (std::string_view key : *keys) {
    // A key may have expired since it was looked up: it is left out, as Redis does.
    const Value* v = db.Peek(key, ctx.now_ms);
    if (v == nullptr) continue;
    int64_t ttl = 0;
    if (const int64_t at = db.GetExpire(key); at != kNoExpiry) {
      ttl = at - now;
      if (ttl < 0) continue;
      if (ttl < 1) ttl = 1;
    }
    auto payload = CreateDumpPayload(*v, ctx.server.config.rdbcompression);
    if (!payload) continue;
    (*keys)[alive++] = key;
    const std::string ttl_text = std::to_string(ttl);
    const std::string_view restore[] = {"RESTORE", key, ttl_text, *payload, "REPLACE"};
    AppendRespCommand(cmd, std::span(restore, o.replace ? 5 : 4));
  }
  keys->resize(alive);
  return cmd;
}

bool WritePipeline(MigrateSocket& s, std::string_view cmd, int64_t timeout_ms) {
  for (size_t pos = 0; pos < cmd.size(); pos += kWriteChunk) {
    if (!s.Write(cmd.substr(pos, kWriteChunk), timeout_ms)) return false;
  }
  return true;
}

// One attempt on connection `s`: the pipeline written, the replies read, the acknowledged keys
// deleted (and propagated as DEL). kSocketError asks the caller to drop the connection and,
// while `*may_retry`, try again on a new one.
enum class Attempt { kDone, kSocketError };
Attempt TryMigrate(CommandContext& ctx, const MigrateOptions& o, int64_t dbid, int64_t timeout,
                   MigrateSocket& s, std::vector<std::string_view>* keys, bool* write_error,
                   bool* may_retry) {
  const bool auth = o.password.data() != nullptr;
  const bool select = s.last_dbid != dbid;
  const std::string cmd = BuildPipeline(ctx, o, dbid, select, keys);
  if (!WritePipeline(s, cmd, timeout)) {
    *write_error = true;
    return Attempt::kSocketError;
  }
  std::string auth_reply, select_reply, reply;
  if (auth && !s.ReadLine(&auth_reply, timeout)) return Attempt::kSocketError;
  if (select && !s.ReadLine(&select_reply, timeout)) return Attempt::kSocketError;

  const bool auth_failed = auth && auth_reply.starts_with('-');
  const bool select_failed = select && select_reply.starts_with('-');
  bool error_from_target = false, socket_error = false;
  std::vector<std::string> del;  // the keys the target acknowledged, as a DEL
  size_t read = 0;
  for (; read < keys->size(); ++read) {
    if (!s.ReadLine(&reply, timeout)) {
      socket_error = true;
      break;
    }
    if (auth_failed || select_failed || reply.starts_with('-')) {
      if (!error_from_target) {
        s.last_dbid = -1;  // the target's database is no longer known
        const std::string& e = auth_failed ? auth_reply : select_failed ? select_reply : reply;
        ctx.reply.Error("Target instance replied with error: " + e.substr(1));
        error_from_target = true;
      }
    } else if (!o.copy) {
      const std::string_view key = (*keys)[read];
      ctx.db().Delete(key, ctx.now_ms, ctx.server.config.lazyfree_lazy_server_del);
      ctx.KeyModified(key);
      ctx.Notify(kNotifyGeneric, "del", key);
      ctx.CountChanges();
      if (ctx.Propagating()) {
        if (del.empty()) del.emplace_back("DEL");
        del.emplace_back(key);
      }
    }
  }
  // Nothing was processed on a (likely stale) cached connection: retried, unless timed out.
  if (!error_from_target && socket_error && read == 0 && *may_retry && !s.timed_out()) {
    return Attempt::kSocketError;
  }
  if (!del.empty()) ctx.PropagateAs(std::move(del));
  if (!error_from_target && socket_error) {
    *may_retry = false;  // some keys moved: the error is reported, never retried
    return Attempt::kSocketError;
  }
  if (!error_from_target) {
    s.last_dbid = dbid;  // SELECT is skipped next time
    ctx.reply.Ok();
  }
  return Attempt::kDone;
}

// MIGRATE host port key|"" destination-db timeout [COPY] [REPLACE] [AUTH password]
//   [AUTH2 username password] [KEYS key [key ...]]
void Migrate(CommandContext& ctx) {
  MigrateOptions o;
  if (!ParseOptions(ctx, &o)) return;
  auto timeout = ParseInt64(ctx.args[5]);
  if (!timeout) return ctx.reply.Error(errors::kNotInteger);
  auto dbid = ParseInt64(ctx.args[4]);
  if (!dbid) return ctx.reply.Error(errors::kNotInteger);
  if (*timeout <= 0) *timeout = 1000;

  // Only the keys here go; none at all is not an error (they may just have expired).
  std::vector<std::string_view> keys;
  for (size_t j = 0; j < o.num_keys; ++j) {
    const std::string_view key = ctx.args[o.first_key + j];
    if (LookupRead(ctx, key) != nullptr) keys.push_back(key);
  }
  if (keys.empty()) return ctx.reply.SimpleString("NOKEY");

  const std::string_view host = ctx.args[1], port = ctx.args[2];
  MigrateSocketCache& cache = ctx.server.migrate_sockets;
  bool may_retry = true;
  while (true) {
    MigrateSocket* s = cache.Get(host, port, *timeout, ctx.now_ms / 1000);
    if (s == nullptr) return ctx.reply.Error("-IOERR error or timeout connecting to the client");
    bool write_error = false;
    if (TryMigrate(ctx, o, *dbid, *timeout, *s, &keys, &write_error, &may_retry) ==
        Attempt::kDone) {
      return;
    }
    // A socket error: the connection is dropped (which also forgets its database); a cached
    // connection the target closed meanwhile gets one more try.
    const bool timed_out = s->timed_out();
    cache.Close(host, port);
    if (!timed_out && may_retry) {
      may_retry = false;
      continue;
    }
    return ctx.reply.Error(absl::StrCat(
        "-IOERR error or timeout ", write_error ? "writing" : "reading", " to target instance"));
  }
}

}  // namespace

std::vector<size_t> MigrateGetKeys(std::span<const std::string_view> argv) {
  size_t first = 3, num = 1;
  for (size_t i = 6; i < argv.size(); ++i) {
    if (OptionIs(argv[i], "keys")) {
      if (!argv[3].empty()) return {};  // a syntax error, left to MIGRATE to report
      first = i + 1;
      num = argv.size() - first;
      break;
    }
    if (OptionIs(argv[i], "auth")) {
      i += 1;
    } else if (OptionIs(argv[i], "auth2")) {
      i += 2;
    }
  }
  std::vector<size_t> keys(num);
  for (size_t i = 0; i < num; ++i) keys[i] = first + i;
  return keys;
}

void RegisterMigrateFamily(CommandRegistry& r) {
  r.Register({"migrate", -6, kCmdWrite | kCmdMovableKeys, 3, 3, 1, Migrate, "generic",
              "Atomically transfer a key from a Redis instance to another one.", "2.6.0",
              "@keyspace @write @slow @dangerous"});
}

}  // namespace kv
