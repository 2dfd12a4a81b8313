#pragma once

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdint>

namespace kv {

// Runs the event loop. Under a heavy load from many connections, the loop naps briefly when it
// runs out of ready work, before it waits for events.
//
// Why: a server faster than its clients finds no work after nearly every batch and blocks in
// epoll_wait, and every client write then has to wake it. On a VM that wake-up costs the writing
// client several microseconds of CPU (an inter-processor interrupt through the hypervisor): with
// redis-benchmark's one client thread as the bottleneck, kvserver served 5-10% fewer requests
// than a Redis that spends 25% more CPU per request, because Redis, busier, was woken half as
// often. While the loop naps it is not waiting on epoll, so the clients' writes wake nobody;
// their requests gather and are served in the next turn. Throughput at -c 16 to 256 rose 11-19%,
// with or without pipelining, at no more CPU per request (bench/results/loop-nap-2026-12-02).
//
// The nap is taken only when, in the last cron period, at least kMinConnections connections ran
// commands and the loop's thread was on the CPU for at least kMinBusyShare of it: with fewer
// clients each one waits for its reply, and a nap would only delay it; on a lightly loaded
// server a request would often arrive during a nap and wait for nothing. (The share, not the
// command rate: heavy commands such as LRANGE of 1,000 elements gain as much at 17k/s.) It lasts
// kNapPerConnection per connection that was active, within [kMinNap, kMaxNap]: long enough for many
// clients' next requests to gather (16 us at -c 16, 50 us at -c 50 served the most requests in A/B
// runs), short beside the latency of a reply among that many clients. The loop naps at most once
// between two turns that found work, so an idle server still blocks at once.
class BusyLoopNap {
 public:
  static constexpr std::chrono::microseconds kNapPerConnection{1};
  static constexpr std::chrono::microseconds kMinNap{16};
  static constexpr std::chrono::microseconds kMaxNap{50};
  static constexpr uint64_t kMinConnections = 16;
  static constexpr double kMinBusyShare = 0.4;

  // A connection ran commands. `seen_period` is the connection's own mark, so that each
  // connection counts once per period.
  void NoteActive(uint64_t* seen_period) {
    if (*seen_period == period_) return;
    *seen_period = period_;
    ++active_connections_;
  }

  // At each cron period's end: the loop's thread was on the CPU for `busy` of the `elapsed`
  // since the last call.
  void EndPeriod(std::chrono::nanoseconds busy, std::chrono::nanoseconds elapsed);

  // The calling thread's CPU time so far.
  static std::chrono::nanoseconds ThreadCpuTime();

  bool enabled() const { return enabled_; }

  // Runs `io` until it stops. Sets the calling thread's timer slack to 1 us.
  void Run(boost::asio::io_context& io) const;

 private:
  uint64_t period_ = 1;  // connections' marks start at 0
  uint64_t active_connections_ = 0;
  bool enabled_ = false;
  std::chrono::microseconds nap_{kMinNap};
};

}  // namespace kv
