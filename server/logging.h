#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "server/config.h"

namespace spdlog {
class logger;
}

namespace kv {

// The process's log, as Redis writes it: "pid:R dd Mon yyyy hh:mm:ss.mmm L message" lines on
// standard output or appended to `logfile` (opened and closed for each line, so a log rotated
// away is followed at once), and to syslog when syslog-enabled is set. L marks the level ('.'
// debug, '-' verbose, '*' notice, '#' warning); R is the role: 'C' until the server is
// initialised (Redis's lines before initServer), then 'M'.
class ProcessLog {
 public:
  explicit ProcessLog(const Config& config);
  ~ProcessLog();

  // The logger every server line goes through (also made spdlog's default logger).
  const std::shared_ptr<spdlog::logger>& logger() const { return logger_; }
  // Writes `text` as it is (Redis's LL_RAW: the start-up logo), at notice level.
  void Raw(std::string_view text);
  // A line as Redis's signal handlers write it: "pid:signal-handler (unix time) message".
  void FromSignalHandler(std::string_view message);
  // From now on lines carry the master's role character 'M'.
  void ServerInitialized();

 private:
  std::shared_ptr<spdlog::logger> logger_;
  std::shared_ptr<spdlog::logger> raw_;
};

// spdlog's level for Redis's loglevel name.
int SpdlogLevelFor(const std::string& loglevel);

}  // namespace kv
