// What scripts in any language use to find a kvserver started on port 0: the log line
// "Running mode=standalone, port=N." and the file --port-file names.

#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "tests/integration/raw_client.h"
#include "tests/support/persistence_files.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

TEST(PortFile, HoldsThePortOnceTheServerIsReady) {
  const std::string path = MakeTempDir() + "/kvserver.port";
  // StartKvserver returns once the log says "Ready to accept connections tcp".
  auto server = ServerProcess::StartKvserver({"--port-file", path});
  ASSERT_TRUE(server);
  EXPECT_EQ(ReadFile(path), std::to_string(server->port()) + "\n");
  RawClient c(server->port());
  EXPECT_REPLY(c, "CONFIG GET port-file\r\n",
               "*2\r\n$9\r\nport-file\r\n$" + std::to_string(path.size()) + "\r\n" + path + "\r\n");
  // No temporary file is left beside it.
  int status = 0;
  EXPECT_EQ(RunShell("ls " + path + ".tmp.* 2>/dev/null", &status), "");
}

TEST(PortFile, LogSaysThePortInRedisForm) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  const std::string log = server->ReadLog();
  const std::string line = "Running mode=standalone, port=" + std::to_string(server->port()) + ".";
  const size_t at = log.find(line);
  ASSERT_NE(at, std::string::npos) << log;
  // Before the readiness line.
  EXPECT_LT(at, log.find("Ready to accept connections tcp"));
}

TEST(PortFile, AnUnwritablePathStopsStartup) {
  int status = 0;
  const std::string out = RunShell("timeout 20 " + std::string(KVSERVER_BINARY) +
                                       " --port 0 --bind 127.0.0.1 --port-file "
                                       "/nonexistent-dir/kv.port 2>&1",
                                   &status);
  EXPECT_EQ(status, 1) << out;
  EXPECT_NE(
      out.find("Can't write the port file /nonexistent-dir/kv.port: No such file or directory"),
      std::string::npos)
      << out;
  EXPECT_EQ(out.find("Ready to accept connections"), std::string::npos) << out;
}

}  // namespace
}  // namespace kv::test
