#pragma once

struct lua_State;

namespace kv {

// Redis 7.0's Lua sandbox on a stock Lua 5.1. Redis patches its Lua with read-only tables; here a
// protected table is an empty proxy whose metatable reads through to the real table and refuses
// writes ("Attempt to modify a readonly table"), and rawset and setmetatable refuse proxies.

// Drops every global not on Redis's allow lists (print, dofile, loadfile, ...).
void KeepAllowedGlobals(lua_State* L);
// Creates the registry tables the proxies need; once per interpreter, first.
void InitReadonlyProxies(lua_State* L);
// Pushes a read-only proxy of the table at the top, which it pops.
void PushProxy(lua_State* L);
// Replaces every table reachable from the table at the top by its read-only proxy (Redis's
// luaSetTableProtectionRecursively); the table itself stays writable.
void ProtectFields(lua_State* L);
// Gives the table at the top a metatable whose __index raises Redis's "Script attempted to
// access nonexistent global variable" error.
void SetErrorMetatable(lua_State* L);
// rawset and setmetatable (the original as upvalue 1) that refuse the proxies.
int GuardedRawset(lua_State* L);
int GuardedSetmetatable(lua_State* L);
// next and pairs that walk the table behind a proxy, as they walk Redis's read-only tables.
int ProxyAwareNext(lua_State* L);
int ProxyAwarePairs(lua_State* L);
// loadstring (the original as upvalue 1) that refuses precompiled chunks as Redis's Lua does.
int TextOnlyLoadstring(lua_State* L);
// Redis's __redis__err__handler: turns an error into {err, source, line}.
int ErrorHandler(lua_State* L);

}  // namespace kv
