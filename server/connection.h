#pragma once

#include <boost/asio/any_completion_handler.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "protocol/io_buffer.h"
#include "protocol/reply_writer.h"
#include "protocol/resp_parser.h"
#include "server/blocking.h"
#include "server/client_registry.h"
#include "server/conn_state.h"
#include "server/monitor.h"
#include "server/socket_watch.h"

namespace kv {

class Server;

// One client connection. Its loop, like Redis's event handlers: wait until the socket is
// readable (a SocketWatch reports it from the loop's epoll), read what is there, run every
// complete command in the input and write the replies, repeat. When the socket does not take all
// the replies at once, the loop waits for it to be readable or writable, whichever comes first:
// clients that send a whole pipeline before reading any reply must not deadlock against a server
// that waits for them to read. Only once kMaxPendingOutput bytes of replies wait does reading
// pause, so a client that never reads cannot make the server buffer without bound; a client whose
// replies still pass its client-output-buffer-limit (one command with a huge reply) is
// disconnected.
class Connection : public std::enable_shared_from_this<Connection>,
                   public MonitorSink,
                   public BlockedClientSink,
                   public PushSink,
                   public SocketReadyListener,
                   public IoBufferWatcher {
 public:
  // Takes ownership of the connected socket `fd`.
  Connection(Server* server, int fd, uint64_t id);
  ~Connection();

  boost::asio::awaitable<void> Run();
  // Closes the socket; the loop notices and ends. Safe to call more than once.
  void Close();
  // Wakes a connection whose command CLIENT PAUSE holds: it runs the command again (or is held
  // again if the pause still covers it).
  void Resume();
  // From the server's cron: a client that has waited for input for a while gives back its
  // buffers, so idle clients cost no buffer memory; an active client whose input buffer grew for
  // one big request gets a smaller one.
  void ReleaseIdleBuffers(int64_t now_ms);
  // From the server's cron: a client whose last read was short is read once more. With
  // edge-triggered readiness a close that came in with the last request brings no new report, so
  // this is how a client that sent its requests and then shut down its side is seen to be gone
  // (within a cron period) without a second recv after every request.
  void ProbeInput();
  // MONITOR: queues `line` like a reply and wakes the connection to write it; over
  // client-output-buffer-limit it closes the connection.
  void SendMonitorLine(std::string_view line) override;
  // PushSink: pub/sub messages, notifications and invalidations, queued like replies. A connection
  // waiting for input gets them written at the end of the loop turn (FlushPushed), one write for
  // all the frames of the turn; over client-output-buffer-limit it is closed.
  void Push(std::string_view frame) override;
  size_t OutputSize() const override { return out_.size(); }
  // At the end of the loop turn: writes the pushed frames, and the replies that waited for the
  // turn's AOF write, as far as the socket takes them; the rest waits for writability.
  void FlushPushed();
  bool flush_scheduled() const { return flush_scheduled_; }
  // BlockedClientSink: a command blocked on keys replies through the connection's writer, then
  // wakes the connection.
  ReplyWriter& BlockedReply() override;
  void Unblocked() override;

  const ConnState& state() const { return state_; }
  ConnState& mutable_state() { return state_; }
  bool closed() const { return closed_; }
  // What CLIENT LIST shows about this connection.
  ClientInfo Describe() const;
  int64_t last_interaction_ms() const { return last_interaction_ms_; }
  bool held() const { return held_; }
  // Redis's closeClientOnOutputBufferLimitReached: when the pending replies are over the
  // client-output-buffer-limit, logs it and closes the connection (at once from the server's
  // cron, after the running command otherwise). `incoming`: bytes about to be added. True when
  // it did. `now_ms` kReadClock: the clock is read only if needed (past the soft limit), since
  // a publish to many subscribers checks every one of them.
  static constexpr int64_t kReadClock = -1;
  bool CloseIfOverOutputLimit(int64_t now_ms, bool from_cron, size_t incoming = 0);

 private:
  // Returns when the connection should close.
  boost::asio::awaitable<void> Serve();
  // Runs the complete commands at the front of the input. Returns true when it stopped early
  // because enough output was produced, with complete commands possibly left in the input.
  bool ProcessInput();
  bool ProcessCommands();
  enum class ReadResult {
    kData,     // bytes arrived
    kNothing,  // a spurious wakeup
    kEof,      // the peer will send no more
    kFail,     // a read error or the query buffer limit: close at once
  };
  // Reads what the socket has without blocking.
  ReadResult ReadInput();
  // SocketReadyListener: the watch's reports, which wake the loop when it waits for them.
  bool SocketReadable() override;
  bool SocketWritable() override;
  void SocketWake() override;
  // The usual exchange, done in the watch's report instead of resuming the loop: a client idle
  // for input sent requests, whose replies the socket takes at once. True when it was served
  // that way; false leaves the rest to the loop. Called with the loop's waiter held aside.
  bool ServeIdleInput();
  // Ends the loop's wait (or the next one, if it is not waiting): it then looks at everything
  // again.
  void Wake();
  boost::asio::awaitable<void> WaitForWake();
  // Applies the armed fault, if any, for the command `name`; false when the command must not
  // run (an error reply was made, or the connection is to be dropped).
  bool TakeFault(std::string_view name);
  // Writes as much pending output as the socket takes without blocking; false on an error.
  bool WriteOutput();
  // Redis's checkClientOutputBufferLimits: true when the pending replies, with `incoming` more
  // bytes, reached the hard limit, or stayed at the soft limit for longer than its seconds.
  bool OverOutputLimit(int64_t now_ms, size_t incoming = 0);
  // The front of the pending output the limits do not count (Redis's fixed reply buffer).
  size_t UncountedOutput() const;
  // While the client's own commands run, the output is watched at the size where a limit would
  // be reached, so that a reply is stopped as it passes the limit, as Redis checks on each block
  // added to its reply list, and not once it is complete in memory.
  void WatchOutputLimit(size_t incoming = 0);
  void WatchedSizeReached(IoBuffer& buffer, size_t incoming) override;
  // Points the parser at the limits for this client's authentication state.
  void UpdateParserLimits();

  Server* server_;
  int fd_;  // -1 once closed
  std::unique_ptr<SocketWatch> watch_;
  // Edge-triggered readiness: set by the watch's reports, cleared when a read or write finds the
  // socket drained or full (the next change then comes as a report). Not readable at first: a
  // client that has sent nothing gets no input buffer (the registration reports what is there).
  bool readable_ = false;
  bool writable_ = true;
  bool probe_input_ = false;  // the last read was short: see ProbeInput
  // What the loop's current wait is for: other reports do not wake it.
  bool wait_read_ = false;
  bool wait_write_ = false;
  // The loop's wait: Wake() or the watch resumes it.
  boost::asio::any_completion_handler<void()> waiter_;
  bool wake_pending_ = false;
  boost::asio::steady_timer delay_timer_;  // an injected reply delay
  int64_t delay_ms_ = 0;                   // set by ProcessInput for an injected delay
  ConnState state_;
  IoBuffer in_;
  IoBuffer out_;
  RespParser parser_;
  ReplyWriter writer_;
  int64_t last_interaction_ms_ = 0;
  // The local end of the socket as CLIENT LIST prints it, found once at accept time (the peer's
  // is in state_).
  std::string laddr_;
  bool closed_ = false;
  bool peer_closed_ = false;  // the peer sent EOF: no more input will come
  // CLIENT PAUSE holds the command at the front of the input; the connection waits until
  // Resume() (or Close()).
  bool held_ = false;
  bool resumed_ = false;
  // Blocked on keys with no replies pending: waiting until Unblocked(), and for input (to notice
  // a client that goes away).
  bool blocked_wait_ = false;
  // Waiting for input with no replies pending: a monitor line wakes it so that the line is
  // written, and ReleaseIdleBuffers so that the buffers are freed.
  bool idle_read_ = false;
  // The input may hold complete commands that have not run yet.
  bool input_left_ = false;
  bool release_buffers_ = false;
  // Set by the cron for an input buffer much bigger than the client's recent needs: the loop
  // frees it once it is empty. input_peak_ is those needs since the cron's last look.
  bool shrink_input_ = false;
  size_t input_peak_ = 0;
  // Running its own commands (ProcessInput): frames pushed meanwhile go out with its replies.
  bool processing_ = false;
  uint64_t nap_period_ = 0;  // BusyLoopNap's mark: this connection ran commands in that period
  int64_t processing_now_ms_ = 0;  // the time those commands run at
  // In the server's list of connections to write at the end of the loop turn.
  bool flush_scheduled_ = false;
  // When the pending replies reached the soft output limit (seconds), 0 while below it.
  int64_t soft_limit_since_s_ = 0;
};

}  // namespace kv
