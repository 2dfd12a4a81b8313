// Differential tests of INFO's shape and COMMAND INFO: the same commands go to kvserver and to
// the real redis-server 7.0.15. INFO values differ by nature (memory, times, ids), so INFO is
// compared by its section headers and the names of the fields in each section; COMMAND INFO is
// compared byte for byte for every command and subcommand kvserver has.

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

// The elements of the RESP array at the front of `reply`, each as its raw bytes.
std::vector<std::string> Elements(std::string_view reply) {
  std::vector<std::string> out;
  const size_t header_end = reply.find("\r\n");
  const long n = std::stol(std::string(reply.substr(1, header_end - 1)));
  size_t pos = header_end + 2;
  for (long i = 0; i < n; ++i) {
    const auto len = FrameReply(reply.substr(pos));
    if (!len || *len == 0) break;
    out.emplace_back(reply.substr(pos, *len));
    pos += *len;
  }
  return out;
}

// The text of a bulk (or simple) string reply.
std::string StringOf(const std::string& reply) {
  const size_t start = reply.find("\r\n") + 2;
  return reply[0] == '+' ? reply.substr(1, reply.size() - 3)
                         : reply.substr(start, reply.size() - start - 2);
}

// COMMAND INFO of every command kvserver has is Redis's, byte for byte, in RESP2 and RESP3. For
// a container command (CLIENT, CONFIG, ...) kvserver has only some of the subcommands: the
// container's own fields are compared without its subcommand list, and each subcommand kvserver
// has on its own (COMMAND LIST names them).
TEST_F(InfoCommandDiffTest, CommandInfoOfEveryCommandMatchesRedis) {
  ASSERT_TRUE(kv_->Send(EncodeCommand({"COMMAND", "LIST"})));
  std::vector<std::string> names;
  for (const std::string& e : Elements(kv_->ReadReply().value_or("*0\r\n"))) {
    names.push_back(StringOf(e));
  }
  ASSERT_GT(names.size(), 50u);
  for (const std::string& name : names) {
    // Redis 7.2's CLIENT SETINFO and NO-TOUCH are unknown to Redis 7.0; KVFAULT is kvserver's.
    if (name == "client|setinfo" || name == "client|no-touch" || name.starts_with("kvfault")) {
      continue;
    }
    for (const char* proto : {"2", "3"}) {
      Both({"HELLO", proto});
      const auto [kv, redis] = Both({"COMMAND", "INFO", name});
      const std::vector<std::string> kv_info = Elements(Elements(kv).at(0));
      const std::vector<std::string> redis_info = Elements(Elements(redis).at(0));
      ASSERT_EQ(kv_info.size(), 10u) << name << " " << Escape(kv);
      ASSERT_EQ(redis_info.size(), 10u) << name << " " << Escape(redis);
      for (size_t i = 0; i < 9; ++i) {
        EXPECT_EQ(Escape(kv_info[i]), Escape(redis_info[i]))
            << name << " field " << i << " RESP" << proto;
      }
      // COMMAND LIST names the subcommands too: each is compared on its own.
      EXPECT_EQ(Elements(kv_info[9]).empty(), Elements(redis_info[9]).empty()) << name;
    }
  }
  Both({"HELLO", "2"});
  for (const char* name : {"copy", "rename", "renamenx"}) {
    const auto [kv, redis] = Both({"COMMAND", "GETKEYSANDFLAGS", name, "a", "b"});
    EXPECT_EQ(kv, redis) << name;
  }
}

}  // namespace
}  // namespace kv::test
