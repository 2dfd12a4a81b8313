#pragma once

#include <string>
#include <string_view>

#include "server/config.h"

namespace spdlog {
class logger;
}

namespace kv {

// Redis's daemonize(): forks; the parent exits with status 0, the child starts a session of its
// own and points standard input, output and error at /dev/null.
void Daemonize();

// Redis's createPidFile: writes the process id and a newline to `path`, on a best-effort basis
// (an unwritable path is no error).
void WritePidFile(const std::string& path);

// Redis's redisCommunicateSystemd without libsystemd: sends `message` to the datagram socket
// named by $NOTIFY_SOCKET (sd_notify's protocol). > 0 when sent, 0 when there is no such
// socket, < 0 on error; logs Redis's supervision errors.
int NotifySystemd(std::string_view message, spdlog::logger& log);

// Redis's redisIsSupervised: `auto` detects upstart ($UPSTART_JOB) or systemd ($NOTIFY_SOCKET);
// upstart is told the server is ready by stopping (SIGSTOP) now, systemd later with READY=1.
// Returns the mode in effect (kNone when unsupervised).
SupervisedMode SetUpSupervision(SupervisedMode mode, spdlog::logger& log);

}  // namespace kv
