#include "server/banner.h"

#include <unistd.h>

#include <iterator>
#include <string>

#include "server/version.h"

namespace kv {

bool ShowBanner(const Config& config) {
  return (!config.syslog_enabled && config.logfile.empty() && ::isatty(STDOUT_FILENO)) ||
         config.always_show_logo;
}

std::string Banner(int port, long pid) {
  // Redis's words in Redis's lines and columns (from column 40), beside kvserver's own picture.
  static constexpr const char* kArt[] = {
      "",
      "       .--------------------------.",
      "       |                          |",
      "       |   k v s e r v e r        |",
      "       |   ~~~~~~~~~~~~~~~        |",
      "       |                          |",
      "       |   in-memory key-value    |",
      "       |   server speaking RESP   |",
      "       |                          |",
      "       '--------------------------'",
      "",
  };
  const std::string words[std::size(kArt)] = {
      "",
      "",
      std::string("Redis ") + kRedisCompatVersion + " (00000000/0) " +
          std::to_string(sizeof(long) * 8) + " bit",
      "",
      "Running in standalone mode",
      "Port: " + std::to_string(port),
      "PID: " + std::to_string(pid),
      "",
      std::string("kvserver ") + kKvserverVersion,
      "",
      "      https://redis.io",
  };
  std::string out;
  for (size_t i = 0; i < std::size(kArt); ++i) {
    std::string line = kArt[i];
    if (!words[i].empty()) {
      line.resize(40, ' ');
      line += words[i];
    }
    out += line;
    out += '\n';
  }
  out += '\n';
  return out;
}

}  // namespace kv
