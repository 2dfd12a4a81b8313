#include "server/logging.h"

#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>
#include <sys/time.h>
#include <syslog.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <ctime>
#include <mutex>

namespace kv {
namespace {

std::atomic<char> g_role{'C'};

// Redis's serverLogRaw.
class RedisLogSink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  RedisLogSink(std::string path, bool raw, bool syslog_enabled)
      : path_(std::move(path)), raw_(raw), syslog_(syslog_enabled) {}

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    std::string line;
    const std::string_view payload(msg.payload.data(), msg.payload.size());
    if (raw_) {
      line.assign(payload);
    } else {
      const auto since_epoch = msg.time.time_since_epoch();
      const time_t secs = std::chrono::duration_cast<std::chrono::seconds>(since_epoch).count();
      const int ms = static_cast<int>(
          std::chrono::duration_cast<std::chrono::milliseconds>(since_epoch).count() % 1000);
      std::tm tm{};
      ::localtime_r(&secs, &tm);
      char date[64];
      const size_t n = std::strftime(date, sizeof(date), "%d %b %Y %H:%M:%S.", &tm);
      std::snprintf(date + n, sizeof(date) - n, "%03d", ms);
      char head[128];
      std::snprintf(head, sizeof(head), "%d:%c %s %c ", static_cast<int>(::getpid()), g_role.load(),
                    date, Mark(msg.level));
      line = head;
      line += payload;
      line += '\n';
    }
    std::FILE* fp = path_.empty() ? stdout : std::fopen(path_.c_str(), "a");
    if (fp != nullptr) {
      std::fwrite(line.data(), 1, line.size(), fp);
      std::fflush(fp);
      if (!path_.empty()) std::fclose(fp);
    }
    if (syslog_) {
      ::syslog(SyslogPriority(msg.level), "%.*s", static_cast<int>(payload.size()), payload.data());
    }
  }
  void flush_() override {}

 private:
  static char Mark(spdlog::level::level_enum level) {
    if (level <= spdlog::level::trace) return '.';
    if (level == spdlog::level::debug) return '-';
    if (level >= spdlog::level::warn) return '#';
    return '*';
  }
  static int SyslogPriority(spdlog::level::level_enum level) {
    if (level <= spdlog::level::trace) return LOG_DEBUG;
    if (level == spdlog::level::debug) return LOG_INFO;
    if (level >= spdlog::level::warn) return LOG_WARNING;
    return LOG_NOTICE;
  }

  const std::string path_;
  const bool raw_;
  const bool syslog_;
};

}  // namespace

int SpdlogLevelFor(const std::string& loglevel) {
  if (loglevel == "debug") return spdlog::level::trace;
  if (loglevel == "verbose") return spdlog::level::debug;
  if (loglevel == "warning") return spdlog::level::warn;
  return spdlog::level::info;
}

ProcessLog::ProcessLog(const Config& config) {
  if (config.syslog_enabled) {
    ::openlog(config.syslog_ident.c_str(), LOG_PID | LOG_NDELAY | LOG_NOWAIT,
              config.syslog_facility);
  }
  logger_ = std::make_shared<spdlog::logger>(
      "kvserver",
      std::make_shared<RedisLogSink>(config.logfile, /*raw=*/false, config.syslog_enabled));
  raw_ = std::make_shared<spdlog::logger>(
      "kvserver-raw",
      std::make_shared<RedisLogSink>(config.logfile, /*raw=*/true, /*syslog_enabled=*/false));
  const auto level = static_cast<spdlog::level::level_enum>(SpdlogLevelFor(config.loglevel));
  logger_->set_level(level);
  raw_->set_level(level);
  spdlog::set_default_logger(logger_);
}

ProcessLog::~ProcessLog() = default;

void ProcessLog::Raw(std::string_view text) {
  raw_->set_level(logger_->level());
  raw_->info("{}", text);
}

void ProcessLog::FromSignalHandler(std::string_view message) {
  raw_->set_level(logger_->level());
  raw_->warn("{}:signal-handler ({}) {}\n", static_cast<int>(::getpid()),
             static_cast<long long>(std::time(nullptr)), message);
}

void ProcessLog::ServerInitialized() { g_role = 'M'; }

}  // namespace kv
