#include "server/persistence/snapshot.h"

#include <signal.h>
#include <spdlog/spdlog.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <optional>

#include "absl/strings/str_cat.h"
#include "server/allocator.h"
#include "server/errors.h"
#include "server/persistence/aof.h"
#include "server/persistence/load_limits.h"
#include "server/persistence/loading.h"
#include "server/scripting/scripting.h"
#include "server/server_state.h"

namespace kv {

namespace {

constexpr int64_t kBgsaveRetryDelay = 5;  // CONFIG_BGSAVE_RETRY_DELAY, seconds

RdbSaveOptions SaveOptions(const ServerState& s) {
  RdbSaveOptions options;
  options.compress = s.config.rdbcompression;
  options.checksum = s.config.rdbchecksum;
  options.now_ms = s.clock->NowMs();
  options.used_memory = Allocator().allocated_bytes();
  const MaxmemoryPolicy p = s.config.maxmemory_policy;
  options.save_lfu = IsLfuPolicy(p);
  options.save_lru = p == MaxmemoryPolicy::kVolatileLru || p == MaxmemoryPolicy::kAllkeysLru;
  options.key_delay_us = s.config.rdb_key_save_delay;
  if (s.scripting) {
    for (const auto& [name, lib] : s.scripting->libraries()) {
      options.function_libraries.push_back(lib.code);
    }
  }
  return options;
}

}  // namespace

std::string SnapshotPath(const ServerState& s) { return s.config.dbfilename; }

int64_t LastSaveSeconds(const ServerState& s) {
  return s.persistence.lastsave_s > 0 ? s.persistence.lastsave_s : s.start_time_ms / 1000;
}

bool WritesDeniedByBgsaveError(const ServerState& s) {
  return s.config.stop_writes_on_bgsave_error && !s.config.save.empty() &&
         !s.persistence.last_save_ok;
}

bool WritesDeniedByDiskError(const ServerState& s) {
  return WritesDeniedByBgsaveError(s) || (s.aof && s.aof->on() && !s.aof->write_ok());
}

std::string DiskErrorMessage(const ServerState& s) {
  if (WritesDeniedByBgsaveError(s)) return std::string(errors::kMisconfBgsave);
  return absl::StrCat("-MISCONF Errors writing to the AOF file: ",
                      std::strerror(s.aof->write_errno()));
}

std::optional<std::string> SaveSnapshot(ServerState& s) {
  const RdbSaveOptions options = SaveOptions(s);
  if (auto err = SaveRdbFile(s.dbs, SnapshotPath(s), options)) {
    spdlog::warn("{}", *err);
    return err;
  }
  spdlog::info("DB saved on disk");
  s.dirty = 0;
  s.persistence.lastsave_s = options.now_ms / 1000;
  s.persistence.last_save_ok = true;
  return std::nullopt;
}

std::optional<std::string> StartBackgroundSave(ServerState& s) {
  PersistenceStats& p = s.persistence;
  const int64_t now_s = s.clock->NowMs() / 1000;
  ++p.rdb_saves;  // as Redis, counted when it starts, whatever the outcome
  p.dirty_before_bgsave = s.dirty;
  p.last_bgsave_try_s = now_s;
  RdbSaveOptions options = SaveOptions(s);
  const std::string path = SnapshotPath(s);
  p.child_info.Open(s.dbs.TotalKeys());
  const auto fork_start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    // The child: the dataset as it was at the fork (copy-on-write), written and done, telling
    // the server its copy-on-write on the way. Nothing here touches the event loop or the log.
    options.key_saved = [&p] { p.child_info.KeySaved(); };
    const bool ok = !SaveRdbFile(s.dbs, path, options).has_value();
    if (ok) p.child_info.Send(ChildInfo::Type::kRdbCowSize, 0);
    ::_exit(ok ? 0 : 1);
  }
  if (pid < 0) {
    p.child_info.Close();
    p.last_save_ok = false;
    const std::string why = std::strerror(errno);
    spdlog::warn("Can't save in background: fork: {}", why);
    return why;
  }
  p.child_info.Forked(std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::steady_clock::now() - fork_start)
                          .count());
  spdlog::info("Background saving started by pid {}", pid);
  p.child_pid = pid;
  p.bgsave_start_s = now_s;
  p.bgsave_scheduled = false;
  return std::nullopt;
}

void BackgroundSaveCron(ServerState& s) {
  PersistenceStats& p = s.persistence;
  const int64_t now_s = s.clock->NowMs() / 1000;
  if (p.child_pid != -1) {
    int status = 0;
    p.child_info.Receive();
    const pid_t done = ::waitpid(p.child_pid, &status, WNOHANG);
    if (done == 0) return;   // still writing
    p.child_info.Receive();  // the child's last words
    if (done == p.child_pid && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      spdlog::info("Background saving terminated with success");
      s.dirty -= std::min(s.dirty, p.dirty_before_bgsave);
      p.lastsave_s = now_s;
      p.last_save_ok = true;
    } else if (done == p.child_pid && WIFSIGNALED(status)) {
      spdlog::warn("Background saving terminated by signal {}", WTERMSIG(status));
      ::unlink(("temp-" + std::to_string(p.child_pid) + ".rdb").c_str());
      // SIGUSR1 is how the server itself stops a child: not a failure, the status stays.
      if (WTERMSIG(status) != SIGUSR1) p.last_save_ok = false;
    } else {
      spdlog::warn("Background saving error");
      p.last_save_ok = false;
    }
    p.last_bgsave_time_sec = now_s - p.bgsave_start_s;
    p.child_pid = -1;
    p.child_info.Close();
  }
  // One child at a time: a scheduled BGSAVE and the save points wait for an AOF rewrite's.
  if (s.aof && s.aof->rewrite_in_progress()) return;
  const bool may_retry = p.last_save_ok || now_s - p.last_bgsave_try_s > kBgsaveRetryDelay;
  if (p.bgsave_scheduled && may_retry) {
    StartBackgroundSave(s);
    return;
  }
  for (const auto& [seconds, changes] : s.config.save) {
    if (s.dirty >= static_cast<uint64_t>(changes) && now_s - LastSaveSeconds(s) > seconds &&
        may_retry) {
      spdlog::info("{} changes in {} seconds. Saving...", changes, seconds);
      StartBackgroundSave(s);
      return;
    }
  }
}

void KillBackgroundSave(ServerState& s) {
  PersistenceStats& p = s.persistence;
  if (p.child_pid == -1) return;
  spdlog::warn("There is a child saving an .rdb. Killing it!");
  ::kill(p.child_pid, SIGUSR1);
  int status;
  ::waitpid(p.child_pid, &status, 0);
  ::unlink(("temp-" + std::to_string(p.child_pid) + ".rdb").c_str());
  p.child_pid = -1;
  p.child_info.Close();
}

bool FinalSave(ServerState& s, bool save, bool nosave, bool force) {
  // Half the data must not overwrite the file it comes from (prepareForShutdown).
  if (s.persistence.loading) {
    save = false;
    nosave = true;
  }
  KillBackgroundSave(s);
  if (s.aof) s.aof->PrepareShutdown();
  if (!((!s.config.save.empty() && !nosave) || save)) return true;
  spdlog::info("Saving the final RDB snapshot before exiting.");
  if (!SaveSnapshot(s)) return true;
  if (force) {
    spdlog::warn("Error trying to save the DB. Exit anyway.");
    return true;
  }
  spdlog::warn("Error trying to save the DB, can't exit.");
  spdlog::warn("Errors trying to shut down the server. Check the logs for more information.");
  return false;
}

RdbLoadResult LoadSnapshot(ServerState& s, bool allow_duplicates) {
  // Redis's rdbLoad: startLoadingFile, then clients served every
  // loading-process-events-interval-bytes (they get -LOADING meanwhile).
  std::error_code ec;
  const auto size = std::filesystem::file_size(SnapshotPath(s), ec);
  std::optional<LoadingScope> loading;  // none for a missing file, which fails at once
  if (!ec) loading.emplace(s, size);
  RdbLoadOptions options;
  options.key_delay_us = s.config.key_load_delay;
  if (loading && loading->can_serve()) {
    options.progress_interval_bytes =
        static_cast<size_t>(s.config.loading_process_events_interval_bytes);
    options.progress = [&loading](size_t loaded) { return loading->Serve(loaded); };
  }
  options.limits = LoadLimits(s);
  options.now_ms = s.clock->NowMs();
  options.lfu_policy = IsLfuPolicy(s.config.maxmemory_policy);
  options.checksum = s.config.rdbchecksum;
  options.allow_duplicates = allow_duplicates;
  options.log = [](const std::string& line) { spdlog::info("{}", line); };
  // Into the loaded libraries, as rdbLoad: one already there fails the load unless duplicates
  // are allowed (DEBUG RELOAD MERGE), when it is replaced.
  if (!s.scripting) s.scripting = std::make_shared<Scripting>();
  options.load_function = [&s, allow_duplicates](std::string&& code, std::string* error) {
    return !s.scripting->LoadLibrary(code, allow_duplicates, error).empty();
  };
  RdbLoadResult r = LoadRdbFile(s.dbs, SnapshotPath(s), options);
  if (r.ok) {
    spdlog::info("Done loading RDB, keys loaded: {}, keys expired: {}.", r.keys_loaded,
                 r.keys_expired);
    s.persistence.last_load_keys_loaded = r.keys_loaded;
    s.persistence.last_load_keys_expired = r.keys_expired;
  } else if (!r.missing && !r.stopped) {
    spdlog::warn("{}", r.error);
  }
  return r;
}

std::optional<std::string> LoadSnapshotAtStartup(ServerState& s) {
  const auto start = std::chrono::steady_clock::now();
  RdbLoadResult r = LoadSnapshot(s);
  if (r.missing || r.stopped) return std::nullopt;
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
