#pragma once

#include <hiredis/hiredis.h>
#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

namespace kv::test {

struct RedisContextDeleter {
  void operator()(redisContext* c) const { redisFree(c); }
};
using RedisConnection = std::unique_ptr<redisContext, RedisContextDeleter>;

struct ReplyDeleter {
  void operator()(redisReply* r) const { freeReplyObject(r); }
};
using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

// A server in a child process on a loopback port: the real kvserver binary (on port 0, reading
// the port it chose from its log) or the real redis-server (on a free port). Both start with
// `--save ""` before `args` (a save in `args` replaces it), so that nothing is saved unless a
// test asks. The destructor stops it with SIGTERM.
class ServerProcess {
 public:
  static std::unique_ptr<ServerProcess> StartKvserver(const std::vector<std::string>& args = {});
  // Without the `--save ""`: the built-in save points apply (Redis's 3600 1 300 100 60 10000),
  // and dump.rdb goes to `dir`.
  static std::unique_ptr<ServerProcess> StartKvserverWithDefaultSave(
      const std::string& dir, const std::vector<std::string>& args = {});
  static std::unique_ptr<ServerProcess> StartRedisWithDefaultSave(
      const std::string& dir, const std::vector<std::string>& args = {});
  // kvserver on `port` (with `--save ""`), returned at once without waiting for it to be ready:
  // for what it does while it loads its data.
  static std::unique_ptr<ServerProcess> SpawnKvserver(int port,
                                                      const std::vector<std::string>& args);
  // Like StartKvserver, with `config_file` first on the command line (kvserver's
  // `kvserver config-file [--directive value ...]` form); --port 0 and --bind come after it.
  static std::unique_ptr<ServerProcess> StartKvserverWithConfig(
      const std::string& config_file, const std::vector<std::string>& args = {});
  static std::unique_ptr<ServerProcess> StartRedis(const std::vector<std::string>& args = {});
  // Like StartRedis, with `config_file` first on the command line.
  static std::unique_ptr<ServerProcess> StartRedisWithConfig(
      const std::string& config_file, const std::vector<std::string>& args = {});
  ~ServerProcess();

  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  const std::string& log_path() const { return log_path_; }
  // The temporary directory the server was started in (its --dir for redis-server).
  const std::string& dir() const { return dir_; }
  std::string ReadLog() const;

  // A new hiredis connection; fails the current test if it cannot connect.
  RedisConnection Connect() const;
  // Sends SIGTERM (or `signo`) and waits; returns the exit status as waitpid reports it.
  int Stop(int signo = 15);
  // Waits for the process to exit on its own (e.g. after SHUTDOWN), up to `timeout_ms`.
  // Returns the exit code, or -1 if it did not exit in time.
  int WaitExit(int timeout_ms);
  bool running();

 private:
  ServerProcess() = default;
  static std::unique_ptr<ServerProcess> Spawn(const std::vector<std::string>& argv,
                                              const std::string& log_path);
  static std::unique_ptr<ServerProcess> LaunchRedis(const std::vector<std::string>& prefix,
                                                    const std::vector<std::string>& args,
                                                    bool no_save = true);
  static std::unique_ptr<ServerProcess> LaunchKvserver(const std::vector<std::string>& prefix,
                                                       const std::vector<std::string>& args,
                                                       bool no_save = true);

  pid_t pid_ = -1;
  int port_ = 0;
  std::string log_path_;
  std::string dir_;
};

// A port on 127.0.0.1 that was free a moment ago.
int PickFreePort();
// Runs `command` with /bin/sh and returns what it printed on stdout; `status` gets the exit code.
std::string RunShell(const std::string& command, int* status = nullptr);
// A fresh temporary directory, removed by nothing: tests put their files there.
std::string MakeTempDir();

// A suite run the same against both servers: TestWithParam<ServerStarter>, instantiated with
// ::testing::Values(&ServerProcess::StartKvserver, &ServerProcess::StartRedis) and
// BothServersTestName.
using ServerStarter = std::unique_ptr<ServerProcess> (*)(const std::vector<std::string>&);
template <typename ParamInfo>
std::string BothServersTestName(const ParamInfo& info) {
  return info.index == 0 ? "Kvserver" : "Redis";
}

}  // namespace kv::test
