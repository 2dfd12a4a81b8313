#include "server/busy_loop_nap.h"

#include <gtest/gtest.h>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <ctime>
#include <vector>

namespace kv {
namespace {

using std::chrono::milliseconds;

// One period of `connections` distinct connections running `commands` in 100 ms.
void Period(BusyLoopNap& nap, size_t connections, uint64_t commands) {
  std::vector<uint64_t> marks(connections, 0);
  for (uint64_t& mark : marks) nap.NoteActive(&mark);
  nap.EndPeriod(commands, milliseconds(100));
}

TEST(BusyLoopNapTest, OnlyManyConnectionsAtAHighRateTurnItOn) {
  BusyLoopNap nap;
  EXPECT_FALSE(nap.enabled());
  const uint64_t busy = BusyLoopNap::kMinCommandsPerSecond / 10;  // per 100 ms
  Period(nap, BusyLoopNap::kMinConnections - 1, busy * 10);
  EXPECT_FALSE(nap.enabled());
  Period(nap, BusyLoopNap::kMinConnections, busy);
  EXPECT_TRUE(nap.enabled());
  Period(nap, BusyLoopNap::kMinConnections, busy - 1);
  EXPECT_FALSE(nap.enabled());
  Period(nap, 0, 0);
  EXPECT_FALSE(nap.enabled());
}

TEST(BusyLoopNapTest, AConnectionCountsOncePerPeriod) {
  BusyLoopNap nap;
  std::vector<uint64_t> marks(BusyLoopNap::kMinConnections - 1, 0);
  for (int i = 0; i < 3; ++i) {
    for (uint64_t& mark : marks) nap.NoteActive(&mark);
  }
  nap.EndPeriod(1'000'000, milliseconds(100));
  EXPECT_FALSE(nap.enabled());
  // The same connections count again in the next period, with one more they are enough.
  marks.push_back(0);
  for (uint64_t& mark : marks) nap.NoteActive(&mark);
  nap.EndPeriod(1'000'000, milliseconds(100));
  EXPECT_TRUE(nap.enabled());
}

double ThreadCpuMs() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

// Runs handlers in order whether napping or not, blocks while idle instead of spinning, and
// returns once the io_context stops.
void ExpectRunsHandlersAndBlocksWhenIdle(const BusyLoopNap& nap) {
  boost::asio::io_context io;
  std::vector<int> order;
  for (int i = 0; i < 100; ++i) boost::asio::post(io, [&order, i] { order.push_back(i); });
  boost::asio::steady_timer timer(io, milliseconds(100));
  double cpu_while_idle = 0;
  const double start = ThreadCpuMs();
  timer.async_wait([&](const boost::system::error_code&) {
    cpu_while_idle = ThreadCpuMs() - start;
    io.stop();
  });
  nap.Run(io);
  ASSERT_EQ(order.size(), 100u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(order[i], i);
  EXPECT_TRUE(io.stopped());
  // 100 ms idle: a loop that spun or napped over and over would spend most of it on the CPU.
  EXPECT_LT(cpu_while_idle, 30.0);
}

TEST(BusyLoopNapTest, RunServesEveryHandlerAndBlocksWhenIdle) {
  BusyLoopNap off;
  ExpectRunsHandlersAndBlocksWhenIdle(off);
  BusyLoopNap on;
  Period(on, BusyLoopNap::kMinConnections, BusyLoopNap::kMinCommandsPerSecond);
  ASSERT_TRUE(on.enabled());
  ExpectRunsHandlersAndBlocksWhenIdle(on);
}

}  // namespace
}  // namespace kv
