// The real redis-cli against the real kvserver binary: commands as arguments, commands from
// stdin, -x, and --pipe mass insertion.

#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

// redis-cli bound by `timeout 120`, talking to `port`; stderr is folded into the output.
std::string Cli(int port, const std::string& args, int* status = nullptr,
                const std::string& stdin_file = "") {
  std::string command = "timeout 120 " + std::string(REDIS_CLI_BINARY) + " -h 127.0.0.1 -p " +
                        std::to_string(port) + " " + args;
  command += stdin_file.empty() ? " </dev/null" : " <'" + stdin_file + "'";
  return RunShell(command + " 2>&1", status);
}

std::string WriteFile(const std::string& dir, const std::string& name,
                      const std::string& contents) {
  const std::string path = dir + "/" + name;
  std::ofstream out(path, std::ios::binary);
  out << contents;
  return path;
}

long long Integer(redisContext* c, const char* command) {
  Reply r(static_cast<redisReply*>(redisCommand(c, command)));
  EXPECT_TRUE(r && r->type == REDIS_REPLY_INTEGER) << command;
  return r && r->type == REDIS_REPLY_INTEGER ? r->integer : -1;
}

TEST(RedisCli, CommandsAsArguments) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  const int port = server->port();
  int status = -1;
  EXPECT_EQ(Cli(port, "set a 1", &status), "OK\n");
  EXPECT_EQ(status, 0);
  EXPECT_EQ(Cli(port, "get a", &status), "1\n");
  EXPECT_EQ(status, 0);
  EXPECT_EQ(Cli(port, "ping"), "PONG\n");
  EXPECT_EQ(Cli(port, "incr counter"), "1\n");
  EXPECT_EQ(Cli(port, "-r 3 incr counter"), "2\n3\n4\n");
  EXPECT_EQ(Cli(port, "get missing"), "\n");
  EXPECT_EQ(Cli(port, "set spaced 'a b  c'"), "OK\n");
  EXPECT_EQ(Cli(port, "get spaced"), "a b  c\n");
  EXPECT_EQ(Cli(port, "mset x 1 y 2"), "OK\n");
  EXPECT_EQ(Cli(port, "mget x y nope"), "1\n2\n\n");
  EXPECT_EQ(Cli(port, "dbsize"), "5\n");
  EXPECT_EQ(Cli(port, "nosuchcommand arg"),
            "ERR unknown command 'nosuchcommand', with args beginning with: 'arg' \n\n");
  const std::string info = Cli(port, "info server");
  EXPECT_NE(info.find("redis_version:"), std::string::npos) << info;
  EXPECT_NE(info.find("tcp_port:" + std::to_string(port)), std::string::npos) << info;
  // --no-raw formats replies as the interactive mode does.
  EXPECT_EQ(Cli(port, "--no-raw get a"), "\"1\"\n");
  EXPECT_EQ(Cli(port, "--no-raw incr counter"), "(integer) 5\n");
  EXPECT_EQ(Cli(port, "--no-raw get missing"), "(nil)\n");
}

TEST(RedisCli, CommandsFromStdin) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  const std::string dir = MakeTempDir();
  const std::string script = WriteFile(dir, "commands.txt",
                                       "set b 2\n"
                                       "get b\n"
                                       "incr c\n"
                                       "incrby c 10\n"
                                       "set q \"hello world\"\n"
                                       "get q\n"
                                       "del b\n"
                                       "exists b\n");
  int status = -1;
  EXPECT_EQ(Cli(server->port(), "", &status, script), "OK\n2\n1\n11\nOK\nhello world\n1\n0\n");
  EXPECT_EQ(status, 0);

  // -x: the last argument is read from stdin, byte for byte.
  std::string binary = "line one\r\nline two\n";
  binary += std::string("\0\x01\xff", 3);
  const std::string data = WriteFile(dir, "value.bin", binary);
  EXPECT_EQ(Cli(server->port(), "-x set blob", &status, data), "OK\n");
  auto c = server->Connect();
  Reply r(static_cast<redisReply*>(redisCommand(c.get(), "GET blob")));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->type, REDIS_REPLY_STRING);
  EXPECT_EQ(std::string(r->str, r->len), binary);
}

TEST(RedisCli, PipeMassInsertion) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  const std::string dir = MakeTempDir();
  std::string resp;
  resp.reserve(100000 * 48);
  for (int i = 0; i < 100000; ++i) {
    const std::string key = "key:" + std::to_string(i);
    const std::string value = "value:" + std::to_string(i);
    resp += "*3\r\n$3\r\nSET\r\n$" + std::to_string(key.size()) + "\r\n" + key + "\r\n$" +
            std::to_string(value.size()) + "\r\n" + value + "\r\n";
  }
  const std::string file = WriteFile(dir, "mass.resp", resp);
  int status = -1;
  const std::string out = Cli(server->port(), "--pipe", &status, file);
  EXPECT_EQ(status, 0) << out;
  EXPECT_NE(out.find("All data transferred. Waiting for the last reply..."), std::string::npos)
      << out;
  EXPECT_NE(out.find("errors: 0, replies: 100000"), std::string::npos) << out;

  auto c = server->Connect();
  EXPECT_EQ(Integer(c.get(), "DBSIZE"), 100000);
  Reply r(static_cast<redisReply*>(redisCommand(c.get(), "GET key:99999")));
  ASSERT_TRUE(r);
  EXPECT_EQ(std::string(r->str, r->len), "value:99999");

  // Errors in the stream are counted, not fatal.
  const std::string mixed = WriteFile(dir, "mixed.resp",
                                      "*2\r\n$3\r\nGET\r\n$5\r\nkey:1\r\n"
                                      "*1\r\n$7\r\nNOTACMD\r\n"
                                      "*3\r\n$4\r\nINCR\r\n$1\r\na\r\n$1\r\nb\r\n");
  const std::string out2 = Cli(server->port(), "--pipe", &status, mixed);
  EXPECT_NE(out2.find("errors: 2, replies: 3"), std::string::npos) << out2;
}

}  // namespace
}  // namespace kv::test
