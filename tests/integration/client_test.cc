// HELLO and the CLIENT commands against the real kvserver binary: RESP3 after HELLO 3, CLIENT LIST
// over several connections, CLIENT KILL closing connections, CLIENT REPLY silencing replies,
// CLIENT PAUSE holding other clients' commands until CLIENT UNPAUSE or the timeout.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/resp_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

class ClientCommandsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = ServerProcess::StartKvserver().release(); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override { ASSERT_NE(server_, nullptr); }

  static std::unique_ptr<RawConnection> Connect() {
    auto c = RawConnection::Connect(server_->port());
    EXPECT_TRUE(c) << "cannot connect";
    return c;
  }

  static std::string Call(RawConnection& c, const std::vector<std::string>& args) {
    return c.Call(args);
  }
  static std::string LocalAddress(const RawConnection& c) { return c.LocalAddress(); }

  // True when the server closes `c` within a few seconds.
  static bool ClosedByServer(RawConnection& c) {
    for (int i = 0; i < 50; ++i) {
      const long n = c.ReadSome(100);
      if (n == 0) return true;
    }
    return false;
  }

  static ServerProcess* server_;
};

ServerProcess* ClientCommandsTest::server_ = nullptr;

TEST_F(ClientCommandsTest, Hello3SwitchesEveryReplyToResp3) {
  auto c = Connect();
  ASSERT_TRUE(c);
  EXPECT_EQ(Call(*c, {"GET", "missing"}), "$-1\r\n");
  const std::string hello = Call(*c, {"HELLO", "3"});
  EXPECT_TRUE(
      hello.starts_with("%7\r\n$6\r\nserver\r\n$5\r\nredis\r\n$7\r\nversion\r\n$6\r\n7.0.15"
                        "\r\n$5\r\nproto\r\n:3\r\n$2\r\nid\r\n:"))
      << Escape(hello);
  EXPECT_EQ(Call(*c, {"GET", "missing"}), "_\r\n");
  EXPECT_EQ(Call(*c, {"CONFIG", "GET", "databases"}), "%1\r\n$9\r\ndatabases\r\n$2\r\n16\r\n");
  EXPECT_EQ(Call(*c, {"MGET", "missing", "missing2"}), "*2\r\n_\r\n_\r\n");
  const std::string info = Call(*c, {"CLIENT", "INFO"});
  EXPECT_TRUE(info.starts_with("=")) << Escape(info);
  EXPECT_NE(info.find(" resp=3 "), std::string::npos) << Escape(info);
  EXPECT_TRUE(Call(*c, {"HELLO", "2"}).starts_with("*14\r\n"));
  EXPECT_EQ(Call(*c, {"GET", "missing"}), "$-1\r\n");
  EXPECT_EQ(Call(*c, {"CONFIG", "GET", "databases"}), "*2\r\n$9\r\ndatabases\r\n$2\r\n16\r\n");
}

TEST_F(ClientCommandsTest, ClientListShowsBothConnectionsWithTheirNames) {
  auto a = Connect();
  auto b = Connect();
  ASSERT_TRUE(a && b);
  EXPECT_EQ(Call(*a, {"CLIENT", "SETNAME", "alpha"}), "+OK\r\n");
  EXPECT_TRUE(Call(*b, {"HELLO", "3", "SETNAME", "beta"}).starts_with("%7\r\n"));
  const std::string id_a = Call(*a, {"CLIENT", "ID"});
  const std::string id_b = Call(*b, {"CLIENT", "ID"});
  ASSERT_TRUE(id_a.starts_with(":") && id_b.starts_with(":"));
  const std::string list = Call(*a, {"CLIENT", "LIST"});
  const std::string line_a = "id=" + id_a.substr(1, id_a.size() - 3) + " addr=" + LocalAddress(*a);
  const std::string line_b = "id=" + id_b.substr(1, id_b.size() - 3) + " addr=" + LocalAddress(*b);
  const size_t at_a = list.find(line_a);
  const size_t at_b = list.find(line_b);
  ASSERT_NE(at_a, std::string::npos) << list;
  ASSERT_NE(at_b, std::string::npos) << list;
  EXPECT_LT(at_a, at_b);  // in the order they connected
  const std::string a_fields = list.substr(at_a, list.find('\n', at_a) - at_a);
  const std::string b_fields = list.substr(at_b, list.find('\n', at_b) - at_b);
  EXPECT_NE(a_fields.find(" name=alpha "), std::string::npos) << a_fields;
  EXPECT_NE(a_fields.find(" cmd=client|list "), std::string::npos) << a_fields;
  EXPECT_NE(a_fields.find(" resp=2 "), std::string::npos) << a_fields;
  EXPECT_NE(b_fields.find(" name=beta "), std::string::npos) << b_fields;
  EXPECT_NE(b_fields.find(" cmd=client|id "), std::string::npos) << b_fields;
  EXPECT_NE(b_fields.find(" resp=3 "), std::string::npos) << b_fields;
  // CLIENT LIST ID picks clients by id.
  const std::string only_b = Call(*a, {"CLIENT", "LIST", "ID", id_b.substr(1, id_b.size() - 3)});
  EXPECT_EQ(only_b.find(line_a), std::string::npos) << only_b;
  EXPECT_NE(only_b.find(line_b), std::string::npos) << only_b;
}

TEST_F(ClientCommandsTest, ClientKillIdClosesTheOtherConnection) {
  auto a = Connect();
  auto b = Connect();
  ASSERT_TRUE(a && b);
  const std::string id_b = Call(*b, {"CLIENT", "ID"});
  ASSERT_TRUE(id_b.starts_with(":"));
  const std::string id = id_b.substr(1, id_b.size() - 3);
  EXPECT_EQ(Call(*a, {"CLIENT", "KILL", "ID", id}), ":1\r\n");
  EXPECT_TRUE(ClosedByServer(*b));
  EXPECT_EQ(Call(*a, {"CLIENT", "LIST"}).find("id=" + id + " "), std::string::npos);
  EXPECT_EQ(Call(*a, {"CLIENT", "KILL", "ID", id}), ":0\r\n");
  EXPECT_EQ(Call(*a, {"PING"}), "+PONG\r\n");
}

TEST_F(ClientCommandsTest, ClientKillByAddressAndItself) {
  auto a = Connect();
  auto b = Connect();
  ASSERT_TRUE(a && b);
  // A connection the server has not accepted yet is no client of its: b makes sure it is one.
  ASSERT_EQ(Call(*b, {"PING"}), "+PONG\r\n");
  EXPECT_EQ(Call(*a, {"CLIENT", "KILL", LocalAddress(*b)}), "+OK\r\n");
  EXPECT_TRUE(ClosedByServer(*b));
  EXPECT_EQ(Call(*a, {"CLIENT", "KILL", LocalAddress(*b)}), "-ERR No such client\r\n");
  // Killing itself: the reply comes first, then the connection closes.
  const std::string id_a = Call(*a, {"CLIENT", "ID"});
  EXPECT_EQ(Call(*a, {"CLIENT", "KILL", "ID", id_a.substr(1, id_a.size() - 3), "SKIPME", "no"}),
            ":1\r\n");
  EXPECT_TRUE(ClosedByServer(*a));
}

TEST_F(ClientCommandsTest, ClientReplyOffOnSkip) {
  auto c = Connect();
  ASSERT_TRUE(c);
  // One write: only the replies CLIENT REPLY lets through arrive, in order.
  std::string pipeline;
  for (const std::vector<std::string>& cmd : std::vector<std::vector<std::string>>{
           {"CLIENT", "REPLY", "OFF"},
           {"SET", "reply-key", "v"},
           {"PING"},
           {"NOSUCHCOMMAND"},
           {"CLIENT", "REPLY", "ON"},
           {"GET", "reply-key"},
           {"CLIENT", "REPLY", "SKIP"},
           {"PING", "skipped"},
           {"PING", "sent"},
       }) {
    pipeline += EncodeCommand(cmd);
  }
  ASSERT_TRUE(c->Send(pipeline));
  EXPECT_EQ(c->ReadReply(), "+OK\r\n");
  EXPECT_EQ(c->ReadReply(), "$1\r\nv\r\n");
  EXPECT_EQ(c->ReadReply(), "$4\r\nsent\r\n");
  // Nothing else came.
  EXPECT_EQ(Call(*c, {"PING"}), "+PONG\r\n");
  EXPECT_EQ(c->pending(), "");
}

// ---- CLIENT PAUSE ----
// A held command has no reply yet: ReadReply with a short wait finds none (whatever the speed of
// the machine, a held command never replies before UNPAUSE).
constexpr int kHeldWaitMs = 200;

TEST_F(ClientCommandsTest, PauseWriteHoldsWritesUntilUnpauseAndReadsProceed) {
  auto admin = Connect();
  auto writer = Connect();
  auto reader = Connect();
  ASSERT_EQ(Call(*admin, {"DEL", "pause:k"}), ":0\r\n");
  ASSERT_EQ(Call(*admin, {"CLIENT", "PAUSE", "100000", "WRITE"}), "+OK\r\n");
  // The writer's SET is held, and so is the GET pipelined behind it.
  ASSERT_TRUE(
      writer->Send(EncodeCommand({"SET", "pause:k", "v"}) + EncodeCommand({"GET", "pause:k"})));
  EXPECT_EQ(writer->ReadReply(kHeldWaitMs), std::nullopt);
  // Reads from others proceed, and see that the SET has not run.
  EXPECT_EQ(Call(*reader, {"GET", "pause:k"}), "$-1\r\n");
  EXPECT_EQ(Call(*reader, {"PING"}), "+PONG\r\n");
  // Errors found before a command would run are answered at once.
  EXPECT_EQ(Call(*reader, {"SET", "x"}), "-ERR wrong number of arguments for 'set' command\r\n");
  EXPECT_EQ(Call(*admin, {"CLIENT", "UNPAUSE"}), "+OK\r\n");
  EXPECT_EQ(writer->ReadReply(), "+OK\r\n");
  EXPECT_EQ(writer->ReadReply(), "$1\r\nv\r\n");
  EXPECT_EQ(Call(*reader, {"GET", "pause:k"}), "$1\r\nv\r\n");
}

TEST_F(ClientCommandsTest, HeldCommandsRunInTheOrderTheyWereHeld) {
  auto admin = Connect();
  ASSERT_EQ(Call(*admin, {"CLIENT", "PAUSE", "100000", "WRITE"}), "+OK\r\n");
  std::vector<std::unique_ptr<RawConnection>> writers;
  for (int i = 0; i < 5; ++i) {
    writers.push_back(Connect());
    ASSERT_TRUE(writers.back()->Send(EncodeCommand({"APPEND", "pause:order", std::to_string(i)})));
    // Each is held before the next one is sent.
    EXPECT_EQ(writers.back()->ReadReply(kHeldWaitMs / 4), std::nullopt);
  }
  EXPECT_EQ(Call(*admin, {"CLIENT", "UNPAUSE"}), "+OK\r\n");
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(writers[i]->ReadReply(), ":" + std::to_string(i + 1) + "\r\n");
  EXPECT_EQ(Call(*admin, {"GET", "pause:order"}), "$5\r\n01234\r\n");
  Call(*admin, {"DEL", "pause:order"});
}

// Like Redis's postponed clients, held ones count in INFO's blocked_clients and show flag b.
TEST_F(ClientCommandsTest, HeldClientsCountAsBlocked) {
  auto admin = Connect();
  auto writer = Connect();
  ASSERT_EQ(Call(*writer, {"CLIENT", "SETNAME", "held"}), "+OK\r\n");
  ASSERT_EQ(Call(*admin, {"CLIENT", "PAUSE", "100000", "WRITE"}), "+OK\r\n");
  ASSERT_TRUE(writer->Send(EncodeCommand({"SET", "pause:counted", "v"})));
  EXPECT_EQ(writer->ReadReply(kHeldWaitMs), std::nullopt);
  EXPECT_NE(Call(*admin, {"INFO", "clients"}).find("\r\nblocked_clients:1\r\n"), std::string::npos);
  const std::string list = Call(*admin, {"CLIENT", "LIST"});
  const size_t held = list.find(" name=held ");
  ASSERT_NE(held, std::string::npos) << list;
  EXPECT_NE(list.substr(held, list.find('\n', held) - held).find(" flags=b "), std::string::npos)
      << list;
  EXPECT_EQ(Call(*admin, {"CLIENT", "UNPAUSE"}), "+OK\r\n");
  EXPECT_EQ(writer->ReadReply(), "+OK\r\n");
  EXPECT_NE(Call(*admin, {"INFO", "clients"}).find("\r\nblocked_clients:0\r\n"), std::string::npos);
  EXPECT_EQ(Call(*writer, {"CLIENT", "INFO"}).find(" flags=b "), std::string::npos);
  Call(*admin, {"DEL", "pause:counted"});
}

// Redis's may-replicate commands are held by a WRITE pause too: PFCOUNT (it may rewrite the
// HyperLogLog's cached cardinality) and PUBLISH.
TEST_F(ClientCommandsTest, PauseWriteHoldsMayReplicateCommands) {
  auto admin = Connect();
  auto counter = Connect();
  auto publisher = Connect();
  ASSERT_EQ(Call(*admin, {"PFADD", "pause:hll", "a"}), ":1\r\n");
  ASSERT_EQ(Call(*admin, {"CLIENT", "PAUSE", "100000", "WRITE"}), "+OK\r\n");
  ASSERT_TRUE(counter->Send(EncodeCommand({"PFCOUNT", "pause:hll"})));
  ASSERT_TRUE(publisher->Send(EncodeCommand({"PUBLISH", "pause:ch", "m"})));
  EXPECT_EQ(counter->ReadReply(kHeldWaitMs), std::nullopt);
  EXPECT_EQ(publisher->ReadReply(kHeldWaitMs), std::nullopt);
  EXPECT_EQ(Call(*admin, {"CLIENT", "UNPAUSE"}), "+OK\r\n");
  EXPECT_EQ(counter->ReadReply(), ":1\r\n");
  EXPECT_EQ(publisher->ReadReply(), ":0\r\n");
  Call(*admin, {"DEL", "pause:hll"});
}

TEST_F(ClientCommandsTest, PauseAllHoldsEveryCommandUntilTheTimeout) {
  auto admin = Connect();
  auto other = Connect();
  ASSERT_EQ(Call(*admin, {"CLIENT", "PAUSE", "300", "ALL"}), "+OK\r\n");
  ASSERT_TRUE(other->Send(EncodeCommand({"PING"})));
  // No speed assertion: the reply comes once the pause is over, however long that takes here.
  EXPECT_EQ(other->ReadReply(), "+PONG\r\n");
  EXPECT_EQ(Call(*admin, {"PING"}), "+PONG\r\n");
}

TEST_F(ClientCommandsTest, AHeldClientCanBeKilled) {
  auto admin = Connect();
  auto writer = Connect();
  const std::string id_reply = Call(*writer, {"CLIENT", "ID"});
  const std::string id = id_reply.substr(1, id_reply.size() - 3);
  ASSERT_EQ(Call(*admin, {"CLIENT", "PAUSE", "100000", "WRITE"}), "+OK\r\n");
  ASSERT_TRUE(writer->Send(EncodeCommand({"SET", "pause:killed", "v"})));
  EXPECT_EQ(writer->ReadReply(kHeldWaitMs), std::nullopt);
  EXPECT_EQ(Call(*admin, {"CLIENT", "KILL", "ID", id}), ":1\r\n");
  EXPECT_EQ(writer->ReadSome(10000), 0) << "closed";
  EXPECT_EQ(Call(*admin, {"CLIENT", "UNPAUSE"}), "+OK\r\n");
  EXPECT_EQ(Call(*admin, {"EXISTS", "pause:killed"}), ":0\r\n") << "the held SET never ran";
}

// A client keeps its buffers between batches (regrowing them for each would cost copies), and
// gives them back once it has been idle for 2 seconds, woken by the server's cron.
TEST_F(ClientCommandsTest, IdleClientsGiveBackTheirBuffers) {
  auto admin = Connect();
  auto client = Connect();
  const std::string id_reply = Call(*client, {"CLIENT", "ID"});
  const std::string id = id_reply.substr(1, id_reply.size() - 3);
  const std::string value(300'000, 'x');
  ASSERT_EQ(Call(*client, {"SET", "buffers:big", value}), "+OK\r\n");
  const std::string reply = "$300000\r\n" + value + "\r\n";
  ASSERT_EQ(Call(*client, {"GET", "buffers:big"}), reply);
  // CLIENT LIST's fields for `client`, without the trailing event and command fields.
  auto buffers = [&] {
    const std::string line = Call(*admin, {"CLIENT", "LIST", "ID", id});
    const size_t from = line.find(" qbuf=");
    return line.substr(from, line.find(" obl=") - from);
  };
  const std::string busy = buffers();
  EXPECT_EQ(busy.find(" rbs=0 "), std::string::npos) << busy;
  EXPECT_EQ(busy.find(" qbuf-free=0 "), std::string::npos) << busy;
  std::string idle;
  for (int i = 0; i < 100 && (idle = buffers()).find(" qbuf-free=0 ") == std::string::npos; ++i) {
    usleep(50'000);
  }
  EXPECT_NE(idle.find(" qbuf=0 qbuf-free=0 "), std::string::npos) << idle;
  EXPECT_NE(idle.find(" rbs=0 "), std::string::npos) << idle;
  // Woken without its buffers, the client is served as before.
  EXPECT_EQ(Call(*client, {"GET", "buffers:big"}), reply);
}

}  // namespace
}  // namespace kv::test
