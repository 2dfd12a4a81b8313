// Starting and stopping many servers in one process leaves no thread and no descriptor behind
// (memory: LeakSanitizer, when this runs in the ASan build).

#include <dirent.h>
#include <unistd.h>

#include <string>

#include "gtest/gtest.h"
#include "kvserver/server.h"
#include "tests/integration/raw_client.h"

namespace kv::test {
namespace {

// The number of entries in a /proc directory: open descriptors or threads of this process.
size_t CountEntries(const char* path) {
  DIR* dir = ::opendir(path);
  if (dir == nullptr) return 0;
  size_t n = 0;
  while (dirent* e = ::readdir(dir)) {
    if (e->d_name[0] != '.') ++n;
  }
  ::closedir(dir);
  return n;
}

// The threads of this process once at most `expected` are left, or after 2 s. A joined thread
// can still be listed for a moment: the kernel wakes pthread_join before it has finished the
// exit. (So can one of the baseline's, hence at most.)
size_t ThreadsSettlingAt(size_t expected) {
  size_t n = CountEntries("/proc/self/task");
  for (int i = 0; i < 200 && n > expected; ++i) {
    ::usleep(10'000);
    n = CountEntries("/proc/self/task");
  }
  return n;
}

void StartServeStop() {
  kvserver::Server server;
  RawClient c(server.Start().port);
  EXPECT_REPLY(c, "SET k v EX 10\r\n", "+OK\r\n");
  // A client still connected when the server stops, and one that has left already.
  RawClient gone(server.port());
  EXPECT_REPLY(gone, "PING\r\n", "+PONG\r\n");
  gone.Close();
  server.Stop();
}

TEST(StartStopLoop, TwoHundredServersLeaveNoThreadsOrDescriptors) {
  StartServeStop();  // anything created once per process is created now
  const size_t fds = CountEntries("/proc/self/fd");
  const size_t threads = CountEntries("/proc/self/task");
  ASSERT_GT(fds, 0u);
  ASSERT_GT(threads, 0u);
  for (int i = 0; i < 200; ++i) {
    StartServeStop();
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(CountEntries("/proc/self/fd"), fds);
  EXPECT_LE(ThreadsSettlingAt(threads), threads);
}

TEST(StartStopLoop, ServersThatOverlapLeaveNothingEither) {
  const size_t fds = CountEntries("/proc/self/fd");
  const size_t threads = CountEntries("/proc/self/task");
  {
    kvserver::Server a;
    kvserver::Server b;
    a.Start();
    b.Start();
    kvserver::Server never_started;
    EXPECT_EQ(CountEntries("/proc/self/task"), threads + 2);
    // The destructors stop a and b.
  }
  EXPECT_EQ(CountEntries("/proc/self/fd"), fds);
  EXPECT_LE(ThreadsSettlingAt(threads), threads);
}

}  // namespace
}  // namespace kv::test
