// A bad configuration stops kvserver exactly as it stops redis-server: the same report on standard
// error ("*** FATAL CONFIG FILE ERROR (Redis 7.0.15) ***", the line number, the line, the reason)
// or the same log line for a file that cannot be opened, and exit status 1. Every case here is
// refused by Redis too, so no redis-server is left running.

#include <regex>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

struct Outcome {
  int status;
  std::string output;
};

// Runs `binary args` (shell words) in `dir` and returns its exit status and its output, standard
// error first, with pids and times made neutral.
Outcome RunBinary(const std::string& binary, const std::string& args, const std::string& dir) {
  int status = 0;
  RunShell(
      "cd " + dir + " && timeout 10 " + binary + " " + args + " >" + dir + "/out 2>" + dir + "/err",
      &status);
  std::string output = RunShell("cat " + dir + "/err " + dir + "/out");
  // "1234:C 01 Dec 2026 16:07:03.951 # ..." -> "PID:C DATE # ...".
  static const std::regex kLogPrefix(R"((^|\n)\d+:([CM]) \d\d \w\w\w \d{4} [\d:.]+ )");
  output = std::regex_replace(output, kLogPrefix, "$1PID:$2 DATE ");
  return {status, output};
}

class ConfigErrorsTest : public ::testing::Test {
 protected:
  void ExpectSame(const std::string& args) {
    const std::string dir = MakeTempDir();  // the same working directory for both
    const Outcome kv = RunBinary(KVSERVER_BINARY, args, dir);
    const Outcome redis = RunBinary(REDIS_SERVER_BINARY, args, dir);
    EXPECT_EQ(redis.status, 1) << args << ": " << redis.output;
    EXPECT_EQ(kv.status, redis.status) << args;
    EXPECT_EQ(kv.output, redis.output) << args;
  }
  // A configuration file with `text`; its path, quoted for the shell.
  std::string File(const std::string& text) {
    const std::string path = MakeTempDir() + "/bad.conf";
    FILE* f = fopen(path.c_str(), "w");
    fwrite(text.data(), 1, text.size(), f);
    fclose(f);
    return path;
  }
};

TEST_F(ConfigErrorsTest, BadFiles) {
  const std::vector<std::string> files = {
      "port 7010\n\nmaxclients lots\n",
      "# comment\n  NoSuchDirective  1 2\n",
      "save 10\n",
      "logfile \"unbalanced\n",
      "bind 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n",
      "client-output-buffer-limit normal 1 2\n",
      "client-output-buffer-limit master 1 2 3\n",
      "rename-command nosuch x\n",
      "rename-command get set\n",
      "sentinel monitor m 127.0.0.1 6379 2\n",
      "maxmemory-policy lru\n",
      "hz -1\n",
      "replicaof 1.2.3.4 70000\n",
      "oom-score-adj-values 1 2\n",
      "notify-keyspace-events Q\n",
      "dir /nonexistent/kvserver-test\n",
      "latency-tracking-info-percentiles 200\n",
      "proc-title-template \"{x}\"\n",
      "shutdown-on-sigint save nosave\n",
      "cluster-announce-hostname a_b\n",
      "dbfilename /tmp/x.rdb\n",
      "appendfilename \"\"\n",
      "maxmemory-clients 200%\n",
      "unixsocketperm 999\n",
      "proto-max-bulk-len 1kb\n",
      "maxclients -1\n",
      "port 1 2\n",
      "mymodule.config\n",
      "include /nonexistent/kvserver-test.conf\n",
      "lua-replicate-commands\n",
  };
  for (const std::string& text : files) ExpectSame(File(text));
}

TEST_F(ConfigErrorsTest, CommandLines) {
  for (const std::string& args : {
           std::string("--port abc"),
           std::string("--nosuch 1"),
           std::string("--port"),
           std::string("--port 6379 6380"),
           std::string("--port --loglevel verbose"),
           std::string("--port --bla --loglevel verbose"),
           std::string("--logfile --my--log--file --loglevel --bla"),
           std::string("--shutdown-on-sigint"),
           std::string("--shutdown-on-sigint 'now force' --shutdown-on-sigterm"),
           std::string("--replicaof 127.0.0.1 abc"),
           std::string("--replicaof --127.0.0.1 abc"),
           std::string("--replicaof --127.0.0.1 --abc"),
           std::string("--logfile /nonexistent/dir/kv.log"),
           std::string("/nonexistent/kvserver-test.conf"),
           std::string("stray"),
       }) {
    ExpectSame(args);
  }
  // A file and options: the options' lines count on from the file's.
  ExpectSame(File("port 1\ntimeout 2\n") + " --hz x");
}

}  // namespace
}  // namespace kv::test
