#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace kv {

// Redis's latency monitor (latency.c): for each event ("command", "fast-command"), the latest
// 160 seconds in which it took at least latency-monitor-threshold milliseconds (the worst
// latency of each second) and its all-time maximum.
class LatencyMonitor {
 public:
  static constexpr size_t kHistory = 160;  // Redis's LATENCY_TS_LEN
  struct Sample {
    int64_t time_s = 0;  // 0: an unused slot
    uint64_t latency_ms = 0;
  };
  struct Series {
    size_t next = 0;  // the slot the next sample goes to
    uint64_t max_ms = 0;
    std::array<Sample, kHistory> samples{};
    const Sample& latest() const { return samples[(next + kHistory - 1) % kHistory]; }
  };

  // Redis's latencyAddSample.
  void AddSample(std::string_view event, int64_t now_s, uint64_t latency_ms);
  // Redis's latencyResetEvent: forgets the event named `event` (any case); returns how many
  // events were forgotten.
  size_t Reset(std::string_view event);
  size_t ResetAll();
  // The event named exactly `event`, or null.
  const Series* Find(std::string_view event) const;
  const std::map<std::string, Series, std::less<>>& events() const { return events_; }

 private:
  std::map<std::string, Series, std::less<>> events_;
};

}  // namespace kv
