// The clocks: the system clock's coarse reading is the same wall-clock time to within a tick, and
// a manual clock's is its exact time.

#include "storage/clock.h"

#include "gtest/gtest.h"

namespace kv {
namespace {

TEST(ClockTest, CoarseSystemTimeIsWithinATickOfThePreciseTime) {
  SystemClock clock;
  for (int i = 0; i < 1000; ++i) {
    const int64_t before = clock.NowMs();
    const int64_t coarse = clock.NowMsCoarse();
    const int64_t after = clock.NowMs();
    // The coarse clock lags by at most one kernel tick (4 ms at HZ=250, 10 ms at HZ=100).
    ASSERT_LE(coarse, after);
    ASSERT_GE(coarse, before - 20);
  }
}

TEST(ClockTest, ManualClockIsExactEverywhere) {
  ManualClock clock(1'000);
  clock.Advance(5);
  EXPECT_EQ(clock.NowMs(), 1'005);
  EXPECT_EQ(clock.NowMsCoarse(), 1'005);
  EXPECT_EQ(clock.NowUs(), 1'005'000);
}

}  // namespace
}  // namespace kv
