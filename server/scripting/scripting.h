#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "server/scripting/lua_vm.h"

namespace kv {

// A script in the EVAL cache: its body (Redis keeps it to replicate EVALSHA as EVAL) and its
// shebang flags.
struct CachedScript {
  std::string body;
  uint32_t flags = 0;
  int ref = 0;  // the compiled chunk in the EVAL interpreter's registry
};

// A function of a loaded library.
struct LibraryFunction {
  std::string name;
  std::string description;
  bool has_description = false;
  uint32_t flags = 0;
  int ref = 0;  // the callback in the functions VM's registry
};

struct FunctionLibrary {
  std::string name;
  std::string code;  // as FUNCTION LOAD got it, shebang included
  std::map<std::string, LibraryFunction> functions;
};

// The scripting state of one server: the EVAL interpreter and its script cache, and the
// functions interpreter with its libraries (Redis keeps the two apart too).
class Scripting {
 public:
  Scripting();

  // EVAL scripts.
  LuaVm& eval_vm() { return *eval_vm_; }
  // The cached script with this (lower-case) SHA1, null when unknown.
  const CachedScript* FindScript(std::string_view sha) const;
  // Redis's luaCreateFunction: caches `body` under its SHA1 (written to `sha`), compiling it
  // unless it is cached; on failure `error` gets the reply's error text.
  const CachedScript* CreateScript(std::string_view body, char sha[40], std::string* error);
  // SCRIPT FLUSH: a new interpreter and an empty cache.
  void FlushScripts();
  size_t script_count() const { return scripts_.size(); }

  // Functions.
  LuaVm& functions_vm() { return *functions_vm_; }
  // FUNCTION LOAD: the library's name, or "" with `error` set.
  std::string LoadLibrary(std::string_view code, bool replace, std::string* error);
  bool DeleteLibrary(std::string_view name);
  void FlushLibraries();
  const std::map<std::string, FunctionLibrary>& libraries() const { return libraries_; }
  // The function called `name`, null when no library has it.
  const LibraryFunction* FindFunction(std::string_view name) const;
  size_t function_count() const { return functions_.size(); }

  // The script or function running now, null between calls.
  ScriptRun* running = nullptr;
  // Whether a script ran past busy-reply-threshold: other clients get BUSY until it ends.
  bool busy() const { return running != nullptr && running->timed_out; }
  // Set by the server: serves the other clients' pending events while a script is busy.
  std::function<void()> process_events;

 private:
  void FreeLibrary(FunctionLibrary& lib);

  std::unique_ptr<LuaVm> eval_vm_;
  absl::flat_hash_map<std::string, CachedScript> scripts_;
  std::unique_ptr<LuaVm> functions_vm_;
  std::map<std::string, FunctionLibrary> libraries_;
  // Every library's functions by lower-case name: FCALL finds them without case, as Redis
  // (a library's own names keep their case).
  absl::flat_hash_map<std::string, const LibraryFunction*> functions_;
};

}  // namespace kv
