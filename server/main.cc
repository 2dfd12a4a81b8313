// kvserver: a Redis-compatible in-memory key-value server.
// Usage: kvserver [config-file] [--directive value ...]

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <boost/asio/signal_set.hpp>
#include <csignal>
#include <cstdio>
#include <iostream>

#include "server/allocator.h"
#include "server/config.h"
#ifdef KV_COUNTING_MALLOC
#include "server/counting_malloc.h"
#endif
#include "server/server.h"
#include "server/version.h"

namespace {

constexpr char kUsage[] =
    "Usage: kvserver [/path/to/kvserver.conf] [options]\n"
    "       kvserver -v or --version\n"
    "       kvserver -h or --help\n"
    "\n"
    "Options are configuration directives given as --name value, for example:\n"
    "       kvserver --port 6380\n"
    "       kvserver /etc/kvserver.conf --loglevel verbose\n"
    "       kvserver --port 7777 --bind 127.0.0.1 ::1 --unixsocket /tmp/kv.sock\n"
    "\n"
    "Every directive is documented in conf/kvserver.conf.\n";

// Redis's level marks: '.' debug, '-' verbose, '*' notice, '#' warning.
class LevelMark final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&,
              spdlog::memory_buf_t& dest) override {
    char mark = '*';
    if (msg.level <= spdlog::level::trace) {
      mark = '.';
    } else if (msg.level == spdlog::level::debug) {
      mark = '-';
    } else if (msg.level >= spdlog::level::warn) {
      mark = '#';
    }
    dest.push_back(mark);
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<LevelMark>();
  }
};

std::shared_ptr<spdlog::logger> MakeLogger(const kv::Config& config) {
  std::shared_ptr<spdlog::logger> logger;
  if (config.logfile.empty()) {
    logger = spdlog::stdout_logger_mt("kvserver");
  } else {
    logger = spdlog::basic_logger_mt("kvserver", config.logfile);
  }
  // Redis's layout: "pid:M 30 Nov 2026 04:07:29.123 * message".
  auto formatter = std::make_unique<spdlog::pattern_formatter>();
  formatter->add_flag<LevelMark>('*').set_pattern("%P:M %d %b %Y %H:%M:%S.%e %* %v");
  logger->set_formatter(std::move(formatter));
  logger->flush_on(spdlog::level::trace);
  return logger;
}

}  // namespace

int main(int argc, char** argv) {
  // SIGPIPE would kill the process when a client vanishes mid-write, or when whoever reads the
  // log on stdout goes away, even during startup.
  std::signal(SIGPIPE, SIG_IGN);
#ifdef KV_COUNTING_MALLOC
  kv::SetAllocatorProbe({kv::CountingMallocName(), &kv::CountedAllocatedBytes});
#endif
  kv::CommandLine cmdline = kv::ParseCommandLine(argc, argv);
  switch (cmdline.action) {
    case kv::CommandLine::Action::kVersion:
      std::printf("kvserver v=%s redis-compat=%s bits=%zu\n", kv::kKvserverVersion,
                  kv::kRedisCompatVersion, sizeof(void*) * 8);
      return 0;
    case kv::CommandLine::Action::kHelp:
      std::fputs(kUsage, stdout);
      return 0;
    case kv::CommandLine::Action::kError:
      std::fprintf(stderr, "%s\n", cmdline.error.c_str());
      return 1;
    case kv::CommandLine::Action::kRun:
      break;
  }

  std::shared_ptr<spdlog::logger> log;
  try {
    log = MakeLogger(cmdline.config);
  } catch (const spdlog::spdlog_ex& e) {
    std::fprintf(stderr, "Can't open the log file: %s\n", e.what());
    return 1;
  }
  // The server applies the configured log level to the logger.
  kv::Server server(cmdline.config, log);
  log->info("kvserver is starting");
  log->info("kvserver version={}, redis-compat={}, bits={}, pid={}", kv::kKvserverVersion,
            kv::kRedisCompatVersion, sizeof(void*) * 8, getpid());
  if (cmdline.config.config_file.empty()) {
    log->info("No config file specified, using the default config");
  } else {
    log->info("Configuration loaded from {}", cmdline.config.config_file);
  }

  // Signals are caught before the server says it is ready: whoever waits for the readiness line
  // may stop it right away, and must get a clean exit.
  boost::asio::signal_set signals(server.io_context(), SIGINT, SIGTERM);
  if (auto err = server.Start()) {
    log->warn("{}", *err);
    std::fprintf(stderr, "kvserver: %s\n", err->c_str());
    return 1;
  }
  log->info("Server initialized, port {}", server.port());

  signals.async_wait([&](const boost::system::error_code& ec, int signo) {
    if (ec) return;
    log->info("Received {} scheduling shutdown...", signo == SIGINT ? "SIGINT" : "SIGTERM");
    server.Stop();
  });
  server.state().request_shutdown = [&] {
    log->info("User requested shutdown...");
    signals.cancel();
    server.Stop();
  };
  server.Run();
  log->info("kvserver is now ready to exit, bye bye...");
  return 0;
}
