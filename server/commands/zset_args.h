#pragma once

#include <cstdint>
#include <string_view>

#include "server/command.h"
#include "storage/zset.h"

namespace kv {

// The arguments the sorted set families (zset_family.cc, zset_range_family.cc,
// zset_setop_family.cc) read alike, with Redis's errors.

// Redis's getLongFromObjectOrReply (long is 64 bits): `msg` replaces both of its errors.
bool ParseLong(CommandContext& ctx, std::string_view arg, int64_t* out, std::string_view msg = {});
// Redis's getRangeLongFromObjectOrReply.
bool ParseRangeLong(CommandContext& ctx, std::string_view arg, int64_t min, int64_t max,
                    int64_t* out, std::string_view msg = {});
// Redis's getPositiveLongFromObjectOrReply.
bool ParsePositiveLong(CommandContext& ctx, std::string_view arg, int64_t* out,
                       std::string_view msg = {});

// zslParseRange and zslParseLexRange; on failure the caller replies the error below.
bool ParseScoreRange(std::string_view min, std::string_view max, ScoreRange* range);
bool ParseLexRange(std::string_view min, std::string_view max, LexRange* range);
inline constexpr std::string_view kNotFloatRange = "min or max is not a float";
inline constexpr std::string_view kNotLexRange = "min or max not valid string range item";

}  // namespace kv
