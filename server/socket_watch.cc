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

// An operation that stays queued for one direction of the socket. Performed on each epoll event
// for it, it tells the listener and completes only when the listener waits for the event; its
// completion queues it again and wakes the listener. Deregistration (or the loop's destruction)
// completes it for good, which frees it.
struct SocketWatch::Op : asio::detail::reactor_op {
  Op(SocketWatch* w, SocketReadyListener* l, int type)
      : reactor_op(boost::system::error_code(), &Perform, &Complete),
        watch(w),
        listener(l),
        type(type) {}

  static status Perform(reactor_op* base) {
    auto* op = static_cast<Op*>(base);
    if (op->queueing || op->listener == nullptr) return not_done;
    const bool wake = op->type == Reactor::write_op ? op->listener->SocketWritable()
                                                    : op->listener->SocketReadable();
    return wake ? done : not_done;
  }

  static void Complete(void* owner, asio::detail::scheduler_operation* base,
                       const boost::system::error_code&, std::size_t) {
    auto* op = static_cast<Op*>(base);
    if (owner == nullptr || op->listener == nullptr || op->ec_) {
      delete op;  // deregistered, or the loop is being destroyed
      return;
    }
    SocketReadyListener* listener = op->listener;
    op->watch->Queue(op);  // first: the woken listener may wait again, or close the socket
    listener->SocketWake();
  }

  SocketWatch* watch;
  SocketReadyListener* listener;
  int type;
  bool queueing = false;
};

void SocketWatch::Queue(Op* op) {
  auto& reactor = *static_cast<Reactor*>(reactor_);
  auto data = static_cast<Reactor::per_descriptor_data>(descriptor_data_);
  // Speculative: the reactor performs the operation at once (Perform ignores that call) instead
  // of re-arming the descriptor with an epoll_ctl.
  op->queueing = true;
  reactor.start_op(op->type, fd_, data, op, true, true);
  op->queueing = false;
}

SocketWatch::SocketWatch(asio::io_context& io, int fd, SocketReadyListener* listener)
    : reactor_(&asio::use_service<Reactor>(io)), fd_(fd) {
  auto& reactor = *static_cast<Reactor*>(reactor_);
  reactor.init_task();  // the loop runs the reactor (Asio's own sockets and timers do this too)
  Reactor::per_descriptor_data data = nullptr;
  if (reactor.register_descriptor(fd, data) != 0) {
    reactor.cleanup_descriptor_data(data);
    return;
  }
  descriptor_data_ = data;
  ops_[0] = new Op(this, listener, Reactor::read_op);
  ops_[1] = new Op(this, listener, Reactor::write_op);
  Queue(ops_[0]);
  ok_ = true;
}

void SocketWatch::WatchWrites() {
  if (!ok_ || write_queued_) return;
  write_queued_ = true;
  Queue(ops_[1]);  // adds EPOLLOUT to the registration: one epoll_ctl, once
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
  if (!write_queued_) delete ops_[1];  // never handed to the reactor
}

}  // namespace kv
