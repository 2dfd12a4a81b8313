#pragma once

#include <cstdint>
#include <string_view>

#include "server/command.h"

namespace kv {

// Redis's getTimeoutFromObjectOrReply in seconds, for the blocking commands (BLPOP and the
// others): a float of seconds, rounded up to whole milliseconds; 0 waits forever. Replies Redis's
// error and returns false for text that is not a float, or a negative or out-of-range timeout.
// Otherwise `*deadline_ms` is the Unix time in ms to wait until (0: forever); a deadline past the
// end of time waits forever too, as Redis's (whose sum wraps and then sorts after every real one).
bool ParseBlockTimeout(CommandContext& ctx, std::string_view arg, int64_t* deadline_ms);

}  // namespace kv
