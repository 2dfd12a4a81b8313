#pragma once

#include <cstdint>
#include <string>

namespace kv {

struct ServerState;

// The id of the AOF loader's fake client (Redis's CLIENT_ID_AOF): commands see from it that they
// run from the AOF and are obeyed as written (mustObeyClient).
inline constexpr uint64_t kAofClientId = UINT64_MAX;

// What loading one file of the append-only directory came to (Redis's AOF_OK, AOF_NOT_EXIST, ...).
enum class AofLoadStatus { kOk, kNotExist, kEmpty, kOpenError, kFailed, kTruncated };

struct AofLoadOptions {
  // aof-load-truncated: a file that ends in the middle of a command is cut after the last whole
  // one and loads; otherwise loading fails.
  bool truncated_ok = true;
};

// Redis's loadSingleAppendOnlyFile: `dir`/`name` into the server's databases. A file that starts
// with "REDIS" begins with an RDB (a base written with aof-use-rdb-preamble, or an old single-file
// AOF's preamble); the commands that follow (all of a file without one) are run, as Redis's fake
// AOF client runs them, without replies or propagation. Logs Redis's lines.
AofLoadStatus LoadAppendOnlyFile(ServerState& s, const std::string& dir, const std::string& name,
                                 const AofLoadOptions& options);

}  // namespace kv
