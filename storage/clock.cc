#include "storage/clock.h"

#include <time.h>

namespace kv {
namespace {

// `clock`'s time in units of 1 / `per_second` seconds.
int64_t Now(clockid_t clock, int64_t per_second) {
  timespec ts;
  clock_gettime(clock, &ts);
  return static_cast<int64_t>(ts.tv_sec) * per_second + ts.tv_nsec / (1'000'000'000 / per_second);
}

}  // namespace

int64_t SystemClock::NowMs() const { return Now(CLOCK_REALTIME, 1000); }

int64_t SystemClock::NowMsCoarse() const { return Now(CLOCK_REALTIME_COARSE, 1000); }

int64_t SystemClock::NowUs() const { return Now(CLOCK_REALTIME, 1'000'000); }

}  // namespace kv
