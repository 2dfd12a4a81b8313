// Preloaded (LD_PRELOAD) into kvserver or redis-server by tests that need a busy or broken disk:
// fdatasync, which both servers' AOF fsyncs call, sleeps KV_TEST_FSYNC_DELAY_MS milliseconds
// first, or fails with EIO while the file KV_TEST_FSYNC_FAIL names exists (so that a test can
// break the disk once the server has started). write fails with ENOSPC (a full disk) while the
// file KV_TEST_WRITE_FAIL names exists, for the files whose path contains KV_TEST_WRITE_FAIL_MATCH
// (".incr.aof": the AOF's incremental files); sockets and the log are left alone. Without those
// variables both are the system calls.

#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

bool Exists(const char* path) {
  struct stat st;
  return ::stat(path, &st) == 0;
}

bool WriteFails(int fd) {
  const char* trigger = std::getenv("KV_TEST_WRITE_FAIL");
  const char* match = std::getenv("KV_TEST_WRITE_FAIL_MATCH");
  if (trigger == nullptr || match == nullptr || !Exists(trigger)) return false;
  char link[64];
  std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  char path[PATH_MAX];
  const ssize_t n = ::readlink(link, path, sizeof path - 1);
  if (n <= 0) return false;
  path[n] = '\0';
  return std::strstr(path, match) != nullptr;
}

}  // namespace

extern "C" int fdatasync(int fd) {
  if (const char* fail = std::getenv("KV_TEST_FSYNC_FAIL"); fail != nullptr && Exists(fail)) {
    errno = EIO;
    return -1;
  }
  if (const char* ms = std::getenv("KV_TEST_FSYNC_DELAY_MS"); ms != nullptr) {
    ::usleep(static_cast<useconds_t>(std::atoi(ms)) * 1000);
  }
  return static_cast<int>(::syscall(SYS_fdatasync, fd));
}

extern "C" ssize_t write(int fd, const void* buf, size_t count) {
  if (WriteFails(fd)) {
    errno = ENOSPC;
    return -1;
  }
  return ::syscall(SYS_write, fd, buf, count);
}
