// Redis's back-off for automatic AOF rewrites (aofRewriteLimited): after three consecutive
// failed rewrites, an automatic one is put off (1 minute, then 2, 4, ... up to an hour) with one
// log line, while BGREWRITEAOF still runs at once. The same steps on kvserver and redis-server
// 7.0.15 must leave the same manifest, INFO fields and log line.

#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/persistence_files.h"
#include "tests/support/resp_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

// The pid of a child process of `parent` (the rewrite child), or -1.
pid_t ChildOf(pid_t parent) {
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return -1;
  pid_t found = -1;
  while (dirent* e = readdir(proc)) {
    const pid_t pid = std::atoi(e->d_name);
    if (pid <= 0) continue;
    std::ifstream stat("/proc/" + std::string(e->d_name) + "/stat");
    std::string line;
    std::getline(stat, line);
    // pid (comm) state ppid ...: the comm may hold spaces, the last ')' ends it.
    const size_t close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 2));
    char state;
    pid_t ppid = -1;
    rest >> state >> ppid;
    if (ppid == parent) {
      found = pid;
      break;
    }
  }
  closedir(proc);
  return found;
}

size_t CountInLog(const ServerProcess& s, const std::string& needle) {
  const std::string log = s.ReadLog();
  size_t n = 0;
  for (size_t at = log.find(needle); at != std::string::npos; at = log.find(needle, at + 1)) ++n;
  return n;
}

std::string InfoField(RawConnection& c, const std::string& name) {
  const std::string info = c.Call({"info", "persistence"});
  const size_t at = info.find(name + ":");
  if (at == std::string::npos) return "missing";
  return info.substr(at, info.find("\r\n", at) - at);
}

// Everything the steps show, to compare between the two servers.
std::string RunSteps(bool redis) {
  const std::string dir = MakeTempDir();
  const std::vector<std::string> args = {"--appendonly", "yes", "--dir", dir};
  auto server = redis ? ServerProcess::StartRedis(args) : ServerProcess::StartKvserver(args);
  if (!server) return "did not start";
  auto c = RawConnection::Connect(server->port());
  std::string seen;
  c->Call({"config", "set", "rdb-key-save-delay", "10000000"});
  c->Call({"set", "k", "v"});
  // Three rewrites killed: the limit is reached, but nothing is held back yet.
  for (int i = 0; i < 3; ++i) {
    seen += c->Call({"bgrewriteaof"});
    pid_t child = -1;
    for (int tries = 0; tries < 200 && child == -1; ++tries) {
      child = ChildOf(server->pid());
      if (child == -1) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (child == -1) return seen + "no rewrite child";
    kill(child, SIGKILL);
    if (!WaitForPersistenceInfo(*c, "aof_rewrite_in_progress:0\r\n")) return seen + "stuck";
  }
  seen += InfoField(*c, "aof_rewrites_consecutive_failures") + "\n";
  seen +=
      "limit lines before growth: " + std::to_string(CountInLog(*server, "triggered the limit")) +
      "\n";
  // Growth that asks for an automatic rewrite: put off, logged once, no child.
  c->Call({"config", "set", "auto-aof-rewrite-percentage", "1"});
  c->Call({"config", "set", "auto-aof-rewrite-min-size", "1kb"});
  c->Call({"set", "x", std::string(1024, 'x')});
  for (int tries = 0; tries < 100 && CountInLog(*server, "triggered the limit") == 0; ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // more cron runs: no new line
  seen += "limit lines: " + std::to_string(CountInLog(*server, "triggered the limit")) + "\n";
  seen += InfoField(*c, "aof_rewrite_in_progress") + "\n";
  seen += ReadFile(dir + "/appendonlydir/appendonly.aof.manifest");
  // BGREWRITEAOF is never held back; its success ends the limit.
  c->Call({"config", "set", "auto-aof-rewrite-percentage", "0"});
  c->Call({"config", "set", "rdb-key-save-delay", "0"});
  seen += c->Call({"bgrewriteaof"});
  if (!WaitForPersistenceInfo(*c, "aof_rewrite_in_progress:0\r\n")) return seen + "stuck";
  seen += InfoField(*c, "aof_last_bgrewrite_status") + "\n";
  seen += InfoField(*c, "aof_rewrites_consecutive_failures") + "\n";
  seen += ReadFile(dir + "/appendonlydir/appendonly.aof.manifest");
  return seen;
}

TEST(AofRewriteLimitTest, AutomaticRewritesBackOffAfterThreeFailuresAsInRedis) {
  const std::string redis = RunSteps(true);
  EXPECT_NE(redis.find("limit lines: 1\n"), std::string::npos) << redis;
  EXPECT_EQ(RunSteps(false), redis);
}

}  // namespace
}  // namespace kv::test
