// Preloaded (LD_PRELOAD) into kvserver or redis-server by tests that need a busy or broken disk:
// fdatasync, which both servers' AOF fsyncs call, sleeps KV_TEST_FSYNC_DELAY_MS milliseconds
// first, or fails with EIO while the file KV_TEST_FSYNC_FAIL names exists (so that a test can
// break the disk once the server has started). Without those variables it is the system call.

#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

extern "C" int fdatasync(int fd) {
  struct stat st;
  if (const char* fail = std::getenv("KV_TEST_FSYNC_FAIL");
      fail != nullptr && ::stat(fail, &st) == 0) {
    errno = EIO;
    return -1;
  }
  if (const char* ms = std::getenv("KV_TEST_FSYNC_DELAY_MS"); ms != nullptr) {
    ::usleep(static_cast<useconds_t>(std::atoi(ms)) * 1000);
  }
  return static_cast<int>(::syscall(SYS_fdatasync, fd));
}
