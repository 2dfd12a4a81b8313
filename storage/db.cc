#include "storage/db.h"

#include <vector>

namespace kv {

bool Db::ExpireIfNeeded(std::string_view key, int64_t now_ms) {
  if (expires_.empty()) return false;
  auto it = expires_.find(key);
  // Redis's keyIsExpired(): a key is expired once the time is past its deadline, so at the
  // deadline itself it still exists (with a TTL of 0).
  if (it == expires_.end() || it->second >= now_ms) return false;
  expires_.erase(it);
  entries_.erase(key);
  ++expired_keys_;
  return true;
}

Value* Db::Find(std::string_view key, int64_t now_ms) {
  if (ExpireIfNeeded(key, now_ms)) return nullptr;
  auto it = entries_.find(key);
  return it == entries_.end() ? nullptr : &it->second;
}

void Db::SetString(std::string_view key, std::string_view value, int64_t expire_at_ms,
                   bool keep_ttl) {
  auto [it, inserted] = entries_.try_emplace(key);
  it->second.SetString(value);
  if (expire_at_ms != kNoExpiry) {
    expires_.insert_or_assign(key, expire_at_ms);
  } else if (!inserted && !keep_ttl && !expires_.empty()) {
    expires_.erase(key);
  }
}

Value& Db::FindOrInsert(std::string_view key, int64_t now_ms, bool* inserted) {
  ExpireIfNeeded(key, now_ms);
  auto [it, fresh] = entries_.try_emplace(key);
  *inserted = fresh;
  return it->second;
}

bool Db::Delete(std::string_view key, int64_t now_ms) {
  if (ExpireIfNeeded(key, now_ms)) return false;
  if (entries_.erase(key) == 0) return false;
  if (!expires_.empty()) expires_.erase(key);
  return true;
}

int64_t Db::GetExpire(std::string_view key) const {
  if (expires_.empty()) return kNoExpiry;
  auto it = expires_.find(key);
  return it == expires_.end() ? kNoExpiry : it->second;
}

void Db::SetExpire(std::string_view key, int64_t at_ms) { expires_.insert_or_assign(key, at_ms); }

bool Db::Persist(std::string_view key) { return expires_.erase(key) > 0; }

void Db::Clear() {
  // Swapping with empty maps releases the memory, which clear() would keep.
  absl::flat_hash_map<std::string, Value, KeyHash, KeyEq>().swap(entries_);
  absl::flat_hash_map<std::string, int64_t, KeyHash, KeyEq>().swap(expires_);
  expire_cursor_.clear();
  avg_ttl_ms_ = 0;
}

Db::ExpireCycleResult Db::ActiveExpire(int64_t now_ms, size_t max_checks) {
  ExpireCycleResult result;
  if (expires_.empty()) {
    // Like Redis, the estimate starts afresh once there are no volatile keys.
    avg_ttl_ms_ = 0;
    return result;
  }
  auto it = expire_cursor_.empty() ? expires_.end() : expires_.find(expire_cursor_);
  if (it == expires_.end()) it = expires_.begin();
  std::vector<std::string> doomed;
  int64_t ttl_sum = 0, ttl_samples = 0;
  while (result.checked < max_checks) {
    if (it == expires_.end()) it = expires_.begin();
    // As in activeExpireCycleTryExpire(): expired when now > deadline. Only keys with time
    // left count towards the average TTL.
    if (it->second < now_ms) {
      doomed.push_back(it->first);
    } else if (it->second > now_ms) {
      ttl_sum += it->second - now_ms;
      ++ttl_samples;
    }
    ++it;
    ++result.checked;
    if (result.checked >= expires_.size()) break;
  }
  if (it == expires_.end()) {
    expire_cursor_.clear();
  } else {
    expire_cursor_ = it->first;
  }
  for (const std::string& key : doomed) {
    expires_.erase(key);
    entries_.erase(key);
  }
  if (ttl_samples > 0) {
    const int64_t avg = ttl_sum / ttl_samples;
    if (avg_ttl_ms_ == 0) avg_ttl_ms_ = avg;
    avg_ttl_ms_ = (avg_ttl_ms_ / 50) * 49 + avg / 50;
  }
  // The cursor may have been among the deleted; find() then fails and the walk restarts.
  result.expired = doomed.size();
  expired_keys_ += doomed.size();
  return result;
}

}  // namespace kv
