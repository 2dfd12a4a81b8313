#include "server/crash_log.h"

#include <execinfo.h>
#include <fcntl.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "server/version.h"

namespace kv {
namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
char g_logfile[4096];  // where the report goes; empty: standard output

int OpenLog() {
  if (g_logfile[0] == '\0') return STDOUT_FILENO;
  return ::open(g_logfile, O_APPEND | O_CREAT | O_WRONLY, 0644);
}

void WriteAll(int fd, const char* s, size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, s, n);
    if (w <= 0) return;
    s += w;
    n -= static_cast<size_t>(w);
  }
}

// A log line in Redis's format, "pid:M date # text".
void LogLine(int fd, const char* text) {
  char line[512];
  const time_t now = ::time(nullptr);
  std::tm tm{};
  ::localtime_r(&now, &tm);
  char date[64];
  std::strftime(date, sizeof(date), "%d %b %Y %H:%M:%S.000", &tm);
  const int n =
      std::snprintf(line, sizeof(line), "%d:M %s # %s\n", static_cast<int>(::getpid()), date, text);
  if (n > 0) WriteAll(fd, line, std::min(static_cast<size_t>(n), sizeof(line) - 1));
}

void CrashHandler(int sig, siginfo_t* info, void*) {
  const int fd = OpenLog();
  static constexpr char kStart[] =
      "\n\n=== REDIS BUG REPORT START: Cut & paste starting from here ===\n";
  WriteAll(fd, kStart, sizeof(kStart) - 1);
  char text[256];
  std::snprintf(text, sizeof(text), "Redis %s crashed by signal: %d, si_code: %d",
                kRedisCompatVersion, sig, info->si_code);
  LogLine(fd, text);
  if (sig == SIGSEGV || sig == SIGBUS) {
    std::snprintf(text, sizeof(text), "Accessing address: %p", info->si_addr);
    LogLine(fd, text);
  }
  if (info->si_code == SI_USER && info->si_pid != -1) {
    std::snprintf(text, sizeof(text), "Killed by PID: %ld, UID: %d",
                  static_cast<long>(info->si_pid), static_cast<int>(info->si_uid));
    LogLine(fd, text);
  }
  static constexpr char kTrace[] = "\n------ STACK TRACE ------\n";
  WriteAll(fd, kTrace, sizeof(kTrace) - 1);
  void* frames[100];
  const int depth = ::backtrace(frames, 100);
  ::backtrace_symbols_fd(frames, depth, fd);
  static constexpr char kEnd[] =
      "\n=== REDIS BUG REPORT END. Make sure to include from START to END. ===\n\n";
  WriteAll(fd, kEnd, sizeof(kEnd) - 1);
  if (fd != STDOUT_FILENO) ::close(fd);
  // Die of the same signal, so that a core is dumped where enabled.
  struct sigaction act {};
  sigemptyset(&act.sa_mask);
  act.sa_flags = SA_NODEFER | SA_ONSTACK | SA_RESETHAND;
  act.sa_handler = SIG_DFL;
  ::sigaction(sig, &act, nullptr);
  ::kill(::getpid(), sig);
}

}  // namespace

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define KV_SANITIZER_RUNTIME 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define KV_SANITIZER_RUNTIME 1
#endif
#endif

void SetCrashLog(const Config& config) {
#ifdef KV_SANITIZER_RUNTIME
  (void)config;
#else
  std::snprintf(g_logfile, sizeof(g_logfile), "%s", config.logfile.c_str());
  struct sigaction act {};
  sigemptyset(&act.sa_mask);
  if (config.crash_log_enabled) {
    act.sa_flags = SA_NODEFER | SA_RESETHAND | SA_SIGINFO;
    act.sa_sigaction = CrashHandler;
  } else {
    act.sa_handler = SIG_DFL;
  }
  for (int sig : kSignals) ::sigaction(sig, &act, nullptr);
#endif
}

}  // namespace kv
