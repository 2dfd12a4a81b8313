#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/io_buffer.h"
#include "protocol/reply_writer.h"
#include "server/conn_state.h"

struct lua_State;

namespace kv {

struct ServerState;

// A script's or function's flags (the shebang's "flags=", register_function's flags), with
// Redis's names.
enum ScriptFlag : uint32_t {
  kScriptNoWrites = 1 << 0,
  kScriptAllowOom = 1 << 1,
  kScriptAllowStale = 1 << 2,
  kScriptNoCluster = 1 << 3,
  kScriptAllowCrossSlot = 1 << 4,
  kScriptEvalCompat = 1 << 5,  // an EVAL script without a shebang: Redis 6's rules
};
// The flag named `name` ("no-writes", ...); 0 when there is none. Function flags are matched
// without case, shebang flags exactly, as Redis.
uint32_t ScriptFlagByName(std::string_view name, bool ignore_case);
// Redis's evalExtractShebangFlags: the flags of "#!lua flags=a,b\n..." and the shebang's length
// (kept out of the compiled code, its line feed kept so that line numbers stay the user's).
bool ParseScriptShebang(std::string_view body, uint32_t* flags, size_t* shebang_len,
                        std::string* error);

// One script or function call in progress: who called it, the client its redis.call commands
// run as (its own database and protocol, never blocking), and what they may do.
struct ScriptRun {
  ServerState* server = nullptr;
  ConnState* caller = nullptr;
  ConnState client;
  int64_t now_ms = 0;  // Redis's script time snapshot: the commands' time for expiry
  std::string funcname;
  bool eval_mode = true;
  bool read_only = false;
  bool allow_oom = false;
  bool oom_at_start = false;  // used memory was over maxmemory when the script started
  bool write_dirty = false;   // a write command ran
  std::span<const std::string_view> command;  // the caller's EVAL or FCALL (FUNCTION STATS)
  std::span<const std::string_view> keys;     // the keys it declared
  // Busy scripts (Redis's busy-reply-threshold): past `busy_threshold_ms` (0: never) the
  // script is "timed out" and lets the server serve other clients (BUSY for most commands)
  // through `process_events` every 100,000 Lua instructions; SCRIPT KILL sets `killed`.
  int64_t start_us = 0;  // steady clock
  int64_t busy_threshold_ms = 0;
  const std::function<void()>* process_events = nullptr;
  bool timed_out = false;
  bool killed = false;
};

// Microseconds of a monotonic clock, for script durations.
int64_t MonotonicUs();

// A Lua 5.1 interpreter set up as Redis 7.0's: the libraries Redis loads, the `redis` API, the
// sandbox (no new globals, read-only library tables, no file access) and the conversions between
// Redis replies and Lua values. One for EVAL scripts, one for function libraries, as in Redis.
//
// Debian's Lua has no read-only tables (Redis patches its own copy), so the globals the scripts
// see are an empty proxy whose metatable reads through to the real table and refuses writes, and
// every library table is replaced by such a proxy; rawset and setmetatable refuse proxies.
class LuaVm {
 public:
  enum class Kind { kEval, kFunctions };
  // What register_function hands over while a library loads.
  struct RegisteredFunction {
    std::string name;
    std::string description;
    bool has_description = false;
    uint32_t flags = 0;
    int ref = 0;  // the callback in the Lua registry
  };
  using RegisterHook = std::function<bool(RegisteredFunction&&, std::string* error)>;

  explicit LuaVm(Kind kind);
  ~LuaVm();
  LuaVm(const LuaVm&) = delete;
  LuaVm& operator=(const LuaVm&) = delete;

  // Compiles `code` (chunk name "@user_script") and keeps it in the registry: returns its
  // reference, or 0 with `error` set to Lua's message.
  int CompileScript(std::string_view code, std::string* error);
  // Runs the library code of FUNCTION LOAD with the load-time globals; each register_function
  // goes to `hook`. On failure `error` gets Redis's message.
  bool LoadLibrary(std::string_view code, const RegisterHook& hook, std::string* error);
  void Unref(int ref);

  // Runs script `ref` (eval) or function `ref` (functions) and writes its reply.
  void RunScript(ScriptRun& run, int ref, std::span<const std::string_view> keys,
                 std::span<const std::string_view> args, ReplyWriter& reply);
  void RunFunction(ScriptRun& run, int ref, std::span<const std::string_view> keys,
                   std::span<const std::string_view> args, ReplyWriter& reply);

  // The Lua heap in bytes (INFO's used_memory_lua).
  size_t MemoryUsed() const { return heap_bytes_; }

  // Called from the Lua C functions (public for them only).
  static LuaVm* From(lua_State* L);
  // The count hook of a running script: detects the time out, serves events, and ends a killed
  // script.
  void BusyHook();
  int RedisCall(bool raise_error);
  int RegisterFunction();
  ScriptRun* run() { return run_; }

 private:
  static void* Allocate(void* ud, void* ptr, size_t old_size, size_t new_size);
  void OpenLibraries();
  void RegisterRedisApi();
  void Protect();
  void Invoke(ScriptRun& run, int nargs, ReplyWriter& reply);
  // Runs the command in argv_ as the script's client; its reply lands in scratch_. False (with
  // error_ set) when the script may not run it.
  bool ExecuteCommand();

  Kind kind_;
  lua_State* L_ = nullptr;
  size_t heap_bytes_ = 0;
  ScriptRun* run_ = nullptr;
  const RegisterHook* register_hook_ = nullptr;
  int64_t load_deadline_us_ = 0;  // FUNCTION LOAD's time limit for the library code
  int globals_meta_ref_ = 0;      // the proxy's metatable: its __index is swapped while loading
  int real_globals_ref_ = 0;
  int load_globals_ref_ = 0;
  int error_handler_ref_ = 0;
  bool in_call_ = false;  // redis.call is not reentrant
  long gc_count_ = 0;
  // Reused across redis.call: the arguments and the command's reply.
  std::vector<std::string> argv_;
  std::vector<std::string_view> argv_views_;
  IoBuffer scratch_;
  std::string error_;
};

}  // namespace kv
