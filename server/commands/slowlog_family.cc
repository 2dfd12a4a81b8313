// SLOWLOG GET|LEN|RESET|HELP, as Redis 7.0.15's slowlogCommand. The dispatcher fills the log
// (SlowLog) after each command.

#include <climits>

#include "protocol/number.h"
#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/commands/help.h"
#include "server/errors.h"

namespace kv {
namespace {

void SlowlogContainer(CommandContext& ctx) {
  // Reached only with no subcommand, which the arity check rejects first.
  ctx.reply.Error(WrongArityError("slowlog"));
}

// SLOWLOG GET [count]: the newest `count` entries (10 by default, -1 for all).
void SlowlogGet(CommandContext& ctx) {
  if (ctx.args.size() > 3) return ctx.reply.Error(SubcommandSyntaxError(ctx.args[1], "slowlog"));
  const auto& entries = ctx.server.slowlog.entries();
  size_t count = 10;
  if (ctx.args.size() == 3) {
    // Redis's getRangeLongFromObjectOrReply(-1, LONG_MAX): one message for both failures.
    const auto n = ParseInt64(ctx.args[2]);
    if (!n || *n < -1) return ctx.reply.Error("count should be greater than or equal to -1");
    count = *n == -1 ? entries.size() : static_cast<size_t>(*n);
  }
  count = std::min(count, entries.size());
  ReplyWriter& r = ctx.reply;
  r.ArrayHeader(count);
  for (size_t i = 0; i < count; ++i) {
    const SlowLogEntry& e = entries[i];
    r.ArrayHeader(6);
    r.Integer(static_cast<int64_t>(e.id));
    r.Integer(e.time_s);
    r.Integer(e.duration_us);
    r.ArrayHeader(e.args.size());
    for (const std::string& a : e.args) r.Bulk(a);
    r.Bulk(e.peer);
    r.Bulk(e.name);
  }
}

void SlowlogLen(CommandContext& ctx) {
  ctx.reply.Integer(static_cast<int64_t>(ctx.server.slowlog.entries().size()));
}

void SlowlogReset(CommandContext& ctx) {
  ctx.server.slowlog.Reset();
  ctx.reply.Ok();
}

void SlowlogHelp(CommandContext& ctx) {
  ReplyHelp(ctx, "slowlog",
            {"GET [<count>]",
             "    Return top <count> entries from the slowlog (default: 10, -1 mean all).",
             "    Entries are made of:",
             "    id, timestamp, time in microseconds, arguments array, client IP and port,",
             "    client name", "LEN", "    Return the length of the slowlog.", "RESET",
             "    Reset the slowlog."});
}

}  // namespace

void RegisterSlowlogFamily(CommandRegistry& r) {
  constexpr uint32_t kFlags = kCmdAdmin | kCmdLoading | kCmdStale;
  constexpr std::string_view kCat = "@admin @slow @dangerous";
  r.Register({"slowlog",
              -2,
              0,
              0,
              0,
              0,
              SlowlogContainer,
              "server",
              "A container for slow log commands",
              "2.2.12",
              "@slow",
              {
                  {"get", -2, kFlags, 0, 0, 0, SlowlogGet, "server", "Get the slow log's entries",
                   "2.2.12", kCat},
                  {"help", 2, kCmdLoading | kCmdStale, 0, 0, 0, SlowlogHelp, "server",
                   "Show helpful text about the different subcommands", "6.2.0", "@slow"},
                  {"len", 2, kFlags, 0, 0, 0, SlowlogLen, "server", "Get the slow log's length",
                   "2.2.12", kCat},
                  {"reset", 2, kFlags, 0, 0, 0, SlowlogReset, "server",
                   "Clear all entries from the slow log", "2.2.12", kCat},
              }});
}

}  // namespace kv
