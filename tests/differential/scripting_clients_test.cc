// Scripts as the other clients see them, against the real redis-server 7.0.15: which EVAL,
// EVALSHA and FCALL calls CLIENT PAUSE WRITE holds (Redis works out a script's command flags from
// its shebang or function flags), and which keys a tracking client's scripts make it track.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/paired_clients.h"

namespace kv::test {
namespace {

// The value of `name` in an INFO reply, "" when absent.
std::string InfoField(const std::string& info, const std::string& name) {
  const size_t at = info.find("\n" + name + ":");
  if (at == std::string::npos) return "";
  const size_t start = at + name.size() + 2;
  return info.substr(start, info.find('\r', start) - start);
}

class ScriptingClientsDiffTest : public BothServersTest<ScriptingClientsDiffTest> {
 protected:
  // One server's side: a control connection that pauses and a client that runs the commands.
  struct Side {
    std::unique_ptr<RawConnection> control, client;
  };

  void SetUp() override {
    BothServersTest::SetUp();
    if (HasFatalFailure()) return;
    for (auto [side, port] : {std::pair{&kv_, kvserver_->port()}, {&redis_side_, redis_->port()}}) {
      side->control = RawConnection::Connect(port);
      side->client = RawConnection::Connect(port);
      ASSERT_TRUE(side->control && side->client) << "cannot connect";
      side->control->Call({"FLUSHALL"});
      side->control->Call({"SCRIPT", "FLUSH"});
      side->control->Call({"FUNCTION", "FLUSH"});
    }
  }
  void TearDown() override {
    for (Side* side : {&kv_, &redis_side_}) {
      if (side->control) side->control->Call({"CLIENT", "UNPAUSE"});
    }
  }

  // Sends `commands` on the client of `side` under CLIENT PAUSE WRITE: "ran: <reply>" for each
  // command answered at once, "held" when the server holds the client (INFO blocked_clients,
  // as Redis's suite waits for it), then, after CLIENT UNPAUSE, the replies the client gets.
  static std::vector<std::string> UnderPause(Side& side, const std::vector<Args>& commands) {
    std::vector<std::string> outcome;
    side.control->Call({"CLIENT", "PAUSE", "100000", "WRITE"});
    size_t held = 0;
    for (const Args& command : commands) {
      side.client->Send(EncodeCommand(command));
      if (held != 0) {
        ++held;  // a held client's next commands wait behind the first
        continue;
      }
      std::string what = "neither";
      for (int i = 0; i < 300; ++i) {
        if (std::optional<std::string> reply = side.client->ReadReply(10)) {
          what = "ran: " + *reply;
          break;
        }
        if (InfoField(side.control->Call({"INFO", "clients"}), "blocked_clients") == "1") {
          what = "held";
          held = 1;
          break;
        }
      }
      outcome.push_back(DescribeArgs(command) + " -> " + what);
    }
    side.control->Call({"CLIENT", "UNPAUSE"});
    for (size_t i = 0; i < held; ++i) {
      outcome.push_back("after unpause: " + side.client->ReadReply().value_or("<no reply>"));
    }
    return outcome;
  }

  // Runs `commands` under a pause on both servers; every outcome must be Redis's.
  void ExpectSamePauseOutcome(const std::vector<Args>& commands) {
    const std::vector<std::string> kv = UnderPause(kv_, commands);
    const std::vector<std::string> redis = UnderPause(redis_side_, commands);
    EXPECT_EQ(kv, redis);
  }

  // A command on the client of both servers, outside any pause.
  void Setup(const Args& command) {
    for (Side* side : {&kv_, &redis_side_}) side->client->Call(command);
  }

  Side kv_, redis_side_;
};

const std::string kNoWrites = "#!lua flags=no-writes\nreturn 'read only'";
const std::string kShebangNoFlags = "#!lua\nreturn 'shebang without flags'";

TEST_F(ScriptingClientsDiffTest, ScriptsWithoutFlagsAreHeldByPauseWrite) {
  ExpectSamePauseOutcome({{"EVAL", "return 1", "0"}});
  ExpectSamePauseOutcome({{"EVAL", kShebangNoFlags, "0"}});
  ExpectSamePauseOutcome({{"EVAL", "#!lua flags=allow-oom\nreturn 2", "0"}});
  // An unknown SHA1 keeps EVALSHA's own flags: held, then NOSCRIPT.
  ExpectSamePauseOutcome({{"EVALSHA", std::string(40, 'a'), "0"}});
  // A write script through the _RO command: held, then refused.
  ExpectSamePauseOutcome({{"EVAL_RO", kShebangNoFlags, "0"}});
}

TEST_F(ScriptingClientsDiffTest, ScriptsDeclaringNoWritesRunDuringPauseWrite) {
  Setup({"SET", "x", "y"});
  ExpectSamePauseOutcome(
      {{"EVAL", kNoWrites, "0"},
       {"EVAL", kNoWrites, "0"},  // now cached
       {"EVAL", "#!lua flags=no-writes,allow-stale\nreturn 3", "0"},
       {"EVAL_RO", "return redis.call('GeT', 'x')..' unique'", "1", "x"},
       {"EVAL", "#!lua flags=no-writes\nreturn redis.call('get', KEYS[1])", "1", "x"}});
}

TEST_F(ScriptingClientsDiffTest, EvalShaFollowsTheCachedScriptsFlags) {
  Setup({"SCRIPT", "LOAD", kNoWrites});
  Setup({"SCRIPT", "LOAD", kShebangNoFlags});
  Setup({"SCRIPT", "LOAD", "return 'no shebang'"});
  std::string sha_ro, sha_rw, sha_compat;
  for (auto [script, sha] : {std::pair{&kNoWrites, &sha_ro}, {&kShebangNoFlags, &sha_rw}}) {
    const std::string reply = kv_.control->Call({"SCRIPT", "LOAD", *script});
    *sha = reply.substr(reply.find('\n') + 1, 40);
  }
  {
    const std::string reply = kv_.control->Call({"SCRIPT", "LOAD", "return 'no shebang'"});
    sha_compat = reply.substr(reply.find('\n') + 1, 40);
  }
  ExpectSamePauseOutcome({{"EVALSHA", sha_ro, "0"}, {"EVALSHA_RO", sha_ro, "0"}});
  ExpectSamePauseOutcome({{"EVALSHA", sha_rw, "0"}});
  ExpectSamePauseOutcome({{"EVALSHA", sha_compat, "0"}});
  ExpectSamePauseOutcome({{"EVALSHA_RO", sha_compat, "0"}});
}

TEST_F(ScriptingClientsDiffTest, FunctionsFollowTheirFlags) {
  Setup({"FUNCTION", "LOAD",
         "#!lua name=lib\n"
         "redis.register_function{function_name='ro', callback=function() return 'ro' end, "
         "flags={'no-writes'}}\n"
         "redis.register_function('rw', function() return 'rw' end)"});
  ExpectSamePauseOutcome({{"FCALL", "ro", "0"}, {"FCALL_RO", "ro", "0"}, {"fcall", "RO", "0"}});
  ExpectSamePauseOutcome({{"FCALL", "rw", "0"}});
  ExpectSamePauseOutcome({{"FCALL_RO", "rw", "0"}});
  ExpectSamePauseOutcome({{"FCALL", "missing", "0"}});
}

TEST_F(ScriptingClientsDiffTest, TransactionsTakeTheirScriptsFlags) {
  // Queued before the pause: EXEC is held when a queued script may write.
  for (const std::string& script : {kShebangNoFlags, std::string("return 13")}) {
    Setup({"MULTI"});
    Setup({"EVAL", script, "0"});
    ExpectSamePauseOutcome({{"EXEC"}});
  }
  Setup({"MULTI"});
  Setup({"EVAL", kNoWrites, "0"});
  Setup({"EVAL", "#!lua flags=no-writes\nreturn 13", "0"});
  ExpectSamePauseOutcome({{"EXEC"}});
}

TEST_F(ScriptingClientsDiffTest, ReadOnlyScriptsRefuseMayReplicateCommands) {
  for (Side* side : {&kv_, &redis_side_}) side->client->Call({"PFADD", "hll", "a"});
  const std::vector<Args> commands = {
      {"EVAL_RO", "return redis.call('publish','ch','msg')", "0"},
      {"EVAL", "#!lua flags=no-writes\nreturn redis.call('publish','ch','msg')", "0"},
      {"EVAL_RO", "return redis.call('pfcount', KEYS[1])", "1", "hll"},
      {"EVAL", "return redis.call('publish','ch','msg')", "0"},
      {"EVAL", "#!lua\nreturn redis.call('publish','ch','msg')", "0"},
      {"EVAL", "return redis.call('pfcount', KEYS[1])", "1", "hll"},
  };
  for (const Args& command : commands) {
    EXPECT_EQ(kv_.client->Call(command), redis_side_.client->Call(command))
        << DescribeArgs(command);
  }
}

// The tracking client's script steps and the writer's writes; every frame each client gets must
// be Redis's (the invalidations show which keys the scripts made the tracker track).
TEST_F(ScriptingClientsDiffTest, TrackingFollowsScriptsThatRead) {
  PairedClients clients(kvserver_->port(), redis_->port());
  ASSERT_TRUE(clients.Open(0) && clients.Open(1));
  const Args write_all = {"MSET", "key2{t}", "2", "key1{t}", "2", "key3{t}", "2"};
  const std::vector<std::pair<size_t, Args>> steps = {
      {1,
       {"FUNCTION", "LOAD",
        "#!lua name=tlib\n"
        "redis.register_function{function_name='reader', callback=function(k) "
        "return redis.call('get', 'key3{t}') end, flags={'no-writes'}}\n"
        "redis.register_function('pinger', function(k) return redis.call('ping') end)"}},
      {0, {"HELLO", "3"}},
      {0, {"CLIENT", "TRACKING", "ON"}},
      {1, write_all},
      // No read: nothing tracked.
      {0, {"EVAL", "redis.call('set', 'key3{t}', 'bar')", "2", "key1{t}", "key2{t}"}},
      {1, write_all},
      // A read: the declared keys are tracked, not the key read.
      {0, {"EVAL", "redis.call('get', 'key3{t}')", "2", "key1{t}", "key2{t}"}},
      {1, write_all},
      {0, {"EVAL_RO", "redis.call('ping')", "2", "key1{t}", "key2{t}"}},
      {1, write_all},
      {0, {"EVAL_RO", "redis.call('get', 'key1{t}')", "2", "key1{t}", "key2{t}"}},
      {1, write_all},
      {0, {"FCALL", "pinger", "1", "key2{t}"}},
      {1, write_all},
      {0, {"FCALL_RO", "reader", "1", "key2{t}"}},
      {1, write_all},
      // A read that failed still counts; a script without keys tracks nothing.
      {0, {"EVAL", "return redis.pcall('get', KEYS[1], 'extra')", "1", "key1{t}"}},
      {0, {"EVAL", "return redis.call('get', 'key1{t}')", "0"}},
      {1, write_all},
      // OPTIN: only after CLIENT CACHING YES.
      {0, {"CLIENT", "TRACKING", "ON", "OPTIN"}},
      {0, {"EVAL", "return redis.call('get', KEYS[1])", "1", "key1{t}"}},
      {1, write_all},
      {0, {"CLIENT", "CACHING", "YES"}},
      {0, {"EVAL", "return redis.call('get', KEYS[1])", "1", "key2{t}"}},
      {1, write_all},
      // BCAST clients track prefixes, never a script's keys.
      {0, {"CLIENT", "TRACKING", "OFF"}},
      {0, {"CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "key1"}},
      {0, {"EVAL", "return redis.call('get', KEYS[1])", "1", "key2{t}"}},
      {1, write_all},
      {0, {"CLIENT", "TRACKING", "OFF"}},
      {0, {"FUNCTION", "DELETE", "tlib"}},
  };
  std::string history;
  for (const auto& [conn, command] : steps) {
    history += std::to_string(conn) + ": " + DescribeArgs(command) + "\n";
    const PairedClients::Received got = clients.Step(conn, command);
    for (size_t c = 0; c < 2; ++c) {
      // HELLO's reply names the server and its connection id.
      if (c == conn && command[0] == "HELLO") continue;
      EXPECT_EQ(got.kv[c], got.redis[c]) << "connection " << c << " after:\n" << history;
    }
  }
}

// Whether a TCP connection to `port` on loopback is refused (nothing listens there).
bool ConnectionRefused(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const int rc = ::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr));
  const bool refused = rc != 0 && errno == ECONNREFUSED;
  ::close(fd);
  return refused;
}

// SHUTDOWN NOSAVE while a script that wrote is busy (it cannot be killed): the server goes at
// once, and the connection attempted right after SHUTDOWN's connection closed is refused.
std::string ShutdownDuringBusyScript(ServerProcess& server) {
  std::unique_ptr<RawConnection> runner = RawConnection::Connect(server.port());
  std::unique_ptr<RawConnection> other = RawConnection::Connect(server.port());
  if (!runner || !other) return "cannot connect";
  std::string outcome = other->Call({"CONFIG", "SET", "busy-reply-threshold", "10"});
  runner->Send(EncodeCommand({"EVAL", "redis.call('set', 'x', 'y'); while true do end", "0"}));
  std::string busy;
  for (int i = 0; i < 100 && busy.find("BUSY") == std::string::npos; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    busy = other->Call({"PING"});
  }
  outcome += " " + busy.substr(0, 5);
  outcome += " " + other->Call({"SCRIPT", "KILL"}).substr(0, 12);
  outcome += " shutdown: " + other->Call({"SHUTDOWN", "NOSAVE"});
  outcome += ConnectionRefused(server.port()) ? " then refused" : " then accepted";
  return outcome;
}

TEST(ScriptingShutdownDiffTest, ShutdownNosaveDuringABusyScriptStopsListeningAtOnce) {
  std::unique_ptr<ServerProcess> kv = ServerProcess::StartKvserver();
  std::unique_ptr<ServerProcess> redis = ServerProcess::StartRedis();
  ASSERT_TRUE(kv && redis);
  const std::string redis_outcome = ShutdownDuringBusyScript(*redis);
  EXPECT_EQ(ShutdownDuringBusyScript(*kv), redis_outcome);
  EXPECT_NE(redis_outcome.find("then refused"), std::string::npos) << redis_outcome;
  EXPECT_EQ(kv->WaitExit(10000), 0);
}

}  // namespace
}  // namespace kv::test
