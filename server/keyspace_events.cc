#include "server/keyspace_events.h"

#include "server/server_state.h"

namespace kv {

std::optional<uint32_t> ParseKeyspaceEvents(std::string_view classes) {
  uint32_t flags = 0;
  for (char c : classes) {
    switch (c) {
      case 'A':
        flags |= kNotifyAll;
        break;
      case 'g':
        flags |= kNotifyGeneric;
        break;
      case '$':
        flags |= kNotifyString;
        break;
      case 'l':
        flags |= kNotifyList;
        break;
      case 's':
        flags |= kNotifySet;
        break;
      case 'h':
        flags |= kNotifyHash;
        break;
      case 'z':
        flags |= kNotifyZset;
        break;
      case 'x':
        flags |= kNotifyExpired;
        break;
      case 'e':
        flags |= kNotifyEvicted;
        break;
      case 'K':
        flags |= kNotifyKeyspace;
        break;
      case 'E':
        flags |= kNotifyKeyevent;
        break;
      case 't':
        flags |= kNotifyStream;
        break;
      case 'm':
        flags |= kNotifyKeyMiss;
        break;
      case 'd':
        flags |= kNotifyModule;
        break;
      case 'n':
        flags |= kNotifyNew;
        break;
      // Redis reads the value as a C string: a NUL ends it.
      case '\0':
        return flags;
      default:
        return std::nullopt;
    }
  }
  return flags;
}

std::string FormatKeyspaceEvents(uint32_t flags) {
  std::string s;
  if ((flags & kNotifyAll) == kNotifyAll) {
    // As Redis, 'n' is only shown outside 'A' (a quirk kept so CONFIG GET matches).
    s += 'A';
  } else {
    if (flags & kNotifyGeneric) s += 'g';
    if (flags & kNotifyString) s += '$';
    if (flags & kNotifyList) s += 'l';
    if (flags & kNotifySet) s += 's';
    if (flags & kNotifyHash) s += 'h';
    if (flags & kNotifyZset) s += 'z';
    if (flags & kNotifyExpired) s += 'x';
    if (flags & kNotifyEvicted) s += 'e';
    if (flags & kNotifyStream) s += 't';
    if (flags & kNotifyModule) s += 'd';
    if (flags & kNotifyNew) s += 'n';
  }
  if (flags & kNotifyKeyspace) s += 'K';
  if (flags & kNotifyKeyevent) s += 'E';
  if (flags & kNotifyKeyMiss) s += 'm';
  return s;
}

void PublishKeyspaceEvent(ServerState& state, uint32_t type, std::string_view event,
                          std::string_view key, size_t db) {
  const uint32_t flags = state.config.notify_keyspace_events;
  if ((flags & type) == 0) return;
  const std::string db_text = std::to_string(db);
  std::string channel;
  if (flags & kNotifyKeyspace) {
    channel.reserve(16 + db_text.size() + key.size());
    channel.append("__keyspace@").append(db_text).append("__:").append(key);
    state.pubsub.Publish(state, channel, event, /*shard=*/false);
  }
  if (flags & kNotifyKeyevent) {
    channel.clear();
    channel.append("__keyevent@").append(db_text).append("__:").append(event);
    state.pubsub.Publish(state, channel, key, /*shard=*/false);
  }
}

}  // namespace kv
