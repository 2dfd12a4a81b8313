#include "server/busy_loop_nap.h"

#include <sys/prctl.h>

#include <algorithm>
#include <ctime>

namespace kv {

void BusyLoopNap::EndPeriod(std::chrono::nanoseconds busy, std::chrono::nanoseconds elapsed) {
  enabled_ =
      active_connections_ >= kMinConnections &&
      static_cast<double>(busy.count()) >= kMinBusyShare * static_cast<double>(elapsed.count());
  nap_ = std::chrono::microseconds(std::clamp<uint64_t>(
      active_connections_ * kNapPerConnection.count(), kMinNap.count(), kMaxNap.count()));
  active_connections_ = 0;
  ++period_;
}

std::chrono::nanoseconds BusyLoopNap::ThreadCpuTime() {
  timespec now{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return std::chrono::seconds(now.tv_sec) + std::chrono::nanoseconds(now.tv_nsec);
}

void BusyLoopNap::Run(boost::asio::io_context& io) const {
  // The thread's timer slack (50 us by default) would more than double a short nap.
  ::prctl(PR_SET_TIMERSLACK, 1000UL);
  bool napped = false;
  while (!io.stopped()) {
    // Off, this is io.run(): the reactor blocks only when no handler is ready.
    if (!enabled_) {
      io.run_one();
      continue;
    }
    if (io.poll() != 0) {
      napped = false;
      continue;
    }
    if (io.stopped()) break;
    if (!napped) {
      napped = true;
      const timespec nap = {0, std::chrono::nanoseconds(nap_).count()};
      ::nanosleep(&nap, nullptr);
      continue;
    }
    napped = false;
    io.run_one();
  }
}

}  // namespace kv
