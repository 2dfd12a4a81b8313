#include "server/system_checks.h"

#include <fcntl.h>
#include <sched.h>
#include <spdlog/spdlog.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace kv {
namespace {

std::optional<std::string> FirstLine(const char* path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  return line;
}

}  // namespace

std::vector<std::string> LinuxMemoryWarnings(const Config& config) {
  std::vector<std::string> warnings;
  if (auto v = FirstLine("/proc/sys/vm/overcommit_memory");
      v && std::strtol(v->c_str(), nullptr, 10) != 1) {
    // Debian's redis-server (built with jemalloc) says so with the jemalloc sentence.
    warnings.push_back(
        "WARNING Memory overcommit must be enabled! Without it, a background save or replication "
        "may fail under low memory condition. Being disabled, it can can also cause failures "
        "without low memory condition, see https://github.com/jemalloc/jemalloc/issues/1328. To "
        "fix this issue add 'vm.overcommit_memory = 1' to /etc/sysctl.conf and then reboot or "
        "run the command 'sysctl vm.overcommit_memory=1' for this to take effect.");
  }
  if (auto v = FirstLine("/sys/kernel/mm/transparent_hugepage/enabled");
      v && v->find("[always]") != std::string::npos) {
    const bool disabled = config.disable_thp && ::prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) == 0;
    if (!disabled) {
      warnings.push_back(
          "WARNING You have Transparent Huge Pages (THP) support enabled in your kernel. This "
          "will create latency and memory usage issues with Redis. To fix this issue run the "
          "command 'echo madvise > /sys/kernel/mm/transparent_hugepage/enabled' as root, and add "
          "it to your /etc/rc.local in order to retain the setting after a reboot. Redis must be "
          "restarted after THP is disabled (set to 'madvise' or 'never').");
    }
  }
  return warnings;
}

std::optional<std::string> TcpBacklogWarning(const Config& config) {
  auto v = FirstLine("/proc/sys/net/core/somaxconn");
  if (!v) return std::nullopt;
  const int somaxconn = std::atoi(v->c_str());
  if (somaxconn > 0 && somaxconn < config.tcp_backlog) {
    return "WARNING: The TCP backlog setting of " + std::to_string(config.tcp_backlog) +
           " cannot be enforced because /proc/sys/net/core/somaxconn is set to the lower value "
           "of " +
           std::to_string(somaxconn) + ".";
  }
  return std::nullopt;
}

std::optional<std::string> OomScoreAdjuster::Apply(const Config& config) {
  int value;
  if (config.oom_score_adj != OomScoreAdj::kNo) {
    if (!adjusted_) {
      // Remember the score the process had, to add to (relative) and to restore.
      const int fd = ::open("/proc/self/oom_score_adj", O_RDONLY);
      char buf[64] = {};
      if (fd < 0 || ::read(fd, buf, sizeof(buf) - 1) < 0) {
        spdlog::warn("Unable to read oom_score_adj: {}", std::strerror(errno));
        if (fd != -1) ::close(fd);
        return "Failed to set current oom_score_adj. Check server logs.";
      }
      ::close(fd);
      adjusted_ = true;
      base_ = std::atoi(buf);
    }
    value = static_cast<int>(config.oom_score_adj_values[0]);  // this process is a master
    if (config.oom_score_adj == OomScoreAdj::kRelative) value += base_;
    if (value > 1000) value = 1000;
    if (value < -1000) value = -1000;
  } else if (adjusted_) {
    adjusted_ = false;
    value = base_;
  } else {
    return std::nullopt;
  }
  const std::string text = std::to_string(value) + "\n";
  const int fd = ::open("/proc/self/oom_score_adj", O_WRONLY);
  if (fd < 0 || ::write(fd, text.data(), text.size()) < 0) {
    spdlog::warn("Unable to write oom_score_adj: {}", std::strerror(errno));
    if (fd != -1) ::close(fd);
    return "Failed to set current oom_score_adj. Check server logs.";
  }
  ::close(fd);
  return std::nullopt;
}

void SetCpuAffinity(const std::string& cpulist) {
  if (cpulist.empty()) return;
  cpu_set_t set;
  CPU_ZERO(&set);
  const char* p = cpulist.c_str();
  auto number = [&](int* out) {
    if (*p < '0' || *p > '9') return false;
    char* end = nullptr;
    const long v = std::strtol(p, &end, 10);
    if (v < 0 || v >= CPU_SETSIZE) return false;
    *out = static_cast<int>(v);
    p = end;
    return true;
  };
  while (true) {
    int first = 0, last = 0, step = 1;
    if (!number(&first)) return;
    last = first;
    if (*p == '-') {
      ++p;
      if (!number(&last)) return;
      if (*p == ':') {
        ++p;
        if (!number(&step) || step == 0) return;
      }
    }
    if (first > last) return;
    for (int cpu = first; cpu <= last; cpu += step) CPU_SET(cpu, &set);
    if (*p == '\0') break;
    if (*p != ',') return;
    ++p;
  }
  ::sched_setaffinity(0, sizeof(set), &set);
}

}  // namespace kv
