// The tests' RESP3 reply reader (tests/support/resp_reply.h): every reply the ReplyWriter makes,
// in RESP2 and RESP3, read back as the type a client sees; the RESP3 types the writer never makes
// (big number, blob error, attribute) from Redis's own bytes (DEBUG PROTOCOL, the RESP3 spec);
// and what it refuses.

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/reply_writer.h"
#include "tests/support/resp_client.h"
#include "tests/support/resp_reply.h"

namespace kv::test {
namespace {

using Type = RespReply::Type;

// What `write` puts out in protocol `proto`, parsed; fails the test if it does not parse.
template <typename F>
RespReply Written(int proto, F write) {
  IoBuffer out;
  ReplyWriter w(&out, proto);
  write(w);
  std::optional<RespReply> reply = ParseReply(out.view());
  EXPECT_TRUE(reply) << Escape(out.view());
  return reply.value_or(RespReply{});
}

RespReply Parsed(std::string_view bytes) {
  std::optional<RespReply> reply = ParseReply(bytes);
  EXPECT_TRUE(reply) << Escape(bytes);
  return reply.value_or(RespReply{});
}

TEST(RespReplyReader, ScalarsInBothProtocols) {
  for (int proto : {2, 3}) {
    SCOPED_TRACE(proto);
    RespReply r = Written(proto, [](ReplyWriter& w) { w.SimpleString("OK"); });
    EXPECT_EQ(r.type, Type::kSimpleString);
    EXPECT_EQ(r.str, "OK");
    r = Written(proto, [](ReplyWriter& w) { w.Error("WRONGTYPE x"); });
    EXPECT_EQ(r.type, Type::kError);
    EXPECT_EQ(r.str, "ERR WRONGTYPE x");
    r = Written(proto, [](ReplyWriter& w) { w.Integer(-42); });
    EXPECT_EQ(r.type, Type::kInteger);
    EXPECT_EQ(r.integer, -42);
    r = Written(proto, [](ReplyWriter& w) { w.Bulk(std::string_view("a\r\n\0b", 5)); });
    EXPECT_EQ(r.type, Type::kBulkString);
    EXPECT_EQ(r.str, std::string("a\r\n\0b", 5));
    EXPECT_FALSE(r.UsesResp3());
  }
}

TEST(RespReplyReader, TypesThatDifferByProtocol) {
  EXPECT_EQ(Written(2, [](ReplyWriter& w) { w.Null(); }).type, Type::kNullBulk);
  EXPECT_EQ(Written(3, [](ReplyWriter& w) { w.Null(); }).type, Type::kNull);
  EXPECT_EQ(Written(2, [](ReplyWriter& w) { w.NullArray(); }).type, Type::kNullArray);
  EXPECT_EQ(Written(3, [](ReplyWriter& w) { w.NullArray(); }).type, Type::kNull);

  RespReply d = Written(3, [](ReplyWriter& w) { w.Double(1.5); });
  EXPECT_EQ(d.type, Type::kDouble);
  EXPECT_EQ(d.number, 1.5);
  d = Written(3, [](ReplyWriter& w) { w.Double(-INFINITY); });
  EXPECT_EQ(d.type, Type::kDouble);
  EXPECT_EQ(d.number, -INFINITY);
  d = Written(2, [](ReplyWriter& w) { w.Double(1.5); });
  EXPECT_EQ(d.type, Type::kBulkString);
  EXPECT_EQ(d.str, "1.5");

  RespReply b = Written(3, [](ReplyWriter& w) { w.Bool(true); });
  EXPECT_EQ(b.type, Type::kBoolean);
  EXPECT_TRUE(b.boolean);
  EXPECT_FALSE(Written(3, [](ReplyWriter& w) { w.Bool(false); }).boolean);
  b = Written(2, [](ReplyWriter& w) { w.Bool(true); });
  EXPECT_EQ(b.type, Type::kInteger);
  EXPECT_EQ(b.integer, 1);

  RespReply v = Written(3, [](ReplyWriter& w) { w.Verbatim("line\r\n"); });
  EXPECT_EQ(v.type, Type::kVerbatim);
  EXPECT_EQ(v.format, "txt");
  EXPECT_EQ(v.str, "line\r\n");
  v = Written(2, [](ReplyWriter& w) { w.Verbatim("line\r\n"); });
  EXPECT_EQ(v.type, Type::kBulkString);
  EXPECT_EQ(v.str, "line\r\n");
}

TEST(RespReplyReader, Aggregates) {
  auto write = [](ReplyWriter& w) {
    w.MapHeader(2);
    w.Bulk("name");
    w.Bulk("x");
    w.Bulk("flags");
    w.SetHeader(2);
    w.SimpleString("write");
    w.Null();
  };
  RespReply m = Written(3, write);
  ASSERT_EQ(m.type, Type::kMap);
  ASSERT_EQ(m.elements.size(), 4u);
  ASSERT_NE(m.Find("flags"), nullptr);
  EXPECT_EQ(m.Find("flags")->type, Type::kSet);
  EXPECT_EQ(m.Find("flags")->elements[1].type, Type::kNull);
  EXPECT_EQ(m.Find("name")->str, "x");
  EXPECT_EQ(m.Find("nope"), nullptr);
  EXPECT_TRUE(m.UsesResp3());

  RespReply a = Written(2, write);
  ASSERT_EQ(a.type, Type::kArray);
  ASSERT_EQ(a.elements.size(), 4u);
  EXPECT_EQ(a.elements[3].type, Type::kArray);
  EXPECT_EQ(a.elements[3].elements[1].type, Type::kNullBulk);
  EXPECT_EQ(a.Find("flags"), nullptr);  // not a map in RESP2
  EXPECT_FALSE(a.UsesResp3());

  auto push = [](ReplyWriter& w) {
    w.PushHeader(2);
    w.Bulk("message");
    w.ArrayHeader(0);
  };
  EXPECT_EQ(Written(3, push).type, Type::kPush);
  EXPECT_EQ(Written(2, push).type, Type::kArray);
  EXPECT_EQ(Describe(m), "%{$\"name\": $\"x\", $\"flags\": ~[+\"write\", _]}");
  EXPECT_EQ(Describe(a), "*[$\"name\", $\"x\", $\"flags\", *[+\"write\", $nil]]");
  // A RESP3 value nested in a RESP2 array still counts.
  EXPECT_TRUE(Parsed("*2\r\n:1\r\n#t\r\n").UsesResp3());
}

// Types kvserver's writer never produces, as Redis 7.0.15's DEBUG PROTOCOL and the RESP3 spec
// send them.
TEST(RespReplyReader, TypesOnlyRedisSends) {
  RespReply n = Parsed("(1234567999999999999999999999999999999\r\n");
  EXPECT_EQ(n.type, Type::kBigNumber);
  EXPECT_EQ(n.str, "1234567999999999999999999999999999999");
  RespReply e = Parsed("!21\r\nSYNTAX invalid syntax\r\n");
  EXPECT_EQ(e.type, Type::kBlobError);
  EXPECT_EQ(e.str, "SYNTAX invalid syntax");
  // DEBUG PROTOCOL attrib: an attribute map, then the reply it describes.
  RespReply a = Parsed(
      "|1\r\n$14\r\nkey-popularity\r\n*2\r\n$7\r\nkey:123\r\n:90\r\n"
      "$39\r\nSome real reply following the attribute\r\n");
  EXPECT_EQ(a.type, Type::kBulkString);
  EXPECT_EQ(a.str, "Some real reply following the attribute");
  ASSERT_EQ(a.attributes.size(), 2u);
  EXPECT_EQ(a.attributes[0].str, "key-popularity");
  EXPECT_TRUE(a.UsesResp3());
  EXPECT_TRUE(std::isnan(Parsed(",nan\r\n").number));
  EXPECT_EQ(Parsed(",3.141\r\n").number, 3.141);
  EXPECT_EQ(Parsed(",inf\r\n").number, INFINITY);
  EXPECT_EQ(Parsed("=8\r\nmkd:# hi\r\n").format, "mkd");
}

TEST(RespReplyReader, RefusesIncompleteMalformedAndTrailing) {
  for (std::string_view bad : {"",
                               "+OK",
                               "+OK\r",
                               "$3\r\nab\r\n",
                               "$3\r\nabcd\r\n",
                               "$-2\r\n",
                               "!-1\r\n",
                               "=-1\r\n",
                               "=2\r\nab\r\n",
                               "*2\r\n:1\r\n",
                               "%1\r\n:1\r\n",
                               ":1x\r\n",
                               ":\r\n",
                               ":99999999999999999999\r\n",
                               "#x\r\n",
                               "#\r\n",
                               "_x\r\n",
                               ",\r\n",
                               ",1.5x\r\n",
                               "(12a\r\n",
                               "?\r\n",
                               "+OK\r\n+OK\r\n",
                               "*3000000000\r\n",
                               "|1\r\n:1\r\n:2\r\n",
                               "~-1\r\n"}) {
    EXPECT_FALSE(ParseReply(bad)) << Escape(bad);
  }
  // Nesting deeper than 64 levels is refused rather than recursed into.
  std::string deep;
  for (int i = 0; i < 100; ++i) deep += "*1\r\n";
  EXPECT_FALSE(ParseReply(deep + ":1\r\n"));
}

}  // namespace
}  // namespace kv::test
