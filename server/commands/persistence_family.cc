// Snapshots: SAVE writes the dataset to the RDB file (dir/dbfilename) in the foreground, as
// Redis's SAVE. LASTSAVE is with the server clock commands (keyspace_family.cc), DEBUG RELOAD with
// DEBUG.

#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/persistence/snapshot.h"

namespace kv {
namespace {

void Save(CommandContext& ctx) {
  if (SaveSnapshot(ctx.server)) return ctx.reply.Error("-ERR");
  ctx.reply.Ok();
}

}  // namespace

void RegisterPersistenceFamily(CommandRegistry& r) {
  r.Register({"save", 1, kCmdAdmin | kCmdNoScript | kCmdNoAsyncLoading | kCmdNoMulti, 0, 0, 0, Save,
              "server", "Synchronously save the dataset to disk", "1.0.0",
              "@admin @slow @dangerous"});
}

}  // namespace kv
