#include "server/busy_loop_nap.h"

#include <gtest/gtest.h>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <vector>

namespace kv {
namespace {

using std::chrono::microseconds;
using std::chrono::milliseconds;

// One period of 100 ms in which `connections` distinct connections ran commands and the loop
// was busy for `busy`.
void Period(BusyLoopNap& nap, size_t connections, microseconds busy) {
  std::vector<uint64_t> marks(connections, 0);
  for (uint64_t& mark : marks) nap.NoteActive(&mark);
  nap.EndPeriod(busy, milliseconds(100));
}

TEST(BusyLoopNapTest, OnlyManyConnectionsKeepingTheLoopBusyTurnItOn) {
  BusyLoopNap nap;
  EXPECT_FALSE(nap.enabled());
  const microseconds busy(static_cast<int64_t>(BusyLoopNap::kMinBusyShare * 100'000));
  Period(nap, BusyLoopNap::kMinConnections - 1, milliseconds(100));
  EXPECT_FALSE(nap.enabled());
  Period(nap, BusyLoopNap::kMinConnections, busy);
  EXPECT_TRUE(nap.enabled());
  Period(nap, BusyLoopNap::kMinConnections * 10, busy - microseconds(1));
  EXPECT_FALSE(nap.enabled());
  Period(nap, 0, microseconds(0));
  EXPECT_FALSE(nap.enabled());
}

TEST(BusyLoopNapTest, AConnectionCountsOncePerPeriod) {
  BusyLoopNap nap;
  std::vector<uint64_t> marks(BusyLoopNap::kMinConnections - 1, 0);
  for (int i = 0; i < 3; ++i) {
    for (uint64_t& mark : marks) nap.NoteActive(&mark);
  }
  nap.EndPeriod(milliseconds(100), milliseconds(100));
  EXPECT_FALSE(nap.enabled());
  // The same connections count again in the next period, with one more they are enough.
  marks.push_back(0);
  for (uint64_t& mark : marks) nap.NoteActive(&mark);
  nap.EndPeriod(milliseconds(100), milliseconds(100));
  EXPECT_TRUE(nap.enabled());
}

double ThreadCpuMs() {
  return std::chrono::duration<double, std::milli>(BusyLoopNap::ThreadCpuTime()).count();
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
  // 100 ms idle: a loop that polled instead of blocking would spend most of it on the CPU.
  EXPECT_LT(cpu_while_idle, 30.0);
}

TEST(BusyLoopNapTest, RunServesEveryHandlerAndBlocksWhenIdle) {
  BusyLoopNap off;
  ExpectRunsHandlersAndBlocksWhenIdle(off);
  BusyLoopNap on;
  Period(on, BusyLoopNap::kMinConnections, milliseconds(100));
  ASSERT_TRUE(on.enabled());
  ExpectRunsHandlersAndBlocksWhenIdle(on);
}

}  // namespace
}  // namespace kv
