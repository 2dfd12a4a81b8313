#include "server/persistence/aof.h"

#include <fcntl.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "server/allocator.h"
#include "server/persistence/aof_loader.h"
#include "server/persistence/aof_rewrite.h"
#include "server/persistence/loading.h"
#include "server/persistence/rdb_file.h"
#include "server/persistence/snapshot.h"
#include "server/scripting/scripting.h"
#include "server/server_state.h"

namespace kv {

namespace {

std::string Errno() { return std::strerror(errno); }

bool FileExists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

bool DirExists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

int64_t FileSize(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 ? static_cast<int64_t>(st.st_size) : 0;
}

// Redis's fsyncFileDir: the directory holding `path`, so that a rename survives a crash.
void FsyncDirOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  const int fd = ::open(dir.c_str(), O_RDONLY);
  if (fd == -1) return;
  ::fsync(fd);
  ::close(fd);
}

bool WriteAll(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

// Redis's aofWrite: what could be written of `data` (less on an error after a part), -1 when
// nothing could.
ssize_t AofWrite(int fd, std::string_view data) {
  ssize_t total = 0;
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return total != 0 ? total : -1;
    }
    data.remove_prefix(static_cast<size_t>(n));
    total += n;
  }
  return total;
}

int64_t NowSeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

AppendOnlyFile::AppendOnlyFile(ServerState& s) : s_(s) {}

AppendOnlyFile::~AppendOnlyFile() {
  {
    std::lock_guard<std::mutex> lock(fsync_mu_);
    fsync_stop_ = true;
  }
  fsync_cv_.notify_all();
  if (fsync_thread_.joinable()) fsync_thread_.join();
  if (fd_ != -1) {
    if (!buf_.empty()) WriteAll(fd_, buf_);
    ::fdatasync(fd_);
    ::close(fd_);
  }
}

std::string AppendOnlyFile::DirPath(std::string_view name) const {
  std::string path = s_.config.appenddirname;
  path += '/';
  path.append(name);
  return path;
}

// ---- the manifest

std::optional<std::string> AppendOnlyFile::LoadManifest() {
  manifest_ = AofManifest();
  const std::string path = DirPath(s_.config.appendfilename + ".manifest");
  if (!FileExists(path)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::string e = absl::StrCat("Fatal error: can't open the AOF manifest file ", path,
                                 " for reading: ", Errno());
    spdlog::warn("{}", e);
    return e;
  }
  std::stringstream text;
  text << in.rdbuf();
  ManifestParseError error;
  std::optional<AofManifest> am = ParseAofManifest(text.str(), &error);
  if (!am) {
    spdlog::warn("\n*** FATAL AOF MANIFEST FILE ERROR ***\n");
    if (!error.line.empty() || error.line_number != 0) {
      spdlog::warn("Reading the manifest file, at line {}\n", error.line_number);
      spdlog::warn(">>> '{}'\n", error.line);
    }
    spdlog::warn("{}\n", error.message);
    return error.message;
  }
  manifest_ = std::move(*am);
  return std::nullopt;
}

std::optional<std::string> AppendOnlyFile::PersistManifest(const AofManifest& am) {
  const std::string name = s_.config.appendfilename + ".manifest";
  const std::string tmp_name = "temp-" + name;
  const std::string path = DirPath(name);
  const std::string tmp = DirPath(tmp_name);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_TRUNC | O_CREAT, 0644);
  if (fd == -1) {
    std::string e = absl::StrCat("Can't open the AOF manifest file ", tmp_name, ": ", Errno());
    spdlog::warn("{}", e);
    return e;
  }
  std::optional<std::string> err;
  if (!WriteAll(fd, am.Format())) {
    err = absl::StrCat("Error trying to write the temporary AOF manifest file ", tmp_name, ": ",
                       Errno());
  } else if (::fsync(fd) == -1) {
    err = absl::StrCat("Fail to fsync the temp AOF file ", tmp_name, ": ", Errno(), ".");
  } else if (::rename(tmp.c_str(), path.c_str()) != 0) {
    err = absl::StrCat("Error trying to rename the temporary AOF manifest file ", tmp_name,
                       " into ", name, ": ", Errno());
  }
  ::close(fd);
  if (err) {
    spdlog::warn("{}", *err);
    return err;
  }
  FsyncDirOf(path);
  return std::nullopt;
}

// ---- loading

int AppendOnlyFile::LoadOne(const AofFileInfo& f, const std::function<bool(size_t)>& progress) {
  AofLoadOptions options;
  options.truncated_ok = s_.config.aof_load_truncated;
  options.key_delay_us = s_.config.key_load_delay;
  options.progress = progress;
  options.rdb_progress_interval_bytes =
      static_cast<size_t>(s_.config.loading_process_events_interval_bytes);
  return static_cast<int>(LoadAppendOnlyFile(s_, s_.config.appenddirname, f.name, options));
}

bool AppendOnlyFile::OldFileToUpgrade() const {
  // An appendfilename in dir: a Redis older than 7.0 wrote it, unless a manifest already lists
  // files (the old file is then left alone). The third case is an upgrade cut short between
  // the manifest's write and the file's move.
  const std::string& name = s_.config.appendfilename;
  if (!FileExists(name)) return false;
  return !DirExists(s_.config.appenddirname) || manifest_.empty() ||
         (manifest_.base && manifest_.incr.empty() && manifest_.base->name == name &&
          !FileExists(DirPath(name)));
}

std::optional<std::string> AppendOnlyFile::UpgradeOldFile() {
  const Config& c = s_.config;
  if (::mkdir(c.appenddirname.c_str(), 0755) == -1 && errno != EEXIST) {
    std::string e =
        absl::StrCat("Can't open or create append-only dir ", c.appenddirname, ": ", Errno());
    spdlog::warn("{}", e);
    return e;
  }
  // The old file becomes the base, under its own name, then moves into the directory: a crash
  // between the two is finished by the next start.
  manifest_.base = AofFileInfo{c.appendfilename, 1, 'b'};
  manifest_.base_seq = 1;
  if (auto err = PersistManifest(manifest_)) return err;
  if (::rename(c.appendfilename.c_str(), DirPath(c.appendfilename).c_str()) == -1) {
    std::string e = absl::StrCat("Error trying to move the old AOF file ", c.appendfilename,
                                 " into dir ", c.appenddirname, ": ", Errno());
    spdlog::warn("{}", e);
    return e;
  }
  spdlog::info("Successfully migrated an old-style AOF file ({}) into the AOF directory ({}).",
               c.appendfilename, c.appenddirname);
  return std::nullopt;
}

std::optional<std::string> AppendOnlyFile::LoadFiles() {
  load_stopped_ = false;
  if (OldFileToUpgrade()) {
    if (auto err = UpgradeOldFile()) return err;
  }
  if (manifest_.empty()) return std::nullopt;  // AOF_NOT_EXIST: nothing to load
  const auto start = std::chrono::steady_clock::now();
  int64_t total = 0;
  const size_t count = (manifest_.base ? 1 : 0) + manifest_.incr.size();
  // getBaseAndIncrAppendOnlyFilesSize: every file must exist.
  std::vector<const AofFileInfo*> files;
  if (manifest_.base) files.push_back(&*manifest_.base);
  for (const AofFileInfo& f : manifest_.incr) files.push_back(&f);
  for (const AofFileInfo* f : files) {
    const std::string path = DirPath(f->name);
    if (!FileExists(path)) {
      spdlog::warn("The append log file {} doesn't exist: {}", f->name, std::strerror(ENOENT));
      return absl::StrCat("The append log file ", f->name, " doesn't exist");
    }
    total += FileSize(path);
  }
  if (total == 0) return std::nullopt;  // AOF_EMPTY
  // startLoading: clients are served from inside the load (-LOADING), INFO shows its progress
  // over all the files.
  LoadingScope loading(s_, static_cast<uint64_t>(total));
  uint64_t loaded_before = 0;  // the sizes of the files already loaded
  std::function<bool(size_t)> progress;
  if (loading.can_serve()) {
    progress = [&loading, &loaded_before](size_t file_bytes) {
      return loading.Serve(loaded_before + file_bytes);
    };
  }
  s_.loading = true;
  s_.dbs.SuspendExpiry(true);
  // The loaded commands are not propagated (Redis's loading turns aof_state off).
  Propagation::Sink sink = s_.propagation.TakeSink();
  std::optional<std::string> failure;
  size_t n = 0;
  for (const AofFileInfo* f : files) {
    const bool last = ++n == count;
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = static_cast<AofLoadStatus>(LoadOne(*f, progress));
    if (r == AofLoadStatus::kStopped) {
      load_stopped_ = true;
      break;
    }
    loaded_before += static_cast<uint64_t>(FileSize(DirPath(f->name)));
    s_.persistence.loading_loaded_bytes = loaded_before;
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const bool is_base = f == files.front() && manifest_.base.has_value();
    if (r == AofLoadStatus::kOk || (r == AofLoadStatus::kTruncated && last)) {
      spdlog::info("DB loaded from {} file {}: {:.3f} seconds", is_base ? "base" : "incr", f->name,
                   secs);
    }
    if (r == AofLoadStatus::kTruncated && !last) {
      spdlog::warn("Fatal error: the truncated file is not the last file");
      failure = "the truncated file " + f->name + " is not the last file";
      break;
    }
    if (r == AofLoadStatus::kFailed || r == AofLoadStatus::kOpenError ||
        (r == AofLoadStatus::kNotExist) || (r == AofLoadStatus::kEmpty && is_base && false)) {
      failure = "could not load the append only file " + f->name + " (see the log above)";
      break;
    }
  }
  s_.dbs.SuspendExpiry(false);
  s_.loading = false;
  s_.propagation.SetSink(std::move(sink));
  if (failure || load_stopped_) return failure;
  current_size_ = 0;
  for (const AofFileInfo* f : files) current_size_ += FileSize(DirPath(f->name));
  base_size_ = manifest_.base ? FileSize(DirPath(manifest_.base->name)) : 0;
  spdlog::info("DB loaded from append only file: {:.3f} seconds",
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return std::nullopt;
}

// ---- opening

std::optional<std::string> AppendOnlyFile::OpenIncr(const std::string& name, bool truncate) {
  const std::string path = DirPath(name);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | (truncate ? O_TRUNC : O_APPEND), 0644);
  if (fd == -1) {
    std::string e = absl::StrCat("Can't open the append-only file ", name, ": ", Errno());
    spdlog::warn("{}", e);
    return e;
  }
  SwapFd(fd);
  incr_size_ = FileSize(path);
  return std::nullopt;
}

void AppendOnlyFile::SwapFd(int fd) {
  int old;
  {
    std::lock_guard<std::mutex> lock(fsync_mu_);
    old = fd_;
    fd_ = fd;
  }
  // The everysec thread starts with the first file: a server with appendonly no (an embedded
  // one, say) runs no thread for it.
  if (fd != -1 && !fsync_thread_.joinable()) fsync_thread_ = std::thread([this] { FsyncLoop(); });
  if (old != -1) {
    ::fdatasync(old);
    ::close(old);
  }
  written_ = 0;
  synced_ = 0;
}

std::optional<std::string> AppendOnlyFile::WriteBase(const std::string& path,
                                                     std::function<void()> key_saved) {
  if (!s_.config.aof_use_rdb_preamble) {
    return WriteAofCommandsBase(s_.dbs, path, s_.clock->NowMs() / 1000,
                                s_.config.aof_timestamp_enabled);
  }
  RdbSaveOptions options;
  options.compress = s_.config.rdbcompression;
  options.checksum = s_.config.rdbchecksum;
  options.now_ms = s_.clock->NowMs();
  options.used_memory = Allocator().allocated_bytes();
  options.aof_base = true;
  const MaxmemoryPolicy p = s_.config.maxmemory_policy;
  options.save_lfu = IsLfuPolicy(p);
  options.save_lru = p == MaxmemoryPolicy::kVolatileLru || p == MaxmemoryPolicy::kAllkeysLru;
  options.key_delay_us = s_.config.rdb_key_save_delay;
  options.key_saved = std::move(key_saved);
  // The function libraries go into the base too, as into any RDB file.
  if (s_.scripting) {
    for (const auto& [name, lib] : s_.scripting->libraries()) {
      options.function_libraries.push_back(lib.code);
    }
  }
  return SaveRdbFile(s_.dbs, path, options);
}

std::optional<std::string> AppendOnlyFile::OpenAtStartup() {
  if (::mkdir(s_.config.appenddirname.c_str(), 0755) == -1 && errno != EEXIST) {
    std::string e = absl::StrCat("Can't open or create append-only dir ", s_.config.appenddirname,
                                 ": ", Errno());
    spdlog::warn("{}", e);
    return e;
  }
  const bool had_incr = !manifest_.incr.empty();
  if (!manifest_.base && manifest_.incr.empty()) {
    const std::string base =
        manifest_.NewBase(s_.config.appendfilename, s_.config.aof_use_rdb_preamble);
    if (auto err = WriteBase(DirPath(base))) {
      spdlog::warn("{}", *err);
      return err;
    }
    spdlog::info("Creating AOF base file {} on server start", base);
    base_size_ = FileSize(DirPath(base));
    current_size_ = base_size_;
  }
  const std::string incr = manifest_.incr.empty() ? manifest_.NewIncr(s_.config.appendfilename)
                                                  : manifest_.incr.back().name;
  if (auto err = OpenIncr(incr, false)) return err;
  if (auto err = PersistManifest(manifest_)) return err;
  spdlog::info("{} AOF incr file {} on server start", had_incr ? "Opening" : "Creating", incr);
  state_ = State::kOn;
  selected_db_ = -1;
  DeleteHistory();
  return std::nullopt;
}

std::optional<std::string> AppendOnlyFile::Start() {
  if (::mkdir(s_.config.appenddirname.c_str(), 0755) == -1 && errno != EEXIST) {
    std::string e = absl::StrCat("Can't open or create append-only dir ", s_.config.appenddirname,
                                 ": ", Errno());
    spdlog::warn("{}", e);
    return e;
  }
  state_ = State::kWaitRewrite;
  if (s_.persistence.child_pid != -1 || s_.in_exec) {
    rewrite_scheduled_ = true;
    spdlog::warn(
        "AOF was enabled but there is already another background operation. An AOF background "
        "was scheduled to start when possible.");
  } else if (!StartRewrite()) {
    state_ = State::kOff;
    spdlog::warn(
        "Redis needs to enable the AOF but can't trigger a background AOF rewrite operation. "
        "Check the above logs for more info about the error.");
    return std::string("can't trigger a background AOF rewrite");
  }
  // A new file: the errors of the old one no longer refuse writes (startAppendOnly).
  if (!bio_fsync_ok_.exchange(true)) {
    spdlog::warn("AOF reopen, just ignore the AOF fsync error in bio job");
  }
  if (!last_write_ok_) {
    spdlog::warn("AOF reopen, just ignore the last error.");
    last_write_ok_ = true;
  }
  return std::nullopt;
}

void AppendOnlyFile::Stop() {
  if (state_ == State::kOff) return;
  Flush(/*force=*/true);
  int fd;
  {
    std::lock_guard<std::mutex> lock(fsync_mu_);
    fd = fd_;
    fd_ = -1;
  }
  if (fd != -1) {
    if (::fdatasync(fd) == -1) spdlog::warn("Fail to fsync the AOF file: {}", Errno());
    ::close(fd);
  }
  state_ = State::kOff;
  selected_db_ = -1;
  rewrite_scheduled_ = false;
  KillChild();
  buf_.clear();
}

// ---- feeding and writing

void AppendOnlyFile::Feed(size_t db, std::span<const std::string_view> argv) {
  // Commands reach the file while it is on, or (turned on by CONFIG SET) once the rewrite that
  // makes its base runs.
  if (state_ == State::kOff || (state_ == State::kWaitRewrite && child_pid_ == -1)) return;
  if (s_.config.aof_timestamp_enabled) {
    const int64_t now = s_.clock->NowMs() / 1000;
    if (cur_timestamp_ < now) {
      cur_timestamp_ = now;
      absl::StrAppend(&buf_, "#TS:", now, "\r\n");
    }
  }
  if (static_cast<int>(db) != selected_db_) {
    const std::string n = std::to_string(db);
    absl::StrAppend(&buf_, "*2\r\n$6\r\nSELECT\r\n$", n.size(), "\r\n", n, "\r\n");
    selected_db_ = static_cast<int>(db);
  }
  AppendRespCommand(buf_, argv);
}

bool AppendOnlyFile::FsyncAllowed() const {
  // no-appendfsync-on-rewrite: no fsync while a child writes a whole file.
  return !(s_.config.no_appendfsync_on_rewrite &&
           (child_pid_ != -1 || s_.persistence.child_pid != -1));
}

void AppendOnlyFile::Flush(bool force) {
  policy_ = static_cast<int>(s_.config.appendfsync);
  fsync_allowed_ = FsyncAllowed();
  if (buf_.empty() || fd_ == -1) return;
  if (s_.config.appendfsync == 2 && !force && pending_bio_fsync_.load() != 0) {
    // An fsync is still running. Redis puts the write off (up to two seconds, replies going out
    // meanwhile), then makes it anyway and counts it in aof_delayed_fsync. Here the write is
    // made at once, so that a reply never leaves before its write is in the kernel (a kill -9
    // loses nothing acknowledged), and counted when Redis would have stopped waiting.
    const int64_t now = NowSeconds();
    if (flush_postponed_start_s_ == 0) {
      flush_postponed_start_s_ = now;
    } else if (now - flush_postponed_start_s_ >= 2) {
      ++delayed_fsync_;
      flush_postponed_start_s_ = 0;
      spdlog::info(
          "Asynchronous AOF fsync is taking too long (disk is busy?). Writing the AOF buffer "
          "without waiting for fsync to complete, this may slow down Redis.");
    }
  } else {
    flush_postponed_start_s_ = 0;
  }
  if (flush_sleep_us_ > 0) ::usleep(static_cast<useconds_t>(flush_sleep_us_));
  ssize_t written = AofWrite(fd_, buf_);
  if (written != static_cast<ssize_t>(buf_.size())) {
    // Redis's flushAppendOnlyFile error path: logged at most every 30 s; with everysec or no,
    // writes (and PING) are refused until a retry (each cron) succeeds.
    const int64_t now = NowSeconds();
    const bool can_log = now - last_write_error_log_s_ > 30;
    if (can_log) last_write_error_log_s_ = now;
    if (written == -1) {
      if (can_log) spdlog::warn("Error writing to the AOF file: {}", Errno());
      last_write_errno_ = errno;
    } else {
      if (can_log) {
        spdlog::warn("Short write while writing to the AOF file: (nwritten={}, expected={})",
                     written, buf_.size());
      }
      // A part of a command would make the file unloadable: cut it off again.
      if (::ftruncate(fd_, static_cast<off_t>(incr_size_)) == -1) {
        if (can_log) {
          spdlog::warn(
              "Could not remove short write from the append-only file.  Redis may refuse to load "
              "the AOF the next time it starts.  ftruncate: {}",
              Errno());
        }
      } else {
        written = -1;
      }
      last_write_errno_ = ENOSPC;
    }
    if (s_.config.appendfsync == 1) {
      // The replies of what is in the buffer may be promised on disk: nothing can be undone.
      spdlog::warn(
          "Can't recover from AOF write error when the AOF fsync policy is 'always'. Exiting...");
      ::_exit(1);
    }
    last_write_ok_ = false;
    if (written > 0) {
      current_size_ += written;
      incr_size_ += written;
      written_ += static_cast<uint64_t>(written);
      buf_.erase(0, static_cast<size_t>(written));
    }
    return;
  }
  if (!last_write_ok_) {
    spdlog::warn("AOF write error looks solved, Redis can write again.");
    last_write_ok_ = true;
  }
  const auto n = static_cast<int64_t>(buf_.size());
  current_size_ += n;
  incr_size_ += n;
  written_ += static_cast<uint64_t>(n);
  buf_.clear();
  if (s_.config.appendfsync == 1 && FsyncAllowed()) {
    if (::fdatasync(fd_) == -1) {
      spdlog::warn(
          "Can't persist AOF for fsync error when the AOF fsync policy is 'always': {}. "
          "Exiting...",
          Errno());
      ::_exit(1);
    }
    synced_.store(written_.load());
    last_fsync_s_ = NowSeconds();
  } else if (s_.config.appendfsync == 2 && NowSeconds() > last_fsync_s_.load() &&
             !fsync_requested_.exchange(true)) {
    // As Redis submits its background fsync: once a second at most. Waking the thread on every
    // write cost two futex calls and a context switch per batch of commands.
    fsync_cv_.notify_one();
  }
}

void AppendOnlyFile::FsyncLoop() {
  std::unique_lock<std::mutex> lock(fsync_mu_);
  while (!fsync_stop_) {
    // A request made while the last fsync ran is seen here, not lost with its notify.
    fsync_cv_.wait_for(lock, std::chrono::seconds(1),
                       [this] { return fsync_stop_ || fsync_requested_.load(); });
    if (fsync_stop_) break;
    fsync_requested_ = false;
    // Once a second at most, what was written since the last fsync.
    const int64_t now = NowSeconds();
    const uint64_t written = written_.load();
    if (fd_ == -1 || written == synced_.load() || now <= last_fsync_s_.load() ||
        policy_.load() != 2 || !fsync_allowed_.load()) {
      continue;
    }
    ++pending_bio_fsync_;
    if (::fdatasync(fd_) == -1 && errno != EBADF && errno != EINVAL) {
      bio_fsync_errno_ = errno;
      if (bio_fsync_ok_.exchange(false)) spdlog::warn("Fail to fsync the AOF file: {}", Errno());
    } else {
      bio_fsync_ok_ = true;
    }
    --pending_bio_fsync_;
    synced_.store(written);
    last_fsync_s_ = now;
  }
}

// ---- rewriting

bool AppendOnlyFile::StartRewrite() {
  if (child_pid_ != -1 || s_.persistence.child_pid != -1) return false;
  if (::mkdir(s_.config.appenddirname.c_str(), 0755) == -1 && errno != EEXIST) {
    spdlog::warn("Can't open or create append-only dir {}: {}", s_.config.appenddirname, Errno());
    last_rewrite_ok_ = false;
    return false;
  }
  // The new incremental file starts with a SELECT.
  selected_db_ = -1;
  Flush(/*force=*/true);
  // openNewIncrAofForAppend: commands from now on go to a new incremental file (a temporary one
  // while the AOF is being turned on), listed in the manifest at once.
  if (state_ == State::kOff) {
    // BGREWRITEAOF with appendonly off: only a base is written.
  } else if (state_ == State::kWaitRewrite) {
    if (OpenIncr("temp-" + s_.config.appendfilename + ".incr", true)) {
      last_rewrite_ok_ = false;
      return false;
    }
    spdlog::info("Creating AOF incr file temp-{}.incr on background rewrite",
                 s_.config.appendfilename);
  } else {
    AofManifest am = manifest_;
    const std::string name = am.NewIncr(s_.config.appendfilename);
    const std::string path = DirPath(name);
    const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CREAT, 0644);
    if (fd == -1) {
      spdlog::warn("Can't open the append-only file {}: {}", name, Errno());
      last_rewrite_ok_ = false;
      return false;
    }
    if (PersistManifest(am)) {
      ::close(fd);
      last_rewrite_ok_ = false;
      return false;
    }
    spdlog::info("Creating AOF incr file {} on background rewrite", name);
    SwapFd(fd);
    incr_size_ = 0;
    manifest_ = std::move(am);
  }
  ++rewrites_;
  // The base's form is decided at the fork, as its name is.
  preamble_ = s_.config.aof_use_rdb_preamble;
  ChildInfo& info = s_.persistence.child_info;
  info.Open(s_.dbs.TotalKeys());
  const auto fork_start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    // The child: the data as it was at the fork, written as the new base, telling the server its
    // copy-on-write on the way.
    const std::string tmp = "temp-rewriteaof-bg-" + std::to_string(::getpid()) + ".aof";
    std::optional<std::string> err = WriteBase(tmp, [&info] { info.KeySaved(); });
    if (err) std::fprintf(stderr, "AOF rewrite failed: %s\n", err->c_str());
    if (!err) info.Send(ChildInfo::Type::kAofCowSize, 0);
    ::_exit(err ? 1 : 0);
  }
  if (pid < 0) {
    info.Close();
    last_rewrite_ok_ = false;
    spdlog::warn("Can't rewrite append only file in background: fork: {}", Errno());
    return false;
  }
  info.Forked(std::chrono::duration_cast<std::chrono::microseconds>(
                  std::chrono::steady_clock::now() - fork_start)
                  .count());
  spdlog::info("Background append only file rewriting started by pid {}", pid);
  child_pid_ = pid;
  rewrite_scheduled_ = false;
  rewrite_start_s_ = s_.clock->NowMs() / 1000;
  return true;
}

AppendOnlyFile::RewriteStart AppendOnlyFile::RequestRewrite() {
  if (child_pid_ != -1) return RewriteStart::kInProgress;
  if (s_.persistence.child_pid != -1 || s_.in_exec) {
    rewrite_scheduled_ = true;
    consecutive_failures_ = 0;
    return RewriteStart::kScheduled;
  }
  // With appendonly off, BGREWRITEAOF still writes a base (as Redis).
  return StartRewrite() ? RewriteStart::kStarted : RewriteStart::kFailed;
}

void AppendOnlyFile::RewriteDone(bool ok, int signal) {
  const std::string tmp = "temp-rewriteaof-bg-" + std::to_string(child_pid_) + ".aof";
  const int64_t now_s = s_.clock->NowMs() / 1000;
  last_rewrite_time_s_ = now_s - rewrite_start_s_;
  child_pid_ = -1;
  if (!ok) {
    ::unlink(tmp.c_str());
    last_rewrite_ok_ = false;
    ++consecutive_failures_;
    if (signal != 0) {
      spdlog::warn("Background AOF rewrite terminated by signal {}", signal);
    } else {
      spdlog::warn("Background AOF rewrite terminated with error");
    }
    if (state_ == State::kWaitRewrite) {
      // aofDelTempIncrAofFile: what the temporary incremental file gathered is dropped with it;
      // the next rewrite (scheduled at once) starts a new one.
      buf_.clear();
      const std::string temp_incr = "temp-" + s_.config.appendfilename + ".incr";
      spdlog::info("Removing the temp incr aof file {} in the background", temp_incr);
      ::unlink(DirPath(temp_incr).c_str());
      rewrite_scheduled_ = true;
    }
    return;
  }
  spdlog::info("Background AOF rewrite terminated with success");
  AofManifest am = manifest_;
  const std::string base = am.NewBase(s_.config.appendfilename, preamble_);
  const std::string base_path = DirPath(base);
  if (::rename(tmp.c_str(), base_path.c_str()) == -1) {
    spdlog::warn("Error trying to rename the temporary AOF file {} into {}: {}", tmp, base,
                 Errno());
    ::unlink(tmp.c_str());
    last_rewrite_ok_ = false;
    ++consecutive_failures_;
    return;
  }
  spdlog::info("Successfully renamed the temporary AOF base file {} into {}", tmp, base);
  if (state_ == State::kWaitRewrite) {
    const std::string temp_incr = "temp-" + s_.config.appendfilename + ".incr";
    const std::string incr = am.NewIncr(s_.config.appendfilename);
    if (::rename(DirPath(temp_incr).c_str(), DirPath(incr).c_str()) == -1) {
      spdlog::warn("Error trying to rename the temporary AOF incr file {} into {}: {}", temp_incr,
                   incr, Errno());
      ::unlink(base_path.c_str());
      last_rewrite_ok_ = false;
      ++consecutive_failures_;
      return;
    }
    spdlog::info("Successfully renamed the temporary AOF incr file {} into {}", temp_incr, incr);
  }
  // Every incremental file but the one being appended to is covered by the new base.
  am.MarkRewrittenIncrAsHistory(fd_ != -1);
  if (PersistManifest(am)) {
    ::unlink(base_path.c_str());
    last_rewrite_ok_ = false;
    ++consecutive_failures_;
    return;
  }
  manifest_ = std::move(am);
  if (state_ == State::kWaitRewrite) state_ = State::kOn;
  base_size_ = FileSize(base_path);
  current_size_ = base_size_ + incr_size_;
  last_rewrite_ok_ = true;
  consecutive_failures_ = 0;
  DeleteHistory();
  spdlog::info("Background AOF rewrite finished successfully");
}

void AppendOnlyFile::DeleteHistory() {
  if (s_.config.aof_disable_auto_gc || manifest_.history.empty()) return;
  for (const AofFileInfo& f : manifest_.history) {
    spdlog::info("Removing the history file {} in the background", f.name);
    ::unlink(DirPath(f.name).c_str());
  }
  manifest_.history.clear();
  PersistManifest(manifest_);
}

void AppendOnlyFile::KillChild() {
  if (child_pid_ == -1) return;
  spdlog::info("Killing running AOF rewrite child: {}", child_pid_);
  ::kill(child_pid_, SIGUSR1);
  int status;
  ::waitpid(child_pid_, &status, 0);
  ::unlink(("temp-rewriteaof-bg-" + std::to_string(child_pid_) + ".aof").c_str());
  child_pid_ = -1;
  s_.persistence.child_info.Close();
}

void AppendOnlyFile::DebugLoad() {
  if (state_ != State::kOff) Flush(/*force=*/true);
  s_.dbs.FlushAll();
  std::optional<std::string> err = LoadManifest();
  if (!err) {
    DeleteHistory();
    err = LoadFiles();
  }
  if (err) {
    spdlog::warn("{}", *err);
    ::exit(1);
  }
  if (load_stopped_) return;  // a shutdown came while clients were served: the server stops
  s_.dirty = 0;
  spdlog::warn("Append Only File loaded by DEBUG LOADAOF");
}

void AppendOnlyFile::PrepareShutdown() {
  if (child_pid_ != -1) {
    spdlog::warn("There is a child rewriting the AOF. Killing it!");
    KillChild();
  }
  if (state_ == State::kOff || fd_ == -1) return;
  Flush(/*force=*/true);
  spdlog::info("Calling fsync() on the AOF file.");
  ::fdatasync(fd_);
}

void AppendOnlyFile::Cron() {
  if (child_pid_ != -1) {
    int status = 0;
    s_.persistence.child_info.Receive();
    const pid_t done = ::waitpid(child_pid_, &status, WNOHANG);
    if (done == child_pid_) {
      s_.persistence.child_info.Receive();  // the child's last words
      if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        RewriteDone(true, 0);
      } else if (WIFSIGNALED(status)) {
        // SIGUSR1 is how the server itself ends a child: not an error.
        RewriteDone(false, WTERMSIG(status) == SIGUSR1 ? 0 : WTERMSIG(status));
      } else {
        RewriteDone(false, 0);
      }
      s_.persistence.child_info.Close();
    }
  }
  // A write that failed is retried here; everysec's fsync follows the writes.
  if (state_ != State::kOff && !buf_.empty()) Flush();
  if (child_pid_ != -1 || s_.persistence.child_pid != -1) return;
  // As Redis's serverCron, also with appendonly off (BGREWRITEAOF during a BGSAVE).
  if (rewrite_scheduled_) {
    if (!RewriteLimited()) StartRewrite();
    return;
  }
  // auto-aof-rewrite-percentage / -min-size.
  const Config& c = s_.config;
  if (state_ == State::kOn && c.auto_aof_rewrite_percentage != 0 &&
      current_size_ > c.auto_aof_rewrite_min_size) {
    const int64_t base = base_size_ != 0 ? base_size_ : 1;
    const int64_t growth = current_size_ * 100 / base - 100;
    if (growth >= c.auto_aof_rewrite_percentage && !RewriteLimited()) {
      spdlog::info("Starting automatic rewriting of AOF on {}% growth", growth);
      StartRewrite();
    }
  }
}

bool AppendOnlyFile::RewriteLimited() {
  constexpr uint64_t kThreshold = 3;
  constexpr int64_t kMaxDelayMinutes = 60;
  if (consecutive_failures_ < kThreshold) {
    limit_delay_minutes_ = 0;  // recovered (or never limited)
    limit_next_rewrite_s_ = 0;
    return false;
  }
  const int64_t now_s = s_.clock->NowMs() / 1000;
  if (limit_next_rewrite_s_ != 0) {
    if (now_s < limit_next_rewrite_s_) return true;
    limit_next_rewrite_s_ = 0;  // the delay is over: one more try
    return false;
  }
  limit_delay_minutes_ =
      limit_delay_minutes_ == 0 ? 1 : std::min(limit_delay_minutes_ * 2, kMaxDelayMinutes);
  limit_next_rewrite_s_ = now_s + limit_delay_minutes_ * 60;
  spdlog::warn(
      "Background AOF rewrite has repeatedly failed and triggered the limit, will retry in {} "
      "minutes",
      limit_delay_minutes_);
  return true;
}

void AppendOnlyFile::AppendInfo(std::string& out) const {
  absl::StrAppend(&out, "aof_enabled:", state_ != State::kOff ? 1 : 0, "\r\n",
                  "aof_rewrite_in_progress:", child_pid_ != -1 ? 1 : 0, "\r\n",
                  "aof_rewrite_scheduled:", rewrite_scheduled_ ? 1 : 0, "\r\n",
                  "aof_last_rewrite_time_sec:", last_rewrite_time_s_, "\r\n",
                  "aof_current_rewrite_time_sec:",
                  child_pid_ != -1 ? s_.clock->NowMs() / 1000 - rewrite_start_s_ : -1, "\r\n",
                  "aof_last_bgrewrite_status:", last_rewrite_ok_ ? "ok" : "err", "\r\n",
                  "aof_rewrites:", rewrites_, "\r\n",
                  "aof_rewrites_consecutive_failures:", consecutive_failures_, "\r\n",
                  "aof_last_write_status:", write_ok() ? "ok" : "err", "\r\n",
                  "aof_last_cow_size:", s_.persistence.child_info.aof_last_cow_size(), "\r\n",
                  "module_fork_in_progress:0\r\nmodule_fork_last_cow_size:0\r\n");
  if (s_.config.appendonly) {
    absl::StrAppend(&out, "aof_current_size:", current_size_, "\r\n", "aof_base_size:", base_size_,
                    "\r\n", "aof_pending_rewrite:", rewrite_scheduled_ ? 1 : 0, "\r\n",
                    "aof_buffer_length:", buf_.size(), "\r\n",
                    "aof_pending_bio_fsync:", pending_bio_fsync_.load(), "\r\n",
                    "aof_delayed_fsync:", delayed_fsync_, "\r\n");
  }
}

void AppendOnlyFile::ResetStats() {
  rewrites_ = 0;
  consecutive_failures_ = 0;
  delayed_fsync_ = 0;
}

}  // namespace kv

namespace kv {

namespace {

void ConnectPropagation(ServerState& s) {
  if (s.aof && s.aof->on()) {
    s.propagation.SetSink(
        [&s](size_t db, std::span<const std::string_view> argv) { s.aof->Feed(db, argv); });
  } else {
    s.propagation.SetSink(nullptr);
  }
}

}  // namespace

std::optional<std::string> LoadDataAtStartup(ServerState& s) {
  s.aof = std::make_shared<AppendOnlyFile>(s);
  // As Redis, a failure with the AOF ends the start after the lines it logged, with no line more
  // (the suite looks for them as the log's last lines): an empty error.
  if (s.aof->LoadManifest()) return std::string();
  if (!s.config.appendonly) return LoadSnapshotAtStartup(s);
  if (s.aof->LoadFiles()) return std::string();
  // A shutdown while loading: the server stops without touching the files.
  if (s.aof->load_stopped()) return std::nullopt;
  if (s.aof->OpenAtStartup()) return std::string();
  ConnectPropagation(s);
  return std::nullopt;
}

std::optional<std::string> ApplyAppendonly(ServerState& s) {
  if (!s.aof) s.aof = std::make_shared<AppendOnlyFile>(s);
  if (!s.config.appendonly && s.aof->on()) {
    s.aof->Stop();
  } else if (s.config.appendonly && !s.aof->on()) {
    if (s.aof->Start()) return std::string("Unable to turn on AOF. Check server logs.");
  }
  ConnectPropagation(s);
  return std::nullopt;
}

}  // namespace kv
