#include "server/tracking.h"

#include <cstring>
#include <memory>

#include "protocol/resp_text.h"
#include "server/command.h"
#include "server/pubsub.h"
#include "server/server_state.h"
#include "server/shrink.h"

namespace kv {
namespace {

// Redis's stringCheckPrefix: one is a prefix of the other.
bool Overlap(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  return n == 0 || std::memcmp(a.data(), b.data(), n) == 0;
}

// "%s" formatting stops at a NUL byte, as in Redis's error texts.
std::string_view CString(std::string_view s) { return s.substr(0, s.find('\0')); }

std::string_view NullFor(const ConnState& conn) { return conn.protocol > 2 ? "_\r\n" : "$-1\r\n"; }

}  // namespace

std::optional<std::string> Tracking::PrefixCollision(const ConnState& conn,
                                                     const std::vector<std::string>& prefixes,
                                                     bool* stop) {
  *stop = true;
  for (size_t i = 0; i < prefixes.size(); ++i) {
    if (conn.tracking) {
      for (const std::string& existing : conn.tracking->prefixes) {
        if (Overlap(existing, prefixes[i])) {
          return "Prefix '" + std::string(CString(prefixes[i])) +
                 "' overlaps with an existing prefix '" + std::string(CString(existing)) +
                 "'. Prefixes for a single client must not overlap.";
        }
      }
    }
    for (size_t j = i + 1; j < prefixes.size(); ++j) {
      if (Overlap(prefixes[i], prefixes[j])) {
        // Redis returns i from checkPrefixCollisionsOrReply here, which its caller takes for
        // success past the first prefix: the error is sent and tracking is enabled anyway.
        *stop = i == 0;
        return "Prefix '" + std::string(CString(prefixes[i])) +
               "' overlaps with another provided prefix '" + std::string(CString(prefixes[j])) +
               "'. Prefixes for a single client must not overlap.";
      }
    }
  }
  return std::nullopt;
}

void Tracking::Enable(ConnState& conn, const TrackingOptions& options) {
  if (!conn.tracking) {
    conn.tracking = std::make_unique<ClientTracking>();
    ++clients_;
  }
  ClientTracking& t = *conn.tracking;
  // As Redis's enableTracking: CACHING survives a re-enable, the mode flags do not.
  t.broken_redirect = t.bcast = t.optin = t.optout = t.noloop = false;
  t.redirect = options.redirect;
  if (options.bcast) {
    t.bcast = true;
    auto add = [&](const std::string& prefix) {
      if (prefixes_[prefix].clients.emplace(conn.id, &conn).second) t.prefixes.insert(prefix);
    };
    if (options.prefixes.empty()) add("");
    for (const std::string& p : options.prefixes) add(p);
  }
  t.optin = options.optin;
  t.optout = options.optout;
  t.noloop = options.noloop;
}

void Tracking::Disable(ConnState& conn) {
  if (!conn.tracking) return;
  for (const std::string& p : conn.tracking->prefixes) {
    auto it = prefixes_.find(p);
    if (it == prefixes_.end()) continue;
    it->second.clients.erase(conn.id);
    if (it->second.clients.empty()) prefixes_.erase(it);
  }
  conn.tracking.reset();
  --clients_;
}

bool Tracking::Caches(const ConnState& conn) {
  const ClientTracking& t = *conn.tracking;
  return !((t.optin && !t.caching) || (t.optout && t.caching));
}

void Tracking::Remember(const ConnState& conn, std::string_view key) {
  auto [it, inserted] = table_.try_emplace(key);
  if (it->second.insert(conn.id).second) ++total_items_;
}

void Tracking::RememberKeys(ConnState& conn, const CommandSpec& spec,
                            std::span<const std::string_view> args) {
  if (!Caches(conn)) return;
  // Shard channels are keys for cluster routing only (SSUBSCRIBE, SPUBLISH): not cached data.
  if (spec.first_key == 0 || (spec.flags & kCmdPubSub)) return;
  const int argc = static_cast<int>(args.size());
  const int last = spec.last_key < 0 ? argc + spec.last_key : spec.last_key;
  for (int i = spec.first_key; i <= last && i < argc; i += spec.key_step) Remember(conn, args[i]);
}

void Tracking::RememberScriptKeys(ConnState& conn, std::span<const std::string_view> keys) {
  if (!Caches(conn)) return;
  for (std::string_view key : keys) Remember(conn, key);
}

std::string Tracking::KeyArray(std::string_view key) {
  std::string payload = "*1\r\n";
  AppendBulk(payload, key);
  return payload;
}

void Tracking::Send(ServerState& state, ConnState& conn, std::string_view payload) {
  ConnState* target = &conn;
  bool redirected = false;
  const uint64_t redirect = conn.tracking ? conn.tracking->redirect : 0;
  if (redirect != 0) {
    auto it = state.clients_by_id.find(redirect);
    if (it == state.clients_by_id.end()) {
      conn.tracking->broken_redirect = true;
      // Only a RESP3 client can be told that its invalidations have nowhere to go.
      if (conn.protocol > 2) {
        std::string frame = ">2\r\n$21\r\ntracking-redir-broken\r\n:";
        frame += std::to_string(redirect);
        frame += "\r\n";
        PushFrame(state, conn, frame);
      }
      return;
    }
    target = it->second;
    redirected = true;
  }
  std::string frame;
  if (target->protocol > 2) {
    frame = ">2\r\n$10\r\ninvalidate\r\n";
  } else if (redirected && target->pubsub_mode) {
    // A RESP2 redirect client receives them as messages of the __redis__:invalidate channel.
    frame = "*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n";
  } else {
    return;  // RESP2 without a redirect: nowhere to put them
  }
  frame.append(payload);
  PushFrame(state, *target, frame);
}

void Tracking::InvalidateKey(ServerState& state, const ConnState* by, std::string_view key,
                             bool bcast) {
  if (bcast && !prefixes_.empty()) {
    for (auto& [prefix, bs] : prefixes_) {
      if (prefix.size() > key.size() || key.compare(0, prefix.size(), prefix) != 0) continue;
      // The last client to change the key, for NOLOOP.
      bs.keys.insert_or_assign(std::string(key), by != nullptr ? by->id : 0);
      if (!broadcast_pending_) {
        broadcast_pending_ = true;
        state.RequestAfterBatch();
      }
    }
  }
  auto it = table_.find(key);
  if (it == table_.end()) return;
  // The readers forget the key once told: drop it from the table first (sending never reads it).
  const absl::flat_hash_set<uint64_t> ids = std::move(it->second);
  table_.erase(it);
  ShrinkAfterErase(table_);
  total_items_ -= ids.size();
  std::string payload;
  for (uint64_t id : ids) {
    auto c = state.clients_by_id.find(id);
    if (c == state.clients_by_id.end()) continue;
    ConnState& target = *c->second;
    // Entries are dropped lazily: a client that turned tracking off, or switched to BCAST, is
    // skipped here.
    if (!target.tracking || target.tracking->bcast) continue;
    const bool current = &target == state.current_client;
    if (target.tracking->noloop && current) continue;
    // The client running the command gets it after its reply (Redis's tracking_pending_keys).
    if (current && state.executing > 0) {
      pending_.emplace_back(std::string(key));
      continue;
    }
    if (payload.empty()) payload = KeyArray(key);
    Send(state, target, payload);
  }
}

void Tracking::InvalidateAll(ServerState& state) {
  if (clients_ > 0) {
    for (const auto& [id, conn] : state.clients_by_id) {
      if (!conn->tracking) continue;
      if (conn == state.current_client) {
        pending_.emplace_back(std::nullopt);
      } else {
        Send(state, *conn, NullFor(*conn));
      }
    }
  }
  decltype(table_)().swap(table_);
  total_items_ = 0;
}

void Tracking::SendPending(ServerState& state) {
  std::vector<std::optional<std::string>> pending;
  pending.swap(pending_);
  ConnState* c = state.current_client;
  if (c == nullptr) return;
  for (const std::optional<std::string>& key : pending) {
    Send(state, *c, key ? std::string_view(KeyArray(*key)) : NullFor(*c));
  }
}

void Tracking::Broadcast(ServerState& state) {
  broadcast_pending_ = false;
  if (clients_ == 0) return;
  for (auto& [prefix, bs] : prefixes_) {
    if (bs.keys.empty()) continue;
    std::string all = "*" + std::to_string(bs.keys.size()) + "\r\n";
    for (const auto& [key, by] : bs.keys) AppendBulk(all, key);
    for (const auto& [id, conn] : bs.clients) {
      if (!conn->tracking || !conn->tracking->noloop) {
        Send(state, *conn, all);
        continue;
      }
      // NOLOOP: without the keys this client changed itself; nothing when that leaves none.
      size_t n = 0;
      std::string keys;
      for (const auto& [key, by] : bs.keys) {
        if (by == id) continue;
        AppendBulk(keys, key);
        ++n;
      }
      if (n == 0) continue;
      Send(state, *conn, "*" + std::to_string(n) + "\r\n" + keys);
    }
    bs.keys.clear();
  }
}

void Tracking::LimitUsedSlots(ServerState& state) {
  const int64_t max_keys = state.config.tracking_table_max_keys;
  if (max_keys == 0 || table_.empty()) return;
  if (table_.size() <= static_cast<size_t>(max_keys)) {
    limit_effort_ = 0;
    return;
  }
  // The effort grows with every call that still finds the table over the limit.
  for (unsigned effort = 100 * (limit_effort_ + 1); effort > 0 && !table_.empty(); --effort) {
    const std::string key = table_.begin()->first;
    InvalidateKey(state, nullptr, key, /*bcast=*/false);
    if (table_.size() <= static_cast<size_t>(max_keys)) {
      limit_effort_ = 0;
      return;
    }
  }
  ++limit_effort_;
}

}  // namespace kv
