// Configuration: redis.conf text (ApplyConfigText), the directive table's types and their errors,
// files and include, rename-command, the command line (ParseCommandLine) and memory values
// (ParseMemory), with Redis 7.0.15's rules and messages (config.c, checked against redis-server).

#include "server/config.h"

#include <unistd.h>

#include <climits>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "server/config_missing_features.h"

namespace kv {
namespace {

using Args = std::vector<std::string>;

// Redis's output for a bad line `line` at `line_no`.
std::string Fatal(int line_no, std::string_view line, std::string_view why) {
  return "\n*** FATAL CONFIG FILE ERROR (Redis 7.0.15) ***\nReading the configuration file, at "
         "line " +
         std::to_string(line_no) + "\n>>> '" + std::string(line) + "'\n" + std::string(why) + "\n";
}

// The FATAL text for `text`, or "" when it loads.
std::string ErrorOf(std::string_view text, Config* config) {
  auto err = ApplyConfigText(text, config);
  return err ? err->Fatal() : "";
}
std::string ErrorOf(std::string_view text) {
  Config c;
  return ErrorOf(text, &c);
}

// CONFIG GET's value of `name` after loading `text`.
std::string GetAfter(std::string_view text, std::string_view name) {
  Config c;
  auto err = ApplyConfigText(text, &c);
  EXPECT_FALSE(err) << err->Fatal();
  const Directive* d = FindDirective(name);
  EXPECT_NE(d, nullptr) << name;
  return d == nullptr ? "" : d->Get(c);
}

CommandLine Parse(std::vector<std::string> args) {
  args.insert(args.begin(), "kvserver");
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  return ParseCommandLine(static_cast<int>(argv.size()), argv.data());
}

std::string ErrorOf(const CommandLine& cl) { return cl.error ? cl.error->Fatal() : ""; }

// ---- ParseMemory ----

TEST(ParseMemoryTest, UnitsAreCaseInsensitive) {
  EXPECT_EQ(ParseMemory("0"), 0);
  EXPECT_EQ(ParseMemory("123"), 123);
  EXPECT_EQ(ParseMemory("5b"), 5);
  EXPECT_EQ(ParseMemory("5B"), 5);
  EXPECT_EQ(ParseMemory("1k"), 1000);
  EXPECT_EQ(ParseMemory("1K"), 1000);
  EXPECT_EQ(ParseMemory("1kb"), 1024);
  EXPECT_EQ(ParseMemory("1KB"), 1024);
  EXPECT_EQ(ParseMemory("1kB"), 1024);
  EXPECT_EQ(ParseMemory("2m"), 2'000'000);
  EXPECT_EQ(ParseMemory("2mb"), 2 * 1024 * 1024);
  EXPECT_EQ(ParseMemory("3g"), 3'000'000'000);
  EXPECT_EQ(ParseMemory("3GB"), 3LL * 1024 * 1024 * 1024);
}

TEST(ParseMemoryTest, DigitsAsMemtoullReadsThem) {
  EXPECT_EQ(ParseMemory("0010mb"), 10 * 1024 * 1024) << "leading zeros are fine";
  EXPECT_EQ(ParseMemory(""), 0) << "no digits is 0";
  EXPECT_EQ(ParseMemory("mb"), 0);
  // Too many digits saturate at 2^64-1, which reads back as -1; units wrap around.
  EXPECT_EQ(ParseMemory("18446744073709551615"), -1);
  EXPECT_EQ(ParseMemory("99999999999999999999999"), -1);
  EXPECT_EQ(ParseMemory("8589934592gb"), INT64_MIN);
  EXPECT_EQ(ParseMemory("9223372036854775807"), INT64_MAX);
}

TEST(ParseMemoryTest, Rejects) {
  for (const char* s :
       {"-1", "-1mb", "+5", " 5", "5 ", "5 mb", "1.5mb", "1tb", "1kbb", "abc", "0x10", "1e3"}) {
    EXPECT_EQ(ParseMemory(s), std::nullopt) << s;
  }
  EXPECT_EQ(ParseMemory(std::string(128, '1')), std::nullopt) << "memtoull's buffer";
}

// ---- the table ----

TEST(DirectiveTableTest, EveryRedisDirectiveAndAlias) {
  size_t primaries = 0, aliases = 0;
  for (const Directive& d : Directives()) {
    (d.is(kAliasConfig) ? aliases : primaries)++;
    EXPECT_EQ(FindDirective(d.name), &d) << d.name << " is listed once";
    if (d.is(kAliasConfig)) {
      const Directive* primary = FindDirective(d.alias);
      ASSERT_NE(primary, nullptr) << d.name;
      EXPECT_EQ(primary->impl, d.impl) << d.name;
      EXPECT_EQ(d.primary(), primary->name);
    }
  }
  // Redis 7.0.15 with TLS (Debian's build): 178 directives, 17 aliases; plus kvserver's two.
  EXPECT_EQ(primaries, 178u + 2u);
  EXPECT_EQ(aliases, 19u);
  EXPECT_EQ(FindDirective("SLAVEOF")->primary(), "replicaof");
  EXPECT_EQ(FindDirective("nosuch"), nullptr);
}

TEST(DirectiveTableTest, FlagsAsRedis) {
  for (const char* name : {"daemonize", "databases", "unixsocket", "logfile", "pidfile",
                           "supervised", "io-threads", "replicaof", "slaveof", "tcp-backlog",
                           "enable-debug-command", "enable-protected-configs", "set-proc-title"}) {
    EXPECT_TRUE(FindDirective(name)->is(kImmutableConfig)) << name;
  }
  for (const char* name : {"port", "bind", "timeout", "save", "appendonly", "maxmemory"}) {
    EXPECT_FALSE(FindDirective(name)->is(kImmutableConfig)) << name;
  }
  for (const char* name : {"dir", "dbfilename", "enable-fault-injection"}) {
    EXPECT_TRUE(FindDirective(name)->is(kProtectedConfig)) << name;
  }
  for (const char* name : {"key-load-delay", "rdb-key-save-delay", "watchdog-period",
                           "use-exit-on-panic", "loading-process-events-interval-bytes"}) {
    EXPECT_TRUE(FindDirective(name)->is(kHiddenConfig)) << name;
  }
  for (const char* name : {"requirepass", "masterauth", "masteruser"}) {
    EXPECT_TRUE(FindDirective(name)->is(kSensitiveConfig)) << name;
  }
}

TEST(DirectiveTableTest, DefaultsRenderAsRedisDoes) {
  const Config c;
  const std::pair<const char*, const char*> cases[] = {
      {"port", "6379"},
      {"daemonize", "no"},
      {"save", "3600 1 300 100 60 10000"},
      {"appendonly", "no"},
      {"appendfsync", "everysec"},
      {"syslog-facility", "local0"},
      {"syslog-ident", "redis"},
      {"supervised", "no"},
      {"oom-score-adj", "no"},
      {"oom-score-adj-values", "0 200 800"},
      {"latency-tracking-info-percentiles", "50 99 99.9"},
      {"proc-title-template", "{title} {listen-addr} {server-mode}"},
      {"maxmemory-clients", "0"},
      {"unixsocketperm", "0"},
      {"shutdown-on-sigint", "default"},
      {"notify-keyspace-events", ""},
      {"replicaof", ""},
      {"slaveof", ""},
      {"hash-max-ziplist-entries", "512"},
      {"lua-time-limit", "5000"},
      {"active-defrag-ignore-bytes", "104857600"},
      {"cluster-config-file", "nodes.conf"},
      {"tls-auth-clients", "yes"},
      {"acl-pubsub-default", "resetchannels"},
      {"bind", "127.0.0.1 -::1"},  // Redis's own default is "* -::*"
      {"client-output-buffer-limit",
       "normal 1073741824 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60"},
  };
  for (const auto& [name, value] : cases) EXPECT_EQ(FindDirective(name)->Get(c), value) << name;
}

// ---- each type's parsing and errors ----

TEST(ConfigTypesTest, Bool) {
  EXPECT_EQ(GetAfter("rdbcompression NO\n", "rdbcompression"), "no");
  EXPECT_EQ(GetAfter("activerehashing Yes\n", "activerehashing"), "yes");
  EXPECT_EQ(ErrorOf("rdbcompression 1\n"),
            Fatal(1, "rdbcompression 1", "argument must be 'yes' or 'no'"));
  EXPECT_EQ(ErrorOf("rdbcompression yes no\n"),
            Fatal(1, "rdbcompression yes no", "wrong number of arguments"));
}

TEST(ConfigTypesTest, Enum) {
  EXPECT_EQ(GetAfter("appendfsync ALWAYS\n", "appendfsync"), "always");
  EXPECT_EQ(GetAfter("syslog-facility local7\n", "syslog-facility"), "local7");
  // Several names for one value: the first one renders it.
  EXPECT_EQ(GetAfter("oom-score-adj relative\n", "oom-score-adj"), "yes");
  EXPECT_EQ(ErrorOf("appendfsync sometimes\n"),
            Fatal(1, "appendfsync sometimes",
                  "argument(s) must be one of the following: everysec, always, no"));
  EXPECT_EQ(ErrorOf("maxmemory-policy lru\n"),
            Fatal(1, "maxmemory-policy lru",
                  "argument(s) must be one of the following: volatile-lru, volatile-lfu, "
                  "volatile-random, volatile-ttl, allkeys-lru, allkeys-lfu, allkeys-random, "
                  "noeviction"));
}

TEST(ConfigTypesTest, MultiArgumentEnumIsBitFlags) {
  EXPECT_EQ(GetAfter("shutdown-on-sigterm nosave now\n", "shutdown-on-sigterm"), "nosave now");
  EXPECT_EQ(GetAfter("shutdown-on-sigterm \"force NOW\"\n", "shutdown-on-sigterm"), "now force");
  EXPECT_EQ(GetAfter("shutdown-on-sigint default\n", "shutdown-on-sigint"), "default");
  const std::string kNames =
      "argument(s) must be one of the following: default, save, nosave, now, force";
  EXPECT_EQ(ErrorOf("shutdown-on-sigint\n"), Fatal(1, "shutdown-on-sigint", kNames));
  EXPECT_EQ(ErrorOf("shutdown-on-sigint now later\n"),
            Fatal(1, "shutdown-on-sigint now later", kNames));
  EXPECT_EQ(ErrorOf("shutdown-on-sigint save nosave\n"),
            Fatal(1, "shutdown-on-sigint save nosave",
                  "shutdown options SAVE and NOSAVE can't be used simultaneously"));
}

TEST(ConfigTypesTest, SignedIntegers) {
  EXPECT_EQ(GetAfter("list-max-listpack-size -5\n", "list-max-listpack-size"), "-5");
  EXPECT_EQ(GetAfter("slowlog-log-slower-than -1\n", "slowlog-log-slower-than"), "-1");
  const char* kParse = "argument couldn't be parsed into an integer";
  for (const char* v : {"+5", "05", "abc", "1.5", "1k", "99999999999999999999"}) {
    EXPECT_EQ(ErrorOf(std::string("timeout ") + v + "\n"),
              Fatal(1, std::string("timeout ") + v, kParse));
  }
  EXPECT_EQ(ErrorOf("timeout -1\n"),
            Fatal(1, "timeout -1", "argument must be between 0 and 2147483647 inclusive"));
  EXPECT_EQ(ErrorOf("active-expire-effort 11\n"),
            Fatal(1, "active-expire-effort 11", "argument must be between 1 and 10 inclusive"));
  EXPECT_EQ(ErrorOf("slowlog-log-slower-than -2\n"),
            Fatal(1, "slowlog-log-slower-than -2",
                  "argument must be between -1 and 9223372036854775807 inclusive"));
}

TEST(ConfigTypesTest, UnsignedIntegersAreCheckedUnsigned) {
  const char* kRange = "argument must be between 1 and 4294967295 inclusive";
  EXPECT_EQ(ErrorOf("maxclients -1\n"), Fatal(1, "maxclients -1", kRange));
  EXPECT_EQ(ErrorOf("maxclients 0\n"), Fatal(1, "maxclients 0", kRange));
  EXPECT_EQ(GetAfter("maxclients 4294967295\n", "maxclients"), "4294967295");
  // size_t: -1 is huge, beyond LONG_MAX.
  EXPECT_EQ(ErrorOf("set-max-intset-entries -1\n"),
            Fatal(1, "set-max-intset-entries -1",
                  "argument must be between 0 and 9223372036854775807 inclusive"));
}

TEST(ConfigTypesTest, MemoryValues) {
  EXPECT_EQ(GetAfter("maxmemory 1gb\n", "maxmemory"), "1073741824");
  EXPECT_EQ(GetAfter("hash-max-listpack-value 1k\n", "hash-max-listpack-value"), "1000");
  // maxmemory's range is all of unsigned 64 bits: 2^64-1 saturated is accepted.
  EXPECT_EQ(GetAfter("maxmemory 99999999999999999999\n", "maxmemory"), "18446744073709551615");
  EXPECT_EQ(ErrorOf("maxmemory -1\n"), Fatal(1, "maxmemory -1", "argument must be a memory value"));
  EXPECT_EQ(ErrorOf("proto-max-bulk-len 1kb\n"),
            Fatal(1, "proto-max-bulk-len 1kb",
                  "argument must be between 1048576 and 9223372036854775807 inclusive"));
  EXPECT_EQ(ErrorOf("repl-backlog-size 0\n"),
            Fatal(1, "repl-backlog-size 0",
                  "argument must be between 1 and 9223372036854775807 inclusive"));
}

TEST(ConfigTypesTest, MemoryOrPercent) {
  // maxmemory-clients takes a memory value or a percentage (of maxmemory), not a negative one.
  EXPECT_EQ(GetAfter("maxmemory-clients 0\n", "maxmemory-clients"), "0");
  Config c;
  const Directive* d = FindDirective("maxmemory-clients");
  EXPECT_EQ(d->Set(c, Args{"200%"}), "percentage argument must be less or equal to 100");
  EXPECT_EQ(d->Set(c, Args{"-5%"}), "argument must be a memory or percent value");
  EXPECT_EQ(d->Set(c, Args{"x"}), "argument must be a memory or percent value");
  // Within range, but client eviction is a feature kvserver does not have.
  EXPECT_EQ(d->Set(c, Args{"50%"}), MissingFeatureError("maxmemory-clients"));
  EXPECT_EQ(d->Set(c, Args{"1mb"}), MissingFeatureError("maxmemory-clients"));
  EXPECT_EQ(c.maxmemory_clients, 0);
}

TEST(ConfigTypesTest, Octal) {
  EXPECT_EQ(GetAfter("unixsocketperm 700\n", "unixsocketperm"), "700");
  EXPECT_EQ(GetAfter("unixsocketperm 0755\n", "unixsocketperm"), "755");
  EXPECT_EQ(ErrorOf("unixsocketperm 999\n"),
            Fatal(1, "unixsocketperm 999", "argument couldn't be parsed as an octal number"));
  EXPECT_EQ(ErrorOf("unixsocketperm 1000\n"),
            Fatal(1, "unixsocketperm 1000", "argument must be between 0 and 777 inclusive"));
}

TEST(ConfigTypesTest, HzIsKeptWithinOneAndFiveHundred) {
  EXPECT_EQ(GetAfter("hz 1000\n", "hz"), "500");
  EXPECT_EQ(GetAfter("hz 0\n", "hz"), "1");
  EXPECT_EQ(ErrorOf("hz -1\n"),
            Fatal(1, "hz -1", "argument must be between 0 and 2147483647 inclusive"));
}

TEST(ConfigTypesTest, StringsAndTheirValidators) {
  EXPECT_EQ(GetAfter("logfile \"/tmp/a b.log\"\n", "logfile"), "/tmp/a b.log");
  EXPECT_EQ(GetAfter("pidfile '/tmp/c d.pid'\n", "pidfile"), "/tmp/c d.pid");
  EXPECT_EQ(ErrorOf("dbfilename /tmp/dump.rdb\n"),
            Fatal(1, "dbfilename /tmp/dump.rdb", "dbfilename can't be a path, just a filename"));
  EXPECT_EQ(ErrorOf("appendfilename \"\"\n"),
            Fatal(1, "appendfilename \"\"", "appendfilename can't be empty"));
  EXPECT_EQ(ErrorOf("appenddirname a/b\n"),
            Fatal(1, "appenddirname a/b", "appenddirname can't be a path, just a dirname"));
  EXPECT_EQ(ErrorOf("cluster-announce-hostname a_b\n"),
            Fatal(1, "cluster-announce-hostname a_b",
                  "Hostnames may only contain alphanumeric characters, hyphens or dots"));
  EXPECT_EQ(ErrorOf("proc-title-template \"{nosuch}\"\n"),
            Fatal(1, "proc-title-template \"{nosuch}\"",
                  "template format is invalid or contains unknown variables"));
  EXPECT_EQ(ErrorOf("proc-title-template \"{server-mode}\"\n"),
            Fatal(1, "proc-title-template \"{server-mode}\"",
                  "template format is invalid or contains unknown variables"));
  EXPECT_EQ(GetAfter("proc-title-template \"{{{title}} {port}\"\n", "proc-title-template"),
            "{{{title}} {port}");
  // Passwords keep every byte; other strings stop at a NUL byte, as Redis's C strings do.
  Config c;
  ASSERT_FALSE(ApplyConfigText("requirepass \"a\\x00b\"\nsyslog-ident \"x\\x00y\"\n", &c));
  EXPECT_EQ(c.requirepass, std::string("a\0b", 3));
  EXPECT_EQ(c.syslog_ident, "x");
}

TEST(ConfigTypesTest, Aliases) {
  Config c;
  ASSERT_FALSE(ApplyConfigText(
      "hash-max-ziplist-entries 100\nzset-max-ziplist-value 1kb\nslave-read-only no\n"
      "list-max-ziplist-size 8\nlua-time-limit 100\nmin-slaves-max-lag 3\n",
      &c));
  EXPECT_EQ(c.hash_max_listpack_entries, 100);
  EXPECT_EQ(c.zset_max_listpack_value, 1024);
  EXPECT_FALSE(c.replica_read_only);
  EXPECT_EQ(c.list_max_listpack_size, 8);
  EXPECT_EQ(c.busy_reply_threshold, 100);
  EXPECT_EQ(FindDirective("min-replicas-max-lag")->Get(c), "3");
  EXPECT_EQ(FindDirective("min-slaves-max-lag")->Get(c), "3");
}

// ---- special directives ----

TEST(SpecialDirectivesTest, Save) {
  EXPECT_EQ(GetAfter("save \"\"\n", "save"), "");
  EXPECT_EQ(GetAfter("save ''\nsave\n", "save"), "");
  for (const char* bad : {"save 10", "save 0 1", "save 10 -1", "save 10x 1", "save 1 2 3"}) {
    EXPECT_EQ(ErrorOf(std::string(bad) + "\n"), Fatal(1, bad, "Invalid save parameters"));
  }
  // Valid save points, as Redis lists them: the first save line replaces Redis's defaults, the
  // next ones add to it (unit/introspection's "CONFIG save params special case").
  EXPECT_EQ(GetAfter("port 7000\n", "save"), "3600 1 300 100 60 10000");
  EXPECT_EQ(GetAfter("save 900 1\nsave 300 10\n", "save"), "900 1 300 10");
  EXPECT_EQ(GetAfter("save 900 1 300 10\n", "save"), "900 1 300 10");
  EXPECT_EQ(GetAfter("save 900 1\nsave \"\"\nsave 60 5\n", "save"), "60 5");
}

TEST(SpecialDirectivesTest, Bind) {
  EXPECT_EQ(GetAfter("bind 127.0.0.1 ::1\n", "bind"), "127.0.0.1 ::1");
  // One quoted word is split, as Redis splits a multi-argument directive given one argument.
  EXPECT_EQ(GetAfter("bind \"10.0.0.1 10.0.0.2 -::1\"\n", "bind"), "10.0.0.1 10.0.0.2 -::1");
  EXPECT_EQ(GetAfter("bind \"\"\n", "bind"), "");
  EXPECT_EQ(GetAfter("bind\n", "bind"), "");
  std::string many = "bind";
  for (int i = 0; i < 17; ++i) many += " 10.0.0." + std::to_string(i);
  EXPECT_EQ(ErrorOf(many), Fatal(1, many, "Too many bind addresses specified."));
}

TEST(SpecialDirectivesTest, OutputBufferLimit) {
  EXPECT_EQ(GetAfter("client-output-buffer-limit normal 1mb 512kb 10 replica 1gb 2g 0 "
                     "PubSub 100 200 3\n",
                     "client-output-buffer-limit"),
            "normal 1048576 524288 10 slave 1073741824 2000000000 0 pubsub 100 200 3");
  // Later lines change only the classes they name.
  EXPECT_EQ(GetAfter("client-output-buffer-limit normal 0 0 0\n"
                     "client-output-buffer-limit \"slave 0 0 0\"\n",
                     "client-output-buffer-limit"),
            "normal 0 0 0 slave 0 0 0 pubsub 33554432 8388608 60");
  Config c;
  const Directive* d = FindDirective("client-output-buffer-limit");
  EXPECT_EQ(d->Set(c, Args{"normal", "1", "2"}),
            "Wrong number of arguments in buffer limit configuration.");
  EXPECT_EQ(d->Set(c, Args{"master", "1", "2", "3"}),
            "Invalid client class specified in buffer limit configuration.");
  for (const Args& bad : {Args{"normal", "x", "1", "1"}, Args{"normal", "1", "-1", "1"},
                          Args{"normal", "1", "1", "-1"}, Args{"normal", "1", "1", "1s"}}) {
    EXPECT_EQ(d->Set(c, bad),
              "Error in hard, soft or soft_seconds setting in buffer limit configuration.");
  }
  // A bad second group leaves the first unapplied.
  EXPECT_NE(d->Set(c, Args{"normal", "1", "1", "1", "pubsub", "1", "1", "x"}), std::nullopt);
  EXPECT_EQ(c.client_output_buffer_limit[0].hard, 1024ULL * 1024 * 1024);
  EXPECT_EQ(d->Set(c, Args{}), std::nullopt);
}

TEST(SpecialDirectivesTest, OomScoreAdjValues) {
  EXPECT_EQ(GetAfter("oom-score-adj-values -100 0 1000\n", "oom-score-adj-values"), "-100 0 1000");
  EXPECT_EQ(GetAfter("oom-score-adj-values \"1 2 3\"\n", "oom-score-adj-values"), "1 2 3");
  EXPECT_EQ(ErrorOf("oom-score-adj-values 1 2\n"),
            Fatal(1, "oom-score-adj-values 1 2", "wrong number of arguments"));
  EXPECT_EQ(ErrorOf("oom-score-adj-values 1 2 2001\n"),
            Fatal(1, "oom-score-adj-values 1 2 2001",
                  "Invalid oom-score-adj-values, elements must be between -2000 and 2000."));
}

TEST(SpecialDirectivesTest, NotifyKeyspaceEvents) {
  EXPECT_EQ(GetAfter("notify-keyspace-events \"\"\n", "notify-keyspace-events"), "");
  EXPECT_EQ(GetAfter("notify-keyspace-events gx\n", "notify-keyspace-events"), "gx");
  EXPECT_EQ(GetAfter("notify-keyspace-events KE\n", "notify-keyspace-events"), "KE");
  EXPECT_EQ(GetAfter("notify-keyspace-events g$lshzxetdn\n", "notify-keyspace-events"), "A");
  EXPECT_EQ(GetAfter("notify-keyspace-events KEA\n", "notify-keyspace-events"), "AKE");
  EXPECT_EQ(ErrorOf("notify-keyspace-events Kq\n"),
            Fatal(1, "notify-keyspace-events Kq",
                  "Invalid event class character. Use 'Ag$lshzxeKEtmdn'."));
  EXPECT_EQ(ErrorOf("notify-keyspace-events\n"),
            Fatal(1, "notify-keyspace-events", "wrong number of arguments"));
}

TEST(SpecialDirectivesTest, ReplicaOf) {
  EXPECT_EQ(GetAfter("replicaof no one\n", "replicaof"), "");
  EXPECT_EQ(GetAfter("slaveof NO ONE\n", "slaveof"), "");
  EXPECT_EQ(ErrorOf("replicaof 127.0.0.1 abc\n"),
            Fatal(1, "replicaof 127.0.0.1 abc", "Invalid master port"));
  EXPECT_EQ(ErrorOf("replicaof 127.0.0.1\n"),
            Fatal(1, "replicaof 127.0.0.1", "wrong number of arguments"));
  EXPECT_EQ(ErrorOf("slaveof 127.0.0.1 6379\n"),
            Fatal(1, "slaveof 127.0.0.1 6379",
                  "kvserver does not support replication yet: only 'replicaof no one' is "
                  "accepted"));
}

TEST(SpecialDirectivesTest, LatencyTrackingInfoPercentiles) {
  EXPECT_EQ(GetAfter("latency-tracking-info-percentiles 50.0 99.99 100\n",
                     "latency-tracking-info-percentiles"),
            "50 99.99 100");
  EXPECT_EQ(
      GetAfter("latency-tracking-info-percentiles \"\"\n", "latency-tracking-info-percentiles"),
      "");
  EXPECT_EQ(ErrorOf("latency-tracking-info-percentiles 101\n"),
            Fatal(1, "latency-tracking-info-percentiles 101",
                  "latency-tracking-info-percentiles parameters should sit between [0.0,100.0]"));
  EXPECT_EQ(ErrorOf("latency-tracking-info-percentiles 5 x\n"),
            Fatal(1, "latency-tracking-info-percentiles 5 x",
                  "Invalid latency-tracking-info-percentiles parameters"));
}

TEST(SpecialDirectivesTest, DirChangesTheWorkingDirectory) {
  const auto cwd = std::filesystem::current_path();
  Config c;
  ASSERT_FALSE(ApplyConfigText("dir /\n", &c));
  EXPECT_EQ(std::filesystem::current_path(), "/");
  EXPECT_EQ(FindDirective("dir")->Get(c), "/");
  std::filesystem::current_path(cwd);
  EXPECT_EQ(ErrorOf("dir /nonexistent/kvserver\n"),
            Fatal(1, "dir /nonexistent/kvserver", "No such file or directory"));
  EXPECT_EQ(ErrorOf("dir a b\n"), Fatal(1, "dir a b", "wrong number of arguments"));
}

// ---- directives whose feature kvserver does not have yet ----

TEST(MissingFeaturesTest, DefaultsAcceptedOtherValuesRefusedNamingTheFeature) {
  struct Case {
    const char* directive;
    Args accepted;
    Args refused;
  };
  const Case cases[] = {
      {"replicaof", {"no", "one"}, {"127.0.0.1", "6380"}},
      {"min-replicas-to-write", {"0"}, {"1"}},
      {"cluster-enabled", {"no"}, {"yes"}},
      {"tls-port", {"0"}, {"6380"}},
      {"aclfile", {""}, {"/etc/redis/users.acl"}},
      {"io-threads", {"1"}, {"4"}},
      {"activedefrag", {"no"}, {"yes"}},
      {"maxmemory-clients", {"0"}, {"10%"}},
      {"socket-mark-id", {"0"}, {"7"}},
  };
  size_t checked = 0;
  for (const Case& c : cases) {
    Config config;
    const Directive* d = FindDirective(c.directive);
    ASSERT_NE(d, nullptr) << c.directive;
    EXPECT_EQ(d->Set(config, c.accepted), std::nullopt) << c.directive;
    const std::string accepted = d->Get(config);
    EXPECT_EQ(d->Set(config, c.refused), MissingFeatureError(c.directive)) << c.directive;
    EXPECT_EQ(d->Get(config), accepted) << c.directive << " is unchanged after refusal";
    ++checked;
  }
  // Every directive of the list is covered above; the other entries are whole lines.
  size_t with_values = 0;
  for (const MissingFeature& f : MissingFeatures()) with_values += f.needs_feature != nullptr;
  EXPECT_EQ(checked, with_values);
  EXPECT_EQ(MissingFeatureError("cluster-enabled"),
            "kvserver does not support cluster mode yet: only 'cluster-enabled no' is accepted");
}

TEST(MissingFeaturesTest, TuningOfAMissingFeatureTakesAnyValidValue) {
  // Nothing can use these while the feature itself is refused.
  EXPECT_EQ(ErrorOf("rdbcompression no\ndbfilename x.rdb\nappendfsync always\n"
                    "repl-diskless-sync-delay 0\ncluster-node-timeout 5\ntls-cert-file /x\n"
                    "masterauth pw\npropagation-error-behavior panic\nenable-module-command yes\n"),
            "");
}

TEST(MissingFeaturesTest, LinesThatAreAlwaysRefused) {
  const std::string kUsers =
      "kvserver does not support ACL users yet: only 'user default on nopass ~* &* +@all' "
      "without requirepass is accepted";
  EXPECT_EQ(ErrorOf("user default on nopass ~* +@all\n"),
            Fatal(1, "user default on nopass ~* +@all", kUsers));
  EXPECT_EQ(ErrorOf("user alice on >pw ~* +@all\n"),
            Fatal(1, "user alice on >pw ~* +@all", kUsers));
  // The line Redis's CONFIG REWRITE writes for its default user describes kvserver's, unless a
  // password is set (Redis would load the user after requirepass and drop the password).
  EXPECT_EQ(ErrorOf("user default on nopass ~* &* +@all\n"), "");
  // The same words, however quoted: redis-server --user default on nopass ~* &* +@all gives
  // the line 'user "default" "on" "nopass" "~*" "&*" "+@all"'.
  EXPECT_EQ(ErrorOf("user \"default\" on   nopass '~*' &* \"+@all\"\n"), "");
  EXPECT_EQ(ErrorOf(Parse({"--user", "default", "on", "nopass", "~*", "&*", "+@all"})), "");
  EXPECT_NE(ErrorOf(Parse({"--user", "default", "on", "nopass", "~*", "&*", "+@all", "-get"})), "");
  EXPECT_NE(ErrorOf("user \"default on\" nopass ~* &* +@all\n"), "");
  EXPECT_EQ(ErrorOf("port 1\nuser default on nopass ~* &* +@all\nrequirepass pw\n"),
            Fatal(2, "user default on nopass ~* &* +@all", kUsers));
  EXPECT_EQ(ErrorOf("loadmodule /x.so\n"),
            Fatal(1, "loadmodule /x.so",
                  "kvserver does not support modules yet: only no loadmodule lines is accepted"));
  EXPECT_EQ(ErrorOf("mymodule.option 1\n"),
            Fatal(1, "mymodule.option 1",
                  "kvserver does not support modules yet: only no module configuration is "
                  "accepted"));
  EXPECT_EQ(ErrorOf("mymodule.option\n"),
            Fatal(1, "mymodule.option", "Module config specified without value"));
  EXPECT_EQ(ErrorOf("sentinel monitor m 127.0.0.1 6379 2\n"),
            Fatal(1, "sentinel monitor m 127.0.0.1 6379 2",
                  "sentinel directive while not in sentinel mode"));
  EXPECT_EQ(ErrorOf("sentinel\n"), "") << "alone, a no-op outside Sentinel mode";
}

// ---- configuration text ----

TEST(ConfigTextTest, CommentsBlanksAndCase) {
  Config c;
  ASSERT_FALSE(
      ApplyConfigText("# a comment\n\n   \n\t port 7001 \r\n# port 1\nPORT 7002\nTimeOut 5\n", &c));
  EXPECT_EQ(c.port, 7002) << "a later line wins";
  EXPECT_EQ(c.timeout, 5);
  ASSERT_FALSE(ApplyConfigText("", &c));
  ASSERT_FALSE(ApplyConfigText("port 7003", &c)) << "no final newline";
  EXPECT_EQ(c.port, 7003);
}

TEST(ConfigTextTest, ErrorsShowTheLineAsWrittenAndStopTheLoad) {
  Config c;
  EXPECT_EQ(ErrorOf("port 1\n\n  NoSuch  1 \nport 2\n", &c),
            Fatal(3, "NoSuch  1", "Bad directive or wrong number of arguments"));
  EXPECT_EQ(c.port, 1) << "loading stops at the first error";
  EXPECT_EQ(ErrorOf("port 1\nlogfile \"abc\n"),
            Fatal(2, "logfile \"abc", "Unbalanced quotes in configuration line"));
  EXPECT_EQ(ErrorOf("logfile \"a\"b\n"),
            Fatal(1, "logfile \"a\"b", "Unbalanced quotes in configuration line"));
  EXPECT_EQ(ErrorOf("port\n"), Fatal(1, "port", "wrong number of arguments"));
}

TEST(ConfigTextTest, DeprecatedDirectivesAreAccepted) {
  EXPECT_EQ(ErrorOf("list-max-ziplist-entries 512\nlist-max-ziplist-value 64\n"
                    "lua-replicate-commands yes\n"),
            "");
  EXPECT_EQ(ErrorOf("lua-replicate-commands\n"),
            Fatal(1, "lua-replicate-commands", "Bad directive or wrong number of arguments"));
}

TEST(ConfigTextTest, RenameCommand) {
  Config c;
  ASSERT_FALSE(ApplyConfigText(
      "rename-command flushall \"\"\nrename-command CONFIG cfg\nrename-command cfg config2\n", &c));
  EXPECT_EQ(c.renamed_commands, (std::vector<std::pair<std::string, std::string>>{
                                    {"flushall", ""}, {"config", "cfg"}, {"cfg", "config2"}}));
  EXPECT_EQ(ErrorOf("rename-command nosuch x\n"),
            Fatal(1, "rename-command nosuch x", "No such command in rename-command"));
  EXPECT_EQ(ErrorOf("rename-command flushall \"\"\nrename-command flushall x\n"),
            Fatal(2, "rename-command flushall x", "No such command in rename-command"));
  EXPECT_EQ(ErrorOf("rename-command get set\n"),
            Fatal(1, "rename-command get set", "Target command name already exists"));
  EXPECT_EQ(ErrorOf("rename-command get\n"),
            Fatal(1, "rename-command get", "Bad directive or wrong number of arguments"));
}

TEST(ConfigErrorTest, WholeConfigurationErrorsHaveNoLine) {
  Config c;
  c.logfile = "/nonexistent/dir/kv.log";
  auto err = CheckLoadedConfig(c);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->Fatal(),
            "\n*** FATAL CONFIG FILE ERROR (Redis 7.0.15) ***\nCan't open the log file: No such "
            "file or directory\n");
  EXPECT_FALSE(CheckLoadedConfig(Config{}));
}

TEST(ConfigErrorTest, ShortFormNamesTheDirective) {
  Config c;
  auto err = ApplyConfigText("maxclients 0\n", &c);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->Short(), "maxclients: argument must be between 1 and 4294967295 inclusive");
}

// ---- files and include ----

class ConfigFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cwd_ = std::filesystem::current_path();
    dir_ = std::filesystem::temp_directory_path() /
           ("kv-config-test-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    std::filesystem::current_path(cwd_);
    std::filesystem::remove_all(dir_);
  }
  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = (dir_ / name).string();
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path) << text;
    return path;
  }
  std::filesystem::path cwd_;
  std::filesystem::path dir_;
};

TEST_F(ConfigFileTest, LoadsAFile) {
  const std::string path = Write("kv.conf", "# kvserver\nport 7010\ntimeout 9\n");
  Config c;
  ASSERT_FALSE(LoadConfigFile(path, &c));
  EXPECT_EQ(c.port, 7010);
  EXPECT_EQ(c.timeout, 9);
  EXPECT_EQ(c.config_file, path);
}

TEST_F(ConfigFileTest, MissingFile) {
  Config c;
  const std::string path = (dir_ / "missing.conf").string();
  auto err = LoadConfigFile(path, &c);
  ASSERT_TRUE(err);
  EXPECT_TRUE(err->cannot_open_file);
  EXPECT_EQ(err->Fatal(),
            "Fatal error, can't open config file '" + path + "': No such file or directory");
}

TEST_F(ConfigFileTest, IncludeReadsFilesAndReportsTheirOwnLineNumbers) {
  const std::string inner = Write("inner.conf", "timeout 3\n\nhz 1x\n");
  const std::string other = Write("other.conf", "tcp-keepalive 9\n");
  Config c;
  ASSERT_FALSE(ApplyConfigText("port 1\ninclude " + other + "\nport 2\n", &c));
  EXPECT_EQ(c.tcp_keepalive, 9);
  EXPECT_EQ(c.port, 2);
  EXPECT_EQ(ErrorOf("port 1\ninclude " + inner + "\n"),
            Fatal(3, "hz 1x", "argument couldn't be parsed into an integer"));
  auto missing = ApplyConfigText("include " + (dir_ / "nope.conf").string() + "\n", &c);
  ASSERT_TRUE(missing);
  EXPECT_TRUE(missing->cannot_open_file);
  // Relative paths are relative to the working directory, which dir changes.
  ASSERT_FALSE(ApplyConfigText("dir " + dir_.string() + "\ninclude other.conf\n", &c));
}

TEST_F(ConfigFileTest, IncludeWithAPattern) {
  Write("conf.d/a.conf", "timeout 7\n");
  Write("conf.d/b.conf", "hz 20\n");
  Config c;
  ASSERT_FALSE(ApplyConfigText("include " + (dir_ / "conf.d/*.conf").string() + "\n", &c));
  EXPECT_EQ(c.timeout, 7);
  EXPECT_EQ(c.hz, 20);
  // No match is fine: an empty conf.d.
  EXPECT_FALSE(ApplyConfigText("include " + (dir_ / "empty.d/*.conf").string() + "\n", &c));
}

TEST_F(ConfigFileTest, AFileThatIncludesItselfStops) {
  const std::string path = (dir_ / "loop.conf").string();
  Write("loop.conf", "include " + path + "\n");
  Config c;
  EXPECT_TRUE(ApplyConfigText("include " + path + "\n", &c));
}

// ---- ParseCommandLine ----

TEST(CommandLineTest, NoArguments) {
  const CommandLine cl = Parse({});
  EXPECT_EQ(cl.action, CommandLine::Action::kRun);
  EXPECT_EQ(cl.config.port, 6379);
}

TEST(CommandLineTest, VersionAndHelp) {
  EXPECT_EQ(Parse({"-v"}).action, CommandLine::Action::kVersion);
  EXPECT_EQ(Parse({"--version"}).action, CommandLine::Action::kVersion);
  EXPECT_EQ(Parse({"-h"}).action, CommandLine::Action::kHelp);
  EXPECT_EQ(Parse({"--help"}).action, CommandLine::Action::kHelp);
}

TEST(CommandLineTest, Options) {
  const CommandLine cl = Parse({"--port", "7020", "--TIMEOUT", "3", "--loglevel", "debug"});
  ASSERT_EQ(cl.action, CommandLine::Action::kRun) << ErrorOf(cl);
  EXPECT_EQ(cl.config.port, 7020);
  EXPECT_EQ(cl.config.timeout, 3);
  EXPECT_EQ(cl.config.loglevel, "debug");
}

TEST(CommandLineTest, EmptySave) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--save", ""},
                                             {"--save"},
                                             {"--save", "--port", "7022"},
                                             {"--port", "7022", "--save"}}) {
    const CommandLine cl = Parse(args);
    EXPECT_EQ(cl.action, CommandLine::Action::kRun)
        << ::testing::PrintToString(args) << ErrorOf(cl);
    EXPECT_TRUE(cl.config.save.empty());
  }
  EXPECT_EQ(Parse({"--save", "--port", "7022"}).config.port, 7022);
  // Options follow an empty first line, as in redis-server: they start at line 2.
  EXPECT_EQ(ErrorOf(Parse({"--save", "--port", "abc"})),
            Fatal(3, "port \"abc\"", "argument couldn't be parsed into an integer"));
}

TEST(CommandLineTest, BindSeveralAddresses) {
  CommandLine cl = Parse({"--bind", "127.0.0.1", "::1"});
  ASSERT_EQ(cl.action, CommandLine::Action::kRun) << ErrorOf(cl);
  EXPECT_EQ(cl.config.bind, (std::vector<std::string>{"127.0.0.1", "::1"}));
  cl = Parse({"--bind", "127.0.0.1 -::1", "--port", "7023"});
  ASSERT_EQ(cl.action, CommandLine::Action::kRun) << ErrorOf(cl);
  EXPECT_EQ(cl.config.bind, (std::vector<std::string>{"127.0.0.1", "-::1"}));
}

TEST(CommandLineTest, ValuesAreQuotedExactly) {
  // Blanks, quotes, backslashes and control characters survive the trip through config text.
  const std::string odd = "/tmp/a b\"c\\d\ne\tf\x01.log";
  const CommandLine cl = Parse({"--logfile", odd, "--pidfile", ""});
  ASSERT_EQ(cl.action, CommandLine::Action::kRun) << ErrorOf(cl);
  EXPECT_EQ(cl.config.logfile, odd);
  EXPECT_EQ(cl.config.pidfile, "");
}

TEST(CommandLineTest, OptionAndValueInOneArgument) {
  const CommandLine cl = Parse({"--maxmemory 700mb", "--maxmemory-policy volatile-lru"});
  ASSERT_EQ(cl.action, CommandLine::Action::kRun) << ErrorOf(cl);
  EXPECT_EQ(cl.config.maxmemory, 700u * 1024 * 1024);
  EXPECT_EQ(cl.config.maxmemory_policy, MaxmemoryPolicy::kVolatileLru);
}

TEST(CommandLineTest, RedisSuiteErrorCases) {
  // Redis's tests/unit/introspection.tcl, "redis-server command line arguments - error cases".
  EXPECT_EQ(ErrorOf(Parse({"--port"})), Fatal(2, "port", "wrong number of arguments"));
  EXPECT_EQ(ErrorOf(Parse({"--port", "6380", "--loglevel"})),
            Fatal(3, "loglevel", "wrong number of arguments"));
  EXPECT_EQ(ErrorOf(Parse({"--port", "6379", "6380"})),
            Fatal(2, "port \"6379\" \"6380\"", "wrong number of arguments"));
  EXPECT_EQ(ErrorOf(Parse({"--port", "--loglevel", "verbose"})),
            Fatal(2, "port \"--loglevel\" \"verbose\"", "wrong number of arguments"));
  EXPECT_EQ(ErrorOf(Parse({"--port", "--bla", "--loglevel", "verbose"})),
            Fatal(2, "port \"--bla\"", "argument couldn't be parsed into an integer"));
  EXPECT_EQ(ErrorOf(Parse({"--replicaof", "--127.0.0.1", "--abc"})),
            Fatal(2, "replicaof \"--127.0.0.1\"", "wrong number of arguments"));
  // Values starting with "--" right after an option name.
  const CommandLine cl =
      Parse({"--proc-title-template", "--my--title--template", "--loglevel", "verbose"});
  ASSERT_EQ(cl.action, CommandLine::Action::kRun) << ErrorOf(cl);
  EXPECT_EQ(cl.config.proc_title_template, "--my--title--template");
}

TEST(CommandLineTest, AStrayValueIsALineOfItsOwn) {
  EXPECT_EQ(ErrorOf(Parse({"-x"})),
            Fatal(2, "\"-x\"", "Bad directive or wrong number of arguments"));
  EXPECT_EQ(ErrorOf(Parse({"--timeout", "1", "--nosuch", "1"})),
            Fatal(3, "nosuch \"1\"", "Bad directive or wrong number of arguments"));
}

TEST(CommandLineTest, SentinelModeIsRefused) {
  const CommandLine cl = Parse({"--sentinel"});
  EXPECT_EQ(cl.action, CommandLine::Action::kError);
  EXPECT_EQ(cl.error->reason, MissingFeatureError("sentinel"));
}

TEST_F(ConfigFileTest, FileThenOptionsCountLinesOnFromTheFile) {
  const std::string path = Write("kv.conf", "port 7030\ntimeout 8\n");
  CommandLine cl = Parse({path, "--port", "7031"});
  ASSERT_EQ(cl.action, CommandLine::Action::kRun) << ErrorOf(cl);
  EXPECT_EQ(cl.config.port, 7031) << "options come after the file";
  EXPECT_EQ(cl.config.timeout, 8);
  EXPECT_EQ(cl.config.config_file, path);
  // Two lines of file, its last newline, the separating newline: the option is line 4.
  cl = Parse({path, "--hz", "x"});
  EXPECT_EQ(ErrorOf(cl), Fatal(4, "hz \"x\"", "argument couldn't be parsed into an integer"));
  cl = Parse({(dir_ / "nope.conf").string()});
  EXPECT_EQ(cl.action, CommandLine::Action::kError);
  EXPECT_TRUE(cl.error->cannot_open_file);
}

}  // namespace
}  // namespace kv
