#include "server/dispatcher.h"

#include <string>

#include "server/auth.h"
#include "server/errors.h"
#include "server/strings.h"

namespace kv {

Dispatcher::Dispatcher(ServerState* state) : state_(state) {
  state_->command_stats.resize(state_->registry->stats_slots());
}

bool Dispatcher::Dispatch(std::span<const std::string_view> args, ConnState& conn,
                          ReplyWriter& reply, int64_t now_ms) {
  const size_t size_before = reply.buffer()->size();
  const Outcome outcome = Run(args, conn, reply, now_ms);
  if (outcome.held) return false;
  // Redis counts every error reply in INFO's total_error_replies and errorstats, whether the
  // command was rejected (unknown, wrong arity) or its handler failed. Every error kvserver
  // sends is a whole reply that starts with '-'.
  if (ReplyIsError(reply, size_before)) {
    const IoBuffer* out = reply.buffer();
    ++state_->stats.total_error_replies;
    state_->error_stats.Record(
        std::string_view(out->data() + size_before, out->size() - size_before));
  }
  // CLIENT REPLY OFF/SKIP: the reply is made (and counted) as usual, then dropped, as Redis
  // never queues it. The flags are read after the command, so CLIENT REPLY ON is answered and
  // CLIENT REPLY OFF is not.
  if (conn.reply_off || conn.reply_skip) reply.buffer()->Truncate(size_before);
  // After the reply, so that a monitor's own command is answered before its line, and before the
  // skip below moves on, as Redis's call() feeds monitors before commandProcessed.
  if (outcome.ran != nullptr) LogCommand(*outcome.ran, args, conn, now_ms, outcome.ns);
  if (!conn.redacted_args.empty()) conn.redacted_args.clear();
  // Redis's commandProcessed: a skip lasts for one command after CLIENT REPLY SKIP.
  conn.reply_skip = conn.reply_skip_next;
  conn.reply_skip_next = false;
  // Redis's handleClientsBlockedOnKeys after each command: clients waiting on keys this command
  // filled are served before anything else runs.
  if (state_->blocking.has_stream_waiters()) {
    state_->blocking.UnblockDeletedStreamWaiters(*state_, now_ms);
  }
  if (state_->blocking.has_ready_keys()) state_->blocking.ServeReadyKeys(*state_, now_ms);
  return true;
}

void Dispatcher::LogCommand(const CommandSpec& spec, std::span<const std::string_view> args,
                            const ConnState& conn, int64_t now_ms, uint64_t ns) {
  const Config& config = state_->config;
  const int64_t us = static_cast<int64_t>(ns / 1000);
  if (config.latency_monitor_threshold != 0 && us / 1000 >= config.latency_monitor_threshold) {
    state_->latency_monitor.AddSample((spec.flags & kCmdFast) ? "fast-command" : "command",
                                      now_ms / 1000, static_cast<uint64_t>(us / 1000));
  }
  // A command that blocked is logged once it is served (BlockingController::Finish).
  if (config.slowlog_log_slower_than >= 0 && !conn.blocked) {
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

bool Dispatcher::ReplyIsError(ReplyWriter& reply, size_t size_before) {
  const IoBuffer* out = reply.buffer();
  return out->size() > size_before && out->data()[size_before] == '-';
}

Dispatcher::Outcome Dispatcher::Run(std::span<const std::string_view> args, ConnState& conn,
                                    ReplyWriter& reply, int64_t now_ms) {
  // A connection mostly repeats its last command: the name compare spares the table lookup.
  const CommandSpec* spec = conn.last_cmd;
  if (spec == nullptr || !spec->parent.empty() || !EqualsIgnoreCase(args[0], spec->name)) {
    spec = state_->registry->Find(args[0]);
  }
  // As Redis's c->lastcmd: set before the command runs (so CLIENT LIST shows itself), null for
  // an unknown command or subcommand.
  conn.last_cmd = spec;
  if (spec == nullptr) {
    reply.Error(UnknownCommandError(args[0], args.data() + 1, args.size() - 1));
    return {};
  }
  if (!spec->subcommands.empty() && args.size() >= 2) {
    const CommandSpec* sub = CommandRegistry::FindSubcommand(*spec, args[1]);
    conn.last_cmd = sub;
    if (sub == nullptr) {
      reply.Error(UnknownSubcommandError(args[1], spec->name));
      return {};
    }
    spec = sub;
  }
  CommandStats& stats = state_->command_stats[spec->stats_slot];
  if (!ArityMatches(spec->arity, args.size())) {
    // Redis's rejectCommand: counted against the command, which never ran.
    ++stats.rejected_calls;
    reply.Error(WrongArityError(FullName(*spec)));
    return {};
  }
  // Redis's processCommand: before authenticating, only the no-auth commands (AUTH, HELLO, QUIT)
  // run.
  if (AuthRequired(conn, *state_) && (spec->flags & kCmdNoAuth) == 0) {
    // Redis's rejectCommand: counted against the command, which never ran.
    ++stats.rejected_calls;
    reply.Error(errors::kNoAuth);
    return {};
  }
  // Redis's processCommand: with a maxmemory, eviction runs before every command, and a command
  // that may grow memory is refused once nothing more may be evicted.
  if (state_->config.maxmemory != 0 && !MemoryAllows(*spec, args, now_ms)) {
    ++stats.rejected_calls;
    reply.Error(errors::kOom);
    return {};
  }
  // Redis's processCommand holds a command under CLIENT PAUSE only once it would run: unknown
  // commands and arity errors are answered at once.
  if (state_->pause.Holds((spec->flags & kCmdWrite) != 0, now_ms)) return {.held = true};
  const size_t size_before = reply.buffer()->size();
  CommandContext ctx{args, reply, conn, *state_, now_ms};
  // One clock reading before and one after: the whole per-command cost of commandstats,
  // latencystats, SLOWLOG and LATENCY.
  const uint64_t start = state_->command_clock.Ticks();
  spec->handler(ctx);
  const uint64_t ns = state_->command_clock.Nanoseconds(state_->command_clock.Ticks() - start);
  ++state_->stats.total_commands_processed;
  stats.RecordCall(ns, ReplyIsError(reply, size_before), state_->config.latency_tracking);
  return {.ran = spec, .ns = ns};
}

bool Dispatcher::MemoryAllows(const CommandSpec& spec, std::span<const std::string_view> args,
                              int64_t now_ms) {
  const Evictor::Result result = state_->evictor.Perform(*state_, now_ms);
  if ((spec.flags & kCmdDenyOom) == 0) return true;
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
