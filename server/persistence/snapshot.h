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

// SAVE (rdbSave): writes the dataset to the snapshot file with the configured options; on success
// resets the changes counted since the last save, stamps LASTSAVE and logs "DB saved on disk".
// Returns Redis's log line on failure (also logged).
std::optional<std::string> SaveSnapshot(ServerState& s);

// Loads the snapshot file into the databases (rdbLoad), logging Redis's lines; counts what it
// loaded for INFO.
RdbLoadResult LoadSnapshot(ServerState& s, bool allow_duplicates = false);

// At start-up (loadDataFromDisk): loads the snapshot file if there is one, logging "DB loaded from
// disk: <seconds> seconds"; returns the fatal error to exit with when it cannot be loaded.
std::optional<std::string> LoadSnapshotAtStartup(ServerState& s);

}  // namespace kv
