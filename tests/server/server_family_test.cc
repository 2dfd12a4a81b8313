// FLUSHDB, FLUSHALL, DBSIZE, SHUTDOWN, CONFIG GET/SET/RESETSTAT/HELP and INFO through the real
// dispatcher. Every expected reply is what Redis 7.0.15 sends for the same command, except where
// a comment names one of kvserver's intentional differences (no persistence, port/bind fixed at
// startup).

#include <sys/resource.h>
#include <unistd.h>

#include <climits>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "fmt/format.h"
#include "gtest/gtest.h"
#include "server/command_stats.h"
#include "server/config_missing_features.h"
#include "tests/support/command_harness.h"
#include "tests/support/resp_literals.h"

namespace kv::test {
namespace {

std::string SetFailed(std::string_view arg, std::string_view why) {
  return Err("CONFIG SET failed (possibly related to argument '" + std::string(arg) + "') - " +
             std::string(why));
}
std::string Pair(std::string_view name, std::string_view value) { return Bulk(name) + Bulk(value); }

const std::string kSyntax = Err("syntax error");

class ServerFamilyTest : public ::testing::Test {
 protected:
  CommandHarness h;
  // The text of an INFO reply (a bulk string in RESP2).
  std::string Info(std::vector<std::string> sections = {}) {
    sections.insert(sections.begin(), "INFO");
    std::string reply = h.Run(sections);
    EXPECT_EQ(reply[0], '$');
    const size_t eol = reply.find("\r\n");
    std::string body = reply.substr(eol + 2, reply.size() - eol - 4);
    EXPECT_EQ(std::to_string(body.size()), reply.substr(1, eol - 1));
    return body;
  }
};

// ---- FLUSHDB / FLUSHALL / DBSIZE ----

TEST_F(ServerFamilyTest, FlushDbEmptiesOnlyTheSelectedDatabase) {
  h.Run({"MSET", "a", "1", "b", "2"});
  h.Run({"SELECT", "1"});
  h.Run({"SET", "c", "3"});
  EXPECT_EQ(h.Run({"DBSIZE"}), Int(1));
  EXPECT_EQ(h.Run({"FLUSHDB"}), kOk);
  EXPECT_EQ(h.Run({"DBSIZE"}), Int(0));
  h.Run({"SELECT", "0"});
  EXPECT_EQ(h.Run({"DBSIZE"}), Int(2));
}

TEST_F(ServerFamilyTest, FlushAllEmptiesEveryDatabase) {
  h.Run({"SET", "a", "1"});
  h.Run({"SELECT", "5"});
  h.Run({"SET", "b", "2", "EX", "100"});
  EXPECT_EQ(h.Run({"FLUSHALL"}), kOk);
  EXPECT_EQ(h.Run({"DBSIZE"}), Int(0));
  h.Run({"SELECT", "0"});
  EXPECT_EQ(h.Run({"DBSIZE"}), Int(0));
  EXPECT_EQ(h.Run({"GET", "a"}), "$-1\r\n");
}

TEST_F(ServerFamilyTest, FlushModes) {
  for (const char* mode : {"ASYNC", "async", "SYNC", "sYnC"}) {
    h.Run({"SET", "a", "1"});
    EXPECT_EQ(h.Run({"FLUSHDB", mode}), kOk) << mode;
    EXPECT_EQ(h.Run({"DBSIZE"}), Int(0)) << mode;
    h.Run({"SET", "a", "1"});
    EXPECT_EQ(h.Run({"FLUSHALL", mode}), kOk) << mode;
    EXPECT_EQ(h.Run({"DBSIZE"}), Int(0)) << mode;
  }
  // Compared as C strings.
  EXPECT_EQ(h.Run({"FLUSHDB", std::string("sync\0x", 6)}), kOk);
}

TEST_F(ServerFamilyTest, FlushSyntaxErrors) {
  h.Run({"SET", "a", "1"});
  for (const std::vector<std::string>& cmd :
       std::vector<std::vector<std::string>>{{"FLUSHDB", "x"},
                                             {"FLUSHDB", "lazy"},
                                             {"FLUSHDB", "async", "x"},
                                             {"FLUSHDB", "sync", "sync"},
                                             {"FLUSHALL", "x"},
                                             {"FLUSHALL", "ASYNC", "SYNC"},
                                             {"FLUSHALL", ""}}) {
    EXPECT_EQ(h.Run(cmd), kSyntax) << ::testing::PrintToString(cmd);
  }
  EXPECT_EQ(h.Run({"DBSIZE"}), Int(1));
}

TEST_F(ServerFamilyTest, DbSizeCountsKeysNotYetReclaimed) {
  // Like Redis, DBSIZE is the size of the table: an expired key nobody touched still counts.
  h.Run({"SET", "a", "1", "PX", "10"});
  h.Run({"SET", "b", "2"});
  h.clock().Advance(20);
  EXPECT_EQ(h.Run({"DBSIZE"}), Int(2));
  EXPECT_EQ(h.Run({"GET", "a"}), "$-1\r\n");
  EXPECT_EQ(h.Run({"DBSIZE"}), Int(1));
  EXPECT_EQ(h.Run({"DBSIZE", "x"}), Err("wrong number of arguments for 'dbsize' command"));
}

// ---- SHUTDOWN ----

TEST_F(ServerFamilyTest, ShutdownRequestsTheShutdownWithoutAReply) {
  EXPECT_EQ(h.Run({"SHUTDOWN"}), "");
  EXPECT_TRUE(h.shutdown_requested());
  EXPECT_TRUE(h.conn().close_after_reply);
}

// SHUTDOWN SAVE writes dump.rdb: tests/integration/persistence_test.cc runs it in a server's
// own directory.
TEST_F(ServerFamilyTest, ShutdownWithValidModifiers) {
  for (const std::vector<std::string>& cmd :
       std::vector<std::vector<std::string>>{{"SHUTDOWN", "NOSAVE"},
                                             {"SHUTDOWN", "NOW"},
                                             {"SHUTDOWN", "FORCE"},
                                             {"SHUTDOWN", "nosave", "nosave"},
                                             {"SHUTDOWN", "NOSAVE", "NOW", "FORCE"},
                                             {"SHUTDOWN", "NOW", "FORCE", "FORCE"}}) {
    CommandHarness fresh;
    EXPECT_EQ(fresh.Run(cmd), "") << ::testing::PrintToString(cmd);
    EXPECT_TRUE(fresh.shutdown_requested()) << ::testing::PrintToString(cmd);
  }
}

TEST_F(ServerFamilyTest, ShutdownArgumentErrors) {
  for (const std::vector<std::string>& cmd :
       std::vector<std::vector<std::string>>{{"SHUTDOWN", "foo"},
                                             {"SHUTDOWN", "SAVE", "NOSAVE"},
                                             {"SHUTDOWN", "NOSAVE", "SAVE"},
                                             {"SHUTDOWN", "ABORT", "NOW"},
                                             {"SHUTDOWN", "FORCE", "ABORT"},
                                             {"SHUTDOWN", "ABORT", "NOSAVE"},
                                             {"SHUTDOWN", "a", "ABORT"},
                                             {"SHUTDOWN", "NOW", "x"}}) {
    EXPECT_EQ(h.Run(cmd), kSyntax) << ::testing::PrintToString(cmd);
  }
  EXPECT_FALSE(h.shutdown_requested());
  EXPECT_FALSE(h.conn().close_after_reply);
}

TEST_F(ServerFamilyTest, ShutdownAbortWithNothingPending) {
  EXPECT_EQ(h.Run({"SHUTDOWN", "ABORT"}), Err("No shutdown in progress."));
  EXPECT_EQ(h.Run({"SHUTDOWN", "abort", "ABORT"}), Err("No shutdown in progress."));
  EXPECT_FALSE(h.shutdown_requested());
}

// ---- CONFIG GET ----

TEST_F(ServerFamilyTest, ConfigGetExactNames) {
  EXPECT_EQ(h.Run({"CONFIG", "GET", "timeout"}), "*2\r\n" + Pair("timeout", "0"));
  EXPECT_EQ(h.Run({"CONFIG", "GET", "maxclients"}), "*2\r\n" + Pair("maxclients", "10000"));
  EXPECT_EQ(h.Run({"CONFIG", "GET", "nomatch"}), "*0\r\n");
  EXPECT_EQ(h.Run({"CONFIG", "GET", ""}), "*0\r\n");
  // A name without glob characters is answered with the client's spelling.
  EXPECT_EQ(h.Run({"CONFIG", "GET", "PORT"}), "*2\r\n" + Pair("PORT", "6379"));
  EXPECT_EQ(h.Run({"CONFIG", "GET", "TiMeOuT", "timeout"}), "*2\r\n" + Pair("TiMeOuT", "0"));
  EXPECT_EQ(h.Run({"CONFIG", "GET", "timeout", "TiMeOuT"}), "*2\r\n" + Pair("timeout", "0"));
}

// The harness's defaults: the binary's, except save "" (CommandHarness), whose default the
// config and integration tests check.
TEST_F(ServerFamilyTest, ConfigGetDefaults) {
  EXPECT_EQ(h.Run({"CONFIG", "GET", "tcp-keepalive", "maxclients", "timeout", "loglevel",
                   "appendonly", "save", "daemonize", "databases", "tcp-backlog", "unixsocketperm",
                   "proto-max-bulk-len", "client-query-buffer-limit", "logfile", "pidfile",
                   "unixsocket", "hz"}),
            "*32\r\n" + Pair("tcp-keepalive", "300") + Pair("maxclients", "10000") +
                Pair("timeout", "0") + Pair("loglevel", "notice") + Pair("appendonly", "no") +
                Pair("save", "") + Pair("daemonize", "no") + Pair("databases", "16") +
                Pair("tcp-backlog", "511") + Pair("unixsocketperm", "0") +
                Pair("proto-max-bulk-len", "536870912") +
                Pair("client-query-buffer-limit", "1073741824") + Pair("logfile", "") +
                Pair("pidfile", "") + Pair("unixsocket", "") + Pair("hz", "10"));
}

TEST_F(ServerFamilyTest, ConfigGetGlobs) {
  // Matches come in the order of Redis's table (Redis's own order is its hash table's).
  EXPECT_EQ(h.Run({"CONFIG", "GET", "tcp-*"}),
            "*4\r\n" + Pair("tcp-keepalive", "300") + Pair("tcp-backlog", "511"));
  EXPECT_EQ(h.Run({"CONFIG", "GET", "*log-max-len"}),
            "*4\r\n" + Pair("slowlog-max-len", "128") + Pair("acllog-max-len", "128"));
  EXPECT_EQ(h.Run({"CONFIG", "GET", "?z"}), "*2\r\n" + Pair("hz", "10"));
  EXPECT_EQ(h.Run({"CONFIG", "GET", "[dp]*i[dz]*"}),
            "*4\r\n" + Pair("daemonize", "no") + Pair("pidfile", ""));
  // Globs match case-insensitively and keep the table's spelling.
  EXPECT_EQ(h.Run({"CONFIG", "GET", "TIME*"}), "*2\r\n" + Pair("timeout", "0"));
  // Aliases are listed too, under their own names.
  EXPECT_EQ(h.Run({"CONFIG", "GET", "*slaveof"}), "*2\r\n" + Pair("slaveof", ""));
  EXPECT_EQ(h.Run({"CONFIG", "GET", "hash-max-*"}),
            "*8\r\n" + Pair("hash-max-listpack-entries", "512") +
                Pair("hash-max-listpack-value", "64") + Pair("hash-max-ziplist-entries", "512") +
                Pair("hash-max-ziplist-value", "64"));
  EXPECT_EQ(
      h.Run({"CONFIG", "GET", "*ziplist-entries"}),
      "*4\r\n" + Pair("hash-max-ziplist-entries", "512") + Pair("zset-max-ziplist-entries", "128"));
  // Every directive and alias but the hidden ones (Redis's 5 and kvserver's own 2): 180 - 7 + 19,
  // Redis's 192.
  const std::string all = h.Run({"CONFIG", "GET", "*"});
  EXPECT_EQ(all.substr(0, 6), "*384\r\n");
  EXPECT_EQ(all.find("key-load-delay"), std::string::npos);
}

TEST_F(ServerFamilyTest, ConfigGetHiddenAndAliasesByName) {
  // A hidden directive answers to its exact name only; an alias to its own name.
  EXPECT_EQ(h.Run({"CONFIG", "GET", "key-load-delay"}), "*2\r\n" + Pair("key-load-delay", "0"));
  EXPECT_EQ(h.Run({"CONFIG", "GET", "key-load-dela?"}), "*0\r\n");
  EXPECT_EQ(h.Run({"CONFIG", "GET", "SLAVE-read-only", "replica-read-only"}),
            "*4\r\n" + Pair("SLAVE-read-only", "yes") + Pair("replica-read-only", "yes"));
}

TEST_F(ServerFamilyTest, ConfigGetSeveralPatternsListEachMatchOnce) {
  EXPECT_EQ(h.Run({"CONFIG", "GET", "timeout", "tim*out", "TIMEOUT", "tcp*", "hz"}),
            "*8\r\n" + Pair("timeout", "0") + Pair("tcp-keepalive", "300") +
                Pair("tcp-backlog", "511") + Pair("hz", "10"));
  EXPECT_EQ(h.Run({"CONFIG", "GET", "port", "port", "p*rt"}), "*2\r\n" + Pair("port", "6379"));
}

TEST_F(ServerFamilyTest, ConfigGetResp3IsAMap) {
  h.conn().protocol = 3;
  EXPECT_EQ(h.Run({"CONFIG", "GET", "timeout"}), "%1\r\n" + Pair("timeout", "0"));
  EXPECT_EQ(h.Run({"CONFIG", "GET", "nomatch"}), "%0\r\n");
}

// ---- CONFIG SET ----

TEST_F(ServerFamilyTest, ConfigSetOne) {
  EXPECT_EQ(h.Run({"CONFIG", "SET", "timeout", "30"}), kOk);
  EXPECT_EQ(h.Run({"CONFIG", "GET", "timeout"}), "*2\r\n" + Pair("timeout", "30"));
  EXPECT_EQ(h.state().config.timeout, 30);
  EXPECT_EQ(h.Run({"config", "set", "TIMEOUT", "0"}), kOk);
  EXPECT_EQ(h.state().config.timeout, 0);
}

TEST_F(ServerFamilyTest, ConfigSetSeveralPairs) {
  int changes = 0;
  h.state().config_changed = [&] { ++changes; };
  EXPECT_EQ(h.Run({"CONFIG", "SET", "timeout", "5", "maxclients", "100", "loglevel", "warning"}),
            kOk);
  EXPECT_EQ(changes, 1);
  EXPECT_EQ(
      h.Run({"CONFIG", "GET", "timeout", "maxclients", "loglevel"}),
      "*6\r\n" + Pair("timeout", "5") + Pair("maxclients", "100") + Pair("loglevel", "warning"));
}

TEST_F(ServerFamilyTest, ConfigSetIsAtomic) {
  int changes = 0;
  h.state().config_changed = [&] { ++changes; };
  EXPECT_EQ(h.Run({"CONFIG", "SET", "timeout", "5", "tcp-keepalive", "x"}),
            SetFailed("tcp-keepalive", "argument couldn't be parsed into an integer"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "loglevel", "debug", "maxclients", "0", "hz", "50"}),
            SetFailed("maxclients", "argument must be between 1 and 4294967295 inclusive"));
  EXPECT_EQ(changes, 0);
  EXPECT_EQ(h.Run({"CONFIG", "GET", "timeout", "loglevel", "hz", "tcp-keepalive"}),
            "*8\r\n" + Pair("timeout", "0") + Pair("loglevel", "notice") + Pair("hz", "10") +
                Pair("tcp-keepalive", "300"));
}

TEST_F(ServerFamilyTest, ConfigSetUnknownAndImmutable) {
  EXPECT_EQ(h.Run({"CONFIG", "SET", "foo", "1"}),
            Err("Unknown option or number of arguments for CONFIG SET - 'foo'"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "daemonize", "no"}),
            SetFailed("daemonize", "can't set immutable config"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "DATABASES", "4"}),
            SetFailed("DATABASES", "can't set immutable config"));
  for (const char* name : {"unixsocket", "unixsocketperm", "tcp-backlog", "logfile", "pidfile"}) {
    EXPECT_EQ(h.Run({"CONFIG", "SET", name, "1"}), SetFailed(name, "can't set immutable config"));
  }
  for (const char* name : {"replicaof", "slaveof", "cluster-enabled", "supervised", "aclfile",
                           "io-threads", "enable-debug-command", "always-show-logo"}) {
    EXPECT_EQ(h.Run({"CONFIG", "SET", name, "1"}), SetFailed(name, "can't set immutable config"));
  }
}

TEST_F(ServerFamilyTest, ConfigSetDirIsProtected) {
  // enable-protected-configs is "no" by default in Redis 7: dir cannot be set at runtime.
  const std::string cwd = std::filesystem::current_path().string();
  EXPECT_EQ(h.Run({"CONFIG", "SET", "dir", "/"}), SetFailed("dir", "can't set protected config"));
  EXPECT_EQ(std::filesystem::current_path().string(), cwd);
  EXPECT_EQ(h.Run({"CONFIG", "GET", "dir"}), "*2\r\n" + Pair("dir", cwd));
}

TEST_F(ServerFamilyTest, ConfigSetTheFirstProblemWins) {
  // Names are checked in order; the first unknown, immutable, protected or repeated one is the
  // error, and values are not looked at until every name is fine.
  EXPECT_EQ(h.Run({"CONFIG", "SET", "daemonize", "no", "foo", "2"}),
            SetFailed("daemonize", "can't set immutable config"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "foo", "2", "daemonize", "no"}),
            Err("Unknown option or number of arguments for CONFIG SET - 'foo'"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "timeout", "1", "timeout", "2", "foo", "3"}),
            SetFailed("timeout", "duplicate parameter"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "timeout", "1", "TIMEOUT", "2"}),
            SetFailed("TIMEOUT", "duplicate parameter"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "timeout", "1", "daemonize", "x", "timeout", "2"}),
            SetFailed("daemonize", "can't set immutable config"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "dir", "/tmp", "daemonize", "x"}),
            SetFailed("dir", "can't set protected config"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "timeout", "abc", "foo", "1"}),
            Err("Unknown option or number of arguments for CONFIG SET - 'foo'"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "timeout", "abc", "daemonize", "1"}),
            SetFailed("daemonize", "can't set immutable config"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "", "1"}),
            Err("Unknown option or number of arguments for CONFIG SET - ''"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", std::string("time\0out", 8), "1"}),
            Err("Unknown option or number of arguments for CONFIG SET - 'time'"));
  EXPECT_EQ(h.state().config.timeout, 0);
}

TEST_F(ServerFamilyTest, ConfigSetArgumentCount) {
  EXPECT_EQ(h.Run({"CONFIG", "SET", "timeout"}),
            Err("wrong number of arguments for 'config|set' command"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "timeout", "1", "hz"}), kSyntax);
}

TEST_F(ServerFamilyTest, ConfigSetIntegers) {
  const std::string kParse = "argument couldn't be parsed into an integer";
  for (const char* v : {"+5", "05", "", "abc", "1.5", " 1"}) {
    EXPECT_EQ(h.Run({"CONFIG", "SET", "timeout", v}), SetFailed("timeout", kParse)) << v;
  }
  EXPECT_EQ(h.Run({"CONFIG", "SET", "timeout", "-1"}),
            SetFailed("timeout", "argument must be between 0 and 2147483647 inclusive"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "timeout", "2147483648"}),
            SetFailed("timeout", "argument must be between 0 and 2147483647 inclusive"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "timeout", "2147483647"}), kOk);
  EXPECT_EQ(h.Run({"CONFIG", "SET", "tcp-keepalive", "0"}), kOk);
  EXPECT_EQ(h.Run({"CONFIG", "GET", "tcp-keepalive"}), "*2\r\n" + Pair("tcp-keepalive", "0"));
  const std::string kClients = "argument must be between 1 and 4294967295 inclusive";
  EXPECT_EQ(h.Run({"CONFIG", "SET", "maxclients", "0"}), SetFailed("maxclients", kClients));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "maxclients", "-1"}), SetFailed("maxclients", kClients));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "maxclients", "4294967296"}),
            SetFailed("maxclients", kClients));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "maxclients", "abc"}), SetFailed("maxclients", kParse));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "maxclients", "1"}), kOk);
  // The upper bound passes the range check (and then needs file descriptors, see below).
  EXPECT_NE(h.Run({"CONFIG", "SET", "maxclients", "4294967295"}),
            SetFailed("maxclients", kClients));
}

TEST_F(ServerFamilyTest, ConfigSetMaxclientsNeedsFileDescriptors) {
  // Redis's updateMaxclients: raising maxclients raises the open files limit to match, or fails
  // naming the number of clients that would fit (32 descriptors are kept in reserve).
  rlimit limit{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &limit), 0);
  if (limit.rlim_max == RLIM_INFINITY || limit.rlim_max > 1'000'000) {
    GTEST_SKIP() << "no usable hard limit on open files";
  }
  const int64_t fits = static_cast<int64_t>(limit.rlim_max) - 32;
  EXPECT_EQ(h.Run({"CONFIG", "SET", "maxclients", std::to_string(fits)}), kOk);
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &limit), 0);
  EXPECT_GE(limit.rlim_cur, static_cast<rlim_t>(fits + 32));
  // One more client needs a hard limit only a privileged process could raise.
  const std::string reply = h.Run({"CONFIG", "SET", "maxclients", std::to_string(fits + 1)});
  if (reply == kOk) {
    // Accepted only if the limit really went up.
    ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &limit), 0);
    EXPECT_GE(limit.rlim_cur, static_cast<rlim_t>(fits + 1 + 32));
  } else {
    EXPECT_EQ(reply, SetFailed("maxclients",
                               "The operating system is not able to handle the specified number "
                               "of clients, try with " +
                                   std::to_string(fits)));
    EXPECT_EQ(h.state().config.maxclients, fits);
    // Nothing else in the same CONFIG SET is applied either.
    EXPECT_NE(h.Run({"CONFIG", "SET", "timeout", "9", "maxclients", std::to_string(fits + 100)}),
              kOk);
    EXPECT_EQ(h.state().config.timeout, 0);
  }
  // Lowering it needs nothing.
  EXPECT_EQ(h.Run({"CONFIG", "SET", "maxclients", "100"}), kOk);
}

TEST_F(ServerFamilyTest, ConfigSetHzIsClamped) {
  EXPECT_EQ(h.Run({"CONFIG", "SET", "hz", "1000"}), kOk);
  EXPECT_EQ(h.Run({"CONFIG", "GET", "hz"}), "*2\r\n" + Pair("hz", "500"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "hz", "0"}), kOk);
  EXPECT_EQ(h.Run({"CONFIG", "GET", "hz"}), "*2\r\n" + Pair("hz", "1"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "hz", "-1"}),
            SetFailed("hz", "argument must be between 0 and 2147483647 inclusive"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "hz", "100"}), kOk);
  EXPECT_EQ(h.state().config.hz, 100);
}

TEST_F(ServerFamilyTest, ConfigSetMemoryValues) {
  const std::string kRange = "argument must be between 1048576 and 9223372036854775807 inclusive";
  const std::string kMemory = "argument must be a memory value";
  struct Case {
    const char* value;
    const char* error;  // nullptr: accepted
    const char* get;
  };
  const Case cases[] = {
      {"2MB", nullptr, "2097152"},
      {"0010mb", nullptr, "10485760"},
      {"1gB", nullptr, "1073741824"},
      {"2m", nullptr, "2000000"},
      {"1048576", nullptr, "1048576"},
      {"5g", nullptr, "5000000000"},
      {"2000k", nullptr, "2000000"},
      {"1048576b", nullptr, "1048576"},
      {"1kb", kRange.c_str(), nullptr},
      {"1048575", kRange.c_str(), nullptr},
      {"", kRange.c_str(), nullptr},
      {"mb", kRange.c_str(), nullptr},
      {"18446744073709551615", kRange.c_str(), nullptr},
      {"99999999999999999999999", kRange.c_str(), nullptr},
      {"8589934592gb", kRange.c_str(), nullptr},
      {"abc", kMemory.c_str(), nullptr},
      {"-1", kMemory.c_str(), nullptr},
      {"+5mb", kMemory.c_str(), nullptr},
      {" 5mb", kMemory.c_str(), nullptr},
      {"5 mb", kMemory.c_str(), nullptr},
      {"16777216tb", kMemory.c_str(), nullptr},
      {"1.5mb", kMemory.c_str(), nullptr},
  };
  for (const Case& c : cases) {
    for (const char* name : {"proto-max-bulk-len", "client-query-buffer-limit"}) {
      if (c.error == nullptr) {
        EXPECT_EQ(h.Run({"CONFIG", "SET", name, c.value}), kOk) << name << " " << c.value;
        EXPECT_EQ(h.Run({"CONFIG", "GET", name}), "*2\r\n" + Pair(name, c.get))
            << name << " " << c.value;
      } else {
        EXPECT_EQ(h.Run({"CONFIG", "SET", name, c.value}), SetFailed(name, c.error))
            << name << " " << c.value;
      }
    }
  }
}

TEST_F(ServerFamilyTest, ConfigSetLogLevel) {
  EXPECT_EQ(h.Run({"CONFIG", "SET", "loglevel", "WARNING"}), kOk);
  EXPECT_EQ(h.Run({"CONFIG", "GET", "loglevel"}), "*2\r\n" + Pair("loglevel", "warning"));
  for (const char* v : {"foo", "", "nothing"}) {
    EXPECT_EQ(h.Run({"CONFIG", "SET", "loglevel", v}),
              SetFailed("loglevel",
                        "argument(s) must be one of the following: debug, verbose, notice, "
                        "warning"))
        << v;
  }
}

TEST_F(ServerFamilyTest, ConfigSetAppendOnly) {
  EXPECT_EQ(h.Run({"CONFIG", "SET", "appendonly", "NO"}), kOk);
  EXPECT_EQ(h.Run({"CONFIG", "SET", "appendonly", "maybe"}),
            SetFailed("appendonly", "argument must be 'yes' or 'no'"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "appendonly", ""}),
            SetFailed("appendonly", "argument must be 'yes' or 'no'"));
  // Turning it on writes files: tested with the real binary in a temporary directory
  // (tests/integration/aof_test.cc).
  EXPECT_EQ(h.Run({"CONFIG", "GET", "appendonly"}), "*2\r\n" + Pair("appendonly", "no"));
}

TEST_F(ServerFamilyTest, ConfigSetSave) {
  EXPECT_EQ(h.Run({"CONFIG", "SET", "save", ""}), kOk);
  EXPECT_EQ(h.Run({"CONFIG", "GET", "save"}), "*2\r\n" + Pair("save", ""));
  // Malformed values get Redis's message; the value is split on single spaces.
  for (const char* v : {"3600", "10  1", "10 -1", "0 1", "10x 1", " ", "a b c", "1 2 3"}) {
    EXPECT_EQ(h.Run({"CONFIG", "SET", "save", v}), SetFailed("save", "Invalid save parameters"))
        << v;
  }
  // Valid save points, shown as Redis shows them.
  EXPECT_EQ(h.Run({"CONFIG", "SET", "save", "3600 1 300 100"}), kOk);
  EXPECT_EQ(h.Run({"CONFIG", "GET", "save"}), "*2\r\n" + Pair("save", "3600 1 300 100"));
  EXPECT_EQ(h.Run({"CONFIG", "SET", "save", ""}), kOk);
}

TEST_F(ServerFamilyTest, ConfigHelp) {
  // Redis 7.0's text.
  EXPECT_EQ(h.Run({"CONFIG", "HELP"}),
            "*11\r\n+CONFIG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n"
            "+GET <pattern>\r\n"
            "+    Return parameters matching the glob-like <pattern> and their values.\r\n"
            "+SET <directive> <value>\r\n+    Set the configuration <directive> to <value>.\r\n"
            "+RESETSTAT\r\n+    Reset statistics reported by the INFO command.\r\n"
            "+REWRITE\r\n+    Rewrite the configuration file.\r\n+HELP\r\n"
            "+    Prints this help.\r\n");
}

TEST_F(ServerFamilyTest, ConfigResetStat) {
  h.Run({"SET", "k", "v"});
  h.Run({"GET", "k"});
  h.Run({"GET", "nope"});
  h.Run({"nosuch"});
  ServerStats& st = h.state().stats;
  EXPECT_EQ(st.total_commands_processed, 3u);
  EXPECT_EQ(st.keyspace_hits, 1u);
  EXPECT_EQ(st.keyspace_misses, 1u);
  EXPECT_EQ(st.total_error_replies, 1u);
  EXPECT_EQ(h.Run({"CONFIG", "RESETSTAT"}), kOk);
  // RESETSTAT itself is counted afterwards, as Redis counts a command after running it.
  EXPECT_EQ(st.total_commands_processed, 1u);
  EXPECT_EQ(st.keyspace_hits, 0u);
  EXPECT_EQ(st.keyspace_misses, 0u);
  EXPECT_EQ(st.total_error_replies, 0u);
  EXPECT_EQ(h.Run({"GET", "k"}), Bulk("v")) << "data is untouched";
}

// Redis's resetServerStats also resets lazyfreed_objects (lazyfreeResetStats) and rdb_saves
// (unit/lazyfree's stream tests count the objects freed after a RESETSTAT).
TEST_F(ServerFamilyTest, ConfigResetStatResetsLazyfreeAndSaveCounts) {
  std::vector<std::string> sadd = {"SADD", "big"};
  for (int i = 0; i < 200; ++i) sadd.push_back("m" + std::to_string(i));  // a hash table
  h.Run(sadd);
  EXPECT_EQ(h.Run({"UNLINK", "big"}), ":1\r\n");
  h.state().lazy_freer.Drain();
  h.state().persistence.rdb_saves = 2;
  EXPECT_NE(Info({"memory"}).find("\r\nlazyfreed_objects:1\r\n"), std::string::npos);
  EXPECT_NE(Info({"persistence"}).find("\r\nrdb_saves:2\r\n"), std::string::npos);
  EXPECT_EQ(h.Run({"CONFIG", "RESETSTAT"}), kOk);
  EXPECT_NE(Info({"memory"}).find("\r\nlazyfreed_objects:0\r\n"), std::string::npos);
  EXPECT_NE(Info({"persistence"}).find("\r\nrdb_saves:0\r\n"), std::string::npos);
}

// ---- INFO ----

// The section headers of an INFO text, in order.
std::vector<std::string> Headers(const std::string& info) {
  std::vector<std::string> headers;
  for (size_t pos = 0; (pos = info.find("# ", pos)) != std::string::npos; pos += 2) {
    EXPECT_TRUE(pos == 0 || info.compare(pos - 4, 4, "\r\n\r\n") == 0) << "blank line before";
    headers.push_back(info.substr(pos, info.find("\r\n", pos) - pos));
  }
  return headers;
}

TEST_F(ServerFamilyTest, InfoDefaultSections) {
  // Redis 7.0's default set, in its order.
  const std::vector<std::string> kDefault = {
      "# Server", "# Clients", "# Memory",     "# Persistence", "# Stats",   "# Replication",
      "# CPU",    "# Modules", "# Errorstats", "# Cluster",     "# Keyspace"};
  EXPECT_EQ(Headers(Info()), kDefault);
  EXPECT_EQ(Headers(Info({"default"})), kDefault);
  EXPECT_EQ(Headers(Info({"DEFAULT", "cpu"})), kDefault);
  const std::vector<std::string> kAll = {
      "# Server",       "# Clients", "# Memory",  "# Persistence",  "# Stats",
      "# Replication",  "# CPU",     "# Modules", "# Commandstats", "# Errorstats",
      "# Latencystats", "# Cluster", "# Keyspace"};
  EXPECT_EQ(Headers(Info({"all"})), kAll);
  EXPECT_EQ(Headers(Info({"everything"})), kAll);
  EXPECT_EQ(Headers(Info({"module_list"})), std::vector<std::string>{"# Modules"});
  EXPECT_EQ(Headers(Info({"commandstats", "latencystats"})),
            (std::vector<std::string>{"# Commandstats", "# Latencystats"}));
}

// The field of `info` named `name` ("cmdstat_get"), without its name: "calls=1,...".
std::string Field(const std::string& info, const std::string& name) {
  const size_t at = info.find("\r\n" + name + ":");
  if (at == std::string::npos) return "<absent>";
  const size_t start = at + 3 + name.size();
  return info.substr(start, info.find("\r\n", start) - start);
}

// "calls=2,usec=7,usec_per_call=3.50,rejected_calls=0,failed_calls=1" without the timings.
std::string Counts(const std::string& cmdstat) {
  if (cmdstat == "<absent>") return cmdstat;
  const size_t usec = cmdstat.find(",usec=");
  const size_t rejected = cmdstat.find(",rejected_calls=");
  return cmdstat.substr(0, usec) + cmdstat.substr(rejected);
}

TEST_F(ServerFamilyTest, InfoCommandStats) {
  h.Run({"SET", "k", "v"});
  h.Run({"GET", "k"});
  h.Run({"GET", "nope"});
  h.Run({"GET"});        // rejected: wrong arity, never runs
  h.Run({"INCR", "k"});  // fails: not an integer
  h.Run({"CONFIG", "GET", "hz"});
  h.Run({"CONFIG"});            // the container command, rejected
  h.Run({"CONFIG", "nosuch"});  // an unknown subcommand counts against nothing
  h.Run({"nosuch"});            // nor does an unknown command
  const std::string info = Info({"commandstats"});
  EXPECT_EQ(info.find("# Commandstats\r\n"), 0u);
  EXPECT_EQ(Counts(Field(info, "cmdstat_set")), "calls=1,rejected_calls=0,failed_calls=0");
  EXPECT_EQ(Counts(Field(info, "cmdstat_get")), "calls=2,rejected_calls=1,failed_calls=0");
  EXPECT_EQ(Counts(Field(info, "cmdstat_incr")), "calls=1,rejected_calls=0,failed_calls=1");
  EXPECT_EQ(Counts(Field(info, "cmdstat_config|get")), "calls=1,rejected_calls=0,failed_calls=0");
  EXPECT_EQ(Counts(Field(info, "cmdstat_config")), "calls=0,rejected_calls=1,failed_calls=0");
  EXPECT_EQ(Field(info, "cmdstat_nosuch"), "<absent>");
  EXPECT_EQ(Field(info, "cmdstat_del"), "<absent>") << "commands never called are not listed";
  // The timings are well formed: usec_per_call is usec / calls with two decimals.
  const std::string get = Field(info, "cmdstat_get");
  const int64_t usec = std::stoll(get.substr(get.find(",usec=") + 6));
  const std::string per_call = get.substr(get.find("usec_per_call=") + 14);
  EXPECT_EQ(per_call.substr(0, per_call.find(',')), fmt::format("{:.2f}", usec / 2.0));
  // INFO itself is counted after it ran, as in Redis.
  EXPECT_EQ(Counts(Field(Info({"commandstats"}), "cmdstat_info")),
            "calls=1,rejected_calls=0,failed_calls=0");
}

TEST_F(ServerFamilyTest, InfoErrorStats) {
  EXPECT_EQ(Info({"errorstats"}), "# Errorstats\r\n");
  h.Run({"SET", "k", "v"});
  h.Run({"INCR", "k"});
  h.Run({"NOSUCHCOMMAND", "k", "x"});
  h.Run({"GET"});
  h.Run({"HELLO", "4"});
  // Redis lists the codes in byte order.
  EXPECT_EQ(Info({"errorstats"}),
            "# Errorstats\r\nerrorstat_ERR:count=3\r\nerrorstat_NOPROTO:count=1\r\n");
  EXPECT_EQ(h.Run({"CLIENT", "REPLY", "OFF"}), "");
  h.Run({"INCR", "k"});  // counted even though the reply is dropped
  h.Run({"CLIENT", "REPLY", "ON"});
  EXPECT_EQ(Field(Info({"errorstats"}), "errorstat_ERR"), "count=4");
  EXPECT_EQ(h.Run({"CONFIG", "RESETSTAT"}), kOk);
  EXPECT_EQ(Info({"errorstats"}), "# Errorstats\r\n");
  EXPECT_EQ(Info({"commandstats"}).find("cmdstat_incr"), std::string::npos);
}

TEST_F(ServerFamilyTest, InfoErrorStatsStopAfter128Codes) {
  ErrorStats stats;
  for (int i = 0; i < 128; ++i) stats.Record("-E" + std::to_string(i) + " text");
  EXPECT_EQ(stats.counts().size(), 128u);
  stats.Record("-E0 again");
  EXPECT_EQ(stats.counts().at("E0"), 2u);
  stats.Record("-NEW text");  // the 129th code: Redis empties the table and stops counting
  EXPECT_TRUE(stats.counts().empty());
  stats.Record("-E0 again");
  EXPECT_TRUE(stats.counts().empty());
  stats.Reset();
  stats.Record("-no_space_in_32_bytes_so_the_code_is_ERR");
  EXPECT_EQ(stats.counts().at("ERR"), 1u);
}

TEST_F(ServerFamilyTest, InfoLatencyStats) {
  h.Run({"SET", "k", "v"});
  h.Run({"GET", "k"});
  h.Run({"GET"});  // rejected calls have no latency
  h.Run({"CONFIG", "GET", "hz"});
  const std::string info = Info({"latencystats"});
  EXPECT_EQ(info.find("# Latencystats\r\n"), 0u);
  for (const char* name : {"set", "get", "config|get"}) {
    const std::string line = Field(info, std::string("latency_percentiles_usec_") + name);
    ASSERT_NE(line, "<absent>") << name;
    double p50 = 0, p99 = 0, p999 = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "p50=%lf,p99=%lf,p99.9=%lf", &p50, &p99, &p999), 3) << line;
    EXPECT_LE(p50, p99);
    EXPECT_LE(p99, p999);
  }
  EXPECT_EQ(Field(info, "latency_percentiles_usec_del"), "<absent>");
}

TEST(LatencyHistogramTest, PercentilesAreTheBucketsHighestValues) {
  LatencyHistogram histogram;
  EXPECT_EQ(histogram.ValueAtPercentile(50), 0u);
  for (uint64_t ns = 1; ns <= 100; ++ns) histogram.Record(ns * 1000);
  EXPECT_EQ(histogram.count(), 100u);
  // Within 1/8 above the exact value, never below it.
  for (double p : {1.0, 50.0, 99.0, 99.9, 100.0}) {
    const double exact = std::ceil(p) * 1000;
    const double got = static_cast<double>(histogram.ValueAtPercentile(p));
    EXPECT_GE(got, exact) << p;
    EXPECT_LE(got, exact * 1.125) << p;
  }
  LatencyHistogram small;
  small.Record(3);
  EXPECT_EQ(small.ValueAtPercentile(50), 3u) << "values under 8ns are exact";
  small.Record(uint64_t{1} << 62);  // beyond the range: the last bucket
  EXPECT_GT(small.ValueAtPercentile(100), uint64_t{1} << 40);
}

TEST_F(ServerFamilyTest, InfoServerFields) {
  const std::string info = Info({"server"});
  EXPECT_EQ(info.find("# Server\r\nredis_version:7.0.15\r\n"), 0u);
  for (const char* field :
       {"\r\nredis_git_sha1:00000000\r\n", "\r\nredis_git_dirty:0\r\n",
        "\r\nredis_build_id:", "\r\nredis_mode:standalone\r\n", "\r\nos:", "\r\narch_bits:64\r\n",
        "\r\nmultiplexing_api:epoll\r\n", "\r\nprocess_id:", "\r\nrun_id:", "\r\ntcp_port:",
        "\r\nserver_time_usec:", "\r\nuptime_in_seconds:", "\r\nuptime_in_days:", "\r\nhz:10\r\n",
        "\r\nconfigured_hz:10\r\n",
        "\r\nlru_clock:", "\r\nexecutable:", "\r\nconfig_file:", "\r\nio_threads_active:0\r\n"}) {
    EXPECT_NE(info.find(field), std::string::npos) << field;
  }
  EXPECT_EQ(info.find("# Clients"), std::string::npos);
  EXPECT_EQ(info.substr(info.size() - 2), "\r\n");
  EXPECT_NE(info.find("\r\nserver_time_usec:" + std::to_string(h.clock().NowMs() * 1000) + "\r\n"),
            std::string::npos);
}

TEST_F(ServerFamilyTest, InfoSectionsAreCaseInsensitiveAndListedOnce) {
  const std::string info = Info({"SERVER", "keyspace", "server", "Cpu"});
  EXPECT_EQ(info.find("# Server"), 0u);
  EXPECT_EQ(info.find("# Server", 1), std::string::npos);
  const size_t cpu = info.find("\r\n\r\n# CPU\r\n");
  const size_t keyspace = info.find("\r\n\r\n# Keyspace\r\n");
  ASSERT_NE(cpu, std::string::npos);
  ASSERT_NE(keyspace, std::string::npos);
  EXPECT_LT(cpu, keyspace) << "sections come in Redis's order, not the request's";
}

TEST_F(ServerFamilyTest, InfoUnknownSectionIsEmpty) {
  EXPECT_EQ(h.Run({"INFO", "nosuch"}), "$0\r\n\r\n");
  EXPECT_EQ(h.Run({"INFO", "a", "b", "c"}), "$0\r\n\r\n");
}

TEST_F(ServerFamilyTest, InfoModulesAndClusterSections) {
  EXPECT_EQ(h.Run({"INFO", "modules"}), "$11\r\n# Modules\r\n\r\n");
  EXPECT_EQ(h.Run({"INFO", "cluster"}), "$30\r\n# Cluster\r\ncluster_enabled:0\r\n\r\n");
}

TEST_F(ServerFamilyTest, InfoKeyspace) {
  EXPECT_EQ(h.Run({"INFO", "keyspace"}), "$12\r\n# Keyspace\r\n\r\n");
  h.Run({"SET", "k", "v"});
  EXPECT_EQ(h.Run({"INFO", "keyspace"}),
            "$44\r\n# Keyspace\r\ndb0:keys=1,expires=0,avg_ttl=0\r\n\r\n");
  h.Run({"SET", "t", "v", "EX", "100"});
  h.Run({"SELECT", "3"});
  h.Run({"SET", "x", "y"});
  EXPECT_EQ(Info({"keyspace"}),
            "# Keyspace\r\ndb0:keys=2,expires=1,avg_ttl=0\r\ndb3:keys=1,expires=0,avg_ttl=0\r\n");
  h.Run({"FLUSHALL"});
  EXPECT_EQ(Info({"keyspace"}), "# Keyspace\r\n");
}

TEST_F(ServerFamilyTest, InfoStats) {
  h.Run({"SET", "k", "v"});
  h.Run({"GET", "k"});
  h.Run({"GET", "nope"});
  h.Run({"GET"});
  const std::string info = Info({"stats"});
  EXPECT_EQ(info.find("# Stats\r\n"), 0u);
  EXPECT_NE(info.find("\r\ntotal_commands_processed:3\r\n"), std::string::npos);
  EXPECT_NE(info.find("\r\nkeyspace_hits:1\r\n"), std::string::npos);
  EXPECT_NE(info.find("\r\nkeyspace_misses:1\r\n"), std::string::npos);
  EXPECT_NE(info.find("\r\ntotal_error_replies:1\r\n"), std::string::npos);
  EXPECT_NE(info.find("\r\nexpired_keys:0\r\n"), std::string::npos);
  for (const char* field :
       {"total_connections_received:", "instantaneous_ops_per_sec:", "total_net_input_bytes:",
        "total_net_output_bytes:", "rejected_connections:", "evicted_keys:", "pubsub_channels:"}) {
    EXPECT_NE(info.find(std::string("\r\n") + field), std::string::npos) << field;
  }
}

TEST_F(ServerFamilyTest, InfoExpiredKeys) {
  h.Run({"SET", "a", "1", "PX", "5"});
  h.clock().Advance(6);
  h.Run({"GET", "a"});
  EXPECT_NE(Info({"stats"}).find("\r\nexpired_keys:1\r\n"), std::string::npos);
}

TEST_F(ServerFamilyTest, InfoOtherSections) {
  EXPECT_EQ(Info({"clients"}).find("# Clients\r\nconnected_clients:"), 0u);
  EXPECT_NE(Info({"clients"}).find("\r\nmaxclients:10000\r\n"), std::string::npos);
  EXPECT_EQ(Info({"memory"}).find("# Memory\r\nused_memory:"), 0u);
  EXPECT_NE(Info({"memory"}).find("\r\nmaxmemory_policy:noeviction\r\n"), std::string::npos);
  EXPECT_EQ(Info({"persistence"}).find("# Persistence\r\nloading:0\r\n"), 0u);
  EXPECT_NE(Info({"persistence"}).find("\r\naof_enabled:0\r\n"), std::string::npos);
  EXPECT_EQ(Info({"replication"}).find("# Replication\r\nrole:master\r\nconnected_slaves:0\r\n"),
            0u);
  EXPECT_EQ(Info({"cpu"}).find("# CPU\r\nused_cpu_sys:"), 0u);
}

TEST_F(ServerFamilyTest, InfoFollowsConfigSet) {
  h.Run({"CONFIG", "SET", "hz", "50", "maxclients", "123"});
  EXPECT_NE(Info({"server"}).find("\r\nhz:50\r\nconfigured_hz:50\r\n"), std::string::npos);
  EXPECT_NE(Info({"clients"}).find("\r\nmaxclients:123\r\n"), std::string::npos);
}

TEST_F(ServerFamilyTest, InfoResp3IsVerbatim) {
  h.conn().protocol = 3;
  EXPECT_EQ(h.Run({"INFO", "modules"}), "=15\r\ntxt:# Modules\r\n\r\n");
}

}  // namespace
}  // namespace kv::test
