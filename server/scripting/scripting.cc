#include "server/scripting/scripting.h"

#include <vector>

#include "absl/strings/string_view.h"
#include "protocol/inline_splitter.h"
#include "server/sha1.h"
#include "server/strings.h"

namespace kv {
namespace {

// Redis's functionsVerifyName: letters, digits and underscores, at least one.
bool ValidName(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

constexpr char kBadName[] =
    "Library names can only contain letters, numbers, or underscores(_) and must be at least one "
    "character long";

// Redis's functionExtractLibMetaData: "#!<engine> name=<library>" on the first line.
bool ParseLibraryShebang(std::string_view code, std::string* engine, std::string* name,
                         size_t* shebang_len, std::string* error) {
  if (!code.starts_with("#!")) {
    *error = "Missing library metadata";
    return false;
  }
  const size_t end = code.find('\n');
  if (end == std::string_view::npos) {
    *error = "Invalid library metadata";
    return false;
  }
  *shebang_len = end;
  std::string storage;
  std::vector<std::string_view> parts;
  if (!SplitInlineArgs(code.substr(0, end), &storage, &parts)) parts.clear();
  if (parts.empty()) {
    *error = "Invalid library metadata";
    return false;
  }
  *engine = std::string(parts[0].substr(2));
  bool have_name = false;
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string_view part = parts[i];
    if (part.size() >= 5 && EqualsIgnoreCase(part.substr(0, 5), "name=")) {
      if (have_name) {
        *error = "Invalid metadata value, name argument was given multiple times";
        return false;
      }
      *name = std::string(part.substr(5));
      have_name = true;
      continue;
    }
    *error = "Invalid metadata value given: " + std::string(part);
    return false;
  }
  if (!have_name) {
    *error = "Library name was not given";
    return false;
  }
  return true;
}

}  // namespace

Scripting::Scripting()
    : eval_vm_(std::make_unique<LuaVm>(LuaVm::Kind::kEval)),
      functions_vm_(std::make_unique<LuaVm>(LuaVm::Kind::kFunctions)) {}

const CachedScript* Scripting::FindScript(std::string_view sha) const {
  const auto it = scripts_.find(absl::string_view(sha.data(), sha.size()));
  return it == scripts_.end() ? nullptr : &it->second;
}

const CachedScript* Scripting::CreateScript(std::string_view body, char sha[40],
                                            std::string* error) {
  Sha1Hex(body, sha);
  const std::string_view key(sha, 40);
  if (const CachedScript* s = FindScript(key)) return s;
  uint32_t flags = 0;
  size_t shebang_len = 0;
  if (!ParseScriptShebang(body, &flags, &shebang_len, error)) return nullptr;
  std::string lua_error;
  // The shebang line goes, its line feed stays: line numbers remain the user's.
  const int ref = eval_vm_->CompileScript(body.substr(shebang_len), &lua_error);
  if (ref == 0) {
    *error = "Error compiling script (new function): " + lua_error;
    return nullptr;
  }
  CachedScript& s = scripts_[std::string(key)];
  s.body.assign(body);
  s.flags = flags;
  s.ref = ref;
  return &s;
}

void Scripting::FlushScripts() {
  scripts_.clear();
  eval_vm_ = std::make_unique<LuaVm>(LuaVm::Kind::kEval);
}

const LibraryFunction* Scripting::FindFunction(std::string_view name) const {
  const std::string lower = ToLower(name);
  const auto it = current_.functions.find(lower);
  return it == current_.functions.end() ? nullptr : it->second;
}

void Scripting::FreeLibrary(FunctionLibrary& lib) {
  for (auto& [name, fn] : lib.functions) functions_vm_->Unref(fn.ref);
  lib.functions.clear();
}

void Scripting::FreeContext(LibraryContext& ctx) {
  ctx.functions.clear();
  for (auto& [name, lib] : ctx.libraries) FreeLibrary(lib);
  ctx.libraries.clear();
}

void Scripting::Link(LibraryContext& ctx, FunctionLibrary&& lib) {
  const std::string name = lib.name;
  // Moving a std::map keeps its nodes: the functions' addresses stay valid.
  FunctionLibrary& stored = ctx.libraries[name] = std::move(lib);
  for (const auto& [fname, fn] : stored.functions) ctx.functions[ToLower(fname)] = &fn;
}

std::string Scripting::CreateLibrary(std::string_view code, bool replace, LibraryContext& ctx,
                                     std::string* error) {
  std::string engine, name;
  size_t shebang_len = 0;
  if (!ParseLibraryShebang(code, &engine, &name, &shebang_len, error)) return "";
  if (!ValidName(name)) {
    *error = kBadName;
    return "";
  }
  if (!EqualsIgnoreCase(engine, "lua")) {
    *error = "Engine '" + engine + "' not found";
    return "";
  }
  const auto old = ctx.libraries.find(name);
  if (old != ctx.libraries.end() && !replace) {
    *error = "Library '" + name + "' already exists";
    return "";
  }
  FunctionLibrary lib;
  lib.name = name;
  lib.code.assign(code);
  const LuaVm::RegisterHook hook = [&lib](LuaVm::RegisteredFunction&& f, std::string* err) {
    if (!ValidName(f.name)) {
      *err = kBadName;
      return false;
    }
    if (lib.functions.contains(f.name)) {
      *err = "Function already exists in the library";
      return false;
    }
    LibraryFunction& fn = lib.functions[f.name];
    fn.name = f.name;
    fn.description = std::move(f.description);
    fn.has_description = f.has_description;
    fn.flags = f.flags;
    fn.ref = f.ref;
    return true;
  };
  bool ok = functions_vm_->LoadLibrary(code.substr(shebang_len), hook, error);
  if (ok && lib.functions.empty()) {
    *error = "No functions registered";
    ok = false;
  }
  if (ok) {
    for (const auto& [fname, fn] : lib.functions) {
      const auto it = ctx.functions.find(ToLower(fname));
      if (it == ctx.functions.end()) continue;
      // A function of the library being replaced may keep its name.
      const LibraryFunction* existing = it->second;
      bool in_old = false;
      if (old != ctx.libraries.end()) {
        for (const auto& [oname, ofn] : old->second.functions) in_old = in_old || &ofn == existing;
      }
      if (!in_old) {
        *error = "Function " + fname + " already exists";
        ok = false;
        break;
      }
    }
  }
  if (!ok) {
    FreeLibrary(lib);
    return "";
  }
  if (old != ctx.libraries.end()) {
    for (const auto& [fname, fn] : old->second.functions) ctx.functions.erase(ToLower(fname));
    FreeLibrary(old->second);
    ctx.libraries.erase(old);
  }
  Link(ctx, std::move(lib));
  return name;
}

bool Scripting::DeleteLibrary(std::string_view name) {
  const auto it = current_.libraries.find(std::string(name));
  if (it == current_.libraries.end()) return false;
  for (const auto& [fname, fn] : it->second.functions) current_.functions.erase(ToLower(fname));
  FreeLibrary(it->second);
  current_.libraries.erase(it);
  return true;
}

void Scripting::FlushLibraries() {
  current_.functions.clear();
  current_.libraries.clear();
  functions_vm_ = std::make_unique<LuaVm>(LuaVm::Kind::kFunctions);
}

bool Scripting::RestoreLibraries(const LibrarySource& read, RestorePolicy policy,
                                 std::string* error) {
  LibraryContext staged;
  const LibraryAdder add = [&](std::string&& code, std::string* err) {
    return !CreateLibrary(code, /*replace=*/false, staged, err).empty();
  };
  if (!read(add, error)) {
    FreeContext(staged);
    return false;
  }
  if (policy == RestorePolicy::kFlush) {
    FreeContext(current_);
    current_ = std::move(staged);
    return true;
  }
  // Redis's libraryJoin: a library already loaded fails APPEND; under REPLACE it goes, and then
  // no function of the payload may collide with those of the libraries that stay.
  absl::flat_hash_map<std::string, bool> replaced_functions;
  for (const auto& [name, lib] : staged.libraries) {
    const auto old = current_.libraries.find(name);
    if (old == current_.libraries.end()) continue;
    if (policy != RestorePolicy::kReplace) {
      *error = "Library " + name + " already exists";
      FreeContext(staged);
      return false;
    }
    for (const auto& [fname, fn] : old->second.functions) replaced_functions[ToLower(fname)] = true;
  }
  for (const auto& [name, lib] : staged.libraries) {
    for (const auto& [fname, fn] : lib.functions) {
      const std::string lower = ToLower(fname);
      if (current_.functions.contains(lower) && !replaced_functions.contains(lower)) {
        *error = "Function " + fname + " already exists";
        FreeContext(staged);
        return false;
      }
    }
  }
  for (auto& [name, lib] : staged.libraries) {
    if (current_.libraries.contains(name)) DeleteLibrary(name);
  }
  for (auto& [name, lib] : staged.libraries) Link(current_, std::move(lib));
  return true;
}

}  // namespace kv
