#pragma once

#include <optional>
#include <string>

namespace kv {

class DbSet;

// Redis's rewriteAppendOnlyFileRio (aof-use-rdb-preamble no): the data as the commands that
// rebuild it (SELECT, then per key SET, RPUSH, SADD, ZADD or HMSET in batches of 64 items, a
// stream's XADD, XSETID, XGROUP and XCLAIM commands, and PEXPIREAT for a deadline), written to a
// temporary file beside `path`, fsynced and renamed over it. With `timestamp`
// (aof-timestamp-enabled) it starts with a "#TS:" annotation. Returns the reason for a failure.
std::optional<std::string> WriteAofCommandsBase(const DbSet& dbs, const std::string& path,
                                                int64_t now_s, bool timestamp);

}  // namespace kv
