#include "server/transaction.h"

#include <algorithm>

#include "server/command.h"
#include "server/conn_state.h"
#include "server/shrink.h"
#include "storage/db_set.h"

namespace kv {

void MultiState::Queue(const CommandSpec& spec, uint32_t call_flags,
                       std::span<const std::string_view> args) {
  commands.push_back({&spec, arg_ends.size(), args.size()});
  for (std::string_view a : args) {
    bytes.append(a);
    arg_ends.push_back(bytes.size());
    argv_len_sums += a.size();
  }
  // Redis adds a robj pointer per argument.
  argv_len_sums += sizeof(void*) * args.size();
  flags |= call_flags;
}

void MultiState::Args(size_t i, std::vector<std::string_view>* out) const {
  const Queued& q = commands[i];
  out->clear();
  for (size_t a = q.first_arg; a < q.first_arg + q.argc; ++a) {
    const size_t begin = a == 0 ? 0 : arg_ends[a - 1];
    out->emplace_back(bytes.data() + begin, arg_ends[a] - begin);
  }
}

void WatchTable::Watch(ConnState& conn, size_t db, std::string_view key, bool expired) {
  auto it = keys_.find(KeyRef{db, key});
  if (it == keys_.end()) {
    it = keys_.emplace(Key(db, std::string(key)), std::vector<Watcher>()).first;
  } else {
    for (const Watcher& w : it->second) {
      if (w.conn == &conn) return;  // already watched
    }
  }
  it->second.push_back({&conn, expired});
  conn.watched_keys.push_back(&it->first);
}

void WatchTable::UnwatchAll(ConnState& conn) {
  for (const Key* key : conn.watched_keys) {
    auto it = keys_.find(*key);
    if (it == keys_.end()) continue;
    std::vector<Watcher>& v = it->second;
    auto pos = std::find_if(v.begin(), v.end(), [&](const Watcher& w) { return w.conn == &conn; });
    if (pos != v.end()) v.erase(pos);
    if (v.empty()) keys_.erase(it);  // the last watcher: `key` dangles from here on
  }
  std::vector<const Key*>().swap(conn.watched_keys);
  ShrinkAfterErase(keys_);
}

bool WatchTable::AnyExpired(const ConnState& conn, const DbSet& dbs, int64_t now_ms) const {
  for (const Key* key : conn.watched_keys) {
    auto it = keys_.find(*key);
    if (it == keys_.end()) continue;
    for (const Watcher& w : it->second) {
      if (w.conn != &conn) continue;
      if (!w.expired && dbs.db(key->first).IsExpired(key->second, now_ms)) return true;
      break;
    }
  }
  return false;
}

void WatchTable::MarkDirty(ConnState& conn) { conn.dirty_cas = true; }

void WatchTable::Touch(const DbSet& dbs, size_t db, std::string_view key) {
  auto it = keys_.find(KeyRef{db, key});
  if (it == keys_.end()) return;
  std::vector<ConnState*> dirty;
  for (Watcher& w : it->second) {
    if (w.expired) {
      // Watched while already expired: its deletion is no logical change (Redis clears the flag;
      // deleted keys are not flagged as expired).
      if (!dbs.db(db).Contains(key)) {
        w.expired = false;
        continue;
      }
      // Redis 7.0 stops at such a watcher (a `break` in touchWatchedKey), leaving the ones after
      // it untouched.
      break;
    }
    dirty.push_back(w.conn);
  }
  // A dirty client no longer needs its keys watched (Redis unwatches it at once).
  for (ConnState* c : dirty) {
    MarkDirty(*c);
    UnwatchAll(*c);
  }
}

void WatchTable::TouchAllInDb(const DbSet& dbs, size_t emptied, int64_t replaced_with,
                              int64_t now_ms) {
  const Db& gone = dbs.db(emptied);
  const Db* other = replaced_with < 0 ? nullptr : &dbs.db(static_cast<size_t>(replaced_with));
  for (auto& [key, watchers] : keys_) {
    if (key.first != emptied) continue;
    const bool exists_in_emptied = gone.Contains(key.second);
    const bool exists_in_other = other != nullptr && other->Contains(key.second);
    if (!exists_in_emptied && !exists_in_other) continue;
    for (Watcher& w : watchers) {
      if (w.expired) {
        if (!exists_in_other) {
          w.expired = false;  // an expired key now deleted: no logical change
          continue;
        }
        if (other->IsExpired(key.second, now_ms)) continue;  // still expired
      } else if (!exists_in_emptied && other->IsExpired(key.second, now_ms)) {
        w.expired = true;  // a missing key replaced by an expired one
        continue;
      }
      // Unlike touchWatchedKey, Redis leaves the keys watched here.
      MarkDirty(*w.conn);
    }
  }
}

}  // namespace kv
