// The real redis-benchmark against the real kvserver binary: every test it runs completes and
// reports a throughput, with and without pipelining.

#include <chrono>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

// Splits a CSV line of quoted fields: "a","b c","1.5".
std::vector<std::string> CsvFields(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false;
  for (char ch : line) {
    if (ch == '"') {
      quoted = !quoted;
    } else if (ch == ',' && !quoted) {
      fields.push_back(field);
      field.clear();
    } else if (ch != '\r') {
      field += ch;
    }
  }
  fields.push_back(field);
  return fields;
}

// Runs redis-benchmark with `extra` options and returns each test's requests per second.
std::map<std::string, double> Benchmark(int port, const std::string& extra, std::string* output) {
  int status = -1;
  *output = RunShell("timeout 120 " + std::string(REDIS_BENCHMARK_BINARY) + " -h 127.0.0.1 -p " +
                         std::to_string(port) + " -t ping,set,get,incr,mset -n 10000 -c 50 --csv " +
                         extra + " </dev/null 2>&1",
                     &status);
  EXPECT_EQ(status, 0) << *output;
  std::map<std::string, double> rps;
  std::istringstream lines(*output);
  std::string line;
  bool header = false;
  while (std::getline(lines, line)) {
    const std::vector<std::string> fields = CsvFields(line);
    if (fields.size() < 2) continue;
    if (fields[0] == "test") {
      header = fields[1] == "rps";
      continue;
    }
    try {
      rps[fields[0]] = std::stod(fields[1]);
    } catch (const std::exception&) {
      ADD_FAILURE() << "unparsable line: " << line;
    }
  }
  EXPECT_TRUE(header) << *output;
  return rps;
}

void ExpectAllTests(const std::map<std::string, double>& rps, const std::string& output) {
  for (const char* test : {"PING_INLINE", "PING_MBULK", "SET", "GET", "INCR", "MSET (10 keys)"}) {
    auto it = rps.find(test);
    ASSERT_NE(it, rps.end()) << "no result for " << test << " in:\n" << output;
    EXPECT_GT(it->second, 0.0) << test << " in:\n" << output;
  }
  EXPECT_EQ(rps.size(), 6u) << output;
}

class RedisBenchmarkTest : public ::testing::TestWithParam<std::string> {};

TEST_P(RedisBenchmarkTest, CompletesWithPositiveThroughput) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  std::string output;
  const auto rps = Benchmark(server->port(), GetParam(), &output);
  ExpectAllTests(rps, output);
  // The benchmark's keys are there and the server still answers.
  auto c = server->Connect();
  Reply r(static_cast<redisReply*>(redisCommand(c.get(), "GET counter:__rand_int__")));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->type, REDIS_REPLY_STRING);
  EXPECT_EQ(std::string(r->str, r->len), "10000");
  // Every benchmark connection is gone once the server has seen the closes.
  std::string clients;
  for (int i = 0; i < 250; ++i) {
    Reply info(static_cast<redisReply*>(redisCommand(c.get(), "INFO clients")));
    ASSERT_TRUE(info);
    clients = std::string(info->str, info->len);
    if (clients.find("connected_clients:1\r\n") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_NE(clients.find("connected_clients:1\r\n"), std::string::npos) << clients;
}

INSTANTIATE_TEST_SUITE_P(Modes, RedisBenchmarkTest, ::testing::Values("", "-P 16"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return std::string(info.param.empty() ? "NoPipeline" : "Pipeline16");
                         });

}  // namespace
}  // namespace kv::test
