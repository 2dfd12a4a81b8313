#pragma once

#include <string_view>

#include "server/conn_state.h"
#include "server/server_state.h"

namespace kv {

// Access control with Redis's one user, "default", whose password is `requirepass` (none when
// empty).

// Redis's authRequired: a password is set and this client has not authenticated. Until it does,
// only the commands flagged no-auth run and the parser applies its unauthenticated limits.
inline bool AuthRequired(const ConnState& conn, const ServerState& server) {
  return !conn.authenticated && !server.config.requirepass.empty();
}

// Redis's ACLAuthenticateUser for the default user: with no password set any password is
// accepted, otherwise it must match (compared in constant time). On success the client is
// authenticated.
bool Authenticate(ConnState& conn, const ServerState& server, std::string_view user,
                  std::string_view password);

}  // namespace kv
