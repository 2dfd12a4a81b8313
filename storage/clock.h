#pragma once

#include <atomic>
#include <cstdint>

namespace kv {

// The source of time for expiry. Redis expiry is wall-clock based (EXPIREAT takes Unix time),
// so times are Unix milliseconds. Tests substitute a ManualClock and never sleep.
class Clock {
 public:
  virtual ~Clock() = default;
  virtual int64_t NowMs() const = 0;
  // Unix microseconds (MONITOR's timestamps); a manual clock has whole milliseconds.
  virtual int64_t NowUs() const { return NowMs() * 1000; }
  // NowMs to within a few milliseconds, for bookkeeping such as a client's idle time, where
  // reading the clock is a noticeable part of a request's cost.
  virtual int64_t NowMsCoarse() const { return NowMs(); }
};

class SystemClock final : public Clock {
 public:
  int64_t NowMs() const override;
  int64_t NowUs() const override;
  // CLOCK_REALTIME_COARSE: the time of the last tick (1-4 ms), read without the TSC.
  int64_t NowMsCoarse() const override;
};

// Thread-safe: a test may move it while a server reads it on its own thread.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(int64_t start_ms = 1'700'000'000'000) : now_ms_(start_ms) {}
  int64_t NowMs() const override { return now_ms_.load(std::memory_order_acquire); }
  void Advance(int64_t ms) { now_ms_.fetch_add(ms, std::memory_order_acq_rel); }
  void Set(int64_t ms) { now_ms_.store(ms, std::memory_order_release); }

 private:
  std::atomic<int64_t> now_ms_;
};

}  // namespace kv
