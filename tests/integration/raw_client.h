#pragma once

// A raw loopback socket for integration tests that need exact bytes on the wire: pipelines in
// one write, partial commands, protocol errors, and whether the server closed the connection.
// Every wait is bounded by a deadline.

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <thread>

#include "tests/support/server_process.h"

namespace kv::test {

class RawClient {
 public:
  using Clock = std::chrono::steady_clock;

  RawClient() = default;
  explicit RawClient(int port) { ConnectTcp(port); }
  ~RawClient() { Close(); }
  RawClient(const RawClient&) = delete;
  RawClient& operator=(const RawClient&) = delete;
  RawClient(RawClient&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }

  // `receive_buffer` > 0 sets SO_RCVBUF before connecting, which caps the TCP window: a client
  // that reads slowly then really holds the server back.
  bool ConnectTcp(int port, int receive_buffer = 0) {
    Close();
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd_ < 0) return false;
    if (receive_buffer > 0) {
      ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof(receive_buffer));
    }
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
      Close();
      return false;
    }
    int one = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    SetNonBlocking();
    return true;
  }

  // Takes over a connected socket made elsewhere (in another network namespace, say).
  void Adopt(int fd) {
    Close();
    fd_ = fd;
    SetNonBlocking();
  }

  bool ok() const { return fd_ >= 0; }
  int fd() const { return fd_; }

  // Half-closes the connection: the peer reads EOF, and this side can still read.
  void ShutdownWrite() { ::shutdown(fd_, SHUT_WR); }

  void Close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

  // Sends all of `data`, waiting for room as needed. False on error or timeout.
  bool SendAll(std::string_view data, int timeout_ms = 10000) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    while (!data.empty()) {
      const ssize_t n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
      if (n > 0) {
        data.remove_prefix(static_cast<size_t>(n));
        continue;
      }
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        if (!WaitFor(POLLOUT, deadline)) return false;
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      return false;
    }
    return true;
  }

  // One send() of as much of `data` as the socket takes now: bytes sent, or -1 on error
  // (0 when the socket is full).
  ssize_t SendSome(std::string_view data) {
    const ssize_t n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return 0;
    return n;
  }

  // Reads until `n` bytes arrived, the peer closed, or the timeout passed.
  std::string Read(size_t n, int timeout_ms = 10000) {
    std::string out;
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    while (out.size() < n && ReadOnce(&out, n - out.size(), deadline) > 0) {
    }
    return out;
  }

  // Sends `request` and reads `reply_len` bytes, interleaving both so that neither side can
  // block the other however large the request and the replies are.
  std::string Exchange(std::string_view request, size_t reply_len, int timeout_ms = 20000) {
    std::string out;
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    while (out.size() < reply_len && Clock::now() < deadline) {
      pollfd p{fd_, static_cast<short>(POLLIN | (request.empty() ? 0 : POLLOUT)), 0};
      const int left = RemainingMs(deadline);
      if (::poll(&p, 1, left) <= 0) break;
      if (!request.empty() && (p.revents & POLLOUT)) {
        const ssize_t n = SendSome(request);
        if (n < 0) break;
        request.remove_prefix(static_cast<size_t>(n));
      }
      if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
        char buf[65536];
        const ssize_t n = ::recv(fd_, buf, std::min(sizeof(buf), reply_len - out.size()), 0);
        if (n == 0) break;
        if (n < 0) {
          if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) continue;
          break;
        }
        out.append(buf, static_cast<size_t>(n));
      }
    }
    return out;
  }

  // Reads until the peer closes the connection (EOF or reset) or the timeout passes. Returns
  // the bytes read; `*closed` says whether the connection was closed.
  std::string ReadUntilClosed(int timeout_ms, bool* closed) {
    std::string out;
    *closed = false;
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    while (true) {
      const ssize_t r = ReadOnce(&out, 65536, deadline);
      if (r == 0 || r == -1) {
        *closed = true;
        return out;
      }
      if (r == -2) return out;  // timeout
    }
  }

  // True when no byte arrives and the connection stays open for `ms` milliseconds.
  bool QuietFor(int ms) {
    std::string out;
    const auto deadline = Clock::now() + std::chrono::milliseconds(ms);
    return ReadOnce(&out, 1, deadline) == -2;
  }

 private:
  static int RemainingMs(Clock::time_point deadline) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left < 0 ? 0 : static_cast<int>(left);
  }

  bool WaitFor(short events, Clock::time_point deadline) {
    pollfd p{fd_, events, 0};
    return ::poll(&p, 1, RemainingMs(deadline)) > 0;
  }

  // Appends at most `max` bytes: the count read, 0 on EOF, -1 on error, -2 on timeout.
  ssize_t ReadOnce(std::string* out, size_t max, Clock::time_point deadline) {
    while (true) {
      char buf[65536];
      const ssize_t n = ::recv(fd_, buf, std::min(sizeof(buf), max), 0);
      if (n > 0) {
        out->append(buf, static_cast<size_t>(n));
        return n;
      }
      if (n == 0) return 0;
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) return -1;
      if (Clock::now() >= deadline || !WaitFor(POLLIN, deadline)) return -2;
    }
  }

  void SetNonBlocking() { ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) | O_NONBLOCK); }

  int fd_ = -1;
};

// The RESP encoding of a command, as clients send it.
inline std::string Resp(std::initializer_list<std::string_view> args) {
  std::string out = "*" + std::to_string(args.size()) + "\r\n";
  for (std::string_view a : args) {
    out += "$" + std::to_string(a.size()) + "\r\n";
    out += a;
    out += "\r\n";
  }
  return out;
}

inline std::string BulkReply(std::string_view s) {
  return "$" + std::to_string(s.size()) + "\r\n" + std::string(s) + "\r\n";
}

// redisCommand returning an owned reply (null when the connection failed or closed).
inline Reply Command(redisContext* c, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  void* r = redisvCommand(c, format, ap);
  va_end(ap);
  return Reply(static_cast<redisReply*>(r));
}

inline std::string Str(const Reply& r) {
  if (!r) return "<null>";
  if (r->str == nullptr) return "<type " + std::to_string(r->type) + ">";
  return std::string(r->str, r->len);
}

// VmRSS of a process in kB, from /proc/<pid>/status; -1 when unreadable.
inline long ResidentKb(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

// Open descriptors of a process, from /proc/<pid>/fd; -1 when unreadable.
inline long OpenFdCount(pid_t pid) {
  std::error_code ec;
  std::filesystem::directory_iterator it("/proc/" + std::to_string(pid) + "/fd", ec);
  if (ec) return -1;
  long n = 0;
  for (; it != std::filesystem::directory_iterator(); it.increment(ec)) ++n;
  return n;
}

// The value of `field` in INFO's text, or "" when absent.
inline std::string InfoField(redisContext* c, const std::string& field) {
  const std::string info = Str(Command(c, "INFO"));
  const std::string key = field + ":";
  size_t at = info.find("\r\n" + key);
  if (at == std::string::npos) return "";
  at += 2 + key.size();
  return info.substr(at, info.find("\r\n", at) - at);
}

// Polls `condition` every 20 ms until it holds or `timeout_ms` passes; returns its last value.
template <typename F>
bool Eventually(F condition, int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (true) {
    if (condition()) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace kv::test

// Sends `request` on a RawClient and expects exactly the bytes `expected` back.
#define EXPECT_REPLY(client, request, expected) \
  EXPECT_EQ((client).Exchange(request, std::string_view(expected).size()), expected)
