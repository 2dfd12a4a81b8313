#include "server/daemon.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace kv {

void Daemonize() {
  if (::fork() != 0) std::_Exit(0);  // the parent exits (no destructors: they belong to the child)
  ::setsid();
  const int fd = ::open("/dev/null", O_RDWR, 0);
  if (fd != -1) {
    ::dup2(fd, STDIN_FILENO);
    ::dup2(fd, STDOUT_FILENO);
    ::dup2(fd, STDERR_FILENO);
    if (fd > STDERR_FILENO) ::close(fd);
  }
}

void WritePidFile(const std::string& path) {
  std::FILE* fp = std::fopen(path.c_str(), "w");
  if (fp != nullptr) {
    std::fprintf(fp, "%d\n", static_cast<int>(::getpid()));
    std::fclose(fp);
  }
}

int NotifySystemd(std::string_view message, spdlog::logger& log) {
  const char* socket_path = std::getenv("NOTIFY_SOCKET");
  int ret = 0;
  if (socket_path != nullptr && socket_path[0] != '\0') {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const size_t len = std::strlen(socket_path);
    if (len >= sizeof(addr.sun_path) || (socket_path[0] != '/' && socket_path[0] != '@')) {
      ret = -EINVAL;
    } else {
      std::memcpy(addr.sun_path, socket_path, len);
      if (addr.sun_path[0] == '@') addr.sun_path[0] = '\0';  // the abstract namespace
      const int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
      if (fd < 0) {
        ret = -errno;
      } else {
        const socklen_t addr_len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + len);
        const ssize_t n = ::sendto(fd, message.data(), message.size(), MSG_NOSIGNAL,
                                   reinterpret_cast<const sockaddr*>(&addr), addr_len);
        ret = n < 0 ? -errno : 1;
        ::close(fd);
      }
    }
  }
  if (ret == 0) {
    log.warn("systemd supervision error: NOTIFY_SOCKET not found!");
  } else if (ret < 0) {
    log.warn("systemd supervision error: sd_notify: {}", ret);
  }
  return ret;
}

SupervisedMode SetUpSupervision(SupervisedMode mode, spdlog::logger& log) {
  if (mode == SupervisedMode::kAuto) {
    if (std::getenv("UPSTART_JOB") != nullptr) {
      log.debug("Upstart supervision detected.");
      mode = SupervisedMode::kUpstart;
    } else if (std::getenv("NOTIFY_SOCKET") != nullptr) {
      log.debug("Systemd supervision detected.");
      mode = SupervisedMode::kSystemd;
    }
  }
  if (mode == SupervisedMode::kUpstart) {
    if (std::getenv("UPSTART_JOB") == nullptr) {
      log.warn("upstart supervision requested, but UPSTART_JOB not found!");
      return SupervisedMode::kNone;
    }
    log.info("supervised by upstart, will stop to signal readiness.");
    std::raise(SIGSTOP);
    ::unsetenv("UPSTART_JOB");
    return mode;
  }
  if (mode == SupervisedMode::kSystemd) {
    if (NotifySystemd("STATUS=Redis is loading...\n", log) <= 0) return SupervisedMode::kNone;
    log.info(
        "Supervised by systemd. Please make sure you set appropriate values for TimeoutStartSec "
        "and TimeoutStopSec in your service unit.");
    return mode;
  }
  return SupervisedMode::kNone;
}

}  // namespace kv
