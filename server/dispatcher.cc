#include "server/dispatcher.h"

#include <chrono>
#include <string>

#include "server/auth.h"
#include "server/errors.h"

namespace kv {

Dispatcher::Dispatcher(ServerState* state) : state_(state) {
  state_->command_stats.resize(state_->registry->stats_slots());
}

bool Dispatcher::Dispatch(std::span<const std::string_view> args, ConnState& conn,
                          ReplyWriter& reply, int64_t now_ms) {
  const size_t size_before = reply.buffer()->size();
  if (!Run(args, conn, reply, now_ms)) return false;
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
  // Redis's commandProcessed: a skip lasts for one command after CLIENT REPLY SKIP.
  conn.reply_skip = conn.reply_skip_next;
  conn.reply_skip_next = false;
  return true;
}

bool Dispatcher::ReplyIsError(ReplyWriter& reply, size_t size_before) {
  const IoBuffer* out = reply.buffer();
  return out->size() > size_before && out->data()[size_before] == '-';
}

bool Dispatcher::Run(std::span<const std::string_view> args, ConnState& conn, ReplyWriter& reply,
                     int64_t now_ms) {
  const CommandSpec* spec = state_->registry->Find(args[0]);
  // As Redis's c->lastcmd: set before the command runs (so CLIENT LIST shows itself), null for
  // an unknown command or subcommand.
  conn.last_cmd = spec;
  if (spec == nullptr) {
    reply.Error(UnknownCommandError(args[0], args.data() + 1, args.size() - 1));
    return true;
  }
  if (!spec->subcommands.empty() && args.size() >= 2) {
    const CommandSpec* sub = CommandRegistry::FindSubcommand(*spec, args[1]);
    conn.last_cmd = sub;
    if (sub == nullptr) {
      reply.Error(UnknownSubcommandError(args[1], spec->name));
      return true;
    }
    spec = sub;
  }
  CommandStats& stats = state_->command_stats[spec->stats_slot];
  if (!ArityMatches(spec->arity, args.size())) {
    // Redis's rejectCommand: counted against the command, which never ran.
    ++stats.rejected_calls;
    reply.Error(WrongArityError(FullName(*spec)));
    return true;
  }
  // Redis's processCommand: before authenticating, only the no-auth commands (AUTH, HELLO, QUIT)
  // run.
  if (AuthRequired(conn, *state_) && (spec->flags & kCmdNoAuth) == 0) {
    // Redis's rejectCommand: counted against the command, which never ran.
    ++stats.rejected_calls;
    reply.Error(errors::kNoAuth);
    return true;
  }
  // Redis's processCommand holds a command under CLIENT PAUSE only once it would run: unknown
  // commands and arity errors are answered at once.
  if (state_->pause.Holds((spec->flags & kCmdWrite) != 0, now_ms)) return false;
  const size_t size_before = reply.buffer()->size();
  CommandContext ctx{args, reply, conn, *state_, now_ms};
  // One clock reading before and one after: the whole per-command cost of commandstats and
  // latencystats.
  const auto start = std::chrono::steady_clock::now();
  spec->handler(ctx);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  ++state_->stats.total_commands_processed;
  stats.RecordCall(std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count(),
                   ReplyIsError(reply, size_before));
  return true;
}

}  // namespace kv
