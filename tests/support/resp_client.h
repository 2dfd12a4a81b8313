#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kv::test {

// Encodes a command as a RESP multibulk request.
std::string EncodeCommand(const std::vector<std::string>& args);

// Frames one RESP2/RESP3 reply at the front of `data`: returns its length in bytes, 0 if the
// reply is not complete yet, or std::nullopt if the bytes are not a well-formed reply.
std::optional<size_t> FrameReply(std::string_view data);

// `bytes` with CR, LF, TAB, backslash, quotes and non-printable bytes escaped, for messages.
std::string Escape(std::string_view bytes);

// A plain blocking TCP connection to 127.0.0.1 that reads replies as raw bytes, so tests can
// compare exactly what servers send.
class RawConnection {
 public:
  // Connects to 127.0.0.1:`port`; returns nullptr on failure.
  static std::unique_ptr<RawConnection> Connect(int port);
  ~RawConnection();
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  // Writes all of `bytes`; false if the peer is gone.
  bool Send(std::string_view bytes);
  // The exact bytes of the next complete reply, waiting up to `timeout_ms`; std::nullopt on
  // timeout, EOF or a malformed reply (what arrived is still in pending()).
  std::optional<std::string> ReadReply(int timeout_ms = 10000);
  // Reads what arrives within `timeout_ms` into pending(); returns the bytes read, 0 on EOF,
  // -1 on timeout or error.
  long ReadSome(int timeout_ms);
  // Bytes received but not yet returned.
  const std::string& pending() const { return buf_; }
  // Returns and forgets pending().
  std::string TakePending();
  // Sends one command and returns its reply ("<no reply>" when none came, "<send failed>").
  std::string Call(const std::vector<std::string>& args);
  // This end's address as the server sees it (CLIENT LIST's addr): "127.0.0.1:port".
  std::string LocalAddress() const;
  int fd() const { return fd_; }

 private:
  explicit RawConnection(int fd) : fd_(fd) {}

  int fd_;
  std::string buf_;
};

}  // namespace kv::test
