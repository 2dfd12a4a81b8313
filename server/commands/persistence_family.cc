// Snapshots: SAVE writes the dataset to the RDB file (dir/dbfilename) in the foreground, BGSAVE in
// a forked child, as Redis. LASTSAVE is with the server clock commands (keyspace_family.cc), DEBUG
// RELOAD with DEBUG.

#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/errors.h"
#include "server/persistence/aof.h"
#include "server/persistence/snapshot.h"
#include "server/strings.h"

namespace kv {
namespace {

constexpr std::string_view kInProgress = "Background save already in progress";

void Save(CommandContext& ctx) {
  if (ctx.server.persistence.child_pid != -1) return ctx.reply.Error(kInProgress);
  ++ctx.server.persistence.rdb_saves;  // INFO's rdb_saves counts SAVE and BGSAVE as they start
  if (SaveSnapshot(ctx.server)) return ctx.reply.Error("-ERR");
  ctx.reply.Ok();
}

// BGSAVE [SCHEDULE]: while an AOF rewrite's child runs (or inside EXEC), SCHEDULE has the cron
// start the save once no child is left; without it that is an error.
void BgSave(CommandContext& ctx) {
  bool schedule = false;
  if (ctx.args.size() > 1) {
    if (ctx.args.size() != 2 || !OptionIs(ctx.args[1], "schedule")) {
      return ctx.reply.Error(errors::kSyntax);
    }
    schedule = true;
  }
  PersistenceStats& p = ctx.server.persistence;
  if (p.child_pid != -1) return ctx.reply.Error(kInProgress);
  if ((ctx.server.aof && ctx.server.aof->rewrite_in_progress()) || ctx.server.in_exec) {
    if (!schedule && !ctx.server.in_exec) {
      return ctx.reply.Error(
          "Another child process is active (AOF?): can't BGSAVE right now. Use BGSAVE SCHEDULE "
          "in order to schedule a BGSAVE whenever possible.");
    }
    p.bgsave_scheduled = true;
    return ctx.reply.SimpleString("Background saving scheduled");
  }
  if (StartBackgroundSave(ctx.server)) return ctx.reply.Error("-ERR");
  ctx.reply.SimpleString("Background saving started");
}

// BGREWRITEAOF: a child writes a new base of the data (server/persistence/aof.h).
void BgRewriteAof(CommandContext& ctx) {
  if (!ctx.server.aof) ctx.server.aof = std::make_shared<AppendOnlyFile>(ctx.server);
  switch (ctx.server.aof->RequestRewrite()) {
    case AppendOnlyFile::RewriteStart::kInProgress:
      return ctx.reply.Error("Background append only file rewriting already in progress");
    case AppendOnlyFile::RewriteStart::kScheduled:
      return ctx.reply.SimpleString("Background append only file rewriting scheduled");
    case AppendOnlyFile::RewriteStart::kStarted:
      return ctx.reply.SimpleString("Background append only file rewriting started");
    case AppendOnlyFile::RewriteStart::kFailed:
      return ctx.reply.Error(
          "Can't execute an AOF background rewriting. Please check the server logs for more "
          "information.");
  }
}

}  // namespace

void RegisterPersistenceFamily(CommandRegistry& r) {
  r.Register({"save", 1, kCmdAdmin | kCmdNoScript | kCmdNoAsyncLoading | kCmdNoMulti, 0, 0, 0, Save,
              "server", "Synchronously save the dataset to disk", "1.0.0",
              "@admin @slow @dangerous"});
  r.Register({"bgsave", -1, kCmdAdmin | kCmdNoScript | kCmdNoAsyncLoading, 0, 0, 0, BgSave,
              "server", "Asynchronously save the dataset to disk", "1.0.0",
              "@admin @slow @dangerous"});
  r.Register({"bgrewriteaof", 1, kCmdAdmin | kCmdNoScript | kCmdNoAsyncLoading, 0, 0, 0,
              BgRewriteAof, "server", "Asynchronously rewrite the append-only file", "1.0.0",
              "@admin @slow @dangerous"});
}

}  // namespace kv
