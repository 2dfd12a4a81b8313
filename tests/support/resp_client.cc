#include "tests/support/resp_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>

#include "tests/support/resp_reply.h"

namespace kv::test {

namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t kIncomplete = 0;
constexpr size_t kMalformed = static_cast<size_t>(-1);

// The length of the CRLF-terminated line starting at `pos`, including the CRLF; 0 if incomplete.
size_t LineEnd(std::string_view data, size_t pos) {
  const size_t cr = data.find("\r\n", pos);
  return cr == std::string_view::npos ? 0 : cr + 2 - pos;
}

// Frames one reply at `pos`: its length, kIncomplete or kMalformed.
size_t FrameAt(std::string_view data, size_t pos, int depth) {
  if (depth > 64) return kMalformed;
  if (pos >= data.size()) return kIncomplete;
  const size_t line = LineEnd(data, pos);
  if (line == 0) return kIncomplete;
  const std::string_view header = data.substr(pos + 1, line - 3);
  switch (data[pos]) {
    case '+':
    case '-':
    case ':':
    case '_':
    case ',':
    case '#':
    case '(':
      return line;
    case '$':
    case '=':
    case '!': {
      long long len;
      if (!ParseRespLength(header, &len) || len < -1) return kMalformed;
      if (len == -1) return line;
      const size_t total = line + static_cast<size_t>(len) + 2;
      if (data.size() - pos < total) return kIncomplete;
      if (data.substr(pos + line + len, 2) != "\r\n") return kMalformed;
      return total;
    }
    case '*':
    case '~':
    case '>':
    case '%':
    case '|': {
      long long n;
      if (!ParseRespLength(header, &n) || n < -1) return kMalformed;
      if (n == -1) return line;
      if (data[pos] == '%' || data[pos] == '|') n *= 2;
      size_t total = line;
      for (long long i = 0; i < n; ++i) {
        const size_t elem = FrameAt(data, pos + total, depth + 1);
        if (elem == kIncomplete || elem == kMalformed) return elem;
        total += elem;
      }
      return total;
    }
    default:
      return kMalformed;
  }
}

}  // namespace

std::string EncodeCommand(const std::vector<std::string>& args) {
  std::string out = "*" + std::to_string(args.size()) + "\r\n";
  for (const std::string& a : args) {
    out += "$" + std::to_string(a.size()) + "\r\n";
    out += a;
    out += "\r\n";
  }
  return out;
}

std::optional<size_t> FrameReply(std::string_view data) {
  const size_t n = FrameAt(data, 0, 0);
  if (n == kMalformed) return std::nullopt;
  return n;
}

std::string Escape(std::string_view bytes) {
  std::string out;
  for (unsigned char c : bytes) {
    switch (c) {
      case '\r':
        out += "\\r";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '"':
        out += "\\\"";
        break;
      default:
        if (c < 0x20 || c >= 0x7f) {
          char hex[8];
          std::snprintf(hex, sizeof(hex), "\\x%02x", c);
          out += hex;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out;
}

std::unique_ptr<RawConnection> RawConnection::Connect(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return nullptr;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    close(fd);
    return nullptr;
  }
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  return std::unique_ptr<RawConnection>(new RawConnection(fd));
}

RawConnection::~RawConnection() {
  if (fd_ >= 0) close(fd_);
}

bool RawConnection::Send(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

long RawConnection::ReadSome(int timeout_ms) {
  pollfd p{fd_, POLLIN, 0};
  int r;
  do {
    r = poll(&p, 1, timeout_ms);
  } while (r < 0 && errno == EINTR);
  if (r <= 0) return -1;
  char chunk[16384];
  ssize_t n;
  do {
    n = recv(fd_, chunk, sizeof(chunk), 0);
  } while (n < 0 && errno == EINTR);
  if (n < 0) return errno == ECONNRESET ? 0 : -1;
  buf_.append(chunk, static_cast<size_t>(n));
  return n;
}

std::optional<std::string> RawConnection::ReadReply(int timeout_ms) {
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  while (true) {
    const std::optional<size_t> n = FrameReply(buf_);
    if (!n) return std::nullopt;
    if (*n > 0) {
      std::string reply = buf_.substr(0, *n);
      buf_.erase(0, *n);
      return reply;
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return std::nullopt;
    if (ReadSome(static_cast<int>(left)) <= 0) return std::nullopt;
  }
}

std::string RawConnection::TakePending() {
  std::string out;
  out.swap(buf_);
  return out;
}

std::string RawConnection::Call(const std::vector<std::string>& args) {
  if (!Send(EncodeCommand(args))) return "<send failed>";
  return ReadReply().value_or("<no reply>");
}

std::string RawConnection::LocalAddress() const {
  sockaddr_in sa{};
  socklen_t len = sizeof(sa);
  ::getsockname(fd_, reinterpret_cast<sockaddr*>(&sa), &len);
  return "127.0.0.1:" + std::to_string(ntohs(sa.sin_port));
}

}  // namespace kv::test
