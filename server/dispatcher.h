#pragma once

#include <span>
#include <string_view>

#include "protocol/reply_writer.h"
#include "server/command_registry.h"
#include "server/conn_state.h"
#include "server/server_state.h"

namespace kv {

// Runs one parsed command: finds it in the table (case-insensitively, with subcommands), checks
// its arity, and calls its handler. Unknown-command and arity errors are produced here only.
class Dispatcher {
 public:
  // Sizes `state`'s command statistics to the command table.
  explicit Dispatcher(ServerState* state);

  // Returns false when CLIENT PAUSE holds the command: it did not run and replied nothing, and
  // the connection must run it again once the pause changes.
  bool Dispatch(std::span<const std::string_view> args, ConnState& conn, ReplyWriter& reply,
                int64_t now_ms);

 private:
  bool Run(std::span<const std::string_view> args, ConnState& conn, ReplyWriter& reply,
           int64_t now_ms);
  // Whether the writer's output past `size_before` is an error reply.
  static bool ReplyIsError(ReplyWriter& reply, size_t size_before);

  ServerState* state_;
};

// Redis's arity rule: N means exactly N words, -N at least N.
inline bool ArityMatches(int arity, size_t argc) {
  return arity >= 0 ? argc == static_cast<size_t>(arity) : argc >= static_cast<size_t>(-arity);
}

}  // namespace kv
