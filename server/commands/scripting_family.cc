// FUNCTION: kvserver has no functions (nor scripting), so FUNCTION FLUSH has nothing to remove and
// succeeds, as on a Redis without libraries; other FUNCTION subcommands are unknown here.

#include <string>
#include <string_view>

#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/errors.h"
#include "server/strings.h"

namespace kv {
namespace {

// FUNCTION FLUSH [ASYNC|SYNC], with Redis's checks (functionFlushCommand).
void FunctionFlush(CommandContext& ctx) {
  if (ctx.args.size() > 3) {
    const std::string_view sub = ctx.args[1];
    return ctx.reply.Error(SubcommandSyntaxError(sub, "function"));
  }
  if (ctx.args.size() == 3 && !OptionIs(ctx.args[2], "sync") && !OptionIs(ctx.args[2], "async")) {
    return ctx.reply.Error("FUNCTION FLUSH only supports SYNC|ASYNC option");
  }
  ctx.CountChanges();  // Redis counts a flush of its (here absent) functions as a change
  ctx.reply.Ok();
}

// Never reached with a subcommand; FUNCTION alone fails the arity check first.
void FunctionContainer(CommandContext& ctx) { ctx.reply.Ok(); }

}  // namespace

void RegisterScriptingFamily(CommandRegistry& r) {
  r.Register({"function",
              -2,
              0,
              0,
              0,
              0,
              FunctionContainer,
              "scripting",
              "A container for function commands",
              "7.0.0",
              "@slow",
              {
                  {"flush", -2, kCmdWrite | kCmdNoScript, 0, 0, 0, FunctionFlush, "scripting",
                   "Deleting all functions", "7.0.0", "@write @slow @scripting"},
              }});
}

}  // namespace kv
