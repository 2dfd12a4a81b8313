#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace kv {

struct ServerState;

// The id of the AOF loader's fake client (Redis's CLIENT_ID_AOF): commands see from it that they
// run from the AOF and are obeyed as written (mustObeyClient).
inline constexpr uint64_t kAofClientId = UINT64_MAX;

// What loading one file of the append-only directory came to (Redis's AOF_OK, AOF_NOT_EXIST, ...).
// kStopped: the server began stopping while clients were served from inside the load.
enum class AofLoadStatus { kOk, kNotExist, kEmpty, kOpenError, kFailed, kTruncated, kStopped };

struct AofLoadOptions {
  // aof-load-truncated: a file that ends in the middle of a command is cut after the last whole
  // one and loads; otherwise loading fails.
  bool truncated_ok = true;
  // key-load-delay: microseconds slept per command (Redis's debugDelay), for tests.
  int64_t key_delay_us = 0;
  // Called with the bytes of the file read so far every 1024 commands, and every
  // `rdb_progress_interval_bytes` of an RDB part (Redis serves clients then); false stops the load.
  std::function<bool(size_t file_bytes)> progress;
  size_t rdb_progress_interval_bytes = 0;
};

// Redis's loadSingleAppendOnlyFile: `dir`/`name` into the server's databases. A file that starts
// with "REDIS" begins with an RDB (a base written with aof-use-rdb-preamble, or an old single-file
// AOF's preamble); the commands that follow (all of a file without one) are run, as Redis's fake
// AOF client runs them, without replies or propagation. Logs Redis's lines.
AofLoadStatus LoadAppendOnlyFile(ServerState& s, const std::string& dir, const std::string& name,
                                 const AofLoadOptions& options);

}  // namespace kv
