#include "server/persistence/rdb_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "server/persistence/crc64.h"
#include "server/persistence/object_lru.h"
#include "server/persistence/rdb_format.h"
#include "server/persistence/rdb_functions.h"
#include "server/persistence/rdb_writer.h"
#include "server/version.h"
#include "storage/db_set.h"

namespace kv {
namespace {

constexpr size_t kFlushBytes = 1 << 20;

// Writes the buffer to a file as it fills, keeping the running CRC64.
class FileSink {
 public:
  explicit FileSink(int fd) : fd_(fd) {}
  bool Flush(std::string& buf, bool checksum) {
    if (checksum) crc_ = Crc64(crc_, buf);
    size_t done = 0;
    while (done < buf.size()) {
      const ssize_t n = ::write(fd_, buf.data() + done, buf.size() - done);
      if (n < 0) {
        if (errno == EINTR) continue;
        return false;
      }
      done += static_cast<size_t>(n);
    }
    buf.clear();
    return true;
  }
  uint64_t crc() const { return crc_; }

 private:
  int fd_;
  uint64_t crc_ = 0;
};

std::string ErrnoText() { return std::strerror(errno); }

std::string Cwd() {
  char buf[4096];
  return ::getcwd(buf, sizeof buf) != nullptr ? std::string(buf) : std::string("unknown");
}

std::string DirOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash + 1);
}

}  // namespace

std::optional<std::string> SaveRdbFile(const DbSet& dbs, const std::string& path,
                                       const RdbSaveOptions& options) {
  const std::string dir = DirOf(path);
  const std::string tmp =
      (dir == "." ? std::string() : dir) + "temp-" + std::to_string(::getpid()) + ".rdb";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    return "Failed opening the temp RDB file " + tmp + " (in server root dir " + Cwd() +
           ") for saving: " + ErrnoText();
  }
  FileSink sink(fd);
  std::string buf;
  RdbWriter w(&buf, options.compress);
  bool ok = true;
  auto maybe_flush = [&] {
    if (ok && buf.size() >= kFlushBytes) ok = sink.Flush(buf, options.checksum);
  };

  char magic[16];
  std::snprintf(magic, sizeof magic, "REDIS%04d", rdb::kVersion);
  w.Raw(magic);
  w.Aux("redis-ver", kRedisCompatVersion);
  w.Aux("redis-bits", int64_t{64});
  w.Aux("ctime", options.now_ms / 1000);
  w.Aux("used-mem", static_cast<int64_t>(options.used_memory));
  w.Aux("aof-base", int64_t{options.aof_base ? 1 : 0});
  WriteFunctionLibraries(w, options.function_libraries);

  for (size_t index = 0; index < dbs.count() && ok; ++index) {
    const Db& db = dbs.db(index);
    if (db.size() == 0) continue;
    w.Byte(rdb::kOpSelectDb);
    w.Length(index);
    w.Byte(rdb::kOpResizeDb);
    w.Length(db.size());
    w.Length(db.expires_size());
    db.ForEach([&](std::string_view key, const Value& value) {
      if (!ok) return;
      const size_t mark = buf.size();
      const int64_t expire = db.expires_size() > 0 ? db.GetExpire(key) : kNoExpiry;
      if (expire != kNoExpiry) {
        w.Byte(rdb::kOpExpireTimeMs);
        w.Int64(expire);
      }
      if (options.save_lru) {
        w.Byte(rdb::kOpIdle);
        w.Length(db.IdleSeconds(value));
      }
      if (options.save_lfu) {
        w.Byte(rdb::kOpFreq);
        w.Byte(db.LfuCounter(value));
      }
      if (!w.ObjectType(value)) {
        buf.resize(mark);  // a type the format cannot hold: left out
        return;
      }
      w.String(key);
      w.Object(value);
      maybe_flush();
      if (options.key_delay_us != 0) DebugDelay(options.key_delay_us);
      if (options.key_saved) options.key_saved();
    });
  }
  w.Byte(rdb::kOpEof);
  if (ok) ok = sink.Flush(buf, options.checksum);
  if (ok) {
    // The checksum of everything before it, or zero when rdbchecksum is off.
    w.Int64(static_cast<int64_t>(options.checksum ? sink.crc() : 0));
    ok = sink.Flush(buf, false);
  }
  if (ok) ok = ::fsync(fd) == 0;
  const std::string write_error = ok ? std::string() : ErrnoText();
  if (::close(fd) != 0 && ok) ok = false;
  if (!ok) {
    ::unlink(tmp.c_str());
    return "Write error saving DB on disk: " + (write_error.empty() ? ErrnoText() : write_error);
  }
  if (::rename(tmp.c_str(), path.c_str()) == -1) {
    const std::string why = ErrnoText();
    ::unlink(tmp.c_str());
    return "Failed moving the temp RDB file " + tmp + " to " + path + " in server root dir " +
           Cwd() + ": " + why;
  }
  // The rename is durable once the directory is.
  const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
  return std::nullopt;
}

void DebugDelay(int64_t us) {
  if (us < 0) us = std::rand() % -us == 0 ? 1 : 0;
  if (us > 0) ::usleep(static_cast<useconds_t>(us));
}

RdbLoadResult LoadRdbFile(DbSet& dbs, const std::string& path, const RdbLoadOptions& options) {
  RdbLoadResult result;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    result.missing = errno == ENOENT;
    result.error = ErrnoText();
    return result;
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    result.error = ErrnoText();
    ::close(fd);
    return result;
  }
  const size_t size = static_cast<size_t>(st.st_size);
  void* map = size > 0 ? ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0) : nullptr;
  ::close(fd);
  if (size > 0 && map == MAP_FAILED) {
    result.error = ErrnoText();
    return result;
  }
  if (map != nullptr) ::madvise(map, size, MADV_SEQUENTIAL);
  result = LoadRdbBytes(dbs, std::string_view(static_cast<const char*>(map), size), options);
  if (map != nullptr) ::munmap(map, size);
  return result;
}

RdbLoadResult LoadRdbBytes(DbSet& dbs, std::string_view data, const RdbLoadOptions& options) {
  RdbLoadResult result;
  auto log = [&](const std::string& line) {
    if (options.log) options.log(line);
  };
  RdbReader r(data);
  auto corrupt = [&](const std::string& why) {
    result.error =
        "Internal error in RDB reading offset " + std::to_string(r.position()) + " -> " + why;
    return result;
  };
  if (data.size() < 9 || data.substr(0, 5) != "REDIS") {
    result.error = "Wrong signature trying to load DB from file";
    return result;
  }
  int version = 0;
  for (char c : data.substr(5, 4)) {
    if (c < '0' || c > '9') {
      result.error = "Wrong signature trying to load DB from file";
      return result;
    }
    version = version * 10 + (c - '0');
  }
  if (version < 1 || version > rdb::kVersion) {
    result.error = "Can't handle RDB format version " + std::to_string(version);
    return result;
  }
  r.Skip(9);

  size_t db_index = 0;
  int64_t expire_at = kNoExpiry;
  int64_t lfu_freq = -1, lru_idle = -1;
  size_t progress_mark = 0;  // how many progress intervals were reported
  std::string key;
  std::string aux_key, aux_value;
  while (true) {
    uint8_t type;
    if (!r.Byte(&type)) return corrupt(r.error());
    switch (type) {
      case rdb::kOpExpireTime: {
        int32_t seconds;
        if (!r.Int32(&seconds)) return corrupt(r.error());
        expire_at = int64_t{seconds} * 1000;
        continue;
      }
      case rdb::kOpExpireTimeMs:
        if (!r.Int64(&expire_at)) return corrupt(r.error());
        continue;
      case rdb::kOpFreq: {
        uint8_t freq;
        if (!r.Byte(&freq)) return corrupt(r.error());
        lfu_freq = freq;
        continue;
      }
      case rdb::kOpIdle: {
        uint64_t idle;
        if (!r.Length(&idle)) return corrupt(r.error());
        lru_idle = static_cast<int64_t>(idle);
        continue;
      }
      case rdb::kOpSelectDb: {
        uint64_t index;
        if (!r.Length(&index)) return corrupt(r.error());
        if (index >= dbs.count()) {
          result.error =
              "FATAL: Data file was created with a Redis server configured to handle "
              "more than " +
              std::to_string(dbs.count()) + " databases. Exiting";
          return result;
        }
        db_index = index;
        continue;
      }
      case rdb::kOpResizeDb: {
        uint64_t db_size, expires_size;
        if (!r.Length(&db_size) || !r.Length(&expires_size)) return corrupt(r.error());
        // Believed only as far as the rest of the file could hold that many keys (8 bytes each
        // at least), so that a corrupt count cannot make it allocate more than the file's size.
        const uint64_t most = r.remaining() / 8;
        dbs.db(db_index).Reserve(std::min(db_size, most), std::min(expires_size, most));
        continue;
      }
      case rdb::kOpAux: {
        if (!r.String(&aux_key) || !r.String(&aux_value)) return corrupt(r.error());
        if (aux_key == "redis-ver") {
          log("Loading RDB produced by version " + aux_value);
        } else if (aux_key == "ctime") {
          const int64_t age = options.now_ms / 1000 - std::strtoll(aux_value.c_str(), nullptr, 10);
          log("RDB age " + std::to_string(age < 0 ? 0 : age) + " seconds");
        } else if (aux_key == "used-mem") {
          char line[96];
          std::snprintf(
              line, sizeof line, "RDB memory usage when created %.2f Mb",
              static_cast<double>(std::strtoll(aux_value.c_str(), nullptr, 10)) / (1024 * 1024));
          log(line);
        }
        continue;
      }
      case rdb::kOpModuleAux:
        return corrupt("The RDB file contains AUX module data I can't load: no matching module");
      case rdb::kOpFunction:
      case rdb::kOpFunction2: {
        std::string code, error;
        if (!ReadFunctionLibrary(r, type, &code, &error) ||
            (options.load_function && !options.load_function(std::move(code), &error))) {
          result.error = "Failed loading library, " + error;
          return result;
        }
        continue;
      }
      case rdb::kOpEof: {
        if (version >= 5) {
          const uint64_t expected = Crc64(0, data.substr(0, r.position()));
          int64_t stored;
          if (!r.Int64(&stored)) return corrupt(r.error());
          if (options.checksum) {
            if (stored == 0) {
              log("RDB file was saved with checksum disabled: no check performed.");
            } else if (static_cast<uint64_t>(stored) != expected) {
              // Redis's two lines: the sums, then rdbReportCorruptRDB's (at offset 0, as the
              // checksum's reader has no position).
              char line[128];
              std::snprintf(line, sizeof line,
                            "Wrong RDB checksum expected: (%" PRIx64 ") but got (%" PRIx64
                            "). Aborting now.",
                            expected, static_cast<uint64_t>(stored));
              log(line);
              result.error = "Internal error in RDB reading offset 0 -> RDB CRC error";
              return result;
            }
          }
        }
        result.ok = true;
        result.bytes_read = r.position();
        return result;
      }
      default:
        break;
    }
    if (!rdb::IsObjectType(type))
      return corrupt("Unknown RDB encoding type " + std::to_string(type));
    if (!r.String(&key)) return corrupt(r.error());
    DetachedValue value;
    if (!r.LoadObject(type, options.limits, &value)) {
      if (!r.empty_key()) return corrupt(r.error());
      // Redis skips empty aggregates (which older versions could write) and goes on.
      expire_at = kNoExpiry;
      lfu_freq = lru_idle = -1;
      continue;
    }
    Db& db = dbs.db(db_index);
    if (expire_at != kNoExpiry && expire_at < options.now_ms && !options.keep_expired) {
      ++result.keys_expired;
    } else {
      db.SetClock(options.now_ms);
      Value* v = db.AddNew(key, value, expire_at);
      if (v == nullptr && options.allow_duplicates) {
        db.Delete(key, options.now_ms);
        v = db.AddNew(key, value, expire_at);
      }
      if (v == nullptr) {
        return corrupt("RDB has duplicated key '" + key + "' in DB " + std::to_string(db_index));
      }
      if (lfu_freq >= 0 || lru_idle >= 0) {
        SetLruOrLfu(*v, options.lfu_policy, options.now_ms, lfu_freq, lru_idle);
      }
      ++result.keys_loaded;
    }
    expire_at = kNoExpiry;
    lfu_freq = lru_idle = -1;
    if (options.key_delay_us != 0) DebugDelay(options.key_delay_us);
    if (options.progress && options.progress_interval_bytes != 0 &&
        r.position() / options.progress_interval_bytes > progress_mark) {
      progress_mark = r.position() / options.progress_interval_bytes;
      if (!options.progress(r.position())) {
        result.stopped = true;
        result.error = "Loading stopped";
        return result;
      }
    }
  }
}

}  // namespace kv
