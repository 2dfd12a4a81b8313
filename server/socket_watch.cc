#include "server/socket_watch.h"

#include <boost/asio/detail/epoll_reactor.hpp>
#include <boost/asio/detail/reactor.hpp>
#include <boost/version.hpp>
#include <type_traits>

namespace kv {

namespace asio = boost::asio;
using Reactor = asio::detail::epoll_reactor;
static_assert(std::is_same_v<asio::detail::reactor, Reactor>,
              "SocketWatch needs Asio's epoll reactor");
static_assert(BOOST_VERSION / 100 == 1081,
              "SocketWatch is written against Boost 1.81's reactor internals: check them");

// An operation that never completes: each time the reactor performs it (an epoll event for its
// direction), it tells the listener and stays queued. The reactor completes it only when the
// descriptor is deregistered (or the loop is destroyed), which frees it.
struct SocketWatch::Op : asio::detail::reactor_op {
  Op(SocketReadyListener* l, bool write)
      : reactor_op(boost::system::error_code(), &Perform, &Complete), listener(l), write(write) {}

  static status Perform(reactor_op* base) {
    auto* op = static_cast<Op*>(base);
    if (op->listener != nullptr) {
      if (op->write) {
        op->listener->SocketWritable();
      } else {
        op->listener->SocketReadable();
      }
    }
    return not_done;
  }
  static void Complete(void*, asio::detail::scheduler_operation* base,
                       const boost::system::error_code&, std::size_t) {
    delete static_cast<Op*>(base);
  }

  SocketReadyListener* listener;
  bool write;
};

SocketWatch::SocketWatch(asio::io_context& io, int fd, SocketReadyListener* listener)
    : reactor_(&asio::use_service<Reactor>(io)), fd_(fd) {
  auto& reactor = *static_cast<Reactor*>(reactor_);
  Reactor::per_descriptor_data data = nullptr;
  if (reactor.register_descriptor(fd, data) != 0) return;
  descriptor_data_ = data;
  // Started as speculative operations: Perform runs once at once (the listener assumes the
  // socket ready anyway), and no epoll_ctl re-arms the descriptor beyond adding EPOLLOUT.
  ops_[0] = new Op(listener, false);
  ops_[1] = new Op(listener, true);
  reactor.start_op(Reactor::read_op, fd, data, ops_[0], false, true);
  reactor.start_op(Reactor::write_op, fd, data, ops_[1], false, true);
  ok_ = true;
}

SocketWatch::~SocketWatch() {
  if (descriptor_data_ == nullptr) return;
  for (Op* op : ops_) {
    if (op != nullptr) op->listener = nullptr;
  }
  auto& reactor = *static_cast<Reactor*>(reactor_);
  auto data = static_cast<Reactor::per_descriptor_data>(descriptor_data_);
  // closing=false: the socket is removed from the epoll set now, even if a forked child (a
  // BGSAVE) still holds it open.
  reactor.deregister_descriptor(fd_, data, false);
  reactor.cleanup_descriptor_data(data);
}

}  // namespace kv
