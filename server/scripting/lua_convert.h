#pragma once

#include <string_view>

#include "protocol/reply_writer.h"

struct lua_State;

namespace kv {

// The conversions of Redis 7.0's script_lua.c between command replies and Lua values.

// Redis's luaPushErrorBuff: pushes {err = "CODE message"}; a text without a leading "-CODE "
// gets the code ERR, and CR/LF at either end of the message go.
void PushLuaErrorTable(lua_State* L, std::string_view text);

// Pushes the Lua value of `reply`, one complete RESP2 or RESP3 reply kvserver made: integers
// and bulk strings as numbers and strings, nulls as false (RESP3's null as nil), status and
// errors as {ok=...} and {err=...}, arrays as tables, and RESP3's maps, sets, doubles, big
// numbers and verbatim strings as {map=...}, {set=...}, {double=...}, {big_number=...} and
// {verbatim_string={format=..., string=...}}; attributes are skipped.
void PushRespAsLua(lua_State* L, std::string_view reply);

// Pops the value at the top of the stack and writes it as the script's reply (Redis's
// luaReplyToRedisReply); `script_protocol` is what redis.setresp chose, which decides what a
// boolean becomes.
// Returns true when the reply is an error whose table says it was already counted
// (ignore_error_stats_update).
bool WriteLuaReply(lua_State* L, int script_protocol, ReplyWriter& reply);

// Writes the error a failed script left at the top of the stack (a table from the error
// handler, or anything else), as Redis's luaCallFunction.
// Returns what WriteLuaReply does.
bool WriteLuaError(lua_State* L, std::string_view funcname, ReplyWriter& reply);

}  // namespace kv
