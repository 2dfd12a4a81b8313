#pragma once

#include <cstddef>
#include <cstdint>

#include "server/command.h"
#include "server/config.h"

namespace kv {

// For replies whose length a client's count decides rather than the data (HRANDFIELD or
// SRANDMEMBER with a count of -9223372036854775807): the reply stops growing once it passes what
// the client may be sent, and the client is disconnected, as Redis stops at CLIENT_CLOSE_ASAP
// when the output limit closes such a client. The bound is just past client-output-buffer-limit's
// hard limit for normal clients, so that the connection's own check after the command closes the
// client and drops the reply, as Redis's CLIENT_CLOSE_ASAP sends nothing (a client reading an
// array header of a billion elements would otherwise read on for ever); or 1 GB when that limit is
// 0 (Redis would grow until out of memory), sent as far as it goes before the client is closed.
class ReplyBudget {
 public:
  // The pending output the limits do not count (server/connection.cc's kUncountedOutput).
  static constexpr uint64_t kUncounted = 16 * 1024;

  explicit ReplyBudget(CommandContext& ctx) : ctx_(ctx) {
    const uint64_t hard =
        ctx.server.config.client_output_buffer_limit[static_cast<size_t>(ClientClass::kNormal)]
            .hard;
    limit_ = hard != 0 ? hard + kUncounted + 1 : uint64_t{1} << 30;
  }

  // Called after each element: false once the reply is over the bound (the client is then
  // closed after this command, and the caller stops).
  bool Continue() {
    if (ctx_.conn.close_asap) return false;  // the connection's own watch closed the client
    if ((++elements_ & 1023) != 0) return true;
    if (ctx_.reply.buffer()->size() < limit_) return true;
    ctx_.conn.close_after_reply = true;
    return false;
  }

 private:
  CommandContext& ctx_;
  uint64_t limit_;
  uint64_t elements_ = 0;
};

}  // namespace kv
