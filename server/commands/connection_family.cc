// Connection: PING, ECHO, QUIT, SELECT, AUTH, RESET.

#include <climits>

#include "protocol/number.h"
#include "server/auth.h"
#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/errors.h"
#include "server/monitor.h"

namespace kv {
namespace {

void Ping(CommandContext& ctx) {
  if (ctx.args.size() > 2) return ctx.reply.Error(WrongArityError("ping"));
  // A RESP2 subscriber gets PING's answer in the shape of a message: ["pong", message].
  if (ctx.conn.pubsub_mode && ctx.conn.protocol == 2) {
    ctx.reply.ArrayHeader(2);
    ctx.reply.Bulk("pong");
    return ctx.reply.Bulk(ctx.args.size() == 1 ? std::string_view() : ctx.args[1]);
  }
  if (ctx.args.size() == 1) return ctx.reply.Pong();
  ctx.reply.Bulk(ctx.args[1]);
}

void Echo(CommandContext& ctx) { ctx.reply.Bulk(ctx.args[1]); }

void Quit(CommandContext& ctx) {
  ctx.conn.close_after_reply = true;
  ctx.reply.Ok();
}

void Select(CommandContext& ctx) {
  auto index = ParseInt64(ctx.args[1]);
  if (!index) return ctx.reply.Error(errors::kNotInteger);
  // Redis's getIntFromObjectOrReply: an integer outside int gets its own message.
  if (*index < INT_MIN || *index > INT_MAX) {
    return ctx.reply.Error("value is out of range, value must between -2147483648 and 2147483647");
  }
  if (*index < 0 || static_cast<size_t>(*index) >= ctx.server.dbs.count()) {
    return ctx.reply.Error(errors::kDbIndexOutOfRange);
  }
  ctx.conn.db_index = static_cast<size_t>(*index);
  ctx.reply.Ok();
}

// AUTH [username] password, as Redis's authCommand with its one user, "default".
void Auth(CommandContext& ctx) {
  if (ctx.args.size() > 3) return ctx.reply.Error(errors::kSyntax);
  // The password (and the user name of the two-argument form) never reach SLOWLOG or MONITOR.
  ctx.Redact(1);
  if (ctx.args.size() == 3) ctx.Redact(2);
  std::string_view user = "default";
  std::string_view password = ctx.args[1];
  if (ctx.args.size() == 2) {
    // The old one-argument form is an error while there is no password, as in Redis.
    if (ctx.server.config.requirepass.empty()) {
      return ctx.reply.Error(
          "AUTH <password> called without any password configured for the default user. Are you "
          "sure your configuration is correct?");
    }
  } else {
    user = ctx.args[1];
    password = ctx.args[2];
  }
  if (!Authenticate(ctx.conn, ctx.server, user, password)) {
    return ctx.reply.Error(errors::kWrongPass);
  }
  ctx.reply.Ok();
}

// RESET, as Redis's clearClientConnectionState: the connection is as if it had just connected
// (database 0, RESP2, no name, replies on, not monitoring, no tracking, no transaction or watched
// keys, no subscriptions, authenticated only when no password is required). Like Redis 7.2 it also
// clears CLIENT NO-EVICT and NO-TOUCH.
void Reset(CommandContext& ctx) {
  ConnState& c = ctx.conn;
  StopMonitoring(c, ctx.server.monitors);
  ctx.server.tracking.Disable(c);
  c.multi.reset();
  c.dirty_cas = false;
  ctx.server.watches.UnwatchAll(c);
  ctx.server.pubsub.Forget(ctx.server, c);
  c.db_index = 0;
  c.protocol = 2;
  ctx.reply.set_protocol(2);
  c.authenticated = ctx.server.config.requirepass.empty();
  c.name.clear();
  c.reply_off = false;
  c.reply_skip_next = false;
  c.no_evict = false;
  c.no_touch = false;
  ctx.reply.SimpleString("RESET");
}

}  // namespace

void RegisterConnectionFamily(CommandRegistry& r) {
  r.Register({"ping", -1, kCmdFast, 0, 0, 0, Ping, "connection", "Ping the server", "1.0.0",
              "@fast @connection"});
  r.Register({"echo", 2, kCmdLoading | kCmdStale | kCmdFast, 0, 0, 0, Echo, "connection",
              "Echo the given string", "1.0.0", "@fast @connection"});
  r.Register({"quit", -1,
              kCmdNoScript | kCmdLoading | kCmdStale | kCmdFast | kCmdNoAuth | kCmdAllowBusy, 0, 0,
              0, Quit, "connection", "Close the connection", "1.0.0", "@fast @connection"});
  r.Register({"auth", -2,
              kCmdNoScript | kCmdLoading | kCmdStale | kCmdFast | kCmdNoAuth | kCmdAllowBusy, 0, 0,
              0, Auth, "connection", "Authenticate to the server", "1.0.0", "@fast @connection"});
  r.Register({"select", 2, kCmdLoading | kCmdStale | kCmdFast, 0, 0, 0, Select, "connection",
              "Change the selected database for the current connection", "1.0.0",
              "@fast @connection"});
  r.Register({"reset", 1,
              kCmdNoScript | kCmdLoading | kCmdStale | kCmdFast | kCmdNoAuth | kCmdAllowBusy, 0, 0,
              0, Reset, "connection", "Reset the connection", "6.2.0", "@fast @connection"});
}

}  // namespace kv
