// kvserver: a Redis-compatible in-memory key-value server.
// Usage: kvserver [config-file] [--directive value ...]
//
// Start-up follows redis-server's main(): configuration (a bad one is reported as Redis reports
// it, exit status 1), supervision, daemonize, the start-up lines, the listeners, the pid file,
// the banner or "Running mode=...", "Server initialized", the system warnings, "Ready to accept
// connections"; shutdown logs Redis's sequence and removes the pid file.

#include <spdlog/spdlog.h>
#include <sys/time.h>
#include <unistd.h>

#include <boost/asio/signal_set.hpp>
#include <clocale>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <functional>

#include "server/allocator.h"
#include "server/banner.h"
#include "server/config.h"
#include "server/crash_log.h"
#include "server/daemon.h"
#include "server/logging.h"
#include "server/persistence/snapshot.h"
#include "server/proc_title.h"
#include "server/system_checks.h"
#ifdef KV_COUNTING_MALLOC
#include "server/counting_malloc.h"
#endif
#include "server/server.h"
#include "server/shutdown_signals.h"
#include "server/version.h"

namespace {

constexpr char kUsage[] =
    "Usage: kvserver [/path/to/kvserver.conf] [options] [-]\n"
    "       kvserver - (read config from stdin)\n"
    "       kvserver -v or --version\n"
    "       kvserver -h or --help\n"
    "\n"
    "Options are configuration directives given as --name value, for example:\n"
    "       kvserver --port 6380\n"
    "       kvserver /etc/kvserver.conf --loglevel verbose\n"
    "       kvserver --port 7777 --bind 127.0.0.1 ::1 --unixsocket /tmp/kv.sock\n"
    "       echo 'maxmemory 128mb' | kvserver -\n"
    "\n"
    "Every directive is documented in conf/kvserver.conf.\n";

// Redis's serverLog line for the errors it logs before any configuration is read (a config
// file that cannot be opened): "pid:C date # message" on standard output.
void LogBeforeConfig(const std::string& message) {
  timeval tv{};
  ::gettimeofday(&tv, nullptr);
  std::tm tm{};
  const time_t secs = tv.tv_sec;
  ::localtime_r(&secs, &tm);
  char date[64];
  std::strftime(date, sizeof(date), "%d %b %Y %H:%M:%S", &tm);
  std::printf("%d:C %s.%03d # %s\n", static_cast<int>(::getpid()), date,
              static_cast<int>(tv.tv_usec / 1000), message.c_str());
  std::fflush(stdout);
}

std::string PidFilePath(const kv::Config& config) {
  return config.pidfile.empty() ? "/var/run/redis.pid" : config.pidfile;  // Redis's default
}

void SetProcTitle(const kv::Config& config, int port) {
  if (!config.set_proc_title) return;
  if (auto title = kv::ExpandProcTitle(config, {port})) kv::ProcTitle::Set(*title);
}

}  // namespace

int main(int argc, char** argv) {
  // SIGPIPE would kill the process when a client vanishes mid-write, or when whoever reads the
  // log on stdout goes away, even during startup.
  std::signal(SIGPIPE, SIG_IGN);
  // SORT ... ALPHA compares with strcoll under the environment's collation, as Redis's main()
  // sets it.
  std::setlocale(LC_COLLATE, "");
  kv::ProcTitle::Init(argc, argv);
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
      if (cmdline.error->cannot_open_file) {
        LogBeforeConfig(cmdline.error->reason);
      } else {
        std::fputs(cmdline.error->Fatal().c_str(), stderr);
      }
      return 1;
    case kv::CommandLine::Action::kRun:
      break;
  }
  const kv::Config& config = cmdline.config;
  if (auto err = kv::CheckLoadedConfig(config)) {
    std::fputs(err->Fatal().c_str(), stderr);
    return 1;
  }

  kv::ProcessLog plog(config);
  spdlog::logger& log = *plog.logger();
  if (cmdline.config_from_stdin) log.warn("Reading config from stdin");
  const kv::SupervisedMode supervised = kv::SetUpSupervision(config.supervised, log);
  const bool background = config.daemonize && supervised == kv::SupervisedMode::kNone;
  if (background) kv::Daemonize();

  log.warn("oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo");
  log.warn("Redis version={}, bits={}, commit=00000000, modified=0, pid={}, just started",
           kv::kRedisCompatVersion, sizeof(long) * 8, ::getpid());
  log.info("kvserver version={}, redis-compat={}", kv::kKvserverVersion, kv::kRedisCompatVersion);
  if (argc == 1) {
    log.warn(
        "Warning: no config file specified, using the default config. In order to specify a "
        "config file use {} /path/to/redis.conf",
        kv::ProcTitle::ProgramName());
  } else {
    log.warn("Configuration loaded");
  }
  kv::SetCrashLog(config);

  // The server applies the configured log level to the logger.
  kv::Server server(config, plog.logger());
  plog.ServerInitialized();
  kv::OomScoreAdjuster oom;
  server.SetProcessConfigHook([&](const kv::Config& old, const kv::Config& now)
                                  -> std::optional<kv::ServerState::ApplyError> {
    if (now.oom_score_adj != old.oom_score_adj ||
        now.oom_score_adj_values != old.oom_score_adj_values) {
      if (auto err = oom.Apply(now)) {
        return kv::ServerState::ApplyError{
            now.oom_score_adj != old.oom_score_adj ? "oom-score-adj" : "oom-score-adj-values",
            *err};
      }
    }
    if (now.proc_title_template != old.proc_title_template || now.port != old.port ||
        now.bind != old.bind) {
      if (now.set_proc_title && !kv::ExpandProcTitle(now, {server.port()})) {
        return kv::ServerState::ApplyError{"proc-title-template", "failed to set process title"};
      }
      SetProcTitle(now, server.port());
    }
    if (now.crash_log_enabled != old.crash_log_enabled) kv::SetCrashLog(now);
    return std::nullopt;
  });
  // Between binding the listeners and the readiness lines, as redis-server's main().
  server.SetAnnounceHook([&] {
    if (background || !config.pidfile.empty()) kv::WritePidFile(PidFilePath(config));
    SetProcTitle(config, server.port());
    if (kv::ShowBanner(config)) {
      std::string banner = kv::Banner(server.port(), static_cast<long>(::getpid()));
      banner.pop_back();  // the log adds the last newline
      plog.Raw(banner);
    } else {
      // Redis 7's line, which scripts that start kvserver on port 0 read the port from.
      log.info("Running mode=standalone, port={}.", server.port());
    }
    if (auto warning = kv::TcpBacklogWarning(config)) log.warn("{}", *warning);
    log.warn("Server initialized");
    for (const std::string& warning : kv::LinuxMemoryWarnings(config)) log.warn("{}", warning);
  });

  // Signals are caught before the server says it is ready: whoever waits for the readiness line
  // may stop it right away, and must get a clean exit.
  boost::asio::signal_set signals(server.io_context(), SIGINT, SIGTERM);
  // Start serves clients while it loads the data: a signal meanwhile ends the load and the
  // server without saving (half the data must not overwrite the file), as Redis.
  signals.async_wait([&](const boost::system::error_code& ec, int) {
    if (ec) return;
    plog.FromSignalHandler("Received shutdown signal during loading, scheduling shutdown.");
    server.Stop();
  });
  if (auto err = server.Start()) {
    // An empty error was logged already (the AOF's failures).
    if (!err->empty()) {
      log.warn("{}", *err);
      std::fprintf(stderr, "kvserver: %s\n", err->c_str());
    }
    return 1;
  }
  signals.cancel();
  if (supervised == kv::SupervisedMode::kSystemd) {
    kv::NotifySystemd("STATUS=Ready to accept connections\n", log);
    kv::NotifySystemd("READY=1\n", log);
  }
  if (config.maxmemory > 0 && config.maxmemory < 1024 * 1024) {
    log.warn(
        "WARNING: You specified a maxmemory value that is less than 1MB (current value is {} "
        "bytes). Are you sure this is what you really want?",
        config.maxmemory);
  }
  kv::SetCpuAffinity(config.server_cpulist);
  if (auto err = oom.Apply(config)) log.warn("{}", *err);

  auto shutdown = [&] {
    log.warn("User requested shutdown...");
    if (supervised == kv::SupervisedMode::kSystemd) kv::NotifySystemd("STOPPING=1\n", log);
    signals.cancel();
    server.Stop();
  };
  // A signal saves the final snapshot as shutdown-on-sigint/-sigterm say (by default when save
  // points are set); when that save fails without "force", the server keeps running, as Redis.
  // The final save and stop a signal asks for; false (and the server runs on) when the save
  // failed without "force".
  auto shutdown_for_signal = [&](int signo) {
    kv::ServerState& state = server.state();
    const int flags =
        signo == SIGINT ? state.config.shutdown_on_sigint : state.config.shutdown_on_sigterm;
    bool saved;
    {
      // A second SIGINT during the save exits at once (Redis's "You insist...").
      kv::InsistentShutdownGuard insist(state.config.logfile);
      saved = kv::FinalSave(state, flags & kv::kShutdownSave, flags & kv::kShutdownNoSave,
                            flags & kv::kShutdownForce);
    }
    if (!saved) return false;
    shutdown();
    return true;
  };
  std::function<void()> wait_for_signal = [&] {
    signals.async_wait([&](const boost::system::error_code& ec, int signo) {
      if (ec) return;
      plog.FromSignalHandler(signo == SIGINT ? "Received SIGINT scheduling shutdown..."
                                             : "Received SIGTERM scheduling shutdown...");
      kv::ServerState& state = server.state();
      // Redis's cron shuts down after a signal; kvserver's at once, as if the cron came now,
      // unless DEBUG PAUSE-CRON holds the cron: the shutdown then waits for it (SHUTDOWN ABORT
      // may cancel it meanwhile).
      if (state.pause_cron) {
        state.shutdown_signal = signo;
        wait_for_signal();
        return;
      }
      if (!shutdown_for_signal(signo)) wait_for_signal();
    });
  };
  server.state().run_signal_shutdown = [&](int signo) { shutdown_for_signal(signo); };
  // A shutdown during the load (a signal, SHUTDOWN) already stopped the server: Run() only lets
  // it finish.
  if (!server.stopping()) wait_for_signal();
  server.state().request_shutdown = shutdown;
  server.Run();
  // The server's configuration as CONFIG SET left it.
  const kv::Config& final_config = server.state().config;
  if (background || !final_config.pidfile.empty()) {
    log.info("Removing the pid file.");
    ::unlink(PidFilePath(final_config).c_str());
  }
  log.warn("Redis is now ready to exit, bye bye...");
  return 0;
}
