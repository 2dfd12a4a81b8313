#include "server/persistence/snapshot.h"

#include <spdlog/spdlog.h>

#include <chrono>

#include "server/allocator.h"
#include "server/persistence/load_limits.h"
#include "server/server_state.h"

namespace kv {

std::string SnapshotPath(const ServerState& s) { return s.config.dbfilename; }

int64_t LastSaveSeconds(const ServerState& s) {
  return s.persistence.lastsave_s > 0 ? s.persistence.lastsave_s : s.start_time_ms / 1000;
}

std::optional<std::string> SaveSnapshot(ServerState& s) {
  RdbSaveOptions options;
  options.compress = s.config.rdbcompression;
  options.checksum = s.config.rdbchecksum;
  options.now_ms = s.clock->NowMs();
  options.used_memory = Allocator().allocated_bytes();
  const MaxmemoryPolicy p = s.config.maxmemory_policy;
  options.save_lfu = IsLfuPolicy(p);
  options.save_lru = p == MaxmemoryPolicy::kVolatileLru || p == MaxmemoryPolicy::kAllkeysLru;
  if (auto err = SaveRdbFile(s.dbs, SnapshotPath(s), options)) {
    spdlog::warn("{}", *err);
    return err;
  }
  spdlog::info("DB saved on disk");
  s.dirty = 0;
  s.persistence.lastsave_s = options.now_ms / 1000;
  s.persistence.last_save_ok = true;
  ++s.persistence.rdb_saves;
  return std::nullopt;
}

RdbLoadResult LoadSnapshot(ServerState& s, bool allow_duplicates) {
  RdbLoadOptions options;
  options.limits = LoadLimits(s);
  options.now_ms = s.clock->NowMs();
  options.lfu_policy = IsLfuPolicy(s.config.maxmemory_policy);
  options.checksum = s.config.rdbchecksum;
  options.allow_duplicates = allow_duplicates;
  options.log = [](const std::string& line) { spdlog::info("{}", line); };
  RdbLoadResult r = LoadRdbFile(s.dbs, SnapshotPath(s), options);
  if (r.ok) {
    spdlog::info("Done loading RDB, keys loaded: {}, keys expired: {}.", r.keys_loaded,
                 r.keys_expired);
    s.persistence.last_load_keys_loaded = r.keys_loaded;
    s.persistence.last_load_keys_expired = r.keys_expired;
  } else if (!r.missing) {
    spdlog::warn("{}", r.error);
  }
  return r;
}

std::optional<std::string> LoadSnapshotAtStartup(ServerState& s) {
  const auto start = std::chrono::steady_clock::now();
  RdbLoadResult r = LoadSnapshot(s);
  if (r.missing) return std::nullopt;
  if (!r.ok) {
    spdlog::warn("Terminating server after rdb file reading failure.");
    return "Fatal error loading the DB: " + r.error + ". Exiting.";
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  spdlog::info("DB loaded from disk: {:.3f} seconds", seconds);
  return std::nullopt;
}

}  // namespace kv
