#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kv {

struct ServerState;

// Keyspace notification classes (notify-keyspace-events), Redis 7.0's NOTIFY_* bits.
enum NotifyClass : uint32_t {
  kNotifyKeyspace = 1 << 0,  // K: __keyspace@<db>__:<key> <event>
  kNotifyKeyevent = 1 << 1,  // E: __keyevent@<db>__:<event> <key>
  kNotifyGeneric = 1 << 2,   // g
  kNotifyString = 1 << 3,    // $
  kNotifyList = 1 << 4,      // l
  kNotifySet = 1 << 5,       // s
  kNotifyHash = 1 << 6,      // h
  kNotifyZset = 1 << 7,      // z
  kNotifyExpired = 1 << 8,   // x
  kNotifyEvicted = 1 << 9,   // e
  kNotifyStream = 1 << 10,   // t
  kNotifyKeyMiss = 1 << 11,  // m (not part of A)
  kNotifyModule = 1 << 13,   // d
  kNotifyNew = 1 << 14,      // n (not part of A)
  kNotifyAll = kNotifyGeneric | kNotifyString | kNotifyList | kNotifySet | kNotifyHash |
               kNotifyZset | kNotifyExpired | kNotifyEvicted | kNotifyStream | kNotifyModule,
};

// Redis's keyspaceEventsStringToFlags: nullopt when a character names no class.
std::optional<uint32_t> ParseKeyspaceEvents(std::string_view classes);
// Redis's keyspaceEventsFlagsToString, as CONFIG GET shows the setting ("AKE", "gKE", ...).
std::string FormatKeyspaceEvents(uint32_t flags);

// Redis's notifyKeyspaceEvent: publishes `event` about `key` of database `db` on the keyspace and
// keyevent channels the configuration enables. Callers check the class first
// (CommandContext::Notify), so a disabled class costs one test.
void PublishKeyspaceEvent(ServerState& state, uint32_t type, std::string_view event,
                          std::string_view key, size_t db);

}  // namespace kv
