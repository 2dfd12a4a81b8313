// The kvserver process: SHUTDOWN and signals, configuration errors, a port in use, --version and
// --help, active expiry and INFO.

#include <sys/wait.h>

#include <csignal>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/integration/raw_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// Runs the kvserver binary with `args`, bounded by `timeout`; returns stdout and stderr.
std::string RunKvserver(const std::string& args, int* status) {
  return RunShell("timeout 20 " + std::string(KVSERVER_BINARY) + " " + args + " 2>&1", status);
}

class ShutdownTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ShutdownTest, ExitsZeroAndClosesEveryClient) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto bystander = server->Connect();
  ASSERT_EQ(Str(Command(bystander.get(), "SET k v")), "OK");
  RawClient raw(server->port());
  ASSERT_EQ(raw.Exchange("PING\r\n", 7), "+PONG\r\n");

  auto c = server->Connect();
  Reply r = Command(c.get(), GetParam().c_str());
  EXPECT_FALSE(r) << "SHUTDOWN replied " << Str(r);
  EXPECT_TRUE(c->err == REDIS_ERR_EOF || c->err == REDIS_ERR_IO) << c->err << " " << c->errstr;

  // The other clients see their connections closed too.
  bool closed = false;
  EXPECT_EQ(raw.ReadUntilClosed(5000, &closed), "");
  EXPECT_TRUE(closed);
  EXPECT_EQ(server->WaitExit(10000), 0);
  EXPECT_FALSE(Command(bystander.get(), "PING"));
  const std::string log = server->ReadLog();
  EXPECT_TRUE(Contains(log, "User requested shutdown...")) << log;
  EXPECT_TRUE(Contains(log, "ready to exit, bye bye...")) << log;
}

INSTANTIATE_TEST_SUITE_P(Variants, ShutdownTest,
                         ::testing::Values("SHUTDOWN", "SHUTDOWN NOSAVE", "shutdown now"));

TEST(Shutdown, BadArgumentsKeepServerRunning) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto c = server->Connect();
  EXPECT_EQ(Str(Command(c.get(), "SHUTDOWN BOGUS")), "ERR syntax error");
  EXPECT_EQ(Str(Command(c.get(), "SHUTDOWN SAVE NOSAVE")), "ERR syntax error");
  EXPECT_EQ(Str(Command(c.get(), "SHUTDOWN ABORT")), "ERR No shutdown in progress.");
  EXPECT_EQ(Str(Command(c.get(), "PING")), "PONG");
  EXPECT_TRUE(server->running());
}

class SignalTest : public ::testing::TestWithParam<int> {};

TEST_P(SignalTest, ExitsZeroWithByeBye) {
  const int signo = GetParam();
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto c = server->Connect();
  ASSERT_EQ(Str(Command(c.get(), "PING")), "PONG");
  RawClient raw(server->port());
  const std::string log_before = server->ReadLog();
  const int status = server->Stop(signo);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
  bool closed = false;
  EXPECT_EQ(raw.ReadUntilClosed(5000, &closed), "");
  EXPECT_TRUE(closed);
  const std::string log = server->ReadLog();
  const std::string name = signo == SIGINT ? "SIGINT" : "SIGTERM";
  EXPECT_TRUE(Contains(log, "Received " + name + " scheduling shutdown...")) << log;
  EXPECT_TRUE(Contains(log, "bye bye")) << log;
  EXPECT_FALSE(Contains(log_before, "bye bye"));
}

TEST_P(SignalTest, RightAfterTheReadinessLine) {
  // Whoever waits for "Ready to accept connections" may stop the server at once.
  for (int i = 0; i < 10; ++i) {
    auto server = ServerProcess::StartKvserver();
    ASSERT_TRUE(server);
    const int status = server->Stop(GetParam());
    ASSERT_TRUE(WIFEXITED(status)) << "round " << i << ": killed by signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Signals, SignalTest, ::testing::Values(SIGTERM, SIGINT),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(info.param == SIGINT ? "SIGINT" : "SIGTERM");
                         });

TEST(Startup, BadCommandLineDirective) {
  int status = 0;
  std::string out = RunKvserver("--port abc", &status);
  EXPECT_NE(status, 0);
  EXPECT_TRUE(Contains(out, "port")) << out;
  EXPECT_TRUE(Contains(out, "FATAL CONFIG FILE ERROR")) << out;

  out = RunKvserver("--port 70000", &status);
  EXPECT_NE(status, 0);
  EXPECT_TRUE(Contains(out, "port")) << out;

  out = RunKvserver("--no-such-directive 1", &status);
  EXPECT_NE(status, 0);
  EXPECT_TRUE(Contains(out, "no-such-directive")) << out;
  EXPECT_TRUE(Contains(out, "Bad directive or wrong number of arguments")) << out;

  out = RunKvserver("--maxclients", &status);
  EXPECT_NE(status, 0);
  EXPECT_TRUE(Contains(out, "maxclients")) << out;

  out = RunKvserver("--cluster-enabled yes", &status);
  EXPECT_NE(status, 0);
  EXPECT_TRUE(Contains(out, "cluster-enabled")) << out;
}

TEST(Startup, BadConfigFileNamesFileAndLine) {
  const std::string dir = MakeTempDir();
  const std::string path = dir + "/bad.conf";
  {
    std::ofstream conf(path);
    conf << "# a comment\n"
         << "port 0\n"
         << "\n"
         << "maxclients lots\n";
  }
  int status = 0;
  std::string out = RunKvserver(path, &status);
  EXPECT_EQ(status, 1);
  // Redis's report names the line, not the file (config_errors_test.cc compares it whole).
  EXPECT_TRUE(Contains(out, "Reading the configuration file, at line 4")) << out;
  EXPECT_TRUE(Contains(out, ">>> 'maxclients lots'")) << out;

  out = RunKvserver(dir + "/missing.conf", &status);
  EXPECT_NE(status, 0);
  EXPECT_TRUE(Contains(out, "missing.conf")) << out;

  // A good file works, and options on the command line override it.
  const std::string good = dir + "/good.conf";
  {
    std::ofstream conf(good);
    conf << "maxclients 7\ntimeout 77\n";
  }
  auto server = ServerProcess::StartKvserverWithConfig(good, {"--maxclients", "9"});
  ASSERT_TRUE(server);
  auto c = server->Connect();
  Reply r = Command(c.get(), "CONFIG GET maxclients");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->elements, 2u);
  EXPECT_EQ(std::string(r->element[1]->str, r->element[1]->len), "9");
  r = Command(c.get(), "CONFIG GET timeout");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->elements, 2u);
  EXPECT_EQ(std::string(r->element[1]->str, r->element[1]->len), "77");
  EXPECT_TRUE(Contains(Str(Command(c.get(), "INFO server")), "config_file:" + good + "\r\n"));
}

TEST(Startup, PortInUse) {
  auto first = ServerProcess::StartKvserver();
  ASSERT_TRUE(first);
  const std::string port = std::to_string(first->port());
  int status = 0;
  const std::string out = RunKvserver("--port " + port + " --bind 127.0.0.1", &status);
  EXPECT_NE(status, 0);
  EXPECT_NE(status, 124) << "the second server kept running: " << out;
  // Redis's two lines; the second is the one Redis's test suite waits for to retry on another
  // port ("Failed listening on port").
  EXPECT_TRUE(Contains(out, "# Warning: Could not create server TCP listening socket 127.0.0.1:" +
                                port + ": bind: Address already in use"))
      << out;
  EXPECT_TRUE(Contains(out, "# Failed listening on port " + port + " (TCP), aborting.")) << out;
  EXPECT_EQ(status, 1) << out;
  // The first server is unaffected.
  auto c = first->Connect();
  EXPECT_EQ(Str(Command(c.get(), "PING")), "PONG");
}

TEST(Startup, UnusableUnixSocketPath) {
  int status = 0;
  const std::string long_path = "/tmp/" + std::string(150, 'a') + "/kv.sock";
  std::string out = RunKvserver("--port 0 --bind 127.0.0.1 --unixsocket " + long_path, &status);
  EXPECT_EQ(status, 1) << out;
  // Redis's wording.
  EXPECT_TRUE(Contains(out,
                       "Failed opening Unix socket: unix socket path too long (163), must "
                       "be under 108"))
      << out;

  out = RunKvserver("--port 0 --bind 127.0.0.1 --unixsocket /nonexistent-dir/kv.sock", &status);
  EXPECT_EQ(status, 1) << out;
  EXPECT_TRUE(Contains(out, "Failed opening Unix socket /nonexistent-dir/kv.sock")) << out;
}

TEST(Startup, VersionAndHelp) {
  int status = -1;
  std::string out = RunKvserver("--version", &status);
  EXPECT_EQ(status, 0);
  EXPECT_TRUE(Contains(out, "kvserver v=")) << out;
  out = RunKvserver("-v", &status);
  EXPECT_EQ(status, 0);
  EXPECT_TRUE(Contains(out, "kvserver v=")) << out;
  out = RunKvserver("--help", &status);
  EXPECT_EQ(status, 0);
  EXPECT_TRUE(Contains(out, "Usage")) << out;
  out = RunKvserver("-h", &status);
  EXPECT_EQ(status, 0);
  EXPECT_TRUE(Contains(out, "Usage")) << out;
}

TEST(Expiry, ActiveExpiryDeletesKeysNobodyReads) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto c = server->Connect();
  for (int i = 0; i < 100; ++i) {
    ASSERT_EQ(Str(Command(c.get(), "SET volatile:%d v PX 100", i)), "OK");
  }
  ASSERT_EQ(Str(Command(c.get(), "SET persistent v")), "OK");
  auto dbsize = [&] {
    Reply r = Command(c.get(), "DBSIZE");
    return r ? r->integer : -1;
  };
  // DBSIZE does not look at keys, so only the server's own expiry cycle brings this down.
  EXPECT_TRUE(Eventually([&] { return dbsize() == 1; }, 5000)) << "DBSIZE " << dbsize();
  const std::string info = Str(Command(c.get(), "INFO stats"));
  EXPECT_TRUE(Contains(info, "expired_keys:100\r\n")) << info;
  EXPECT_EQ(Str(Command(c.get(), "GET persistent")), "v");
}

TEST(Info, FieldsPresent) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto c = server->Connect();
  ASSERT_EQ(Str(Command(c.get(), "SET a 1")), "OK");
  ASSERT_EQ(Str(Command(c.get(), "SET b 2 EX 1000")), "OK");
  const std::string info = Str(Command(c.get(), "INFO"));
  const std::vector<std::string> fields = {"# Server\r\n",
                                           "redis_version:",
                                           "redis_mode:standalone",
                                           "os:",
                                           "arch_bits:64",
                                           "process_id:" + std::to_string(server->pid()) + "\r\n",
                                           "tcp_port:" + std::to_string(server->port()) + "\r\n",
                                           "uptime_in_seconds:",
                                           "run_id:",
                                           "# Clients\r\n",
                                           "connected_clients:1\r\n",
                                           "maxclients:10000\r\n",
                                           "# Memory\r\n",
                                           "used_memory:",
                                           "used_memory_human:",
                                           "used_memory_rss:",
                                           "# Persistence\r\n",
                                           "# Stats\r\n",
                                           "total_connections_received:",
                                           "total_commands_processed:",
                                           "instantaneous_ops_per_sec:",
                                           "rejected_connections:0\r\n",
                                           "expired_keys:",
                                           "keyspace_hits:",
                                           "keyspace_misses:",
                                           "# Replication\r\n",
                                           "role:master\r\n",
                                           "# CPU\r\n",
                                           "used_cpu_sys:",
                                           "# Keyspace\r\n",
                                           "db0:keys=2,expires=1,avg_ttl="};
  for (const std::string& field : fields) {
    EXPECT_TRUE(Contains(info, field)) << "missing " << field;
  }
  // A named section holds only that section.
  const std::string clients = Str(Command(c.get(), "INFO clients"));
  EXPECT_TRUE(Contains(clients, "# Clients\r\n"));
  EXPECT_FALSE(Contains(clients, "# Server"));
  // Counters move.
  auto counter = [&](const std::string& name) {
    const std::string text = Str(Command(c.get(), "INFO stats"));
    const size_t at = text.find(name + ":");
    return at == std::string::npos ? -1 : std::stol(text.substr(at + name.size() + 1));
  };
  const long before = counter("total_commands_processed");
  for (int i = 0; i < 10; ++i) Command(c.get(), "PING");
  EXPECT_GE(counter("total_commands_processed"), before + 10);
  auto d = server->Connect();
  EXPECT_TRUE(Contains(Str(Command(d.get(), "INFO clients")), "connected_clients:2\r\n"));
}

// used_memory follows what the allocator hands out: mimalloc's blocks, counted (the binary), or
// glibc's mallinfo2 (sanitized builds, whose malloc is the sanitizer's).
TEST(Info, UsedMemoryFollowsTheAllocator) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto c = server->Connect();
  auto field = [&](const std::string& name) {
    const std::string text = Str(Command(c.get(), "INFO memory"));
    const size_t at = text.find("\r\n" + name + ":");
    return at == std::string::npos ? std::string()
                                   : text.substr(at + name.size() + 3,
                                                 text.find('\r', at + 2) - (at + name.size() + 3));
  };
#ifdef KV_SANITIZED
  EXPECT_EQ(field("mem_allocator"), "libc");
#else
  EXPECT_EQ(field("mem_allocator").rfind("mimalloc-2.", 0), 0u) << field("mem_allocator");
#endif
  const long before = std::stol(field("used_memory"));
  ASSERT_EQ(Command(c.get(), "SETRANGE big 9999999 x")->integer, 10'000'000);
  const long with_value = std::stol(field("used_memory"));
  EXPECT_GE(with_value - before, 10'000'000);
  EXPECT_LE(with_value - before, 12'000'000);  // a block's rounding, not a copy of it
  ASSERT_EQ(Command(c.get(), "DEL big")->integer, 1);
  EXPECT_LE(std::stol(field("used_memory")), with_value - 10'000'000);
}

}  // namespace
}  // namespace kv::test
