// Differential tests of INFO's shape: the same commands go to kvserver and to the real
// redis-server 7.0.15. INFO values differ by nature (memory, times, ids), so INFO is compared by
// its section headers and the names of the fields in each section. (COMMAND INFO and DOCS:
// command_docs_test.cc.)

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/resp_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

using Args = std::vector<std::string>;
// Section header ("Server") to the names of its fields, in order.
using Sections = std::vector<std::pair<std::string, std::vector<std::string>>>;

// The text of a bulk reply.
std::string BulkText(const std::string& reply) {
  const size_t start = reply.find("\r\n") + 2;
  return reply.substr(start, reply.size() - start - 2);
}

Sections ParseInfo(const std::string& text) {
  Sections sections;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find("\r\n", at);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(at, end - at);
    at = end + 2;
    if (line.empty()) continue;
    if (line.starts_with("# ")) {
      sections.emplace_back(line.substr(2), std::vector<std::string>{});
    } else if (!sections.empty()) {
      sections.back().second.push_back(line.substr(0, line.find(':')));
    }
  }
  return sections;
}

class InfoCommandDiffTest : public ConnectedBothServersTest<InfoCommandDiffTest> {};

TEST_F(InfoCommandDiffTest, InfoSectionsAndFieldNamesMatchRedis) {
  // The same history on both: statistics reset, then commands that succeed, fail and are
  // rejected, so that commandstats, errorstats and latencystats have lines.
  for (const Args& args : std::vector<Args>{{"FLUSHALL"},
                                            {"CONFIG", "RESETSTAT"},
                                            {"SET", "a", "1"},
                                            {"GET", "a"},
                                            {"SET", "t", "v", "EX", "100"},
                                            {"INCR", "t"},
                                            {"GET"},
                                            {"HELLO", "9"},
                                            {"CONFIG", "GET", "databases"},
                                            {"CLIENT", "ID"}}) {
    const auto [kv, redis] = Both(args);
    if (args[0] != "CLIENT") EXPECT_EQ(kv, redis) << args[0];
  }
  for (const Args& request : std::vector<Args>{{"INFO", "everything"},
                                               {"INFO"},
                                               {"INFO", "all"},
                                               {"INFO", "default", "commandstats"},
                                               {"INFO", "stats", "cpu"}}) {
    const auto [kv, redis] = Both(request);
    const Sections kv_sections = ParseInfo(BulkText(kv));
    const Sections redis_sections = ParseInfo(BulkText(redis));
    std::vector<std::string> kv_headers, redis_headers;
    for (const auto& s : kv_sections) kv_headers.push_back(s.first);
    for (const auto& s : redis_sections) redis_headers.push_back(s.first);
    EXPECT_EQ(kv_headers, redis_headers) << request.back();
    if (kv_headers != redis_headers) continue;
    for (size_t i = 0; i < kv_sections.size(); ++i) {
      std::vector<std::string> kv_fields = kv_sections[i].second;
      // kvserver's one addition: its own version, after redis_version.
      if (kv_sections[i].first == "Server") std::erase(kv_fields, "kvserver_version");
      std::vector<std::string> redis_fields = redis_sections[i].second;
      // Both list commands in their own order (Redis: its hash table's).
      if (kv_sections[i].first == "Commandstats" || kv_sections[i].first == "Latencystats") {
        std::sort(kv_fields.begin(), kv_fields.end());
        std::sort(redis_fields.begin(), redis_fields.end());
      }
      EXPECT_EQ(kv_fields, redis_fields) << "section " << kv_sections[i].first;
    }
  }
}

TEST_F(InfoCommandDiffTest, CommandStatsCountsMatchRedis) {
  for (const Args& args : std::vector<Args>{{"FLUSHALL"},
                                            {"CONFIG", "RESETSTAT"},
                                            {"SET", "a", "x"},
                                            {"INCR", "a"},
                                            {"INCR", "a"},
                                            {"GET"},
                                            {"GET", "a"},
                                            {"CONFIG"},
                                            {"CONFIG", "nosuch"},
                                            {"nosuch"},
                                            {"CLIENT", "PAUSE", "x"}}) {
    const auto [kv, redis] = Both(args);
    EXPECT_EQ(kv, redis) << args[0];
  }
  // Timings differ: compare each line without usec and usec_per_call.
  auto counts = [](const std::string& reply) {
    std::set<std::string> lines;
    const std::string text = BulkText(reply);
    size_t at = text.find("\r\n") + 2;
    while (at < text.size()) {
      const size_t end = text.find("\r\n", at);
      std::string line = text.substr(at, end - at);
      const size_t usec = line.find(",usec=");
      if (usec != std::string::npos) line.erase(usec, line.find(",rejected_calls=") - usec);
      lines.insert(line);
      at = end + 2;
    }
    return lines;
  };
  const auto [kv, redis] = Both({"INFO", "commandstats"});
  EXPECT_EQ(counts(kv), counts(redis));
  const auto [kv_errors, redis_errors] = Both({"INFO", "errorstats"});
  EXPECT_EQ(kv_errors, redis_errors);
}

}  // namespace
}  // namespace kv::test
