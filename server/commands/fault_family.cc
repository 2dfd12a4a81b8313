// Fault injection: KVFAULT ERROR|DELAY|DROP|CLEAR. kvserver's own command, for test suites in any
// language that start the binary with enable-fault-injection yes (off by default, and CONFIG SET
// refuses to change it, as Redis's protected configs).

#include <cstdint>
#include <optional>

#include "protocol/number.h"
#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/commands/help.h"
#include "server/errors.h"
#include "server/strings.h"

namespace kv {
namespace {

bool Enabled(CommandContext& ctx) {
  if (ctx.server.config.enable_fault_injection) return true;
  ctx.reply.Error(
      "KVFAULT is disabled; start kvserver with 'enable-fault-injection yes' to use it");
  return false;
}

// Reads the options that follow a fault's own arguments, from args[first] on:
// [COUNT n] [COMMAND name]. Replies the error and returns false on a bad option.
bool ParseOptions(CommandContext& ctx, size_t first, FaultInjector::Fault* fault) {
  for (size_t i = first; i < ctx.args.size(); i += 2) {
    if (i + 1 >= ctx.args.size()) {
      ctx.reply.Error(errors::kSyntax);
      return false;
    }
    if (EqualsIgnoreCase(ctx.args[i], "count")) {
      auto n = ParseInt64(ctx.args[i + 1]);
      if (!n || *n < 1) {
        ctx.reply.Error("COUNT must be a positive integer");
        return false;
      }
      fault->count = static_cast<uint64_t>(*n);
    } else if (EqualsIgnoreCase(ctx.args[i], "command")) {
      fault->command = ToLower(ctx.args[i + 1]);
    } else {
      ctx.reply.Error(errors::kSyntax);
      return false;
    }
  }
  return true;
}

void Arm(CommandContext& ctx, FaultInjector::Fault fault, size_t options_from) {
  if (!ParseOptions(ctx, options_from, &fault)) return;
  ctx.server.faults.Add(std::move(fault));
  ctx.reply.Ok();
}

// KVFAULT ERROR "LOADING Redis is loading the dataset in memory" [COUNT n] [COMMAND name]
void FaultError(CommandContext& ctx) {
  if (!Enabled(ctx)) return;
  FaultInjector::Fault fault;
  fault.kind = FaultInjector::Kind::kError;
  fault.message = ErrorLine(ctx.args[2]);
  Arm(ctx, std::move(fault), 3);
}

// KVFAULT DELAY milliseconds [COUNT n] [COMMAND name]
void FaultDelay(CommandContext& ctx) {
  if (!Enabled(ctx)) return;
  auto ms = ParseInt64(ctx.args[2]);
  if (!ms || *ms < 0) return ctx.reply.Error("delay must be a non-negative integer (milliseconds)");
  FaultInjector::Fault fault;
  fault.kind = FaultInjector::Kind::kDelay;
  fault.delay_ms = *ms;
  Arm(ctx, std::move(fault), 3);
}

// KVFAULT DROP [COUNT n] [COMMAND name]
void FaultDrop(CommandContext& ctx) {
  if (!Enabled(ctx)) return;
  FaultInjector::Fault fault;
  fault.kind = FaultInjector::Kind::kDrop;
  Arm(ctx, std::move(fault), 2);
}

// KVFAULT CLEAR: disarms every fault; replies how many were armed.
void FaultClear(CommandContext& ctx) {
  if (!Enabled(ctx)) return;
  const size_t n = ctx.server.faults.size();
  ctx.server.faults.Clear();
  ctx.reply.Integer(static_cast<int64_t>(n));
}

void FaultHelp(CommandContext& ctx) {
  ReplyHelp(ctx, "kvfault",
            {"ERROR <message> [COUNT <n>] [COMMAND <name>]",
             "    Reply -<message> instead of running the next <n> (default 1) commands, or the "
             "next commands called <name>.",
             "DELAY <milliseconds> [COUNT <n>] [COMMAND <name>]",
             "    Run the next commands but hold their replies for <milliseconds>.",
             "DROP [COUNT <n>] [COMMAND <name>]",
             "    Close the connection of the next commands before they run.", "CLEAR",
             "    Disarm every fault; reply how many were armed.",
             "Faults need 'enable-fault-injection yes' at startup. KVFAULT itself is never "
             "affected."});
}

// Never reached with a subcommand; KVFAULT alone fails the arity check first.
void FaultContainer(CommandContext& ctx) { ctx.reply.Error(WrongArityError("kvfault")); }

constexpr uint32_t kFlags = kCmdAdmin | kCmdNoScript | kCmdLoading | kCmdStale;
constexpr std::string_view kAcl = "@admin @slow @dangerous";

}  // namespace

void RegisterFaultFamily(CommandRegistry& r) {
  r.Register(
      {"kvfault",
       -2,
       0,
       0,
       0,
       0,
       FaultContainer,
       "server",
       "A container for fault injection commands (kvserver only)",
       "kvserver 0.1.0",
       "@slow",
       {
           {"error", -3, kFlags, 0, 0, 0, FaultError, "server",
            "Make the next commands reply the given error instead of running", "kvserver 0.1.0",
            kAcl},
           {"delay", -3, kFlags, 0, 0, 0, FaultDelay, "server",
            "Hold the replies of the next commands for some milliseconds", "kvserver 0.1.0", kAcl},
           {"drop", -2, kFlags, 0, 0, 0, FaultDrop, "server",
            "Close the connection of the next commands before they run", "kvserver 0.1.0", kAcl},
           {"clear", 2, kFlags, 0, 0, 0, FaultClear, "server", "Disarm every fault",
            "kvserver 0.1.0", kAcl},
           {"help", 2, kCmdLoading | kCmdStale, 0, 0, 0, FaultHelp, "server",
            "Show helpful text about the different subcommands", "kvserver 0.1.0", "@slow"},
       }});
}

}  // namespace kv
