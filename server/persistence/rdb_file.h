#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "server/persistence/rdb_reader.h"

namespace kv {

class DbSet;

struct RdbSaveOptions {
  bool compress = true;   // rdbcompression
  bool checksum = true;   // rdbchecksum: a zero checksum when off
  bool aof_base = false;  // the aof-base aux field: an AOF's base file
  int64_t now_ms = 0;     // the ctime aux field
  size_t used_memory = 0;
  // Under an LRU policy each key's idle time is saved, under an LFU policy its counter (Redis's
  // rdbSaveKeyValuePair).
  bool save_lru = false;
  bool save_lfu = false;
  // The function libraries' codes, saved before the keys as RDB_OPCODE_FUNCTION2 entries.
  std::vector<std::string> function_libraries;
  // rdb-key-save-delay: microseconds slept after each key (Redis's debugDelay), for tests.
  int64_t key_delay_us = 0;
  // Called after each key (a forked child reports its progress and copy-on-write from it).
  std::function<void()> key_saved;
};

// Writes every database as Redis 7.0's RDB file (rdbSaveRio): "REDIS0010", the aux fields
// (redis-ver, redis-bits, ctime, used-mem, aof-base), per non-empty database SELECTDB and
// RESIZEDB, then each key with its expiry in ms (and IDLE or FREQ), EOF and the CRC64. Written to
// "temp-<pid>.rdb" beside `path`, flushed, fsynced, then renamed over `path` (and the directory
// fsynced). Returns Redis's log line for a failure, nullopt on success.
std::optional<std::string> SaveRdbFile(const DbSet& dbs, const std::string& path,
                                       const RdbSaveOptions& options);

struct RdbLoadOptions {
  RdbLoadLimits limits;
  int64_t now_ms = 0;             // keys whose deadline passed are not loaded (as a master)
  bool lfu_policy = false;        // FREQ applies under an LFU policy, IDLE otherwise
  bool checksum = true;           // rdbchecksum: verify the file's CRC64
  bool allow_duplicates = false;  // DEBUG RELOAD MERGE: a key met twice replaces the first
  bool keep_expired = false;      // an AOF's base (RDBFLAGS_AOF_PREAMBLE): expired keys load too
  // Called for Redis's notice lines while loading ("Loading RDB produced by version ...").
  std::function<void(const std::string&)> log;
  // Called with each function library's code (FUNCTION LOAD's input); false with the error stops
  // the load. Libraries are read and dropped when it is empty.
  std::function<bool(std::string&& code, std::string* error)> load_function;
  // key-load-delay: microseconds slept after each key (Redis's debugDelay), for tests.
  int64_t key_delay_us = 0;
  // Called with the bytes read so far each time another `progress_interval_bytes` were read
  // (Redis's rdbLoadProgressCallback, which serves clients meanwhile); false stops the load.
  std::function<bool(size_t loaded_bytes)> progress;
  size_t progress_interval_bytes = 0;
  // Input of this many bytes or more is parsed on a thread of its own while the calling thread
  // inserts (rdb_load.cc); 0 always does so (for tests).
  size_t parse_thread_min_bytes = size_t{1} << 20;
};

struct RdbLoadResult {
  bool ok = false;
  bool missing = false;  // the file does not exist (not an error at start-up)
  std::string error;     // why it failed, as Redis logs it
  uint64_t keys_loaded = 0;
  uint64_t keys_expired = 0;
  size_t bytes_read = 0;  // up to the end of the checksum (what follows is an AOF tail)
  bool stopped = false;   // `progress` stopped it
};

// Redis's debugDelay: sleeps `us` microseconds; a negative value sleeps 1 us once in -us calls.
void DebugDelay(int64_t us);

// Loads an RDB file (versions 1 to 10) into `dbs` (rdbLoad), adding to what they hold. Anything
// corrupt, truncated or not supported fails with the offset and the reason; what came before it
// is loaded. Only the calling thread touches `dbs` and calls the options' callbacks.
RdbLoadResult LoadRdbFile(DbSet& dbs, const std::string& path, const RdbLoadOptions& options);
// The same from bytes in memory.
RdbLoadResult LoadRdbBytes(DbSet& dbs, std::string_view data, const RdbLoadOptions& options);

}  // namespace kv
