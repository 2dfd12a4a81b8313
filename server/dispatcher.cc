#include "server/dispatcher.h"

#include <string>

#include "server/errors.h"

namespace kv {

void Dispatcher::Dispatch(std::span<const std::string_view> args, ConnState& conn,
                          ReplyWriter& reply, int64_t now_ms) {
  const CommandSpec* spec = state_->registry->Find(args[0]);
  if (spec == nullptr) {
    reply.Error(UnknownCommandError(args[0], args.data() + 1, args.size() - 1));
    return;
  }
  if (!spec->subcommands.empty() && args.size() >= 2) {
    const CommandSpec* sub = CommandRegistry::FindSubcommand(*spec, args[1]);
    if (sub == nullptr) {
      reply.Error(UnknownSubcommandError(args[1], spec->name));
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
    return;
  }
  CommandContext ctx{args, reply, conn, *state_, now_ms};
  spec->handler(ctx);
  ++state_->stats.total_commands_processed;
}

}  // namespace kv
