// MONITOR, as Redis 7.0.15's monitorCommand: the connection then receives a line for every
// command run after it (the dispatcher's FeedMonitors).

#include "server/command_registry.h"
#include "server/commands/families.h"

namespace kv {
namespace {

void Monitor(CommandContext& ctx) {
  // Inside EXEC a reply per command is due: no monitoring.
  if (ctx.conn.deny_blocking) {
    return ctx.reply.Error("MONITOR isn't allowed for DENY BLOCKING client");
  }
  // A client that already monitors gets no reply at all, as in Redis.
  if (ctx.conn.monitor || ctx.conn.monitor_sink == nullptr) return;
  ctx.conn.monitor = true;
  ctx.server.monitors.push_back(&ctx.conn);
  ctx.reply.Ok();
}

}  // namespace

void RegisterMonitorFamily(CommandRegistry& r) {
  r.Register({"monitor", 1, kCmdAdmin | kCmdNoScript | kCmdLoading | kCmdStale, 0, 0, 0, Monitor,
              "server", "Listen for all requests received by the server in real time", "1.0.0",
              "@admin @slow @dangerous"});
}

}  // namespace kv
