#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "server/config.h"

namespace kv {

// The process title `ps` shows, as Redis's setproctitle: the memory of the program's arguments
// is overwritten with the title (the environment and the arguments are first copied elsewhere,
// so nothing else reads that memory afterwards).
class ProcTitle {
 public:
  // Must run first in main, before anything keeps a pointer into argv or the environment.
  static void Init(int argc, char** argv);
  // The program name as it was invoked (Redis's {title}).
  static const std::string& ProgramName();
  static void Set(std::string_view title);
};

// The facts proc-title-template's variables show that the configuration does not hold.
struct ProcTitleFacts {
  int port = 0;  // the TCP port actually listened on
};

// proc-title-template expanded as Redis's redisProcTitleGetVariable does, trimmed of blanks;
// nullopt when it cannot be (never for a template the configuration accepted).
std::optional<std::string> ExpandProcTitle(const Config& config, const ProcTitleFacts& facts);

}  // namespace kv
