#include "server/duration_clock.h"

#include <fstream>
#include <sstream>
#include <string>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace kv {
namespace {

uint64_t SteadyNs(std::chrono::steady_clock::time_point t) {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count());
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

// The counter's rate, measured once per process over a millisecond; 0 without a usable counter.
double MeasureNsPerTick() {
  if (!HasInvariantTsc()) return 0;
  const auto t0 = std::chrono::steady_clock::now();
  const uint64_t c0 = __rdtsc();
  auto t1 = t0;
  while (t1 - t0 < std::chrono::milliseconds(1)) t1 = std::chrono::steady_clock::now();
  const uint64_t c1 = __rdtsc();
  if (c1 <= c0) return 0;
  return static_cast<double>(SteadyNs(t1) - SteadyNs(t0)) / static_cast<double>(c1 - c0);
}
#else
double MeasureNsPerTick() { return 0; }
#endif

}  // namespace

DurationClock::DurationClock() {
  static const double kNsPerTick = MeasureNsPerTick();
  use_tsc_ = kNsPerTick > 0;
  ns_per_tick_ = kNsPerTick;
  start_time_ = std::chrono::steady_clock::now();
  start_ticks_ = Ticks();
}

uint64_t DurationClock::Ticks() const {
#if defined(__x86_64__)
  if (use_tsc_) return __rdtsc();
#endif
  return SteadyNs(std::chrono::steady_clock::now());
}

void DurationClock::Calibrate() {
  if (!use_tsc_) return;
  const auto now = std::chrono::steady_clock::now();
  const uint64_t ticks = Ticks();
  // Only over a long enough span for the clock readings' jitter not to matter.
  if (now - start_time_ < std::chrono::milliseconds(100) || ticks <= start_ticks_) return;
  ns_per_tick_ = static_cast<double>(SteadyNs(now) - SteadyNs(start_time_)) /
                 static_cast<double>(ticks - start_ticks_);
}

}  // namespace kv
