// Client connections: HELLO and the CLIENT container (ID, SETNAME, GETNAME, INFO, LIST, KILL,
// SETINFO, REPLY, NO-EVICT, NO-TOUCH, HELP), as Redis 7.0.15's helloCommand and clientCommand,
// with 7.2's SETINFO, NO-TOUCH and lib-name/lib-ver fields.

#include <climits>
#include <optional>
#include <string>
#include <vector>

#include "protocol/number.h"
#include "server/auth.h"
#include "server/client_registry.h"
#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/config.h"
#include "server/errors.h"
#include "server/strings.h"
#include "server/version.h"

namespace kv {
namespace {

constexpr std::string_view kBadName =
    "Client names cannot contain spaces, newlines or special characters.";

// Redis's charset check for names and SETINFO values: printable ASCII without spaces, so that
// CLIENT LIST can be split on spaces.
bool ValidClientAttr(std::string_view value) {
  for (char c : value) {
    if (c < '!' || c > '~') return false;
  }
  return true;
}

// Redis's clientSetNameOrReply: an empty name removes the name. Returns false after replying
// with the error.
bool SetNameOrReply(CommandContext& ctx, std::string_view name) {
  if (!ValidClientAttr(name)) {
    ctx.reply.Error(kBadName);
    return false;
  }
  ctx.conn.name.assign(name);
  return true;
}

// The calling connection's description: from the registry when there is one.
ClientInfo DescribeSelf(CommandContext& ctx) {
  ClientInfo self;
  self.state = &ctx.conn;
  if (ctx.server.clients != nullptr) {
    ctx.server.clients->ForEachClient([&](const ClientInfo& info) {
      if (info.state == &ctx.conn) self = info;
    });
  }
  return self;
}

// HELLO [protover [AUTH username password] [SETNAME clientname]]
void Hello(CommandContext& ctx) {
  int64_t version = 0;
  size_t next = 1;
  if (ctx.args.size() >= 2) {
    auto v = ParseInt64(ctx.args[next++]);
    if (!v) return ctx.reply.Error("Protocol version is not an integer or out of range");
    if (*v < 2 || *v > 3) return ctx.reply.Error("-NOPROTO unsupported protocol version");
    version = *v;
  }
  // Options take effect as they are read, as in Redis: a SETNAME before a bad option sticks.
  for (size_t j = next; j < ctx.args.size(); ++j) {
    const size_t more = ctx.args.size() - 1 - j;
    std::string_view opt = ctx.args[j];
    if (EqualsIgnoreCase(opt, "auth") && more >= 2) {
      ctx.Redact(j + 1);
      ctx.Redact(j + 2);
      if (!Authenticate(ctx.conn, ctx.server, ctx.args[j + 1], ctx.args[j + 2])) {
        return ctx.reply.Error(errors::kWrongPass);
      }
      j += 2;
    } else if (EqualsIgnoreCase(opt, "setname") && more >= 1) {
      if (!SetNameOrReply(ctx, ctx.args[j + 1])) return;
      ++j;
    } else {
      return ctx.reply.Error("Syntax error in HELLO option '" + std::string(opt) + "'");
    }
  }
  if (!ctx.conn.authenticated) {
    return ctx.reply.Error(
        "-NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO "
        "AUTH <user> <pass> option can be used to authenticate the client and select the RESP "
        "protocol version at the same time");
  }
  if (version != 0) {
    ctx.conn.protocol = static_cast<int>(version);
    ctx.reply.set_protocol(ctx.conn.protocol);
  }
  ReplyWriter& r = ctx.reply;
  r.MapHeader(7);
  r.Bulk("server");
  r.Bulk("redis");
  r.Bulk("version");
  r.Bulk(kRedisCompatVersion);
  r.Bulk("proto");
  r.Integer(ctx.conn.protocol);
  r.Bulk("id");
  r.Integer(static_cast<int64_t>(ctx.conn.id));
  r.Bulk("mode");
  r.Bulk("standalone");
  r.Bulk("role");
  r.Bulk("master");
  r.Bulk("modules");
  r.ArrayHeader(0);
}

void ClientContainer(CommandContext& ctx) {
  // Reached only with no subcommand, which the arity check rejects first.
  ctx.reply.Error(WrongArityError("client"));
}

void ClientId(CommandContext& ctx) { ctx.reply.Integer(static_cast<int64_t>(ctx.conn.id)); }

void ClientSetName(CommandContext& ctx) {
  if (SetNameOrReply(ctx, ctx.args[2])) ctx.reply.Ok();
}

void ClientGetName(CommandContext& ctx) {
  if (ctx.conn.name.empty()) return ctx.reply.Null();
  ctx.reply.Bulk(ctx.conn.name);
}

void ClientInfoCmd(CommandContext& ctx) {
  std::string out;
  AppendClientInfo(out, DescribeSelf(ctx), ctx.conn, ctx.args, ctx.now_ms);
  ctx.reply.Verbatim(out);
}

// Redis's getClientType: kvserver's clients are normal ones, or pubsub ones while subscribed
// (monitors count as normal, as in Redis).
ClientClass ClassOf(const ConnState& conn) {
  return conn.pubsub_mode ? ClientClass::kPubSub : ClientClass::kNormal;
}

// CLIENT LIST [TYPE type] | [ID id ...]
void ClientList(CommandContext& ctx) {
  const auto& args = ctx.args;
  std::string out;
  std::optional<ClientClass> only;
  if (args.size() == 4 && EqualsIgnoreCase(args[2], "type")) {
    only = ClientClassByName(args[3]);
    if (!only) {
      return ctx.reply.Error("Unknown client type '" + std::string(args[3]) + "'");
    }
  } else if (args.size() > 3 && EqualsIgnoreCase(args[2], "id")) {
    std::vector<int64_t> ids;
    for (size_t j = 3; j < args.size(); ++j) {
      auto id = ParseInt64(args[j]);
      if (!id) return ctx.reply.Error("Invalid client ID");
      ids.push_back(*id);
    }
    // In the order the ids were given, repeats included, as Redis's lookups.
    for (int64_t id : ids) {
      if (ctx.server.clients == nullptr) {
        if (static_cast<uint64_t>(id) == ctx.conn.id)
          AppendClientInfo(out, DescribeSelf(ctx), ctx.conn, ctx.args, ctx.now_ms);
        continue;
      }
      ctx.server.clients->ForEachClient([&](const ClientInfo& info) {
        if (static_cast<int64_t>(info.state->id) == id)
          AppendClientInfo(out, info, ctx.conn, ctx.args, ctx.now_ms);
      });
    }
    return ctx.reply.Verbatim(out);
  } else if (args.size() != 2) {
    return ctx.reply.Error(errors::kSyntax);
  }
  auto add = [&](const ClientInfo& info) {
    if (!only || ClassOf(*info.state) == *only) {
      AppendClientInfo(out, info, ctx.conn, ctx.args, ctx.now_ms);
    }
  };
  if (ctx.server.clients == nullptr) {
    add(DescribeSelf(ctx));
  } else {
    ctx.server.clients->ForEachClient(add);
  }
  ctx.reply.Verbatim(out);
}

// CLIENT KILL ip:port | CLIENT KILL [ID id] [TYPE type] [ADDR addr] [LADDR addr] [USER name]
// [SKIPME yes|no] ...
void ClientKill(CommandContext& ctx) {
  const auto& args = ctx.args;
  std::string_view addr, laddr;
  bool has_addr = false, has_laddr = false;
  std::optional<ClientClass> type;
  uint64_t id = 0;
  bool skipme = true;
  const bool old_form = args.size() == 3;
  if (old_form) {
    addr = args[2];
    has_addr = true;
    skipme = false;  // with the old form a client may kill itself
  } else {
    for (size_t i = 2; i < args.size(); i += 2) {
      const bool more = args.size() > i + 1;
      std::string_view opt = args[i];
      if (EqualsIgnoreCase(opt, "id") && more) {
        auto v = ParseInt64(args[i + 1]);
        if (!v || *v < 1) return ctx.reply.Error("client-id should be greater than 0");
        id = static_cast<uint64_t>(*v);
      } else if (EqualsIgnoreCase(opt, "type") && more) {
        type = ClientClassByName(args[i + 1]);
        if (!type) {
          return ctx.reply.Error("Unknown client type '" + std::string(args[i + 1]) + "'");
        }
      } else if (EqualsIgnoreCase(opt, "addr") && more) {
        addr = args[i + 1];
        has_addr = true;
      } else if (EqualsIgnoreCase(opt, "laddr") && more) {
        laddr = args[i + 1];
        has_laddr = true;
      } else if (EqualsIgnoreCase(opt, "user") && more) {
        if (args[i + 1] != "default") {
          return ctx.reply.Error("No such user '" + std::string(args[i + 1]) + "'");
        }
      } else if (EqualsIgnoreCase(opt, "skipme") && more) {
        if (EqualsIgnoreCase(args[i + 1], "yes")) {
          skipme = true;
        } else if (EqualsIgnoreCase(args[i + 1], "no")) {
          skipme = false;
        } else {
          return ctx.reply.Error(errors::kSyntax);
        }
      } else {
        return ctx.reply.Error(errors::kSyntax);
      }
    }
  }
  // Every client has the user "default".
  std::vector<uint64_t> victims;
  bool kill_self = false;
  auto consider = [&](const ClientInfo& info) {
    if (has_addr && info.addr != addr) return;
    if (has_laddr && info.laddr != laddr) return;
    if (type && ClassOf(*info.state) != *type) return;
    if (id != 0 && info.state->id != id) return;
    const bool self = info.state == &ctx.conn;
    if (self && skipme) return;
    if (self) {
      kill_self = true;
    } else {
      victims.push_back(info.state->id);
    }
  };
  if (ctx.server.clients == nullptr) {
    consider(DescribeSelf(ctx));
  } else {
    ctx.server.clients->ForEachClient(consider);
  }
  for (uint64_t victim : victims) ctx.server.clients->KillClient(victim);
  const size_t killed = victims.size() + (kill_self ? 1 : 0);
  if (old_form) {
    if (killed == 0) return ctx.reply.Error("No such client");
    ctx.reply.Ok();
  } else {
    ctx.reply.Integer(static_cast<int64_t>(killed));
  }
  // Only after the reply is queued, as Redis.
  if (kill_self) ctx.conn.close_after_reply = true;
}

// CLIENT SETINFO LIB-NAME|LIB-VER value (Redis 7.2)
void ClientSetInfo(CommandContext& ctx) {
  std::string_view attr = ctx.args[2];
  std::string_view value = ctx.args[3];
  std::string* dest = nullptr;
  if (EqualsIgnoreCase(attr, "lib-name")) {
    dest = &ctx.conn.lib_name;
  } else if (EqualsIgnoreCase(attr, "lib-ver")) {
    dest = &ctx.conn.lib_ver;
  } else {
    return ctx.reply.Error("Unrecognized option '" + std::string(attr) + "'");
  }
  if (!ValidClientAttr(value)) {
    return ctx.reply.Error(std::string(attr) +
                           " cannot contain spaces, newlines or special characters.");
  }
  dest->assign(value);
  ctx.reply.Ok();
}

// CLIENT REPLY ON|OFF|SKIP: the dispatcher drops the replies the flags silence.
void ClientReply(CommandContext& ctx) {
  std::string_view mode = ctx.args[2];
  if (EqualsIgnoreCase(mode, "on")) {
    ctx.conn.reply_off = false;
    ctx.conn.reply_skip = false;
    ctx.conn.reply_skip_next = false;
    ctx.reply.Ok();
  } else if (EqualsIgnoreCase(mode, "off")) {
    ctx.conn.reply_off = true;
  } else if (EqualsIgnoreCase(mode, "skip")) {
    if (!ctx.conn.reply_off) ctx.conn.reply_skip_next = true;
  } else {
    ctx.reply.Error(errors::kSyntax);
  }
}

// CLIENT NO-EVICT / NO-TOUCH ON|OFF
void SetFlag(CommandContext& ctx, bool& flag) {
  if (EqualsIgnoreCase(ctx.args[2], "on")) {
    flag = true;
  } else if (EqualsIgnoreCase(ctx.args[2], "off")) {
    flag = false;
  } else {
    return ctx.reply.Error(errors::kSyntax);
  }
  ctx.reply.Ok();
}

void ClientNoEvict(CommandContext& ctx) { SetFlag(ctx, ctx.conn.no_evict); }
void ClientNoTouch(CommandContext& ctx) { SetFlag(ctx, ctx.conn.no_touch); }

// CLIENT PAUSE timeout [WRITE|ALL], as Redis 7.0: the mode is checked before the timeout, and
// the timeout (milliseconds from now) is added without an overflow check, so a huge one ends in
// the past and pauses nothing.
void ClientPauseCmd(CommandContext& ctx) {
  if (ctx.args.size() > 4) {
    return ctx.reply.Error(
        "unknown subcommand or wrong number of arguments for 'pause'. Try CLIENT HELP.");
  }
  ClientPause::Type type = ClientPause::Type::kAll;
  if (ctx.args.size() == 4) {
    if (EqualsIgnoreCase(ctx.args[3], "write")) {
      type = ClientPause::Type::kWrite;
    } else if (!EqualsIgnoreCase(ctx.args[3], "all")) {
      return ctx.reply.Error("CLIENT PAUSE mode must be WRITE or ALL");
    }
  }
  const auto timeout = ParseInt64(ctx.args[2]);
  if (!timeout) return ctx.reply.Error("timeout is not an integer or out of range");
  if (*timeout < 0) return ctx.reply.Error("timeout is negative");
  const int64_t end = *timeout > 0 ? static_cast<int64_t>(static_cast<uint64_t>(*timeout) +
                                                          static_cast<uint64_t>(ctx.now_ms))
                                   : 0;
  ctx.server.pause.Pause(type, end, ctx.now_ms);
  // Redis's expireIfNeeded keeps the dataset still while clients are paused.
  ctx.server.dbs.KeepExpiredKeys(ctx.server.pause.type() != ClientPause::Type::kOff);
  if (ctx.server.pause_changed) ctx.server.pause_changed();
  ctx.reply.Ok();
}

// CLIENT UNBLOCK id [TIMEOUT|ERROR]: ends another client's wait on keys as a timeout would, or
// with Redis's UNBLOCKED error.
void ClientUnblock(CommandContext& ctx) {
  if (ctx.args.size() > 4) return ctx.reply.Error(SubcommandSyntaxError(ctx.args[1], "CLIENT"));
  bool with_error = false;
  if (ctx.args.size() == 4) {
    if (EqualsIgnoreCase(ctx.args[3], "error")) {
      with_error = true;
    } else if (!EqualsIgnoreCase(ctx.args[3], "timeout")) {
      return ctx.reply.Error("CLIENT UNBLOCK reason should be TIMEOUT or ERROR");
    }
  }
  const auto id = ParseInt64(ctx.args[2]);
  if (!id) return ctx.reply.Error(errors::kNotInteger);
  const bool unblocked =
      *id > 0 &&
      ctx.server.blocking.Unblock(ctx.server, static_cast<uint64_t>(*id), with_error, ctx.now_ms);
  if (unblocked && ctx.server.blocking_deadlines_changed) ctx.server.blocking_deadlines_changed();
  // Redis counts a command as failed when an error reply was made while it ran, to anyone: the
  // UNBLOCKED error sent to the other client makes this CLIENT UNBLOCK a failed call.
  if (unblocked && with_error)
    ++ctx.server.command_stats[ctx.conn.last_cmd->stats_slot].failed_calls;
  ctx.reply.Integer(unblocked ? 1 : 0);
}

void ClientUnpause(CommandContext& ctx) {
  ctx.server.pause.Unpause();
  ctx.server.dbs.KeepExpiredKeys(false);
  if (ctx.server.pause_changed) ctx.server.pause_changed();
  ctx.reply.Ok();
}

// Redis 7.2's help text, for the subcommands kvserver has.
// CLIENT TRACKING ON|OFF [REDIRECT id] [PREFIX p ...] [BCAST] [OPTIN] [OPTOUT] [NOLOOP], as Redis
// 7.0's clientCommand: options are read first, then checked against each other and against the
// client's current mode.
void ClientTrackingCmd(CommandContext& ctx) {
  const auto& args = ctx.args;
  TrackingOptions options;
  int64_t redirect = 0;
  for (size_t j = 3; j < args.size(); ++j) {
    const bool more = j + 1 < args.size();
    if (EqualsIgnoreCase(args[j], "redirect") && more) {
      ++j;
      if (redirect != 0) {
        return ctx.reply.Error("A client can only redirect to a single other client");
      }
      auto id = ParseInt64(args[j]);
      if (!id) return ctx.reply.Error(errors::kNotInteger);
      redirect = *id;
      // The client must exist now, although it may go away later.
      if (!ctx.server.clients_by_id.contains(static_cast<uint64_t>(redirect))) {
        return ctx.reply.Error("The client ID you want redirect to does not exist");
      }
    } else if (EqualsIgnoreCase(args[j], "bcast")) {
      options.bcast = true;
    } else if (EqualsIgnoreCase(args[j], "optin")) {
      options.optin = true;
    } else if (EqualsIgnoreCase(args[j], "optout")) {
      options.optout = true;
    } else if (EqualsIgnoreCase(args[j], "noloop")) {
      options.noloop = true;
    } else if (EqualsIgnoreCase(args[j], "prefix") && more) {
      options.prefixes.emplace_back(args[++j]);
    } else {
      return ctx.reply.Error(errors::kSyntax);
    }
  }
  options.redirect = static_cast<uint64_t>(redirect);
  ConnState& c = ctx.conn;
  if (EqualsIgnoreCase(args[2], "on")) {
    if (!options.bcast && !options.prefixes.empty()) {
      return ctx.reply.Error("PREFIX option requires BCAST mode to be enabled");
    }
    if (c.tracking && c.tracking->bcast != options.bcast) {
      return ctx.reply.Error(
          "You can't switch BCAST mode on/off before disabling tracking for this client, and "
          "then re-enabling it with a different mode.");
    }
    if (options.bcast && (options.optin || options.optout)) {
      return ctx.reply.Error("OPTIN and OPTOUT are not compatible with BCAST");
    }
    if (options.optin && options.optout) {
      return ctx.reply.Error("You can't specify both OPTIN mode and OPTOUT mode");
    }
    if (c.tracking &&
        ((options.optin && c.tracking->optout) || (options.optout && c.tracking->optin))) {
      return ctx.reply.Error(
          "You can't switch OPTIN/OPTOUT mode before disabling tracking for this client, and "
          "then re-enabling it with a different mode.");
    }
    if (options.bcast) {
      bool stop = true;
      if (auto error = Tracking::PrefixCollision(c, options.prefixes, &stop)) {
        ctx.reply.Error(*error);
        if (stop) return;
      }
    }
    ctx.server.tracking.Enable(c, options);
  } else if (EqualsIgnoreCase(args[2], "off")) {
    ctx.server.tracking.Disable(c);
  } else {
    return ctx.reply.Error(errors::kSyntax);
  }
  ctx.reply.Ok();
}

// CLIENT CACHING YES|NO: whether the next command's keys are tracked (OPTIN) or not (OPTOUT).
void ClientCaching(CommandContext& ctx) {
  ConnState& c = ctx.conn;
  if (!c.tracking) {
    return ctx.reply.Error(
        "CLIENT CACHING can be called only when the client is in tracking mode with OPTIN or "
        "OPTOUT mode enabled");
  }
  if (EqualsIgnoreCase(ctx.args[2], "yes")) {
    if (!c.tracking->optin) {
      return ctx.reply.Error(
          "CLIENT CACHING YES is only valid when tracking is enabled in OPTIN mode.");
    }
  } else if (EqualsIgnoreCase(ctx.args[2], "no")) {
    if (!c.tracking->optout) {
      return ctx.reply.Error(
          "CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode.");
    }
  } else {
    return ctx.reply.Error(errors::kSyntax);
  }
  c.tracking->caching = true;
  ctx.reply.Ok();
}

void ClientGetRedir(CommandContext& ctx) {
  ctx.reply.Integer(ctx.conn.tracking ? static_cast<int64_t>(ctx.conn.tracking->redirect) : -1);
}

void ClientTrackingInfo(CommandContext& ctx) {
  const ClientTracking* t = ctx.conn.tracking.get();
  ctx.reply.MapHeader(3);
  ctx.reply.Bulk("flags");
  std::vector<std::string_view> flags = {t != nullptr ? "on" : "off"};
  if (t != nullptr) {
    if (t->bcast) flags.push_back("bcast");
    if (t->optin) {
      flags.push_back("optin");
      if (t->caching) flags.push_back("caching-yes");
    }
    if (t->optout) {
      flags.push_back("optout");
      if (t->caching) flags.push_back("caching-no");
    }
    if (t->noloop) flags.push_back("noloop");
    if (t->broken_redirect) flags.push_back("broken_redirect");
  }
  ctx.reply.SetHeader(flags.size());
  for (std::string_view f : flags) ctx.reply.Bulk(f);
  ctx.reply.Bulk("redirect");
  ctx.reply.Integer(t != nullptr ? static_cast<int64_t>(t->redirect) : -1);
  ctx.reply.Bulk("prefixes");
  if (t == nullptr) return ctx.reply.ArrayHeader(0);
  ctx.reply.ArrayHeader(t->prefixes.size());
  for (const std::string& p : t->prefixes) ctx.reply.Bulk(p);
}

void ClientHelp(CommandContext& ctx) {
  static constexpr std::string_view kLines[] = {
      "CACHING (YES|NO)",
      "    Enable/disable tracking of the keys for next command in OPTIN/OPTOUT modes.",
      "GETREDIR",
      "    Return the client ID we are redirecting to when tracking is enabled.",
      "GETNAME",
      "    Return the name of the current connection.",
      "ID",
      "    Return the ID of the current connection.",
      "INFO",
      "    Return information about the current client connection.",
      "KILL <ip:port>",
      "    Kill connection made from <ip:port>.",
      "KILL <option> <value> [<option> <value> [...]]",
      "    Kill connections. Options are:",
      "    * ADDR (<ip:port>|<unixsocket>:0)",
      "      Kill connections made from the specified address",
      "    * LADDR (<ip:port>|<unixsocket>:0)",
      "      Kill connections made to specified local address",
      "    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
      "      Kill connections by type.",
      "    * USER <username>",
      "      Kill connections authenticated by <username>.",
      "    * SKIPME (YES|NO)",
      "      Skip killing current connection (default: yes).",
      "LIST [options ...]",
      "    Return information about client connections. Options:",
      "    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
      "      Return clients of specified type.",
      "UNPAUSE",
      "    Stop the current client pause, resuming traffic.",
      "PAUSE <timeout> [WRITE|ALL]",
      "    Suspend all, or just write, clients for <timeout> milliseconds.",
      "REPLY (ON|OFF|SKIP)",
      "    Control the replies sent to the current connection.",
      "SETNAME <name>",
      "    Assign the name <name> to the current connection.",
      "UNBLOCK <clientid> [TIMEOUT|ERROR]",
      "    Unblock the specified blocked client.",
      "TRACKING (ON|OFF) [REDIRECT <id>] [BCAST] [PREFIX <prefix> [...]]",
      "         [OPTIN] [OPTOUT] [NOLOOP]",
      "    Control server assisted client side caching.",
      "TRACKINGINFO",
      "    Report tracking status for the current connection.",
      "SETINFO <option> <value>",
      "    Set client meta attr. Options are:",
      "    * LIB-NAME: the client lib name.",
      "    * LIB-VER: the client lib version.",
      "NO-EVICT (ON|OFF)",
      "    Protect current client connection from eviction.",
      "NO-TOUCH (ON|OFF)",
      "    Will not touch LRU/LFU stats when this mode is on.",
  };
  ctx.reply.ArrayHeader(std::size(kLines) + 3);
  ctx.reply.SimpleString(ToUpper(ctx.args[0]) +
                         " <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
  for (std::string_view line : kLines) ctx.reply.SimpleString(line);
  ctx.reply.SimpleString("HELP");
  ctx.reply.SimpleString("    Prints this help.");
}

}  // namespace

void RegisterClientFamily(CommandRegistry& r) {
  constexpr uint32_t kConn = kCmdNoScript | kCmdLoading | kCmdStale;
  constexpr std::string_view kCat = "@slow @connection";
  constexpr std::string_view kAdminCat = "@admin @slow @dangerous @connection";
  r.Register({"hello", -1, kConn | kCmdFast | kCmdNoAuth | kCmdAllowBusy, 0, 0, 0, Hello,
              "connection", "Handshake with Redis", "6.0.0", "@fast @connection"});
  r.Register(
      {"client",
       -2,
       0,
       0,
       0,
       0,
       ClientContainer,
       "connection",
       "A container for client connection commands",
       "2.4.0",
       "@slow",
       {
           {"caching", 3, kConn, 0, 0, 0, ClientCaching, "connection",
            "Instruct the server about tracking or not keys in the next request", "6.0.0", kCat},
           {"getname", 2, kConn, 0, 0, 0, ClientGetName, "connection",
            "Get the current connection name", "2.6.9", kCat},
           {"getredir", 2, kConn, 0, 0, 0, ClientGetRedir, "connection",
            "Get tracking notifications redirection client ID if any", "6.0.0", kCat},
           {"help", 2, kCmdLoading | kCmdStale, 0, 0, 0, ClientHelp, "connection",
            "Show helpful text about the different subcommands", "5.0.0", kCat},
           {"id", 2, kConn, 0, 0, 0, ClientId, "connection",
            "Returns the client ID for the current connection", "5.0.0", kCat},
           {"info", 2, kConn, 0, 0, 0, ClientInfoCmd, "connection",
            "Returns information about the current client connection.", "6.2.0", kCat},
           {"kill", -3, kCmdAdmin | kConn, 0, 0, 0, ClientKill, "connection",
            "Kill the connection of a client", "2.4.0", kAdminCat},
           {"list", -2, kCmdAdmin | kConn, 0, 0, 0, ClientList, "connection",
            "Get the list of client connections", "2.4.0", kAdminCat},
           {"no-evict", 3, kCmdAdmin | kConn, 0, 0, 0, ClientNoEvict, "connection",
            "Set client eviction mode for the current connection", "7.0.0", kAdminCat},
           {"no-touch", 3, kConn, 0, 0, 0, ClientNoTouch, "connection",
            "Controls whether commands sent by the client affect the LRU/LFU of accessed keys.",
            "7.2.0", kCat},
           {"pause", -3, kCmdAdmin | kConn, 0, 0, 0, ClientPauseCmd, "connection",
            "Stop processing commands from clients for some time", "2.9.50", kAdminCat},
           {"reply", 3, kConn, 0, 0, 0, ClientReply, "connection",
            "Instruct the server whether to reply to commands", "3.2.0", kCat},
           {"setinfo", 4, kConn, 0, 0, 0, ClientSetInfo, "connection",
            "Sets information specific to the client or connection.", "7.2.0", kCat},
           {"setname", 3, kConn, 0, 0, 0, ClientSetName, "connection",
            "Set the current connection name", "2.6.9", kCat},
           {"tracking", -3, kConn, 0, 0, 0, ClientTrackingCmd, "connection",
            "Enable or disable server assisted client side caching support", "6.0.0", kCat},
           {"trackinginfo", 2, kConn, 0, 0, 0, ClientTrackingInfo, "connection",
            "Return information about server assisted client side caching for the current "
            "connection",
            "6.2.0", kCat},
           {"unblock", -3, kCmdAdmin | kConn, 0, 0, 0, ClientUnblock, "connection",
            "Unblock a client blocked in a blocking command from a different connection", "5.0.0",
            kAdminCat},
           {"unpause", 2, kCmdAdmin | kConn, 0, 0, 0, ClientUnpause, "connection",
            "Resume processing of clients that were paused", "6.2.0", kAdminCat},
       }});
}

}  // namespace kv
