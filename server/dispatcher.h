#pragma once

#include <span>
#include <string_view>

#include "protocol/reply_writer.h"
#include "server/command_registry.h"
#include "server/conn_state.h"
#include "server/server_state.h"

namespace kv {

// Runs one parsed command as Redis's processCommand: finds it in the table (case-insensitively,
// with subcommands), checks its arity, authentication, MULTI, memory, pub/sub context and CLIENT
// PAUSE, then queues it (inside MULTI) or calls its handler. Unknown-command and arity errors are
// produced here only.
class Dispatcher {
 public:
  // Sizes `state`'s command statistics to the command table.
  explicit Dispatcher(ServerState* state);

  // Returns false when CLIENT PAUSE holds the command: it did not run and replied nothing, and
  // the connection must run it again once the pause changes.
  bool Dispatch(std::span<const std::string_view> args, ConnState& conn, ReplyWriter& reply,
                int64_t now_ms);

  // Redis's call(): runs `spec`'s handler, then its statistics, the latency monitor, the slow log,
  // MONITOR and client tracking's key bookkeeping. EXEC runs its queued commands through it.
  // Returns where the command's own reply starts in the writer's buffer (after frames pushed to
  // the client before it).
  size_t Call(const CommandSpec& spec, std::span<const std::string_view> args, ConnState& conn,
              ReplyWriter& reply, int64_t now_ms);

 private:
  enum class Verdict { kRun, kRejected, kHeld };
  // The checks of processCommand; a rejected command got its error.
  // `out` gets the command and `flags_out` the flags of this call (CallFlags).
  Verdict Check(std::span<const std::string_view> args, ConnState& conn, ReplyWriter& reply,
                int64_t now_ms, const CommandSpec** out, uint32_t* flags_out);
  // Redis's rejectCommand: the error (counted against `spec` when known), and a transaction being
  // queued is marked to fail; EXEC itself is aborted.
  void Reject(const CommandSpec* spec, std::string_view error,
              std::span<const std::string_view> args, ConnState& conn, ReplyWriter& reply);
  // Redis's call() after the command: the latency monitor, the slow log and MONITOR. Each is
  // one comparison while it is off.
  void LogCommand(const CommandSpec& spec, std::span<const std::string_view> args,
                  const ConnState& conn, int64_t now_ms, uint64_t ns);
  void FeedMonitors(std::span<const std::string_view> args, const ConnState& conn);
  // Runs eviction (maxmemory is set); false when `spec`, called with `flags`, may not run for
  // lack of memory.
  bool MemoryAllows(const CommandSpec& spec, uint32_t flags, std::span<const std::string_view> args,
                    const ConnState& conn, int64_t now_ms);
  // Counts an error reply at `start` of `out`, as Redis's afterErrorReply; false when it is none.
  bool CountError(const IoBuffer& out, size_t start);
  // Whether `spec` is the command named `name` (a top-level command).
  const CommandSpec* Command(std::string_view name) const;

  ServerState* state_;
  // Commands processCommand treats specially, looked up once.
  const CommandSpec* exec_;
  const CommandSpec* discard_;
  const CommandSpec* multi_;
  const CommandSpec* watch_;
  const CommandSpec* quit_;
  const CommandSpec* reset_;
  const CommandSpec* ping_;
  const CommandSpec* subscribe_[6];  // (p|s)(un)subscribe
  const CommandSpec* client_;
};

// Redis's arity rule: N means exactly N words, -N at least N.
inline bool ArityMatches(int arity, size_t argc) {
  return arity >= 0 ? argc == static_cast<size_t>(arity) : argc >= static_cast<size_t>(-arity);
}

}  // namespace kv
