#pragma once

#include <optional>
#include <string>
#include <vector>

#include "server/config.h"

namespace kv {

// The warnings Redis logs at start-up about the system it runs on ("WARNING ..." lines), in its
// order: vm.overcommit_memory not 1, transparent huge pages set to "always" (unless disable-thp
// turned them off for this process, as Redis does with PR_SET_THP_DISABLE).
std::vector<std::string> LinuxMemoryWarnings(const Config& config);
// Redis's checkTcpBacklogSettings: the warning when somaxconn is below tcp-backlog, if it is.
std::optional<std::string> TcpBacklogWarning(const Config& config);

// Redis's setOOMScoreAdj: with oom-score-adj relative or absolute, writes the master's value of
// oom-score-adj-values to /proc/self/oom_score_adj (relative: added to the score the process
// started with); back to no, restores that score. Returns Redis's error on failure.
class OomScoreAdjuster {
 public:
  std::optional<std::string> Apply(const Config& config);

 private:
  bool adjusted_ = false;
  int base_ = 0;
};

// Redis's setcpuaffinity: pins the calling thread to the CPUs of a list such as "0-3,8" or
// "0-7:2"; a list it cannot read is ignored, as Redis ignores it.
void SetCpuAffinity(const std::string& cpulist);

}  // namespace kv
