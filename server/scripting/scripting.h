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

// A set of libraries and their functions (Redis's functionsLibCtx): the server's, or those of a
// FUNCTION RESTORE payload before they join it.
struct LibraryContext {
  std::map<std::string, FunctionLibrary> libraries;
  // Every library's functions by lower-case name: FCALL finds them without case, as Redis
  // (a library's own names keep their case).
  absl::flat_hash_map<std::string, const LibraryFunction*> functions;
};

// FUNCTION RESTORE's policies: what happens to the libraries already loaded.
enum class RestorePolicy { kAppend, kReplace, kFlush };

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
  std::string LoadLibrary(std::string_view code, bool replace, std::string* error) {
    return CreateLibrary(code, replace, current_, error);
  }
  bool DeleteLibrary(std::string_view name);
  void FlushLibraries();
  const std::map<std::string, FunctionLibrary>& libraries() const { return current_.libraries; }
  // The function called `name`, null when no library has it.
  const LibraryFunction* FindFunction(std::string_view name) const;
  size_t function_count() const { return current_.functions.size(); }
  // FUNCTION RESTORE: each code of `codes` is made a library as FUNCTION LOAD would (on its own,
  // without the loaded ones), then they join the loaded libraries as `policy` says (Redis's
  // libraryJoin). All or nothing: false with the error's text, nothing changed.
  // `read` hands each code to `add` (a payload's reader), false with the error when either fails.
  using LibraryAdder = std::function<bool(std::string&& code, std::string* error)>;
  using LibrarySource = std::function<bool(const LibraryAdder& add, std::string* error)>;
  bool RestoreLibraries(const LibrarySource& read, RestorePolicy policy, std::string* error);

  // The script or function running now, null between calls.
  ScriptRun* running = nullptr;
  // Whether a script ran past busy-reply-threshold: other clients get BUSY until it ends.
  bool busy() const { return running != nullptr && running->timed_out; }
  // Set by the server: serves the other clients' pending events while a script is busy.
  std::function<void()> process_events;

 private:
  // Redis's functionsCreateWithLibraryCtx: the library's name, or "" with `error` set.
  std::string CreateLibrary(std::string_view code, bool replace, LibraryContext& ctx,
                            std::string* error);
  void FreeLibrary(FunctionLibrary& lib);
  void FreeContext(LibraryContext& ctx);
  // Moves `lib` into `ctx` and indexes its functions.
  static void Link(LibraryContext& ctx, FunctionLibrary&& lib);

  std::unique_ptr<LuaVm> eval_vm_;
  absl::flat_hash_map<std::string, CachedScript> scripts_;
  std::unique_ptr<LuaVm> functions_vm_;
  LibraryContext current_;
};

}  // namespace kv
