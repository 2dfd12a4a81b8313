#include "server/dispatcher.h"

#include <algorithm>
#include <string>

#include "server/auth.h"
#include "server/errors.h"
#include "server/persistence/snapshot.h"
#include "server/scripting/scripting.h"
#include "server/strings.h"

namespace kv {

Dispatcher::Dispatcher(ServerState* state) : state_(state) {
  state_->command_stats.resize(state_->registry->stats_slots());
  state_->dispatcher = this;
  exec_ = Command("exec");
  discard_ = Command("discard");
  multi_ = Command("multi");
  watch_ = Command("watch");
  quit_ = Command("quit");
  reset_ = Command("reset");
  ping_ = Command("ping");
  client_ = Command("client");
  const char* subscribes[] = {"subscribe",    "unsubscribe", "psubscribe",
                              "punsubscribe", "ssubscribe",  "sunsubscribe"};
  for (size_t i = 0; i < 6; ++i) subscribe_[i] = Command(subscribes[i]);
}

const CommandSpec* Dispatcher::Command(std::string_view name) const {
  // By the original name, as Redis's server.execCommand and friends, so that rename-command
  // changes only what clients type. A null never equals a real command, so a table without the
  // command is fine.
  if (const CommandSpec* spec = state_->registry->Find(name); spec != nullptr && spec->name == name)
    return spec;
  for (const CommandSpec* spec : state_->registry->All()) {
    if (spec->name == name) return spec;
  }
  return nullptr;
}

bool Dispatcher::Dispatch(std::span<const std::string_view> args, ConnState& conn,
                          ReplyWriter& reply, int64_t now_ms) {
  IoBuffer* out = reply.buffer();
  const size_t size_before = out->size();
  state_->current_client = &conn;
  const CommandSpec* spec = nullptr;
  uint32_t flags = 0;
  const Verdict verdict = Check(args, conn, reply, now_ms, &spec, &flags);
  if (verdict == Verdict::kHeld) {
    state_->current_client = nullptr;
    return false;
  }
  size_t reply_start = size_before;
  if (verdict == Verdict::kRun) {
    if (conn.multi && spec != exec_ && spec != discard_ && spec != multi_ && spec != watch_ &&
        spec != quit_ && spec != reset_) {
      // Redis's queueMultiCommand: nothing is kept once the transaction is bound to fail.
      if (!conn.multi->dirty && !conn.dirty_cas) conn.multi->Queue(*spec, flags, args);
      reply.Raw("+QUEUED\r\n");
    } else {
      reply_start = Call(*spec, args, conn, reply, now_ms);
      // Redis's afterCommand: what the command propagated goes to the AOF as one unit.
      if (state_->propagation.has_pending()) state_->propagation.FlushPending();
    }
  }
  // CLIENT REPLY OFF/SKIP: the reply is made (and counted) as usual, then dropped, as Redis never
  // queues it; pushed frames stay. The flags are read after the command, so CLIENT REPLY ON is
  // answered and CLIENT REPLY OFF is not.
  if (conn.reply_off || conn.reply_skip) out->Truncate(reply_start);
  if (!conn.redacted_args.empty()) conn.redacted_args.clear();
  // Redis's resetClient: a skip lasts for one command after CLIENT REPLY SKIP, and CLIENT CACHING
  // for the next command (or transaction).
  conn.reply_skip = conn.reply_skip_next;
  conn.reply_skip_next = false;
  if (conn.tracking && conn.tracking->caching && !conn.multi && spec != client_ &&
      (spec == nullptr || spec->parent != "client")) {
    conn.tracking->caching = false;
  }
  // Redis's afterCommand: invalidations for this client's own keys follow its reply.
  if (state_->tracking.has_pending()) state_->tracking.SendPending(*state_);
  // Redis's handleClientsBlockedOnKeys after each command (after a whole EXEC): clients waiting on
  // keys this command filled are served before anything else runs; not while a busy script
  // serves other clients from inside its run.
  if (!(state_->scripting && state_->scripting->running != nullptr)) {
    if (state_->blocking.has_stream_waiters()) {
      state_->blocking.UnblockDeletedStreamWaiters(*state_, now_ms);
    }
    if (state_->blocking.has_ready_keys()) state_->blocking.ServeReadyKeys(*state_, now_ms);
  }
  state_->current_client = nullptr;
  return true;
}

Dispatcher::Verdict Dispatcher::Check(std::span<const std::string_view> args, ConnState& conn,
                                      ReplyWriter& reply, int64_t now_ms, const CommandSpec** out,
                                      uint32_t* flags_out) {
  // A connection mostly repeats its last command: the name compare spares the table lookup.
  const CommandSpec* spec = conn.last_cmd;
  if (spec == nullptr || !spec->parent.empty() || !EqualsIgnoreCase(args[0], spec->name)) {
    spec = state_->registry->Find(args[0]);
  }
  // As Redis's c->lastcmd: set before the command runs (so CLIENT LIST shows itself), null for
  // an unknown command or subcommand.
  conn.last_cmd = spec;
  if (spec == nullptr) {
    Reject(nullptr, UnknownCommandError(args[0], args.data() + 1, args.size() - 1), args, conn,
           reply);
    return Verdict::kRejected;
  }
  if (!spec->subcommands.empty() && args.size() >= 2) {
    const CommandSpec* sub = CommandRegistry::FindSubcommand(*spec, args[1]);
    conn.last_cmd = sub;
    if (sub == nullptr) {
      Reject(nullptr, UnknownSubcommandError(args[1], spec->name), args, conn, reply);
      return Verdict::kRejected;
    }
    spec = sub;
  }
  *out = spec;
  if (!ArityMatches(spec->arity, args.size())) {
    Reject(spec, WrongArityError(FullName(*spec)), args, conn, reply);
    return Verdict::kRejected;
  }
  // Redis's getCommandFlags: EVAL or FCALL of a script that declares flags runs with the flags it
  // declared. They matter only to queueing, maxmemory, CLIENT PAUSE and MISCONF, so the script is
  // looked up only then.
  uint32_t flags = spec->flags;
  if (spec->call_flags != nullptr &&
      (conn.multi || state_->config.maxmemory != 0 ||
       state_->pause.type() != ClientPause::Type::kOff || WritesDeniedByDiskError(*state_))) {
    flags = spec->call_flags(*state_, args, flags);
  }
  *flags_out = flags;
  // Before authenticating, only the no-auth commands (AUTH, HELLO, QUIT) run.
  if (AuthRequired(conn, *state_) && (spec->flags & kCmdNoAuth) == 0) {
    Reject(spec, errors::kNoAuth, args, conn, reply);
    return Verdict::kRejected;
  }
  if (conn.multi && (spec->flags & kCmdNoMulti)) {
    Reject(spec, "Command not allowed inside a transaction", args, conn, reply);
    return Verdict::kRejected;
  }
  const bool script_busy = state_->scripting && state_->scripting->busy();
  // With a maxmemory, eviction runs before every command, and a command that may grow memory is
  // refused once nothing more may be evicted.
  if (state_->config.maxmemory != 0 && !script_busy &&
      !MemoryAllows(*spec, flags, args, conn, now_ms)) {
    Reject(spec, errors::kOom, args, conn, reply);
    return Verdict::kRejected;
  }
  // Keeps the client-side caching table within tracking-table-max-keys.
  if (state_->tracking.clients() != 0) state_->tracking.LimitUsedSlots(*state_);
  // Redis's writeCommandsDeniedByDiskError: while snapshots or AOF writes fail, writes are
  // refused, and so is PING (what monitoring sends to learn the server is healthy). EXEC counts as
  // a write when it would run one.
  const uint32_t write_flags = flags | (spec == exec_ && conn.multi ? conn.multi->flags : 0);
  if (((write_flags & kCmdWrite) || spec == ping_) && WritesDeniedByDiskError(*state_)) {
    Reject(spec, DiskErrorMessage(*state_), args, conn, reply);
    return Verdict::kRejected;
  }
  // A RESP2 client in pub/sub mode may only (un)subscribe, ping, quit and reset.
  if (conn.pubsub_mode && conn.protocol == 2 && spec != ping_ && spec != quit_ && spec != reset_ &&
      std::find(std::begin(subscribe_), std::end(subscribe_), spec) == std::end(subscribe_)) {
    Reject(spec,
           "Can't execute '" + FullName(*spec) +
               "': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in "
               "this context",
           args, conn, reply);
    return Verdict::kRejected;
  }
  // Redis's processCommand while loading: only the commands flagged ok-loading run.
  if (state_->persistence.loading && (spec->flags & kCmdLoading) == 0) {
    Reject(spec, errors::kLoading, args, conn, reply);
    return Verdict::kRejected;
  }
  // While a script is busy (past busy-reply-threshold), other clients may only run the
  // allow-busy commands; after the loading check, as Redis (a busy script in an AOF being loaded
  // gets -LOADING).
  if (script_busy && (spec->flags & kCmdAllowBusy) == 0) {
    Reject(spec,
           state_->scripting->running->eval_mode
               ? "-BUSY Redis is busy running a script. You can only call SCRIPT KILL or "
                 "SHUTDOWN NOSAVE."
               : "-BUSY Redis is busy running a script. You can only call FUNCTION KILL or "
                 "SHUTDOWN NOSAVE.",
           args, conn, reply);
    return Verdict::kRejected;
  }
  // CLIENT PAUSE holds a command only once it would run: unknown commands and arity errors are
  // answered at once. EXEC counts as a write when it would run one.
  if (spec == exec_ && conn.multi) flags |= conn.multi->flags;
  if (state_->pause.Holds((flags & (kCmdWrite | kCmdMayReplicate)) != 0, now_ms)) {
    return Verdict::kHeld;
  }
  return Verdict::kRun;
}

void Dispatcher::Reject(const CommandSpec* spec, std::string_view error,
                        std::span<const std::string_view> args, ConnState& conn,
                        ReplyWriter& reply) {
  // Redis's flagTransaction: the transaction being queued will fail.
  if (conn.multi) conn.multi->dirty = true;
  if (spec != nullptr) ++state_->command_stats[spec->stats_slot].rejected_calls;
  const size_t start = reply.buffer()->size();
  if (spec != nullptr && spec == exec_) {
    // Redis's execCommandAbort: the transaction is discarded, and monitors see the EXEC that
    // closes the MULTI they saw.
    conn.multi.reset();
    state_->watches.UnwatchAll(conn);
    conn.dirty_cas = false;
    std::string_view reason = error;
    if (!reason.empty() && reason[0] == '-') reason.remove_prefix(1);
    reply.Error("-EXECABORT Transaction discarded because of: " + std::string(reason));
    if (!state_->monitors.empty()) FeedMonitors(args, conn);
  } else {
    reply.Error(error);
  }
  CountError(*reply.buffer(), start);
}

bool Dispatcher::CountError(const IoBuffer& out, size_t start) {
  // Every error kvserver sends is a whole reply that starts with '-'.
  if (out.size() <= start || out.data()[start] != '-') return false;
  ++state_->stats.total_error_replies;
  state_->error_stats.Record(std::string_view(out.data() + start, out.size() - start));
  return true;
}

size_t Dispatcher::Call(const CommandSpec& spec, std::span<const std::string_view> args,
                        ConnState& conn, ReplyWriter& reply, int64_t now_ms) {
  const IoBuffer& out = *reply.buffer();
  const size_t saved_reply_start = conn.reply_start;
  conn.reply_start = out.size();
  CommandContext ctx{args, reply, conn, *state_, now_ms};
  ++state_->executing;
  // One clock reading before and one after: the whole per-command cost of commandstats,
  // latencystats, SLOWLOG and LATENCY.
  CommandPropagation propagation(state_->propagation, state_->dirty);
  const uint64_t start = state_->command_clock.Ticks();
  spec.handler(ctx);
  const uint64_t ns = state_->command_clock.Nanoseconds(state_->command_clock.Ticks() - start);
  --state_->executing;
  // EXEC is never propagated itself: its commands are, wrapped in MULTI/EXEC.
  propagation.Finish(state_->dirty, conn.db_index, args, &spec == exec_);
  const size_t reply_start = conn.reply_start;
  conn.reply_start = saved_reply_start;
  ++state_->stats.total_commands_processed;
  // Redis counts every error reply in INFO's total_error_replies and errorstats, and a command
  // that replied one as failed. A script's error that repeats one a command inside it already
  // counted is not counted again (Redis's ERR_REPLY_FLAG_NO_STATS_UPDATE); the script failed.
  bool failed = true;
  if (conn.error_already_counted) {
    conn.error_already_counted = false;
  } else {
    failed = CountError(out, reply_start);
  }
  state_->command_stats[spec.stats_slot].RecordCall(ns, failed, state_->config.latency_tracking);
  LogCommand(spec, args, conn, now_ms, ns);
  // Client-side caching: the keys a tracking client reads are remembered for invalidation.
  if (conn.tracking && (spec.flags & kCmdReadOnly) && !conn.tracking->bcast) {
    state_->tracking.RememberKeys(conn, spec, args);
  }
  return reply_start;
}

void Dispatcher::LogCommand(const CommandSpec& spec, std::span<const std::string_view> args,
                            const ConnState& conn, int64_t now_ms, uint64_t ns) {
  const Config& config = state_->config;
  const int64_t us = static_cast<int64_t>(ns / 1000);
  if (config.latency_monitor_threshold != 0 && us / 1000 >= config.latency_monitor_threshold) {
    state_->latency_monitor.AddSample((spec.flags & kCmdFast) ? "fast-command" : "command",
                                      now_ms / 1000, static_cast<uint64_t>(us / 1000));
  }
  // A command that blocked is logged once it is served (BlockingController::Finish); EXEC is
  // not logged (its commands are).
  if (config.slowlog_log_slower_than >= 0 && !conn.blocked && !(spec.flags & kCmdSkipSlowlog)) {
    state_->slowlog.Record(args, conn, now_ms / 1000, us, config.slowlog_log_slower_than,
                           static_cast<uint64_t>(config.slowlog_max_len));
  }
  // Redis shows no administrative command to monitors.
  if (!state_->monitors.empty() && (spec.flags & (kCmdSkipMonitor | kCmdAdmin)) == 0) {
    FeedMonitors(args, conn);
  }
}

void Dispatcher::FeedMonitors(std::span<const std::string_view> args, const ConnState& conn) {
  const std::string line =
      MonitorLine(state_->clock->NowUs(), conn, state_->config.unixsocket, args);
  // A monitor the line closes (over its output limit) stays in the list until its connection
  // ends.
  for (const ConnState* monitor : state_->monitors) {
    // Dropped under CLIENT REPLY OFF or SKIP, as Redis's addReply drops any reply.
    if (!monitor->reply_off && !monitor->reply_skip) monitor->monitor_sink->SendMonitorLine(line);
  }
}

bool Dispatcher::MemoryAllows(const CommandSpec& spec, uint32_t flags,
                              std::span<const std::string_view> args, const ConnState& conn,
                              int64_t now_ms) {
  const Evictor::Result result = state_->evictor.Perform(*state_, now_ms);
  bool denyoom = (flags & kCmdDenyOom) != 0;
  if (conn.multi) {
    // Queueing may take memory without bound: inside MULTI only EXEC (unless it would run a
    // denyoom command), DISCARD, QUIT and RESET run when out of memory.
    if (&spec == exec_) {
      denyoom = (conn.multi->flags & kCmdDenyOom) != 0;
    } else if (&spec != discard_ && &spec != quit_ && &spec != reset_) {
      denyoom = true;
    }
  }
  if (!denyoom) return true;
  if (result == Evictor::Result::kFail) return false;
  // Until the allocator is read again, a write counts as about the bytes it was sent, plus a
  // malloc chunk's header (and the entry's) per argument.
  constexpr int64_t kPerArgument = 32;
  int64_t bytes = 0;
  for (std::string_view arg : args.subspan(1)) {
    bytes += static_cast<int64_t>(arg.size()) + kPerArgument;
  }
  state_->memory_gauge.Add(bytes);
  return true;
}

}  // namespace kv
