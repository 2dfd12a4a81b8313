// Configuration: redis.conf text (ApplyConfigText), files (LoadConfigFile), the command line
// (ParseCommandLine) and memory values (ParseMemory), with Redis 7.0.15's rules and messages.

#include "server/config.h"

#include <unistd.h>

#include <climits>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace kv {
namespace {

// The error ApplyConfigText reports for `line` (as echoed) at `line_no` of `source`.
std::string ConfigError(std::string_view source, int line_no, std::string_view line,
                        std::string_view why) {
  return "\n*** FATAL CONFIG FILE ERROR ***\nReading the configuration from " +
         std::string(source) + ", at line " + std::to_string(line_no) + "\n>>> '" +
         std::string(line) + "'\n" + std::string(why) + "\n";
}

std::optional<std::string> Apply(std::string_view text, Config* config) {
  return ApplyConfigText(text, "test.conf", config);
}

CommandLine Parse(std::vector<std::string> args) {
  args.insert(args.begin(), "kvserver");
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  return ParseCommandLine(static_cast<int>(argv.size()), argv.data());
}

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
  EXPECT_EQ(ParseMemory("2M"), 2'000'000);
  EXPECT_EQ(ParseMemory("2mb"), 2 * 1024 * 1024);
  EXPECT_EQ(ParseMemory("2Mb"), 2 * 1024 * 1024);
  EXPECT_EQ(ParseMemory("3g"), 3'000'000'000);
  EXPECT_EQ(ParseMemory("3G"), 3'000'000'000);
  EXPECT_EQ(ParseMemory("3gb"), 3LL * 1024 * 1024 * 1024);
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

// ---- ApplyConfigText: every directive ----

TEST(ConfigTextTest, Defaults) {
  const Config c;
  EXPECT_EQ(c.port, 6379);
  EXPECT_EQ(c.bind, (std::vector<std::string>{"127.0.0.1", "-::1"}));
  EXPECT_EQ(c.tcp_backlog, 511);
  EXPECT_EQ(c.tcp_keepalive, 300);
  EXPECT_EQ(c.loglevel, "notice");
  EXPECT_EQ(c.databases, 16);
  EXPECT_EQ(c.maxclients, 10000);
  EXPECT_EQ(c.timeout, 0);
  EXPECT_EQ(c.hz, 10);
  EXPECT_EQ(c.proto_max_bulk_len, 512LL * 1024 * 1024);
  EXPECT_EQ(c.client_query_buffer_limit, 1024LL * 1024 * 1024);
  EXPECT_EQ(c.save, "");
  EXPECT_FALSE(c.appendonly);
  EXPECT_FALSE(c.daemonize);
}

TEST(ConfigTextTest, EveryDirective) {
  const std::string cwd = std::filesystem::current_path().string();
  Config c;
  const std::string text =
      "port 7000\n"
      "bind 10.0.0.1 ::1\n"
      "unixsocket /tmp/kv.sock\n"
      "unixsocketperm 700\n"
      "tcp-backlog 128\n"
      "tcp-keepalive 60\n"
      "loglevel warning\n"
      "logfile /tmp/kv.log\n"
      "databases 4\n"
      "maxclients 50\n"
      "timeout 30\n"
      "hz 20\n"
      "proto-max-bulk-len 2mb\n"
      "client-query-buffer-limit 4MB\n"
      "client-output-buffer-limit normal 1mb 1kb 5\n"
      "requirepass pw\n"
      "protected-mode no\n"
      "save \"\"\n"
      "appendonly no\n"
      "dir " +
      cwd +
      "\n"
      "daemonize no\n"
      "pidfile /tmp/kv.pid\n"
      "port-file /tmp/kv.port\n"
      "enable-fault-injection yes\n"
      "enable-debug-command local\n"
      "slowlog-log-slower-than -1\n"
      "slowlog-max-len 5\n"
      "latency-monitor-threshold 100\n"
      "maxmemory 100mb\n"
      "maxmemory-policy Volatile-TTL\n"
      "maxmemory-samples 10\n"
      "maxmemory-eviction-tenacity 20\n"
      "lfu-log-factor 5\n"
      "lfu-decay-time 0\n"
      "list-max-listpack-size 10\n"
      "list-max-ziplist-size -3\n"
      "list-compress-depth 2\n"
      "hash-max-listpack-entries 100\n"
      "hash-max-ziplist-entries 128\n"
      "hash-max-listpack-value 1kb\n"
      "hash-max-ziplist-value 32\n"
      "set-max-intset-entries 7\n"
      "zset-max-listpack-entries 10\n"
      "zset-max-ziplist-entries 20\n"
      "zset-max-listpack-value 1k\n"
      "zset-max-ziplist-value 30\n"
      "lazyfree-lazy-eviction yes\n"
      "lazyfree-lazy-expire yes\n"
      "lazyfree-lazy-server-del yes\n"
      "lazyfree-lazy-user-del yes\n"
      "lazyfree-lazy-user-flush yes\n";
  ASSERT_EQ(Apply(text, &c), std::nullopt);
  EXPECT_EQ(c.port, 7000);
  EXPECT_EQ(c.bind, (std::vector<std::string>{"10.0.0.1", "::1"}));
  EXPECT_EQ(c.unixsocket, "/tmp/kv.sock");
  EXPECT_EQ(c.unixsocketperm, 0700);
  EXPECT_EQ(c.tcp_backlog, 128);
  EXPECT_EQ(c.tcp_keepalive, 60);
  EXPECT_EQ(c.loglevel, "warning");
  EXPECT_EQ(c.logfile, "/tmp/kv.log");
  EXPECT_EQ(c.databases, 4);
  EXPECT_EQ(c.maxclients, 50);
  EXPECT_EQ(c.timeout, 30);
  EXPECT_EQ(c.hz, 20);
  EXPECT_EQ(c.proto_max_bulk_len, 2 * 1024 * 1024);
  EXPECT_EQ(c.client_query_buffer_limit, 4 * 1024 * 1024);
  EXPECT_EQ(c.client_output_buffer_limit[0].hard, 1024u * 1024);
  EXPECT_EQ(c.client_output_buffer_limit[0].soft, 1024u);
  EXPECT_EQ(c.client_output_buffer_limit[0].soft_seconds, 5);
  EXPECT_EQ(c.requirepass, "pw");
  EXPECT_FALSE(c.protected_mode);
  EXPECT_EQ(c.save, "");
  EXPECT_FALSE(c.appendonly);
  EXPECT_EQ(c.dir, cwd);
  EXPECT_FALSE(c.daemonize);
  EXPECT_EQ(c.pidfile, "/tmp/kv.pid");
  EXPECT_EQ(c.port_file, "/tmp/kv.port");
  EXPECT_TRUE(c.enable_fault_injection);
  EXPECT_EQ(c.enable_debug_command, "local");
  EXPECT_EQ(c.slowlog_log_slower_than, -1);
  EXPECT_EQ(c.slowlog_max_len, 5);
  EXPECT_EQ(c.latency_monitor_threshold, 100);
  EXPECT_EQ(c.maxmemory, 100u * 1024 * 1024);
  EXPECT_EQ(c.maxmemory_policy, MaxmemoryPolicy::kVolatileTtl);
  EXPECT_EQ(c.maxmemory_samples, 10);
  EXPECT_EQ(c.maxmemory_eviction_tenacity, 20);
  EXPECT_EQ(c.lfu_log_factor, 5);
  EXPECT_EQ(c.lfu_decay_time, 0);
  // Each `ziplist` alias sets the same field as its `listpack` name (the later line wins).
  EXPECT_EQ(c.list_max_listpack_size, -3);
  EXPECT_EQ(c.list_compress_depth, 2);
  EXPECT_EQ(c.hash_max_listpack_entries, 128);
  EXPECT_EQ(c.hash_max_listpack_value, 32);
  EXPECT_EQ(c.set_max_intset_entries, 7);
  EXPECT_EQ(c.zset_max_listpack_entries, 20);
  EXPECT_EQ(c.zset_max_listpack_value, 30);
  EXPECT_TRUE(c.lazyfree_lazy_eviction && c.lazyfree_lazy_expire && c.lazyfree_lazy_server_del &&
              c.lazyfree_lazy_user_del && c.lazyfree_lazy_user_flush);
  // Every directive in the table was exercised above.
  EXPECT_EQ(Directives().size(), 51u);
}

TEST(ConfigTextTest, DirectiveGettersRenderValues) {
  Config c;
  ASSERT_EQ(Apply("unixsocketperm 0755\nbind 1.2.3.4 5.6.7.8\nappendonly NO\n", &c), std::nullopt);
  EXPECT_EQ(FindDirective("unixsocketperm")->get(c), "755");
  EXPECT_EQ(FindDirective("bind")->get(c), "1.2.3.4 5.6.7.8");
  EXPECT_EQ(FindDirective("appendonly")->get(c), "no");
  EXPECT_EQ(FindDirective("daemonize")->get(c), "no");
  EXPECT_EQ(FindDirective("PORT")->get(c), "6379");
  EXPECT_EQ(FindDirective("nosuch"), nullptr);
  EXPECT_TRUE(FindDirective("dir")->protected_at_runtime);
  EXPECT_FALSE(FindDirective("port")->mutable_at_runtime);
  EXPECT_TRUE(FindDirective("timeout")->mutable_at_runtime);
}

TEST(ConfigTextTest, CommentsBlanksAndCase) {
  Config c;
  ASSERT_EQ(Apply("# a comment\n\n   \n\t port 7001 \r\n# port 1\nPORT 7002\nTimeOut 5\n", &c),
            std::nullopt);
  EXPECT_EQ(c.port, 7002) << "a later line wins";
  EXPECT_EQ(c.timeout, 5);
  ASSERT_EQ(Apply("", &c), std::nullopt);
  ASSERT_EQ(Apply("port 7003", &c), std::nullopt) << "no final newline";
  EXPECT_EQ(c.port, 7003);
}

TEST(ConfigTextTest, QuotedValues) {
  Config c;
  ASSERT_EQ(Apply("logfile \"/tmp/a b.log\"\npidfile '/tmp/c d.pid'\n", &c), std::nullopt);
  EXPECT_EQ(c.logfile, "/tmp/a b.log");
  EXPECT_EQ(c.pidfile, "/tmp/c d.pid");
}

TEST(ConfigTextTest, QuoteEscapes) {
  Config c;
  ASSERT_EQ(Apply("logfile \"a\\tb\\x41\\\"c\"\npidfile 'it\\'s'\nunixsocket \"\"\n", &c),
            std::nullopt);
  EXPECT_EQ(c.logfile, "a\tbA\"c");
  EXPECT_EQ(c.pidfile, "it's");
  EXPECT_EQ(c.unixsocket, "");
}

TEST(ConfigTextTest, UnbalancedQuotes) {
  Config c;
  EXPECT_EQ(
      Apply("port 1\nlogfile \"abc\n", &c),
      ConfigError("test.conf", 2, "logfile \"abc", "Unbalanced quotes in configuration line"));
  EXPECT_EQ(Apply("logfile \"a\"b\n", &c), ConfigError("test.conf", 1, "logfile \"a\"b",
                                                       "Unbalanced quotes in configuration line"));
}

TEST(ConfigTextTest, UnknownDirective) {
  Config c;
  EXPECT_EQ(Apply("port 1\n\nnosuch 1\nport 2\n", &c),
            ConfigError("test.conf", 3, "nosuch 1", "Bad directive or wrong number of arguments"));
  EXPECT_EQ(c.port, 1) << "loading stops at the first error";
}

TEST(ConfigTextTest, WrongNumberOfArguments) {
  Config c;
  EXPECT_EQ(Apply("port\n", &c), ConfigError("test.conf", 1, "port", "wrong number of arguments"));
  EXPECT_EQ(Apply("port 1 2\n", &c),
            ConfigError("test.conf", 1, "port 1 2", "wrong number of arguments"));
  EXPECT_EQ(Apply("loglevel notice warning\n", &c),
            ConfigError("test.conf", 1, "loglevel notice warning", "wrong number of arguments"));
}

TEST(ConfigTextTest, BadValuesNameTheDirectiveAndLine) {
  struct Case {
    const char* line;
    const char* why;
  };
  const Case cases[] = {
      {"port abc", "port: argument couldn't be parsed into an integer"},
      {"port 70000", "port: argument must be between 0 and 65535 inclusive"},
      {"port -1", "port: argument must be between 0 and 65535 inclusive"},
      {"tcp-backlog -1", "tcp-backlog: argument must be between 0 and 2147483647 inclusive"},
      {"tcp-keepalive x", "tcp-keepalive: argument couldn't be parsed into an integer"},
      {"databases 0", "databases: argument must be between 1 and 2147483647 inclusive"},
      {"maxclients 0", "maxclients: argument must be between 1 and 4294967295 inclusive"},
      {"timeout 1.5", "timeout: argument couldn't be parsed into an integer"},
      {"hz -1", "hz: argument must be between 0 and 2147483647 inclusive"},
      {"loglevel loud",
       "loglevel: argument(s) must be one of the following: debug, verbose, notice, warning"},
      {"enable-debug-command maybe",
       "enable-debug-command: argument(s) must be one of the following: no, yes, local"},
      {"proto-max-bulk-len 1kb",
       "proto-max-bulk-len: argument must be between 1048576 and 9223372036854775807 inclusive"},
      {"proto-max-bulk-len 1tb", "proto-max-bulk-len: argument must be a memory value"},
      {"client-query-buffer-limit -5",
       "client-query-buffer-limit: argument must be a memory value"},
      {"unixsocketperm 999", "unixsocketperm: argument couldn't be parsed as an octal number"},
      {"unixsocketperm abc", "unixsocketperm: argument couldn't be parsed as an octal number"},
      {"unixsocketperm 1000", "unixsocketperm: argument must be between 0 and 777 inclusive"},
      {"appendonly maybe", "appendonly: argument must be 'yes' or 'no'"},
      {"daemonize maybe", "daemonize: argument must be 'yes' or 'no'"},
      {"save 10", "save: Invalid save parameters"},
      {"save 0 1", "save: Invalid save parameters"},
      {"save 10 -1", "save: Invalid save parameters"},
      {"dir /nonexistent/kvserver", "dir: No such file or directory"},
      // kvserver's own limits: no persistence, no daemon mode.
      {"save 3600 1", "save: kvserver keeps no data on disk: only save \"\" is supported"},
      {"appendonly yes", "appendonly: kvserver keeps no data on disk: appendonly must be no"},
      {"daemonize yes", "daemonize: kvserver runs in the foreground: daemonize must be no"},
  };
  for (const Case& c : cases) {
    Config config;
    EXPECT_EQ(Apply(std::string("# first\n") + c.line + "\n", &config),
              ConfigError("test.conf", 2, c.line, c.why));
  }
}

TEST(ConfigTextTest, HzIsClamped) {
  Config c;
  ASSERT_EQ(Apply("hz 1000\n", &c), std::nullopt);
  EXPECT_EQ(c.hz, 500);
  ASSERT_EQ(Apply("hz 0\n", &c), std::nullopt);
  EXPECT_EQ(c.hz, 1);
}

TEST(ConfigTextTest, OctalPermissions) {
  Config c;
  ASSERT_EQ(Apply("unixsocketperm 777\n", &c), std::nullopt);
  EXPECT_EQ(c.unixsocketperm, 0777);
  ASSERT_EQ(Apply("unixsocketperm 0\n", &c), std::nullopt);
  EXPECT_EQ(c.unixsocketperm, 0);
  ASSERT_EQ(Apply("unixsocketperm 0700\n", &c), std::nullopt);
  EXPECT_EQ(c.unixsocketperm, 0700);
}

TEST(ConfigTextTest, BindTakesSeveralAddresses) {
  Config c;
  ASSERT_EQ(Apply("bind 127.0.0.1 ::1\n", &c), std::nullopt);
  EXPECT_EQ(c.bind, (std::vector<std::string>{"127.0.0.1", "::1"}));
  // One quoted word is split, as Redis splits a multi-argument directive given one argument.
  ASSERT_EQ(Apply("bind \"10.0.0.1 10.0.0.2 -::1\"\n", &c), std::nullopt);
  EXPECT_EQ(c.bind, (std::vector<std::string>{"10.0.0.1", "10.0.0.2", "-::1"}));
  ASSERT_EQ(Apply("bind \"\"\n", &c), std::nullopt);
  EXPECT_TRUE(c.bind.empty());
  ASSERT_EQ(Apply("bind\n", &c), std::nullopt);
  EXPECT_TRUE(c.bind.empty());
  std::string many = "bind";
  for (int i = 0; i < 17; ++i) many += " 10.0.0." + std::to_string(i);
  EXPECT_EQ(Apply(many, &c),
            ConfigError("test.conf", 1, many, "bind: Too many bind addresses specified."));
}

TEST(ConfigTextTest, EmptySave) {
  Config c;
  ASSERT_EQ(Apply("save \"\"\n", &c), std::nullopt);
  ASSERT_EQ(Apply("save ''\n", &c), std::nullopt);
  ASSERT_EQ(Apply("save\n", &c), std::nullopt);
  EXPECT_EQ(c.save, "");
}

// ---- LoadConfigFile ----

class ConfigFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("kv-config-test-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }
  std::filesystem::path dir_;
};

TEST_F(ConfigFileTest, LoadsAFile) {
  const std::string path = Write("kv.conf", "# kvserver\nport 7010\ntimeout 9\n");
  Config c;
  ASSERT_EQ(LoadConfigFile(path, &c), std::nullopt);
  EXPECT_EQ(c.port, 7010);
  EXPECT_EQ(c.timeout, 9);
  EXPECT_EQ(c.config_file, path);
}

TEST_F(ConfigFileTest, ErrorsNameTheFileAndLine) {
  const std::string path = Write("bad.conf", "port 7010\n\nmaxclients lots\n");
  Config c;
  EXPECT_EQ(LoadConfigFile(path, &c),
            ConfigError(path, 3, "maxclients lots",
                        "maxclients: argument couldn't be parsed into an integer"));
}

TEST_F(ConfigFileTest, MissingFile) {
  Config c;
  const std::string path = (dir_ / "missing.conf").string();
  EXPECT_EQ(LoadConfigFile(path, &c),
            "Fatal error, can't open config file '" + path + "': No such file or directory");
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
  const CommandLine cl = Parse({"--port", "7020", "--timeout", "3", "--loglevel", "debug"});
  ASSERT_EQ(cl.action, CommandLine::Action::kRun) << cl.error;
  EXPECT_EQ(cl.config.port, 7020);
  EXPECT_EQ(cl.config.timeout, 3);
  EXPECT_EQ(cl.config.loglevel, "debug");
}

TEST(CommandLineTest, OptionNamesAreCaseInsensitive) {
  const CommandLine cl = Parse({"--PORT", "7021", "--MaxClients", "7"});
  ASSERT_EQ(cl.action, CommandLine::Action::kRun) << cl.error;
  EXPECT_EQ(cl.config.port, 7021);
  EXPECT_EQ(cl.config.maxclients, 7);
}

TEST(CommandLineTest, EmptySave) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--save", ""},
                                             {"--save"},
                                             {"--save", "--port", "7022"},
                                             {"--port", "7022", "--save"}}) {
    const CommandLine cl = Parse(args);
    EXPECT_EQ(cl.action, CommandLine::Action::kRun) << ::testing::PrintToString(args) << cl.error;
    EXPECT_EQ(cl.config.save, "");
  }
  EXPECT_EQ(Parse({"--save", "--port", "7022"}).config.port, 7022);
  EXPECT_EQ(Parse({"--save", "--port", "abc"}).error,
            ConfigError("the command line", 2, "port \"abc\"",
                        "port: argument couldn't be parsed into an integer"));
}

TEST(CommandLineTest, BindSeveralAddresses) {
  CommandLine cl = Parse({"--bind", "127.0.0.1", "::1"});
  ASSERT_EQ(cl.action, CommandLine::Action::kRun) << cl.error;
  EXPECT_EQ(cl.config.bind, (std::vector<std::string>{"127.0.0.1", "::1"}));
  cl = Parse({"--bind", "127.0.0.1 -::1", "--port", "7023"});
  ASSERT_EQ(cl.action, CommandLine::Action::kRun) << cl.error;
  EXPECT_EQ(cl.config.bind, (std::vector<std::string>{"127.0.0.1", "-::1"}));
  EXPECT_EQ(cl.config.port, 7023);
}

TEST(CommandLineTest, ValuesAreQuotedExactly) {
  // Blanks, quotes, backslashes and control characters survive the trip through config text.
  const std::string odd = "/tmp/a b\"c\\d\ne\tf\x01.log";
  const CommandLine cl = Parse({"--logfile", odd, "--pidfile", ""});
  ASSERT_EQ(cl.action, CommandLine::Action::kRun) << cl.error;
  EXPECT_EQ(cl.config.logfile, odd);
  EXPECT_EQ(cl.config.pidfile, "");
}

TEST(CommandLineTest, OptionAndValueInOneArgument) {
  const CommandLine cl = Parse({"--port 7024", "--timeout", "4"});
  ASSERT_EQ(cl.action, CommandLine::Action::kRun) << cl.error;
  EXPECT_EQ(cl.config.port, 7024);
  EXPECT_EQ(cl.config.timeout, 4);
}

TEST(CommandLineTest, ValueThatLooksLikeAnOption) {
  // Right after a bare option name, a word starting with "--" is its value, as in Redis.
  const CommandLine cl = Parse({"--loglevel", "--port"});
  EXPECT_EQ(cl.action, CommandLine::Action::kError);
  EXPECT_EQ(cl.error,
            ConfigError("the command line", 1, "loglevel \"--port\"",
                        "loglevel: argument(s) must be one of the following: debug, verbose, "
                        "notice, warning"));
}

TEST(CommandLineTest, Errors) {
  EXPECT_EQ(Parse({"--port", "abc"}).error,
            ConfigError("the command line", 1, "port \"abc\"",
                        "port: argument couldn't be parsed into an integer"));
  EXPECT_EQ(Parse({"--port", "1", "2"}).error,
            ConfigError("the command line", 1, "port \"1\" \"2\"", "wrong number of arguments"));
  EXPECT_EQ(Parse({"--port"}).error,
            ConfigError("the command line", 1, "port", "wrong number of arguments"));
  EXPECT_EQ(Parse({"--timeout", "1", "--nosuch", "1"}).error,
            ConfigError("the command line", 2, "nosuch \"1\"",
                        "Bad directive or wrong number of arguments"));
  EXPECT_EQ(Parse({"--appendonly", "yes"}).action, CommandLine::Action::kError);
  // A first argument starting with '-' is not a file; as an option line it is no directive.
  EXPECT_EQ(Parse({"-x"}).error, ConfigError("the command line", 1, "\"-x\"",
                                             "Bad directive or wrong number of arguments"));
}

TEST_F(ConfigFileTest, FileThenOptions) {
  const std::string path = Write("kv.conf", "port 7030\ntimeout 8\n");
  const CommandLine cl = Parse({path, "--port", "7031"});
  ASSERT_EQ(cl.action, CommandLine::Action::kRun) << cl.error;
  EXPECT_EQ(cl.config.port, 7031) << "options come after the file";
  EXPECT_EQ(cl.config.timeout, 8);
  EXPECT_EQ(cl.config.config_file, path);
}

TEST_F(ConfigFileTest, FileErrorsStopTheCommandLine) {
  const std::string path = Write("kv.conf", "port x\n");
  const CommandLine cl = Parse({path, "--port", "7031"});
  EXPECT_EQ(cl.action, CommandLine::Action::kError);
  EXPECT_EQ(cl.error,
            ConfigError(path, 1, "port x", "port: argument couldn't be parsed into an integer"));
  const CommandLine missing = Parse({(dir_ / "nope.conf").string()});
  EXPECT_EQ(missing.action, CommandLine::Action::kError);
  EXPECT_EQ(missing.error, "Fatal error, can't open config file '" + (dir_ / "nope.conf").string() +
                               "': No such file or directory");
}

TEST_F(ConfigFileTest, ValueAfterTheFileWithoutAnOption) {
  const std::string path = Write("kv.conf", "port 7030\n");
  const CommandLine cl = Parse({path, "stray"});
  EXPECT_EQ(cl.action, CommandLine::Action::kError);
  EXPECT_EQ(cl.error, ConfigError("the command line", 1, "\"stray\"",
                                  "Bad directive or wrong number of arguments"));
}

}  // namespace
}  // namespace kv

namespace kv {
namespace {

// ---- client-output-buffer-limit, requirepass, protected-mode ----

TEST(OutputBufferLimitConfigTest, DefaultsAndRedisFormat) {
  Config c;
  const Directive* d = FindDirective("client-output-buffer-limit");
  ASSERT_NE(d, nullptr);
  EXPECT_TRUE(d->mutable_at_runtime);
  EXPECT_EQ(d->get(c),
            "normal 1073741824 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60");
}

TEST(OutputBufferLimitConfigTest, SeveralTripletsInOneLine) {
  Config c;
  ASSERT_EQ(Apply("client-output-buffer-limit normal 1mb 512kb 10 replica 1gb 2g 0 "
                  "PubSub 100 200 3\n",
                  &c),
            std::nullopt);
  EXPECT_EQ(FindDirective("client-output-buffer-limit")->get(c),
            "normal 1048576 524288 10 slave 1073741824 2000000000 0 pubsub 100 200 3");
  const OutputBufferLimit& normal = c.client_output_buffer_limit[0];
  EXPECT_EQ(normal.hard, 1048576u);
  EXPECT_EQ(normal.soft, 524288u);
  EXPECT_EQ(normal.soft_seconds, 10);
  // One quoted value (as CONFIG SET and --client-output-buffer-limit give it) works too, and a
  // later line changes only the classes it names.
  ASSERT_EQ(Apply("client-output-buffer-limit \"slave 0 0 0\"\n", &c), std::nullopt);
  EXPECT_EQ(FindDirective("client-output-buffer-limit")->get(c),
            "normal 1048576 524288 10 slave 0 0 0 pubsub 100 200 3");
}

TEST(OutputBufferLimitConfigTest, RedisErrorsAndNothingAppliedOnError) {
  Config c;
  const Directive* d = FindDirective("client-output-buffer-limit");
  using Args = std::vector<std::string>;
  EXPECT_EQ(d->set(c, Args{"normal", "1", "2"}),
            "Wrong number of arguments in buffer limit configuration.");
  EXPECT_EQ(d->set(c, Args{"master", "1", "2", "3"}),
            "Invalid client class specified in buffer limit configuration.");
  EXPECT_EQ(d->set(c, Args{"nobody", "1", "2", "3"}),
            "Invalid client class specified in buffer limit configuration.");
  for (const Args& bad : {Args{"normal", "x", "1", "1"}, Args{"normal", "1", "-1", "1"},
                          Args{"normal", "1", "1", "-1"}, Args{"normal", "1", "1", "1s"}}) {
    EXPECT_EQ(d->set(c, bad),
              "Error in hard, soft or soft_seconds setting in buffer limit configuration.");
  }
  // A bad second triplet leaves the first unapplied.
  EXPECT_NE(d->set(c, Args{"normal", "1", "1", "1", "pubsub", "1", "1", "x"}), std::nullopt);
  EXPECT_EQ(c.client_output_buffer_limit[0].hard, 1024ULL * 1024 * 1024);
  // No arguments at all change nothing and are no error.
  EXPECT_EQ(d->set(c, Args{}), std::nullopt);
}

TEST(AccessConfigTest, RequirepassAndProtectedMode) {
  Config c;
  EXPECT_EQ(FindDirective("requirepass")->get(c), "");
  EXPECT_EQ(FindDirective("protected-mode")->get(c), "yes");
  ASSERT_EQ(Apply("requirepass \"p w\"\nprotected-mode NO\n", &c), std::nullopt);
  EXPECT_EQ(c.requirepass, "p w");
  EXPECT_FALSE(c.protected_mode);
  EXPECT_EQ(FindDirective("protected-mode")->get(c), "no");
  EXPECT_NE(Apply("protected-mode maybe\n", &c), std::nullopt);
  const CommandLine cl = Parse({"--requirepass", "secret", "--protected-mode", "no"});
  ASSERT_EQ(cl.action, CommandLine::Action::kRun) << cl.error;
  EXPECT_EQ(cl.config.requirepass, "secret");
  EXPECT_FALSE(cl.config.protected_mode);
}

}  // namespace
}  // namespace kv
