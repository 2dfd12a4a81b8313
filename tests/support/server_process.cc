#include "tests/support/server_process.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string_view>
#include <thread>

#include "gtest/gtest.h"

namespace kv::test {

namespace {

using Clock = std::chrono::steady_clock;

bool CanConnect(int port) {
  redisContext* c = redisConnect("127.0.0.1", port);
  const bool ok = c != nullptr && c->err == 0;
  if (c != nullptr) redisFree(c);
  return ok;
}

}  // namespace

std::string MakeTempDir() {
  char tmpl[] = "/tmp/kvtest.XXXXXX";
  const char* dir = mkdtemp(tmpl);
  return dir ? dir : "/tmp";
}

int PickFreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  socklen_t len = sizeof(addr);
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  close(fd);
  return ntohs(addr.sin_port);
}

std::string RunShell(const std::string& command, int* status) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  if (p == nullptr) {
    if (status) *status = -1;
    return out;
  }
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  const int rc = pclose(p);
  if (status) *status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  return out;
}

std::unique_ptr<ServerProcess> ServerProcess::Spawn(const std::vector<std::string>& argv,
                                                    const std::string& log_path) {
  std::unique_ptr<ServerProcess> proc(new ServerProcess());
  proc->log_path_ = log_path;
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
      close(fd);
    }
    std::vector<char*> cargv;
    for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
    cargv.push_back(nullptr);
    execv(cargv[0], cargv.data());
    _exit(127);
  }
  proc->pid_ = pid;
  return proc;
}

std::unique_ptr<ServerProcess> ServerProcess::StartKvserver(const std::vector<std::string>& args) {
  return LaunchKvserver({KVSERVER_BINARY}, args);
}

std::unique_ptr<ServerProcess> ServerProcess::StartKvserverWithConfig(
    const std::string& config_file, const std::vector<std::string>& args) {
  return LaunchKvserver({KVSERVER_BINARY, config_file}, args);
}

std::unique_ptr<ServerProcess> ServerProcess::StartKvserverWithDefaultSave(
    const std::string& dir, const std::vector<std::string>& args) {
  std::vector<std::string> all = {"--dir", dir};
  all.insert(all.end(), args.begin(), args.end());
  return LaunchKvserver({KVSERVER_BINARY}, all, /*no_save=*/false);
}

std::unique_ptr<ServerProcess> ServerProcess::SpawnKvserver(int port,
                                                            const std::vector<std::string>& args) {
  const std::string dir = MakeTempDir();
  std::vector<std::string> argv = {
      KVSERVER_BINARY, "--port", std::to_string(port), "--bind", "127.0.0.1", "--save", ""};
  argv.insert(argv.end(), args.begin(), args.end());
  auto proc = Spawn(argv, dir + "/kvserver.log");
  proc->dir_ = dir;
  proc->port_ = port;
  return proc;
}

std::unique_ptr<ServerProcess> ServerProcess::StartRedisWithDefaultSave(
    const std::string& dir, const std::vector<std::string>& args) {
  std::vector<std::string> all = {"--dir", dir};
  all.insert(all.end(), args.begin(), args.end());
  return LaunchRedis({REDIS_SERVER_BINARY}, all, /*no_save=*/false);
}

std::unique_ptr<ServerProcess> ServerProcess::LaunchKvserver(const std::vector<std::string>& prefix,
                                                             const std::vector<std::string>& args,
                                                             bool no_save) {
  const std::string dir = MakeTempDir();
  const std::string log = dir + "/kvserver.log";
  std::vector<std::string> argv = prefix;
  argv.insert(argv.end(), {"--port", "0", "--bind", "127.0.0.1"});
  if (no_save) argv.insert(argv.end(), {"--save", ""});
  argv.insert(argv.end(), args.begin(), args.end());
  auto proc = Spawn(argv, log);
  proc->dir_ = dir;
  // Wait for the readiness line, then read the port the server chose.
  // (Plain string search: std::regex draws false -Wmaybe-uninitialized warnings from GCC 12
  // in sanitized builds.)
  static constexpr std::string_view kListening = "Listening on tcp 127.0.0.1:";
  const auto deadline = Clock::now() + std::chrono::seconds(20);
  while (Clock::now() < deadline) {
    std::string text = proc->ReadLog();
    const size_t at = text.find(kListening);
    if (text.find("Ready to accept connections tcp") != std::string::npos &&
        at != std::string::npos) {
      proc->port_ = std::atoi(text.c_str() + at + kListening.size());
      return proc;
    }
    if (!proc->running()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ADD_FAILURE() << "kvserver did not start; log:\n" << proc->ReadLog();
  return nullptr;
}

std::unique_ptr<ServerProcess> ServerProcess::StartRedis(const std::vector<std::string>& args) {
  return LaunchRedis({REDIS_SERVER_BINARY}, args);
}

std::unique_ptr<ServerProcess> ServerProcess::StartRedisWithConfig(
    const std::string& config_file, const std::vector<std::string>& args) {
  return LaunchRedis({REDIS_SERVER_BINARY, config_file}, args);
}

std::unique_ptr<ServerProcess> ServerProcess::LaunchRedis(const std::vector<std::string>& prefix,
                                                          const std::vector<std::string>& args,
                                                          bool no_save) {
  const std::string dir = MakeTempDir();
  for (int attempt = 0; attempt < 5; ++attempt) {
    const int port = PickFreePort();
    std::vector<std::string> argv = prefix;
    argv.insert(argv.end(), {"--port", std::to_string(port), "--bind", "127.0.0.1"});
    if (no_save) argv.insert(argv.end(), {"--save", ""});
    argv.insert(argv.end(), {"--appendonly", "no", "--dir", dir});
    argv.insert(argv.end(), args.begin(), args.end());
    auto proc = Spawn(argv, dir + "/redis.log");
    proc->dir_ = dir;
    proc->port_ = port;
    const auto deadline = Clock::now() + std::chrono::seconds(10);
    while (Clock::now() < deadline && proc->running()) {
      if (CanConnect(port)) return proc;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  ADD_FAILURE() << "redis-server did not start";
  return nullptr;
}

ServerProcess::~ServerProcess() {
  if (pid_ > 0) Stop();
}

std::string ServerProcess::ReadLog() const {
  std::ifstream in(log_path_);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

RedisConnection ServerProcess::Connect() const {
  timeval timeout{10, 0};
  RedisConnection c(redisConnectWithTimeout("127.0.0.1", port_, timeout));
  EXPECT_TRUE(c != nullptr && c->err == 0) << (c ? c->errstr : "no context");
  if (c) redisSetTimeout(c.get(), timeout);
  return c;
}

bool ServerProcess::running() {
  if (pid_ <= 0) return false;
  int status;
  pid_t r = waitpid(pid_, &status, WNOHANG);
  if (r == pid_) {
    pid_ = -1;
    return false;
  }
  return true;
}

int ServerProcess::Stop(int signo) {
  if (pid_ <= 0) return 0;
  kill(pid_, signo);
  int status = 0;
  const auto deadline = Clock::now() + std::chrono::seconds(10);
  while (Clock::now() < deadline) {
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return status;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  kill(pid_, SIGKILL);
  waitpid(pid_, &status, 0);
  pid_ = -1;
  ADD_FAILURE() << "server did not stop within 10 s of signal " << signo;
  return status;
}

int ServerProcess::WaitExit(int timeout_ms) {
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  while (Clock::now() < deadline) {
    int status = 0;
    if (pid_ > 0 && waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return -1;
}

}  // namespace kv::test
