#include "server/latency_monitor.h"

#include "server/strings.h"

namespace kv {

void LatencyMonitor::AddSample(std::string_view event, int64_t now_s, uint64_t latency_ms) {
  auto it = events_.find(event);
  if (it == events_.end()) it = events_.emplace(std::string(event), Series{}).first;
  Series& s = it->second;
  if (latency_ms > s.max_ms) s.max_ms = latency_ms;
  // Within the same second only the worst latency is kept.
  Sample& prev = s.samples[(s.next + kHistory - 1) % kHistory];
  if (prev.time_s == now_s) {
    if (latency_ms > prev.latency_ms) prev.latency_ms = latency_ms;
    return;
  }
  s.samples[s.next] = {now_s, latency_ms};
  s.next = (s.next + 1) % kHistory;
}

size_t LatencyMonitor::Reset(std::string_view event) {
  return std::erase_if(events_,
                       [&](const auto& entry) { return EqualsIgnoreCase(entry.first, event); });
}

size_t LatencyMonitor::ResetAll() {
  const size_t n = events_.size();
  events_.clear();
  return n;
}

const LatencyMonitor::Series* LatencyMonitor::Find(std::string_view event) const {
  auto it = events_.find(event);
  return it == events_.end() ? nullptr : &it->second;
}

}  // namespace kv
