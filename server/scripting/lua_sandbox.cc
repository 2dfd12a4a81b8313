#include "server/scripting/lua_sandbox.h"

#include <cstring>
#include <initializer_list>

extern "C" {
#include <lauxlib.h>
#include <lua.h>
}

namespace kv {
namespace {

// Registry keys.
constexpr char kProxiesKey[] = "kv_readonly_proxies";  // proxy -> true (weak keys)
constexpr char kProxyOfKey[] = "kv_proxy_of";          // real table -> its proxy
constexpr char kRealOfKey[] = "kv_real_of";            // proxy -> its real table (weak keys)

// The globals Redis 7.0.15's scripts see (its allow lists, less what its Lua build does not
// define: getfenv, setfenv, newproxy). Anything else a library adds is dropped.
constexpr const char* kAllowedGlobals[] = {"string",
                                           "cjson",
                                           "bit",
                                           "cmsgpack",
                                           "math",
                                           "table",
                                           "struct",
                                           "redis",
                                           "__redis__err__handler",
                                           "xpcall",
                                           "tostring",
                                           "setmetatable",
                                           "next",
                                           "assert",
                                           "tonumber",
                                           "rawequal",
                                           "collectgarbage",
                                           "getmetatable",
                                           "rawset",
                                           "pcall",
                                           "coroutine",
                                           "type",
                                           "_G",
                                           "select",
                                           "unpack",
                                           "gcinfo",
                                           "pairs",
                                           "rawget",
                                           "loadstring",
                                           "ipairs",
                                           "_VERSION",
                                           "load",
                                           "error"};

int ReadonlyError(lua_State* L) { return luaL_error(L, "Attempt to modify a readonly table"); }

// Redis raises this one from inside lua_rawset and lua_setmetatable, where there is no Lua
// position to prefix.
int ReadonlyErrorInApi(lua_State* L) {
  lua_pushliteral(L, "Attempt to modify a readonly table");
  return lua_error(L);
}

// The globals' __index: reading an undefined global is an error.
int NonexistentGlobal(lua_State* L) {
  if (lua_gettop(L) != 2)
    return luaL_error(L, "Wrong number of arguments to luaProtectedTableError");
  if (!lua_isstring(L, -1) && !lua_isnumber(L, -1)) {
    return luaL_error(L, "Second argument to luaProtectedTableError must be a string or number");
  }
  return luaL_error(L, "Script attempted to access nonexistent global variable '%s'",
                    lua_tostring(L, -1));
}

bool IsReadonlyProxy(lua_State* L, int idx) {
  if (!lua_istable(L, idx)) return false;
  idx = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
  lua_getfield(L, LUA_REGISTRYINDEX, kProxiesKey);
  lua_pushvalue(L, idx);
  lua_rawget(L, -2);
  const bool ro = lua_toboolean(L, -1);
  lua_pop(L, 2);
  return ro;
}

// rawset and setmetatable refuse the read-only proxies, as Redis's read-only tables.
}  // namespace

int GuardedRawset(lua_State* L) {
  if (IsReadonlyProxy(L, 1)) return ReadonlyErrorInApi(L);
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checkany(L, 2);
  luaL_checkany(L, 3);
  lua_settop(L, 3);
  lua_rawset(L, 1);
  return 1;
}

int GuardedSetmetatable(lua_State* L) {
  if (IsReadonlyProxy(L, 1)) return ReadonlyErrorInApi(L);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

// Pushes a read-only proxy of the table at the top (which it pops): an empty table whose
// metatable reads from the original and refuses writes. getmetatable on the proxy gives a
// read-only view of that metatable.
void PushProxy(lua_State* L) {
  const int real = lua_gettop(L);
  lua_newtable(L);  // proxy
  const int proxy = real + 1;
  lua_newtable(L);  // its metatable
  lua_pushvalue(L, real);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, ReadonlyError);
  lua_setfield(L, -2, "__newindex");
  // The view getmetatable returns: reads through, refuses writes.
  lua_newtable(L);
  lua_newtable(L);
  lua_pushvalue(L, -3);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, ReadonlyError);
  lua_setfield(L, -2, "__newindex");
  lua_setmetatable(L, -2);
  lua_getfield(L, LUA_REGISTRYINDEX, kProxiesKey);
  lua_pushvalue(L, -2);
  lua_pushboolean(L, 1);
  lua_rawset(L, -3);
  lua_pop(L, 1);
  lua_setfield(L, -2, "__metatable");
  lua_setmetatable(L, proxy);
  lua_getfield(L, LUA_REGISTRYINDEX, kProxiesKey);
  lua_pushvalue(L, proxy);
  lua_pushboolean(L, 1);
  lua_rawset(L, -3);
  lua_pop(L, 1);
  lua_getfield(L, LUA_REGISTRYINDEX, kProxyOfKey);
  lua_pushvalue(L, real);
  lua_pushvalue(L, proxy);
  lua_rawset(L, -3);
  lua_pop(L, 1);
  lua_getfield(L, LUA_REGISTRYINDEX, kRealOfKey);
  lua_pushvalue(L, proxy);
  lua_pushvalue(L, real);
  lua_rawset(L, -3);
  lua_pop(L, 1);
  lua_remove(L, real);
}

// Replaces every table reachable from the table at the top by its read-only proxy (Redis's
// luaSetTableProtectionRecursively); the table itself stays writable for kvserver's own use.
void ProtectFields(lua_State* L) {
  const int t = lua_gettop(L);
  // Collect the keys first: a table must not change while lua_next walks it.
  lua_newtable(L);
  const int keys = t + 1;
  int n = 0;
  lua_pushnil(L);
  while (lua_next(L, t)) {
    if (lua_istable(L, -1) && !IsReadonlyProxy(L, -1)) {
      lua_pushvalue(L, -2);
      lua_rawseti(L, keys, ++n);
    }
    lua_pop(L, 1);
  }
  for (int i = 1; i <= n; ++i) {
    lua_rawgeti(L, keys, i);  // key
    lua_pushvalue(L, -1);
    lua_rawget(L, t);  // value (a table)
    lua_getfield(L, LUA_REGISTRYINDEX, kProxyOfKey);
    lua_pushvalue(L, -2);
    lua_rawget(L, -2);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 2);
      lua_pushvalue(L, -1);
      ProtectFields(L);
      lua_pop(L, 1);
      PushProxy(L);
    } else {
      lua_remove(L, -2);
      lua_remove(L, -2);
    }
    lua_rawset(L, t);
  }
  lua_settop(L, t);
}

// Redis's error handler (__redis__err__handler): turns an error into a table {err, source, line}
// with the position of the Lua code that raised it (skipping a C function such as redis.call).
int ErrorHandler(lua_State* L) {
  lua_Debug ar;
  bool have = lua_getstack(L, 1, &ar) && lua_getinfo(L, "nSl", &ar);
  if (have && std::strcmp(ar.what, "C") == 0) {
    have = lua_getstack(L, 2, &ar) && lua_getinfo(L, "nSl", &ar);
  }
  if (!lua_istable(L, 1)) {
    lua_pushliteral(L, "ERR ");
    lua_getglobal(L, "tostring");
    lua_pushvalue(L, 1);
    lua_call(L, 1, 1);
    lua_concat(L, 2);
    lua_newtable(L);
    lua_insert(L, -2);
    lua_setfield(L, -2, "err");
    lua_replace(L, 1);
  }
  if (have) {
    lua_pushstring(L, ar.source);
    lua_setfield(L, 1, "source");
    lua_pushnumber(L, ar.currentline);
    lua_setfield(L, 1, "line");
  }
  lua_settop(L, 1);
  return 1;
}

void SetErrorMetatable(lua_State* L) {
  lua_newtable(L);
  lua_pushcfunction(L, NonexistentGlobal);
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, -2);
}

int TextOnlyLoadstring(lua_State* L) {
  size_t len = 0;
  const char* chunk = luaL_checklstring(L, 1, &len);
  if (len == 0 || chunk[0] != '\033') {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
  }
  // Redis's Lua parses every chunk as text, so a precompiled one is a syntax error at its first
  // byte. Stock Lua would load it: parse it as text with that byte swapped for another
  // unexpected one, and name the real byte in the message.
  const char* name = luaL_optstring(L, 2, chunk);
  lua_pushliteral(L, "\001");
  lua_pushlstring(L, chunk + 1, len - 1);
  lua_concat(L, 2);
  size_t text_len = 0;
  const char* text = lua_tolstring(L, -1, &text_len);
  if (luaL_loadbuffer(L, text, text_len, name) == 0) return 1;  // cannot happen: '\001' is no token
  luaL_gsub(L, lua_tostring(L, -1), "'char(1)'", "'char(27)'");
  lua_pushnil(L);
  lua_insert(L, -2);
  return 2;
}

// The real table behind the proxy at `idx` replaces it; other values stay.
void UnwrapProxy(lua_State* L, int idx) {
  if (!IsReadonlyProxy(L, idx)) return;
  lua_getfield(L, LUA_REGISTRYINDEX, kRealOfKey);
  lua_pushvalue(L, idx);
  lua_rawget(L, -2);
  lua_replace(L, idx);
  lua_pop(L, 1);
}

int ProxyAwareNext(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  UnwrapProxy(L, 1);
  lua_settop(L, 2);
  if (lua_next(L, 1)) return 2;
  lua_pushnil(L);
  return 1;
}

int ProxyAwarePairs(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_pushcfunction(L, ProxyAwareNext);
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  return 3;
}

void KeepAllowedGlobals(lua_State* L) {
  const int top = lua_gettop(L);
  lua_newtable(L);
  const int doomed = top + 1;
  int n = 0;
  lua_pushnil(L);
  while (lua_next(L, LUA_GLOBALSINDEX)) {
    lua_pop(L, 1);
    bool allowed = false;
    if (lua_type(L, -1) == LUA_TSTRING) {
      const char* name = lua_tostring(L, -1);
      for (const char* a : kAllowedGlobals) allowed = allowed || std::strcmp(a, name) == 0;
    }
    if (!allowed) {
      lua_pushvalue(L, -1);
      lua_rawseti(L, doomed, ++n);
    }
  }
  for (int i = 1; i <= n; ++i) {
    lua_rawgeti(L, doomed, i);
    lua_pushnil(L);
    lua_rawset(L, LUA_GLOBALSINDEX);
  }
  lua_settop(L, top);
}

void InitReadonlyProxies(lua_State* L) {
  for (const char* key : {kProxiesKey, kRealOfKey}) {
    lua_newtable(L);
    lua_newtable(L);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_setfield(L, LUA_REGISTRYINDEX, key);
  }
  lua_newtable(L);
  lua_setfield(L, LUA_REGISTRYINDEX, kProxyOfKey);
}

}  // namespace kv
