#include "server/scripting/lua_vm.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "protocol/inline_splitter.h"
#include "server/command.h"
#include "server/command_registry.h"
#include "server/dispatcher.h"
#include "server/errors.h"
#include "server/monitor.h"
#include "server/persistence/snapshot.h"
#include "server/scripting/lua_cmsgpack.h"
#include "server/scripting/lua_convert.h"
#include "server/scripting/lua_sandbox.h"
#include "server/scripting/lua_struct.h"
#include "server/server_state.h"
#include "server/sha1.h"
#include "server/strings.h"
#include "spdlog/spdlog.h"

extern "C" {
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
int luaopen_cjson(lua_State* L);
int luaopen_bit(lua_State* L);
}

namespace kv {
namespace {

// Redis's log levels (LL_DEBUG .. LL_WARNING).
constexpr int kLogDebug = 0, kLogVerbose = 1, kLogNotice = 2, kLogWarning = 3;
// PROPAGATE_AOF, PROPAGATE_REPL.
constexpr int kReplAof = 1, kReplReplica = 2;
constexpr uint32_t kRedisVersionNum = 0x0007000f;
constexpr size_t kLuaHeapLimit = size_t{1} << 30;  // 1 GiB per interpreter
constexpr char kRedisVersion[] = "7.0.15";

// Redis's rand.c: the 48-bit lrand48 generator behind math.random, seeded as Redis seeds it.
struct Lrand48 {
  uint64_t x = 0x1234ABCD330EULL;
  int32_t Next() {
    x = (x * 0x5DEECE66DULL + 0xB) & ((uint64_t{1} << 48) - 1);
    return static_cast<int32_t>(x >> 17);
  }
  void Seed(int32_t seed) {
    x = (static_cast<uint64_t>(static_cast<uint32_t>(seed)) << 16 | 0x330E) &
        ((uint64_t{1} << 48) - 1);
  }
};
Lrand48 g_lrand48;  // one sequence per process, as Redis's
constexpr int32_t kLrand48Max = std::numeric_limits<int32_t>::max();

void PushErrorTable(lua_State* L, std::string_view text) { PushLuaErrorTable(L, text); }

int RaiseErrorTable(lua_State* L, const char* text) {
  PushErrorTable(L, text);
  return lua_error(L);
}

int LuaRedisCall(lua_State* L) { return LuaVm::From(L)->RedisCall(true); }
int LuaRedisPcall(lua_State* L) { return LuaVm::From(L)->RedisCall(false); }

// Redis's pcall: an error table raised inside comes back as its message, as before Redis 7.
int LuaPcall(lua_State* L) {
  const int argc = lua_gettop(L);
  if (argc == 0) {
    // Redis's pcall calls the stale slot above its placeholder: "a boolean value".
    lua_pushboolean(L, 0);
    lua_pushliteral(L, "attempt to call a boolean value");
    return 2;
  }
  lua_pushboolean(L, 1);
  lua_insert(L, 1);
  if (lua_pcall(L, argc - 1, LUA_MULTRET, 0)) {
    lua_remove(L, 1);
    if (lua_istable(L, -1)) {
      lua_getfield(L, -1, "err");
      if (lua_isstring(L, -1)) {
        lua_replace(L, -2);
      } else {
        lua_pop(L, 1);
      }
    }
    lua_pushboolean(L, 0);
    lua_insert(L, 1);
  }
  return lua_gettop(L);
}

int LuaSha1Hex(lua_State* L) {
  if (lua_gettop(L) != 1) return RaiseErrorTable(L, "wrong number of arguments");
  size_t len = 0;
  const char* s = lua_tolstring(L, 1, &len);
  char digest[40];
  Sha1Hex(std::string_view(s == nullptr ? "" : s, s == nullptr ? 0 : len), digest);
  lua_pushlstring(L, digest, 40);
  return 1;
}

int LuaErrorReply(lua_State* L) {
  if (lua_gettop(L) != 1 || lua_type(L, -1) != LUA_TSTRING) {
    PushErrorTable(L, "wrong number or type of arguments");
    return 1;
  }
  size_t len = 0;
  const char* err = lua_tolstring(L, -1, &len);
  if (len > 0 && err[0] == '-') {
    PushErrorTable(L, std::string_view(err, std::strlen(err)));
  } else {
    lua_pushliteral(L, "-");
    lua_pushvalue(L, 1);
    lua_concat(L, 2);
    PushErrorTable(L, lua_tostring(L, -1));
  }
  return 1;
}

int LuaStatusReply(lua_State* L) {
  if (lua_gettop(L) != 1 || lua_type(L, -1) != LUA_TSTRING) {
    PushErrorTable(L, "wrong number or type of arguments");
    return 1;
  }
  lua_newtable(L);
  lua_pushstring(L, "ok");
  lua_pushvalue(L, -3);
  lua_settable(L, -3);
  return 1;
}

int LuaLog(lua_State* L) {
  const int argc = lua_gettop(L);
  if (argc < 2) return RaiseErrorTable(L, "redis.log() requires two arguments or more.");
  if (!lua_isnumber(L, -argc)) {
    return RaiseErrorTable(L, "First argument must be a number (log level).");
  }
  const int level = static_cast<int>(lua_tonumber(L, -argc));
  if (level < kLogDebug || level > kLogWarning) return RaiseErrorTable(L, "Invalid debug level.");
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (int j = 2; j <= argc; ++j) {
    size_t len = 0;
    const char* s = lua_tolstring(L, j, &len);
    if (s == nullptr) continue;
    if (j != 2) luaL_addchar(&b, ' ');
    luaL_addlstring(&b, s, len);
  }
  luaL_pushresult(&b);
  size_t len = 0;
  const char* text = lua_tolstring(L, -1, &len);
  const spdlog::level::level_enum lvl = level == kLogWarning  ? spdlog::level::warn
                                        : level == kLogNotice ? spdlog::level::info
                                                              : spdlog::level::debug;
  spdlog::log(lvl, "{}", std::string_view(text, len));
  return 0;
}

int LuaSetResp(lua_State* L) {
  LuaVm* vm = LuaVm::From(L);
  if (vm->run() == nullptr) {
    return RaiseErrorTable(L, "redis.setresp can only be called inside a script invocation");
  }
  if (lua_gettop(L) != 1) return RaiseErrorTable(L, "redis.setresp() requires one argument.");
  const int resp = static_cast<int>(lua_tonumber(L, 1));
  if (resp != 2 && resp != 3) return RaiseErrorTable(L, "RESP version must be 2 or 3.");
  vm->run()->client.protocol = resp;
  return 0;
}

int LuaSetRepl(lua_State* L) {
  LuaVm* vm = LuaVm::From(L);
  if (vm->run() == nullptr) {
    return RaiseErrorTable(L, "redis.set_repl can only be called inside a script invocation");
  }
  if (lua_gettop(L) != 1) return RaiseErrorTable(L, "redis.set_repl() requires two arguments.");
  const int flags = static_cast<int>(lua_tonumber(L, -1));
  if ((flags & ~(kReplAof | kReplReplica)) != 0) {
    return RaiseErrorTable(
        L, "Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.");
  }
  return 0;  // kvserver has no AOF or replicas yet: nothing to propagate either way
}

// Effects replication is the only mode in Redis 7.0: this returns true and does nothing.
int LuaReplicateCommands(lua_State* L) {
  lua_pushboolean(L, 1);
  return 1;
}
// Outside the (absent) debugger: breakpoint returns false, debug does nothing.
int LuaBreakpoint(lua_State* L) {
  lua_pushboolean(L, 0);
  return 1;
}
int LuaDebug(lua_State*) { return 0; }

int LuaAclCheckCmd(lua_State* L) {
  LuaVm* vm = LuaVm::From(L);
  if (vm->run() == nullptr) {
    return RaiseErrorTable(L, "redis.acl_check_cmd can only be called inside a script invocation");
  }
  if (lua_gettop(L) == 0) {
    return RaiseErrorTable(L, "Please specify at least one argument for this redis lib call");
  }
  size_t len = 0;
  const char* name = lua_tolstring(L, 1, &len);
  if (name == nullptr ||
      vm->run()->server->registry->Find(std::string_view(name, len)) == nullptr) {
    return RaiseErrorTable(L, "Invalid command passed to redis.acl_check_cmd()");
  }
  lua_pushboolean(L, 1);  // kvserver has one user with every permission
  return 1;
}

// Redis's math.random and math.randomseed (Lua's own, over Redis's lrand48).
int LuaMathRandom(lua_State* L) {
  if (LuaVm::From(L)->run() == nullptr) {
    return luaL_error(L, "math.random can only be called inside a script invocation");
  }
  const lua_Number r = static_cast<lua_Number>(g_lrand48.Next() % kLrand48Max) /
                       static_cast<lua_Number>(kLrand48Max);
  switch (lua_gettop(L)) {
    case 0:
      lua_pushnumber(L, r);
      break;
    case 1: {
      const int u = luaL_checkint(L, 1);
      luaL_argcheck(L, 1 <= u, 1, "interval is empty");
      lua_pushnumber(L, std::floor(r * u) + 1);
      break;
    }
    case 2: {
      const int l = luaL_checkint(L, 1);
      const int u = luaL_checkint(L, 2);
      luaL_argcheck(L, l <= u, 2, "interval is empty");
      lua_pushnumber(L, std::floor(r * (u - l + 1)) + l);
      break;
    }
    default:
      return luaL_error(L, "wrong number of arguments");
  }
  return 1;
}

int LuaMathRandomSeed(lua_State* L) {
  if (LuaVm::From(L)->run() == nullptr) {
    return luaL_error(L, "math.randomseed can only be called inside a script invocation");
  }
  g_lrand48.Seed(luaL_checkint(L, 1));
  return 0;
}

int LuaRegisterFunction(lua_State* L) { return LuaVm::From(L)->RegisterFunction(); }

void SetField(lua_State* L, const char* name, lua_CFunction fn) {
  lua_pushcfunction(L, fn);
  lua_setfield(L, -2, name);
}
void SetNumber(lua_State* L, const char* name, lua_Number v) {
  lua_pushnumber(L, v);
  lua_setfield(L, -2, name);
}

void RegisterLogAndVersion(lua_State* L) {
  SetField(L, "log", LuaLog);
  SetNumber(L, "LOG_DEBUG", kLogDebug);
  SetNumber(L, "LOG_VERBOSE", kLogVerbose);
  SetNumber(L, "LOG_NOTICE", kLogNotice);
  SetNumber(L, "LOG_WARNING", kLogWarning);
  SetNumber(L, "REDIS_VERSION_NUM", kRedisVersionNum);
  lua_pushstring(L, kRedisVersion);
  lua_setfield(L, -2, "REDIS_VERSION");
}

void PushStringArray(lua_State* L, std::span<const std::string_view> items) {
  lua_createtable(L, static_cast<int>(items.size()), 0);
  for (size_t j = 0; j < items.size(); ++j) {
    lua_pushlstring(L, items[j].data(), items[j].size());
    lua_rawseti(L, -2, static_cast<int>(j + 1));
  }
}

}  // namespace

uint32_t ScriptFlagByName(std::string_view name, bool ignore_case) {
  static constexpr std::pair<std::string_view, uint32_t> kFlags[] = {
      {"no-writes", kScriptNoWrites},
      {"allow-oom", kScriptAllowOom},
      {"allow-stale", kScriptAllowStale},
      {"no-cluster", kScriptNoCluster},
      {"allow-cross-slot-keys", kScriptAllowCrossSlot}};
  for (const auto& [n, f] : kFlags) {
    if (ignore_case ? EqualsIgnoreCase(name, n) : name == n) return f;
  }
  return 0;
}

bool ParseScriptShebang(std::string_view body, uint32_t* flags, size_t* shebang_len,
                        std::string* error) {
  *flags = kScriptEvalCompat;
  *shebang_len = 0;
  if (!body.starts_with("#!")) return true;
  const size_t end = body.find('\n');
  if (end == std::string_view::npos) {
    *error = "Invalid script shebang";
    return false;
  }
  *shebang_len = end;
  // Redis splits the line with sdssplitargs.
  std::string storage;
  std::vector<std::string_view> parts;
  if (!SplitInlineArgs(body.substr(0, end), &storage, &parts)) parts.clear();
  if (parts.empty()) {
    *error = "Invalid engine in script shebang";
    return false;
  }
  if (parts[0] != "#!lua") {
    *error = "Unexpected engine in script shebang: " + std::string(parts[0]);
    return false;
  }
  *flags = 0;
  for (size_t j = 1; j < parts.size(); ++j) {
    if (!parts[j].starts_with("flags=")) {
      *error = "Unknown lua shebang option: " + std::string(parts[j]);
      return false;
    }
    std::string_view list = parts[j].substr(6);
    // sdssplitlen of an empty string gives no element; "a,,b" gives an empty one.
    while (!list.empty()) {
      const size_t comma = list.find(',');
      const std::string_view name = list.substr(0, comma);
      const uint32_t f = ScriptFlagByName(name, false);
      if (f == 0) {
        *error = "Unexpected flag in script shebang: " + std::string(name);
        return false;
      }
      *flags |= f;
      if (comma == std::string_view::npos) break;
      list.remove_prefix(comma + 1);
      if (list.empty()) {
        *error = "Unexpected flag in script shebang: ";
        return false;
      }
    }
  }
  return true;
}

LuaVm* LuaVm::From(lua_State* L) {
  void* ud = nullptr;
  lua_getallocf(L, &ud);
  return static_cast<LuaVm*>(ud);
}

void* LuaVm::Allocate(void* ud, void* ptr, size_t old_size, size_t new_size) {
  auto* vm = static_cast<LuaVm*>(ud);
  if (new_size == 0) {
    std::free(ptr);
    vm->heap_bytes_ -= old_size;
    return nullptr;
  }
  // A bound on the Lua heap: a script that allocates without end gets Lua's "not enough memory"
  // error instead of taking the server's memory. Shrinking never fails (Lua relies on that).
  if (new_size > old_size && vm->heap_bytes_ + (new_size - old_size) > kLuaHeapLimit) {
    return nullptr;
  }
  void* p = std::realloc(ptr, new_size);
  if (p != nullptr) vm->heap_bytes_ += new_size - old_size;
  return p;
}

LuaVm::LuaVm(Kind kind) : kind_(kind) {
  L_ = lua_newstate(&LuaVm::Allocate, this);
  lua_atpanic(L_, [](lua_State* L) -> int {
    spdlog::critical("Lua panic: {}", lua_tostring(L, -1) ? lua_tostring(L, -1) : "?");
    std::abort();
  });
  InitReadonlyProxies(L_);
  OpenLibraries();
  RegisterRedisApi();
  Protect();
}

LuaVm::~LuaVm() { lua_close(L_); }

void LuaVm::OpenLibraries() {
  struct Lib {
    const char* name;
    lua_CFunction open;
  };
  const Lib libs[] = {{"", luaopen_base},
                      {LUA_TABLIBNAME, luaopen_table},
                      {LUA_STRLIBNAME, luaopen_string},
                      {LUA_MATHLIBNAME, luaopen_math},
                      {"cjson", luaopen_cjson},
                      {"struct", OpenStruct},
                      {"cmsgpack", OpenCmsgpack},
                      {"bit", luaopen_bit}};
  for (const Lib& lib : libs) {
    lua_pushcfunction(L_, lib.open);
    lua_pushstring(L_, lib.name);
    lua_call(L_, 1, 1);
    // Libraries that only return their table (cjson) become globals as in Redis.
    if (lib.name[0] != '\0' && lua_istable(L_, -1)) lua_setglobal(L_, lib.name);
    lua_settop(L_, 0);
  }
  // Keep only Redis's allowed globals (print, dofile, loadfile and the rest go).
  KeepAllowedGlobals(L_);
}

void LuaVm::RegisterRedisApi() {
  lua_pushcfunction(L_, LuaPcall);
  lua_setglobal(L_, "pcall");
  lua_pushcfunction(L_, GuardedRawset);
  lua_setglobal(L_, "rawset");
  lua_getglobal(L_, "setmetatable");
  lua_pushcclosure(L_, GuardedSetmetatable, 1);
  lua_setglobal(L_, "setmetatable");
  lua_pushcfunction(L_, ProxyAwareNext);
  lua_setglobal(L_, "next");
  lua_pushcfunction(L_, ProxyAwarePairs);
  lua_setglobal(L_, "pairs");
  lua_getglobal(L_, "loadstring");
  lua_pushcclosure(L_, TextOnlyLoadstring, 1);
  lua_setglobal(L_, "loadstring");

  lua_newtable(L_);
  SetField(L_, "call", LuaRedisCall);
  SetField(L_, "pcall", LuaRedisPcall);
  RegisterLogAndVersion(L_);
  SetField(L_, "setresp", LuaSetResp);
  SetField(L_, "sha1hex", LuaSha1Hex);
  SetField(L_, "error_reply", LuaErrorReply);
  SetField(L_, "status_reply", LuaStatusReply);
  SetField(L_, "set_repl", LuaSetRepl);
  SetNumber(L_, "REPL_NONE", 0);
  SetNumber(L_, "REPL_AOF", kReplAof);
  SetNumber(L_, "REPL_SLAVE", kReplReplica);
  SetNumber(L_, "REPL_REPLICA", kReplReplica);
  SetNumber(L_, "REPL_ALL", kReplAof | kReplReplica);
  SetField(L_, "acl_check_cmd", LuaAclCheckCmd);
  if (kind_ == Kind::kEval) {
    SetField(L_, "breakpoint", LuaBreakpoint);
    SetField(L_, "debug", LuaDebug);
    SetField(L_, "replicate_commands", LuaReplicateCommands);
  }
  lua_setglobal(L_, "redis");

  lua_getglobal(L_, "math");
  SetField(L_, "random", LuaMathRandom);
  SetField(L_, "randomseed", LuaMathRandomSeed);
  lua_pop(L_, 1);

  lua_pushcfunction(L_, ErrorHandler);
  if (kind_ == Kind::kEval) {
    lua_pushvalue(L_, -1);
    lua_setglobal(L_, "__redis__err__handler");
  }
  error_handler_ref_ = luaL_ref(L_, LUA_REGISTRYINDEX);

  if (kind_ == Kind::kFunctions) {
    // What library code sees while FUNCTION LOAD runs it: only a reduced `redis`.
    lua_newtable(L_);
    lua_newtable(L_);
    SetField(L_, "register_function", LuaRegisterFunction);
    RegisterLogAndVersion(L_);
    SetErrorMetatable(L_);
    lua_setfield(L_, -2, "redis");
    SetErrorMetatable(L_);
    ProtectFields(L_);
    PushProxy(L_);
    load_globals_ref_ = luaL_ref(L_, LUA_REGISTRYINDEX);
  }
}

void LuaVm::Protect() {
  // The real globals: undefined names are errors; every table in them becomes read-only.
  lua_pushvalue(L_, LUA_GLOBALSINDEX);
  const int real = lua_gettop(L_);
  lua_pushvalue(L_, real);
  PushProxy(L_);  // the globals scripts see
  const int proxy = lua_gettop(L_);
  lua_pushvalue(L_, proxy);
  lua_setfield(L_, real, "_G");
  lua_pushvalue(L_, real);
  ProtectFields(L_);
  lua_pop(L_, 1);
  lua_pushvalue(L_, real);
  SetErrorMetatable(L_);
  lua_pop(L_, 1);
  lua_getmetatable(L_, proxy);
  globals_meta_ref_ = luaL_ref(L_, LUA_REGISTRYINDEX);
  lua_pushvalue(L_, real);
  real_globals_ref_ = luaL_ref(L_, LUA_REGISTRYINDEX);
  lua_pushvalue(L_, proxy);
  lua_replace(L_, LUA_GLOBALSINDEX);
  lua_settop(L_, 0);
}

int LuaVm::CompileScript(std::string_view code, std::string* error) {
  if (luaL_loadbuffer(L_, code.data(), code.size(), "@user_script")) {
    *error = lua_tostring(L_, -1);
    lua_pop(L_, 1);
    return 0;
  }
  return luaL_ref(L_, LUA_REGISTRYINDEX);
}

void LuaVm::Unref(int ref) { luaL_unref(L_, LUA_REGISTRYINDEX, ref); }

bool LuaVm::LoadLibrary(std::string_view code, const RegisterHook& hook, std::string* error) {
  lua_rawgeti(L_, LUA_REGISTRYINDEX, globals_meta_ref_);
  const int meta = lua_gettop(L_);
  bool ok = false;
  if (luaL_loadbuffer(L_, code.data(), code.size(), "@user_function")) {
    *error = std::string("Error compiling function: ") + lua_tostring(L_, -1);
  } else {
    lua_rawgeti(L_, LUA_REGISTRYINDEX, load_globals_ref_);
    lua_setfield(L_, meta, "__index");
    register_hook_ = &hook;
    // Redis gives library code 500 ms (LOAD_TIMEOUT_MS) to register its functions.
    load_deadline_us_ = MonotonicUs() + 500 * 1000;
    lua_sethook(
        L_,
        [](lua_State* L, lua_Debug*) {
          if (MonotonicUs() > From(L)->load_deadline_us_) {
            lua_sethook(L, nullptr, 0, 0);
            RaiseErrorTable(L, "FUNCTION LOAD timeout");
          }
        },
        LUA_MASKCOUNT, 100000);
    const int failed = lua_pcall(L_, 0, 0, 0);
    lua_sethook(L_, nullptr, 0, 0);
    if (failed) {
      std::string msg;
      if (lua_isstring(L_, -1)) {
        msg = std::string("ERR ") + lua_tostring(L_, -1);
      } else if (lua_istable(L_, -1)) {
        lua_getfield(L_, -1, "err");
        if (lua_isstring(L_, -1)) msg = lua_tostring(L_, -1);
        lua_pop(L_, 1);
      }
      *error = "Error registering functions: " + msg;
    } else {
      ok = true;
    }
    register_hook_ = nullptr;
    lua_rawgeti(L_, LUA_REGISTRYINDEX, real_globals_ref_);
    lua_setfield(L_, meta, "__index");
  }
  lua_settop(L_, 0);
  return ok;
}

int LuaVm::RegisterFunction() {
  lua_State* L = L_;
  if (register_hook_ == nullptr) {
    return RaiseErrorTable(L,
                           "redis.register_function can only be called on FUNCTION LOAD command");
  }
  const char* err = nullptr;
  RegisteredFunction fn;
  const int argc = lua_gettop(L);
  bool have_callback = false;
  bool have_name = false;
  if (argc < 1 || argc > 2) {
    err = "wrong number of arguments to redis.register_function";
  } else if (argc == 2) {
    if (!lua_isstring(L, 1)) {
      err = "first argument to redis.register_function must be a string";
    } else if (!lua_isfunction(L, 2)) {
      err = "second argument to redis.register_function must be a function";
    } else {
      size_t len = 0;
      const char* name = lua_tolstring(L, 1, &len);
      fn.name.assign(name, len);
      fn.ref = luaL_ref(L, LUA_REGISTRYINDEX);
      have_callback = have_name = true;
    }
  } else if (!lua_istable(L, 1)) {
    err =
        "calling redis.register_function with a single argument is only applicable to Lua table "
        "(representing named arguments).";
  } else {
    lua_pushnil(L);
    while (err == nullptr && lua_next(L, 1)) {
      if (!lua_isstring(L, -2)) {
        err = "named argument key given to redis.register_function is not a string";
        break;
      }
      const char* key = lua_tostring(L, -2);
      if (EqualsIgnoreCase(key, "function_name")) {
        if (!lua_isstring(L, -1)) {
          err = "function_name argument given to redis.register_function must be a string";
          break;
        }
        size_t len = 0;
        const char* name = lua_tolstring(L, -1, &len);
        fn.name.assign(name, len);
        have_name = true;
      } else if (EqualsIgnoreCase(key, "description")) {
        if (!lua_isstring(L, -1)) {
          err = "description argument given to redis.register_function must be a string";
          break;
        }
        fn.description = lua_tostring(L, -1);
        fn.has_description = true;
      } else if (EqualsIgnoreCase(key, "callback")) {
        if (!lua_isfunction(L, -1)) {
          err = "callback argument given to redis.register_function must be a function";
          break;
        }
        if (have_callback) Unref(fn.ref);
        fn.ref = luaL_ref(L, LUA_REGISTRYINDEX);
        have_callback = true;
        continue;
      } else if (EqualsIgnoreCase(key, "flags")) {
        if (!lua_istable(L, -1)) {
          err =
              "flags argument to redis.register_function must be a table representing function "
              "flags";
          break;
        }
        for (int j = 1;; ++j) {
          lua_rawgeti(L, -1, j);
          if (lua_isnil(L, -1)) {
            lua_pop(L, 1);
            break;
          }
          const uint32_t f = lua_isstring(L, -1) ? ScriptFlagByName(lua_tostring(L, -1), true) : 0;
          lua_pop(L, 1);
          if (f == 0) {
            err = "unknown flag given";
            break;
          }
          fn.flags |= f;
        }
        if (err != nullptr) break;
      } else {
        err = "unknown argument given to redis.register_function";
        break;
      }
      lua_pop(L, 1);
    }
    if (err == nullptr && !have_name) {
      err = "redis.register_function must get a function name argument";
    } else if (err == nullptr && !have_callback) {
      err = "redis.register_function must get a callback argument";
    }
  }
  if (err == nullptr) {
    if (!(*register_hook_)(std::move(fn), &error_)) {
      lua_settop(L, 0);
      PushErrorTable(L, error_);
      return lua_error(L);
    }
    return 0;
  }
  if (have_callback) Unref(fn.ref);
  lua_settop(L, 0);
  PushErrorTable(L, err);
  return lua_error(L);
}

int LuaVm::RedisCall(bool raise_error) {
  lua_State* L = L_;
  if (run_ == nullptr) {
    return RaiseErrorTable(L, "redis.call/pcall can only be called inside a script invocation");
  }
  const int argc = lua_gettop(L);
  if (argc == 0) {
    PushErrorTable(L, "Please specify at least one argument for this redis lib call");
    return raise_error ? lua_error(L) : 1;
  }
  if (argv_.size() < static_cast<size_t>(argc)) argv_.resize(argc);
  argv_views_.clear();
  bool bad_arg = false;
  for (int j = 1; j <= argc; ++j) {
    std::string& arg = argv_[j - 1];
    if (lua_type(L, j) == LUA_TNUMBER) {
      // Lua's own conversion would lose precision.
      char buf[64];
      const int n = std::snprintf(buf, sizeof(buf), "%.17g", lua_tonumber(L, j));
      arg.assign(buf, n);
    } else {
      size_t len = 0;
      const char* s = lua_tolstring(L, j, &len);
      if (s == nullptr) {
        bad_arg = true;
        break;
      }
      arg.assign(s, len);
    }
    argv_views_.push_back(arg);
  }
  lua_pop(L, argc);
  if (bad_arg) {
    PushErrorTable(L, "Lua redis lib command arguments must be strings or integers");
    return raise_error ? lua_error(L) : 1;
  }
  if (in_call_) {
    PushErrorTable(L,
                   "luaRedisGenericCommand() recursive call detected. "
                   "Are you doing funny stuff with Lua debug hooks?");
    return 1;
  }
  in_call_ = true;
  const bool ran = ExecuteCommand();
  in_call_ = false;
  if (!ran) {
    PushErrorTable(L, error_);
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "ignore_error_stats_update");
    return raise_error ? lua_error(L) : 1;
  }
  const bool is_error = scratch_.size() > 0 && scratch_.data()[0] == '-';
  PushRespAsLua(L, scratch_.view());
  scratch_.Clear();
  return raise_error && is_error ? lua_error(L) : 1;
}

bool LuaVm::ExecuteCommand() {
  ScriptRun& run = *run_;
  ServerState& server = *run.server;
  const std::span<const std::string_view> args(argv_views_);
  const CommandSpec* spec = server.registry->Find(args[0]);
  if (spec != nullptr && !spec->subcommands.empty() && args.size() >= 2) {
    spec = CommandRegistry::FindSubcommand(*spec, args[1]);
  }
  const auto reject = [&](std::string_view message) {
    error_.assign(message);
    ++server.stats.total_error_replies;
    std::string reply = message.starts_with('-') ? std::string(message) : "-ERR " + error_;
    server.error_stats.Record(reply);
    if (spec != nullptr) ++server.command_stats[spec->stats_slot].rejected_calls;
    return false;
  };
  if (spec == nullptr) return reject("Unknown Redis command called from script");
  if (!ArityMatches(spec->arity, args.size())) {
    return reject("Wrong number of args calling Redis command from script");
  }
  if ((spec->flags & kCmdNoScript) && !server.script_disable_deny_script) {
    return reject("This Redis command is not allowed from script");
  }
  const bool write = (spec->flags & kCmdWrite) != 0;
  // A may-replicate command (PUBLISH, PFCOUNT) counts as a write here, as in Redis, which lets
  // read-only scripts run during CLIENT PAUSE WRITE.
  if (run.read_only && (spec->flags & (kCmdWrite | kCmdMayReplicate))) {
    return reject("Write commands are not allowed from read-only scripts.");
  }
  // Redis's scriptVerifyWriteCommandAllow: once the script wrote, it is not failed halfway.
  if (write && !run.write_dirty && WritesDeniedByDiskError(server)) {
    return reject(DiskErrorMessage(server));
  }
  if (!run.allow_oom && server.config.maxmemory != 0 && !run.write_dirty && run.oom_at_start &&
      (spec->flags & kCmdDenyOom)) {
    return reject(errors::kOom);
  }
  if (write) run.write_dirty = true;

  ReplyWriter writer(&scratch_, run.client.protocol);
  run.client.last_cmd = spec;
  CommandContext ctx{args, writer, run.client, server, run.now_ms};
  // A script propagates its effects: each write it makes, as that command propagates itself.
  CommandPropagation propagation(server.propagation, server.dirty);
  const uint64_t start = server.command_clock.Ticks();
  spec->handler(ctx);
  const uint64_t ns = server.command_clock.Nanoseconds(server.command_clock.Ticks() - start);
  propagation.Finish(server.dirty, run.client.db_index, args, false);
  // Client-side caching: once a script reads, its caller tracks the keys it declared.
  if ((spec->flags & kCmdReadOnly) && run.caller->tracking && !run.caller->tracking->bcast) {
    server.tracking.RememberScriptKeys(*run.caller, run.keys);
  }
  ++server.stats.total_commands_processed;
  const bool failed = scratch_.size() > 0 && scratch_.data()[0] == '-';
  server.command_stats[spec->stats_slot].RecordCall(ns, failed, server.config.latency_tracking);
  if (failed) {
    ++server.stats.total_error_replies;
    server.error_stats.Record(scratch_.view());
  }
  if (!server.monitors.empty() && (spec->flags & (kCmdSkipMonitor | kCmdAdmin)) == 0) {
    const std::string line =
        MonitorLine(server.clock->NowUs(), run.client, server.config.unixsocket, args);
    for (const ConnState* monitor : server.monitors) {
      if (!monitor->reply_off && !monitor->reply_skip) monitor->monitor_sink->SendMonitorLine(line);
    }
  }
  run.client.redacted_args.clear();
  return true;
}

void LuaVm::RunScript(ScriptRun& run, int ref, std::span<const std::string_view> keys,
                      std::span<const std::string_view> args, ReplyWriter& reply) {
  lua_rawgeti(L_, LUA_REGISTRYINDEX, error_handler_ref_);
  lua_rawgeti(L_, LUA_REGISTRYINDEX, ref);
  // KEYS and ARGV are globals of EVAL scripts, set on the real table behind the read-only one.
  lua_rawgeti(L_, LUA_REGISTRYINDEX, real_globals_ref_);
  PushStringArray(L_, keys);
  lua_setfield(L_, -2, "KEYS");
  PushStringArray(L_, args);
  lua_setfield(L_, -2, "ARGV");
  lua_pop(L_, 1);
  Invoke(run, 0, reply);
}

void LuaVm::RunFunction(ScriptRun& run, int ref, std::span<const std::string_view> keys,
                        std::span<const std::string_view> args, ReplyWriter& reply) {
  lua_rawgeti(L_, LUA_REGISTRYINDEX, error_handler_ref_);
  lua_rawgeti(L_, LUA_REGISTRYINDEX, ref);
  PushStringArray(L_, keys);
  PushStringArray(L_, args);
  Invoke(run, 2, reply);
}

int64_t MonotonicUs() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void LuaVm::BusyHook() {
  ScriptRun* run = run_;
  if (run == nullptr) return;
  if (!run->timed_out) {
    const int64_t elapsed_ms = (MonotonicUs() - run->start_us) / 1000;
    if (elapsed_ms < run->busy_threshold_ms) return;
    run->timed_out = true;
    spdlog::warn(
        "Slow script detected: still in execution after {} milliseconds. You can try killing "
        "the script using the {} command. Script name is: {}.",
        elapsed_ms, run->eval_mode ? "SCRIPT KILL" : "FUNCTION KILL", run->funcname);
  }
  if (run->process_events != nullptr && *run->process_events) (*run->process_events)();
  if (run->killed) {
    spdlog::warn("Lua script killed by user with SCRIPT KILL.");
    // From now on the hook runs on every line, so that a pcall in the script cannot catch the
    // error and go on.
    lua_sethook(
        L_, [](lua_State* L, lua_Debug*) { From(L)->BusyHook(); }, LUA_MASKLINE, 0);
    RaiseErrorTable(L_, "Script killed by user with SCRIPT KILL...");
  }
}

void LuaVm::Invoke(ScriptRun& run, int nargs, ReplyWriter& reply) {
  run_ = &run;
  run.start_us = MonotonicUs();
  if (run.busy_threshold_ms > 0) {
    lua_sethook(
        L_, [](lua_State* L, lua_Debug*) { From(L)->BusyHook(); }, LUA_MASKCOUNT, 100000);
  }
  const int err = lua_pcall(L_, nargs, 1, -(nargs + 2));
  if (run.busy_threshold_ms > 0) lua_sethook(L_, nullptr, 0, 0);
  // A few GC steps every 50 calls, as Redis, rather than full cycles at Lua's pace.
  if (++gc_count_ == 50) {
    lua_gc(L_, LUA_GCSTEP, 50);
    gc_count_ = 0;
  }
  const bool counted =
      err ? WriteLuaError(L_, run.funcname, reply) : WriteLuaReply(L_, run.client.protocol, reply);
  if (counted) run.caller->error_already_counted = true;
  lua_settop(L_, 0);
  run_ = nullptr;
}

}  // namespace kv
