// The process directives with the real binary: daemonize, pidfile, logfile, dir, supervised
// systemd, always-show-logo, set-proc-title / proc-title-template, oom-score-adj,
// crash-log-enabled, CONFIG SET port and bind, rename-command, and Debian's redis.conf starting the
// binary.

#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/integration/raw_client.h"
#include "tests/support/persistence_files.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

bool Alive(pid_t pid) { return ::kill(pid, 0) == 0; }

// A daemonized server is nobody's child: whatever a test's assertions do, it does not outlive
// the test.
struct KillAtEnd {
  pid_t pid;
  ~KillAtEnd() {
    if (pid > 0 && Alive(pid)) ::kill(pid, SIGKILL);
  }
};

// Runs `argv` to completion (a daemonizing server's parent exits at once); returns its status.
int RunToExit(const std::vector<std::string>& argv) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

pid_t WaitForPidFile(const std::string& path) {
  pid_t pid = 0;
  Eventually(
      [&] {
        pid = std::atoi(ReadFile(path).c_str());
        return pid > 0;
      },
      10000);
  return pid;
}

// The message of each log line ("pid:R dd Mon yyyy hh:mm:ss.mmm L message").
std::vector<std::string> Messages(const std::string& log) {
  std::vector<std::string> out;
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    // pid:R, then the date (4 words), then the level mark.
    size_t pos = line.find(':');
    int words = 0;
    while (pos != std::string::npos && words < 6) {
      pos = line.find(' ', pos + 1);
      ++words;
    }
    if (pos != std::string::npos && words == 6) out.push_back(line.substr(pos + 1));
  }
  return out;
}

TEST(Daemonize, ForksWritesThePidFileLogsToTheFileAndCleansUp) {
  const std::string dir = MakeTempDir();
  const std::string pidfile = dir + "/kv.pid", logfile = dir + "/kv.log";
  const int port = PickFreePort();
  const int status =
      RunToExit({KVSERVER_BINARY, "--daemonize", "yes", "--port", std::to_string(port), "--bind",
                 "127.0.0.1", "--pidfile", pidfile, "--logfile", logfile, "--dir", dir});
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the parent exits at once";
  const pid_t pid = WaitForPidFile(pidfile);
  ASSERT_GT(pid, 0);
  KillAtEnd guard{pid};
  EXPECT_EQ(ReadFile(pidfile), std::to_string(pid) + "\n");
  EXPECT_EQ(::getsid(pid), pid) << "a session of its own";
  ASSERT_TRUE(Eventually([&] { return Contains(ReadFile(logfile), "Ready to accept"); }, 10000));
  RawClient c(port);
  EXPECT_REPLY(c, "PING\r\n", "+PONG\r\n");
  // Standard streams point at /dev/null.
  EXPECT_EQ(std::filesystem::read_symlink("/proc/" + std::to_string(pid) + "/fd/1"), "/dev/null");
  EXPECT_EQ(std::filesystem::read_symlink("/proc/" + std::to_string(pid) + "/cwd"), dir);
  c.SendAll("SHUTDOWN\r\n");
  ASSERT_TRUE(Eventually([&] { return !Alive(pid); }, 10000));
  EXPECT_FALSE(std::filesystem::exists(pidfile)) << "removed at shutdown";
  const std::string log = ReadFile(logfile);
  EXPECT_TRUE(Contains(log, "Removing the pid file.")) << log;
  EXPECT_TRUE(Contains(log, "Redis is now ready to exit, bye bye...")) << log;
}

TEST(Daemonize, StartUpAndShutdownLogAsRedis) {
  // Both servers daemonized with the same options: the same messages in the same order, but for
  // the lines only one of them writes.
  auto run = [](const std::string& binary) {
    const std::string dir = MakeTempDir();
    const std::string pidfile = dir + "/s.pid", logfile = dir + "/s.log";
    const int port = PickFreePort();
    RunToExit({binary, "--daemonize", "yes", "--port", std::to_string(port), "--bind", "127.0.0.1",
               "--pidfile", pidfile, "--logfile", logfile, "--save", "", "--dir", dir, "--loglevel",
               "notice"});
    const pid_t pid = WaitForPidFile(pidfile);
    KillAtEnd guard{pid};
    EXPECT_TRUE(Eventually([&] { return Contains(ReadFile(logfile), "Ready to accept"); }, 10000));
    RawClient c(port);
    c.SendAll("SHUTDOWN NOSAVE\r\n");
    EXPECT_TRUE(Eventually([&] { return pid > 0 && !Alive(pid); }, 10000));
    std::vector<std::string> kept;
    for (std::string m : Messages(ReadFile(logfile))) {
      // The only lines that differ: Redis's clock source, kvserver's own version and listeners,
      // and Redis 7.2's readiness wording kvserver uses.
      if (m.starts_with("monotonic clock:") || m.starts_with("kvserver version=") ||
          m.starts_with("Listening on tcp")) {
        continue;
      }
      if (m == "Ready to accept connections tcp") m = "Ready to accept connections";
      if (m.starts_with("Running mode=standalone, port=")) m = "Running mode=standalone, port=N.";
      for (const std::string& pid_text : {std::to_string(pid)}) {
        const size_t at = m.find("pid=" + pid_text);
        if (at != std::string::npos) m.replace(at + 4, pid_text.size(), "<pid>");
      }
      kept.push_back(m);
    }
    return kept;
  };
  const std::vector<std::string> kv = run(KVSERVER_BINARY);
  const std::vector<std::string> redis = run(REDIS_SERVER_BINARY);
  EXPECT_EQ(kv, redis);
  EXPECT_GE(kv.size(), 8u);
}

TEST(PidFile, WrittenInTheForegroundToo) {
  const std::string pidfile = MakeTempDir() + "/kv.pid";
  auto server = ServerProcess::StartKvserver({"--pidfile", pidfile});
  ASSERT_TRUE(server);
  EXPECT_EQ(ReadFile(pidfile), std::to_string(server->pid()) + "\n");
  const int status = server->Stop(SIGTERM);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_FALSE(std::filesystem::exists(pidfile));
}

TEST(LogFile, RotationByRename) {
  const std::string dir = MakeTempDir();
  const std::string logfile = dir + "/kv.log";
  { std::ofstream(logfile) << "an older line\n"; }
  const std::string pidfile = dir + "/kv.pid";
  const int port = PickFreePort();
  RunToExit({KVSERVER_BINARY, "--daemonize", "yes", "--port", std::to_string(port), "--bind",
             "127.0.0.1", "--pidfile", pidfile, "--logfile", logfile, "--enable-debug-command",
             "yes", "--save", ""});
  const pid_t pid = WaitForPidFile(pidfile);
  KillAtEnd guard{pid};
  ASSERT_TRUE(Eventually([&] { return Contains(ReadFile(logfile), "Ready to accept"); }, 10000));
  EXPECT_TRUE(ReadFile(logfile).starts_with("an older line\n")) << "appended";
  std::filesystem::rename(logfile, logfile + ".1");  // what logrotate does
  RawClient c(port);
  EXPECT_REPLY(c, "DEBUG LOG after-rotation\r\n", "+OK\r\n");
  EXPECT_TRUE(Contains(ReadFile(logfile), "DEBUG LOG: after-rotation")) << "a new file";
  EXPECT_FALSE(Contains(ReadFile(logfile + ".1"), "after-rotation"));
  c.SendAll("SHUTDOWN\r\n");
  EXPECT_TRUE(Eventually([&] { return !Alive(pid); }, 10000));
}

TEST(Banner, AlwaysShowLogoPrintsThePidAndPortLines) {
  auto server = ServerProcess::StartKvserver({"--always-show-logo", "yes"});
  ASSERT_TRUE(server);
  const std::string log = server->ReadLog();
  // Redis's test suite waits for " PID: <pid>".
  EXPECT_TRUE(Contains(log, " PID: " + std::to_string(server->pid()) + "\n")) << log;
  EXPECT_TRUE(Contains(log, "Port: " + std::to_string(server->port()) + "\n")) << log;
  EXPECT_TRUE(Contains(log, "Redis 7.0.15 (00000000/0) 64 bit")) << log;
  EXPECT_TRUE(Contains(log, "Running in standalone mode")) << log;
  EXPECT_FALSE(Contains(log, "Running mode=standalone")) << "the banner replaces that line";
  // Without it (and not on a terminal), the one line.
  auto plain = ServerProcess::StartKvserver();
  ASSERT_TRUE(plain);
  EXPECT_FALSE(Contains(plain->ReadLog(), " PID: "));
}

TEST(Dir, ChangesTheWorkingDirectory) {
  const std::string dir = MakeTempDir();
  auto server = ServerProcess::StartKvserver({"--dir", dir});
  ASSERT_TRUE(server);
  EXPECT_EQ(std::filesystem::read_symlink("/proc/" + std::to_string(server->pid()) + "/cwd"), dir);
  RawClient c(server->port());
  EXPECT_REPLY(c, "CONFIG GET dir\r\n",
               "*2\r\n$3\r\ndir\r\n$" + std::to_string(dir.size()) + "\r\n" + dir + "\r\n");
}

TEST(Supervised, SystemdIsToldOfEachStage) {
  const std::string socket_path = MakeTempDir() + "/notify.sock";
  const int fd = ::socket(AF_UNIX, SOCK_DGRAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", socket_path.c_str());
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  timeval tv{10, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  ::setenv("NOTIFY_SOCKET", socket_path.c_str(), 1);
  auto server = ServerProcess::StartKvserver({"--supervised", "systemd"});
  ::unsetenv("NOTIFY_SOCKET");
  ASSERT_TRUE(server);
  auto receive = [&] {
    char buf[256];
    const ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
    return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string("<nothing>");
  };
  EXPECT_EQ(receive(), "STATUS=Redis is loading...\n");
  EXPECT_EQ(receive(), "STATUS=Ready to accept connections\n");
  EXPECT_EQ(receive(), "READY=1\n");
  EXPECT_TRUE(Contains(server->ReadLog(), "Supervised by systemd."));
  server->Stop(SIGTERM);
  EXPECT_EQ(receive(), "STOPPING=1\n");
  ::close(fd);
}

TEST(Supervised, SystemdWithoutItsSocket) {
  ::unsetenv("NOTIFY_SOCKET");
  auto server = ServerProcess::StartKvserver({"--supervised", "systemd"});
  ASSERT_TRUE(server);
  EXPECT_TRUE(Contains(server->ReadLog(), "systemd supervision error: NOTIFY_SOCKET not found!"));
}

std::string CommandLineOf(pid_t pid) {
  std::string text = ReadFile("/proc/" + std::to_string(pid) + "/cmdline");
  while (!text.empty() && text.back() == '\0') text.pop_back();
  return text;
}

TEST(ProcTitle, FollowsTheTemplate) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  const std::string port = std::to_string(server->port());
  // The default template, "{title} {listen-addr} {server-mode}", trimmed.
  EXPECT_EQ(CommandLineOf(server->pid()), std::string(KVSERVER_BINARY) + " 127.0.0.1:" + port);
  RawClient c(server->port());
  EXPECT_REPLY(c, "CONFIG SET proc-title-template \"kv {port} {{x\"\r\n", "+OK\r\n");
  EXPECT_EQ(CommandLineOf(server->pid()), "kv " + port + " {x");
  EXPECT_REPLY(c, "CONFIG SET proc-title-template \"{nope}\"\r\n",
               "-ERR CONFIG SET failed (possibly related to argument 'proc-title-template') - "
               "template format is invalid or contains unknown variables\r\n");
  auto untitled = ServerProcess::StartKvserver({"--set-proc-title", "no"});
  ASSERT_TRUE(untitled);
  EXPECT_TRUE(CommandLineOf(untitled->pid()).starts_with(KVSERVER_BINARY + std::string(1, '\0')));
}

int OomScoreAdj(pid_t pid) {
  return std::atoi(ReadFile("/proc/" + std::to_string(pid) + "/oom_score_adj").c_str());
}

TEST(OomScoreAdj, SetAtStartAndByConfigSet) {
  const int base = OomScoreAdj(::getpid());
  auto server = ServerProcess::StartKvserver(
      {"--oom-score-adj", "absolute", "--oom-score-adj-values", "523 600 700"});
  ASSERT_TRUE(server);
  EXPECT_EQ(OomScoreAdj(server->pid()), 523);
  RawClient c(server->port());
  EXPECT_REPLY(c, "CONFIG SET oom-score-adj-values \"524 600 700\"\r\n", "+OK\r\n");
  EXPECT_EQ(OomScoreAdj(server->pid()), 524);
  EXPECT_REPLY(c, "CONFIG SET oom-score-adj relative\r\n", "+OK\r\n");
  EXPECT_EQ(OomScoreAdj(server->pid()), std::min(1000, base + 524));
  // Lowering the score back needs privileges.
  if (::geteuid() == 0) {
    EXPECT_REPLY(c, "CONFIG SET oom-score-adj no\r\n", "+OK\r\n");
    EXPECT_EQ(OomScoreAdj(server->pid()), base) << "back to the score it started with";
  }
}

#ifndef KV_SANITIZED
TEST(CrashLog, ABugReportThenTheSameSignal) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  const int status = server->Stop(SIGSEGV);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGSEGV);
  const std::string log = server->ReadLog();
  EXPECT_TRUE(Contains(log, "=== REDIS BUG REPORT START: Cut & paste starting from here ==="))
      << log;
  EXPECT_TRUE(Contains(log, "Redis 7.0.15 crashed by signal: 11, si_code: 0")) << log;
  EXPECT_TRUE(Contains(log, "Killed by PID: ")) << log;
  EXPECT_TRUE(Contains(log, "------ STACK TRACE ------")) << log;
  EXPECT_TRUE(
      Contains(log, "=== REDIS BUG REPORT END. Make sure to include from START to END. ==="))
      << log;

  auto quiet = ServerProcess::StartKvserver({"--crash-log-enabled", "no"});
  ASSERT_TRUE(quiet);
  const int quiet_status = quiet->Stop(SIGSEGV);
  ASSERT_TRUE(WIFSIGNALED(quiet_status));
  EXPECT_FALSE(Contains(quiet->ReadLog(), "BUG REPORT"));
}
#endif

TEST(ConfigSetPort, RebindsAndRefusesAPortInUse) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  RawClient c(server->port());
  const int port = PickFreePort();
  EXPECT_REPLY(c, "CONFIG SET port " + std::to_string(port) + "\r\n", "+OK\r\n");
  RawClient moved(port);
  EXPECT_REPLY(moved, "PING\r\n", "+PONG\r\n");
  EXPECT_REPLY(c, "PING\r\n", "+PONG\r\n") << "connected clients stay";
  // A port another server holds: Redis's error, and the listener stays where it was.
  auto other = ServerProcess::StartKvserver();
  ASSERT_TRUE(other);
  EXPECT_REPLY(moved,
               "CONFIG SET maxmemory 10000001 port " + std::to_string(other->port()) + "\r\n",
               "-ERR CONFIG SET failed (possibly related to argument 'port') - Unable to listen "
               "on this port. Check server logs.\r\n");
  EXPECT_REPLY(moved, "CONFIG GET port\r\n",
               "*2\r\n$4\r\nport\r\n$" + std::to_string(std::to_string(port).size()) + "\r\n" +
                   std::to_string(port) + "\r\n");
  EXPECT_REPLY(moved, "CONFIG GET maxmemory\r\n", "*2\r\n$9\r\nmaxmemory\r\n$1\r\n0\r\n")
      << "nothing of that CONFIG SET stays";
  RawClient again(port);
  EXPECT_REPLY(again, "PING\r\n", "+PONG\r\n");
}

TEST(RenameCommand, FromTheConfigFile) {
  const std::string path = MakeTempDir() + "/kv.conf";
  std::ofstream(path) << "rename-command flushall \"\"\nrename-command config cfg\n";
  auto server = ServerProcess::StartKvserverWithConfig(path);
  ASSERT_TRUE(server);
  RawClient c(server->port());
  EXPECT_REPLY(c, "FLUSHALL\r\n",
               "-ERR unknown command 'FLUSHALL', with args beginning with: \r\n");
  EXPECT_REPLY(c, "CONFIG GET port\r\n",
               "-ERR unknown command 'CONFIG', with args beginning with: 'GET' 'port' \r\n");
  EXPECT_REPLY(c, "CFG GET timeout\r\n", "*2\r\n$7\r\ntimeout\r\n$1\r\n0\r\n");
}

TEST(DebianRedisConf, StartsTheBinaryUnchangedButForPaths) {
  if (::access("/var/lib/redis", X_OK) != 0) {
    GTEST_SKIP() << "Debian's file enters /var/lib/redis, which this user may not";
  }
  // Debian's file as installed, with only what this test must not touch overridden: its port,
  // directories and pid file belong to the system's redis-server.
  const std::string dir = MakeTempDir();
  const std::string pidfile = dir + "/kv.pid", logfile = dir + "/kv.log";
  const int port = PickFreePort();
  const int status =
      RunToExit({KVSERVER_BINARY, "/etc/redis/redis.conf", "--port", std::to_string(port),
                 "--pidfile", pidfile, "--logfile", logfile, "--dir", dir});
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0) << "daemonize yes: the parent exits";
  const pid_t pid = WaitForPidFile(pidfile);
  ASSERT_GT(pid, 0);
  KillAtEnd guard{pid};
  ASSERT_TRUE(Eventually([&] { return Contains(ReadFile(logfile), "Ready to accept"); }, 10000));
  RawClient c(port);
  EXPECT_REPLY(c, "CONFIG GET daemonize\r\n", "*2\r\n$9\r\ndaemonize\r\n$3\r\nyes\r\n");
  EXPECT_REPLY(c, "CONFIG GET set-proc-title\r\n", "*2\r\n$14\r\nset-proc-title\r\n$3\r\nyes\r\n");
  c.SendAll("SHUTDOWN\r\n");
  EXPECT_TRUE(Eventually([&] { return !Alive(pid); }, 10000));
  EXPECT_FALSE(std::filesystem::exists(pidfile));
}

}  // namespace
}  // namespace kv::test
