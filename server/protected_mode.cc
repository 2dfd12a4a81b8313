#include "server/protected_mode.h"

#include <netinet/in.h>

#include <cstring>

namespace kv {
namespace {

// Redis's islocalClient compares the peer's address text with "127.0.0.1" and "::1", so other
// loopback addresses (127.0.0.2, ::ffff:127.0.0.1) are not local.
bool IsLocal(const sockaddr* peer) {
  switch (peer->sa_family) {
    case AF_UNIX:
      return true;
    case AF_INET: {
      const auto* in = reinterpret_cast<const sockaddr_in*>(peer);
      return in->sin_addr.s_addr == htonl(INADDR_LOOPBACK);
    }
    case AF_INET6: {
      const auto* in6 = reinterpret_cast<const sockaddr_in6*>(peer);
      return std::memcmp(&in6->sin6_addr, &in6addr_loopback, sizeof(in6_addr)) == 0;
    }
    default:
      return false;
  }
}

}  // namespace

bool ProtectedModeRefuses(const Config& config, const sockaddr* peer) {
  return config.protected_mode && config.requirepass.empty() && !IsLocal(peer);
}

}  // namespace kv
