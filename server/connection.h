#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/generic/stream_protocol.hpp>
#include <cstdint>
#include <memory>

#include "protocol/io_buffer.h"
#include "protocol/reply_writer.h"
#include "protocol/resp_parser.h"
#include "server/conn_state.h"

namespace kv {

class Server;

// One client connection. Its loop, like Redis's event handlers: wait until the socket is
// readable, read what is there, run every complete command in the input, write all replies in
// one go, repeat. Reading pauses while replies wait to be written, so a client that does not read
// cannot make the server buffer without bound.
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  using Socket = boost::asio::generic::stream_protocol::socket;

  Connection(Server* server, Socket socket, uint64_t id);

  boost::asio::awaitable<void> Run();
  // Closes the socket; the loop notices and ends. Safe to call more than once.
  void Close();

  const ConnState& state() const { return state_; }
  int64_t last_interaction_ms() const { return last_interaction_ms_; }

 private:
  // Runs the complete commands at the front of the input. Returns true when it stopped early
  // because enough output is waiting, with complete commands possibly left in the input.
  bool ProcessInput();
  // Writes all pending output; false when the connection is gone.
  boost::asio::awaitable<bool> Flush();

  Server* server_;
  Socket socket_;
  ConnState state_;
  IoBuffer in_;
  IoBuffer out_;
  RespParser parser_;
  ReplyWriter writer_;
  int64_t last_interaction_ms_ = 0;
  bool closed_ = false;
};

}  // namespace kv
