#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>

#include "server/persistence/aof_manifest.h"

namespace kv {

struct ServerState;

// Redis 7.0's append-only file (aof.c): a directory (appenddirname) holding a manifest, a base
// file (RDB with aof-use-rdb-preamble, else commands) and incremental files that every write
// command is appended to in RESP (fed by the propagation, server/persistence/propagation.h).
// BGREWRITEAOF forks a child that writes a new base of the data while the parent appends to a
// new incremental file; the old files then become history and are deleted.
//
// Writes are buffered per event-loop batch and written before any reply goes out (Flush), so an
// acknowledged write is at least in the kernel: with appendfsync always it is also fsynced
// first (one fsync per batch), with everysec a thread fsyncs once a second, with no the kernel
// decides. Redis with everysec puts off a write while an fsync still runs, for up to two seconds,
// then makes it and counts it (aof_delayed_fsync); kvserver writes at once (acknowledged writes
// stay in the kernel through a kill -9) and counts as Redis would. Paths are relative to the
// working directory (dir).
class AppendOnlyFile {
 public:
  explicit AppendOnlyFile(ServerState& s);
  ~AppendOnlyFile();
  AppendOnlyFile(const AppendOnlyFile&) = delete;
  AppendOnlyFile& operator=(const AppendOnlyFile&) = delete;

  // Redis's aofLoadManifestFromDisk: reads the manifest if the directory has one. An error is
  // the reason to refuse to start.
  std::optional<std::string> LoadManifest();
  // loadAppendOnlyFiles: the base and incremental files into the (empty) databases. A
  // single-file AOF of Redis before 7.0 (appendfilename in dir, no manifest listing files) is
  // first moved into the directory as the base (aofUpgradePrepare).
  // Clients are served meanwhile (they get -LOADING, see LoadingScope); a shutdown then stops the
  // load (load_stopped()).
  std::optional<std::string> LoadFiles();
  bool load_stopped() const { return load_stopped_; }
  // aofOpenIfNeededOnServerStart + aofDelHistoryFiles: creates the directory, a base of the
  // data when there is no file at all, opens the last incremental file for appending.
  std::optional<std::string> OpenAtStartup();
  // CONFIG SET appendonly yes (startAppendOnly): a rewrite makes the base of the data; commands
  // meanwhile go to a temporary incremental file, which becomes the manifest's once it is done.
  std::optional<std::string> Start();
  // CONFIG SET appendonly no (stopAppendOnly): flushed, fsynced and closed.
  void Stop();

  // feedAppendOnlyFile: `argv` in RESP after a SELECT when `db` is not the file's current one
  // (and a "#TS:" annotation with aof-timestamp-enabled).
  void Feed(size_t db, std::span<const std::string_view> argv);
  bool has_pending() const { return !buf_.empty(); }
  // flushAppendOnlyFile: writes what was fed; with appendfsync always (and no rewrite holding
  // fsyncs off), fsyncs it too. `force` (shutdown, a rewrite starting, appendonly no) is Redis's
  // flush that never waits for a running fsync (not counted in aof_delayed_fsync).
  void Flush(bool force = false);

  // serverCron's part: reaps the rewrite child and finishes its work, starts a scheduled or
  // automatic (auto-aof-rewrite-percentage) rewrite.
  void Cron();
  // BGREWRITEAOF (rewriteAppendOnlyFileBackground); the reply's status or error text.
  enum class RewriteStart { kStarted, kScheduled, kInProgress, kFailed };
  RewriteStart RequestRewrite();
  bool rewrite_in_progress() const { return child_pid_ != -1; }
  // Kills a rewrite child (shutdown, appendonly no).
  void KillChild();
  // DEBUG LOADAOF: the data emptied and loaded again from the directory (the server exits when
  // that fails, as Redis).
  void DebugLoad();
  // aofDelHistoryFiles: the files a rewrite made history deleted and dropped from the manifest,
  // unless aof-disable-auto-gc (also run when CONFIG SET turns that off).
  void DeleteHistory();
  // DEBUG AOF-FLUSH-SLEEP: each write of a non-empty buffer sleeps this long first (tests).
  void set_flush_sleep_us(int64_t us) { flush_sleep_us_ = us; }
  // Redis's prepareForShutdown: the rewrite child killed, the buffer written and fsynced.
  void PrepareShutdown();

  // INFO persistence's aof_* fields (from aof_enabled to aof_last_cow_size), and the AOF ones of
  // the "aof_*" section when on.
  void AppendInfo(std::string& out) const;
  bool on() const { return state_ != State::kOff; }
  // CONFIG RESETSTAT: aof_rewrites, aof_rewrites_consecutive_failures, aof_delayed_fsync.
  void ResetStats();
  // Whether the last write and the last background fsync succeeded (aof_last_write_status), and
  // the error of the one that failed.
  bool write_ok() const { return last_write_ok_ && bio_fsync_ok_.load(); }
  int write_errno() const { return last_write_ok_ ? bio_fsync_errno_.load() : last_write_errno_; }

 private:
  enum class State { kOff, kOn, kWaitRewrite };
  std::string DirPath(std::string_view name) const;
  std::optional<std::string> PersistManifest(const AofManifest& am);
  bool OldFileToUpgrade() const;
  std::optional<std::string> UpgradeOldFile();
  std::optional<std::string> OpenIncr(const std::string& name, bool truncate);
  // Writes a base of the data in the foreground (rewriteAppendOnlyFile).
  std::optional<std::string> WriteBase(const std::string& path,
                                       std::function<void()> key_saved = nullptr);
  bool StartRewrite();
  void RewriteDone(bool ok, int signal);
  void FsyncLoop();
  void SwapFd(int fd);
  bool FsyncAllowed() const;
  int LoadOne(const AofFileInfo& f, const std::function<bool(size_t)>& progress);

  ServerState& s_;
  State state_ = State::kOff;
  AofManifest manifest_;
  std::string buf_;
  int fd_ = -1;
  int selected_db_ = -1;
  int64_t cur_timestamp_ = 0;
  bool load_stopped_ = false;  // the last LoadFiles was stopped by a shutdown
  int64_t flush_sleep_us_ = 0;
  // Sizes for auto rewrite and INFO: the whole AOF (base + incr) and the base at the last rewrite.
  int64_t current_size_ = 0;
  int64_t base_size_ = 0;
  int64_t incr_size_ = 0;
  bool last_write_ok_ = true;
  int last_write_errno_ = 0;
  int64_t last_write_error_log_s_ = 0;
  // everysec: since when writes have met a running fsync (when Redis would have started putting
  // them off; 0: none do), and how many writes Redis would have made after waiting two seconds.
  int64_t flush_postponed_start_s_ = 0;
  uint64_t delayed_fsync_ = 0;
  // The rewrite child.
  int child_pid_ = -1;
  int64_t rewrite_start_s_ = 0;
  bool rewrite_scheduled_ = false;
  bool preamble_ = true;  // the running rewrite's base is an RDB file
  bool last_rewrite_ok_ = true;
  int64_t last_rewrite_time_s_ = -1;
  uint64_t rewrites_ = 0;
  uint64_t consecutive_failures_ = 0;
  // Redis's aofRewriteLimited: after three consecutive failures, automatic rewrites wait 1, 2,
  // 4, ... up to 60 minutes between tries (BGREWRITEAOF is never held back).
  bool RewriteLimited();
  int64_t limit_delay_minutes_ = 0;
  int64_t limit_next_rewrite_s_ = 0;
  // everysec: the thread that fsyncs what was written, once a second.
  std::mutex fsync_mu_;
  std::condition_variable fsync_cv_;
  std::thread fsync_thread_;
  bool fsync_stop_ = false;
  std::atomic<uint64_t> written_{0};
  std::atomic<uint64_t> synced_{0};
  std::atomic<int64_t> last_fsync_s_{0};
  std::atomic<bool> fsync_requested_{false};  // the loop woke the thread, which has not run yet
  std::atomic<int> pending_bio_fsync_{0};
  // The everysec thread's last fsync (Redis's aof_bio_fsync_status and _errno).
  std::atomic<bool> bio_fsync_ok_{true};
  std::atomic<int> bio_fsync_errno_{0};
  // What the fsync thread may read of the configuration, copied by the loop's thread.
  std::atomic<int> policy_{2};
  std::atomic<bool> fsync_allowed_{true};
};

// Redis's start-up order (main): the AOF manifest, the data (the AOF with appendonly yes, else
// dump.rdb), then the AOF opened for appending. The error is why the server must not start; an
// empty one when that was logged already (the AOF's failures: Redis exits after their lines).
std::optional<std::string> LoadDataAtStartup(ServerState& s);
// CONFIG SET appendonly (updateAppendonly): starts or stops the AOF; Redis's error text.
std::optional<std::string> ApplyAppendonly(ServerState& s);

}  // namespace kv
