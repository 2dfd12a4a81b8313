#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "server/conn_state.h"

namespace kv {

// What CLIENT LIST and CLIENT INFO report about one connection besides its ConnState.
struct ClientInfo {
  const ConnState* state = nullptr;
  std::string_view addr;   // the peer: "ip:port", "[ipv6]:port", or "<unixsocket>:0"
  std::string_view laddr;  // the local end, in the same form
  int fd = -1;
  bool unix_socket = false;
  int64_t last_interaction_ms = 0;
  size_t qbuf = 0;       // bytes in the query buffer
  size_t qbuf_free = 0;  // room left in it
  size_t rbs = 0;        // capacity of the reply buffer
  size_t obl = 0;        // reply bytes waiting in the first 16 KB (Redis's fixed reply buffer)
  size_t oll = 0;        // 16 KB blocks beyond it (Redis's reply list)
  size_t omem = 0;       // reply bytes beyond it: what client-output-buffer-limit counts
  size_t tot_mem = 0;    // memory the connection holds
  bool writing = false;  // replies are waiting for the socket (events=rw)
};

// Appends one line of CLIENT LIST (newline included) describing `info`, as Redis's
// catClientInfoString. `caller` is the connection running the current command and `caller_args`
// its arguments (they count in its argv-mem); `now_ms` is the command's time.
void AppendClientInfo(std::string& out, const ClientInfo& info, const ConnState& caller,
                      std::span<const std::string_view> caller_args, int64_t now_ms);

// The server's connections, as the CLIENT commands see them. The Server implements it; tests
// may provide their own.
class ClientRegistry {
 public:
  virtual ~ClientRegistry() = default;
  // Calls `fn` for every open connection, in the order they connected (ascending id).
  virtual void ForEachClient(const std::function<void(const ClientInfo&)>& fn) const = 0;
  // Closes the connection `id` at once. Not for the calling connection itself, which sets
  // close_after_reply instead.
  virtual void KillClient(uint64_t id) = 0;
};

}  // namespace kv
