#include "server/connection.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <chrono>
#include <exception>
#include <utility>

#include "server/auth.h"
#include "server/server.h"
#include "server/strings.h"

namespace kv {

namespace asio = boost::asio;

namespace {
// Replies gathered beyond this are written before more input is processed.
constexpr size_t kOutputHighWater = 256 * 1024;
// Replies waiting for a client to read them, beyond which its requests are no longer read or run.
// Redis buffers without limit for normal clients; this bounds the memory a client that never
// reads can take, while leaving room for pipelines written in full before any reply is read.
constexpr size_t kMaxPendingOutput = 16 * 1024 * 1024;
// Pending replies up to this size do not count against client-output-buffer-limit, as Redis does
// not count its clients' fixed 16 KB reply buffer (PROTO_REPLY_CHUNK_BYTES): tiny limits then
// behave as in Redis instead of closing a client on its first reply.
constexpr size_t kUncountedOutput = 16 * 1024;
// Each read asks for at least this much room, like Redis's PROTO_IOBUF_LEN.
constexpr size_t kReadChunk = 16 * 1024;
// Empty buffers up to this size are kept between batches: a client that pipelines needs them
// again at once, and regrowing one for every batch costs copies and big allocations. Buffers
// that grew past it for one big request or reply are released once empty.
constexpr size_t kKeepBufferCapacity = 2 * kOutputHighWater;
// A client idle this long gives its buffers back (the server's cron wakes it), as Redis's
// clientsCronResizeQueryBuffer does after 2 seconds.
constexpr int64_t kReleaseBuffersAfterMs = 2000;
// Redis's PROTO_RESIZE_THRESHOLD: an active client's input buffer over this size, and more than
// twice what it needed since the last cron tick, is shrunk.
constexpr size_t kQueryBufferResizeThreshold = 32 * 1024;

// One end of a TCP socket as Redis's anetFormatAddr writes it: "ip:port", "[ipv6]:port".
std::string FormatTcpAddress(int fd, bool peer) {
  sockaddr_storage sa{};
  socklen_t len = sizeof(sa);
  sockaddr* p = reinterpret_cast<sockaddr*>(&sa);
  if ((peer ? ::getpeername(fd, p, &len) : ::getsockname(fd, p, &len)) != 0) return "?:0";
  char ip[INET6_ADDRSTRLEN] = "?";
  int port = 0;
  if (sa.ss_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&sa);
    ::inet_ntop(AF_INET, &in->sin_addr, ip, sizeof(ip));
    port = ntohs(in->sin_port);
    return std::string(ip) + ":" + std::to_string(port);
  }
  if (sa.ss_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&sa);
    ::inet_ntop(AF_INET6, &in6->sin6_addr, ip, sizeof(ip));
    port = ntohs(in6->sin6_port);
    return "[" + std::string(ip) + "]:" + std::to_string(port);
  }
  return "?:0";
}
}  // namespace

Connection::Connection(Server* server, int fd, uint64_t id)
    : server_(server),
      fd_(fd),
      delay_timer_(server->io_),
      parser_(&server->parser_limits_),
      writer_(&out_) {
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  state_.id = id;
  state_.monitor_sink = this;
  state_.block_sink = this;
  state_.push_sink = this;
  // Redis's createClient: a client is born authenticated when no password is required.
  state_.authenticated = server->state_.config.requirepass.empty();
  UpdateParserLimits();
  state_.created_ms = server->state_.clock->NowMs();
  sockaddr_storage sa{};
  socklen_t len = sizeof(sa);
  state_.unix_socket =
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&sa), &len) == 0 && sa.ss_family == AF_UNIX;
  if (state_.unix_socket) {
    // Redis's genClientAddrString: both ends of a unix socket client are the socket's path.
    state_.addr = server->state_.config.unixsocket + ":0";
    laddr_ = state_.addr;
  } else {
    state_.addr = FormatTcpAddress(fd, true);
    laddr_ = FormatTcpAddress(fd, false);
  }
}

ClientInfo Connection::Describe() const {
  ClientInfo info;
  info.state = &state_;
  info.addr = state_.addr;
  info.laddr = laddr_;
  info.fd = closed_ ? -1 : fd_;
  info.unix_socket = state_.unix_socket;
  info.last_interaction_ms = last_interaction_ms_;
  info.qbuf = in_.size();
  info.qbuf_free = in_.capacity() - in_.size();
  info.rbs = out_.capacity();
  // As Redis's fixed 16 KB reply buffer and its reply list: what the output limits count.
  info.obl = std::min(out_.size(), UncountedOutput());
  info.omem = out_.size() - info.obl;
  info.oll = (info.omem + kUncountedOutput - 1) / kUncountedOutput;  // in 16 KB blocks
  info.tot_mem = sizeof(Connection) + in_.capacity() + out_.capacity() + state_.name.capacity();
  info.writing = !out_.empty();
  return info;
}

Connection::~Connection() { Close(); }

void Connection::Close() {
  if (closed_) return;
  closed_ = true;
  watch_.reset();  // before the close: it takes the socket out of the epoll set
  ::close(fd_);
  fd_ = -1;
  delay_timer_.cancel();
  Wake();
}

void Connection::Wake() {
  if (waiter_) {
    asio::post(server_->io_, std::move(waiter_));
  } else {
    wake_pending_ = true;
  }
}

asio::awaitable<void> Connection::WaitForWake() {
  if (std::exchange(wake_pending_, false)) co_return;
  co_await asio::async_initiate<decltype(asio::use_awaitable), void()>(
      [this](auto handler) {
        // (Boost 1.81's move assignment of any_completion_handler copies: swap instead.)
        asio::any_completion_handler<void()> waiter(std::move(handler));
        waiter_.swap(waiter);
      },
      asio::use_awaitable);
}

void Connection::ProbeInput() {
  if (!std::exchange(probe_input_, false) || closed_) return;
  readable_ = true;
  if (wait_read_) Wake();
}

bool Connection::SocketReadable() {
  readable_ = true;
  probe_input_ = false;
  return wait_read_ && waiter_;
}

bool Connection::SocketWritable() {
  writable_ = true;
  return wait_write_ && waiter_;
}

void Connection::SocketWake() {
  if (!waiter_) return;
  // Most reports find the loop idle for input and end in one request/reply exchange: served
  // here, the coroutine is neither resumed nor suspended again (that round trip cost more CPU
  // than the exchange's own user-space work).
  asio::any_completion_handler<void()> waiter;
  waiter.swap(waiter_);
  if (idle_read_) {
    // Holding the waiter keeps the coroutine, and with it this connection, alive while commands
    // run (a busy script serves other clients, which may close this one), and a Wake() meanwhile
    // leaves a note (wake_pending_), as it does while the loop runs.
    if (ServeIdleInput() && !wake_pending_ && !closed_) {
      waiter_.swap(waiter);  // parked again: the next report comes here too
      return;
    }
  }
  std::move(waiter)();  // the loop takes over (it may end, and free this connection)
}

bool Connection::ServeIdleInput() {
  try {
    while (readable_) {
      if (closed_ || state_.close_asap || held_ || state_.blocked || state_.close_after_reply ||
          peer_closed_ || delay_ms_ > 0 || release_buffers_ || shrink_input_) {
        return false;
      }
      switch (ReadInput()) {
        case ReadResult::kData:
          break;
        case ReadResult::kNothing:
          return !readable_;  // drained; or interrupted, and the loop reads again
        case ReadResult::kEof:
          peer_closed_ = true;  // nothing is pending: the loop ends the connection
          return false;
        case ReadResult::kFail:
          state_.close_asap = true;
          return false;
      }
      input_left_ = ProcessInput();
      // A command may have woken the loop (CLIENT KILL of itself, say): it takes over.
      if (wake_pending_ || closed_) return false;
      // The loop's other states (it writes the replies made so far first).
      if (state_.close_asap || held_ || state_.blocked || state_.close_after_reply ||
          delay_ms_ > 0) {
        return false;
      }
      if (!out_.empty() && server_->AofGroupCommitPending()) {
        // Replies that wait for the AOF's write: as Redis's beforeSleep, the end of the batch
        // writes the AOF once, then these replies (FlushPushed), and the coroutine sleeps on.
        // With appendfsync always the loop takes them instead: its extra turn gathers more
        // clients behind each fsync.
        if (input_left_ || server_->state_.config.appendfsync == 1) return false;
        if (!flush_scheduled_) {
          flush_scheduled_ = true;
          server_->ScheduleFlush(this);
        }
        continue;
      }
      if (!out_.empty() && !WriteOutput()) {
        state_.close_asap = true;
        return false;
      }
      // More commands to run after a batch of output, or the socket is full: for the loop.
      if (input_left_ || !out_.empty()) return false;
      in_.ShrinkIfEmpty(kKeepBufferCapacity);
      out_.ShrinkIfEmpty(kKeepBufferCapacity);
    }
    return true;
  } catch (const std::exception& e) {
    // As Run() does for the loop: this connection ends, the server goes on.
    if (server_->log_) {
      server_->log_->warn("Closing client id={} after an internal error: {}", state_.id, e.what());
    }
    Close();  // the loop, resumed, forgets the connection
    return false;
  }
}

void Connection::Resume() {
  resumed_ = true;
  Wake();
}

ReplyWriter& Connection::BlockedReply() {
  writer_.set_protocol(state_.protocol);
  return writer_;
}

void Connection::Unblocked() { Wake(); }

void Connection::ReleaseIdleBuffers(int64_t now_ms) {
  // Redis's clientsCronResizeQueryBuffer: a client still active whose input buffer is much
  // bigger than its recent needs (one big request, then small ones) gets a smaller one; the peak
  // starts again from what the buffer holds now.
  const bool oversized_input = in_.capacity() > kQueryBufferResizeThreshold &&
                               in_.capacity() / 2 > input_peak_ && in_.empty();
  input_peak_ = in_.size();
  if (closed_ || !idle_read_) return;
  if (in_.capacity() + out_.capacity() > 0 &&
      now_ms - last_interaction_ms_ >= kReleaseBuffersAfterMs) {
    release_buffers_ = true;
  } else if (oversized_input) {
    shrink_input_ = true;
  } else {
    return;
  }
  // The loop frees the buffers.
  idle_read_ = false;
  Wake();
}

void Connection::SendMonitorLine(std::string_view line) {
  if (closed_ || state_.close_asap) return;
  out_.Append(line);
  // Like any client (Redis's asyncCloseClientOnOutputBufferLimitReached), a monitor that does
  // not keep up is closed once its pending output passes the limit.
  if (CloseIfOverOutputLimit(kReadClock, /*from_cron=*/true)) return;
  if (idle_read_) {
    idle_read_ = false;
    Wake();
  } else if (held_ || blocked_wait_) {
    // Held by CLIENT PAUSE or blocked on keys (its wait is for that): write what the socket
    // takes now.
    WriteOutput();
  }
}

void Connection::Push(std::string_view frame) {
  if (closed_ || state_.close_asap) return;
  out_.Append(frame);
  // Its own command's pushes (a message it published to itself) go out with its replies, and
  // ProcessInput checks the limit after the command.
  if (processing_) return;
  if (CloseIfOverOutputLimit(kReadClock, /*from_cron=*/true)) return;
  // Waiting for input, or held: nothing would write the frames until the next request. (While
  // replies are pending, the loop already waits for the socket to take them.)
  if ((idle_read_ || held_ || blocked_wait_) && !flush_scheduled_) {
    flush_scheduled_ = true;
    server_->ScheduleFlush(this);
  }
}

void Connection::FlushPushed() {
  flush_scheduled_ = false;
  if (closed_ || state_.close_asap || out_.empty()) return;
  if (!WriteOutput()) {
    Close();
    return;
  }
  // Written out, the frames' buffer goes unless it is small, as Redis frees its reply list once
  // written and keeps only the 16 KB buffer: a client that only receives (a subscriber, a
  // tracking client) keeps nothing for a burst. Kept, ten tracking clients' buffers grown by the
  // invalidations of evicted keys counted as used memory, and eviction fed on itself until the
  // database was empty (unit/maxmemory).
  out_.ShrinkIfEmpty(kUncountedOutput);
  if (!out_.empty() && idle_read_) {
    // The socket did not take everything: the loop waits for it to be writable instead.
    idle_read_ = false;
    Wake();
  }
}

asio::awaitable<void> Connection::Run() {
  auto self = shared_from_this();
  try {
    co_await Serve();
  } catch (const std::exception& e) {
    // Whatever went wrong (an allocation failure for a huge value, say) ends this connection
    // only, and the server forgets it either way.
    if (server_->log_) {
      server_->log_->warn("Closing client id={} after an internal error: {}", state_.id, e.what());
    }
  }
  Close();
  server_->Forget(this);
}

asio::awaitable<void> Connection::Serve() {
  if (closed_) co_return;
  boost::system::error_code ec;
  watch_ = std::make_unique<SocketWatch>(server_->io_, fd_, this);
  if (!watch_->ok()) co_return;
  last_interaction_ms_ = server_->state_.clock->NowMs();
  while (!closed_) {
    // Run commands and write their replies until the input holds no complete command, or the
    // client has too many replies waiting.
    while (true) {
      if (input_left_ && !held_ && !state_.blocked && !state_.close_after_reply && delay_ms_ == 0 &&
          out_.size() < kMaxPendingOutput) {
        input_left_ = ProcessInput();
      }
      if (state_.close_asap) co_return;
      if (delay_ms_ > 0) {
        // An injected delay: this connection's replies wait on a timer; other clients go on.
        delay_timer_.expires_after(std::chrono::milliseconds(std::exchange(delay_ms_, 0)));
        co_await delay_timer_.async_wait(asio::redirect_error(asio::use_awaitable, ec));
        if (closed_) co_return;
      }
      // The replies wait for their writes to reach the AOF (on disk with appendfsync always),
      // and the other clients ready now join the same write (WriteOutput flushes it first). With
      // appendfsync always, a second turn round the loop lets the reactor add the clients whose
      // commands arrived meanwhile: one fsync then covers as many commands as Redis's, which
      // fsyncs after all that one epoll_wait returned (measured: 29 commands per fsync, not 19).
      for (int turns = server_->state_.config.appendfsync == 1 ? 2 : 1;
           turns > 0 && !out_.empty() && server_->AofGroupCommitPending(); --turns) {
        co_await asio::post(server_->io_.get_executor(), asio::use_awaitable);
        if (closed_) co_return;
      }
      if (!out_.empty() && !WriteOutput()) co_return;
      if (!input_left_ || held_ || state_.blocked || state_.close_after_reply ||
          out_.size() >= kMaxPendingOutput) {
        break;
      }
    }
    if (state_.blocked && out_.empty()) {
      // Blocked on keys: nothing more runs until the command is served, times out or is
      // unblocked, but the socket is still read, as Redis reads blocked clients, so that a client
      // that goes away is forgotten at once.
      blocked_wait_ = true;
      wait_read_ = true;
      if (!readable_) co_await WaitForWake();
      wait_read_ = false;
      blocked_wait_ = false;
      if (closed_) co_return;
      if (readable_) {
        switch (ReadInput()) {
          case ReadResult::kData:
            input_left_ = true;
            break;
          case ReadResult::kNothing:
            break;
          case ReadResult::kEof:
          case ReadResult::kFail:
            co_return;
        }
      }
      continue;
    }
    if (held_ && out_.empty()) {
      // Redis's blocked client: nothing more is read or run until the pause changes; the
      // server wakes held connections in the order they were held.
      resumed_ = false;
      server_->Hold(this);
      while (!closed_ && !resumed_) co_await WaitForWake();
      held_ = false;
      continue;
    }
    const bool draining = state_.close_after_reply || peer_closed_;
    if (draining && out_.empty()) co_return;
    const size_t keep = std::exchange(release_buffers_, false) ? 0 : kKeepBufferCapacity;
    if (std::exchange(shrink_input_, false) && in_.empty()) {
      // An active client keeps a buffer of one read, about what it needed lately (Redis resizes
      // to the recent peak, which counts the room of a read).
      in_ = IoBuffer(kReadChunk);
    }
    in_.ShrinkIfEmpty(keep);
    out_.ShrinkIfEmpty(keep);

    const bool want_read = !draining && !held_ && out_.size() < kMaxPendingOutput;
    const bool want_write = !out_.empty();
    if (!(want_read && readable_) && !(want_write && writable_)) {
      // Replies waiting while the client may still be sending: whichever comes first, so that a
      // client writing a whole pipeline before reading cannot deadlock against the server. Or
      // only input: then a monitor line, pushed frames or the cron's buffer release also wake
      // the loop, which looks at everything again.
      idle_read_ = want_read && !want_write;
      wait_read_ = want_read;
      wait_write_ = want_write;
      if (want_write) watch_->WatchWrites();
      co_await WaitForWake();
      idle_read_ = wait_read_ = wait_write_ = false;
      continue;
    }
    ReadResult read = want_read && readable_ ? ReadInput() : ReadResult::kNothing;
    switch (read) {
      case ReadResult::kData:
        input_left_ = true;
        break;
      case ReadResult::kNothing:
        break;
      case ReadResult::kEof:
        // The peer closed (or shut down its side of) the connection: the replies still waiting
        // are written, as far as it lets us, before the connection closes.
        peer_closed_ = true;
        break;
      case ReadResult::kFail:
        co_return;
    }
  }
}

Connection::ReadResult Connection::ReadInput() {
  ServerState& st = server_->state_;
  in_.PrepareWrite(kReadChunk);
  const size_t room = in_.WritableSize();
  const ssize_t n = ::recv(fd_, in_.data() + in_.size(), room, 0);
  if (n < 0) {
    if (errno == EINTR) return ReadResult::kNothing;
    if (errno != EAGAIN && errno != EWOULDBLOCK) return ReadResult::kFail;
    readable_ = probe_input_ = false;
    return ReadResult::kNothing;
  }
  if (n == 0) return ReadResult::kEof;
  // Less than the room: the socket is drained, and the watch reports the next input (Redis reads
  // once per event too), unless the peer's close came with this input (see ProbeInput).
  if (static_cast<size_t>(n) < room) readable_ = false;
  probe_input_ = !readable_;
  // Redis's querybuf_peak counts the room a read asks for as well as what it got.
  input_peak_ = std::max(input_peak_, in_.size() + std::max<size_t>(n, kReadChunk));
  in_.CommitWrite(n);
  ++st.stats.total_reads_processed;
  st.stats.total_net_input_bytes += n;
  last_interaction_ms_ = st.clock->NowMsCoarse();
  if (in_.size() > static_cast<size_t>(st.config.client_query_buffer_limit)) {
    if (server_->log_) {
      server_->log_->warn("Closing client id={} that reached max query buffer length ({} bytes)",
                          state_.id, in_.size());
    }
    return ReadResult::kFail;
  }
  return ReadResult::kData;
}

bool Connection::ProcessInput() {
  processing_ = true;
  WatchOutputLimit();
  const bool more = ProcessCommands();
  out_.Unwatch();
  processing_ = false;
  server_->loop_nap_.NoteActive(&nap_period_);
  return more;
}

void Connection::WatchOutputLimit(size_t incoming) {
  const ClientClass cls = state_.pubsub_mode ? ClientClass::kPubSub : ClientClass::kNormal;
  const OutputBufferLimit& limit =
      server_->state_.config.client_output_buffer_limit[static_cast<size_t>(cls)];
  // The next limit the output can reach: there WatchedSizeReached looks (a soft limit only starts
  // its clock, and the hard one is watched next).
  const size_t uncounted = UncountedOutput();
  const size_t next = out_.size() + incoming;
  size_t at = SIZE_MAX;
  if (limit.soft != 0 && uncounted + limit.soft >= next) at = uncounted + limit.soft;
  if (limit.hard != 0 && uncounted + limit.hard >= next) at = std::min(at, uncounted + limit.hard);
  if (at == SIZE_MAX) {
    out_.Unwatch();  // the check after the command decides
  } else {
    out_.Watch(at, this);
  }
}

void Connection::WatchedSizeReached(IoBuffer& buffer, size_t incoming) {
  if (state_.close_asap) {
    // Closing: what the command still writes is dropped, a write at a time.
    buffer.Clear();
    return;
  }
  if (CloseIfOverOutputLimit(processing_now_ms_, /*from_cron=*/false, incoming)) {
    buffer.Clear();
    buffer.Watch(0, this);  // every later write comes here and is dropped
    return;
  }
  WatchOutputLimit(incoming);
}

size_t Connection::UncountedOutput() const {
  return std::min(kUncountedOutput, state_.output_counted_from);
}

bool Connection::ProcessCommands() {
  ServerState& st = server_->state_;
  const int64_t now_ms = st.clock->NowMs();
  processing_now_ms_ = now_ms;
  // Stop after a batch of output, so that it is written before more is produced.
  const size_t stop_at = std::min(out_.size() + kOutputHighWater, kMaxPendingOutput);
  while (!in_.empty()) {
    size_t consumed = 0;
    RespParser::Status status = parser_.Parse(in_.view(), &consumed);
    if (status == RespParser::Status::kError) {
      // ErrorMessage() already carries Redis's "ERR" code; the '-' keeps the writer from adding
      // another one.
      // CLIENT REPLY OFF/SKIP silences this error too, as Redis's prepareClientToWrite does.
      const std::string error = "-" + parser_.ErrorMessage();
      if (!state_.reply_off && !state_.reply_skip) writer_.Error(error);
      // Counted even when silenced, as Redis's afterErrorReply.
      ++st.stats.total_error_replies;
      st.error_stats.Record(error);
      state_.close_after_reply = true;
      if (server_->log_) {
        server_->log_->debug("Protocol error ({}) from client id={}", parser_.ErrorMessage(),
                             state_.id);
      }
      return false;
    }
    if (status == RespParser::Status::kNeedMore) {
      in_.Consume(consumed);
      return false;
    }
    const std::string_view name = parser_.args()[0];
    if (EqualsIgnoreCase(name, "post") || EqualsIgnoreCase(name, "host:")) {
      // An HTTP request: someone is trying cross protocol scripting. Redis drops the client
      // without a reply.
      server_->WarnCrossProtocol();
      state_.close_asap = true;
      return false;
    }
    writer_.set_protocol(state_.protocol);
    // A fault a test armed (KVFAULT or the embedding API) may replace or delay this command.
    if ((!st.faults.armed() || TakeFault(parser_.args()[0])) &&
        !server_->dispatcher_.Dispatch(parser_.args(), state_, writer_, now_ms)) {
      // Held by CLIENT PAUSE: the command stays in the input, to run once the pause changes.
      held_ = true;
      return true;
    }
    // The arguments point into the input buffer: drop the command only after it ran.
    in_.Consume(consumed);
    // Blocked on keys (the controller keeps a copy of the command): no more commands run.
    if (state_.blocked) return !in_.empty();
    UpdateParserLimits();
    if (closed_ || state_.close_asap) return false;
    // The limits count nothing up to kUncountedOutput: the usual case skips the check.
    if (out_.size() <= kUncountedOutput && state_.output_counted_from == SIZE_MAX) {
      soft_limit_since_s_ = 0;
    } else {
      // A deferred-length reply that left nothing (dropped, or empty) counts no more.
      if (state_.output_counted_from >= out_.size()) state_.output_counted_from = SIZE_MAX;
      if (CloseIfOverOutputLimit(now_ms, /*from_cron=*/false)) return false;
    }
    if (state_.close_after_reply) return false;
    // After an injected delay, later commands wait too, so replies keep their order.
    if (out_.size() >= stop_at || delay_ms_ > 0) return !in_.empty();
  }
  return false;
}

bool Connection::TakeFault(std::string_view name) {
  ServerState& st = server_->state_;
  FaultInjector::Fault fault = st.faults.Take(name);
  switch (fault.kind) {
    case FaultInjector::Kind::kNone:
      return true;
    case FaultInjector::Kind::kDelay:
      delay_ms_ = fault.delay_ms;
      return true;
    case FaultInjector::Kind::kError:
      writer_.Error(fault.message);
      ++st.stats.total_error_replies;
      return false;
    case FaultInjector::Kind::kDrop:
      // Replies already made still go out; this command neither runs nor gets one.
      state_.close_after_reply = true;
      return false;
  }
  return true;
}

void Connection::UpdateParserLimits() {
  parser_.set_limits(AuthRequired(state_, server_->state_)
                         ? &server_->unauthenticated_parser_limits_
                         : &server_->parser_limits_);
}

bool Connection::CloseIfOverOutputLimit(int64_t now_ms, bool from_cron, size_t incoming) {
  if (closed_ || state_.close_asap || !OverOutputLimit(now_ms, incoming)) return false;
  if (now_ms == kReadClock) now_ms = server_->state_.clock->NowMs();
  if (server_->log_) {
    std::string client;
    AppendClientInfo(client, Describe(), state_, {}, now_ms);
    client.pop_back();  // the newline
    if (from_cron) {
      server_->log_->warn("Client {} closed for overcoming of output buffer limits.", client);
    } else {
      server_->log_->warn(
          "Client {} scheduled to be closed ASAP for overcoming of output buffer limits.", client);
    }
  }
  if (from_cron) {
    Close();
  } else {
    state_.close_asap = true;  // the loop ends after the command, dropping the replies
  }
  return true;
}

bool Connection::OverOutputLimit(int64_t now_ms, size_t incoming) {
  // Redis's getClientType: a client in pub/sub mode is limited as the pubsub class.
  const ClientClass cls = state_.pubsub_mode ? ClientClass::kPubSub : ClientClass::kNormal;
  const OutputBufferLimit& limit =
      server_->state_.config.client_output_buffer_limit[static_cast<size_t>(cls)];
  const size_t pending = out_.size() + incoming;
  const size_t uncounted = UncountedOutput();
  const uint64_t used = pending > uncounted ? pending - uncounted : 0;
  if (limit.hard != 0 && used >= limit.hard) return true;
  if (limit.soft == 0 || used < limit.soft) {
    soft_limit_since_s_ = 0;
    return false;
  }
  if (now_ms == kReadClock) now_ms = server_->state_.clock->NowMs();
  const int64_t now_s = now_ms / 1000;
  if (soft_limit_since_s_ == 0) {
    soft_limit_since_s_ = now_s;
    return false;
  }
  return now_s - soft_limit_since_s_ > limit.soft_seconds;
}

bool Connection::WriteOutput() {
  ServerState& st = server_->state_;
  // No reply leaves before the writes it acknowledges reached the AOF.
  server_->FlushAof();
  while (!out_.empty()) {
    // MSG_NOSIGNAL: an embedded server must not raise SIGPIPE in its host process.
    const ssize_t n = ::send(fd_, out_.data(), out_.size(), MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) return false;
      writable_ = false;
      return true;
    }
    // Less than asked: the socket is full, and the watch reports when it takes more.
    if (static_cast<size_t>(n) < out_.size()) writable_ = false;
    out_.Consume(n);
    if (state_.output_counted_from != SIZE_MAX) {
      // Written from the front: a deferred-length reply's start moves up, and is gone once all is
      // written.
      const size_t from = state_.output_counted_from;
      state_.output_counted_from = out_.empty()                    ? SIZE_MAX
                                   : from > static_cast<size_t>(n) ? from - n
                                                                   : 0;
    }
    ++st.stats.total_writes_processed;
    st.stats.total_net_output_bytes += n;
    // As in Redis's writeToClient, output counts as interaction: a client slowly reading a large
    // reply is busy, not idle, and the timeout must not cut the reply off.
    if (n > 0) last_interaction_ms_ = st.clock->NowMsCoarse();
  }
  return true;
}

}  // namespace kv
