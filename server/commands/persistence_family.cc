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
  if (SaveSnapshot(ctx.server)) return ctx.reply.Error("-ERR");
  ctx.reply.Ok();
}

// BGSAVE [SCHEDULE]: the only child kvserver forks is BGSAVE's, so SCHEDULE never has another
// child to wait for and starts the save at once.
void BgSave(CommandContext& ctx) {
  if (ctx.args.size() > 1 && !(ctx.args.size() == 2 && OptionIs(ctx.args[1], "schedule"))) {
    return ctx.reply.Error(errors::kSyntax);
  }
  if (ctx.server.persistence.child_pid != -1) return ctx.reply.Error(kInProgress);
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
