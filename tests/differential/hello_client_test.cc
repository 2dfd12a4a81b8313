// Differential tests of HELLO, the CLIENT commands and RESP3: the same requests go to kvserver
// and to the real redis-server and the raw reply bytes must be identical, except where a value
// differs by nature: client ids are replaced by "<id>" before comparing, and CLIENT ID, CLIENT
// INFO and CLIENT LIST are compared by shape and fields. CLIENT HELP lists only what kvserver
// implements (plus Redis 7.2's SETINFO and NO-TOUCH): each of its lines must appear, in order, in
// Redis's help, with the same header and footer.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/resp_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

using Args = std::vector<std::string>;

// The client id in a HELLO reply, or a CLIENT ID reply, replaced by "<id>".
std::string MaskIds(std::string reply) {
  const std::string key = "$2\r\nid\r\n:";
  size_t at = reply.find(key);
  if (at != std::string::npos) {
    at += key.size();
    const size_t end = reply.find("\r\n", at);
    reply.replace(at, end - at, "<id>");
  }
  return reply;
}

// The field names of a CLIENT INFO/LIST line, in order, and the value of `name`.
std::vector<std::string> FieldNames(const std::string& line) {
  std::vector<std::string> names;
  size_t at = 0;
  while (at < line.size()) {
    size_t end = line.find(' ', at);
    if (end == std::string::npos) end = line.size();
    const std::string field = line.substr(at, end - at);
    names.push_back(field.substr(0, field.find('=')));
    at = end + 1;
  }
  return names;
}

std::string FieldValue(const std::string& line, const std::string& name) {
  const std::string key = " " + name + "=";
  size_t at = (" " + line).find(key);
  if (at == std::string::npos) return "<absent>";
  at += key.size() - 1;
  const size_t end = line.find(' ', at);
  return line.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

// The text of a bulk or verbatim reply.
std::string Text(const std::string& reply) {
  const size_t start = reply.find("\r\n") + 2;
  std::string body = reply.substr(start, reply.size() - start - 2);
  if (reply[0] == '=') body = body.substr(4);  // "txt:"
  return body;
}

class HelloClientDiffTest : public ConnectedBothServersTest<HelloClientDiffTest> {
 protected:
  using Base = ConnectedBothServersTest<HelloClientDiffTest>;

  void SetUp() override {
    Base::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_EQ(Both({"FLUSHALL"}), "+OK\r\n");
  }

  // Sends `args` to both servers and returns kvserver's reply after checking it is Redis's, ids
  // masked.
  std::string Both(const Args& args) {
    auto [kv, redis] = Base::Both(args);
    EXPECT_EQ(MaskIds(kv), MaskIds(redis)) << Describe(args);
    return kv;
  }

  // Sends `args` to both servers and returns both replies, unchecked.
  std::pair<std::string, std::string> Raw(const Args& args) { return Base::Both(args); }

  void ExpectSame(const std::vector<Args>& commands) {
    for (const Args& c : commands) Both(c);
  }

  static std::string Describe(const Args& args) {
    std::string out = "command:";
    for (const std::string& a : args) out += " \"" + Escape(a) + "\"";
    return out;
  }
};

TEST_F(HelloClientDiffTest, HelloBothProtocolsAndErrors) {
  ExpectSame({
      {"HELLO"},
      {"HELLO", "2"},
      {"hello", "3"},
      {"HELLO"},
      {"HELLO", "2"},
      {"HELLO", "1"},
      {"HELLO", "4"},
      {"HELLO", "-1"},
      {"HELLO", "0"},
      {"HELLO", "abc"},
      {"HELLO", " 3"},
      {"HELLO", "3.0"},
      {"HELLO", "99999999999999999999"},
      {"HELLO", "3", "FOO"},
      {"HELLO", "3", "AUTH"},
      {"HELLO", "3", "AUTH", "default"},
      {"HELLO", "3", "SETNAME"},
      {"HELLO", "3", "AUTH", "bob", "pw"},
      {"HELLO", "3", "AUTH", "Default", "pw"},
      {"HELLO", "3", "SETNAME", "a b"},
      {"HELLO", "3", "SETNAME", "bad\nname"},
      {"CLIENT", "GETNAME"},
      {"HELLO", "3", "AUTH", "default", "anything"},
      {"HELLO", "3", "auth", "default", "x", "setname", "named"},
      {"CLIENT", "GETNAME"},
      {"HELLO", "2", "SETNAME", "other", "bogus"},
      {"CLIENT", "GETNAME"},
      {"HELLO", "2", "SETNAME", ""},
      {"CLIENT", "GETNAME"},
      {"HELLO", "2"},
  });
}

TEST_F(HelloClientDiffTest, ClientNamesAndErrors) {
  ExpectSame({
      {"CLIENT", "GETNAME"},
      {"CLIENT", "SETNAME", "conn-1"},
      {"client", "getname"},
      {"CLIENT", "SETNAME", "a b"},
      {"CLIENT", "SETNAME", "tab\there"},
      {"CLIENT", "SETNAME", "caf\xc3\xa9"},
      {"CLIENT", "SETNAME", "~!{}[]"},
      {"CLIENT", "GETNAME"},
      {"CLIENT", "SETNAME", ""},
      {"CLIENT", "GETNAME"},
      {"CLIENT"},
      {"CLIENT", "SETNAME"},
      {"CLIENT", "SETNAME", "a", "b"},
      {"CLIENT", "GETNAME", "x"},
      {"CLIENT", "ID", "x"},
      {"CLIENT", "INFO", "x"},
      {"CLIENT", "KILL"},
      {"CLIENT", "REPLY"},
      {"CLIENT", "nosuch"},
      {"CLIENT", "nosuch", "a", "b"},
      {"CLIENT", "REPLY", "maybe"},
      {"CLIENT", "NO-EVICT", "maybe"},
      {"CLIENT", "NO-EVICT", "on"},
      {"CLIENT", "NO-EVICT", "OFF"},
      {"CLIENT", "KILL", "1.2.3.4:5"},
      {"CLIENT", "KILL", "ID", "0"},
      {"CLIENT", "KILL", "ID", "x"},
      {"CLIENT", "KILL", "ID", "-5"},
      {"CLIENT", "KILL", "ID", "999999", "FOO", "x"},
      {"CLIENT", "KILL", "ID", "999999", "TYPE"},
      {"CLIENT", "KILL", "TYPE", "bogus"},
      {"CLIENT", "KILL", "USER", "bob"},
      {"CLIENT", "KILL", "SKIPME", "maybe"},
      {"CLIENT", "KILL", "TYPE", "master"},
      {"CLIENT", "KILL", "TYPE", "pubsub"},
      {"CLIENT", "KILL", "ID", "999999"},
      {"CLIENT", "KILL", "ADDR", "1.2.3.4:5", "SKIPME", "no"},
      {"CLIENT", "LIST", "TYPE", "bogus"},
      {"CLIENT", "LIST", "TYPE", "pubsub"},
      {"CLIENT", "LIST", "TYPE", "master"},
      {"CLIENT", "LIST", "ID", "x"},
      {"CLIENT", "LIST", "ID"},
      {"CLIENT", "LIST", "ID", "999999"},
      {"CLIENT", "LIST", "FOO"},
      {"CLIENT", "LIST", "TYPE", "normal", "ID", "1"},
  });
}

TEST_F(HelloClientDiffTest, ClientIdShape) {
  auto [kv, redis] = Raw({"CLIENT", "ID"});
  EXPECT_TRUE(kv.starts_with(":") && kv.ends_with("\r\n") && kv != ":0\r\n") << Escape(kv);
  EXPECT_TRUE(redis.starts_with(":") && redis.ends_with("\r\n")) << Escape(redis);
  // HELLO reports the same id as CLIENT ID.
  auto [kv_hello, redis_hello] = Raw({"HELLO"});
  EXPECT_NE(kv_hello.find("$2\r\nid\r\n" + kv), std::string::npos) << Escape(kv_hello);
  EXPECT_NE(redis_hello.find("$2\r\nid\r\n" + redis), std::string::npos);
}

TEST_F(HelloClientDiffTest, ClientInfoAndListFields) {
  Both({"CLIENT", "SETNAME", "fields"});
  Both({"SELECT", "2"});
  for (int proto : {2, 3}) {
    Both({"HELLO", std::to_string(proto)});
    for (const Args& cmd : std::vector<Args>{{"CLIENT", "INFO"}, {"CLIENT", "LIST"}}) {
      auto [kv, redis] = Raw(cmd);
      ASSERT_EQ(kv[0], redis[0]) << Escape(kv) << "\n" << Escape(redis);
      const std::string kv_text = Text(kv);
      const std::string redis_text = Text(redis);
      ASSERT_TRUE(kv_text.ends_with("\n")) << Escape(kv_text);
      ASSERT_TRUE(redis_text.ends_with("\n"));
      // The caller's line (the only client of each server, as these tests run one at a time).
      const std::string kv_line = kv_text.substr(0, kv_text.find('\n'));
      const std::string redis_line = redis_text.substr(0, redis_text.find('\n'));
      std::vector<std::string> redis_names = FieldNames(redis_line);
      // Redis 7.0.15 has no lib-name/lib-ver (7.2 added them at the end).
      std::vector<std::string> kv_names = FieldNames(kv_line);
      ASSERT_GE(kv_names.size(), 2u);
      EXPECT_EQ(kv_names[kv_names.size() - 2], "lib-name");
      EXPECT_EQ(kv_names.back(), "lib-ver");
      kv_names.resize(kv_names.size() - 2);
      EXPECT_EQ(kv_names, redis_names) << kv_line << "\n" << redis_line;
      for (const char* same :
           {"name", "flags", "db", "sub", "psub", "ssub", "multi", "multi-mem", "oll", "omem",
            "events", "cmd", "user", "redir", "resp", "argv-mem"}) {
        EXPECT_EQ(FieldValue(kv_line, same), FieldValue(redis_line, same)) << same << "\n"
                                                                           << kv_line << "\n"
                                                                           << redis_line;
      }
      EXPECT_EQ(FieldValue(kv_line, "addr").substr(0, 10), "127.0.0.1:");
      EXPECT_EQ(FieldValue(kv_line, "laddr"), "127.0.0.1:" + std::to_string(kvserver_->port()));
    }
  }
}

TEST_F(HelloClientDiffTest, ClientReplyOffOnSkip) {
  const std::vector<Args> commands = {
      {"CLIENT", "REPLY", "OFF"},
      {"SET", "k", "v"},
      {"PING"},
      {"NOSUCH"},
      {"CLIENT", "REPLY", "SKIP"},
      {"GET", "k"},
      {"CLIENT", "REPLY", "ON"},
      {"GET", "k"},
      {"CLIENT", "REPLY", "SKIP"},
      {"PING", "skipped"},
      {"PING", "sent"},
      {"CLIENT", "REPLY", "SKIP"},
      {"CLIENT", "REPLY", "SKIP"},
      {"PING", "skipped-too"},
      {"PING", "sent-too"},
      {"CLIENT", "REPLY", "SKIP"},
      {"CLIENT", "REPLY", "ON"},
      {"ECHO", "end-marker"},
  };
  std::string pipeline;
  for (const Args& c : commands) pipeline += EncodeCommand(c);
  auto read_all = [&](RawConnection& c) {
    c.Send(pipeline);
    std::string all;
    for (int i = 0; i < 20; ++i) {
      std::optional<std::string> r = c.ReadReply();
      if (!r) return all + "<timeout>";
      all += *r;
      if (*r == "$10\r\nend-marker\r\n") break;
    }
    return all;
  };
  const std::string kv = read_all(*kv_);
  const std::string redis = read_all(*redis_conn_);
  EXPECT_EQ(Escape(kv), Escape(redis));
  EXPECT_EQ(kv, "+OK\r\n$1\r\nv\r\n$4\r\nsent\r\n$8\r\nsent-too\r\n+OK\r\n$10\r\nend-marker\r\n");
}

TEST_F(HelloClientDiffTest, ClientHelp) {
  auto [kv, redis] = Raw({"client", "help"});
  auto lines = [](const std::string& reply) {
    std::vector<std::string> out;
    size_t at = reply.find("\r\n") + 2;
    while (at < reply.size()) {
      const size_t end = reply.find("\r\n", at);
      out.push_back(reply.substr(at, end - at));
      at = end + 2;
    }
    return out;
  };
  const std::vector<std::string> kv_lines = lines(kv);
  const std::vector<std::string> redis_lines = lines(redis);
  ASSERT_GE(kv_lines.size(), 3u);
  EXPECT_EQ(kv_lines.front(), redis_lines.front());
  EXPECT_EQ(std::vector<std::string>(kv_lines.end() - 2, kv_lines.end()),
            std::vector<std::string>(redis_lines.end() - 2, redis_lines.end()));
  // Every line kvserver shows, but Redis 7.2's additions, is Redis 7.0.15's, in the same order.
  size_t r = 0;
  bool in_72_entry = false;
  for (const std::string& line : kv_lines) {
    if (line.starts_with("+SETINFO") || line.starts_with("+NO-TOUCH")) {
      in_72_entry = true;
      continue;
    }
    if (in_72_entry && line.starts_with("+ ")) continue;
    in_72_entry = false;
    while (r < redis_lines.size() && redis_lines[r] != line) ++r;
    EXPECT_LT(r, redis_lines.size()) << "not in Redis's help, or out of order: " << line;
  }
  EXPECT_EQ(kv_lines.size(), 54u);
}

TEST_F(HelloClientDiffTest, Resp3RepliesOfExistingCommands) {
  ExpectSame({
      {"HELLO", "3"},
      {"GET", "missing"},
      {"SET", "k", "v"},
      {"GET", "k"},
      {"MGET", "k", "missing", "k"},
      {"CONFIG", "GET", "databases"},
      {"CONFIG", "GET", "nosuchparam"},
      {"INCR", "n"},
      {"INCR", "n"},
      {"INCR", "k"},
      {"PING"},
      {"PING", "x"},
      {"ECHO", "hello"},
      {"ECHO", ""},
      {"EXPIRE", "n", "1000"},
      {"TTL", "n"},
      {"TTL", "k"},
      {"TTL", "missing"},
      {"DEL", "k", "n", "missing"},
      {"DEL", "k"},
      {"EXISTS", "k"},
      {"SET", "k", "v", "GET"},
      {"SET", "k", "w", "NX", "GET"},
      {"CLIENT", "GETNAME"},
      {"CLIENT", "LIST", "TYPE", "pubsub"},
      {"CLIENT", "LIST", "ID", "999999"},
      {"NOSUCH"},
      {"HELLO", "2"},
      {"GET", "missing"},
      {"CONFIG", "GET", "databases"},
  });
}

}  // namespace
}  // namespace kv::test
