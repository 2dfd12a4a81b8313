#pragma once

struct lua_State;

namespace kv {

// Pushes the `struct` library table (struct.pack, struct.unpack, struct.size as in Redis); a
// lua_CFunction for the library loader.
int OpenStruct(lua_State* L);

}  // namespace kv
