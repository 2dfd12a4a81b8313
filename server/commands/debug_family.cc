// DEBUG: the subcommands Redis's test suite and tools use that kvserver can honour (HELP, LOG,
// OBJECT, SLEEP, SET-ACTIVE-EXPIRE, QUICKLIST-PACKED-THRESHOLD). Every other subcommand gets
// Redis's unknown-subcommand error. As in Redis 7, DEBUG is refused unless enable-debug-command
// allows the client.

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <string_view>
#include <thread>

#include "server/client_registry.h"
#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/commands/help.h"
#include "server/commands/local_client.h"
#include "server/config_rewrite.h"
#include "server/errors.h"
#include "server/object_info.h"
#include "server/rdb_length.h"
#include "server/strings.h"

namespace kv {
namespace {

// Redis's allowProtectedAction for enable-debug-command.
bool DebugAllowed(CommandContext& ctx) {
  const std::string& mode = ctx.server.config.enable_debug_command;
  return mode == "yes" || (mode == "local" && IsLocalClient(ctx));
}

// A C string's value as strtod reads it (0 for no number), as DEBUG SLEEP parses its argument.
double StrToD(std::string_view arg) {
  const std::string s(arg.substr(0, arg.find('\0')));
  return std::strtod(s.c_str(), nullptr);
}

// DEBUG OBJECT key: Redis's line about the value. "at" is the value's address; the refcount and
// encoding are what OBJECT reports; lru is Redis's 24-bit field as stored (the LRU clock, or under
// an LFU policy minutes and counter), and lru_seconds_idle is read from it whatever the policy, as
// Redis does.
void DebugObject(CommandContext& ctx) {
  Db& db = ctx.db();
  const Value* v = db.Peek(ctx.args[2], ctx.now_ms);
  if (v == nullptr) return ctx.reply.Error(errors::kNoSuchKey);
  ctx.reply.SimpleString(fmt::format(
      "Value at:{} refcount:{} encoding:{} serializedlength:{} lru:{} lru_seconds_idle:{}{}",
      static_cast<const void*>(v), ObjectRefcount(ctx.server.config, *v), EncodingName(*v),
      RdbValueLength(*v), v->lru(), db.IdleSeconds(*v), DebugObjectExtras(*v)));
}

void Debug(CommandContext& ctx) {
  if (!DebugAllowed(ctx)) {
    return ctx.reply.Error(
        "DEBUG command not allowed. If the enable-debug-command option is set to \"local\", you "
        "can run it from a local connection, otherwise you need to set this option in the "
        "configuration file, and then restart the server.");
  }
  const std::string_view sub = ctx.args[1];
  const size_t argc = ctx.args.size();
  if (argc == 2 && OptionIs(sub, "help")) {
    return ReplyHelp(
        ctx, "debug",
        {"LOG <message>", "    Write <message> to the server log.", "OBJECT <key>",
         "    Show low level info about `key` and associated value.", "SET-ACTIVE-EXPIRE <0|1>",
         "    Setting it to 0 disables expiring keys in background when they are not",
         "    accessed (otherwise the Redis behavior). Setting it to 1 reenables back the",
         "    default.", "QUICKLIST-PACKED-THRESHOLD <size>",
         "    Sets the threshold for elements to be inserted as plain vs packed nodes",
         "    Default value is 1GB, allows values up to 4GB. Setting to 0 restores to default.",
         "SLEEP <seconds>", "    Stop the server for <seconds>. Decimals allowed."});
  }
  if (argc == 3 && OptionIs(sub, "log")) {
    const std::string_view msg = ctx.args[2];
    spdlog::warn("DEBUG LOG: {}", msg.substr(0, msg.find('\0')));
    return ctx.reply.Ok();
  }
  if (argc == 3 && OptionIs(sub, "sleep")) {
    // As Redis: the whole server stops (the seconds become whole microseconds first).
    const auto us = static_cast<long long>(StrToD(ctx.args[2]) * 1000000);
    if (us > 0) std::this_thread::sleep_for(std::chrono::microseconds(us));
    return ctx.reply.Ok();
  }
  if (argc == 3 && OptionIs(sub, "object")) return DebugObject(ctx);
  if (argc == 3 && OptionIs(sub, "quicklist-packed-threshold")) {
    // Redis's quicklistisSetPackedThreshold: 0 restores the default; up to 4 GB less 1 MB.
    const std::optional<int64_t> bytes = ParseMemory(ctx.args[2]);
    if (!bytes || *bytes < 0 || static_cast<uint64_t>(*bytes) > QuickList::kMaxPackedThreshold) {
      return ctx.reply.Error("argument must be a memory value bigger than 1 and smaller than 4gb");
    }
    ctx.server.list_packed_threshold =
        *bytes == 0 ? QuickList::kDefaultPackedThreshold : static_cast<size_t>(*bytes);
    return ctx.reply.Ok();
  }
  if (argc == 2 && OptionIs(sub, "config-rewrite-force-all")) {
    // CONFIG REWRITE writing every directive, defaults included (Redis's test suite uses it).
    const std::string& path = ctx.server.config.config_file;
    if (path.empty()) return ctx.reply.Error("CONFIG-REWRITE-FORCE-ALL failed: Bad address");
    if (auto err = RewriteConfigFile(path, ctx.server.config, /*force_all=*/true)) {
      return ctx.reply.Error("CONFIG-REWRITE-FORCE-ALL failed: " +
                             err->substr(err->find(": ") + 2));
    }
    return ctx.reply.Ok();
  }
  if (argc == 3 && OptionIs(sub, "set-active-expire")) {
    // Redis's atoi: a leading number, 0 when there is none.
    const std::string value(ctx.args[2].substr(0, ctx.args[2].find('\0')));
    ctx.server.active_expire_enabled = std::atoi(value.c_str()) != 0;
    return ctx.reply.Ok();
  }
  ctx.reply.Error(SubcommandSyntaxError(sub, "debug"));
}

}  // namespace

void RegisterDebugFamily(CommandRegistry& r) {
  r.Register({"debug", -2, kCmdAdmin | kCmdNoScript | kCmdLoading | kCmdStale, 0, 0, 0, Debug,
              "server", "A container for debugging commands", "1.0.0", "@admin @slow @dangerous"});
}

}  // namespace kv
