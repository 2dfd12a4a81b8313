// The command timer: whichever counter it reads, a known span of steady_clock time comes out as
// that many nanoseconds, at the rate measured once per process and after calibration.

#include "server/duration_clock.h"

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"

namespace kv {
namespace {

// Busy-waits `span` of steady_clock time; returns the timer's reading of it.
uint64_t Measure(const DurationClock& clock, std::chrono::nanoseconds span) {
  const auto until = std::chrono::steady_clock::now() + span;
  const uint64_t start = clock.Ticks();
  while (std::chrono::steady_clock::now() < until) {
  }
  return clock.Nanoseconds(clock.Ticks() - start);
}

TEST(DurationClockTest, MeasuresSteadyClockSpans) {
  DurationClock clock;
  // At least the span (the reading brackets the wait); the upper bound only catches a wrong
  // rate, not a slow machine.
  uint64_t ns = Measure(clock, std::chrono::milliseconds(20));  // at the per-process rate
  EXPECT_GE(ns, 19'000'000u);
  EXPECT_LT(ns, 2'000'000'000u);
  ns = Measure(clock, std::chrono::milliseconds(150));
  EXPECT_GE(ns, 149'000'000u);
  EXPECT_LT(ns, 15'000'000'000u);
  clock.Calibrate();  // now over the 170 ms since the clock was made
  ns = Measure(clock, std::chrono::milliseconds(20));
  EXPECT_GE(ns, 19'000'000u);
  EXPECT_LT(ns, 2'000'000'000u);
}

TEST(DurationClockTest, UsesTheCounterExactlyWhenTheCpuSaysItIsInvariant) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  bool constant = false, nonstop = false;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    constant = line.find(" constant_tsc") != std::string::npos;
    nonstop = line.find(" nonstop_tsc") != std::string::npos;
    break;
  }
#if defined(__x86_64__)
  EXPECT_EQ(DurationClock().uses_tsc(), constant && nonstop);
#else
  EXPECT_FALSE(DurationClock().uses_tsc());
#endif
}

}  // namespace
}  // namespace kv
