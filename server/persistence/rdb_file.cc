#include "server/persistence/rdb_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "server/persistence/crc64.h"
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

}  // namespace kv
