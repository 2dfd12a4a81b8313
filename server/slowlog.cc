#include "server/slowlog.h"

#include <algorithm>

namespace kv {

namespace {
// Redis's SLOWLOG_ENTRY_MAX_ARGC and SLOWLOG_ENTRY_MAX_STRING.
constexpr size_t kMaxArgs = 32;
constexpr size_t kMaxString = 128;
}  // namespace

void SlowLog::Push(std::span<const std::string_view> args, const ConnState& conn, int64_t now_s,
                   int64_t duration_us) {
  SlowLogEntry e;
  e.id = next_id_++;
  e.time_s = now_s;
  e.duration_us = duration_us;
  const size_t kept = std::min(args.size(), kMaxArgs);
  e.args.reserve(kept);
  for (size_t j = 0; j < kept; ++j) {
    // The last kept argument says how many more there were.
    if (kept != args.size() && j == kept - 1) {
      e.args.push_back("... (" + std::to_string(args.size() - kept + 1) + " more arguments)");
      break;
    }
    const std::string_view arg = conn.LoggedArg(args, j);
    if (arg.size() > kMaxString) {
      e.args.push_back(std::string(arg.substr(0, kMaxString)) + "... (" +
                       std::to_string(arg.size() - kMaxString) + " more bytes)");
    } else {
      e.args.emplace_back(arg);
    }
  }
  e.peer = conn.addr;
  e.name = conn.name;
  entries_.push_front(std::move(e));
}

}  // namespace kv
