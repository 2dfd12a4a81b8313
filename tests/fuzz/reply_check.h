#pragma once

#include <cstddef>
#include <string_view>

namespace kv::fuzz {

// Counts the complete RESP2/RESP3 replies `bytes` holds, checking each one's framing: lengths
// that match their payloads, aggregates with as many elements as they announce, integers that are
// integers, simple strings without CR or LF. Returns -1 when the bytes are not a sequence of
// well-formed replies (something left over, a truncated reply, a malformed header). With
// `pushes`, RESP3 push frames ('>') are counted there instead (pub/sub messages, notifications
// and invalidations a client gets besides its replies).
int CountReplies(std::string_view bytes, int* pushes = nullptr);

}  // namespace kv::fuzz
