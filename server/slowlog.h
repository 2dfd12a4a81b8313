#pragma once

#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "server/conn_state.h"

namespace kv {

// One SLOWLOG GET entry, as Redis's slowlogEntry.
struct SlowLogEntry {
  uint64_t id = 0;
  int64_t time_s = 0;             // Unix time the entry was made
  int64_t duration_us = 0;        // the command's execution time
  std::vector<std::string> args;  // at most 32, each cut at 128 bytes, as Redis keeps them
  std::string peer;               // the client's address
  std::string name;               // the client's name, "" when it has none
};

// Redis's slowlog: the commands that ran for at least slowlog-log-slower-than microseconds,
// newest first, at most slowlog-max-len of them. The dispatcher calls Record only while the
// log is enabled (slowlog-log-slower-than >= 0), so that a disabled log costs one comparison.
class SlowLog {
 public:
  // Redis's slowlogPushEntryIfNeeded: logs the command when it was slow enough, then drops the
  // oldest entries beyond `max_len` (so a lowered slowlog-max-len applies after the next command).
  void Record(std::span<const std::string_view> args, const ConnState& conn, int64_t now_s,
              int64_t duration_us, int64_t slower_than_us, uint64_t max_len) {
    if (duration_us >= slower_than_us) Push(args, conn, now_s, duration_us);
    while (entries_.size() > max_len) entries_.pop_back();
  }
  void Reset() { entries_.clear(); }
  const std::deque<SlowLogEntry>& entries() const { return entries_; }

 private:
  void Push(std::span<const std::string_view> args, const ConnState& conn, int64_t now_s,
            int64_t duration_us);

  std::deque<SlowLogEntry> entries_;  // newest first
  uint64_t next_id_ = 0;
};

}  // namespace kv
