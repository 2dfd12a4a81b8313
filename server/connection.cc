#include "server/connection.h"

#include <spdlog/spdlog.h>

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include "server/server.h"

namespace kv {

namespace asio = boost::asio;

namespace {
// Replies gathered beyond this are written before more input is processed.
constexpr size_t kOutputHighWater = 256 * 1024;
// Each read asks for at least this much room, like Redis's PROTO_IOBUF_LEN.
constexpr size_t kReadChunk = 16 * 1024;
// Buffers that grew past this for one big request or reply are released once empty.
constexpr size_t kKeepBufferCapacity = 64 * 1024;
}  // namespace

Connection::Connection(Server* server, Socket socket, uint64_t id)
    : server_(server),
      socket_(std::move(socket)),
      parser_(&server->parser_limits_),
      writer_(&out_) {
  state_.id = id;
}

void Connection::Close() {
  if (closed_) return;
  closed_ = true;
  boost::system::error_code ignored;
  socket_.close(ignored);
}

asio::awaitable<void> Connection::Run() {
  auto self = shared_from_this();
  ServerState& st = server_->state_;
  boost::system::error_code ec;
  socket_.non_blocking(true, ec);
  last_interaction_ms_ = st.clock->NowMs();
  bool input_pending = false;
  while (!closed_) {
    if (!input_pending) {
      co_await socket_.async_wait(Socket::wait_read, asio::redirect_error(asio::use_awaitable, ec));
      if (ec || closed_) break;
      in_.PrepareWrite(kReadChunk);
      const size_t n =
          socket_.read_some(asio::buffer(in_.data() + in_.size(), in_.WritableSize()), ec);
      if (ec == asio::error::would_block || ec == asio::error::try_again) continue;
      if (ec || n == 0) break;  // error or orderly close by the peer
      in_.CommitWrite(n);
      st.stats.total_net_input_bytes += n;
      last_interaction_ms_ = st.clock->NowMs();
      if (in_.size() > static_cast<size_t>(st.config.client_query_buffer_limit)) {
        if (server_->log_) {
          server_->log_->warn(
              "Closing client id={} that reached max query buffer length ({} bytes)", state_.id,
              in_.size());
        }
        break;
      }
    }
    input_pending = ProcessInput();
    if (!out_.empty() && !co_await Flush()) break;
    if (state_.close_after_reply) break;
    in_.ShrinkIfEmpty(kKeepBufferCapacity);
    out_.ShrinkIfEmpty(kKeepBufferCapacity);
  }
  Close();
  server_->Forget(this);
}

bool Connection::ProcessInput() {
  ServerState& st = server_->state_;
  const int64_t now_ms = st.clock->NowMs();
  while (!in_.empty()) {
    size_t consumed = 0;
    RespParser::Status status = parser_.Parse(in_.view(), &consumed);
    if (status == RespParser::Status::kError) {
      // ErrorMessage() already carries Redis's "ERR" code; the '-' keeps the writer from adding
      // another one.
      writer_.Error("-" + parser_.ErrorMessage());
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
    writer_.set_protocol(state_.protocol);
    server_->dispatcher_.Dispatch(parser_.args(), state_, writer_, now_ms);
    // The arguments point into the input buffer: drop the command only after it ran.
    in_.Consume(consumed);
    if (state_.close_after_reply) return false;
    if (out_.size() >= kOutputHighWater) return !in_.empty();
  }
  return false;
}

asio::awaitable<bool> Connection::Flush() {
  ServerState& st = server_->state_;
  boost::system::error_code ec;
  while (!out_.empty()) {
    const size_t n = socket_.write_some(asio::buffer(out_.data(), out_.size()), ec);
    if (ec == asio::error::would_block || ec == asio::error::try_again) {
      co_await socket_.async_wait(Socket::wait_write,
                                  asio::redirect_error(asio::use_awaitable, ec));
      if (ec || closed_) co_return false;
      continue;
    }
    if (ec) co_return false;
    out_.Consume(n);
    st.stats.total_net_output_bytes += n;
    // As in Redis's writeToClient, output counts as interaction: a client slowly reading a large
    // reply is busy, not idle, and the timeout must not cut the reply off.
    if (n > 0) last_interaction_ms_ = st.clock->NowMs();
  }
  co_return true;
}

}  // namespace kv
