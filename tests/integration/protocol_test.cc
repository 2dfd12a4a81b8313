// The wire protocol end to end against the real kvserver binary: pipelining, binary-safe and
// large values, inline commands, protocol errors, QUIT, partial commands and the input limits.

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/integration/raw_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

// The offset of the first difference, for readable failures on long replies.
size_t FirstDifference(const std::string& a, const std::string& b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  return i;
}

std::string Around(const std::string& s, size_t at) {
  const size_t from = at > 40 ? at - 40 : 0;
  return s.substr(from, 80);
}

int64_t DbSize(redisContext* c) {
  Reply r = Command(c, "DBSIZE");
  return r && r->type == REDIS_REPLY_INTEGER ? r->integer : -1;
}

TEST(Pipelining, TenThousandCommandsInOneWrite) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  std::string request, expected;
  for (int i = 0; i < 2500; ++i) {
    const std::string key = "key:" + std::to_string(i);
    const std::string value = "value:" + std::to_string(i * 7);
    request += Resp({"SET", key, value});
    expected += "+OK\r\n";
    request += Resp({"GET", key});
    expected += BulkReply(value);
    request += Resp({"INCR", "counter"});
    expected += ":" + std::to_string(i + 1) + "\r\n";
    // Inline commands may be mixed with multibulk ones in the same stream.
    request += "PING\r\n";
    expected += "+PONG\r\n";
  }
  RawClient client(server->port());
  ASSERT_TRUE(client.ok());
  const std::string reply = client.Exchange(request, expected.size());
  ASSERT_EQ(reply.size(), expected.size())
      << "replies stopped at byte " << reply.size() << ": ..." << Around(reply, reply.size());
  const size_t diff = FirstDifference(reply, expected);
  ASSERT_EQ(diff, expected.size())
      << "got ..." << Around(reply, diff) << "\nwant ..." << Around(expected, diff);
  EXPECT_TRUE(client.QuietFor(100)) << "bytes after the last reply";

  auto c = server->Connect();
  EXPECT_EQ(DbSize(c.get()), 2501);
  EXPECT_EQ(Str(Command(c.get(), "GET counter")), "2500");
}

TEST(Pipelining, HiredisPipelineOfTenThousand) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto c = server->Connect();
  for (int i = 0; i < 10000; ++i) {
    ASSERT_EQ(redisAppendCommand(c.get(), "RPUSH-NOT-A-COMMAND %d", i), REDIS_OK);
    ASSERT_EQ(redisAppendCommand(c.get(), "SET k%d %d", i, i), REDIS_OK);
  }
  for (int i = 0; i < 10000; ++i) {
    void* raw = nullptr;
    ASSERT_EQ(redisGetReply(c.get(), &raw), REDIS_OK) << c->errstr;
    Reply err(static_cast<redisReply*>(raw));
    ASSERT_EQ(err->type, REDIS_REPLY_ERROR);
    ASSERT_EQ(Str(err), "ERR unknown command 'RPUSH-NOT-A-COMMAND', with args beginning with: '" +
                            std::to_string(i) + "' ");
    ASSERT_EQ(redisGetReply(c.get(), &raw), REDIS_OK) << c->errstr;
    Reply ok(static_cast<redisReply*>(raw));
    ASSERT_EQ(Str(ok), "OK");
  }
  EXPECT_EQ(DbSize(c.get()), 10000);
}

TEST(Pipelining, ManyClientsPipeliningAtOnceGetEveryReplyInOrder) {
  // Eight clients, each with batches of 16 INCRs and a GET in flight, for about a second: every
  // client's next batch arrives while the loop serves the others.
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  constexpr int kClients = 8;
  constexpr int kBatch = 16;
  std::vector<std::thread> clients;
  std::vector<int64_t> batches(kClients, 0);
  std::vector<std::string> failures(kClients);
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  for (int i = 0; i < kClients; ++i) {
    clients.emplace_back([&, i] {
      auto c = server->Connect();
      const std::string key = "counter:" + std::to_string(i);
      while (std::chrono::steady_clock::now() < end && failures[i].empty()) {
        for (int n = 0; n < kBatch; ++n) redisAppendCommand(c.get(), "INCR %s", key.c_str());
        redisAppendCommand(c.get(), "GET %s", key.c_str());
        for (int n = 0; n <= kBatch; ++n) {
          void* raw = nullptr;
          if (redisGetReply(c.get(), &raw) != REDIS_OK) {
            failures[i] = c->errstr;
            return;
          }
          Reply r(static_cast<redisReply*>(raw));
          const int64_t want = batches[i] * kBatch + std::min(n + 1, kBatch);
          const bool ok = n < kBatch ? r->type == REDIS_REPLY_INTEGER && r->integer == want
                                     : Str(r) == std::to_string(want);
          if (!ok)
            failures[i] = "batch " + std::to_string(batches[i]) + " reply " + std::to_string(n);
        }
        ++batches[i];
      }
    });
  }
  for (auto& t : clients) t.join();
  auto c = server->Connect();
  for (int i = 0; i < kClients; ++i) {
    EXPECT_EQ(failures[i], "") << "client " << i;
    EXPECT_GT(batches[i], 0);
    EXPECT_EQ(Str(Command(c.get(), "GET counter:%d", i)), std::to_string(batches[i] * kBatch));
  }
}

TEST(Pipelining, ClientThatWritesEverythingBeforeReading) {
  // hiredis, redis-py and most clients send a whole pipeline before reading any reply. With 20 MB
  // of requests whose replies are 20 MB too, neither side's kernel buffers can hold it all: the
  // server has to keep reading requests while replies wait, or both ends block forever.
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto c = server->Connect();
  const std::string value(2048, 'p');
  constexpr int kPairs = 10000;
  for (int i = 0; i < kPairs; ++i) {
    ASSERT_EQ(redisAppendCommand(c.get(), "SET key:%d %b", i, value.data(), value.size()),
              REDIS_OK);
    ASSERT_EQ(redisAppendCommand(c.get(), "GET key:%d", i), REDIS_OK);
  }
  // The first redisGetReply writes the whole pipeline (blocking, 10 s socket timeout) before
  // reading.
  for (int i = 0; i < kPairs; ++i) {
    void* raw = nullptr;
    ASSERT_EQ(redisGetReply(c.get(), &raw), REDIS_OK) << "pair " << i << ": " << c->errstr;
    ASSERT_EQ(Str(Reply(static_cast<redisReply*>(raw))), "OK");
    ASSERT_EQ(redisGetReply(c.get(), &raw), REDIS_OK) << "pair " << i << ": " << c->errstr;
    ASSERT_EQ(Str(Reply(static_cast<redisReply*>(raw))), value);
  }
}

TEST(BinarySafety, ValuesWithNulAndCrlf) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto c = server->Connect();
  const std::vector<std::string> values = {
      std::string("\0", 1),
      "\r\n",
      std::string("a\r\nb\0c\r\n\0", 9),
      "$5\r\nhello\r\n",
      "*2\r\n$3\r\nGET\r\n$1\r\nk\r\n",
      std::string(1000, '\0') + "\r\n" + std::string(1000, '\n'),
  };
  for (size_t i = 0; i < values.size(); ++i) {
    const std::string& v = values[i];
    const std::string key = std::string("key\0\r\n", 6) + std::to_string(i);
    Reply set = Command(c.get(), "SET %b %b", key.data(), key.size(), v.data(), v.size());
    ASSERT_EQ(Str(set), "OK");
    Reply get = Command(c.get(), "GET %b", key.data(), key.size());
    ASSERT_TRUE(get);
    ASSERT_EQ(get->type, REDIS_REPLY_STRING);
    EXPECT_EQ(std::string(get->str, get->len), v) << "value " << i;
    Reply exists = Command(c.get(), "EXISTS %b", key.data(), key.size());
    ASSERT_TRUE(exists);
    EXPECT_EQ(exists->integer, 1);
  }

  // The same bytes on a raw socket: the reply carries them unescaped.
  RawClient raw(server->port());
  const std::string value("x\r\n\0y", 5);
  const std::string reply =
      raw.Exchange(Resp({"SET", "raw", value}) + Resp({"GET", "raw"}), 5 + 4 + 5 + 2);
  EXPECT_EQ(reply, "+OK\r\n$5\r\n" + value + "\r\n");
}

TEST(LargeValues, TenMegabyteSetThenGet) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto c = server->Connect();
  std::string value(10 * 1024 * 1024, '\0');
  uint32_t x = 12345;
  for (char& ch : value) {
    x = x * 1103515245 + 12345;
    ch = static_cast<char>(x >> 24);
  }
  Reply set = Command(c.get(), "SET big %b", value.data(), value.size());
  ASSERT_EQ(Str(set), "OK");
  Reply get = Command(c.get(), "GET big");
  ASSERT_TRUE(get);
  ASSERT_EQ(get->type, REDIS_REPLY_STRING);
  ASSERT_EQ(get->len, value.size());
  EXPECT_TRUE(std::string_view(get->str, get->len) == value);

  // The value arrives in many reads while another client keeps being served; and a raw client
  // receives the whole reply.
  RawClient raw(server->port());
  const std::string expected = "$" + std::to_string(value.size()) + "\r\n";
  const std::string reply = raw.Exchange(Resp({"GET", "big"}), expected.size() + value.size() + 2);
  ASSERT_EQ(reply.size(), expected.size() + value.size() + 2);
  EXPECT_EQ(reply.substr(0, expected.size()), expected);
  EXPECT_TRUE(std::string_view(reply).substr(expected.size(), value.size()) == value);
  EXPECT_EQ(Str(Command(c.get(), "PING")), "PONG");
}

TEST(Inline, CommandsOverRawSocket) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  RawClient raw(server->port());
  ASSERT_TRUE(raw.ok());
  ASSERT_TRUE(raw.SendAll("PING\r\n"));
  EXPECT_EQ(raw.Read(7), "+PONG\r\n");
  ASSERT_TRUE(raw.SendAll("SET k \"a b\"\r\n"));
  EXPECT_EQ(raw.Read(5), "+OK\r\n");
  ASSERT_TRUE(raw.SendAll("GET k\r\n"));
  EXPECT_EQ(raw.Read(9), "$3\r\na b\r\n");
  // A bare LF ends a line too; blank lines are skipped; quotes and escapes as in redis-cli.
  ASSERT_TRUE(raw.SendAll("\r\n   \r\nPING\n"));
  EXPECT_EQ(raw.Read(7), "+PONG\r\n");
  ASSERT_TRUE(raw.SendAll("SET e \"x\\x41\\n\\\"\" \r\nGET e\r\n"));
  EXPECT_EQ(raw.Read(5 + 10), "+OK\r\n$4\r\nxA\n\"\r\n");
  ASSERT_TRUE(raw.SendAll("ECHO 'single quoted'\r\n"));
  EXPECT_EQ(raw.Read(20), "$13\r\nsingle quoted\r\n");
  // Multiple spaces and tabs between words.
  ASSERT_TRUE(raw.SendAll("  ECHO    \t word  \r\n"));
  EXPECT_EQ(raw.Read(10), "$4\r\nword\r\n");
  ASSERT_TRUE(raw.SendAll("NOSUCHCOMMAND a b\r\n"));
  const std::string unknown =
      "-ERR unknown command 'NOSUCHCOMMAND', with args beginning with: 'a' 'b' \r\n";
  EXPECT_EQ(raw.Read(unknown.size()), unknown);
  EXPECT_TRUE(raw.QuietFor(50));
}

struct ProtocolErrorCase {
  std::string name;
  std::string input;
  std::string expected;  // everything the server sends before closing
};

TEST(ProtocolErrors, ExactReplyThenClose) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  // Verified byte for byte against redis-server 7.0.15.
  const std::vector<ProtocolErrorCase> cases = {
      {"huge multibulk count", "*3000000000\r\n",
       "-ERR Protocol error: invalid multibulk length\r\n"},
      {"non-numeric count", "*abc\r\n", "-ERR Protocol error: invalid multibulk length\r\n"},
      {"negative bulk length", "*1\r\n$-1\r\n", "-ERR Protocol error: invalid bulk length\r\n"},
      {"non-numeric bulk length", "*1\r\n$x\r\n", "-ERR Protocol error: invalid bulk length\r\n"},
      {"missing dollar", "*1\r\nfoo\r\n", "-ERR Protocol error: expected '$', got 'f'\r\n"},
      {"unbalanced quotes", "SET k \"a\r\n",
       "-ERR Protocol error: unbalanced quotes in request\r\n"},
      {"inline too big", std::string(70000, 'a'),
       "-ERR Protocol error: too big inline request\r\n"},
      {"bulk count too big", "*1\r\n$" + std::string(70000, '1'),
       "-ERR Protocol error: too big bulk count string\r\n"},
      {"mbulk count too big", "*" + std::string(70000, '1'),
       "-ERR Protocol error: too big mbulk count string\r\n"},
      {"replies before the error are sent", "PING\r\n*x\r\nSET after error\r\n",
       "+PONG\r\n-ERR Protocol error: invalid multibulk length\r\n"},
  };
  for (const ProtocolErrorCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    RawClient raw(server->port());
    ASSERT_TRUE(raw.ok());
    ASSERT_TRUE(raw.SendAll(tc.input));
    bool closed = false;
    const std::string got = raw.ReadUntilClosed(5000, &closed);
    EXPECT_EQ(got, tc.expected);
    EXPECT_TRUE(closed) << "the connection stayed open after a protocol error";
  }
  // The command after the error in the same buffer never ran, and the server is fine.
  auto c = server->Connect();
  Reply exists = Command(c.get(), "EXISTS after");
  ASSERT_TRUE(exists);
  EXPECT_EQ(exists->integer, 0);
  EXPECT_EQ(Str(Command(c.get(), "PING")), "PONG");
}

TEST(Quit, RepliesOkThenCloses) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  {
    RawClient raw(server->port());
    ASSERT_TRUE(raw.SendAll("QUIT\r\nSET notrun 1\r\n"));
    bool closed = false;
    EXPECT_EQ(raw.ReadUntilClosed(5000, &closed), "+OK\r\n");
    EXPECT_TRUE(closed);
  }
  {
    RawClient raw(server->port());
    ASSERT_TRUE(raw.SendAll(Resp({"SET", "before", "1"}) + Resp({"QUIT"}) + Resp({"PING"})));
    bool closed = false;
    EXPECT_EQ(raw.ReadUntilClosed(5000, &closed), "+OK\r\n+OK\r\n");
    EXPECT_TRUE(closed);
  }
  auto c = server->Connect();
  EXPECT_EQ(Str(Command(c.get(), "QUIT")), "OK");
  EXPECT_FALSE(Command(c.get(), "PING")) << "the connection is still open after QUIT";

  auto d = server->Connect();
  EXPECT_EQ(Str(Command(d.get(), "GET before")), "1");
  Reply notrun = Command(d.get(), "EXISTS notrun");
  ASSERT_TRUE(notrun);
  EXPECT_EQ(notrun->integer, 0);
}

TEST(PartialCommands, ClientDisconnectsMidCommand) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  auto c = server->Connect();
  const std::vector<std::string> partials = {
      "*3\r\n$3\r\nSET\r\n$1\r\nk",
      "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$100000\r\n" + std::string(50000, 'x'),
      "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv",  // all but the final CRLF
      "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r",
      "SET k v",  // inline without its newline
      "*3\r",
  };
  for (const std::string& partial : partials) {
    RawClient raw(server->port());
    ASSERT_TRUE(raw.ok());
    ASSERT_TRUE(raw.SendAll(partial));
    EXPECT_TRUE(raw.QuietFor(50)) << "a reply to an incomplete command";
    // Meanwhile other clients are served.
    EXPECT_EQ(Str(Command(c.get(), "PING")), "PONG");
    raw.Close();
    EXPECT_EQ(Str(Command(c.get(), "PING")), "PONG");
  }
  Reply exists = Command(c.get(), "EXISTS k");
  ASSERT_TRUE(exists);
  EXPECT_EQ(exists->integer, 0);
  // Every abandoned connection is gone once the server has seen the close.
  EXPECT_TRUE(Eventually(
      [&] {
        return Str(Command(c.get(), "INFO clients")).find("connected_clients:1\r\n") !=
               std::string::npos;
      },
      5000))
      << Str(Command(c.get(), "INFO clients"));
}

TEST(PartialCommands, CommandSplitAcrossManyWrites) {
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  RawClient raw(server->port());
  const std::string request = Resp({"SET", "split", std::string("a\r\nb", 4)}) + "GET split\r\n";
  for (char ch : request) {
    ASSERT_TRUE(raw.SendAll(std::string_view(&ch, 1)));
    std::this_thread::sleep_for(std::chrono::microseconds(300));
  }
  EXPECT_EQ(raw.Read(5 + 10), "+OK\r\n$4\r\na\r\nb\r\n");
}

TEST(PartialCommands, HalfClosedClientGetsEveryReply) {
  // A client may shut down its sending side right after its requests (printf ... | nc -N):
  // the replies it asked for are still delivered before the server closes.
  auto server = ServerProcess::StartKvserver();
  ASSERT_TRUE(server);
  {
    RawClient raw(server->port());
    ASSERT_TRUE(raw.SendAll("PING\r\nSET k v\r\n"));
    raw.ShutdownWrite();
    bool closed = false;
    EXPECT_EQ(raw.ReadUntilClosed(5000, &closed), "+PONG\r\n+OK\r\n");
    EXPECT_TRUE(closed);
  }
  auto c = server->Connect();
  const std::string value(1024 * 1024, 'h');
  ASSERT_EQ(Str(Command(c.get(), "SET big %b", value.data(), value.size())), "OK");
  RawClient raw(server->port());
  std::string request;
  for (int i = 0; i < 20; ++i) request += "GET big\r\n";
  ASSERT_TRUE(raw.SendAll(request));
  raw.ShutdownWrite();
  // 20 MB of replies: more than the socket buffers hold, so most are written after the EOF.
  bool closed = false;
  const std::string replies = raw.ReadUntilClosed(20000, &closed);
  EXPECT_TRUE(closed);
  ASSERT_EQ(replies.size(), 20 * (BulkReply(value).size()));
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(std::string_view(replies).substr(i * BulkReply(value).size(),
                                                 BulkReply(value).size()) == BulkReply(value))
        << "reply " << i;
  }
}

TEST(Limits, ProtoMaxBulkLen) {
  auto server = ServerProcess::StartKvserver({"--proto-max-bulk-len", "1mb"});
  ASSERT_TRUE(server);
  {
    RawClient raw(server->port());
    ASSERT_TRUE(raw.SendAll("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$2000000\r\n"));
    bool closed = false;
    EXPECT_EQ(raw.ReadUntilClosed(5000, &closed), "-ERR Protocol error: invalid bulk length\r\n");
    EXPECT_TRUE(closed);
  }
  auto c = server->Connect();
  // Exactly the limit is still accepted.
  const std::string at_limit(1024 * 1024, 'v');
  EXPECT_EQ(Str(Command(c.get(), "SET k %b", at_limit.data(), at_limit.size())), "OK");
  // The limit follows CONFIG SET.
  EXPECT_EQ(Str(Command(c.get(), "CONFIG SET proto-max-bulk-len 2mb")), "OK");
  const std::string bigger(2000000, 'w');
  EXPECT_EQ(Str(Command(c.get(), "SET k %b", bigger.data(), bigger.size())), "OK");
  Reply get = Command(c.get(), "GET k");
  ASSERT_TRUE(get);
  EXPECT_TRUE(std::string_view(get->str, get->len) == bigger);
}

TEST(Limits, ClientQueryBufferLimit) {
  auto server = ServerProcess::StartKvserver({"--client-query-buffer-limit", "1mb"});
  ASSERT_TRUE(server);
  auto other = server->Connect();
  RawClient raw(server->port());
  // A bulk of 2,000,000 bytes is announced and streamed; the command can never complete because
  // its final CRLF is never sent. The server must drop the client once its query buffer passes
  // 1 MB, as Redis does (no reply, just the close).
  ASSERT_TRUE(raw.SendAll("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$2000000\r\n"));
  const std::string chunk(64 * 1024, 'x');
  size_t sent = 0;
  bool send_failed = false;
  int pings = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (sent < 2000000 && std::chrono::steady_clock::now() < deadline) {
    const ssize_t n = raw.SendSome(std::string_view(chunk).substr(0, 2000000 - sent));
    if (n < 0) {
      send_failed = true;
      break;
    }
    sent += static_cast<size_t>(n);
    if (n == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    // The other client is served while this one streams.
    if (++pings % 8 == 0) {
      ASSERT_EQ(Str(Command(other.get(), "PING")), "PONG");
    }
  }
  bool closed = send_failed;
  if (!closed) {
    const std::string got = raw.ReadUntilClosed(5000, &closed);
    EXPECT_EQ(got, "") << "Redis sends nothing to a client it drops for its query buffer";
  }
  EXPECT_TRUE(closed) << "sent " << sent << " bytes and the connection is still open";
  EXPECT_EQ(Str(Command(other.get(), "PING")), "PONG");
  Reply exists = Command(other.get(), "EXISTS k");
  ASSERT_TRUE(exists);
  EXPECT_EQ(exists->integer, 0);
  EXPECT_TRUE(Eventually(
      [&] { return server->ReadLog().find("max query buffer length") != std::string::npos; }, 5000))
      << server->ReadLog();

  // A command that fits is still fine.
  const std::string fits(900 * 1024, 'y');
  EXPECT_EQ(Str(Command(other.get(), "SET k %b", fits.data(), fits.size())), "OK");
}

}  // namespace
}  // namespace kv::test
