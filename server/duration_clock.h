#pragma once

#include <cstdint>

namespace kv {

// Times commands for commandstats, latencystats, SLOWLOG and LATENCY: two readings per command.
// Like Redis built with USE_PROCESSOR_CLOCK, it reads the CPU's time-stamp counter when the CPU
// says the counter runs at one rate in every power state (constant_tsc and nonstop_tsc): a few
// nanoseconds, where clock_gettime costs about 60 on a VM. The counter's rate is measured against
// steady_clock once per process, then over this clock's whole life on each Calibrate(). Without
// such a counter it reads steady_clock.
class DurationClock {
 public:
  DurationClock();

  // A reading, in ticks.
  uint64_t Ticks() const;
  // A difference of readings in nanoseconds.
  uint64_t Nanoseconds(uint64_t ticks) const {
    return use_tsc_ ? static_cast<uint64_t>(static_cast<double>(ticks) * ns_per_tick_) : ticks;
  }
  // Refines the counter's rate (the server's cron calls it every second).
  void Calibrate();
  bool uses_tsc() const { return use_tsc_; }

  // A counter reading and the steady_clock time it was taken at.
  struct Reading {
    uint64_t ticks = 0;
    uint64_t ns = 0;
  };

 private:
  bool use_tsc_ = false;
  double ns_per_tick_ = 1;
  Reading start_;  // when this clock was made: Calibrate measures the rate from here
};

}  // namespace kv
