// Snapshots: SAVE writes the dataset to the RDB file (dir/dbfilename) in the foreground, BGSAVE in
// a forked child, as Redis. LASTSAVE is with the server clock commands (keyspace_family.cc), DEBUG
// RELOAD with DEBUG.

#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/errors.h"
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

}  // namespace

void RegisterPersistenceFamily(CommandRegistry& r) {
  r.Register({"save", 1, kCmdAdmin | kCmdNoScript | kCmdNoAsyncLoading | kCmdNoMulti, 0, 0, 0, Save,
              "server", "Synchronously save the dataset to disk", "1.0.0",
              "@admin @slow @dangerous"});
  r.Register({"bgsave", -1, kCmdAdmin | kCmdNoScript | kCmdNoAsyncLoading, 0, 0, 0, BgSave,
              "server", "Asynchronously save the dataset to disk", "1.0.0",
              "@admin @slow @dangerous"});
}

}  // namespace kv
