// COMMAND's introspection against the real redis-server 7.0.15: COMMAND INFO and COMMAND DOCS
// (what redis-cli's hints and HELP, GUI clients and client libraries read) of every command
// kvserver registers, byte for byte in RESP2 and RESP3; COMMAND, COMMAND COUNT and COMMAND LIST
// where they must agree; COMMAND GETKEYS and GETKEYSANDFLAGS.
//
// Redis lists subcommands in the order of a hash table seeded at random on every start, and a
// container (CLIENT, CONFIG, ...) has subcommands kvserver lacks; so a container's reply is
// compared with its subcommand list cut down to kvserver's and both sorted by name (each
// subcommand is also compared on its own, byte for byte). kvserver's own commands
// (tests/support/kvserver_only_commands.h) are left out.

#include "server/commands/command_docs.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/kvserver_only_commands.h"
#include "tests/support/resp_client.h"
#include "tests/support/resp_reply.h"

namespace kv::test {
namespace {

// The RESP bytes of `r` (the types COMMAND replies with).
std::string Encode(const RespReply& r) {
  using T = RespReply::Type;
  auto aggregate = [&](char type, size_t n) {
    std::string out = type + std::to_string(n) + "\r\n";
    for (const RespReply& e : r.elements) out += Encode(e);
    return out;
  };
  switch (r.type) {
    case T::kSimpleString:
      return "+" + r.str + "\r\n";
    case T::kError:
      return "-" + r.str + "\r\n";
    case T::kInteger:
      return ":" + std::to_string(r.integer) + "\r\n";
    case T::kBulkString:
      return "$" + std::to_string(r.str.size()) + "\r\n" + r.str + "\r\n";
    case T::kNullBulk:
      return "$-1\r\n";
    case T::kNullArray:
      return "*-1\r\n";
    case T::kNull:
      return "_\r\n";
    case T::kArray:
      return aggregate('*', r.elements.size());
    case T::kSet:
      return aggregate('~', r.elements.size());
    case T::kMap:
      return aggregate('%', r.elements.size() / 2);
    default:
      ADD_FAILURE() << "unexpected reply type " << TypeName(r.type);
      return {};
  }
}

std::set<std::string> Strings(const RespReply& list) {
  std::set<std::string> out;
  for (const RespReply& e : list.elements) out.insert(e.str);
  return out;
}

// Keeps, of a list of subcommand entries `count` elements long each (COMMAND INFO: 1, an info
// array; COMMAND DOCS: 2, a name and its docs), those kvserver has, sorted by name.
void NormalizeSubcommands(RespReply& list, size_t count, const std::set<std::string>& names) {
  auto name_of = [&](size_t i) {
    const RespReply& e = list.elements[i];
    return count == 1 ? e.elements.at(0).str : e.str;
  };
  std::vector<std::pair<std::string, std::vector<RespReply>>> entries;
  for (size_t i = 0; i + count <= list.elements.size(); i += count) {
    if (!names.contains(name_of(i))) continue;
    entries.emplace_back(name_of(i), std::vector<RespReply>(list.elements.begin() + i,
                                                            list.elements.begin() + i + count));
  }
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  list.elements.clear();
  for (auto& [name, elements] : entries) {
    for (RespReply& e : elements) list.elements.push_back(std::move(e));
  }
}

// One command's COMMAND INFO entry (an array of ten) or COMMAND DOCS entry (its docs map), with
// its subcommands normalized.
void NormalizeEntry(RespReply& entry, bool docs, const std::set<std::string>& names) {
  if (!docs) {
    if (entry.elements.size() == 10) NormalizeSubcommands(entry.elements[9], 1, names);
    return;
  }
  for (size_t i = 0; i + 1 < entry.elements.size(); i += 2) {
    if (entry.elements[i].str == "subcommands") {
      NormalizeSubcommands(entry.elements[i + 1], 2, names);
    }
  }
}

class CommandDocsDiffTest : public ConnectedBothServersTest<CommandDocsDiffTest> {
 protected:
  void SetUp() override {
    ConnectedBothServersTest::SetUp();
    if (HasFatalFailure()) return;
    const std::optional<RespReply> list = ParseReply(kv_->Call({"COMMAND", "LIST"}));
    ASSERT_TRUE(list.has_value());
    for (const std::string& name : Strings(*list)) {
      if (KvserverOnlyCommands().contains(name)) continue;
      names_.insert(name);
      if (name.find('|') != std::string::npos) containers_.insert(name.substr(0, name.find('|')));
    }
    ASSERT_GT(names_.size(), 100u);
  }

  // Sends `args` to both servers in RESP `proto` and compares the replies: byte for byte, or for
  // a container's entries (`containers`), normalized as above.
  void ExpectSame(const Args& args, const char* proto, bool docs, bool containers) {
    SCOPED_TRACE(DescribeArgs(args) + " RESP" + proto);
    Both({"HELLO", proto});
    const auto [kv, redis] = Both(args);
    if (!containers) {
      EXPECT_EQ(Escape(kv), Escape(redis));
      return;
    }
    std::optional<RespReply> kv_reply = ParseReply(kv);
    std::optional<RespReply> redis_reply = ParseReply(redis);
    ASSERT_TRUE(kv_reply && redis_reply) << Escape(kv) << "\n" << Escape(redis);
    ASSERT_EQ(Encode(*kv_reply), kv) << "Encode must give back the bytes it parsed";
    // COMMAND INFO: an array of entries; COMMAND DOCS: names and entries alternating.
    for (std::optional<RespReply>* reply : {&kv_reply, &redis_reply}) {
      std::vector<RespReply>& elements = (*reply)->elements;
      for (size_t i = docs ? 1 : 0; i < elements.size(); i += docs ? 2 : 1) {
        NormalizeEntry(elements[i], docs, names_);
      }
    }
    EXPECT_EQ(Escape(Encode(*kv_reply)), Escape(Encode(*redis_reply)));
  }

  std::set<std::string> names_;       // kvserver's commands and subcommands, its own left out
  std::set<std::string> containers_;  // those of names_ with subcommands
};

TEST_F(CommandDocsDiffTest, CommandInfoAndDocsOfEveryCommandMatchRedis) {
  for (const std::string& name : names_) {
    for (const char* proto : {"2", "3"}) {
      const bool container = containers_.contains(name);
      ExpectSame({"COMMAND", "INFO", name}, proto, false, container);
      ExpectSame({"COMMAND", "DOCS", name}, proto, true, container);
    }
  }
  // Several names at once, in any case, with unknown ones among them.
  for (const char* proto : {"2", "3"}) {
    ExpectSame({"COMMAND", "INFO", "GET", "nosuch", "config|GET", "Set"}, proto, false, false);
    ExpectSame({"COMMAND", "DOCS", "GET", "nosuch", "config|GET", "Set"}, proto, true, false);
  }
}

// COMMAND, COMMAND INFO and COMMAND DOCS without names: every entry kvserver gives is Redis's.
TEST_F(CommandDocsDiffTest, AllCommandsMatchRedis) {
  for (const char* proto : {"2", "3"}) {
    Both({"HELLO", proto});
    for (const Args& args :
         std::vector<Args>{{"COMMAND"}, {"COMMAND", "INFO"}, {"COMMAND", "DOCS"}}) {
      SCOPED_TRACE(DescribeArgs(args) + " RESP" + proto);
      const bool docs = args.size() == 2 && args[1] == "DOCS";
      const auto [kv, redis] = Both(args);
      std::optional<RespReply> kv_reply = ParseReply(kv);
      std::optional<RespReply> redis_reply = ParseReply(redis);
      ASSERT_TRUE(kv_reply && redis_reply);
      // Redis's entries by name.
      std::map<std::string, RespReply> redis_entries;
      const size_t step = docs ? 2 : 1;
      for (size_t i = 0; i < redis_reply->elements.size(); i += step) {
        RespReply entry = redis_reply->elements[i + step - 1];
        NormalizeEntry(entry, docs, names_);
        const std::string name = docs ? redis_reply->elements[i].str : entry.elements.at(0).str;
        redis_entries.emplace(name, std::move(entry));
      }
      size_t compared = 0;
      for (size_t i = 0; i < kv_reply->elements.size(); i += step) {
        RespReply entry = kv_reply->elements[i + step - 1];
        const std::string name = docs ? kv_reply->elements[i].str : entry.elements.at(0).str;
        if (KvserverOnlyCommands().contains(name)) continue;
        NormalizeEntry(entry, docs, names_);
        ASSERT_TRUE(redis_entries.contains(name)) << name;
        EXPECT_EQ(Escape(Encode(entry)), Escape(Encode(redis_entries[name]))) << name;
        ++compared;
      }
      EXPECT_EQ(compared, names_.size() -
                              std::count_if(names_.begin(), names_.end(), [](const std::string& n) {
                                return n.find('|') != std::string::npos;
                              }));
    }
  }
}

// COMMAND COUNT and COMMAND LIST: kvserver's are Redis's less the commands kvserver lacks (plus
// its own), and the generated table has exactly Redis's commands.
TEST_F(CommandDocsDiffTest, CommandCountAndListAreConsistentWithRedis) {
  const std::optional<RespReply> kv_list = ParseReply(kv_->Call({"COMMAND", "LIST"}));
  const std::optional<RespReply> redis_list = ParseReply(redis_conn_->Call({"COMMAND", "LIST"}));
  ASSERT_TRUE(kv_list && redis_list);
  const std::set<std::string> redis_names = Strings(*redis_list);
  for (const std::string& name : names_) EXPECT_TRUE(redis_names.contains(name)) << name;

  size_t kv_top = 0;
  for (const RespReply& name : kv_list->elements) kv_top += name.str.find('|') == std::string::npos;
  EXPECT_EQ(kv_->Call({"COMMAND", "COUNT"}), ":" + std::to_string(kv_top) + "\r\n");

  std::set<std::string> table_names;
  size_t table_top = 0;
  for (const CommandDoc& doc : AllCommandDocs()) {
    table_names.insert(std::string(doc.name));
    table_top += doc.name.find('|') == std::string_view::npos;
  }
  EXPECT_EQ(table_names, redis_names) << "the generated table has every Redis command, no more";
  EXPECT_EQ(redis_conn_->Call({"COMMAND", "COUNT"}), ":" + std::to_string(table_top) + "\r\n");

  // The filters select the same commands among those kvserver has.
  std::vector<Args> filters;
  const std::optional<RespReply> categories = ParseReply(redis_conn_->Call({"ACL", "CAT"}));
  ASSERT_TRUE(categories.has_value());
  for (const std::string& category : Strings(*categories)) {
    filters.push_back({"COMMAND", "LIST", "FILTERBY", "ACLCAT", category});
  }
  for (const char* pattern : {"*", "config|*", "client*", "*ttl", "?et", "[a-f]*", "nosuch"}) {
    filters.push_back({"COMMAND", "LIST", "FILTERBY", "PATTERN", pattern});
  }
  filters.push_back({"COMMAND", "LIST", "FILTERBY", "ACLCAT", "nosuch"});
  filters.push_back({"COMMAND", "LIST", "FILTERBY", "MODULE", "nosuch"});
  for (const Args& filter : filters) {
    SCOPED_TRACE(DescribeArgs(filter));
    const auto [kv, redis] = Both(filter);
    const std::optional<RespReply> kv_reply = ParseReply(kv);
    const std::optional<RespReply> redis_reply = ParseReply(redis);
    ASSERT_TRUE(kv_reply && redis_reply) << Escape(kv) << "\n" << Escape(redis);
    std::set<std::string> kv_selected, redis_selected;
    for (const std::string& name : Strings(*kv_reply)) {
      if (!KvserverOnlyCommands().contains(name)) kv_selected.insert(name);
    }
    for (const std::string& name : Strings(*redis_reply)) {
      if (names_.contains(name)) redis_selected.insert(name);
    }
    EXPECT_EQ(kv_selected, redis_selected);
  }
}

// COMMAND GETKEYS and GETKEYSANDFLAGS of a minimal command line of every command with keys, and
// of lines whose keys depend on the arguments.
TEST_F(CommandDocsDiffTest, GetKeysMatchesRedis) {
  std::vector<Args> lines;
  for (const std::string& name : names_) {
    const CommandDoc* doc = FindCommandDoc(name);
    ASSERT_NE(doc, nullptr) << name;
    if (doc->key_specs.empty()) continue;
    Args line;
    const size_t bar = name.find('|');
    line.push_back(name.substr(0, bar));
    if (bar != std::string::npos) line.push_back(name.substr(bar + 1));
    const size_t min_args = static_cast<size_t>(doc->arity < 0 ? -doc->arity : doc->arity);
    while (line.size() < min_args) line.push_back("a" + std::to_string(line.size()));
    lines.push_back(line);
    line.push_back("extra");
    lines.push_back(line);
  }
  for (const Args& line :
       std::vector<Args>{{"set", "k", "v", "GET"},
                         {"set", "k", "v", "EX", "1", "get"},
                         {"bitfield", "k", "GET", "u8", "0"},
                         {"bitfield", "k", "GET", "u8", "0", "SET", "u8", "0", "1"},
                         {"bitfield", "k", "OVERFLOW", "SAT", "GET", "u8", "0"},
                         {"mset", "a", "1", "b"},
                         {"mset", "a", "1", "b", "2"},
                         {"bitop", "and", "d", "s1", "s2"},
                         {"copy", "a", "b", "DB", "1"},
                         {"rename", "a", "b"},
                         {"renamenx", "a", "b"},
                         {"lcs", "a", "b", "LEN"},
                         {"nosuch", "a"},
                         {"ping"},
                         {"config", "get", "x"},
                         {"get", "a", "b"},
                         {"migrate", "h", "1", "k", "0", "5"},
                         {"migrate", "h", "1", "", "0", "5", "keys", "a", "b"},
                         {"migrate", "h", "1", "k", "0", "5", "keys", "a"},
                         {"migrate", "h", "1", "", "0", "5", "keys"},
                         {"migrate", "h", "1", "", "0", "5", "auth2", "u", "keys", "keys", "a"},
                         {"migrate", "h", "1", "", "0", "5", "COPY", "auth", "keys", "KEYS", "b"},
                         {"migrate", "h", "1", "k", "0", "5", "replace", "auth", "p"}}) {
    lines.push_back(line);
  }
  for (const char* proto : {"2", "3"}) {
    for (Args line : lines) {
      for (const char* sub : {"GETKEYS", "GETKEYSANDFLAGS"}) {
        line.insert(line.begin(), {"COMMAND", sub});
        ExpectSame(line, proto, false, false);
        line.erase(line.begin(), line.begin() + 2);
      }
    }
  }
}

}  // namespace
}  // namespace kv::test
