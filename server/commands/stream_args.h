#pragma once

#include <cstdint>
#include <string_view>

#include "server/command.h"
#include "server/errors.h"
#include "storage/stream.h"

namespace kv {

// The arguments the stream families (stream_family.cc, stream_group_family.cc) read alike, with
// Redis's errors.

// An argument as Redis's C string functions see it: up to its first NUL byte.
inline std::string_view CStr(std::string_view s) { return s.substr(0, s.find('\0')); }

// The server clock's time, for new ids and delivery times (Redis's mstime()).
inline int64_t NowMs(const CommandContext& ctx) { return ctx.server.clock->NowMs(); }

// Redis's streamGenericParseIDOrReply: "<ms>-<seq>", "<ms>" (seq = missing_seq), "-" and "+"
// unless strict, "<ms>-*" when seq_given is asked for. Replies the error when `ctx` is given.
bool ParseId(CommandContext* ctx, std::string_view arg, StreamId* id, uint64_t missing_seq,
             bool strict, bool* seq_given);
bool ParseStrictId(CommandContext& ctx, std::string_view arg, StreamId* id, uint64_t missing_seq,
                   bool* seq_given = nullptr);
// Redis's streamParseIntervalIDOrReply: an id, or "(id" for an exclusive bound.
bool ParseIntervalId(CommandContext& ctx, std::string_view arg, StreamId* id, bool* exclude,
                     uint64_t missing_seq);
// Redis's getLongLongFromObjectOrReply, with `error` for text that is not an integer.
bool ParseLongLong(CommandContext& ctx, std::string_view arg, int64_t* out,
                   std::string_view error = errors::kNotInteger);

}  // namespace kv
