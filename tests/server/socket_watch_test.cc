#include "server/socket_watch.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <string>
#include <vector>

namespace kv {
namespace {

// Records what the watch reports; asks for a wake while `waiting` is set.
class RecordingListener : public SocketReadyListener {
 public:
  bool SocketReadable() override {
    events.push_back("readable");
    return waiting;
  }
  bool SocketWritable() override {
    events.push_back("writable");
    return false;
  }
  void SocketWake() override {
    events.push_back("wake");
    waiting = false;
  }

  bool waiting = false;
  std::vector<std::string> events;
};

class SocketWatchTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds_), 0); }
  void TearDown() override {
    ::close(fds_[0]);
    ::close(fds_[1]);
  }
  void Send() { ASSERT_EQ(::write(fds_[1], "x", 1), 1); }
  int Count(const std::string& what) const {
    return static_cast<int>(std::count(listener_.events.begin(), listener_.events.end(), what));
  }

  boost::asio::io_context io_{BOOST_ASIO_CONCURRENCY_HINT_UNSAFE_IO};
  int fds_[2];
  RecordingListener listener_;
};

TEST_F(SocketWatchTest, ReportsInputAndWakesOnlyAWaitingListener) {
  SocketWatch watch(io_, fds_[0], &listener_);
  ASSERT_TRUE(watch.ok());
  listener_.events.clear();

  Send();
  io_.poll();
  EXPECT_EQ(Count("readable"), 1);
  EXPECT_EQ(Count("wake"), 0);  // not waiting: the report only records readiness

  // Edge-triggered: the next report comes with the next input, and this time wakes.
  listener_.waiting = true;
  Send();
  io_.poll();
  EXPECT_EQ(Count("readable"), 2);
  EXPECT_EQ(Count("wake"), 1);

  // The watch queued itself again: more input is reported.
  Send();
  io_.poll();
  EXPECT_EQ(Count("readable"), 3);
  EXPECT_EQ(Count("wake"), 1);
}

TEST_F(SocketWatchTest, InputAlreadyThereIsReportedAtRegistration) {
  Send();
  SocketWatch watch(io_, fds_[0], &listener_);
  listener_.events.clear();
  io_.poll();
  EXPECT_EQ(Count("readable"), 1);
}

TEST_F(SocketWatchTest, ReportsWritabilityWhenTheSocketTakesMoreAgain) {
  SocketWatch watch(io_, fds_[0], &listener_);
  io_.poll();
  EXPECT_EQ(Count("writable"), 0);  // not watched until asked for
  watch.WatchWrites();
  // Fill the socket until it takes nothing more.
  const std::string chunk(4096, 'y');
  while (::send(fds_[0], chunk.data(), chunk.size(), MSG_DONTWAIT) > 0) {
  }
  listener_.events.clear();
  io_.poll();
  EXPECT_EQ(Count("writable"), 0);
  // The peer reads everything: the socket is writable again, and the watch says so.
  std::string sink(1 << 20, '\0');
  while (::recv(fds_[1], sink.data(), sink.size(), MSG_DONTWAIT) > 0) {
  }
  io_.poll();
  EXPECT_GE(Count("writable"), 1);
}

TEST_F(SocketWatchTest, AfterTheWatchIsGoneTheLoopEndsAndHearsNothing) {
  {
    SocketWatch watch(io_, fds_[0], &listener_);
    listener_.waiting = true;
  }
  listener_.events.clear();
  Send();
  // run() returns: the watch's operations completed (and were freed) at deregistration, so no
  // work is left.
  io_.run();
  EXPECT_TRUE(listener_.events.empty());
}

TEST_F(SocketWatchTest, ABadDescriptorIsRefused) {
  SocketWatch watch(io_, -1, &listener_);
  EXPECT_FALSE(watch.ok());
  io_.run();
}

}  // namespace
}  // namespace kv
