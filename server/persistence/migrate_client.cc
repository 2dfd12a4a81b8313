#include "server/persistence/migrate_client.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>

namespace kv {
namespace {

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

constexpr int64_t kResolutionMs = 10;  // syncio.c's SYNCIO__RESOLUTION
constexpr size_t kLineMax = 1023;      // migrateCommand's 1024-byte reply buffers

// Redis's anetTcpNonBlockConnect: the first address of `host` that a non-blocking connect
// accepts (or starts), or -1.
int NonBlockConnect(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0) return -1;
  int fd = -1;
  for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
    fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd == -1) continue;
    if (connect(fd, a->ai_addr, a->ai_addrlen) == 0 || errno == EINPROGRESS) break;
    close(fd);
    fd = -1;
  }
  freeaddrinfo(found);
  return fd;
}

std::string CacheName(std::string_view host, std::string_view port) {
  std::string name(host);
  name += ':';
  name += port;
  return name;
}

}  // namespace

MigrateSocket::~MigrateSocket() { close(fd_); }

bool MigrateSocket::WaitWithin(short events, int64_t start_ms, int64_t timeout_ms) {
  const int64_t remaining = timeout_ms - (NowMs() - start_ms);
  pollfd p{fd_, events, 0};
  poll(&p, 1, static_cast<int>(std::min<int64_t>(std::max(remaining, kResolutionMs), 1 << 30)));
  if (NowMs() - start_ms < timeout_ms) return true;
  timed_out_ = true;
  return false;
}

bool MigrateSocket::Write(std::string_view data, int64_t timeout_ms) {
  timed_out_ = false;
  const int64_t start = NowMs();
  while (true) {
    // As syncWrite: write first, wait only when the socket is full.
    const ssize_t n = send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
    if (n == -1) {
      if (errno != EAGAIN && errno != EINTR) return false;
    } else {
      data.remove_prefix(static_cast<size_t>(n));
    }
    if (data.empty()) return true;
    if (!WaitWithin(POLLOUT, start, timeout_ms)) return false;
  }
}

bool MigrateSocket::FillBuffer(int64_t timeout_ms) {
  if (in_pos_ == in_.size()) {
    in_.clear();
    in_pos_ = 0;
  }
  const int64_t start = NowMs();
  char chunk[4096];
  while (true) {
    const ssize_t n = recv(fd_, chunk, sizeof(chunk), 0);
    if (n == 0) return false;  // closed by the target
    if (n > 0) {
      in_.append(chunk, static_cast<size_t>(n));
      return true;
    }
    if (errno != EAGAIN && errno != EINTR) return false;
    if (!WaitWithin(POLLIN, start, timeout_ms)) return false;
  }
}

bool MigrateSocket::ReadLine(std::string* line, int64_t timeout_ms) {
  timed_out_ = false;
  line->clear();
  while (line->size() < kLineMax) {
    if (in_pos_ == in_.size() && !FillBuffer(timeout_ms)) return false;
    const char c = in_[in_pos_++];
    if (c == '\n') {
      if (!line->empty() && line->back() == '\r') line->pop_back();
      return true;
    }
    line->push_back(c);
  }
  return true;
}

MigrateSocket* MigrateSocketCache::Get(std::string_view host, std::string_view port,
                                       int64_t timeout_ms, int64_t now_s) {
  std::string name = CacheName(host, port);
  if (auto it = sockets_.find(name); it != sockets_.end()) {
    it->second->last_use_s = now_s;
    return it->second.get();
  }
  if (sockets_.size() >= kMaxItems) sockets_.erase(sockets_.begin());
  // As connBlockingConnect: a connect still in progress after `timeout_ms` is kept anyway (the
  // writes then fail), and the port is read as atoi() reads it.
  const int fd = NonBlockConnect(std::string(host), std::atoi(std::string(port).c_str()));
  if (fd == -1) return nullptr;
  pollfd p{fd, POLLOUT, 0};
  poll(&p, 1, static_cast<int>(std::min<int64_t>(timeout_ms, 1 << 30)));
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  auto socket = std::make_unique<MigrateSocket>(fd);
  socket->last_use_s = now_s;
  MigrateSocket* raw = socket.get();
  sockets_.emplace(std::move(name), std::move(socket));
  return raw;
}

void MigrateSocketCache::Close(std::string_view host, std::string_view port) {
  sockets_.erase(CacheName(host, port));
}

void MigrateSocketCache::CloseIdle(int64_t now_s) {
  absl::erase_if(sockets_, [now_s](const auto& entry) {
    return now_s - entry.second->last_use_s > kIdleTtlS;
  });
}

}  // namespace kv
