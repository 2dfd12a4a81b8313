#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "server/command.h"

namespace kv {

// What SCAN, HSCAN, SSCAN (and ZSCAN) share, as Redis's parseScanCursorOrReply and
// scanGenericCommand: the cursor, the options, and the reply.

// Redis's parseScanCursorOrReply: strtoul's rules (so "-1" wraps around and "" is 0), no leading
// space, the whole argument used. Replies "invalid cursor" and returns false otherwise.
bool ParseScanCursor(CommandContext& ctx, std::string_view arg, uint64_t* cursor);

struct ScanOptions {
  int64_t count = 10;
  std::string_view pattern;  // used when use_pattern
  bool use_pattern = false;  // false for no MATCH and for MATCH *
  std::string type;          // SCAN's TYPE, up to a NUL byte as Redis reads it
  bool use_type = false;

  // Whether `element` passes MATCH.
  bool Matches(std::string_view element) const;
};

// Parses [MATCH pattern] [COUNT count] (and [TYPE type] when `allow_type`, for SCAN) from
// ctx.args[first] on, in any order and repeated (the last wins), with Redis's errors: a COUNT
// that is not an integer, then one under 1 (syntax error), any other word. Replies the error and
// returns false.
bool ParseScanOptions(CommandContext& ctx, size_t first, bool allow_type, ScanOptions* options);

// The reply to HSCAN, SSCAN or ZSCAN of a missing key: cursor 0 and nothing (shared.emptyscan).
void ReplyEmptyScan(CommandContext& ctx);

// The reply's header: [cursor, [`n` elements follow]].
void ReplyScanHeader(CommandContext& ctx, uint64_t cursor, size_t n);

}  // namespace kv
