#include "server/duration_clock.h"

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace kv {
namespace {

uint64_t SteadyNs() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

#if defined(__x86_64__)
bool HasInvariantTsc() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line);
    bool constant = false, nonstop = false;
    for (std::string w; words >> w;) {
      constant |= w == "constant_tsc";
      nonstop |= w == "nonstop_tsc";
    }
    return constant && nonstop;
  }
  return false;
}

// A counter reading and the steady_clock time at that moment, taken between two clock readings
// close together, so that being descheduled in between cannot skew a rate.
DurationClock::Reading ReadBoth() {
  DurationClock::Reading r;
  for (int attempt = 0; attempt < 100; ++attempt) {
    const uint64_t before = SteadyNs();
    r.ticks = __rdtsc();
    const uint64_t after = SteadyNs();
    r.ns = before + (after - before) / 2;
    if (after - before < 20'000) break;
  }
  return r;
}

// The counter's rate, measured once per process over a millisecond; 0 without a usable counter.
double MeasureNsPerTick() {
  if (!HasInvariantTsc()) return 0;
  const DurationClock::Reading start = ReadBoth();
  while (SteadyNs() - start.ns < 1'000'000) {
  }
  const DurationClock::Reading end = ReadBoth();
  if (end.ticks <= start.ticks) return 0;
  return static_cast<double>(end.ns - start.ns) / static_cast<double>(end.ticks - start.ticks);
}
#endif

}  // namespace

DurationClock::DurationClock() {
#if defined(__x86_64__)
  static const double kNsPerTick = MeasureNsPerTick();
  use_tsc_ = kNsPerTick > 0;
  ns_per_tick_ = kNsPerTick;
  if (use_tsc_) start_ = ReadBoth();
#endif
}

uint64_t DurationClock::Ticks() const {
#if defined(__x86_64__)
  if (use_tsc_) return __rdtsc();
#endif
  return SteadyNs();
}

void DurationClock::Calibrate() {
#if defined(__x86_64__)
  if (!use_tsc_) return;
  const Reading now = ReadBoth();
  // Only over a span long enough for the readings' own error not to matter.
  if (now.ns - start_.ns < 100'000'000 || now.ticks <= start_.ticks) return;
  ns_per_tick_ =
      static_cast<double>(now.ns - start_.ns) / static_cast<double>(now.ticks - start_.ticks);
#endif
}

}  // namespace kv
