#pragma once

#include <cstdint>
#include <string>

namespace kv {

// Per-connection state that commands may read or change. It lives with the connection, never in
// storage: the selected database, the protocol version, the client's name.
struct ConnState {
  uint64_t id = 0;
  size_t db_index = 0;
  int protocol = 2;
  std::string name;
  // Set by QUIT and fatal errors: the connection closes once the replies are written.
  bool close_after_reply = false;
};

}  // namespace kv
