#pragma once

#include <string>

#include "server/config.h"

namespace kv {

// Whether the start-up banner is shown (Redis's redisAsciiArt): when logging to a terminal on
// standard output without syslog, or when always-show-logo is set. Otherwise the server logs
// "Running mode=standalone, port=<port>." instead.
bool ShowBanner(const Config& config);

// The banner: kvserver's own picture beside the lines of Redis's logo, with the same words in
// the same columns ("Redis 7.0.15 (00000000/0) 64 bit", "Running in standalone mode",
// "Port: <port>", "PID: <pid>", which Redis's test suite waits for, and the URL).
std::string Banner(int port, long pid);

}  // namespace kv
