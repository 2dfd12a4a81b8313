#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "protocol/resp_parser.h"
#include "server/busy_loop_nap.h"
#include "server/client_registry.h"
#include "server/command_registry.h"
#include "server/config.h"
#include "server/dispatcher.h"
#include "server/server_state.h"
#include "storage/clock.h"

namespace spdlog {
class logger;
}

namespace kv {

class Connection;

// A complete kvserver: listeners, connections, the keyspace and the command table, driven by one
// io_context on one thread (the Redis model). Many servers may live in one process.
class Server : public ClientRegistry {
 public:
  // `clock` may be null (the system clock is used); `logger` may be null (nothing is logged).
  explicit Server(Config config, std::shared_ptr<spdlog::logger> logger = nullptr,
                  const Clock* clock = nullptr);
  ~Server() override;
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds every listener; after success port() is the TCP port actually bound (port 0 picks
  // a free one). Returns an error message when a listener cannot be set up or the data cannot be
  // loaded (empty when the reason was logged already). Between binding and
  // the readiness lines it runs the announce hook if one is set (the binary logs Redis's
  // start-up sequence there), else logs "Running mode=standalone, port=<port>.".
  std::optional<std::string> Start();
  void SetAnnounceHook(std::function<void()> hook) { announce_ = std::move(hook); }
  // CONFIG SET's changes that concern the process rather than this server (the binary's oom
  // score, title, crash handlers): called after the server's own (listeners), with the previous
  // configuration; returns Redis's error for the directive concerned.
  using ProcessConfigHook =
      std::function<std::optional<ServerState::ApplyError>(const Config& old, const Config& now)>;
  void SetProcessConfigHook(ProcessConfigHook hook) { process_config_ = std::move(hook); }
  // Runs the event loop on the calling thread until Stop() or SHUTDOWN.
  void Run();
  // Runs the event loop on a thread of its own.
  void RunInBackground();
  // Closes the listeners and every connection and ends Run(). Thread-safe, idempotent; waits for
  // a background thread.
  void Stop();
  // True once Stop() (or SHUTDOWN) took effect, e.g. while Start() loaded the data.
  bool stopping() const { return stopping_; }

  uint16_t port() const { return state_.tcp_port; }
  boost::asio::io_context& io_context() { return io_; }
  ServerState& state() { return state_; }

  // Times out the clients blocked on keys whose deadline has passed (run by a timer; and by the
  // embedding API after a manual clock moves). On the loop's thread only.
  void ExpireBlockedClients();

  // ClientRegistry, for the CLIENT commands (on the loop's thread only).
  void ForEachClient(const std::function<void(const ClientInfo&)>& fn) const override;
  void KillClient(uint64_t id) override;

 private:
  friend class Connection;

  boost::asio::awaitable<void> AcceptTcp(boost::asio::ip::tcp::acceptor& acceptor);
  boost::asio::awaitable<void> AcceptUnix(boost::asio::local::stream_protocol::acceptor& acceptor);
  void Admit(int native_fd);
  boost::asio::awaitable<void> Cron();
  void ApplyConfig();
  // CONFIG SET's apply step (ServerState::apply_config).
  std::optional<ServerState::ApplyError> ApplyConfigChange(const Config& old);
  // Closes the TCP listeners (kept until their accept loops end) and binds the configured ones.
  std::optional<std::string> RebindTcp();
  // At startup, makes the open files limit fit maxclients (or maxclients fit the limit).
  void AdjustOpenFilesLimit();
  void StopOnLoop();
  // Closes the listening sockets (the next connection is refused); on the loop's thread.
  void CloseListeners();
  std::optional<std::string> BindTcp();
  std::optional<std::string> BindUnix();
  void Forget(Connection* conn);
  // CLIENT PAUSE: `conn` waits until the pause changes or ends.
  void Hold(Connection* conn);
  // `conn` got pushed frames while waiting: write them at the end of this loop turn.
  void ScheduleFlush(Connection* conn);
  // Arranges for the end-of-turn work (ServerState::RunAfterBatch, then the scheduled writes).
  void PostAfterBatch();
  // Writes what commands fed the AOF (and fsyncs it with appendfsync always): before any reply
  // goes out, as Redis's beforeSleep.
  void FlushAof();
  // AOF data waiting: a connection about to reply first lets the other ready connections run
  // their commands, so that one write (and with appendfsync always one fsync) covers them all
  // (group commit, as Redis's one write per event loop turn).
  bool AofGroupCommitPending() const;
  // After CLIENT PAUSE/UNPAUSE and when a pause ends: wakes every held connection, oldest first,
  // and sets pause_timer_ for the end of the pause still in force.
  void OnPauseChanged();
  // Sets block_timer_ for the earliest deadline of a client blocked on keys.
  void ArmBlockTimer();
  // Redis's securityWarningCommand: a client sent POST or Host: (an HTTP request).
  void WarnCrossProtocol();

  // One thread runs the loop, and sockets are only touched from it (other threads post to it):
  // Asio can skip the per-socket locks, two lock/unlock pairs per request.
  boost::asio::io_context io_{BOOST_ASIO_CONCURRENCY_HINT_UNSAFE_IO};
  std::shared_ptr<spdlog::logger> log_;
  SystemClock system_clock_;
  CommandRegistry registry_;
  ServerState state_;
  Dispatcher dispatcher_;
  ParserLimits parser_limits_;
  // The same limits for clients that must authenticate first (Redis's pre-auth limits).
  ParserLimits unauthenticated_parser_limits_;
  // When the cross-protocol warning was last logged (seconds), to log it at most once a minute.
  int64_t security_warning_logged_s_ = 0;
  std::vector<std::unique_ptr<boost::asio::ip::tcp::acceptor>> tcp_acceptors_;
  // Listeners closed by CONFIG SET port/bind, whose accept loops may still be unwinding.
  std::vector<std::unique_ptr<boost::asio::ip::tcp::acceptor>> retired_acceptors_;
  std::function<void()> announce_;
  ProcessConfigHook process_config_;
  std::unique_ptr<boost::asio::local::stream_protocol::acceptor> unix_acceptor_;
  boost::asio::steady_timer cron_timer_{io_};
  absl::flat_hash_set<Connection*> connections_;
  std::vector<Connection*> held_;           // in the order CLIENT PAUSE held them
  std::vector<Connection*> pending_flush_;  // waiting connections that got pushed frames
  bool after_batch_posted_ = false;
  boost::asio::steady_timer pause_timer_{io_};
  boost::asio::steady_timer block_timer_{io_};
  boost::asio::steady_timer lazy_free_timer_{io_};  // the next slice of lazy freeing
  uint64_t next_client_id_ = 1;
  bool stopping_ = false;
  std::thread thread_;
  BusyLoopNap loop_nap_;
};

}  // namespace kv
