#pragma once

#include "server/client_registry.h"
#include "server/command.h"
#include "server/server_state.h"

namespace kv {

// Redis's islocalClient: a unix socket client, or one from 127.0.0.1 or ::1. Protected actions
// (enable-debug-command, enable-protected-configs) set to "local" allow only these.
inline bool IsLocalClient(const CommandContext& ctx) {
  if (ctx.server.clients == nullptr) return true;  // in-process: no socket at all
  bool local = false;
  ctx.server.clients->ForEachClient([&](const ClientInfo& info) {
    if (info.state != &ctx.conn) return;
    local =
        info.unix_socket || info.addr.starts_with("127.0.0.1:") || info.addr.starts_with("[::1]:");
  });
  return local;
}

}  // namespace kv
