#pragma once

struct lua_State;

namespace kv {

// Pushes the `cmsgpack` library table (Redis's lua-cmsgpack 0.4.0: pack, unpack, unpack_one,
// unpack_limit); a lua_CFunction for the library loader.
int OpenCmsgpack(lua_State* L);

}  // namespace kv
