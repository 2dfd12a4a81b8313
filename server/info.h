#pragma once

#include <span>
#include <string>
#include <string_view>

#include "server/server_state.h"

namespace kv {

// The text of INFO [section ...], with Redis 7's section headers and field names. No sections
// means Redis's default set; "all" and "everything" mean every section.
std::string BuildInfo(ServerState& state, std::span<const std::string_view> sections,
                      int64_t now_ms);

// Bytes the allocator has handed out: INFO's used_memory.
size_t UsedMemory();
// Resident set size of the process, from /proc/self/statm.
size_t ResidentMemory();

}  // namespace kv
