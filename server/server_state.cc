#include "server/server_state.h"

namespace kv {

void KeyspaceHooks::KeyExpired(size_t db, std::string_view key) {
  // Redis's deleteExpiredKeyAndPropagate: the event, then signalModifiedKey with no client.
  if (state_->config.notify_keyspace_events & kNotifyExpired) {
    PublishKeyspaceEvent(*state_, kNotifyExpired, "expired", key, db);
  }
  if (state_->KeyHooksArmed()) state_->SignalModifiedKey(nullptr, db, key);
  // Redis's propagateDeletion: an expired key goes to the AOF as DEL (UNLINK when lazy).
  if (state_->propagation.on()) {
    state_->propagation.AlsoPropagate(
        db, {state_->config.lazyfree_lazy_expire ? "UNLINK" : "DEL", std::string(key)});
  }
}

void KeyspaceHooks::KeyAdded(size_t db, std::string_view key) {
  if (state_->config.notify_keyspace_events & kNotifyNew) {
    PublishKeyspaceEvent(*state_, kNotifyNew, "new", key, db);
  }
}

void ServerState::SignalModifiedKey(const ConnState* by, size_t db, std::string_view key) {
  if (!watches.empty()) watches.Touch(dbs, db, key);
  if (tracking.active()) tracking.InvalidateKey(*this, by, key, /*bcast=*/true);
}

void ServerState::SignalFlushedDb(int64_t db) {
  if (!watches.empty()) {
    const int64_t now_ms = clock->NowMs();
    for (size_t i = 0; i < dbs.count(); ++i) {
      if (db < 0 || static_cast<size_t>(db) == i) watches.TouchAllInDb(dbs, i, -1, now_ms);
    }
  }
  tracking.InvalidateAll(*this);
}

void ServerState::ForgetClient(ConnState& conn) {
  pubsub.Forget(*this, conn);
  watches.UnwatchAll(conn);
  conn.multi.reset();
  tracking.Disable(conn);
  clients_by_id.erase(conn.id);
  if (current_client == &conn) current_client = nullptr;
}

}  // namespace kv
