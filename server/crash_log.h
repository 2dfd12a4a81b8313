#pragma once

#include "server/config.h"

namespace kv {

// crash-log-enabled: on SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT, write Redis's bug report
// frame ("=== REDIS BUG REPORT START ...", the signal, a stack trace, "... END ...") to the log,
// then die of the same signal. With it off, the default actions apply. Sanitized builds keep the
// sanitizers' own reports instead.
void SetCrashLog(const Config& config);

}  // namespace kv
