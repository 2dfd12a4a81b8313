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
  // What Run did: held by CLIENT PAUSE, answered without running (ran == null), or ran `ran`
  // for `ns` nanoseconds.
  struct Outcome {
    bool held = false;
    const CommandSpec* ran = nullptr;
    uint64_t ns = 0;
  };
  Outcome Run(std::span<const std::string_view> args, ConnState& conn, ReplyWriter& reply,
              int64_t now_ms);
  // Redis's call() after the command: the latency monitor, the slow log and MONITOR. Each is
  // one comparison while it is off.
  void LogCommand(const CommandSpec& spec, std::span<const std::string_view> args,
                  const ConnState& conn, int64_t now_ms, uint64_t ns);
  void FeedMonitors(std::span<const std::string_view> args, const ConnState& conn);
  // Runs eviction (maxmemory is set); false when `spec` may not run for lack of memory.
  bool MemoryAllows(const CommandSpec& spec, std::span<const std::string_view> args,
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
