#include "server/commands/block_timeout.h"

#include <cmath>
#include <limits>

#include "server/long_double.h"

namespace kv {

bool ParseBlockTimeout(CommandContext& ctx, std::string_view arg, int64_t* deadline_ms) {
  const std::optional<long double> seconds = ParseLongDouble(arg);
  if (!seconds) {
    ctx.reply.Error("timeout is not a float or out of range");
    return false;
  }
  const long double ms = std::ceil(*seconds * 1000.0L);
  // Redis converts with a plain cast; on x86 anything out of range (infinities too) becomes
  // LLONG_MIN, hence negative.
  constexpr long double kLimit = 9223372036854775808.0L;  // 2^63
  int64_t timeout = std::numeric_limits<int64_t>::min();
  if (ms > -kLimit && ms < kLimit) timeout = static_cast<int64_t>(ms);
  if (timeout < 0) {
    ctx.reply.Error("timeout is negative");
    return false;
  }
  if (timeout == 0) {
    *deadline_ms = 0;
  } else if (timeout > std::numeric_limits<int64_t>::max() - ctx.now_ms) {
    *deadline_ms = std::numeric_limits<int64_t>::max();
  } else {
    *deadline_ms = ctx.now_ms + timeout;
  }
  return true;
}

}  // namespace kv
