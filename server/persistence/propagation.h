#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kv {

// Redis's command propagation (server.c's call(), alsoPropagate and propagatePendingCommands):
// what each write command feeds the AOF (and, one day, replicas). A command that changed data
// (server.dirty grew) is propagated as it was sent, or as the command vector it rewrote itself
// into (SPOP as SREM, SET EX as SET PXAT, ...); commands may add more (alsoPropagate) or prevent
// their own. Everything one top-level command propagates is collected, then fed at its end,
// wrapped in MULTI/EXEC when it is more than one command (EXEC, scripts, a lazy expiry before a
// write), as Redis 7.0 does.
//
// Off (no sink), every hook is one pointer test.
class Propagation {
 public:
  // Where propagated commands go, one at a time, with the database they ran in.
  using Sink = std::function<void(size_t db, std::span<const std::string_view> argv)>;
  void SetSink(Sink sink) { sink_ = std::move(sink); }
  // Detaches the sink (nothing is propagated while an AOF is loaded), to be set back after.
  Sink TakeSink() { return std::exchange(sink_, nullptr); }
  bool on() const { return static_cast<bool>(sink_); }

  // One command's propagation state (Redis keeps it in the client: CLIENT_PREVENT_PROP,
  // CLIENT_FORCE_AOF, the rewritten argv); commands nest (EXEC, scripts), so each call has its own.
  struct Frame {
    uint64_t dirty_before = 0;
    bool prevent = false;
    bool force = false;
    bool rewritten = false;
    std::vector<std::string> argv;
  };
  // The running command's frame, null when propagation is off or no command runs.
  Frame* frame() const { return frame_; }

  // alsoPropagate: `argv` in database `db` after what is already pending. Outside any command
  // (active expiry, eviction from the cron) it is fed at once, never wrapped.
  void AlsoPropagate(size_t db, std::vector<std::string> argv);
  // propagatePendingCommands: feeds what the top-level command collected, in MULTI/EXEC when it
  // is more than one command and `allow_multi`.
  void FlushPending(bool allow_multi = true);
  bool has_pending() const { return !pending_.empty(); }

 private:
  friend class CommandPropagation;
  struct Op {
    size_t db;
    std::vector<std::string> argv;
  };
  void Feed(size_t db, std::span<const std::string_view> argv) { sink_(db, argv); }

  Sink sink_;
  Frame* frame_ = nullptr;
  int depth_ = 0;  // commands running (nested ones included)
  std::vector<Op> pending_;
};

// The part of Redis's call() around one command's handler: opens the command's frame, and after
// the handler queues the command (or its rewrite) when it changed data.
class CommandPropagation {
 public:
  CommandPropagation(Propagation& p, uint64_t dirty_now) : p_(p), outer_(p.frame_) {
    if (!p.on()) return;
    frame_.dirty_before = dirty_now;
    p.frame_ = &frame_;
    ++p.depth_;
  }
  ~CommandPropagation();
  CommandPropagation(const CommandPropagation&) = delete;
  CommandPropagation& operator=(const CommandPropagation&) = delete;

  // After the handler: `args` as sent, `db` the client's database now. `never` for EXEC, which
  // is never propagated itself (its commands are).
  void Finish(uint64_t dirty_now, size_t db, std::span<const std::string_view> args, bool never);

 private:
  Propagation& p_;
  Propagation::Frame* outer_;
  Propagation::Frame frame_;
  bool finished_ = false;
};

// Appends Redis's RESP form of a command (catAppendOnlyGenericCommand): *<argc> then each
// argument as $<len> bulk.
void AppendRespCommand(std::string& out, std::span<const std::string_view> argv);

}  // namespace kv
