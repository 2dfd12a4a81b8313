#include "server/persistence/loading.h"

#include "server/server_state.h"

namespace kv {

LoadingScope::LoadingScope(ServerState& s, uint64_t total_bytes) : s_(s) {
  PersistenceStats& p = s_.persistence;
  p.loading = true;
  p.loading_start_s = s_.clock->NowMs() / 1000;
  p.loading_total_bytes = total_bytes;
  p.loading_loaded_bytes = 0;
  p.loading_rdb_used_mem = 0;
  p.last_load_keys_loaded = 0;
  p.last_load_keys_expired = 0;
}

LoadingScope::~LoadingScope() { s_.persistence.loading = false; }

bool LoadingScope::can_serve() const { return static_cast<bool>(s_.process_events_while_loading); }

bool LoadingScope::Serve(uint64_t loaded_bytes) {
  s_.persistence.loading_loaded_bytes = loaded_bytes;
  if (!s_.process_events_while_loading) return true;
  // A command served meanwhile ends with no current client: the load's own (the AOF's fake
  // client) is put back.
  ConnState* const current = s_.current_client;
  const bool go_on = s_.process_events_while_loading();
  s_.current_client = current;
  return go_on;
}

}  // namespace kv
