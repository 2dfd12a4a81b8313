#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "server/conn_state.h"

namespace kv {

// Where a MONITOR connection's lines go: the connection itself (tests provide their own).
class MonitorSink {
 public:
  virtual ~MonitorSink() = default;
  // `line` is a whole status reply, "+...\r\n", to queue like any reply of the connection.
  virtual void SendMonitorLine(std::string_view line) = 0;
};

// The line Redis's replicationFeedMonitors sends for a command `conn` ran:
// +<unix secs>.<usec> [<db> <peer>] "arg" "arg" ...\r\n, where <peer> is "unix:<unixsocket>" for
// a unix socket client and its address otherwise; the arguments are quoted as sdscatrepr does,
// with redacted ones shown as "(redacted)".
std::string MonitorLine(int64_t unix_us, const ConnState& conn, std::string_view unixsocket,
                        std::span<const std::string_view> args);

// Takes `conn` off the server's `monitors` when it is monitoring (RESET, a closed connection).
void StopMonitoring(ConnState& conn, std::vector<ConnState*>& monitors);

}  // namespace kv
