// The same configuration file loaded into kvserver and into redis-server: CONFIG GET * compared
// name by name and value by value (Debian's /etc/redis/redis.conf, Redis 7.0.15's sample
// redis.conf and its test suite's configuration files, and a file setting many directives to
// values other than their defaults); and CONFIG SET of every directive with a set of probe values,
// replies compared byte for byte.
//
// Both servers get the same overrides on the command line: a free loopback port (the ports differ,
// so `port` is not compared), `bind 127.0.0.1` (tests listen on loopback only), `save ""` and a
// directory and pid file of their own (`dir` and `pidfile` hold different paths, so they are not
// compared). kvserver's own directives (port-file, enable-fault-injection) are hidden: CONFIG GET *
// lists exactly Redis's names. Other exclusions, each for a reason:
//  - client-output-buffer-limit, unless the file sets the normal class: kvserver's default gives
//    normal clients a 1 GB hard limit, Redis's none (README, "Configuration").

#include <hiredis/hiredis.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "server/config.h"
#include "server/config_missing_features.h"
#include "tests/support/resp_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

using Settings = std::map<std::string, std::string>;

Settings ConfigGetAll(const ServerProcess& server) {
  Settings out;
  auto c = server.Connect();
  if (!c) return out;
  Reply r(static_cast<redisReply*>(redisCommand(c.get(), "CONFIG GET *")));
  EXPECT_TRUE(r && r->type == REDIS_REPLY_ARRAY);
  if (!r || r->type != REDIS_REPLY_ARRAY) return out;
  for (size_t i = 0; i + 1 < r->elements; i += 2) {
    out[std::string(r->element[i]->str, r->element[i]->len)] =
        std::string(r->element[i + 1]->str, r->element[i + 1]->len);
  }
  return out;
}

struct Servers {
  std::unique_ptr<ServerProcess> kv, redis;
};

// Both servers from `config_file` with the test's overrides, then `extra` options.
Servers Start(const std::string& config_file, const std::vector<std::string>& extra) {
  const std::string kv_dir = MakeTempDir();
  std::vector<std::string> kv_args = {"--save",    "",
                                      "--dir",     kv_dir,
                                      "--pidfile", kv_dir + "/kv.pid",
                                      "--port",    std::to_string(PickFreePort())};
  kv_args.insert(kv_args.end(), extra.begin(), extra.end());
  Servers s;
  s.kv = ServerProcess::StartKvserverWithConfig(config_file, kv_args);
  std::vector<std::string> redis_args = {"--pidfile", MakeTempDir() + "/redis.pid"};
  redis_args.insert(redis_args.end(), extra.begin(), extra.end());
  s.redis = ServerProcess::StartRedisWithConfig(config_file, redis_args);
  return s;
}

// Compares every name of both CONFIG GET * replies; returns the differences, one per line.
std::string Differences(const Settings& kv, const Settings& redis,
                        const std::set<std::string>& excluded) {
  std::string out;
  for (const auto& [name, value] : redis) {
    if (excluded.count(name) != 0) continue;
    auto it = kv.find(name);
    if (it == kv.end()) {
      out += "kvserver lacks " + name + " (redis: '" + value + "')\n";
    } else if (it->second != value) {
      out += name + ": kvserver '" + it->second + "', redis '" + value + "'\n";
    }
  }
  for (const auto& [name, value] : kv) {
    if (excluded.count(name) == 0 && redis.count(name) == 0) {
      out += "redis lacks " + name + "\n";
    }
  }
  return out;
}

const std::set<std::string> kAlwaysExcluded = {"port", "dir", "pidfile"};

void ExpectSameConfig(const std::string& config_file, const std::vector<std::string>& extra,
                      std::set<std::string> excluded = {}) {
  Servers s = Start(config_file, extra);
  ASSERT_TRUE(s.kv && s.redis);
  const Settings kv = ConfigGetAll(*s.kv);
  const Settings redis = ConfigGetAll(*s.redis);
  EXPECT_GT(redis.size(), 190u);
  excluded.insert(kAlwaysExcluded.begin(), kAlwaysExcluded.end());
  EXPECT_EQ(Differences(kv, redis, excluded), "") << config_file;
}

std::string Fixture(const std::string& name) {
  return std::string(KV_TEST_FIXTURES_DIR) + "/redis-7.0.15/" + name;
}

// Debian's file daemonizes and logs to /var/log/redis: both servers stay in the foreground and
// log to their standard output here.
const std::vector<std::string> kForeground = {"--daemonize", "no", "--logfile", ""};

TEST(ConfigGetDifferentialTest, DebianRedisConf) {
  ASSERT_TRUE(std::filesystem::exists("/etc/redis/redis.conf"))
      << "Debian's redis-server package (scripts/setup.sh installs it)";
  ExpectSameConfig("/etc/redis/redis.conf", kForeground);
}

TEST(ConfigGetDifferentialTest, RedisSampleConf) {
  ExpectSameConfig(Fixture("redis.conf"), kForeground);
}

TEST(ConfigGetDifferentialTest, TestSuiteDefaultConf) {
  // The two lines that ask for features kvserver lacks are overridden, as the suite's runner
  // does (tests/redis-suite/run.sh).
  ExpectSameConfig(Fixture("default.conf"), {"--notify-keyspace-events", ""},
                   {"client-output-buffer-limit"});
}

TEST(ConfigGetDifferentialTest, TestSuiteMinimalConf) {
  ExpectSameConfig(Fixture("minimal.conf"), {}, {"client-output-buffer-limit"});
}

// Many directives away from their defaults, with values both servers accept.
TEST(ConfigGetDifferentialTest, NonDefaultValues) {
  const std::string dir = MakeTempDir();
  const std::string path = dir + "/nondefault.conf";
  std::ofstream(path) <<
      R"(# every type of directive, away from its default
rdbchecksum no
rdbcompression no
rdb-del-sync-files yes
activerehashing no
stop-writes-on-bgsave-error no
set-proc-title no
dynamic-hz no
lazyfree-lazy-eviction yes
lazyfree-lazy-expire yes
lazyfree-lazy-server-del yes
lazyfree-lazy-user-del yes
lazyfree-lazy-user-flush yes
repl-disable-tcp-nodelay yes
repl-diskless-sync no
aof-rewrite-incremental-fsync no
no-appendfsync-on-rewrite yes
cluster-require-full-coverage no
rdb-save-incremental-fsync no
aof-load-truncated no
aof-use-rdb-preamble no
aof-timestamp-enabled yes
cluster-slave-no-failover yes
slave-lazy-flush yes
replica-serve-stale-data no
slave-read-only no
replica-ignore-maxmemory no
jemalloc-bg-thread no
cluster-allow-reads-when-down yes
cluster-allow-pubsubshard-when-down no
crash-log-enabled no
crash-memcheck-enabled no
disable-thp no
cluster-allow-replica-migration no
replica-announced no
latency-tracking no
aof-disable-auto-gc yes
replica-ignore-disk-write-errors yes
protected-mode no
always-show-logo yes
syslog-ident kv-test
syslog-facility local3
replica-announce-ip 10.1.2.3
masteruser somebody
cluster-announce-ip 10.1.2.4
cluster-config-file my-nodes.conf
cluster-announce-hostname node-1.example
dbfilename other.rdb
appendfilename other.aof
appenddirname otherdir
ignore-warnings ARM64-COW-BUG
proc-title-template "{title} on {port} {config-file}"
bind-source-addr 127.0.0.1
masterauth "pass word"
repl-diskless-load swapdb
loglevel verbose
maxmemory-policy allkeys-lfu
appendfsync always
oom-score-adj-values 1 300 900
acl-pubsub-default allchannels
sanitize-dump-payload clients
enable-protected-configs local
enable-debug-command yes
enable-module-command local
cluster-preferred-endpoint-type hostname
propagation-error-behavior panic-on-replicas
shutdown-on-sigint nosave now
shutdown-on-sigterm force
databases 4
auto-aof-rewrite-percentage 50
cluster-slave-validity-factor 3
list-max-ziplist-size 100
tcp-keepalive 60
cluster-migration-barrier 2
active-defrag-cycle-min 5
active-defrag-cycle-max 50
active-defrag-threshold-lower 20
active-defrag-threshold-upper 200
lfu-log-factor 20
lfu-decay-time 5
slave-priority 7
repl-diskless-sync-delay 0
maxmemory-samples 9
maxmemory-eviction-tenacity 30
timeout 100
slave-announce-port 7000
tcp-backlog 128
cluster-port 17000
cluster-announce-bus-port 17001
cluster-announce-port 7001
cluster-announce-tls-port 7002
repl-timeout 30
repl-ping-slave-period 5
list-compress-depth 2
active-expire-effort 7
hz 2000
min-slaves-max-lag 5
shutdown-timeout 3
repl-diskless-sync-max-replicas 2
maxclients 500
unixsocketperm 0700
active-defrag-max-scan-fields 500
slowlog-max-len 64
acllog-max-len 64
lua-time-limit 100
cluster-node-timeout 5000
slowlog-log-slower-than -1
latency-monitor-threshold 100
proto-max-bulk-len 1gb
stream-node-max-entries 50
repl-backlog-size 2mb
maxmemory 3G
cluster-link-sendbuf-limit 1k
hash-max-ziplist-entries 64
set-max-intset-entries 64
zset-max-ziplist-entries 64
active-defrag-ignore-bytes 200mb
hash-max-ziplist-value 32
stream-node-max-bytes 8kb
zset-max-ziplist-value 32
hll-sparse-max-bytes 5000
tracking-table-max-keys 100
client-query-buffer-limit 2mb
repl-backlog-ttl 60
auto-aof-rewrite-min-size 32mb
tls-session-cache-size 100
tls-session-cache-timeout 60
tls-auth-clients optional
tls-prefer-server-ciphers yes
tls-session-caching no
tls-cert-file /nonexistent/cert.pem
tls-protocols "TLSv1.2 TLSv1.3"
client-output-buffer-limit normal 10mb 5mb 30 replica 100mb 50mb 30 pubsub 1mb 500kb 10
notify-keyspace-events A
latency-tracking-info-percentiles 10 90.5 99.999
list-max-ziplist-entries 10
lua-replicate-commands yes
sentinel
)";
  ExpectSameConfig(path, {"--unixsocket", dir + "/kv-or-redis.sock"}, {"unixsocket"});
}

// ---- CONFIG SET of every directive, probe values, replies compared ----

class ConfigSetDifferentialTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    kv_ = ServerProcess::StartKvserver().release();
    redis_ = ServerProcess::StartRedis().release();
  }
  static void TearDownTestSuite() {
    delete kv_;
    delete redis_;
  }
  static inline ServerProcess* kv_ = nullptr;
  static inline ServerProcess* redis_ = nullptr;
};

// What CONFIG SET may not be probed with here, and why.
const std::set<std::string> kNotProbed = {
    "port",
    "bind",  // rebinding the servers' listeners
    "save",
    "appendonly",         // Redis would write snapshots or an AOF
    "requirepass",        // new connections of the test would need the password
    "timeout",            // Redis would close the test's idle connection
    "maxmemory-clients",  // Redis would evict the test's connection
    // Redis's apply step loads TLS certificates for these (there are none here) and fails.
    "tls-cluster",
    "tls-replication",
};

TEST_F(ConfigSetDifferentialTest, EveryDirectiveWithProbeValues) {
  ASSERT_TRUE(kv_ && redis_);
  // kvserver's default differs for normal clients (README): start from Redis's.
  {
    auto c = kv_->Connect();
    Reply r(static_cast<redisReply*>(
        redisCommand(c.get(), "CONFIG SET client-output-buffer-limit %s", "normal 0 0 0")));
    ASSERT_TRUE(r && r->type == REDIS_REPLY_STATUS);
  }
  const Settings kv_before = ConfigGetAll(*kv_);
  const Settings redis_before = ConfigGetAll(*redis_);
  auto kv = RawConnection::Connect(kv_->port());
  auto redis = RawConnection::Connect(redis_->port());
  ASSERT_TRUE(kv && redis);
  auto both = [&](const std::vector<std::string>& args) {
    const std::string request = EncodeCommand(args);
    kv->Send(request);
    redis->Send(request);
    return std::make_pair(kv->ReadReply().value_or("<none>"),
                          redis->ReadReply().value_or("<none>"));
  };
  const std::vector<std::string> probes = {
      "",        "yes",      "no",         "0",     "1",   "-1",
      "100",     "abc",      "1kb",        "1gb",   "50%", "99999999999999999999",
      "local",   "everysec", "nosave now", "1 2 3", "Ag$", "0777",
      "{title}", "a/b"};
  size_t compared = 0, refused_for_missing_feature = 0;
  for (const auto& [name, original] : redis_before) {
    if (kNotProbed.count(name) != 0) continue;
    for (const std::string& value : probes) {
      const auto [kv_reply, redis_reply] = both({"CONFIG", "SET", name, value});
      ++compared;
      if (kv_reply != redis_reply) {
        // The only difference allowed: kvserver refuses a value that needs a feature it lacks.
        const Directive* d = FindDirective(name);
        ASSERT_NE(d, nullptr) << name;
        EXPECT_EQ(kv_reply, "-ERR CONFIG SET failed (possibly related to argument '" + name +
                                "') - " + MissingFeatureError(d->primary()) + "\r\n")
            << "CONFIG SET " << name << " '" << value << "': redis replied " << redis_reply;
        ++refused_for_missing_feature;
        continue;
      }
      if (kv_reply != "+OK\r\n") continue;
      const auto [kv_get, redis_get] = both({"CONFIG", "GET", name});
      EXPECT_EQ(kv_get, redis_get) << "after CONFIG SET " << name << " '" << value << "'";
      // Back to where each server was.
      kv->Send(EncodeCommand({"CONFIG", "SET", name, kv_before.at(name)}));
      redis->Send(EncodeCommand({"CONFIG", "SET", name, original}));
      EXPECT_EQ(kv->ReadReply(), "+OK\r\n") << name;
      EXPECT_EQ(redis->ReadReply(), "+OK\r\n") << name;
    }
  }
  EXPECT_GT(compared, 3000u);
  EXPECT_GT(refused_for_missing_feature, 0u);
  EXPECT_LT(refused_for_missing_feature, 40u);
}

TEST_F(ConfigSetDifferentialTest, ErrorsNameTheFirstProblem) {
  ASSERT_TRUE(kv_ && redis_);
  auto kv = RawConnection::Connect(kv_->port());
  auto redis = RawConnection::Connect(redis_->port());
  ASSERT_TRUE(kv && redis);
  const std::vector<std::vector<std::string>> commands = {
      {"CONFIG", "SET", "maxmemory", "10000001", "maxmemory-clients", "200%",
       "client-query-buffer-limit", "invalid"},
      {"CONFIG", "SET", "maxmemory", "10000001", "maxmemory", "10000002"},
      {"CONFIG", "SET", "daemonize", "yes"},
      {"CONFIG", "SET", "slaveof", "no one"},
      {"CONFIG", "SET", "slave-read-only", "maybe"},
      {"CONFIG", "SET", "dir", "/tmp"},
      {"CONFIG", "SET", "dbfilename", "x.rdb"},
      {"CONFIG", "SET", "hash-max-ziplist-entries", "10", "hash-max-listpack-entries", "20"},
      {"CONFIG", "SET", "nosuch", "1", "daemonize", "yes"},
      {"CONFIG", "GET", "maxmemory", "maxmemory*", "bind", "*of"},
      {"CONFIG", "GET", "key-load-delay"},
      {"CONFIG", "SET", "hash-max-ziplist-entries", "512"},
  };
  for (const auto& args : commands) {
    kv->Send(EncodeCommand(args));
    redis->Send(EncodeCommand(args));
    auto expected = redis->ReadReply();
    auto got = kv->ReadReply();
    ASSERT_TRUE(expected && got);
    if (args[1] == "GET") {
      // Redis lists matches in its hash table's order: compare them as sets of lines.
      auto lines = [](const std::string& text) {
        std::multiset<std::string> out;
        size_t start = 0;
        while (start < text.size()) {
          const size_t end = text.find("\r\n", start);
          out.insert(text.substr(start, end - start));
          start = end + 2;
        }
        return out;
      };
      EXPECT_EQ(lines(*got), lines(*expected)) << EncodeCommand(args);
    } else {
      EXPECT_EQ(*got, *expected) << EncodeCommand(args);
    }
  }
}

}  // namespace
}  // namespace kv::test
