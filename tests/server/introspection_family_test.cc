// COMMAND, COMMAND COUNT/INFO/DOCS/LIST/HELP/GETKEYS/GETKEYSANDFLAGS through the real dispatcher,
// plus checks over the whole command table. Exact replies are Redis 7.0.15's for the same command
// (Redis lists commands in hash order; kvserver sorts them, so lists are compared as kvserver
// orders them).

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "server/command_registry.h"
#include "server/commands/command_docs.h"
#include "server/strings.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

// A parsed RESP reply, enough to look inside COMMAND's nested arrays.
struct Reply {
  char type = 0;
  std::string str;
  int64_t num = 0;
  std::vector<Reply> elems;
};

Reply Parse(std::string_view& in) {
  Reply r;
  r.type = in[0];
  const size_t eol = in.find("\r\n");
  const std::string line(in.substr(1, eol - 1));
  in.remove_prefix(eol + 2);
  switch (r.type) {
    case '+':
    case '-':
      r.str = line;
      break;
    case ':':
      r.num = std::stoll(line);
      break;
    case '$':
      r.num = std::stoll(line);
      if (r.num >= 0) {
        r.str = std::string(in.substr(0, r.num));
        in.remove_prefix(r.num + 2);
      }
      break;
    case '*':
    case '~':
    case '%':
      r.num = std::stoll(line);
      for (int64_t i = 0; i < r.num * (r.type == '%' ? 2 : 1); ++i) r.elems.push_back(Parse(in));
      break;
    case '_':
      break;
    default:
      ADD_FAILURE() << "unexpected RESP type " << r.type;
  }
  return r;
}

Reply ParseAll(const std::string& bytes) {
  std::string_view in = bytes;
  Reply r = Parse(in);
  EXPECT_TRUE(in.empty()) << "trailing bytes: " << in;
  return r;
}

// The key specification part of COMMAND INFO for a one-range command.
std::string KeySpec(std::string_view flags, int first, int lastkey, int step,
                    std::string_view notes = {}) {
  std::string out = notes.empty() ? "*1\r\n*6\r\n" : "*1\r\n*8\r\n$5\r\nnotes\r\n" + Bulk(notes);
  const std::vector<std::string_view> words = SplitWords(flags);
  out += "$5\r\nflags\r\n*" + std::to_string(words.size()) + "\r\n";
  for (std::string_view w : words) out += "+" + std::string(w) + "\r\n";
  out +=
      "$12\r\nbegin_search\r\n*4\r\n$4\r\ntype\r\n$5\r\nindex\r\n$4\r\nspec\r\n*2\r\n$"
      "5\r\nindex\r\n:" +
      std::to_string(first) +
      "\r\n$9\r\nfind_keys\r\n*4\r\n$4\r\ntype\r\n$5\r\nrange\r\n$4\r\nspec\r\n*6\r\n$"
      "7\r\nlastkey\r\n:" +
      std::to_string(lastkey) + "\r\n$7\r\nkeystep\r\n:" + std::to_string(step) +
      "\r\n$5\r\nlimit\r\n:0\r\n";
  return out;
}

class IntrospectionTest : public ::testing::Test {
 protected:
  CommandHarness h;
  const CommandRegistry& registry() { return *h.state().registry; }
};

TEST_F(IntrospectionTest, CommandCountIsTheRegistrySize) {
  EXPECT_EQ(h.Run({"COMMAND", "COUNT"}), ":" + std::to_string(registry().size()) + "\r\n");
  EXPECT_EQ(registry().size(), registry().All().size());
  EXPECT_GE(registry().size(), 26u);
}

TEST_F(IntrospectionTest, CommandListsEveryCommandOnce) {
  const Reply all = ParseAll(h.Run({"COMMAND"}));
  ASSERT_EQ(all.type, '*');
  EXPECT_EQ(all.elems.size(), registry().size());
  std::set<std::string> names;
  for (const Reply& info : all.elems) {
    ASSERT_EQ(info.elems.size(), 10u);
    EXPECT_TRUE(names.insert(info.elems[0].str).second) << info.elems[0].str;
    EXPECT_NE(registry().Find(info.elems[0].str), nullptr) << info.elems[0].str;
  }
  EXPECT_EQ(h.Run({"COMMAND", "INFO"}), h.Run({"COMMAND"}));
}

TEST_F(IntrospectionTest, CommandInfoGet) {
  EXPECT_EQ(h.Run({"COMMAND", "INFO", "get"}),
            "*1\r\n*10\r\n$3\r\nget\r\n:2\r\n*2\r\n+readonly\r\n+fast\r\n:1\r\n:1\r\n:1\r\n*3\r\n+@"
            "read\r\n+@string\r\n+@fast\r\n*0\r\n" +
                KeySpec("RO access", 1, 0, 1) + "*0\r\n");
  EXPECT_EQ(h.Run({"COMMAND", "INFO", "GET"}), h.Run({"COMMAND", "INFO", "get"}));
}

TEST_F(IntrospectionTest, CommandInfoSetHasNotes) {
  EXPECT_EQ(
      h.Run({"COMMAND", "INFO", "set"}),
      "*1\r\n*10\r\n$3\r\nset\r\n:-3\r\n*2\r\n+write\r\n+denyoom\r\n:1\r\n:1\r\n:1\r\n*3\r\n+@"
      "write\r\n+@string\r\n+@slow\r\n*0\r\n" +
          KeySpec("RW access update variable_flags", 1, 0, 1,
                  "RW and ACCESS due to the optional `GET` argument") +
          "*0\r\n");
}

TEST_F(IntrospectionTest, CommandInfoMsetHasTipsAndAStep) {
  EXPECT_EQ(
      h.Run({"COMMAND", "INFO", "mset"}),
      "*1\r\n*10\r\n$4\r\nmset\r\n:-3\r\n*2\r\n+write\r\n+denyoom\r\n:1\r\n:-1\r\n:2\r\n*3\r\n+@"
      "write\r\n+@string\r\n+@slow\r\n*2\r\n$26\r\nrequest_policy:multi_shard\r\n$29\r\n"
      "response_policy:all_succeeded\r\n" +
          KeySpec("OW update", 1, -1, 2) + "*0\r\n");
}

TEST_F(IntrospectionTest, CommandInfoKeylessCommand) {
  EXPECT_EQ(h.Run({"COMMAND", "INFO", "ping"}),
            "*1\r\n*10\r\n$4\r\nping\r\n:-1\r\n*1\r\n+fast\r\n:0\r\n:0\r\n:0\r\n*2\r\n+@fast\r\n+@"
            "connection\r\n*2\r\n$25\r\nrequest_policy:all_shards\r\n$29\r\nresponse_policy:all_"
            "succeeded\r\n*0\r\n*0\r\n");
  EXPECT_EQ(h.Run({"COMMAND", "INFO", "quit"}),
            "*1\r\n*10\r\n$4\r\nquit\r\n:-1\r\n*6\r\n+noscript\r\n+loading\r\n+stale\r\n+fast\r\n+"
            "no_auth\r\n+allow_busy\r\n:0\r\n:0\r\n:0\r\n*2\r\n+@fast\r\n+@connection\r\n*0\r\n*"
            "0\r\n*0\r\n");
}

TEST_F(IntrospectionTest, CommandInfoSubcommand) {
  const std::string expected =
      "*1\r\n*10\r\n$10\r\nconfig|get\r\n:-3\r\n*4\r\n+admin\r\n+noscript\r\n+loading\r\n+"
      "stale\r\n:0\r\n:0\r\n:0\r\n*3\r\n+@admin\r\n+@slow\r\n+@dangerous\r\n*0\r\n*0\r\n*0\r\n";
  EXPECT_EQ(h.Run({"COMMAND", "INFO", "config|get"}), expected);
  EXPECT_EQ(h.Run({"COMMAND", "INFO", "CONFIG|GET"}), expected);
}

TEST_F(IntrospectionTest, CommandInfoUnknownIsNull) {
  EXPECT_EQ(h.Run({"COMMAND", "INFO", "nosuch"}), "*1\r\n$-1\r\n");
  for (const char* name : {"config|", "|get", "get|x", "config|get|x", "config|nosuch", ""}) {
    EXPECT_EQ(h.Run({"COMMAND", "INFO", name}), "*1\r\n$-1\r\n") << name;
  }
  const Reply two = ParseAll(h.Run({"COMMAND", "INFO", "get", "nosuch"}));
  ASSERT_EQ(two.elems.size(), 2u);
  EXPECT_EQ(two.elems[0].elems[0].str, "get");
  EXPECT_EQ(two.elems[1].type, '$');
  EXPECT_EQ(two.elems[1].num, -1);
  h.conn().protocol = 3;
  EXPECT_EQ(h.Run({"COMMAND", "INFO", "nosuch"}), "*1\r\n_\r\n");
}

TEST_F(IntrospectionTest, CommandInfoResp3UsesSetsAndMaps) {
  h.conn().protocol = 3;
  EXPECT_EQ(h.Run({"COMMAND", "INFO", "get"}),
            "*1\r\n*10\r\n$3\r\nget\r\n:2\r\n~2\r\n+readonly\r\n+fast\r\n:1\r\n:1\r\n:1\r\n~3\r\n+@"
            "read\r\n+@string\r\n+@fast\r\n~0\r\n~1\r\n%3\r\n$5\r\nflags\r\n~2\r\n+RO\r\n+"
            "access\r\n$12\r\nbegin_search\r\n%2\r\n$4\r\ntype\r\n$5\r\nindex\r\n$4\r\nspec\r\n%"
            "1\r\n$5\r\nindex\r\n:1\r\n$9\r\nfind_keys\r\n%2\r\n$4\r\ntype\r\n$5\r\nrange\r\n$"
            "4\r\nspec\r\n%3\r\n$7\r\nlastkey\r\n:0\r\n$7\r\nkeystep\r\n:1\r\n$5\r\nlimit\r\n:"
            "0\r\n~0\r\n");
}

TEST_F(IntrospectionTest, CommandInfoContainerListsItsSubcommands) {
  const Reply config = ParseAll(h.Run({"COMMAND", "INFO", "config"}));
  ASSERT_EQ(config.elems.size(), 1u);
  const Reply& info = config.elems[0];
  ASSERT_EQ(info.elems.size(), 10u);
  EXPECT_EQ(info.elems[0].str, "config");
  EXPECT_EQ(info.elems[1].num, -2);
  EXPECT_TRUE(info.elems[2].elems.empty()) << "a container has no flags";
  std::set<std::string> subs;
  for (const Reply& sub : info.elems[9].elems) {
    ASSERT_EQ(sub.elems.size(), 10u);
    subs.insert(sub.elems[0].str);
    EXPECT_TRUE(sub.elems[9].elems.empty());
  }
  EXPECT_EQ(subs, (std::set<std::string>{"config|get", "config|set", "config|resetstat",
                                         "config|rewrite", "config|help"}));
}

// Every command and subcommand: the fields of COMMAND INFO agree with the table, and the key
// positions make sense for the arity.
TEST_F(IntrospectionTest, EveryCommandHasSaneKeyPositions) {
  std::vector<const CommandSpec*> specs;
  for (const CommandSpec* spec : registry().All()) {
    specs.push_back(spec);
    for (const CommandSpec& sub : spec->subcommands) specs.push_back(&sub);
  }
  for (const CommandSpec* spec : specs) {
    const std::string full = spec->parent.empty()
                                 ? std::string(spec->name)
                                 : std::string(spec->parent) + "|" + std::string(spec->name);
    SCOPED_TRACE(full);
    EXPECT_EQ(ToLower(spec->name), spec->name);
    EXPECT_NE(spec->arity, 0);
    EXPECT_NE(spec->handler, nullptr);
    EXPECT_FALSE(spec->summary.empty());
    EXPECT_FALSE(spec->since.empty());
    EXPECT_FALSE(spec->group.empty());
    EXPECT_FALSE((spec->flags & kCmdWrite) && (spec->flags & kCmdReadOnly));
    const size_t min_args = static_cast<size_t>(spec->arity < 0 ? -spec->arity : spec->arity);
    if (!spec->parent.empty()) {
      EXPECT_GE(min_args, 2u) << "name and subcommand";
    }
    if (spec->first_key == 0) {
      EXPECT_EQ(spec->last_key, 0);
      EXPECT_EQ(spec->key_step, 0);
    } else {
      EXPECT_GE(spec->first_key, 1);
      EXPECT_GE(spec->key_step, 1);
      // The first key is always present in a command line of the minimum length (SUNSUBSCRIBE's
      // shard channels, keys for cluster routing, are optional).
      if (full != "sunsubscribe") EXPECT_LT(static_cast<size_t>(spec->first_key), min_args);
      if (spec->last_key < 0) {
        // -1: up to the last argument; -2: the one before (BLPOP's or BZPOPMIN's keys, then the
        // timeout).
        EXPECT_GE(spec->last_key, -2);
        EXPECT_LT(spec->arity, 0) << "a key list to the end needs a variable arity";
      } else {
        EXPECT_GE(spec->last_key, spec->first_key);
        EXPECT_LT(static_cast<size_t>(spec->last_key), min_args);
        EXPECT_EQ((spec->last_key - spec->first_key) % spec->key_step, 0);
      }
      // Readonly commands read; the others write; except, as in Redis, WATCH and the shard
      // channel commands, whose keys are neither read nor written.
      if (full != "watch" && !(spec->flags & kCmdPubSub)) {
        EXPECT_TRUE(spec->flags & (kCmdReadOnly | kCmdWrite));
      }
    }

    const Reply reply = ParseAll(h.Run({"COMMAND", "INFO", full}));
    ASSERT_EQ(reply.elems.size(), 1u);
    const Reply& info = reply.elems[0];
    ASSERT_EQ(info.type, '*');
    ASSERT_EQ(info.elems.size(), 10u);
    EXPECT_EQ(info.elems[0].str, full);
    EXPECT_EQ(info.elems[1].num, spec->arity);
    EXPECT_EQ(info.elems[3].num, spec->first_key);
    EXPECT_EQ(info.elems[4].num, spec->last_key);
    EXPECT_EQ(info.elems[5].num, spec->key_step);
    for (const Reply& cat : info.elems[6].elems) EXPECT_EQ(cat.str.substr(0, 1), "@");
    // The key specifications are Redis's: one per way the command uses keys (BITOP's
    // destination and sources are two), one for keys after a count (ZUNION's, no first key).
    // kvserver's own commands (KVFAULT) have at most one.
    const CommandDoc* doc = FindCommandDoc(full);
    EXPECT_EQ(info.elems[8].elems.size(),
              doc != nullptr ? doc->key_specs.size() : (spec->first_key == 0 ? 0u : 1u));
    EXPECT_EQ(info.elems[9].elems.size(), spec->subcommands.size());

    // COMMAND GETKEYS on a minimal command line names exactly the key positions.
    // (Commands whose keys follow a count need a real count: not this check.)
    // (Nor commands with a key specification beginning past that line, PFMERGE's sources: Redis
    // then calls the whole line invalid.)
    // (Shard channels are keys flagged NOT_KEY, which COMMAND GETKEYS leaves out, as Redis.)
    const bool specs_in_line =
        doc == nullptr ||
        std::all_of(doc->key_specs.begin(), doc->key_specs.end(), [&](const KeySpecDoc& ks) {
          return ks.search != KeySearch::kIndex || static_cast<size_t>(ks.search_pos) < min_args;
        });
    if (spec->first_key != 0 && spec->parent.empty() && (spec->flags & kCmdMovableKeys) == 0 &&
        specs_in_line && !(spec->flags & kCmdPubSub)) {
      std::vector<std::string> line = {"COMMAND", "GETKEYS", full};
      for (size_t i = 1; i < min_args; ++i) line.push_back("a" + std::to_string(i));
      std::string expected;
      size_t count = 0;
      const int last =
          spec->last_key < 0 ? static_cast<int>(min_args) + spec->last_key : spec->last_key;
      for (int i = spec->first_key; i <= last; i += spec->key_step) {
        expected += Bulk("a" + std::to_string(i));
        ++count;
      }
      EXPECT_EQ(h.Run(line), "*" + std::to_string(count) + "\r\n" + expected) << full;
    }
  }
}

TEST_F(IntrospectionTest, CommandDocs) {
  EXPECT_EQ(h.Run({"COMMAND", "DOCS", "get"}),
            "*2\r\n$3\r\nget\r\n*10\r\n$7\r\nsummary\r\n$22\r\nGet the value of a key\r\n$5\r\n"
            "since\r\n$5\r\n1.0.0\r\n$5\r\ngroup\r\n$6\r\nstring\r\n$10\r\ncomplexity\r\n$4\r\n"
            "O(1)\r\n$9\r\narguments\r\n*1\r\n*6\r\n$4\r\nname\r\n$3\r\nkey\r\n$4\r\ntype\r\n$3\r\n"
            "key\r\n$14\r\nkey_spec_index\r\n:0\r\n");
  EXPECT_EQ(h.Run({"COMMAND", "DOCS", "config|help"}),
            "*2\r\n$11\r\nconfig|help\r\n*8\r\n$7\r\nsummary\r\n$49\r\n"
            "Show helpful text about the different subcommands\r\n$5\r\nsince\r\n$5\r\n5.0.0\r\n"
            "$5\r\ngroup\r\n$6\r\nserver\r\n$10\r\ncomplexity\r\n$4\r\nO(1)\r\n");
  EXPECT_EQ(h.Run({"COMMAND", "DOCS", "nosuch"}), "*0\r\n");
  h.conn().protocol = 3;
  EXPECT_EQ(h.Run({"COMMAND", "DOCS", "nosuch"}), "%0\r\n");
}

TEST_F(IntrospectionTest, CommandDocsHistory) {
  EXPECT_EQ(
      h.Run({"COMMAND", "DOCS", "ttl"}),
      "*2\r\n$3\r\nttl\r\n*12\r\n$7\r\nsummary\r\n$41\r\n"
      "Get the time to live for a key in seconds\r\n$5\r\nsince\r\n$5\r\n1.0.0\r\n$5\r\n"
      "group\r\n$7\r\ngeneric\r\n$10\r\ncomplexity\r\n$4\r\nO(1)\r\n$7\r\nhistory\r\n*1\r\n"
      "*2\r\n$5\r\n2.8.0\r\n$19\r\nAdded the -2 reply.\r\n$9\r\narguments\r\n*1\r\n*6\r\n$4\r\n"
      "name\r\n$3\r\nkey\r\n$4\r\ntype\r\n$3\r\nkey\r\n$14\r\nkey_spec_index\r\n:0\r\n");
}

TEST_F(IntrospectionTest, CommandDocsNestedArgumentsInResp3) {
  h.conn().protocol = 3;
  EXPECT_EQ(
      h.Run({"COMMAND", "DOCS", "set"}),
      "%1\r\n$3\r\nset\r\n%6\r\n$7\r\nsummary\r\n$29\r\nSet the string value of a key\r\n$5\r\n"
      "since\r\n$5\r\n1.0.0\r\n$5\r\ngroup\r\n$6\r\nstring\r\n$10\r\ncomplexity\r\n$4\r\n"
      "O(1)\r\n$7\r\nhistory\r\n~4\r\n*2\r\n$6\r\n2.6.12\r\n$44\r\n"
      "Added the `EX`, `PX`, `NX` and `XX` options.\r\n*2\r\n$5\r\n6.0.0\r\n$27\r\n"
      "Added the `KEEPTTL` option.\r\n*2\r\n$5\r\n6.2.0\r\n$42\r\n"
      "Added the `GET`, `EXAT` and `PXAT` option.\r\n*2\r\n$5\r\n7.0.0\r\n$55\r\n"
      "Allowed the `NX` and `GET` options to be used together.\r\n$9\r\narguments\r\n*5\r\n"
      "%3\r\n$4\r\nname\r\n$3\r\nkey\r\n$4\r\ntype\r\n$3\r\nkey\r\n$14\r\nkey_spec_index\r\n"
      ":0\r\n%2\r\n$4\r\nname\r\n$5\r\nvalue\r\n$4\r\ntype\r\n$6\r\nstring\r\n%5\r\n$4\r\n"
      "name\r\n$9\r\ncondition\r\n$4\r\ntype\r\n$5\r\noneof\r\n$5\r\nsince\r\n$6\r\n2.6.12\r\n"
      "$5\r\nflags\r\n~1\r\n+optional\r\n$9\r\narguments\r\n*2\r\n%3\r\n$4\r\nname\r\n$2\r\n"
      "nx\r\n$4\r\ntype\r\n$10\r\npure-token\r\n$5\r\ntoken\r\n$2\r\nNX\r\n%3\r\n$4\r\nname\r\n"
      "$2\r\nxx\r\n$4\r\ntype\r\n$10\r\npure-token\r\n$5\r\ntoken\r\n$2\r\nXX\r\n%5\r\n$4\r\n"
      "name\r\n$3\r\nget\r\n$4\r\ntype\r\n$10\r\npure-token\r\n$5\r\ntoken\r\n$3\r\nGET\r\n"
      "$5\r\nsince\r\n$5\r\n6.2.0\r\n$5\r\nflags\r\n~1\r\n+optional\r\n%4\r\n$4\r\nname\r\n"
      "$10\r\nexpiration\r\n$4\r\ntype\r\n$5\r\noneof\r\n$5\r\nflags\r\n~1\r\n+optional\r\n"
      "$9\r\narguments\r\n*5\r\n%4\r\n$4\r\nname\r\n$7\r\nseconds\r\n$4\r\ntype\r\n$7\r\n"
      "integer\r\n$5\r\ntoken\r\n$2\r\nEX\r\n$5\r\nsince\r\n$6\r\n2.6.12\r\n%4\r\n$4\r\n"
      "name\r\n$12\r\nmilliseconds\r\n$4\r\ntype\r\n$7\r\ninteger\r\n$5\r\ntoken\r\n$2\r\n"
      "PX\r\n$5\r\nsince\r\n$6\r\n2.6.12\r\n%4\r\n$4\r\nname\r\n$17\r\nunix-time-seconds\r\n"
      "$4\r\ntype\r\n$9\r\nunix-time\r\n$5\r\ntoken\r\n$4\r\nEXAT\r\n$5\r\nsince\r\n$5\r\n"
      "6.2.0\r\n%4\r\n$4\r\nname\r\n$22\r\nunix-time-milliseconds\r\n$4\r\ntype\r\n$9\r\n"
      "unix-time\r\n$5\r\ntoken\r\n$4\r\nPXAT\r\n$5\r\nsince\r\n$5\r\n6.2.0\r\n%4\r\n$4\r\n"
      "name\r\n$7\r\nkeepttl\r\n$4\r\ntype\r\n$10\r\npure-token\r\n$5\r\ntoken\r\n$7\r\n"
      "KEEPTTL\r\n$5\r\nsince\r\n$5\r\n6.0.0\r\n");
}

// A command Redis does not have (KVFAULT is kvserver's) is documented by its registration: no
// complexity, arguments, tips or key specifications.
TEST_F(IntrospectionTest, KvserverOnlyCommandsAreDocumentedByTheirRegistration) {
  const CommandSpec* spec = CommandRegistry::FindSubcommand(*registry().Find("kvfault"), "clear");
  ASSERT_NE(spec, nullptr);
  EXPECT_EQ(h.Run({"COMMAND", "DOCS", "kvfault|clear"}),
            "*2\r\n" + Bulk("kvfault|clear") + "*6\r\n" + Bulk("summary") + Bulk(spec->summary) +
                Bulk("since") + Bulk(spec->since) + Bulk("group") + Bulk(spec->group));
  const Reply info = ParseAll(h.Run({"COMMAND", "INFO", "kvfault|clear"}));
  ASSERT_EQ(info.elems.size(), 1u);
  ASSERT_EQ(info.elems[0].elems.size(), 10u);
  EXPECT_TRUE(info.elems[0].elems[7].elems.empty()) << "tips";
  EXPECT_TRUE(info.elems[0].elems[8].elems.empty()) << "key specifications";
  EXPECT_EQ(h.Run({"COMMAND", "GETKEYS", "kvfault", "clear"}),
            Err("The command has no key arguments"));
}

TEST_F(IntrospectionTest, CommandDocsSkipsUnknownAndRepeats) {
  const Reply docs = ParseAll(h.Run({"COMMAND", "DOCS", "get", "nosuch", "GET"}));
  ASSERT_EQ(docs.elems.size(), 4u);
  EXPECT_EQ(docs.elems[0].str, "get");
  EXPECT_EQ(docs.elems[2].str, "get");
  const Reply all = ParseAll(h.Run({"COMMAND", "DOCS"}));
  EXPECT_EQ(all.elems.size(), 2 * registry().size());
}

TEST_F(IntrospectionTest, CommandDocsContainer) {
  const Reply docs = ParseAll(h.Run({"COMMAND", "DOCS", "config"}));
  ASSERT_EQ(docs.elems.size(), 2u);
  const Reply& map = docs.elems[1];
  ASSERT_EQ(map.elems.size(), 10u);
  EXPECT_EQ(map.elems[0].str, "summary");
  EXPECT_EQ(map.elems[1].str, "A container for server configuration commands");
  EXPECT_EQ(map.elems[7].str, "Depends on subcommand.");
  EXPECT_EQ(map.elems[8].str, "subcommands");
  EXPECT_EQ(map.elems[9].elems.size(), 10u) << "five subcommands, each with its docs";
}

TEST_F(IntrospectionTest, CommandListIncludesSubcommands) {
  const Reply list = ParseAll(h.Run({"COMMAND", "LIST"}));
  std::set<std::string> names;
  for (const Reply& name : list.elems) EXPECT_TRUE(names.insert(name.str).second) << name.str;
  size_t expected = 0;
  for (const CommandSpec* spec : registry().All()) expected += 1 + spec->subcommands.size();
  EXPECT_EQ(names.size(), expected);
  EXPECT_TRUE(names.contains("config|get"));
  EXPECT_TRUE(names.contains("command|getkeysandflags"));
  EXPECT_TRUE(names.contains("get"));
}

TEST_F(IntrospectionTest, CommandListFilters) {
  EXPECT_EQ(h.Run({"COMMAND", "LIST", "FILTERBY", "PATTERN", "CONFIG|[gs]et"}),
            "*2\r\n" + Bulk("config|get") + Bulk("config|set"));
  EXPECT_EQ(h.Run({"command", "list", "filterby", "pattern", "p*ttl"}), "*1\r\n" + Bulk("pttl"));
  EXPECT_EQ(h.Run({"COMMAND", "LIST", "FILTERBY", "ACLCAT", "DANGEROUS"}),
            "*60\r\n" + Bulk("bgrewriteaof") + Bulk("bgsave") + Bulk("client|kill") +
                Bulk("client|list") + Bulk("client|no-evict") + Bulk("client|pause") +
                Bulk("client|unblock") + Bulk("client|unpause") + Bulk("cluster|addslots") +
                Bulk("cluster|addslotsrange") + Bulk("cluster|bumpepoch") +
                Bulk("cluster|count-failure-reports") + Bulk("cluster|delslots") +
                Bulk("cluster|delslotsrange") + Bulk("cluster|failover") +
                Bulk("cluster|flushslots") + Bulk("cluster|forget") + Bulk("cluster|meet") +
                Bulk("cluster|replicas") + Bulk("cluster|replicate") + Bulk("cluster|reset") +
                Bulk("cluster|saveconfig") + Bulk("cluster|set-config-epoch") +
                Bulk("cluster|setslot") + Bulk("cluster|slaves") + Bulk("config|get") +
                Bulk("config|set") + Bulk("config|resetstat") + Bulk("config|rewrite") +
                Bulk("debug") + Bulk("flushall") + Bulk("flushdb") + Bulk("info") + Bulk("keys") +
                Bulk("kvfault|error") + Bulk("kvfault|delay") + Bulk("kvfault|drop") +
                Bulk("kvfault|clear") + Bulk("lastsave") + Bulk("latency|doctor") +
                Bulk("latency|graph") + Bulk("latency|histogram") + Bulk("latency|history") +
                Bulk("latency|latest") + Bulk("latency|reset") + Bulk("migrate") + Bulk("monitor") +
                Bulk("pfdebug") + Bulk("pfselftest") + Bulk("restore") + Bulk("restore-asking") +
                Bulk("role") + Bulk("save") + Bulk("shutdown") + Bulk("slowlog|get") +
                Bulk("slowlog|len") + Bulk("slowlog|reset") + Bulk("sort") + Bulk("sort_ro") +
                Bulk("swapdb"));
  EXPECT_EQ(h.Run({"COMMAND", "LIST", "FILTERBY", "ACLCAT", "nosuch"}), "*0\r\n");
  EXPECT_EQ(h.Run({"COMMAND", "LIST", "FILTERBY", "MODULE", "x"}), "*0\r\n");
}

TEST_F(IntrospectionTest, CommandListSyntaxErrors) {
  const std::string kSyntax = Err("syntax error");
  EXPECT_EQ(h.Run({"COMMAND", "LIST", "x"}), kSyntax);
  EXPECT_EQ(h.Run({"COMMAND", "LIST", "FILTERBY"}), kSyntax);
  EXPECT_EQ(h.Run({"COMMAND", "LIST", "FILTERBY", "ACLCAT"}), kSyntax);
  EXPECT_EQ(h.Run({"COMMAND", "LIST", "FILTERBY", "foo", "x"}), kSyntax);
  EXPECT_EQ(h.Run({"COMMAND", "LIST", "FILTERBY", "PATTERN", "x", "y"}), kSyntax);
}

TEST_F(IntrospectionTest, CommandHelp) {
  EXPECT_EQ(h.Run({"COMMAND", "HELP"}),
            "*21\r\n+COMMAND <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n"
            "+(no subcommand)\r\n+    Return details about all Redis commands.\r\n+COUNT\r\n"
            "+    Return the total number of commands in this Redis server.\r\n+LIST\r\n"
            "+    Return a list of all commands in this Redis server.\r\n"
            "+INFO [<command-name> ...]\r\n+    Return details about multiple Redis commands.\r\n"
            "+    If no command names are given, documentation details for all\r\n"
            "+    commands are returned.\r\n+DOCS [<command-name> ...]\r\n"
            "+    Return documentation details about multiple Redis commands.\r\n"
            "+    If no command names are given, documentation details for all\r\n"
            "+    commands are returned.\r\n+GETKEYS <full-command>\r\n"
            "+    Return the keys from a full Redis command.\r\n"
            "+GETKEYSANDFLAGS <full-command>\r\n"
            "+    Return the keys and the access flags from a full Redis command.\r\n+HELP\r\n"
            "+    Prints this help.\r\n");
}

TEST_F(IntrospectionTest, CommandGetKeys) {
  EXPECT_EQ(h.Run({"COMMAND", "GETKEYS", "GET", "a"}), "*1\r\n$1\r\na\r\n");
  EXPECT_EQ(h.Run({"COMMAND", "GETKEYS", "set", "k", "v", "ex", "10"}), "*1\r\n$1\r\nk\r\n");
  EXPECT_EQ(h.Run({"COMMAND", "GETKEYS", "mset", "a", "b", "c", "d"}),
            "*2\r\n$1\r\na\r\n$1\r\nc\r\n");
  // An odd MSET line still yields the keys Redis finds: a and c.
  EXPECT_EQ(h.Run({"COMMAND", "GETKEYS", "mset", "a", "b", "c"}), "*2\r\n$1\r\na\r\n$1\r\nc\r\n");
  EXPECT_EQ(h.Run({"COMMAND", "GETKEYS", "del", "a", "b", "c"}),
            "*3\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n");
  EXPECT_EQ(h.Run({"COMMAND", "GETKEYS", "expire", "a", "10", "nx"}), "*1\r\n$1\r\na\r\n");
}

TEST_F(IntrospectionTest, CommandGetKeysErrors) {
  EXPECT_EQ(h.Run({"COMMAND", "GETKEYS", "nosuch", "a"}), Err("Invalid command specified"));
  EXPECT_EQ(h.Run({"COMMAND", "GETKEYS", "config", "nosuch", "x"}),
            Err("Invalid command specified"));
  EXPECT_EQ(h.Run({"COMMAND", "GETKEYS", "config", "get", "x"}),
            Err("The command has no key arguments"));
  EXPECT_EQ(h.Run({"COMMAND", "GETKEYS", "ping", "x"}), Err("The command has no key arguments"));
  EXPECT_EQ(h.Run({"COMMAND", "GETKEYS", "get", "a", "b"}),
            Err("Invalid number of arguments specified for command"));
  EXPECT_EQ(h.Run({"COMMAND", "GETKEYS", "get"}),
            Err("wrong number of arguments for 'command|getkeys' command"));
}

TEST_F(IntrospectionTest, CommandGetKeysAndFlags) {
  EXPECT_EQ(h.Run({"COMMAND", "GETKEYSANDFLAGS", "get", "a"}),
            "*1\r\n*2\r\n$1\r\na\r\n*2\r\n+RO\r\n+access\r\n");
  EXPECT_EQ(h.Run({"COMMAND", "GETKEYSANDFLAGS", "incr", "a"}),
            "*1\r\n*2\r\n$1\r\na\r\n*3\r\n+RW\r\n+access\r\n+update\r\n");
  EXPECT_EQ(h.Run({"COMMAND", "GETKEYSANDFLAGS", "exists", "a"}),
            "*1\r\n*2\r\n$1\r\na\r\n*1\r\n+RO\r\n");
  EXPECT_EQ(h.Run({"COMMAND", "GETKEYSANDFLAGS", "persist", "k"}),
            "*1\r\n*2\r\n$1\r\nk\r\n*2\r\n+RW\r\n+update\r\n");
  EXPECT_EQ(h.Run({"COMMAND", "GETKEYSANDFLAGS", "del", "a", "b"}),
            "*2\r\n*2\r\n$1\r\na\r\n*2\r\n+RM\r\n+delete\r\n*2\r\n$1\r\nb\r\n*2\r\n+RM\r\n+"
            "delete\r\n");
  EXPECT_EQ(h.Run({"COMMAND", "GETKEYSANDFLAGS", "mset", "a", "b"}),
            "*1\r\n*2\r\n$1\r\na\r\n*2\r\n+OW\r\n+update\r\n");
  // SET overwrites its key, unless GET makes it read it too.
  EXPECT_EQ(h.Run({"COMMAND", "GETKEYSANDFLAGS", "set", "a", "b"}),
            "*1\r\n*2\r\n$1\r\na\r\n*2\r\n+OW\r\n+update\r\n");
  EXPECT_EQ(h.Run({"COMMAND", "GETKEYSANDFLAGS", "set", "a", "b", "GET"}),
            "*1\r\n*2\r\n$1\r\na\r\n*3\r\n+RW\r\n+access\r\n+update\r\n");
}

TEST_F(IntrospectionTest, ArityErrors) {
  EXPECT_EQ(h.Run({"COMMAND", "COUNT", "x"}),
            Err("wrong number of arguments for 'command|count' command"));
  EXPECT_EQ(h.Run({"COMMAND", "HELP", "x"}),
            Err("wrong number of arguments for 'command|help' command"));
  EXPECT_EQ(h.Run({"COMMAND", "GETKEYSANDFLAGS", "x"}),
            Err("wrong number of arguments for 'command|getkeysandflags' command"));
}

}  // namespace
}  // namespace kv::test
