#include "server/dispatcher.h"

#include <string>

#include "server/errors.h"

namespace kv {
namespace {

// Redis counts every error reply in INFO's total_error_replies, whether the command was rejected
// (unknown, wrong arity) or its handler failed. Every error kvserver sends is a whole reply that
// starts with '-'.
void CountErrorReply(ReplyWriter& reply, size_t size_before, ServerStats& stats) {
  const IoBuffer* out = reply.buffer();
  if (out->size() > size_before && out->data()[size_before] == '-') {
    ++stats.total_error_replies;
  }
}

}  // namespace

void Dispatcher::Dispatch(std::span<const std::string_view> args, ConnState& conn,
                          ReplyWriter& reply, int64_t now_ms) {
  const size_t size_before = reply.buffer()->size();
  Run(args, conn, reply, now_ms, size_before);
  // CLIENT REPLY OFF/SKIP: the reply is made (and counted) as usual, then dropped, as Redis
  // never queues it. The flags are read after the command, so CLIENT REPLY ON is answered and
  // CLIENT REPLY OFF is not.
  if (conn.reply_off || conn.reply_skip) reply.buffer()->Truncate(size_before);
  // Redis's commandProcessed: a skip lasts for one command after CLIENT REPLY SKIP.
  conn.reply_skip = conn.reply_skip_next;
  conn.reply_skip_next = false;
}

void Dispatcher::Run(std::span<const std::string_view> args, ConnState& conn, ReplyWriter& reply,
                     int64_t now_ms, size_t size_before) {
  const CommandSpec* spec = state_->registry->Find(args[0]);
  // As Redis's c->lastcmd: set before the command runs (so CLIENT LIST shows itself), null for
  // an unknown command or subcommand.
  conn.last_cmd = spec;
  if (spec == nullptr) {
    reply.Error(UnknownCommandError(args[0], args.data() + 1, args.size() - 1));
    ++state_->stats.total_error_replies;
    return;
  }
  if (!spec->subcommands.empty() && args.size() >= 2) {
    const CommandSpec* sub = CommandRegistry::FindSubcommand(*spec, args[1]);
    conn.last_cmd = sub;
    if (sub == nullptr) {
      reply.Error(UnknownSubcommandError(args[1], spec->name));
      ++state_->stats.total_error_replies;
      return;
    }
    spec = sub;
  }
  if (!ArityMatches(spec->arity, args.size())) {
    if (spec->parent.empty()) {
      reply.Error(WrongArityError(spec->name));
    } else {
      reply.Error(WrongArityError(std::string(spec->parent) + "|" + std::string(spec->name)));
    }
    ++state_->stats.total_error_replies;
    return;
  }
  CommandContext ctx{args, reply, conn, *state_, now_ms};
  spec->handler(ctx);
  ++state_->stats.total_commands_processed;
  CountErrorReply(reply, size_before, state_->stats);
}

}  // namespace kv
