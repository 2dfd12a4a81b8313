#pragma once

#include <boost/asio/io_context.hpp>

namespace kv {

// Told by a SocketWatch when its socket may be read or written.
class SocketReadyListener {
 public:
  // From inside the reactor's handling of an epoll event: records the readiness. True asks for
  // SocketWake once the reactor is done with the descriptor (the listener waits for this).
  virtual bool SocketReadable() = 0;
  virtual bool SocketWritable() = 0;
  // Resumes the listener's waiter, inline, as Asio completes its own operations.
  virtual void SocketWake() = 0;

 protected:
  ~SocketReadyListener() = default;
};

// Watches a socket for readiness through the loop's own epoll, as Redis's event loop does: one
// registration for the socket's life (edge-triggered, for input and output), then no system call
// but the epoll_wait the loop makes anyway. Asio's socket operations cost one more system call
// per request: every async read first tries a speculative recv, which after a request/reply
// exchange finds nothing, and every readiness wait re-arms the descriptor with an epoll_ctl.
//
// This reaches into Asio's reactor (boost::asio::detail): the watch is an operation queued on the
// descriptor that reports each event and completes only when the listener waits for it, then
// queues itself again (no system call: Asio re-arms nothing for a speculative operation). It is
// written against Debian's Boost 1.81 epoll reactor; the build stops on another version.
class SocketWatch {
 public:
  SocketWatch(boost::asio::io_context& io, int fd, SocketReadyListener* listener);
  // Stops the reports and removes the socket from the epoll set; the caller closes the socket.
  ~SocketWatch();
  SocketWatch(const SocketWatch&) = delete;
  SocketWatch& operator=(const SocketWatch&) = delete;

  // False when the socket could not be registered (the listener then hears nothing).
  bool ok() const { return ok_; }
  // Starts reporting writability too, from the first time the listener waits for it: EPOLLOUT
  // registered from the start would put every new socket on epoll's ready list (it is writable),
  // where its first input would then keep that earlier place, ahead of other clients' input that
  // came before it.
  void WatchWrites();

 private:
  struct Op;
  void Queue(Op* op);
  void* reactor_;                    // boost::asio::detail::epoll_reactor
  void* descriptor_data_ = nullptr;  // its per-descriptor state
  int fd_;
  Op* ops_[2] = {nullptr, nullptr};  // read and write; owned by the reactor once queued
  bool ok_ = false;
  bool write_queued_ = false;
};

}  // namespace kv
