#include "server/server.h"

#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/v6_only.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <utility>

#include "server/connection.h"
#include "server/info.h"
#include "server/persistence/aof.h"
#include "server/persistence/snapshot.h"
#include "server/protected_mode.h"
#include "server/scripting/scripting.h"

namespace kv {

namespace asio = boost::asio;
using asio::ip::tcp;

namespace {

std::string RandomHex(size_t n) {
  std::random_device rd;
  std::mt19937_64 gen(rd());
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s(n, '0');
  for (char& c : s) c = kHex[gen() % 16];
  return s;
}

spdlog::level::level_enum LevelFor(const std::string& loglevel) {
  if (loglevel == "debug") return spdlog::level::trace;
  if (loglevel == "verbose") return spdlog::level::debug;
  if (loglevel == "warning") return spdlog::level::warn;
  return spdlog::level::info;
}

// Logs an exception that escaped a coroutine instead of terminating the process.
auto LogFailure(std::shared_ptr<spdlog::logger> log, const char* what) {
  return [log, what](std::exception_ptr e) {
    if (!e || !log) return;
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& ex) {
      log->warn("{} failed: {}", what, ex.what());
    }
  };
}

// Writes `port` to `path` (the port-file directive): to a temporary file first, then renamed into
// place, so that a reader never sees a partial file.
std::optional<std::string> WritePortFile(const std::string& path, uint16_t port) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  std::FILE* f = std::fopen(tmp.c_str(), "w");
  bool ok = f != nullptr && std::fprintf(f, "%u\n", static_cast<unsigned>(port)) > 0;
  if (f != nullptr && std::fclose(f) != 0) ok = false;
  if (ok && std::rename(tmp.c_str(), path.c_str()) == 0) return std::nullopt;
  const std::string why = std::strerror(errno);
  std::remove(tmp.c_str());
  return "Can't write the port file " + path + ": " + why;
}

}  // namespace

Server::Server(Config config, std::shared_ptr<spdlog::logger> logger, const Clock* clock)
    : log_(std::move(logger)),
      registry_(BuildCommandRegistry(config.renamed_commands)),
      state_(std::move(config), clock != nullptr ? clock : &system_clock_, &registry_),
      dispatcher_(&state_) {
  state_.run_id = RandomHex(40);
  state_.start_time_ms = state_.clock->NowMs();
  state_.used_memory_startup = UsedMemory();
  std::error_code ec;
  state_.executable = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  state_.request_shutdown = [this] { asio::post(io_, [this] { StopOnLoop(); }); };
  state_.config_changed = [this] { ApplyConfig(); };
  state_.apply_config = [this](const Config& old) { return ApplyConfigChange(old); };
  state_.pause_changed = [this] { OnPauseChanged(); };
  // A busy script serves the other clients from inside its run (Redis's
  // processEventsWhileBlocked): the loop runs what is ready, nested.
  state_.scripting = std::make_shared<Scripting>();
  state_.scripting->process_events = [this] {
    io_.poll();
    // A shutdown (SHUTDOWN NOSAVE, SIGTERM) ends the busy script so that the loop can stop.
    if (stopping_ && state_.scripting->running != nullptr) state_.scripting->running->killed = true;
  };
  state_.process_events_while_loading = [this] {
    io_.poll();
    return !stopping_;
  };
  state_.blocking_deadlines_changed = [this] { ArmBlockTimer(); };
  state_.after_batch = [this] { PostAfterBatch(); };
  // Lazily freed values are freed a slice at a time between the other handlers, with a pause
  // between slices (see LazyFreer::kPause).
  state_.lazy_freer.SetPost([this](std::function<void()> slice) {
    lazy_free_timer_.expires_after(LazyFreer::kPause);
    lazy_free_timer_.async_wait([slice = std::move(slice)](const boost::system::error_code& ec) {
      if (!ec) slice();
    });
  });
  state_.clients = this;
  ApplyConfig();
}

Server::~Server() {
  Stop();
  // Let every coroutine see the stop and finish, so nothing outlives the server's members.
  if (!io_.stopped()) io_.run();
}

void Server::ApplyConfig() {
  parser_limits_.max_bulk_len = state_.config.proto_max_bulk_len;
  unauthenticated_parser_limits_ = parser_limits_;
  unauthenticated_parser_limits_.unauthenticated = true;
  if (log_) log_->set_level(LevelFor(state_.config.loglevel));
}

// Redis's adjustOpenFilesLimit: every client needs a descriptor, plus a few for the listeners and
// the log. Raise the soft limit as far as needed and allowed, or lower maxclients to fit.
void Server::AdjustOpenFilesLimit() {
  constexpr int64_t kReservedFds = 32;  // CONFIG_MIN_RESERVED_FDS
  const rlim_t wanted = static_cast<rlim_t>(state_.config.maxclients + kReservedFds);
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) {
    if (log_) {
      log_->warn(
          "Unable to obtain the current NOFILE limit ({}), assuming 1024 and setting the max "
          "clients configuration accordingly.",
          std::strerror(errno));
    }
    state_.config.maxclients = 1024 - kReservedFds;
    return;
  }
  const rlim_t old_limit = limit.rlim_cur;
  if (old_limit == RLIM_INFINITY || old_limit >= wanted) return;
  // First ask for exactly what is needed (raising the hard limit works with privileges), then
  // settle for the hard limit.
  rlimit want = limit;
  want.rlim_cur = wanted;
  if (want.rlim_max != RLIM_INFINITY && want.rlim_max < wanted) want.rlim_max = wanted;
  int error = 0;
  rlim_t best = old_limit;
  if (::setrlimit(RLIMIT_NOFILE, &want) == 0) {
    best = wanted;
  } else {
    error = errno;
    if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max > old_limit) {
      rlimit hard = limit;
      hard.rlim_cur = limit.rlim_max;
      if (::setrlimit(RLIMIT_NOFILE, &hard) == 0) best = limit.rlim_max;
    }
  }
  if (best >= wanted) {
    if (log_) {
      log_->info("Increased maximum number of open files to {} (it was originally set to {}).",
                 static_cast<uint64_t>(wanted), static_cast<uint64_t>(old_limit));
    }
    return;
  }
  const int64_t old_maxclients = state_.config.maxclients;
  state_.config.maxclients = std::max<int64_t>(1, static_cast<int64_t>(best) - kReservedFds);
  if (log_) {
    log_->warn("You requested maxclients of {} requiring at least {} max file descriptors.",
               old_maxclients, static_cast<uint64_t>(wanted));
    log_->warn("Server can't set maximum open files to {} because of OS error: {}.",
               static_cast<uint64_t>(wanted), std::strerror(error));
    log_->warn(
        "Current maximum open files is {}. maxclients has been reduced to {} to compensate for "
        "low ulimit. If you need higher maxclients increase 'ulimit -n'.",
        static_cast<uint64_t>(best), state_.config.maxclients);
  }
}

std::optional<std::string> Server::Start() {
  AdjustOpenFilesLimit();
  if (auto err = BindTcp()) {
    // Redis's initServer: the reason, then the line Redis's test suite looks for to retry on
    // another port.
    if (log_) log_->warn("{}", *err);
    return "Failed listening on port " + std::to_string(state_.config.port) + " (TCP), aborting.";
  }
  if (auto err = BindUnix()) return err;
  if (tcp_acceptors_.empty() && !unix_acceptor_) {
    return std::string("Configured to not listen anywhere, exiting.");
  }
  for (auto& acceptor : tcp_acceptors_) {
    asio::co_spawn(io_, AcceptTcp(*acceptor), LogFailure(log_, "TCP accept loop"));
  }
  if (unix_acceptor_) {
    asio::co_spawn(io_, AcceptUnix(*unix_acceptor_), LogFailure(log_, "unix accept loop"));
  }
  asio::co_spawn(io_, Cron(), LogFailure(log_, "cron"));
  if (announce_) {
    announce_();
  } else if (log_) {
    // Redis 7's line, which scripts that start kvserver on port 0 read the port from.
    log_->info("Running mode=standalone, port={}.", state_.tcp_port);
  }
  // After "Server initialized" and before the readiness lines, as Redis's loadDataFromDisk.
  if (auto err = LoadDataAtStartup(state_)) return err;
  // A SHUTDOWN served while loading ended the load: the server is stopping, not ready.
  if (stopping_) return std::nullopt;
  if (!state_.config.port_file.empty()) {
    if (auto err = WritePortFile(state_.config.port_file, state_.tcp_port)) return err;
  }
  // Only now: whoever waits for these lines (or the port file) may connect at once.
  if (log_) {
    if (!tcp_acceptors_.empty()) log_->info("Ready to accept connections tcp");
    if (unix_acceptor_) log_->info("Ready to accept connections unix");
  }
  return std::nullopt;
}

std::optional<std::string> Server::BindTcp() {
  if (state_.config.port == 0 && state_.config.bind.empty()) return std::nullopt;
  uint16_t port = static_cast<uint16_t>(state_.config.port);
  for (std::string addr : state_.config.bind) {
    // A leading '-' marks an address that may be unavailable (Redis's "-::1").
    const bool optional = !addr.empty() && addr[0] == '-';
    if (optional) addr.erase(0, 1);
    if (addr == "*") addr = "0.0.0.0";
    if (addr == "::*") addr = "::";
    boost::system::error_code ec;
    asio::ip::address ip = asio::ip::make_address(addr, ec);
    if (ec) return "Invalid bind address '" + addr + "'";
    auto acceptor = std::make_unique<tcp::acceptor>(io_);
    tcp::endpoint endpoint(ip, port);
    // The step that failed, named as Redis's anet errors name it.
    std::string_view step = "creating socket";
    acceptor->open(endpoint.protocol(), ec);
    if (!ec) {
      step = "setsockopt SO_REUSEADDR";
      acceptor->set_option(tcp::acceptor::reuse_address(true), ec);
    }
    if (!ec && ip.is_v6()) {
      step = "setsockopt";
      acceptor->set_option(asio::ip::v6_only(true), ec);
    }
    if (!ec) {
      step = "bind";
      acceptor->bind(endpoint, ec);
    }
    if (!ec) {
      step = "listen";
      acceptor->listen(static_cast<int>(state_.config.tcp_backlog), ec);
    }
    if (ec) {
      if (optional &&
          (ec == asio::error::address_family_not_supported || ec.value() == EADDRNOTAVAIL)) {
        if (log_) log_->warn("Skipping optional bind address {}: {}", addr, ec.message());
        continue;
      }
      // Redis's listenToPort warning.
      return "Warning: Could not create server TCP listening socket " + addr + ":" +
             std::to_string(port) + ": " + std::string(step) + ": " + ec.message();
    }
    // With port 0 the first listener picks the port and every other address shares it.
    port = acceptor->local_endpoint().port();
    if (log_) log_->info("Listening on tcp {}:{}", addr, port);
    tcp_acceptors_.push_back(std::move(acceptor));
  }
  state_.tcp_port = port;
  return std::nullopt;
}

std::optional<std::string> Server::BindUnix() {
  const std::string& path = state_.config.unixsocket;
  if (path.empty()) return std::nullopt;
  // Redis's check; Asio would throw for a path that does not fit in sockaddr_un.
  constexpr size_t kMaxPath = sizeof(sockaddr_un::sun_path);
  if (path.size() >= kMaxPath) {
    return "Failed opening Unix socket: unix socket path too long (" + std::to_string(path.size()) +
           "), must be under " + std::to_string(kMaxPath);
  }
  ::unlink(path.c_str());  // a stale socket file from an earlier run
  boost::system::error_code ec;
  auto acceptor = std::make_unique<asio::local::stream_protocol::acceptor>(io_);
  asio::local::stream_protocol::endpoint endpoint(path);
  acceptor->open(endpoint.protocol(), ec);
  if (!ec) acceptor->bind(endpoint, ec);
  if (!ec) acceptor->listen(static_cast<int>(state_.config.tcp_backlog), ec);
  if (ec) return "Failed opening Unix socket " + path + ": " + ec.message();
  if (state_.config.unixsocketperm != 0) {
    ::chmod(path.c_str(), static_cast<mode_t>(state_.config.unixsocketperm));
  }
  if (log_) log_->info("Listening on unix socket {}", path);
  unix_acceptor_ = std::move(acceptor);
  return std::nullopt;
}

asio::awaitable<void> Server::AcceptTcp(tcp::acceptor& acceptor) {
  while (!stopping_) {
    boost::system::error_code ec;
    tcp::socket socket =
        co_await acceptor.async_accept(asio::redirect_error(asio::use_awaitable, ec));
    if (stopping_ || !acceptor.is_open()) break;  // stopped, or closed by CONFIG SET port/bind
    if (ec) {
      if (log_) log_->warn("Accepting client connection: {}", ec.message());
      if (ec == asio::error::no_descriptors || ec == asio::error::no_buffer_space) {
        // Out of descriptors: back off briefly instead of spinning.
        asio::steady_timer pause(io_, std::chrono::milliseconds(10));
        co_await pause.async_wait(asio::redirect_error(asio::use_awaitable, ec));
      }
      continue;
    }
    socket.set_option(tcp::no_delay(true), ec);
    if (state_.config.tcp_keepalive > 0) socket.set_option(asio::socket_base::keep_alive(true), ec);
    Admit(socket.release(ec));
  }
}

asio::awaitable<void> Server::AcceptUnix(asio::local::stream_protocol::acceptor& acceptor) {
  while (!stopping_) {
    boost::system::error_code ec;
    asio::local::stream_protocol::socket socket =
        co_await acceptor.async_accept(asio::redirect_error(asio::use_awaitable, ec));
    if (stopping_ || !acceptor.is_open()) break;  // stopped, or its listener closed
    if (ec) {
      if (log_) log_->warn("Accepting client connection: {}", ec.message());
      continue;
    }
    Admit(socket.release(ec));
  }
}

void Server::Admit(int native_fd) {
  if (native_fd < 0) return;
  if (connections_.size() >= static_cast<size_t>(state_.config.maxclients)) {
    static constexpr char kError[] = "-ERR max number of clients reached\r\n";
    // MSG_NOSIGNAL: an embedded server must not raise SIGPIPE in its host process.
    [[maybe_unused]] ssize_t n = ::send(native_fd, kError, sizeof(kError) - 1, MSG_NOSIGNAL);
    ::close(native_fd);
    ++state_.stats.rejected_connections;
    return;
  }
  sockaddr_storage peer{};
  socklen_t peer_len = sizeof(peer);
  auto* peer_addr = reinterpret_cast<sockaddr*>(&peer);
  if (::getpeername(native_fd, peer_addr, &peer_len) == 0 &&
      ProtectedModeRefuses(state_.config, peer_addr)) {
    [[maybe_unused]] ssize_t n =
        ::send(native_fd, kProtectedModeDenied.data(), kProtectedModeDenied.size(), MSG_NOSIGNAL);
    ::close(native_fd);
    ++state_.stats.rejected_connections;
    return;
  }
  // Like Redis's stat_numconnections, only connections that were let in count.
  ++state_.stats.total_connections_received;
  auto conn = std::make_shared<Connection>(this, native_fd, next_client_id_++);
  connections_.insert(conn.get());
  state_.clients_by_id.emplace(conn->state().id, &conn->mutable_state());
  state_.connected_clients = connections_.size();
  asio::co_spawn(io_, conn->Run(), LogFailure(log_, "connection"));
}

void Server::ForEachClient(const std::function<void(const ClientInfo&)>& fn) const {
  // The set has no order; Redis lists clients in the order they connected. A closed connection
  // is gone for Redis even while its coroutine has not ended yet.
  std::vector<const Connection*> open;
  open.reserve(connections_.size());
  for (const Connection* c : connections_) {
    if (!c->closed()) open.push_back(c);
  }
  std::sort(open.begin(), open.end(),
            [](const Connection* a, const Connection* b) { return a->state().id < b->state().id; });
  for (const Connection* c : open) fn(c->Describe());
}

void Server::KillClient(uint64_t id) {
  for (Connection* c : connections_) {
    if (c->state().id == id) {
      if (log_) log_->debug("Closing client id={} (CLIENT KILL)", id);
      c->Close();
      return;
    }
  }
}

void Server::WarnCrossProtocol() {
  const int64_t now_s = state_.clock->NowMs() / 1000;
  if (std::llabs(now_s - security_warning_logged_s_) <= 60) return;
  security_warning_logged_s_ = now_s;
  if (log_) {
    log_->warn(
        "Possible SECURITY ATTACK detected. It looks like somebody is sending POST or Host: "
        "commands to Redis. This is likely due to an attacker attempting to use Cross Protocol "
        "Scripting to compromise your Redis instance. Connection aborted.");
  }
}

void Server::Forget(Connection* conn) {
  std::erase(held_, conn);
  state_.paused_clients = held_.size();
  if (conn->state().blocked) {
    state_.blocking.Remove(conn->state().id);
    ArmBlockTimer();
  }
  if (conn->state().monitor) std::erase(state_.monitors, &conn->state());
  if (conn->flush_scheduled()) std::erase(pending_flush_, conn);
  state_.ForgetClient(conn->mutable_state());
  connections_.erase(conn);
  state_.connected_clients = connections_.size();
}

void Server::Hold(Connection* conn) {
  held_.push_back(conn);
  conn->mutable_state().paused = true;
  state_.paused_clients = held_.size();
}

void Server::ScheduleFlush(Connection* conn) {
  pending_flush_.push_back(conn);
  PostAfterBatch();
}

void Server::PostAfterBatch() {
  if (after_batch_posted_ || stopping_) return;
  after_batch_posted_ = true;
  // Runs once the handlers ready now (the publisher's batch among them) are done, as Redis's
  // beforeSleep: BCAST invalidations, then one write per client that received pushed frames.
  asio::post(io_, [this] {
    after_batch_posted_ = false;
    state_.RunAfterBatch();
    // Redis's beforeSleep: the AOF is written before any reply goes out.
    FlushAof();
    std::vector<Connection*> flush;
    flush.swap(pending_flush_);
    for (Connection* c : flush) c->FlushPushed();
  });
}

void Server::FlushAof() {
  if (state_.aof && state_.aof->has_pending()) state_.aof->Flush();
}

bool Server::AofGroupCommitPending() const { return state_.aof && state_.aof->has_pending(); }

void Server::OnPauseChanged() {
  // Each woken connection runs its held command again, in this order, or is held again.
  std::vector<Connection*> woken;
  woken.swap(held_);
  state_.paused_clients = 0;
  for (Connection* c : woken) {
    c->mutable_state().paused = false;
    c->Resume();
  }
  const int64_t now_ms = state_.clock->NowMs();
  state_.pause.Expire(now_ms);
  // Expired keys are kept while the pause lasts (Db::KeepExpiredKeys).
  state_.dbs.KeepExpiredKeys(state_.pause.type() != ClientPause::Type::kOff);
  if (state_.pause.type() == ClientPause::Type::kOff) {
    pause_timer_.cancel();
    return;
  }
  // The pause lasts while its end is not before now: wake everyone 1 ms after the end.
  pause_timer_.expires_after(std::chrono::milliseconds(state_.pause.end_ms() - now_ms + 1));
  pause_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (!ec && !stopping_) OnPauseChanged();
  });
}

void Server::ArmBlockTimer() {
  const int64_t next = state_.blocking.next_deadline_ms();
  if (next == 0 || stopping_) {
    block_timer_.cancel();
    return;
  }
  // Redis times a client out once its deadline is in the past: 1 ms after it. A deadline far
  // away (a timeout of years, or past the end of time) is waited for a day at a time: the timer's
  // nanoseconds would overflow, and the timer fired at once, over and over.
  constexpr int64_t kMaxWaitMs = 24 * 3600 * 1000;
  const int64_t wait_ms =
      std::max<int64_t>(0, std::min(next - state_.clock->NowMs(), kMaxWaitMs) + 1);
  block_timer_.expires_after(std::chrono::milliseconds(wait_ms));
  block_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec || stopping_) return;
    ExpireBlockedClients();
  });
}

void Server::ExpireBlockedClients() {
  state_.blocking.ExpireTimeouts(state_, state_.clock->NowMs());
  ArmBlockTimer();
}

asio::awaitable<void> Server::Cron() {
  uint64_t last_commands = state_.stats.total_commands_processed;
  uint64_t last_input = state_.stats.total_net_input_bytes;
  uint64_t last_output = state_.stats.total_net_output_bytes;
  auto last_sample = std::chrono::steady_clock::now();
  auto nap_period_start = last_sample;
  auto nap_cpu_start = BusyLoopNap::ThreadCpuTime();
  while (!stopping_) {
    const auto period = std::chrono::milliseconds(1000 / std::max<int64_t>(1, state_.config.hz));
    cron_timer_.expires_after(period);
    boost::system::error_code ec;
    co_await cron_timer_.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    if (stopping_) break;
    {
      // The cron runs on the loop's thread: its CPU time is the loop's.
      const auto now = std::chrono::steady_clock::now();
      const auto cpu = BusyLoopNap::ThreadCpuTime();
      loop_nap_.EndPeriod(cpu - nap_cpu_start, now - nap_period_start);
      nap_period_start = now;
      nap_cpu_start = cpu;
    }
    // DEBUG PAUSE-CRON: nothing at all, as Redis's serverCron.
    if (state_.pause_cron) continue;
    // While a busy script serves clients from inside its run, the data must not change under it;
    // nor while the data is loaded (Redis serves only clients then, not its cron).
    if (state_.scripting && state_.scripting->running != nullptr) continue;
    if (state_.persistence.loading) continue;
    // A shutdown signal that came while the cron was paused (Redis's shutdown_asap).
    if (state_.shutdown_signal != 0 && state_.run_signal_shutdown) {
      state_.run_signal_shutdown(std::exchange(state_.shutdown_signal, 0));
      continue;  // stopping (or the save failed): nothing more this round
    }
    const int64_t now_ms = state_.clock->NowMs();
    // Active expiry gets a quarter of each period, as Redis's ACTIVE_EXPIRE_CYCLE_SLOW_TIME_PERC.
    // Like Redis, it waits while clients are paused: a pause freezes the dataset.
    state_.pause.Expire(now_ms);
    if (state_.active_expire_enabled && state_.pause.type() == ClientPause::Type::kOff) {
      const auto cycle_start = std::chrono::steady_clock::now();
      state_.dbs.ActiveExpireCycle(
          now_ms, std::chrono::duration_cast<std::chrono::microseconds>(period) / 4);
      // Redis's activeExpireCycle reports a slow cycle (one that freed a big value, say) to the
      // latency monitor as its "expire-cycle" event.
      const int64_t cycle_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                   std::chrono::steady_clock::now() - cycle_start)
                                   .count();
      const int64_t threshold = state_.config.latency_monitor_threshold;
      if (threshold != 0 && cycle_ms >= threshold) {
        state_.latency_monitor.AddSample("expire-cycle", now_ms / 1000,
                                         static_cast<uint64_t>(cycle_ms));
      }
    }

    // Reaps a finished BGSAVE and starts the saves the save points ask for.
    BackgroundSaveCron(state_);
    // Reaps a finished AOF rewrite, starts scheduled and automatic ones, retries failed writes.
    if (state_.aof) state_.aof->Cron();
    // Redis's migrateCloseTimedoutSockets: MIGRATE's connections idle for 10 seconds close.
    state_.migrate_sockets.CloseIdle(now_ms / 1000);

    // Redis's eviction time proc: eviction that ran out of time before a command goes on here.
    if (state_.config.maxmemory != 0) state_.evictor.Perform(state_, now_ms);
    // Redis's serverCron: the tracking table is kept within tracking-table-max-keys even when
    // idle (after CONFIG SET lowered it).
    if (state_.tracking.clients() != 0) state_.tracking.LimitUsedSlots(state_);

    const auto now = std::chrono::steady_clock::now();
    const double secs = std::chrono::duration<double>(now - last_sample).count();
    if (secs >= 1.0) {
      // CONFIG RESETSTAT zeroes the counters: what grew since then, not a wrapped difference.
      const auto grown = [](uint64_t now_total, uint64_t before) {
        return static_cast<double>(now_total >= before ? now_total - before : now_total);
      };
      state_.instantaneous_ops_per_sec =
          static_cast<int64_t>(grown(state_.stats.total_commands_processed, last_commands) / secs);
      state_.instantaneous_input_kbps =
          grown(state_.stats.total_net_input_bytes, last_input) / 1024 / secs;
      state_.instantaneous_output_kbps =
          grown(state_.stats.total_net_output_bytes, last_output) / 1024 / secs;
      last_commands = state_.stats.total_commands_processed;
      last_input = state_.stats.total_net_input_bytes;
      last_output = state_.stats.total_net_output_bytes;
      last_sample = now;
      state_.command_clock.Calibrate();
      state_.used_memory_peak = std::max(state_.used_memory_peak, UsedMemory());
    }
    // Redis's clientsCron: a client whose reading is paused runs no command, so its soft output
    // limit is checked here, idle clients' buffers are freed, and clients whose last read was
    // short are read again (a close that came with their last request). Close() leaves the set
    // alone; the loop forgets the connection.
    for (Connection* c : connections_) {
      c->CloseIfOverOutputLimit(now_ms, /*from_cron=*/true);
      c->ReleaseIdleBuffers(now_ms);
      c->ProbeInput();
    }
    if (state_.config.timeout > 0) {
      const int64_t limit_ms = state_.config.timeout * 1000;
      std::vector<Connection*> idle;
      for (Connection* c : connections_) {
        // Like Redis's blocked clients, held ones are not idle.
        if (now_ms - c->last_interaction_ms() > limit_ms && !c->held()) idle.push_back(c);
      }
      for (Connection* c : idle) {
        if (log_) log_->debug("Closing idle client id={}", c->state().id);
        c->Close();
      }
    }
  }
}

std::optional<ServerState::ApplyError> Server::ApplyConfigChange(const Config& old) {
  const Config& now = state_.config;
  if (now.appendonly != old.appendonly) {
    if (auto err = ApplyAppendonly(state_)) return ServerState::ApplyError{"appendonly", *err};
  }
  // Redis's updateAofAutoGCEnabled: the history kept meanwhile goes at once.
  if (old.aof_disable_auto_gc && !now.aof_disable_auto_gc && state_.aof) {
    state_.aof->DeleteHistory();
  }
  if (now.port != old.port || now.bind != old.bind) {
    if (auto err = RebindTcp()) {
      if (log_) log_->warn("{}", *err);
      // Redis's updatePort and applyBind errors.
      if (now.bind != old.bind)
        return ServerState::ApplyError{"bind", "Failed to bind to specified addresses."};
      return ServerState::ApplyError{"port", "Unable to listen on this port. Check server logs."};
    }
  }
  if (process_config_) return process_config_(old, now);
  return std::nullopt;
}

std::optional<std::string> Server::RebindTcp() {
  boost::system::error_code ec;
  for (auto& acceptor : tcp_acceptors_) {
    acceptor->close(ec);
    retired_acceptors_.push_back(std::move(acceptor));
  }
  tcp_acceptors_.clear();
  state_.tcp_port = 0;
  // At run time port 0 means no TCP listener, as in Redis (at start-up it picks a free port).
  if (state_.config.port == 0) return std::nullopt;
  if (auto err = BindTcp()) {
    for (auto& acceptor : tcp_acceptors_) {
      acceptor->close(ec);
      retired_acceptors_.push_back(std::move(acceptor));
    }
    tcp_acceptors_.clear();
    return err;
  }
  for (auto& acceptor : tcp_acceptors_) {
    asio::co_spawn(io_, AcceptTcp(*acceptor), LogFailure(log_, "TCP accept loop"));
  }
  return std::nullopt;
}

void Server::Run() { loop_nap_.Run(io_); }

void Server::RunInBackground() {
  thread_ = std::thread([this] { loop_nap_.Run(io_); });
}

void Server::CloseListeners() {
  boost::system::error_code ec;
  for (auto& acceptor : tcp_acceptors_) acceptor->close(ec);
  if (unix_acceptor_ && unix_acceptor_->is_open()) {
    unix_acceptor_->close(ec);
    ::unlink(state_.config.unixsocket.c_str());
  }
}

void Server::StopOnLoop() {
  if (stopping_) return;
  stopping_ = true;
  CloseListeners();
  cron_timer_.cancel();
  pause_timer_.cancel();
  block_timer_.cancel();
  // What is still queued is freed when the state goes, not by slices that keep the loop running.
  state_.lazy_freer.SetPost(nullptr);
  lazy_free_timer_.cancel();
  // Close() does not remove a connection from the set; its loop does that when it ends.
  std::vector<Connection*> all(connections_.begin(), connections_.end());
  for (Connection* c : all) c->Close();
}

void Server::Stop() {
  if (thread_.joinable()) {
    asio::post(io_, [this] { StopOnLoop(); });
    thread_.join();
  } else if (!io_.stopped()) {
    // On the loop's own thread (signal handler, SHUTDOWN) the listeners close now, as Redis
    // exits at once: a SHUTDOWN NOSAVE during a busy script returns to the script, and the rest
    // of the stop waits for its next round of events. From another thread (the embedding API,
    // which runs the loop itself) only the loop may touch them: the accept loop would race.
    if (io_.get_executor().running_in_this_thread()) CloseListeners();
    asio::post(io_, [this] { StopOnLoop(); });
  }
}

}  // namespace kv
