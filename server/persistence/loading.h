#pragma once

#include <cstdint>

namespace kv {

struct ServerState;

// One load of the dataset from disk (the RDB file, or the AOF's files), as Redis's startLoading,
// loadingAbsProgress and stopLoading: while it lives INFO says loading:1 with the loading_*
// progress, and the clients served from inside the load get -LOADING for every command without
// the ok-loading flag. Used by the load at start-up, DEBUG RELOAD and DEBUG LOADAOF alike.
class LoadingScope {
 public:
  LoadingScope(ServerState& s, uint64_t total_bytes);
  ~LoadingScope();
  LoadingScope(const LoadingScope&) = delete;
  LoadingScope& operator=(const LoadingScope&) = delete;

  // Whether clients can be served from inside the load (the server, not the unit tests'
  // harness, provides ServerState::process_events_while_loading).
  bool can_serve() const;
  // loadingAbsProgress then processEventsWhileBlocked: records `loaded_bytes` for INFO and serves
  // the clients whose commands are ready. False once the server is stopping: the load ends.
  bool Serve(uint64_t loaded_bytes);

 private:
  ServerState& s_;
};

}  // namespace kv
