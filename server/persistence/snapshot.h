#pragma once

#include <optional>
#include <string>

#include "server/persistence/rdb_file.h"

namespace kv {

struct ServerState;

// The server's snapshot file: `dbfilename` in `dir` (the working directory, which `dir` sets).
std::string SnapshotPath(const ServerState& s);

// LASTSAVE and rdb_last_save_time: the last successful save, or the server's start.
int64_t LastSaveSeconds(const ServerState& s);

// Redis's writeCommandsDeniedByDiskError for snapshots: while stop-writes-on-bgsave-error is on,
// save points are set and the last background save failed, writes get errors::kMisconfBgsave.
bool WritesDeniedByBgsaveError(const ServerState& s);
// writeCommandsDeniedByDiskError as a whole: the snapshots' case above, or the AOF on with its last
// write or background fsync failed. Writes (and PING) are refused with DiskErrorMessage then.
bool WritesDeniedByDiskError(const ServerState& s);
// writeCommandsGetDiskErrorMessage: errors::kMisconfBgsave, or "-MISCONF Errors writing to the
// AOF file: <strerror>".
std::string DiskErrorMessage(const ServerState& s);

// SAVE (rdbSave): writes the dataset to the snapshot file with the configured options; on success
// resets the changes counted since the last save, stamps LASTSAVE and logs "DB saved on disk".
// Returns Redis's log line on failure (also logged).
std::optional<std::string> SaveSnapshot(ServerState& s);

// BGSAVE (rdbSaveBackground): forks, and the child writes the snapshot file while the server
// goes on; the cron reaps it (BackgroundSaveCron). Returns the error reply's text on failure.
std::optional<std::string> StartBackgroundSave(ServerState& s);
// The cron's part (serverCron): reaps a finished BGSAVE child (logging its outcome and, on
// success, taking the changes it saved off the counter and stamping LASTSAVE), then starts a
// scheduled BGSAVE or one the save points ask for ("<changes> changes in <seconds> seconds.
// Saving...").
void BackgroundSaveCron(ServerState& s);
// At shutdown: stops a BGSAVE child and removes its temporary file.
void KillBackgroundSave(ServerState& s);
// Redis's prepareForShutdown's snapshot: stops a BGSAVE child, then saves ("Saving the final RDB
// snapshot before exiting.") when save points are set and not `nosave`, or when `save`. False
// when the save failed and `force` is not set: the server must not exit.
bool FinalSave(ServerState& s, bool save, bool nosave, bool force);

// Loads the snapshot file into the databases (rdbLoad), logging Redis's lines; counts what it
// loaded for INFO. Clients are served every loading-process-events-interval-bytes meanwhile
// (ServerState::process_events_while_loading), getting -LOADING for most commands (LoadingScope).
RdbLoadResult LoadSnapshot(ServerState& s, bool allow_duplicates = false);

// At start-up (loadDataFromDisk): loads the snapshot file if there is one, logging "DB loaded from
// disk: <seconds> seconds", serving clients meanwhile (they get -LOADING for most commands);
// returns the fatal error to exit with when it cannot be loaded. A shutdown meanwhile stops it.
std::optional<std::string> LoadSnapshotAtStartup(ServerState& s);

}  // namespace kv
