// The real redis-cli in interactive mode, on a pseudo-terminal, against the real kvserver binary
// and against the real redis-server: the same keystrokes must give the same screen (the port
// aside), and kvserver's screen must show the replies, the prompt of database 1, the hints and
// HELP text redis-cli builds from COMMAND DOCS.
//
// What redis-cli 7.0.15 sends at connect in interactive mode (src/redis-cli.c): AUTH only with
// -a/--user, SELECT only with -n, HELLO 3 only with -3 (cliConnect), then, once, COMMAND DOCS
// (cliInitHelp, for its hints, completion and HELP; with an error reply it falls back to its
// built-in help). Nothing else: no CLIENT SETNAME, no COMMAND, no INFO. The test checks that
// through INFO commandstats.

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <set>
#include <string>

#include "gtest/gtest.h"
#include "tests/support/resp_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

using Clock = std::chrono::steady_clock;

// redis-cli -p `port` on a new pseudo-terminal (120 columns), with no history or preferences
// file; the terminal's bytes are read through master().
class InteractiveCli {
 public:
  explicit InteractiveCli(int port) {
    struct winsize size = {};
    size.ws_row = 40;
    size.ws_col = 120;
    pid_ = forkpty(&master_, nullptr, nullptr, &size);
    if (pid_ == 0) {
      setenv("TERM", "xterm", 1);
      setenv("REDISCLI_HISTFILE", "/dev/null", 1);
      setenv("REDISCLI_RCFILE", "/dev/null", 1);
      const std::string p = std::to_string(port);
      execl(REDIS_CLI_BINARY, "redis-cli", "-h", "127.0.0.1", "-p", p.c_str(),
            static_cast<char*>(nullptr));
      _exit(127);
    }
  }
  ~InteractiveCli() {
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (master_ >= 0) close(master_);
  }

  bool started() const { return pid_ > 0 && master_ >= 0; }

  // Types `keys` and returns what the terminal shows until `until` appears after them (or 10 s
  // pass, or redis-cli exits).
  std::string Type(const std::string& keys, const std::string& until) {
    if (!keys.empty() && write(master_, keys.data(), keys.size()) != ssize_t(keys.size())) {
      return "<write failed>";
    }
    return ReadUntil(until);
  }

  std::string ReadUntil(const std::string& until) {
    std::string out;
    const auto deadline = Clock::now() + std::chrono::seconds(10);
    while (out.find(until) == std::string::npos && Clock::now() < deadline) {
      pollfd p = {master_, POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      char buf[4096];
      const ssize_t n = read(master_, buf, sizeof(buf));
      if (n <= 0) break;  // EIO once the child has exited
      out.append(buf, static_cast<size_t>(n));
    }
    transcript_ += out;
    return out;
  }

  // Waits for redis-cli to exit; its exit status, or -1.
  int Wait() {
    ReadUntil("<never>");
    int status = 0;
    for (int i = 0; i < 100; ++i) {
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        exited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      usleep(50000);
    }
    return -1;
  }

  const std::string& transcript() const { return transcript_; }

 private:
  pid_t pid_ = -1;
  int master_ = -1;
  bool exited_ = false;
  std::string transcript_;
};

// What the terminal shows without escape sequences and carriage returns.
std::string Plain(const std::string& screen) {
  std::string out;
  for (size_t i = 0; i < screen.size(); ++i) {
    if (screen[i] == '\x1b' && i + 1 < screen.size() && screen[i + 1] == '[') {
      i += 2;
      while (i < screen.size() && !(screen[i] >= '@' && screen[i] <= '~')) ++i;
      continue;
    }
    if (screen[i] != '\r') out += screen[i];
  }
  return out;
}

// The session both servers get; returns redis-cli's whole screen output with the port replaced
// by "PORT".
std::string Session(int port, std::string* failures) {
  InteractiveCli cli(port);
  if (!cli.started()) return "<no pty>";
  // linenoise redraws the prompt with every key typed; a reply is complete once the prompt comes
  // back on a new line.
  const std::string prompt = "\n127.0.0.1:" + std::to_string(port) + "> ";
  const std::string prompt1 = "\n127.0.0.1:" + std::to_string(port) + "[1]> ";
  auto expect = [&](const std::string& screen, const std::string& text) {
    if (Plain(screen).find(text) == std::string::npos) {
      *failures += "expected \"" + Escape(text) + "\" in \"" + Escape(Plain(screen)) + "\"\n";
    }
  };
  expect(cli.ReadUntil(prompt.substr(1)), prompt.substr(1));
  expect(cli.Type("set greeting hello\r", prompt), "OK\n");
  expect(cli.Type("get greeting\r", prompt), "\"hello\"\n");
  // BITCOUNT's hint nests COMMAND DOCS' arguments: a block holding a oneof of tokens.
  expect(cli.Type("bitcount ", "[BYTE|BIT]]"), "key [start end [BYTE|BIT]]");
  expect(cli.Type("greeting\r", prompt), "(integer) 21\n");
  expect(cli.Type("incr greeting\r", prompt),
         "(error) ERR value is not an integer or out of range\n");
  expect(cli.Type("incr counter\r", prompt), "(integer) 1\n");
  expect(cli.Type("nosuch a\r", prompt),
         "(error) ERR unknown command 'nosuch', with args beginning with: 'a' \n");
  // The hint after "setrange " comes from COMMAND DOCS' arguments of SETRANGE.
  expect(cli.Type("setrange ", "offset value"), "key offset value");
  expect(cli.Type("greeting 0 J\r", prompt), "(integer) 5\n");
  expect(cli.Type("help lcs\r", prompt),
         "  LCS key1 key2 [LEN] [IDX] [MINMATCHLEN len] [WITHMATCHLEN]\n"
         "  summary: Find longest common substring\n"
         "  since: 7.0.0\n"
         "  group: string\n");
  expect(cli.Type("select 1\r", prompt1), "OK" + prompt1);
  expect(cli.Type("get greeting\r", prompt1), "(nil)\n");
  expect(cli.Type("select 0\r", prompt), "OK\n");
  expect(cli.Type("mget greeting counter missing\r", prompt), "1) \"Jello\"\n2) \"1\"\n3) (nil)\n");
  cli.Type("quit\r", "<exit>");
  const int status = cli.Wait();
  if (status != 0) *failures += "redis-cli exited with " + std::to_string(status) + "\n";
  std::string screen = cli.transcript();
  const std::string p = std::to_string(port);
  for (size_t at = screen.find(p); at != std::string::npos; at = screen.find(p, at)) {
    screen.replace(at, p.size(), "PORT");
  }
  return screen;
}

// The command names in INFO commandstats.
std::set<std::string> CommandsCalled(ServerProcess& server, std::string* docs_stats) {
  RedisConnection c = server.Connect();
  Reply r(static_cast<redisReply*>(redisCommand(c.get(), "INFO commandstats")));
  std::set<std::string> names;
  if (!r || r->type != REDIS_REPLY_STRING) return names;
  const std::string info(r->str, r->len);
  for (size_t at = info.find("cmdstat_"); at != std::string::npos;
       at = info.find("cmdstat_", at + 1)) {
    const size_t colon = info.find(':', at);
    const std::string name = info.substr(at + 8, colon - at - 8);
    names.insert(name);
    if (name == "command|docs")
      *docs_stats = info.substr(colon + 1, info.find('\r', at) - colon - 1);
  }
  return names;
}

TEST(RedisCliInteractive, SameScreenAsRedisAndCommandDocsAnswered) {
  auto kvserver = ServerProcess::StartKvserver();
  auto redis = ServerProcess::StartRedis();
  ASSERT_TRUE(kvserver && redis);
  std::string kv_failures, redis_failures;
  const std::string kv_screen = Session(kvserver->port(), &kv_failures);
  const std::string redis_screen = Session(redis->port(), &redis_failures);
  EXPECT_EQ(kv_failures, "");
  EXPECT_EQ(redis_failures, "") << "the session's expectations are wrong for Redis itself";
  EXPECT_EQ(Escape(kv_screen), Escape(redis_screen));

  // redis-cli sent COMMAND DOCS once at start, then only what was typed (HELP is answered from
  // COMMAND DOCS' reply; QUIT is not sent).
  for (ServerProcess* server : {kvserver.get(), redis.get()}) {
    std::string docs;
    const std::set<std::string> called = CommandsCalled(*server, &docs);
    EXPECT_EQ(called, (std::set<std::string>{"command|docs", "set", "get", "bitcount", "incr",
                                             "setrange", "select", "mget"}))
        << server->port();
    EXPECT_TRUE(docs.starts_with("calls=1,")) << docs;
  }
}

}  // namespace
}  // namespace kv::test
