#include "server/shutdown_signals.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <ctime>

namespace kv {
namespace {

char g_logfile[4096];  // where the lines go; empty: standard output

// Appends the decimal digits of `n` at `out`; returns the end. Async-signal-safe.
char* AppendNumber(char* out, long long n) {
  char digits[24];
  int len = 0;
  const bool negative = n < 0;
  unsigned long long u = negative ? 0ULL - static_cast<unsigned long long>(n) : n;
  do {
    digits[len++] = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u != 0);
  if (negative) *out++ = '-';
  while (len > 0) *out++ = digits[--len];
  return out;
}

char* AppendText(char* out, const char* text) {
  const size_t n = std::strlen(text);
  std::memcpy(out, text, n);
  return out + n;
}

// Redis's serverLogFromHandler: "<pid>:signal-handler (<unix time>) <message>", with open and
// write only.
void LogFromHandler(const char* message) {
  char line[256];
  char* p = AppendNumber(line, ::getpid());
  p = AppendText(p, ":signal-handler (");
  p = AppendNumber(p, static_cast<long long>(std::time(nullptr)));
  p = AppendText(p, ") ");
  p = AppendText(p, message);
  *p++ = '\n';
  const int fd =
      g_logfile[0] == '\0' ? STDOUT_FILENO : ::open(g_logfile, O_APPEND | O_CREAT | O_WRONLY, 0644);
  if (fd == -1) return;
  ssize_t ignored = ::write(fd, line, static_cast<size_t>(p - line));
  (void)ignored;
  if (fd != STDOUT_FILENO) ::close(fd);
}

void OnShutdownSignal(int signo) {
  if (signo == SIGINT) {
    LogFromHandler("You insist... exiting now.");
    // rdbRemoveTempFile(getpid(), 1): the final save's unfinished file.
    char temp[64];
    char* p = AppendText(temp, "temp-");
    p = AppendNumber(p, ::getpid());
    p = AppendText(p, ".rdb");
    *p = '\0';
    ::unlink(temp);
    ::_exit(1);
  }
  LogFromHandler("Received SIGTERM scheduling shutdown...");
}

}  // namespace

InsistentShutdownGuard::InsistentShutdownGuard(const std::string& logfile) {
  std::snprintf(g_logfile, sizeof(g_logfile), "%s", logfile.c_str());
  struct sigaction act {};
  act.sa_handler = OnShutdownSignal;
  act.sa_flags = SA_RESTART;  // the save goes on after a SIGTERM
  sigemptyset(&act.sa_mask);
  ::sigaction(SIGINT, &act, &old_int_);
  ::sigaction(SIGTERM, &act, &old_term_);
}

InsistentShutdownGuard::~InsistentShutdownGuard() {
  ::sigaction(SIGINT, &old_int_, nullptr);
  ::sigaction(SIGTERM, &old_term_, nullptr);
}

}  // namespace kv
