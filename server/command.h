#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/reply_writer.h"
#include "server/conn_state.h"
#include "server/server_state.h"
#include "storage/db.h"

namespace kv {

// Command flags, named as Redis reports them in COMMAND INFO.
enum CommandFlag : uint32_t {
  kCmdWrite = 1 << 0,
  kCmdReadOnly = 1 << 1,
  kCmdDenyOom = 1 << 2,
  kCmdAdmin = 1 << 3,
  kCmdPubSub = 1 << 4,
  kCmdNoScript = 1 << 5,
  kCmdBlocking = 1 << 6,
  kCmdLoading = 1 << 7,
  kCmdStale = 1 << 8,
  kCmdSkipMonitor = 1 << 9,
  kCmdFast = 1 << 10,
  kCmdNoAuth = 1 << 11,
  kCmdNoMulti = 1 << 12,
  kCmdAllowBusy = 1 << 13,
  // Reported by COMMAND INFO as Redis does; nothing in kvserver acts on them yet.
  kCmdSkipSlowlog = 1 << 14,
  kCmdAsking = 1 << 15,
  kCmdNoMandatoryKeys = 1 << 16,
  kCmdNoAsyncLoading = 1 << 17,
  kCmdMovableKeys = 1 << 18,  // the first/last/step key positions do not cover every key
  // Redis's CMD_MAY_REPLICATE: no write, but held by CLIENT PAUSE WRITE (PUBLISH).
  kCmdMayReplicate = 1 << 19,
};

// Everything a handler may touch: its arguments, the reply writer, the connection's state and the
// server's shared state. Handlers reach nothing else (no globals), which keeps them testable
// in-process and movable to other threads later.
struct CommandContext {
  std::span<const std::string_view> args;  // args[0] is the command name as sent
  ReplyWriter& reply;
  ConnState& conn;
  ServerState& server;
  int64_t now_ms;  // the command's time: one clock reading, used for every expiry decision
  // Set when a blocked client's command runs again because this key got a value: the key to
  // serve it from (Redis 7.0 serves a blocked client from the key that became ready).
  const std::string* blocked_key = nullptr;

  // Counts `n` changes to the data, as Redis's `server.dirty += n`.
  void CountChanges(uint64_t n = 1) { server.dirty += n; }

  // Redis's signalModifiedKey: every write calls it once per key it changes (deleted, created,
  // overwritten, altered). WATCH and client tracking learn of the change here; while nobody
  // watches or tracks, it is one test.
  void KeyModified(std::string_view key) { KeyModified(conn.db_index, key); }
  void KeyModified(size_t db, std::string_view key) {
    if (server.KeyHooksArmed()) server.SignalModifiedKey(&conn, db, key);
  }
  // Redis's notifyKeyspaceEvent: `event` of class `type` (a NotifyClass) about `key` of the
  // selected database, published when notify-keyspace-events enables the class (one test when
  // it does not).
  void Notify(uint32_t type, std::string_view event, std::string_view key) {
    Notify(type, event, key, conn.db_index);
  }
  void Notify(uint32_t type, std::string_view event, std::string_view key, size_t db) {
    if (server.config.notify_keyspace_events & type) {
      PublishKeyspaceEvent(server, type, event, key, db);
    }
  }

  // Called by a command whose reply Redis builds after addReplyDeferredLen (KEYS, SMEMBERS,
  // SINTER), before it writes the reply: Redis's client-output-buffer-limit then counts the
  // whole reply, not only what passes its 16 KB reply buffer.
  void ReplyLengthDeferred() {
    conn.output_counted_from = std::min(conn.output_counted_from, reply.buffer()->size());
    reply.buffer()->RecheckWatch();
  }

  // Shows argument `i` as "(redacted)" in SLOWLOG and MONITOR (Redis's
  // redactClientCommandArgument).
  void Redact(size_t i) { conn.redacted_args.push_back(static_cast<uint32_t>(i)); }

  // Whether the command may block (BLPOP and friends act as their non-blocking forms where not).
  bool CanBlock() const { return conn.block_sink != nullptr && !conn.deny_blocking; }
  // Blocks the client on `keys` of its database until `deadline_ms` (0: forever), waiting for a
  // value of `type`; the command replies nothing now, and runs again when a key is ready.
  void Block(std::span<const std::string_view> keys, ValueType type, int64_t deadline_ms) {
    server.blocking.Block(conn, *conn.last_cmd, args, conn.db_index, keys, type, deadline_ms);
    if (server.blocking_deadlines_changed && deadline_ms != 0) server.blocking_deadlines_changed();
  }
  // Redis's signalKeyAsReady: `key` of the selected database got a value of type `type`, which
  // clients may be waiting for. Every write that creates (or moves in) a list, sorted set or
  // stream calls it.
  void SignalKeyAsReady(std::string_view key, ValueType type) {
    SignalKeyAsReady(conn.db_index, key, type);
  }
  void SignalKeyAsReady(size_t db, std::string_view key, ValueType type) {
    if (type == ValueType::kList || type == ValueType::kZSet || type == ValueType::kStream) {
      server.blocking.SignalKeyAsReady(db, key);
    }
  }

  // Propagation to the AOF (server/persistence/propagation.h), as Redis's
  // rewriteClientCommandVector, rewriteClientCommandArgument, alsoPropagate and
  // preventCommandPropagation. Each is a no-op (one test) while nothing is propagated; a family
  // checks Propagating() before building arguments.
  bool Propagating() const { return server.propagation.frame() != nullptr; }
  // The command is propagated as `argv` instead of as sent.
  void PropagateAs(std::vector<std::string> argv) {
    if (Propagation::Frame* f = server.propagation.frame()) {
      f->argv = std::move(argv);
      f->rewritten = true;
    }
  }
  // Argument `i` of the propagated command becomes `value` (appended when `i` is its size).
  void RewriteArg(size_t i, std::string value) {
    Propagation::Frame* f = server.propagation.frame();
    if (f == nullptr) return;
    if (!f->rewritten) {
      f->argv.assign(args.begin(), args.end());
      f->rewritten = true;
    }
    if (i >= f->argv.size()) {
      f->argv.push_back(std::move(value));
    } else {
      f->argv[i] = std::move(value);
    }
  }
  void AlsoPropagate(std::vector<std::string> argv) {
    if (Propagating()) server.propagation.AlsoPropagate(conn.db_index, std::move(argv));
  }
  void PreventPropagation() {
    if (Propagation::Frame* f = server.propagation.frame()) f->prevent = true;
  }
  // forceCommandPropagation: propagated even when it changed nothing (FLUSHALL of empty data).
  void ForcePropagation() {
    if (Propagation::Frame* f = server.propagation.frame()) f->force = true;
  }

  // The selected database, with its access clock set to the command's time.
  Db& db() {
    Db& d = server.dbs.db(conn.db_index);
    d.SetClock(now_ms);
    return d;
  }
};

using CommandHandler = void (*)(CommandContext&);

struct CommandSpec;
// "get", or "config|get" for a subcommand: the name COMMAND INFO and INFO commandstats show.
std::string FullName(const CommandSpec& spec);

// One entry of the command table, as Redis's redisCommand: arity N means exactly N words
// including the name, -N at least N. Key positions are 1-based; last_key -1 means the last
// argument.
struct CommandSpec {
  std::string_view name;  // lower case
  int arity;
  uint32_t flags;
  int first_key;
  int last_key;
  int key_step;
  CommandHandler handler;
  std::string_view group;  // COMMAND DOCS group: "string", "generic", "server", "connection"
  std::string_view summary;
  std::string_view since;
  std::string_view acl_categories;  // space separated, e.g. "@write @string @slow"
  std::vector<CommandSpec> subcommands = {};
  std::string_view parent = {};  // set for subcommands: "config" for config|get
  // Where the server keeps this command's INFO commandstats (ServerState::command_stats); set
  // by CommandRegistry::Register.
  size_t stats_slot = 0;
  // Redis's getCommandFlags: for a command whose flags depend on its arguments (EVAL and FCALL of
  // a script that declares flags), the flags of this call, from `flags`; null when they are
  // always `flags`.
  uint32_t (*call_flags)(ServerState& server, std::span<const std::string_view> args,
                         uint32_t flags) = nullptr;
};

// The flags `spec` runs with when called with `args`.
inline uint32_t CallFlags(const CommandSpec& spec, ServerState& server,
                          std::span<const std::string_view> args) {
  return spec.call_flags == nullptr ? spec.flags : spec.call_flags(server, args, spec.flags);
}

inline std::string FullName(const CommandSpec& spec) {
  return spec.parent.empty() ? std::string(spec.name)
                             : std::string(spec.parent) + "|" + std::string(spec.name);
}

}  // namespace kv
