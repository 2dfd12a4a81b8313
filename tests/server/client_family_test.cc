// HELLO and the CLIENT family through the real dispatcher, with the harness's FakeClients as the
// server's connections. Expected bytes are what Redis 7.0.15 sends (7.2 for SETINFO, NO-TOUCH and
// the lib-name/lib-ver fields).

#include <string>

#include "gtest/gtest.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

// HELLO's fields after its header, for client id 1.
std::string HelloBody(int proto) {
  return "$6\r\nserver\r\n$5\r\nredis\r\n$7\r\nversion\r\n$6\r\n7.0.15\r\n$5\r\nproto\r\n:" +
         std::to_string(proto) +
         "\r\n$2\r\nid\r\n:1\r\n$4\r\nmode\r\n$10\r\nstandalone\r\n$4\r\nrole\r\n$6\r\nmaster\r\n"
         "$7\r\nmodules\r\n*0\r\n";
}

class ClientFamilyTest : public ::testing::Test {
 protected:
  CommandHarness h;
};

TEST_F(ClientFamilyTest, HelloRepliesInBothProtocols) {
  EXPECT_EQ(h.Run({"HELLO"}), "*14\r\n" + HelloBody(2));
  EXPECT_EQ(h.Run({"hello", "3"}), "%7\r\n" + HelloBody(3));
  EXPECT_EQ(h.conn().protocol, 3);
  // Without a version HELLO keeps the protocol.
  EXPECT_EQ(h.Run({"HELLO"}), "%7\r\n" + HelloBody(3));
  EXPECT_EQ(h.Run({"GET", "missing"}), "_\r\n");
  EXPECT_EQ(h.Run({"HELLO", "2"}), "*14\r\n" + HelloBody(2));
  EXPECT_EQ(h.conn().protocol, 2);
  EXPECT_EQ(h.Run({"GET", "missing"}), "$-1\r\n");
}

TEST_F(ClientFamilyTest, HelloErrors) {
  EXPECT_EQ(h.Run({"HELLO", "1"}), "-NOPROTO unsupported protocol version\r\n");
  EXPECT_EQ(h.Run({"HELLO", "4"}), "-NOPROTO unsupported protocol version\r\n");
  EXPECT_EQ(h.Run({"HELLO", "-1"}), "-NOPROTO unsupported protocol version\r\n");
  EXPECT_EQ(h.Run({"HELLO", "abc"}), Err("Protocol version is not an integer or out of range"));
  EXPECT_EQ(h.Run({"HELLO", "99999999999999999999"}),
            Err("Protocol version is not an integer or out of range"));
  EXPECT_EQ(h.Run({"HELLO", " 3"}), Err("Protocol version is not an integer or out of range"));
  EXPECT_EQ(h.Run({"HELLO", "3", "FOO"}), Err("Syntax error in HELLO option 'FOO'"));
  EXPECT_EQ(h.Run({"HELLO", "3", "AUTH", "default"}), Err("Syntax error in HELLO option 'AUTH'"));
  EXPECT_EQ(h.Run({"HELLO", "3", "SETNAME"}), Err("Syntax error in HELLO option 'SETNAME'"));
  EXPECT_EQ(h.Run({"HELLO", "3", "AUTH", "bob", "pw"}),
            "-WRONGPASS invalid username-password pair or user is disabled.\r\n");
  EXPECT_EQ(h.Run({"HELLO", "3", "SETNAME", "a b"}),
            Err("Client names cannot contain spaces, newlines or special characters."));
  // None of the failed HELLOs switched the protocol.
  EXPECT_EQ(h.conn().protocol, 2);
}

TEST_F(ClientFamilyTest, HelloAuthAndSetname) {
  // The default user has no password: any password is accepted for it.
  EXPECT_EQ(h.Run({"HELLO", "3", "AUTH", "default", "anything", "SETNAME", "me"}),
            "%7\r\n" + HelloBody(3));
  EXPECT_EQ(h.Run({"CLIENT", "GETNAME"}), Bulk("me"));
  // An option applies even when a later one fails, as in Redis.
  EXPECT_EQ(h.Run({"HELLO", "2", "setname", "other", "bad"}),
            Err("Syntax error in HELLO option 'bad'"));
  EXPECT_EQ(h.Run({"CLIENT", "GETNAME"}), Bulk("other"));
  EXPECT_EQ(h.conn().protocol, 3);
}

TEST_F(ClientFamilyTest, IdSetnameGetname) {
  EXPECT_EQ(h.Run({"CLIENT", "ID"}), ":1\r\n");
  EXPECT_EQ(h.Run({"CLIENT", "GETNAME"}), "$-1\r\n");
  EXPECT_EQ(h.Run({"client", "setname", "conn-1"}), "+OK\r\n");
  EXPECT_EQ(h.Run({"CLIENT", "GETNAME"}), Bulk("conn-1"));
  for (std::string_view bad : {"a b", "a\nb", "caf\xc3\xa9", "\x7f"}) {
    EXPECT_EQ(h.Run({"CLIENT", "SETNAME", bad}),
              Err("Client names cannot contain spaces, newlines or special characters."));
  }
  EXPECT_EQ(h.Run({"CLIENT", "GETNAME"}), Bulk("conn-1"));
  EXPECT_EQ(h.Run({"CLIENT", "SETNAME", ""}), "+OK\r\n");
  EXPECT_EQ(h.Run({"CLIENT", "GETNAME"}), "$-1\r\n");
  h.conn().protocol = 3;
  EXPECT_EQ(h.Run({"CLIENT", "GETNAME"}), "_\r\n");
}

TEST_F(ClientFamilyTest, Arity) {
  EXPECT_EQ(h.Run({"CLIENT"}), Err("wrong number of arguments for 'client' command"));
  EXPECT_EQ(h.Run({"CLIENT", "ID", "x"}), Err("wrong number of arguments for 'client|id' command"));
  EXPECT_EQ(h.Run({"CLIENT", "SETNAME"}),
            Err("wrong number of arguments for 'client|setname' command"));
  EXPECT_EQ(h.Run({"CLIENT", "KILL"}), Err("wrong number of arguments for 'client|kill' command"));
  EXPECT_EQ(h.Run({"CLIENT", "REPLY"}),
            Err("wrong number of arguments for 'client|reply' command"));
  EXPECT_EQ(h.Run({"CLIENT", "nope"}), Err("unknown subcommand 'nope'. Try CLIENT HELP."));
}

TEST_F(ClientFamilyTest, InfoLine) {
  h.clock().Set(1'700'000'000'000);
  h.conn().created_ms = 1'699'999'990'500;
  EXPECT_EQ(h.Run({"CLIENT", "SETNAME", "me"}), "+OK\r\n");
  const std::string line =
      "id=1 addr=127.0.0.1:40001 laddr=127.0.0.1:6379 fd=8 name=me age=10 idle=10 flags=N db=0 "
      "sub=0 psub=0 ssub=0 multi=-1 qbuf=0 qbuf-free=0 argv-mem=10 multi-mem=0 rbs=0 rbp=0 obl=0 "
      "oll=0 omem=0 tot-mem=10 events=r cmd=client|info user=default redir=-1 resp=2 lib-name= "
      "lib-ver=\n";
  EXPECT_EQ(h.Run({"CLIENT", "INFO"}), Bulk(line));
  h.conn().protocol = 3;
  std::string resp3 = line;
  resp3.replace(resp3.find("resp=2"), 6, "resp=3");
  EXPECT_EQ(h.Run({"CLIENT", "INFO"}),
            "=" + std::to_string(resp3.size() + 4) + "\r\ntxt:" + resp3 + "\r\n");
}

TEST_F(ClientFamilyTest, FlagsAndSetinfo) {
  EXPECT_EQ(h.Run({"CLIENT", "NO-EVICT", "on"}), "+OK\r\n");
  EXPECT_EQ(h.Run({"CLIENT", "NO-TOUCH", "ON"}), "+OK\r\n");
  EXPECT_EQ(h.Run({"CLIENT", "NO-EVICT", "maybe"}), Err("syntax error"));
  EXPECT_EQ(h.Run({"CLIENT", "NO-TOUCH", "maybe"}), Err("syntax error"));
  EXPECT_EQ(h.Run({"CLIENT", "SETINFO", "LIB-NAME", "redis-py"}), "+OK\r\n");
  EXPECT_EQ(h.Run({"CLIENT", "SETINFO", "lib-ver", "5.0.1"}), "+OK\r\n");
  EXPECT_EQ(h.Run({"CLIENT", "SETINFO", "lib-ver", "5 0"}),
            Err("lib-ver cannot contain spaces, newlines or special characters."));
  EXPECT_EQ(h.Run({"CLIENT", "SETINFO", "other", "x"}), Err("Unrecognized option 'other'"));
  std::string info = h.Run({"CLIENT", "INFO"});
  EXPECT_NE(info.find(" flags=eT "), std::string::npos) << info;
  EXPECT_NE(info.find(" lib-name=redis-py lib-ver=5.0.1\n"), std::string::npos) << info;
  EXPECT_EQ(h.Run({"CLIENT", "NO-EVICT", "off"}), "+OK\r\n");
  EXPECT_EQ(h.Run({"CLIENT", "NO-TOUCH", "off"}), "+OK\r\n");
  EXPECT_EQ(h.Run({"CLIENT", "SETINFO", "lib-name", ""}), "+OK\r\n");
  info = h.Run({"CLIENT", "INFO"});
  EXPECT_NE(info.find(" flags=N "), std::string::npos) << info;
  EXPECT_NE(info.find(" lib-name= lib-ver=5.0.1\n"), std::string::npos) << info;
}

TEST_F(ClientFamilyTest, ListShowsEveryClientWithItsLastCommand) {
  ConnState other;
  other.id = 7;
  other.name = "worker";
  other.db_index = 3;
  h.clients().Add(&other, "127.0.0.1:40007", "127.0.0.1:6379", 12);
  EXPECT_EQ(h.Run({"CLIENT", "SETNAME", "main"}), "+OK\r\n");
  const std::string list = h.Run({"CLIENT", "LIST"});
  ASSERT_EQ(list[0], '$');
  const size_t first = list.find("id=1 addr=127.0.0.1:40001 laddr=127.0.0.1:6379 fd=8 name=main ");
  const size_t second =
      list.find("\nid=7 addr=127.0.0.1:40007 laddr=127.0.0.1:6379 fd=12 name=worker ");
  EXPECT_NE(first, std::string::npos) << list;
  EXPECT_NE(second, std::string::npos) << list;
  EXPECT_LT(first, second);
  EXPECT_NE(list.find(" db=3 "), std::string::npos) << list;
  EXPECT_NE(list.find(" cmd=client|list "), std::string::npos) << list;
  EXPECT_NE(list.find(" cmd=NULL "), std::string::npos) << list;  // 7 ran nothing yet
  // The last command's full name, lower case, and NULL after an unknown command.
  h.Run({"GET", "k"});
  EXPECT_NE(h.Run({"CLIENT", "LIST", "ID", "1"}).find(" cmd=client|list "), std::string::npos);
  h.Run({"NOSUCH"});
  other.last_cmd = nullptr;
  EXPECT_NE(h.Run({"CLIENT", "LIST", "ID", "7"}).find(" cmd=NULL "), std::string::npos);

  const std::string only7 = h.Run({"CLIENT", "LIST", "ID", "7", "99"});
  EXPECT_EQ(only7.find("id=1 "), std::string::npos) << only7;
  EXPECT_NE(only7.find("id=7 "), std::string::npos) << only7;
  EXPECT_EQ(h.Run({"CLIENT", "LIST", "ID", "99"}), "$0\r\n\r\n");
  EXPECT_EQ(h.Run({"CLIENT", "LIST", "ID", "x"}), Err("Invalid client ID"));
  EXPECT_EQ(h.Run({"CLIENT", "LIST", "ID"}), Err("syntax error"));
  EXPECT_EQ(h.Run({"CLIENT", "LIST", "TYPE", "pubsub"}), "$0\r\n\r\n");
  EXPECT_EQ(h.Run({"CLIENT", "LIST", "TYPE", "bogus"}), Err("Unknown client type 'bogus'"));
  EXPECT_NE(h.Run({"CLIENT", "LIST", "TYPE", "NORMAL"}).find("id=7 "), std::string::npos);
  EXPECT_EQ(h.Run({"CLIENT", "LIST", "FOO"}), Err("syntax error"));
}

TEST_F(ClientFamilyTest, Kill) {
  ConnState a, b;
  a.id = 5;
  b.id = 6;
  h.clients().Add(&a, "127.0.0.1:40005", "127.0.0.1:6379", 10);
  h.clients().Add(&b, "127.0.0.1:40006", "127.0.0.1:6380", 11);
  EXPECT_EQ(h.Run({"CLIENT", "KILL", "1.2.3.4:5"}), Err("No such client"));
  EXPECT_EQ(h.Run({"CLIENT", "KILL", "127.0.0.1:40005"}), "+OK\r\n");
  EXPECT_EQ(h.clients().killed(), std::vector<uint64_t>{5});
  EXPECT_EQ(h.Run({"CLIENT", "KILL", "ID", "0"}), Err("client-id should be greater than 0"));
  EXPECT_EQ(h.Run({"CLIENT", "KILL", "ID", "x"}), Err("client-id should be greater than 0"));
  EXPECT_EQ(h.Run({"CLIENT", "KILL", "ID", "1", "FOO", "x"}), Err("syntax error"));
  EXPECT_EQ(h.Run({"CLIENT", "KILL", "ID", "1", "TYPE"}), Err("syntax error"));
  EXPECT_EQ(h.Run({"CLIENT", "KILL", "TYPE", "x", "ID", "1"}), Err("Unknown client type 'x'"));
  EXPECT_EQ(h.Run({"CLIENT", "KILL", "USER", "bob"}), Err("No such user 'bob'"));
  EXPECT_EQ(h.Run({"CLIENT", "KILL", "SKIPME", "maybe"}), Err("syntax error"));
  EXPECT_EQ(h.Run({"CLIENT", "KILL", "TYPE", "master"}), ":0\r\n");
  EXPECT_EQ(h.Run({"CLIENT", "KILL", "LADDR", "127.0.0.1:6380"}), ":1\r\n");
  EXPECT_EQ(h.clients().killed(), (std::vector<uint64_t>{5, 6}));
  // SKIPME defaults to yes: the caller survives a filter that matches it.
  EXPECT_EQ(h.Run({"CLIENT", "KILL", "USER", "default"}), ":0\r\n");
  EXPECT_FALSE(h.conn().close_after_reply);
  EXPECT_EQ(h.Run({"CLIENT", "KILL", "ID", "1", "SKIPME", "no"}), ":1\r\n");
  EXPECT_TRUE(h.conn().close_after_reply);
  EXPECT_EQ(h.clients().killed(), (std::vector<uint64_t>{5, 6}));
}

TEST_F(ClientFamilyTest, KillSelfWithTheOldForm) {
  EXPECT_EQ(h.Run({"CLIENT", "KILL", "127.0.0.1:40001"}), "+OK\r\n");
  EXPECT_TRUE(h.conn().close_after_reply);
  EXPECT_TRUE(h.clients().killed().empty());
}

TEST_F(ClientFamilyTest, ReplyOffSkipOn) {
  EXPECT_EQ(h.Run({"CLIENT", "REPLY", "OFF"}), "");
  EXPECT_EQ(h.Run({"SET", "k", "v"}), "");
  EXPECT_EQ(h.Run({"NOSUCH"}), "");  // errors are silenced too
  EXPECT_EQ(h.Run({"CLIENT", "REPLY", "SKIP"}), "");
  EXPECT_EQ(h.Run({"GET", "k"}), "");
  EXPECT_EQ(h.Run({"CLIENT", "REPLY", "ON"}), "+OK\r\n");
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("v"));
  EXPECT_EQ(h.Run({"CLIENT", "REPLY", "SKIP"}), "");
  EXPECT_EQ(h.Run({"GET", "k"}), "");
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("v"));
  // SKIP twice still skips one command only.
  EXPECT_EQ(h.Run({"CLIENT", "REPLY", "SKIP"}), "");
  EXPECT_EQ(h.Run({"CLIENT", "REPLY", "SKIP"}), "");
  EXPECT_EQ(h.Run({"PING"}), "");
  EXPECT_EQ(h.Run({"PING"}), "+PONG\r\n");
  // ON right after SKIP answers, and the skip is over.
  EXPECT_EQ(h.Run({"CLIENT", "REPLY", "SKIP"}), "");
  EXPECT_EQ(h.Run({"CLIENT", "REPLY", "ON"}), "+OK\r\n");
  EXPECT_EQ(h.Run({"PING"}), "+PONG\r\n");
  EXPECT_EQ(h.Run({"CLIENT", "REPLY", "MAYBE"}), Err("syntax error"));
}

// ---- CLIENT PAUSE / UNPAUSE (held commands run again when the harness runs them again) ----

TEST_F(ClientFamilyTest, PauseWriteHoldsWritesOnly) {
  h.Run({"SET", "k", "v"});
  EXPECT_EQ(h.Run({"CLIENT", "PAUSE", "1000", "WRITE"}), kOk);
  EXPECT_EQ(h.Run({"SET", "k", "new"}), "");
  EXPECT_TRUE(h.held());
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("v")) << "reads proceed";
  EXPECT_FALSE(h.held());
  EXPECT_EQ(h.Run({"DEL", "k"}), "");
  EXPECT_TRUE(h.held());
  // Errors found before the command would run are answered at once.
  EXPECT_EQ(h.Run({"SET", "k"}), Err("wrong number of arguments for 'set' command"));
  EXPECT_EQ(h.Run({"NOSUCH"}), Err("unknown command 'NOSUCH', with args beginning with: "));
  // The pause lasts while its end is not before now.
  h.clock().Advance(1000);
  EXPECT_EQ(h.Run({"SET", "k", "new"}), "");
  h.clock().Advance(1);
  EXPECT_EQ(h.Run({"SET", "k", "new"}), kOk);
  EXPECT_FALSE(h.held());
}

TEST_F(ClientFamilyTest, PauseAllHoldsEverythingUntilItEnds) {
  EXPECT_EQ(h.Run({"CLIENT", "PAUSE", "500"}), kOk);
  EXPECT_EQ(h.Run({"GET", "k"}), "");
  EXPECT_TRUE(h.held());
  // As in Redis 7.0, even CLIENT UNPAUSE waits under ALL.
  EXPECT_EQ(h.Run({"CLIENT", "UNPAUSE"}), "");
  EXPECT_TRUE(h.held());
  h.clock().Advance(501);
  EXPECT_EQ(h.Run({"GET", "k"}), "$-1\r\n");
}

TEST_F(ClientFamilyTest, UnpauseEndsAWritePause) {
  EXPECT_EQ(h.Run({"CLIENT", "PAUSE", "100000", "write"}), kOk);
  EXPECT_EQ(h.Run({"SET", "k", "v"}), "");
  EXPECT_EQ(h.Run({"CLIENT", "UNPAUSE"}), kOk);
  EXPECT_EQ(h.Run({"SET", "k", "v"}), kOk);
  EXPECT_EQ(h.Run({"CLIENT", "UNPAUSE"}), kOk) << "unpausing without a pause is fine";
}

TEST_F(ClientFamilyTest, PausesCombineToTheStricterTypeAndLaterEnd) {
  EXPECT_EQ(h.Run({"CLIENT", "PAUSE", "1000", "ALL"}), kOk);
  h.clock().Advance(10);  // held commands do not run, but the clock moves on
  EXPECT_EQ(h.Run({"CLIENT", "PAUSE", "100", "WRITE"}), "");  // held itself under ALL
  h.state().pause.Pause(ClientPause::Type::kWrite, h.clock().NowMs() + 5000, h.clock().NowMs());
  EXPECT_EQ(h.state().pause.type(), ClientPause::Type::kAll);
  h.clock().Advance(2000);  // past the ALL pause's first end, within the extension
  EXPECT_EQ(h.Run({"GET", "k"}), "") << "still ALL until the later end";
  h.clock().Advance(3001);
  EXPECT_EQ(h.Run({"GET", "k"}), "$-1\r\n");
  // CLIENT PAUSE 0 pauses nothing.
  EXPECT_EQ(h.Run({"CLIENT", "PAUSE", "0"}), kOk);
  EXPECT_EQ(h.Run({"GET", "k"}), "$-1\r\n");
  // A timeout that overflows ends in the past, as in Redis 7.0.
  EXPECT_EQ(h.Run({"CLIENT", "PAUSE", "9223372036854775807"}), kOk);
  EXPECT_EQ(h.Run({"GET", "k"}), "$-1\r\n");
}

TEST_F(ClientFamilyTest, PauseErrors) {
  EXPECT_EQ(h.Run({"CLIENT", "PAUSE"}),
            Err("wrong number of arguments for 'client|pause' command"));
  EXPECT_EQ(h.Run({"CLIENT", "PAUSE", "abc"}), Err("timeout is not an integer or out of range"));
  EXPECT_EQ(h.Run({"CLIENT", "PAUSE", "-1"}), Err("timeout is negative"));
  EXPECT_EQ(h.Run({"CLIENT", "PAUSE", "10", "foo"}), Err("CLIENT PAUSE mode must be WRITE or ALL"));
  EXPECT_EQ(h.Run({"CLIENT", "PAUSE", "abc", "foo"}),
            Err("CLIENT PAUSE mode must be WRITE or ALL"));
  EXPECT_EQ(h.Run({"CLIENT", "PAUSE", "10", "write", "x"}),
            Err("unknown subcommand or wrong number of arguments for 'pause'. Try CLIENT HELP."));
  EXPECT_EQ(h.Run({"CLIENT", "PAUSE", "99999999999999999999"}),
            Err("timeout is not an integer or out of range"));
  EXPECT_EQ(h.Run({"CLIENT", "UNPAUSE", "x"}),
            Err("wrong number of arguments for 'client|unpause' command"));
  EXPECT_EQ(h.state().pause.type(), ClientPause::Type::kOff);
}

TEST_F(ClientFamilyTest, Help) {
  const std::string help = h.Run({"client", "help"});
  EXPECT_TRUE(help.starts_with(
      "*54\r\n+CLIENT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n+CACHING "
      "(YES|NO)\r\n"))
      << help;
  EXPECT_TRUE(help.ends_with("+HELP\r\n+    Prints this help.\r\n")) << help;
  EXPECT_NE(help.find("+REPLY (ON|OFF|SKIP)\r\n"), std::string::npos);
}

TEST_F(ClientFamilyTest, Resp3RepliesOfOtherCommands) {
  h.Run({"HELLO", "3"});
  EXPECT_EQ(h.Run({"CONFIG", "GET", "databases"}), "%1\r\n$9\r\ndatabases\r\n$2\r\n16\r\n");
  EXPECT_EQ(h.Run({"MGET", "a", "b"}), "*2\r\n_\r\n_\r\n");
  EXPECT_TRUE(h.Run({"INFO", "server"}).starts_with("="));
}

}  // namespace
}  // namespace kv::test
