#include "server/monitor.h"

#include <cstdio>

#include "server/strings.h"

namespace kv {

std::string MonitorLine(int64_t unix_us, const ConnState& conn, std::string_view unixsocket,
                        std::span<const std::string_view> args) {
  char stamp[48];
  std::snprintf(stamp, sizeof(stamp), "+%lld.%06lld [%zu ",
                static_cast<long long>(unix_us / 1000000),
                static_cast<long long>(unix_us % 1000000), conn.db_index);
  std::string line = stamp;
  if (conn.unix_socket) {
    line += "unix:";
    line += unixsocket;
  } else {
    line += conn.addr;
  }
  line += "] ";
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) line += ' ';
    AppendRepr(line, conn.LoggedArg(args, i));
  }
  line += "\r\n";
  return line;
}

void StopMonitoring(ConnState& conn, std::vector<ConnState*>& monitors) {
  if (!conn.monitor) return;
  std::erase(monitors, &conn);
  conn.monitor = false;
}

}  // namespace kv
