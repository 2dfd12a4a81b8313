#pragma once

#include <string>

namespace kv {

struct ServerState;

// What loading one file of the append-only directory came to (Redis's AOF_OK, AOF_NOT_EXIST, ...).
enum class AofLoadStatus { kOk, kNotExist, kEmpty, kOpenError, kFailed, kTruncated };

struct AofLoadOptions {
  // aof-load-truncated: a file that ends in the middle of a command is cut after the last whole
  // one and loads; otherwise loading fails.
  bool truncated_ok = true;
};

// Redis's loadSingleAppendOnlyFile: `dir`/`name` into the server's databases. A file that starts
// with "REDIS" is an RDB (a base written with aof-use-rdb-preamble); otherwise each command is
// run, as Redis's fake AOF client runs it, without replies or propagation. Logs Redis's lines.
AofLoadStatus LoadAppendOnlyFile(ServerState& s, const std::string& dir, const std::string& name,
                                 const AofLoadOptions& options);

}  // namespace kv
