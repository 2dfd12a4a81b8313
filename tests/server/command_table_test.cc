// Every registered command against Redis 7.0.15's command table (server/commands/command_docs.inc,
// generated from Redis's own command JSON): arity, flags, key positions and ACL categories are
// what COMMAND INFO reports and what clients, cluster proxies and ACL rules rely on, so a family's
// registration must say what Redis says. The registry is what kvserver does (the dispatcher acts on
// its flags); this test is what keeps it Redis's.

#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "server/command_registry.h"
#include "server/commands/command_docs.h"
#include "tests/support/command_harness.h"
#include "tests/support/kvserver_only_commands.h"
#include "tests/support/resp_reply.h"

namespace kv::test {
namespace {

std::string Join(const RespReply& list) {
  std::string out;
  for (const RespReply& e : list.elements) out += (out.empty() ? "" : " ") + e.str;
  return out;
}

class CommandTableTest : public ::testing::Test {
 protected:
  CommandHarness h;

  std::vector<const CommandSpec*> AllRegistered() {
    std::vector<const CommandSpec*> specs;
    for (const CommandSpec* spec : h.state().registry->All()) {
      specs.push_back(spec);
      for (const CommandSpec& sub : spec->subcommands) specs.push_back(&sub);
    }
    return specs;
  }
};

TEST_F(CommandTableTest, RegistrationsAgreeWithRedis) {
  for (const CommandSpec* spec : AllRegistered()) {
    const std::string name = FullName(*spec);
    SCOPED_TRACE(name);
    const CommandDoc* doc = FindCommandDoc(name);
    if (KvserverOnlyCommands().contains(name)) {
      EXPECT_EQ(doc, nullptr) << "Redis has it: take it off the kvserver-only list";
      continue;
    }
    ASSERT_NE(doc, nullptr)
        << "not a Redis 7.0.15 command: list it in KvserverOnlyCommands with a reason";
    // What COMMAND INFO shows is the registry's; compare that with Redis's table.
    const std::optional<RespReply> reply = ParseReply(h.Run({"COMMAND", "INFO", name}));
    ASSERT_TRUE(reply && reply->elements.size() == 1);
    const RespReply& info = reply->elements[0];
    ASSERT_EQ(info.elements.size(), 10u);
    EXPECT_EQ(info.elements[1].integer, doc->arity) << "arity";
    EXPECT_EQ(Join(info.elements[2]), doc->flags) << "flags";
    EXPECT_EQ(info.elements[3].integer, doc->first_key) << "first key";
    EXPECT_EQ(info.elements[4].integer, doc->last_key) << "last key";
    EXPECT_EQ(info.elements[5].integer, doc->key_step) << "key step";
    EXPECT_EQ(Join(info.elements[6]), doc->acl_categories) << "ACL categories";
    // The registration's own docs (kept for kvserver-only commands) must not drift either.
    EXPECT_EQ(spec->summary, doc->summary);
    EXPECT_EQ(spec->since, doc->since);
    EXPECT_EQ(spec->group, doc->group);
  }
}

TEST_F(CommandTableTest, ContainersAreRegisteredAsContainers) {
  for (const CommandSpec* spec : AllRegistered()) {
    if (!spec->parent.empty() || KvserverOnlyCommands().contains(std::string(spec->name))) continue;
    const std::string prefix = std::string(spec->name) + "|";
    bool redis_container = false;
    for (const CommandDoc& doc : AllCommandDocs()) {
      redis_container = redis_container || doc.name.starts_with(prefix);
    }
    EXPECT_EQ(!spec->subcommands.empty(), redis_container) << spec->name;
  }
}

// FindCommandDoc searches by halves: the generated table must be sorted, each name once, and
// every subcommand's container must be there.
TEST_F(CommandTableTest, GeneratedTableIsSortedAndComplete) {
  const std::span<const CommandDoc> docs = AllCommandDocs();
  ASSERT_FALSE(docs.empty());
  std::set<std::string_view> names;
  for (size_t i = 0; i < docs.size(); ++i) {
    SCOPED_TRACE(docs[i].name);
    if (i > 0) {
      EXPECT_LT(docs[i - 1].name, docs[i].name);
    }
    names.insert(docs[i].name);
    EXPECT_EQ(FindCommandDoc(docs[i].name), &docs[i]);
    const size_t bar = docs[i].name.find('|');
    if (bar != std::string_view::npos) {
      EXPECT_TRUE(names.contains(docs[i].name.substr(0, bar))) << "container";
    }
    EXPECT_FALSE(docs[i].summary.empty());
    EXPECT_FALSE(docs[i].group.empty());
    for (const ArgDoc& arg : docs[i].args) {
      EXPECT_LT(arg.key_spec_index, static_cast<int>(docs[i].key_specs.size())) << arg.name;
    }
  }
  EXPECT_EQ(FindCommandDoc("nosuch"), nullptr);
  EXPECT_EQ(FindCommandDoc("GET"), nullptr) << "names are lower case";
  EXPECT_EQ(FindCommandDoc("sentinel"), nullptr) << "sentinel-only commands are left out";
}

}  // namespace
}  // namespace kv::test
