#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"

namespace kv {

// MIGRATE's connections to target instances (Redis's migrate_cached_sockets in cluster.c): one
// blocking TCP socket per "host:port", kept for reuse, remembering the database last selected on
// it. Redis runs MIGRATE synchronously, blocking its event loop up to the command's timeout; these
// sockets do the same, with poll() bounding every wait.
class MigrateSocket {
 public:
  explicit MigrateSocket(int fd) : fd_(fd) {}
  ~MigrateSocket();
  MigrateSocket(const MigrateSocket&) = delete;
  MigrateSocket& operator=(const MigrateSocket&) = delete;

  // Redis's syncWrite: all of `data` within `timeout_ms`, or false (timed_out() tells why).
  bool Write(std::string_view data, int64_t timeout_ms);
  // Redis's syncReadLine with its 1024-byte buffer: one line without its CRLF, at most 1023
  // bytes (the rest of a longer line is the next read), within `timeout_ms` per byte. False on a
  // closed connection, an error or a timeout.
  bool ReadLine(std::string* line, int64_t timeout_ms);
  // Whether the last failed Write or ReadLine timed out (Redis's errno == ETIMEDOUT).
  bool timed_out() const { return timed_out_; }

  int64_t last_dbid = -1;  // the database SELECTed on this connection, -1 when unknown
  int64_t last_use_s = 0;  // for the cron's idle close

 private:
  // Waits for `events` (POLLIN/POLLOUT) until `timeout_ms` after `start_ms` (at least syncio's
  // 10 ms resolution); false, with timed_out(), once that time has passed.
  bool WaitWithin(short events, int64_t start_ms, int64_t timeout_ms);
  bool FillBuffer(int64_t timeout_ms);

  int fd_;
  bool timed_out_ = false;
  std::string in_;  // read but not yet returned
  size_t in_pos_ = 0;
};

class MigrateSocketCache {
 public:
  static constexpr size_t kMaxItems = 64;   // MIGRATE_SOCKET_CACHE_ITEMS
  static constexpr int64_t kIdleTtlS = 10;  // MIGRATE_SOCKET_CACHE_TTL

  // Redis's migrateGetSocket: the cached socket for host:port, or a new one connected within
  // `timeout_ms` (a random entry is dropped when the cache is full). Null when it cannot
  // connect.
  MigrateSocket* Get(std::string_view host, std::string_view port, int64_t timeout_ms,
                     int64_t now_s);
  // migrateCloseSocket: forgets host:port (a socket error happened on it).
  void Close(std::string_view host, std::string_view port);
  // migrateCloseTimedoutSockets, from the cron: closes sockets idle for more than kIdleTtlS.
  void CloseIdle(int64_t now_s);
  size_t size() const { return sockets_.size(); }

 private:
  absl::flat_hash_map<std::string, std::unique_ptr<MigrateSocket>> sockets_;
};

}  // namespace kv
