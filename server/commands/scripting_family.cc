// Scripting: EVAL, EVALSHA and their _RO forms, SCRIPT, FUNCTION, FCALL and FCALL_RO, as Redis
// 7.0's eval.c and functions.c. The interpreters, the sandbox and the conversions live in
// server/scripting/.
//
// A script runs to its end before any other command. Past busy-reply-threshold it serves the other
// clients from its Lua hook, as Redis: they get BUSY for all but the allow-busy commands (SCRIPT
// KILL, FUNCTION KILL, FUNCTION STATS, ...), see server/dispatcher.cc.

#include <string>
#include <string_view>
#include <vector>

#include "protocol/number.h"
#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/commands/help.h"
#include "server/errors.h"
#include "server/glob.h"
#include "server/monitor.h"
#include "server/persistence/rdb_functions.h"
#include "server/persistence/snapshot.h"
#include "server/scripting/lua_vm.h"
#include "server/scripting/scripting.h"
#include "server/strings.h"

namespace kv {
namespace {

constexpr std::string_view kNoScript = "-NOSCRIPT No matching script. Please use EVAL.";
constexpr std::string_view kNotBusy = "-NOTBUSY No scripts in execution right now.";
constexpr std::string_view kBusyEval =
    "-BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.";
constexpr std::string_view kBusyFunction =
    "-BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.";

Scripting& GetScripting(ServerState& server) {
  if (!server.scripting) server.scripting = std::make_shared<Scripting>();
  return *server.scripting;
}

// EVAL and FCALL feed MONITOR themselves (they are skip_monitor), so that their line comes
// before the lines of the commands they run.
void FeedMonitors(CommandContext& ctx) {
  if (ctx.server.monitors.empty()) return;
  const std::string line =
      MonitorLine(ctx.server.clock->NowUs(), ctx.conn, ctx.server.config.unixsocket, ctx.args);
  for (const ConnState* monitor : ctx.server.monitors) {
    if (!monitor->reply_off && !monitor->reply_skip) monitor->monitor_sink->SendMonitorLine(line);
  }
}

// Redis's scriptPrepareForRun: the checks of a script's flags, then the run's settings. False
// when the script may not run (the error is replied).
bool PrepareRun(CommandContext& ctx, ScriptRun& run, uint32_t flags, bool ro) {
  const bool compat = (flags & kScriptEvalCompat) != 0;
  bool oom = false;
  if (ctx.server.config.maxmemory != 0) {
    oom = ctx.server.evictor.Perform(ctx.server, ctx.now_ms) == Evictor::Result::kFail;
  }
  if (!compat) {
    // A script that may write is a write command (Redis's evalGetCommandFlags): refused while
    // snapshots fail, with processCommand's error.
    if (!(flags & kScriptNoWrites) && WritesDeniedByDiskError(ctx.server)) {
      ctx.reply.Error(DiskErrorMessage(ctx.server));
      return false;
    }
    if (!(flags & kScriptNoWrites) && ro) {
      ctx.reply.Error("Can not execute a script with write flag using *_ro command.");
      return false;
    }
    // Redis refuses such a script before it runs, as a denyoom command.
    if (oom && !(flags & (kScriptAllowOom | kScriptNoWrites))) {
      ctx.reply.Error(errors::kOom);
      return false;
    }
  }
  run.server = &ctx.server;
  run.caller = &ctx.conn;
  run.client.id = 0;
  run.client.addr = "lua";
  run.client.db_index = ctx.conn.db_index;
  run.client.protocol = 2;  // scripts start in RESP2 and may change with redis.setresp
  run.client.deny_blocking = true;
  run.client.script_client = true;
  run.now_ms = ctx.now_ms;
  run.read_only = ro || (!compat && (flags & kScriptNoWrites));
  run.allow_oom = !compat && (flags & kScriptAllowOom);
  run.oom_at_start = oom;
  run.command = ctx.args;
  run.busy_threshold_ms = ctx.server.config.busy_reply_threshold;
  run.process_events = &GetScripting(ctx.server).process_events;
  return true;
}

// Redis's scriptFlagsToCmdFlags: a script that declares flags (a shebang, or a function's flags)
// writes, needs memory and may run on a stale replica only as they say; and since they say
// whether it writes, it is no may-replicate command.
uint32_t ScriptFlagsToCommandFlags(uint32_t flags, uint32_t script_flags) {
  flags &= ~(kCmdStale | kCmdDenyOom | kCmdWrite | kCmdMayReplicate);
  if (!(script_flags & (kScriptAllowOom | kScriptNoWrites))) flags |= kCmdDenyOom;
  if (!(script_flags & kScriptNoWrites)) flags |= kCmdWrite;
  if (script_flags & kScriptAllowStale) flags |= kCmdStale;
  return flags;
}

// Redis's evalGetCommandFlags: the flags of the script EVAL or EVALSHA would run, as far as they
// can be told before it runs (an unknown SHA1 or a bad shebang keeps the command's flags). A
// cached script's flags are those of its shebang, so EVAL only parses the body's.
uint32_t ScriptCallFlags(uint32_t flags, uint32_t script_flags) {
  if (script_flags & kScriptEvalCompat) return flags;
  return ScriptFlagsToCommandFlags(flags, script_flags);
}
uint32_t EvalCallFlags(ServerState&, std::span<const std::string_view> args, uint32_t flags) {
  uint32_t script_flags = 0;
  size_t shebang_len = 0;
  std::string error;
  if (!ParseScriptShebang(args[1], &script_flags, &shebang_len, &error)) return flags;
  return ScriptCallFlags(flags, script_flags);
}
uint32_t EvalShaCallFlags(ServerState& server, std::span<const std::string_view> args,
                          uint32_t flags) {
  if (args[1].size() != 40 || !server.scripting) return flags;
  const CachedScript* script = server.scripting->FindScript(ToLower(args[1]));
  return script == nullptr ? flags : ScriptCallFlags(flags, script->flags);
}

// Redis's fcallGetCommandFlags: a function's flags are always declared.
uint32_t FcallCallFlags(ServerState& server, std::span<const std::string_view> args,
                        uint32_t flags) {
  if (!server.scripting) return flags;
  const LibraryFunction* fn = server.scripting->FindFunction(args[1]);
  return fn == nullptr ? flags : ScriptFlagsToCommandFlags(flags, fn->flags);
}

// The number of keys of EVAL and FCALL; false when it was replied as an error.
bool ParseNumKeys(CommandContext& ctx, bool fcall, size_t* numkeys) {
  const std::optional<int64_t> n = ParseInt64(ctx.args[2]);
  if (!n) {
    ctx.reply.Error(fcall ? "Bad number of keys provided" : errors::kNotInteger);
    return false;
  }
  if (*n > static_cast<int64_t>(ctx.args.size()) - 3) {
    ctx.reply.Error("Number of keys can't be greater than number of args");
    return false;
  }
  if (*n < 0) {
    ctx.reply.Error("Number of keys can't be negative");
    return false;
  }
  *numkeys = static_cast<size_t>(*n);
  return true;
}

void EvalGeneric(CommandContext& ctx, bool evalsha, bool ro) {
  // A script is propagated by its effects (the writes it made), never itself.
  ctx.PreventPropagation();
  FeedMonitors(ctx);
  if (evalsha && ctx.args[1].size() != 40) return ctx.reply.Error(kNoScript);
  size_t numkeys = 0;
  if (!ParseNumKeys(ctx, false, &numkeys)) return;
  Scripting& scripting = GetScripting(ctx.server);
  char sha[40];
  const CachedScript* script = nullptr;
  if (evalsha) {
    for (int i = 0; i < 40; ++i) sha[i] = AsciiLower(ctx.args[1][i]);
    script = scripting.FindScript(std::string_view(sha, 40));
    if (script == nullptr) return ctx.reply.Error(kNoScript);
  } else {
    std::string error;
    script = scripting.CreateScript(ctx.args[1], sha, &error);
    if (script == nullptr) return ctx.reply.Error(error);
  }
  ScriptRun run;
  if (!PrepareRun(ctx, run, script->flags, ro)) return;
  run.funcname.assign(sha, 40);  // Redis names the script by its SHA1 in errors
  run.eval_mode = true;
  const auto keys = ctx.args.subspan(3, numkeys);
  const auto argv = ctx.args.subspan(3 + numkeys);
  run.keys = keys;
  scripting.running = &run;
  scripting.eval_vm().RunScript(run, script->ref, keys, argv, ctx.reply);
  scripting.running = nullptr;
}

void Eval(CommandContext& ctx) { EvalGeneric(ctx, false, false); }
void EvalRo(CommandContext& ctx) { EvalGeneric(ctx, false, true); }
void EvalSha(CommandContext& ctx) { EvalGeneric(ctx, true, false); }
void EvalShaRo(CommandContext& ctx) { EvalGeneric(ctx, true, true); }

void FcallGeneric(CommandContext& ctx, bool ro) {
  ctx.PreventPropagation();
  FeedMonitors(ctx);
  Scripting& scripting = GetScripting(ctx.server);
  const LibraryFunction* fn = scripting.FindFunction(ctx.args[1]);
  if (fn == nullptr) return ctx.reply.Error("Function not found");
  size_t numkeys = 0;
  if (!ParseNumKeys(ctx, true, &numkeys)) return;
  ScriptRun run;
  if (!PrepareRun(ctx, run, fn->flags, ro)) return;
  run.funcname = fn->name;
  run.eval_mode = false;
  const auto keys = ctx.args.subspan(3, numkeys);
  const auto argv = ctx.args.subspan(3 + numkeys);
  run.keys = keys;
  scripting.running = &run;
  scripting.functions_vm().RunFunction(run, fn->ref, keys, argv, ctx.reply);
  scripting.running = nullptr;
}

void Fcall(CommandContext& ctx) { FcallGeneric(ctx, false); }
void FcallRo(CommandContext& ctx) { FcallGeneric(ctx, true); }

void ScriptLoad(CommandContext& ctx) {
  char sha[40];
  std::string error;
  if (GetScripting(ctx.server).CreateScript(ctx.args[2], sha, &error) == nullptr) {
    return ctx.reply.Error(error);
  }
  ctx.reply.Bulk(std::string_view(sha, 40));
}

void ScriptExists(CommandContext& ctx) {
  Scripting& scripting = GetScripting(ctx.server);
  ctx.reply.ArrayHeader(ctx.args.size() - 2);
  // Redis's script dictionary compares names without case.
  for (size_t i = 2; i < ctx.args.size(); ++i) {
    ctx.reply.Integer(scripting.FindScript(ToLower(ctx.args[i])) != nullptr ? 1 : 0);
  }
}

void ScriptFlush(CommandContext& ctx) {
  if (ctx.args.size() > 3 ||
      (ctx.args.size() == 3 && !OptionIs(ctx.args[2], "sync") && !OptionIs(ctx.args[2], "async"))) {
    return ctx.reply.Error("SCRIPT FLUSH only support SYNC|ASYNC option");
  }
  GetScripting(ctx.server).FlushScripts();
  ctx.reply.Ok();
}

// Redis's scriptKill: only a busy script can be killed (nothing else runs meanwhile), and not
// one that already wrote.
void KillScript(CommandContext& ctx, bool eval) {
  ScriptRun* run = GetScripting(ctx.server).running;
  if (run == nullptr) return ctx.reply.Error(kNotBusy);
  if (run->write_dirty) {
    return ctx.reply.Error(
        "-UNKILLABLE Sorry the script already executed write commands against the dataset. You "
        "can either wait the script termination or kill the server in a hard way using the "
        "SHUTDOWN NOSAVE command.");
  }
  if (eval && !run->eval_mode) return ctx.reply.Error(kBusyFunction);
  if (!eval && run->eval_mode) return ctx.reply.Error(kBusyEval);
  run->killed = true;
  ctx.reply.Ok();
}

void ScriptKill(CommandContext& ctx) { KillScript(ctx, true); }

void ScriptHelp(CommandContext& ctx) {
  ReplyHelp(
      ctx, "script",
      {"DEBUG (YES|SYNC|NO)", "    Set the debug mode for subsequent scripts executed.",
       "EXISTS <sha1> [<sha1> ...]",
       "    Return information about the existence of the scripts in the script cache.",
       "FLUSH [ASYNC|SYNC]", "    Flush the Lua scripts cache. Very dangerous on replicas.",
       "    When called without the optional mode argument, the behavior is determined by the",
       "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
       "    * ASYNC: Asynchronously flush the scripts cache.",
       "    * SYNC: Synchronously flush the scripts cache.", "KILL",
       "    Kill the currently executing Lua script.", "LOAD <script>",
       "    Load a script into the scripts cache without executing it."});
}

void FunctionLoad(CommandContext& ctx) {
  bool replace = false;
  size_t pos = 2;
  while (pos < ctx.args.size() - 1) {
    const std::string_view arg = ctx.args[pos++];
    if (OptionIs(arg, "replace")) {
      replace = true;
      continue;
    }
    return ctx.reply.Error("Unknown option given: " + std::string(arg));
  }
  if (pos >= ctx.args.size()) return ctx.reply.Error("Function code is missing");
  std::string error;
  const std::string name = GetScripting(ctx.server).LoadLibrary(ctx.args[pos], replace, &error);
  if (name.empty()) return ctx.reply.Error(error);
  ctx.CountChanges();
  ctx.reply.Bulk(name);
}

void FunctionDelete(CommandContext& ctx) {
  if (!GetScripting(ctx.server).DeleteLibrary(ctx.args[2])) {
    return ctx.reply.Error("Library not found");
  }
  ctx.CountChanges();
  ctx.reply.Ok();
}

void ReplyFunctionFlags(CommandContext& ctx, uint32_t flags) {
  static constexpr std::pair<uint32_t, std::string_view> kNames[] = {
      {kScriptNoWrites, "no-writes"},
      {kScriptAllowOom, "allow-oom"},
      {kScriptAllowStale, "allow-stale"},
      {kScriptNoCluster, "no-cluster"},
      {kScriptAllowCrossSlot, "allow-cross-slot-keys"}};
  size_t n = 0;
  for (const auto& [f, name] : kNames) n += (flags & f) ? 1 : 0;
  ctx.reply.SetHeader(n);
  for (const auto& [f, name] : kNames) {
    if (flags & f) ctx.reply.SimpleString(name);
  }
}

void FunctionList(CommandContext& ctx) {
  bool with_code = false;
  bool have_pattern = false;
  std::string_view pattern;
  for (size_t i = 2; i < ctx.args.size(); ++i) {
    const std::string_view arg = ctx.args[i];
    if (!with_code && OptionIs(arg, "withcode")) {
      with_code = true;
      continue;
    }
    if (!have_pattern && OptionIs(arg, "libraryname")) {
      if (i >= ctx.args.size() - 1) return ctx.reply.Error("library name argument was not given");
      pattern = ctx.args[++i];
      have_pattern = true;
      continue;
    }
    return ctx.reply.Error("Unknown argument " + std::string(arg));
  }
  const auto& libraries = GetScripting(ctx.server).libraries();
  size_t n = 0;
  for (const auto& [name, lib] : libraries) {
    n += (!have_pattern || GlobMatch(pattern, name, true)) ? 1 : 0;
  }
  ctx.reply.ArrayHeader(n);
  for (const auto& [name, lib] : libraries) {
    if (have_pattern && !GlobMatch(pattern, name, true)) continue;
    ctx.reply.MapHeader(with_code ? 4 : 3);
    ctx.reply.Bulk("library_name");
    ctx.reply.Bulk(name);
    ctx.reply.Bulk("engine");
    ctx.reply.Bulk("LUA");
    ctx.reply.Bulk("functions");
    ctx.reply.ArrayHeader(lib.functions.size());
    for (const auto& [fname, fn] : lib.functions) {
      ctx.reply.MapHeader(3);
      ctx.reply.Bulk("name");
      ctx.reply.Bulk(fname);
      ctx.reply.Bulk("description");
      if (fn.has_description) {
        ctx.reply.Bulk(fn.description);
      } else {
        ctx.reply.Null();
      }
      ctx.reply.Bulk("flags");
      ReplyFunctionFlags(ctx, fn.flags);
    }
    if (with_code) {
      ctx.reply.Bulk("library_code");
      ctx.reply.Bulk(lib.code);
    }
  }
}

void FunctionStats(CommandContext& ctx) {
  Scripting& scripting = GetScripting(ctx.server);
  const ScriptRun* run = scripting.running;
  if (run != nullptr && run->eval_mode) return ctx.reply.Error(kBusyEval);
  ctx.reply.MapHeader(2);
  ctx.reply.Bulk("running_script");
  if (run == nullptr) {
    ctx.reply.Null();
  } else {
    ctx.reply.MapHeader(3);
    ctx.reply.Bulk("name");
    ctx.reply.Bulk(run->funcname);
    ctx.reply.Bulk("command");
    ctx.reply.ArrayHeader(run->command.size());
    for (std::string_view arg : run->command) ctx.reply.Bulk(arg);
    ctx.reply.Bulk("duration_ms");
    ctx.reply.Integer((MonotonicUs() - run->start_us) / 1000);
  }
  ctx.reply.Bulk("engines");
  ctx.reply.MapHeader(1);
  ctx.reply.Bulk("LUA");
  ctx.reply.MapHeader(2);
  ctx.reply.Bulk("libraries_count");
  ctx.reply.Integer(static_cast<int64_t>(scripting.libraries().size()));
  ctx.reply.Bulk("functions_count");
  ctx.reply.Integer(static_cast<int64_t>(scripting.function_count()));
}

void FunctionKill(CommandContext& ctx) { KillScript(ctx, false); }

// FUNCTION FLUSH [ASYNC|SYNC], with Redis's checks (functionFlushCommand).
void FunctionFlush(CommandContext& ctx) {
  if (ctx.args.size() > 3) {
    const std::string_view sub = ctx.args[1];
    return ctx.reply.Error(SubcommandSyntaxError(sub, "function"));
  }
  if (ctx.args.size() == 3 && !OptionIs(ctx.args[2], "sync") && !OptionIs(ctx.args[2], "async")) {
    return ctx.reply.Error("FUNCTION FLUSH only supports SYNC|ASYNC option");
  }
  GetScripting(ctx.server).FlushLibraries();
  ctx.CountChanges();
  ctx.reply.Ok();
}

// FUNCTION DUMP: every library's code in Redis's payload (functionDumpCommand).
void FunctionDump(CommandContext& ctx) {
  std::vector<std::string> codes;
  for (const auto& [name, lib] : GetScripting(ctx.server).libraries()) codes.push_back(lib.code);
  ctx.reply.Bulk(CreateFunctionsPayload(codes, ctx.server.config.rdbcompression));
}

// FUNCTION RESTORE <payload> [FLUSH|APPEND|REPLACE] (functionRestoreCommand).
void FunctionRestore(CommandContext& ctx) {
  if (ctx.args.size() > 4) return ctx.reply.Error(SubcommandSyntaxError(ctx.args[1], "function"));
  RestorePolicy policy = RestorePolicy::kAppend;
  if (ctx.args.size() == 4) {
    const std::string_view arg = ctx.args[3];
    if (OptionIs(arg, "append")) {
      policy = RestorePolicy::kAppend;
    } else if (OptionIs(arg, "replace")) {
      policy = RestorePolicy::kReplace;
    } else if (OptionIs(arg, "flush")) {
      policy = RestorePolicy::kFlush;
    } else {
      return ctx.reply.Error(
          "Wrong restore policy given, value should be either FLUSH, APPEND or REPLACE.");
    }
  }
  const std::string_view payload = ctx.args[2];
  const Scripting::LibrarySource read = [payload](const Scripting::LibraryAdder& add,
                                                  std::string* error) {
    return ReadFunctionsPayload(payload, add, error);
  };
  std::string error;
  if (!GetScripting(ctx.server).RestoreLibraries(read, policy, &error)) {
    return ctx.reply.Error(error);
  }
  ctx.CountChanges();
  ctx.reply.Ok();
}

void FunctionHelp(CommandContext& ctx) {
  ReplyHelp(
      ctx, "function",
      {"LOAD [REPLACE] <FUNCTION CODE>",
       "    Create a new library with the given library name and code.",
       "DELETE <LIBRARY NAME>",
       "    Delete the given library.",
       "LIST [LIBRARYNAME PATTERN] [WITHCODE]",
       "    Return general information on all the libraries:",
       "    * Library name",
       "    * The engine used to run the Library",
       "    * Library description",
       "    * Functions list",
       "    * Library code (if WITHCODE is given)",
       "    It also possible to get only function that matches a pattern using LIBRARYNAME "
       "argument.",
       "STATS",
       "    Return information about the current function running:",
       "    * Function name",
       "    * Command used to run the function",
       "    * Duration in MS that the function is running",
       "    If no function is running, return nil",
       "    In addition, returns a list of available engines.",
       "KILL",
       "    Kill the current running function.",
       "FLUSH [ASYNC|SYNC]",
       "    Delete all the libraries.",
       "    When called without the optional mode argument, the behavior is determined by the",
       "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
       "    * ASYNC: Asynchronously flush the libraries.",
       "    * SYNC: Synchronously flush the libraries.",
       "DUMP",
       "    Return a serialized payload representing the current libraries, can be restored using "
       "FUNCTION RESTORE command",
       "RESTORE <PAYLOAD> [FLUSH|APPEND|REPLACE]",
       "    Restore the libraries represented by the given payload, it is possible to give a "
       "restore policy to",
       "    control how to handle existing libraries (default APPEND):",
       "    * FLUSH: delete all existing libraries.",
       "    * APPEND: appends the restored libraries to the existing libraries. On collision, "
       "abort.",
       "    * REPLACE: appends the restored libraries to the existing libraries, On collision, "
       "replace the old",
       "      libraries with the new libraries (notice that even on this option there is a "
       "chance of failure",
       "      in case of functions name collision with another library)."});
}

// Never reached with a subcommand; SCRIPT or FUNCTION alone fails the arity check first.
void Container(CommandContext& ctx) { ctx.reply.Ok(); }

constexpr uint32_t kEvalFlags =
    kCmdNoScript | kCmdSkipMonitor | kCmdNoMandatoryKeys | kCmdStale | kCmdMovableKeys;

// EVAL and FCALL, with the flags of each call worked out from the script's (CallFlags).
CommandSpec ScriptCommand(CommandSpec spec, decltype(CommandSpec::call_flags) call_flags) {
  spec.call_flags = call_flags;
  return spec;
}

}  // namespace

void RegisterScriptingFamily(CommandRegistry& r) {
  // As Redis: EVAL, EVALSHA and FCALL are may-replicate, which CLIENT PAUSE WRITE holds, unless
  // the script declares flags.
  constexpr uint32_t kRw = kEvalFlags | kCmdMayReplicate;
  constexpr uint32_t kRo = kEvalFlags | kCmdReadOnly;
  r.Register(ScriptCommand({"eval", -3, kRw, 0, 0, 0, Eval, "scripting",
                            "Execute a Lua script server side", "2.6.0", "@slow @scripting"},
                           EvalCallFlags));
  r.Register(ScriptCommand({"evalsha", -3, kRw, 0, 0, 0, EvalSha, "scripting",
                            "Execute a Lua script server side", "2.6.0", "@slow @scripting"},
                           EvalShaCallFlags));
  r.Register(
      ScriptCommand({"eval_ro", -3, kRo, 0, 0, 0, EvalRo, "scripting",
                     "Execute a read-only Lua script server side", "7.0.0", "@slow @scripting"},
                    EvalCallFlags));
  r.Register(
      ScriptCommand({"evalsha_ro", -3, kRo, 0, 0, 0, EvalShaRo, "scripting",
                     "Execute a read-only Lua script server side", "7.0.0", "@slow @scripting"},
                    EvalShaCallFlags));
  r.Register(ScriptCommand({"fcall", -3, kRw, 0, 0, 0, Fcall, "scripting", "Invoke a function",
                            "7.0.0", "@slow @scripting"},
                           FcallCallFlags));
  r.Register(ScriptCommand({"fcall_ro", -3, kRo, 0, 0, 0, FcallRo, "scripting",
                            "Invoke a read-only function", "7.0.0", "@slow @scripting"},
                           FcallCallFlags));
  r.Register(
      {"script",
       -2,
       0,
       0,
       0,
       0,
       Container,
       "scripting",
       "A container for Lua scripts management commands",
       "2.6.0",
       "@slow",
       {
           {"exists", -3, kCmdNoScript, 0, 0, 0, ScriptExists, "scripting",
            "Check existence of scripts in the script cache.", "2.6.0", "@slow @scripting"},
           {"flush", -2, kCmdNoScript, 0, 0, 0, ScriptFlush, "scripting",
            "Remove all the scripts from the script cache.", "2.6.0", "@slow @scripting"},
           {"help", 2, kCmdLoading | kCmdStale, 0, 0, 0, ScriptHelp, "scripting",
            "Show helpful text about the different subcommands", "5.0.0", "@slow @scripting"},
           {"kill", 2, kCmdNoScript | kCmdAllowBusy, 0, 0, 0, ScriptKill, "scripting",
            "Kill the script currently in execution.", "2.6.0", "@slow @scripting"},
           {"load", 3, kCmdNoScript | kCmdStale, 0, 0, 0, ScriptLoad, "scripting",
            "Load the specified Lua script into the script cache.", "2.6.0", "@slow @scripting"},
       }});
  r.Register(
      {"function",
       -2,
       0,
       0,
       0,
       0,
       Container,
       "scripting",
       "A container for function commands",
       "7.0.0",
       "@slow",
       {
           {"delete", 3, kCmdWrite | kCmdNoScript, 0, 0, 0, FunctionDelete, "scripting",
            "Delete a function by name", "7.0.0", "@write @slow @scripting"},
           {"dump", 2, kCmdNoScript, 0, 0, 0, FunctionDump, "scripting",
            "Dump all functions into a serialized binary payload", "7.0.0", "@slow @scripting"},
           {"flush", -2, kCmdWrite | kCmdNoScript, 0, 0, 0, FunctionFlush, "scripting",
            "Deleting all functions", "7.0.0", "@write @slow @scripting"},
           {"help", 2, kCmdLoading | kCmdStale, 0, 0, 0, FunctionHelp, "scripting",
            "Show helpful text about the different subcommands", "7.0.0", "@slow @scripting"},
           {"kill", 2, kCmdNoScript | kCmdAllowBusy, 0, 0, 0, FunctionKill, "scripting",
            "Kill the function currently in execution.", "7.0.0", "@slow @scripting"},
           {"list", -2, kCmdNoScript, 0, 0, 0, FunctionList, "scripting",
            "List information about all the functions", "7.0.0", "@slow @scripting"},
           {"load", -3, kCmdWrite | kCmdDenyOom | kCmdNoScript, 0, 0, 0, FunctionLoad, "scripting",
            "Create a function with the given arguments (name, code, description)", "7.0.0",
            "@write @slow @scripting"},
           {"restore", -3, kCmdWrite | kCmdDenyOom | kCmdNoScript, 0, 0, 0, FunctionRestore,
            "scripting", "Restore all the functions on the given payload", "7.0.0",
            "@write @slow @scripting"},
           {"stats", 2, kCmdNoScript | kCmdAllowBusy, 0, 0, 0, FunctionStats, "scripting",
            "Return information about the function currently running (name, description, "
            "duration)",
            "7.0.0", "@slow @scripting"},
       }});
}

}  // namespace kv
