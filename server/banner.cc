#include "server/banner.h"

#include <unistd.h>

#include <cstdio>

#include "server/version.h"

namespace kv {

bool ShowBanner(const Config& config) {
  return (!config.syslog_enabled && config.logfile.empty() && ::isatty(STDOUT_FILENO)) ||
         config.always_show_logo;
}

std::string Banner(int port, long pid) {
  // The text starts in column 41 as in Redis's logo; the picture is kvserver's.
  static constexpr char kFormat[] =
      "                                                                     \n"
      "     .--------------------------.                                    \n"
      "     |  __  ___   __           |           Redis %s (00000000/0) %d bit\n"
      "     | |  |/  /\\  \\ /  /       |                                    \n"
      "     | |     /  \\  V  / server |           Running in standalone mode\n"
      "     | |  |\\  \\  \\   /         |           Port: %d\n"
      "     | |__| \\__\\  \\_/          |           PID: %ld\n"
      "     |                          |                                    \n"
      "     |  key-value, in memory    |           kvserver %s\n"
      "     '--------------------------'                https://redis.io       \n"
      "                                                                     \n\n";
  char buf[2048];
  std::snprintf(buf, sizeof(buf), kFormat, kRedisCompatVersion, static_cast<int>(sizeof(long) * 8),
                port, pid, kKvserverVersion);
  return buf;
}

}  // namespace kv
