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
  const CommandSpec* spec = state_->registry->Find(args[0]);
  if (spec == nullptr) {
    reply.Error(UnknownCommandError(args[0], args.data() + 1, args.size() - 1));
    ++state_->stats.total_error_replies;
    return;
  }
  if (!spec->subcommands.empty() && args.size() >= 2) {
    const CommandSpec* sub = CommandRegistry::FindSubcommand(*spec, args[1]);
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
