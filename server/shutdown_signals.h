#pragma once

#include <csignal>
#include <string>

namespace kv {

// While the final save that a SIGINT or SIGTERM started runs (synchronously, the event loop
// stopped), SIGINT and SIGTERM get a handler of their own, as Redis's sigShutdownHandler once
// shutdown_asap is set: a second SIGINT means the user insists: "You insist... exiting now." is
// logged, the save's temporary file (temp-<pid>.rdb in the working directory) removed and the
// process exits with status 1 at once; a SIGTERM is only logged. The handlers in place before
// (the event loop's) are put back when the guard goes.
class InsistentShutdownGuard {
 public:
  // `logfile`: where the lines go (empty: standard output), as the server's log.
  explicit InsistentShutdownGuard(const std::string& logfile);
  ~InsistentShutdownGuard();
  InsistentShutdownGuard(const InsistentShutdownGuard&) = delete;
  InsistentShutdownGuard& operator=(const InsistentShutdownGuard&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

}  // namespace kv
