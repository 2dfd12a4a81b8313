// Every RESP3 reply type kvserver emits, against the real redis-server: after HELLO 3 the same
// commands get the same bytes from both servers, each read back with the tests' reply reader
// (tests/support/resp_reply.h; hiredis 0.14 reads RESP2 only) as the type Redis 7.0.15 uses for
// it; after HELLO 2 the same commands get RESP2 bytes again, with no RESP3 type anywhere.
//
// Of RESP3's types, kvserver's commands emit simple string, error, integer, bulk string, array,
// null (`_`), map (`%`), set (`~`) and verbatim string (`=`). None of them emits a double (`,`:
// Redis 7.0 sends one only for sorted sets, geo, MEMORY STATS, ACL LOG and DEBUG PROTOCOL;
// INCRBYFLOAT replies a bulk string), a boolean (`#`: DEBUG PROTOCOL only), a big number (`(`:
// DEBUG PROTOCOL only), a blob error (`!`: Redis 7.0 sends none), an attribute (`|`: DEBUG
// PROTOCOL only) or a push (`>`: pub/sub and client tracking, which kvserver does not have).

#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/resp_reply.h"

namespace kv::test {
namespace {

using Type = RespReply::Type;

enum class Compare {
  kBytes,  // byte for byte, HELLO's client id aside
  kShape,  // the same types at every level (the text differs by nature: INFO, CLIENT INFO)
};

struct Case {
  Args args;
  Type resp3;  // the type of the whole reply in RESP3
  Compare compare = Compare::kBytes;
};

// The types of `r` and of everything nested in it, with texts left out.
std::string Shape(const RespReply& r) {
  std::string out = TypeName(r.type);
  if (r.type == Type::kVerbatim) out += ":" + r.format;
  if (!r.elements.empty()) {
    out += "[";
    for (const RespReply& e : r.elements) out += Shape(e) + ",";
    out += "]";
  }
  return out;
}

// HELLO's "id" value set to 0: the one field that differs by nature.
void MaskId(RespReply* r) {
  for (size_t i = 0; i + 1 < r->elements.size(); i += 2) {
    if (r->elements[i].str == "id") r->elements[i + 1].integer = 0;
  }
}

void CollectTypes(const RespReply& r, std::set<Type>* types) {
  types->insert(r.type);
  for (const RespReply& e : r.elements) CollectTypes(e, types);
}

class Resp3TypesDiffTest : public ConnectedBothServersTest<Resp3TypesDiffTest> {
 protected:
  // Sends `args` to both servers and checks the replies (by `compare`); returns kvserver's,
  // parsed.
  RespReply Both(const Args& args, Compare compare = Compare::kBytes) {
    const std::string request = EncodeCommand(args);
    kv_->Send(request);
    redis_conn_->Send(request);
    const std::string kv_bytes = kv_->ReadReply().value_or("<no reply>");
    const std::string redis_bytes = redis_conn_->ReadReply().value_or("<no reply>");
    std::optional<RespReply> kv = ParseReply(kv_bytes);
    std::optional<RespReply> redis = ParseReply(redis_bytes);
    EXPECT_TRUE(kv) << DescribeArgs(args) << " kvserver sent " << Escape(kv_bytes);
    EXPECT_TRUE(redis) << DescribeArgs(args) << " redis sent " << Escape(redis_bytes);
    if (!kv || !redis) return RespReply{};
    if (compare == Compare::kShape) {
      EXPECT_EQ(Shape(*kv), Shape(*redis)) << DescribeArgs(args);
    } else if (args[0] == "HELLO") {
      MaskId(&*kv);
      MaskId(&*redis);
      EXPECT_EQ(Describe(*kv), Describe(*redis)) << DescribeArgs(args);
    } else {
      EXPECT_EQ(Escape(kv_bytes), Escape(redis_bytes)) << DescribeArgs(args);
    }
    return *kv;
  }

  // Data for the cases below: strings, a number, LCS's pair.
  void Populate() {
    for (const Args& c : std::vector<Args>{{"FLUSHALL"},
                                           {"SET", "k", "v"},
                                           {"SET", "n", "10"},
                                           {"SET", "a", "ohmytext"},
                                           {"SET", "b", "mynewtext"}}) {
      Both(c);
    }
  }

  // The commands whose replies cover each type, in both protocols. HELLO is sent by the test.
  static std::vector<Case> Cases() {
    return {
        // map
        {{"HELLO"}, Type::kMap},
        {{"CONFIG", "GET", "maxclients"}, Type::kMap},
        {{"CONFIG", "GET", "nosuchparam"}, Type::kMap},
        {{"COMMAND", "DOCS", "get"}, Type::kMap},
        {{"COMMAND", "DOCS", "set", "bitfield"}, Type::kMap},
        {{"COMMAND", "DOCS", "nosuch"}, Type::kMap},
        {{"LCS", "a", "b", "IDX"}, Type::kMap},
        {{"LCS", "a", "b", "IDX", "MINMATCHLEN", "2", "WITHMATCHLEN"}, Type::kMap},
        // set (COMMAND INFO's flags, ACL categories, tips, key specs' flags)
        {{"COMMAND", "INFO", "get", "set", "client|list"}, Type::kArray},
        // null, alone and in an array
        {{"GET", "missing"}, Type::kNull},
        {{"GETDEL", "missing"}, Type::kNull},
        {{"GETEX", "missing", "PERSIST"}, Type::kNull},
        {{"SET", "fresh", "v", "GET"}, Type::kNull},
        {{"CLIENT", "GETNAME"}, Type::kNull},
        {{"OBJECT", "ENCODING", "missing"}, Type::kNull},
        {{"MGET", "k", "missing"}, Type::kArray},
        {{"COMMAND", "INFO", "nosuch"}, Type::kArray},
        {{"BITFIELD", "bf", "OVERFLOW", "FAIL", "INCRBY", "u2", "0", "5"}, Type::kArray},
        {{"SELECT", "5"}, Type::kSimpleString},
        {{"RANDOMKEY"}, Type::kNull},
        {{"SELECT", "0"}, Type::kSimpleString},
        // verbatim
        {{"INFO", "keyspace"}, Type::kVerbatim},
        {{"INFO"}, Type::kVerbatim, Compare::kShape},
        {{"INFO", "server", "clients"}, Type::kVerbatim, Compare::kShape},
        {{"CLIENT", "INFO"}, Type::kVerbatim, Compare::kShape},
        {{"CLIENT", "LIST"}, Type::kVerbatim, Compare::kShape},
        // the RESP2 types, unchanged in RESP3 (INCRBYFLOAT is a bulk string, not a double)
        {{"INCRBYFLOAT", "f", "1.5"}, Type::kBulkString},
        {{"GET", "k"}, Type::kBulkString},
        {{"INCR", "n"}, Type::kInteger},
        {{"PING"}, Type::kSimpleString},
        {{"KEYS", "nomatch*"}, Type::kArray},
        // errors
        {{"NOSUCH", "x"}, Type::kError},
        {{"INCR", "k"}, Type::kError},
        {{"HELLO", "4"}, Type::kError},
        {{"GET"}, Type::kError},
    };
  }
};

TEST_F(Resp3TypesDiffTest, EveryTypeInResp3ThenBackToResp2) {
  Populate();
  std::set<Type> seen;
  RespReply hello = Both({"HELLO", "3"});
  ASSERT_EQ(hello.type, Type::kMap) << Describe(hello);
  ASSERT_NE(hello.Find("proto"), nullptr);
  EXPECT_EQ(hello.Find("proto")->integer, 3);
  EXPECT_EQ(hello.Find("modules")->type, Type::kArray);
  for (const Case& c : Cases()) {
    RespReply r = Both(c.args, c.compare);
    EXPECT_EQ(r.type, c.resp3) << DescribeArgs(c.args) << " " << Describe(r);
    CollectTypes(r, &seen);
  }
  EXPECT_EQ(seen,
            (std::set<Type>{Type::kSimpleString, Type::kError, Type::kInteger, Type::kBulkString,
                            Type::kArray, Type::kNull, Type::kMap, Type::kSet, Type::kVerbatim}));

  // Back to RESP2: the same commands, RESP2 types only.
  Populate();
  RespReply hello2 = Both({"HELLO", "2"});
  EXPECT_EQ(hello2.type, Type::kArray);
  for (const Case& c : Cases()) {
    RespReply r = Both(c.args, c.compare);
    EXPECT_FALSE(r.UsesResp3()) << DescribeArgs(c.args) << " " << Describe(r);
  }
}

// Spot checks of what the RESP3 reader sees in replies clients depend on.
TEST_F(Resp3TypesDiffTest, Resp3ValuesClientsRead) {
  Populate();
  Both({"HELLO", "3"});
  RespReply config = Both({"CONFIG", "GET", "maxclients"});
  ASSERT_NE(config.Find("maxclients"), nullptr) << Describe(config);
  EXPECT_EQ(config.Find("maxclients")->str, "10000");

  RespReply docs = Both({"COMMAND", "DOCS", "get"});
  const RespReply* get = docs.Find("get");
  ASSERT_NE(get, nullptr) << Describe(docs);
  EXPECT_EQ(get->type, Type::kMap);
  EXPECT_EQ(get->Find("group")->str, "string");
  EXPECT_EQ(get->Find("arguments")->type, Type::kArray);

  RespReply info = Both({"COMMAND", "INFO", "get"});
  ASSERT_EQ(info.elements.size(), 1u);
  ASSERT_GE(info.elements[0].elements.size(), 3u);
  const RespReply& flags = info.elements[0].elements[2];
  EXPECT_EQ(Describe(flags), "~[+\"readonly\", +\"fast\"]");

  RespReply lcs = Both({"LCS", "a", "b", "IDX"});
  ASSERT_NE(lcs.Find("len"), nullptr) << Describe(lcs);
  EXPECT_EQ(lcs.Find("len")->integer, 6);

  RespReply client = Both({"CLIENT", "INFO"}, Compare::kShape);
  EXPECT_EQ(client.format, "txt");
  EXPECT_NE(client.str.find(" resp=3 "), std::string::npos) << client.str;
  Both({"HELLO", "2"});
}

}  // namespace
}  // namespace kv::test
