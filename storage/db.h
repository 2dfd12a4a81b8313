#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "storage/key_hash.h"
#include "storage/value.h"

namespace kv {

// Expiry times are absolute Unix milliseconds; kNoExpiry marks a key without a TTL.
constexpr int64_t kNoExpiry = -1;

// One logical database: keys to values, plus a second map holding the deadline of every key with
// a TTL (Redis's split), so that active expiry walks only volatile keys.
//
// Every lookup applies lazy expiry first, with the `now_ms` the caller passes. Pointers returned
// by lookups are valid only until the next change to this Db: no view survives a handler.
class Db {
 public:
  struct ExpireCycleResult {
    size_t checked = 0;
    size_t expired = 0;
  };

  // The live value of `key`, or nullptr when it is absent or has expired (and is then deleted).
  Value* Find(std::string_view key, int64_t now_ms);
  bool Exists(std::string_view key, int64_t now_ms) { return Find(key, now_ms) != nullptr; }

  // Stores a string at `key`, replacing any value. The TTL is cleared unless `keep_ttl`; an
  // `expire_at_ms` other than kNoExpiry sets a new one.
  void SetString(std::string_view key, std::string_view value, int64_t expire_at_ms = kNoExpiry,
                 bool keep_ttl = false);
  // Finds `key` or inserts an empty string there; `*inserted` tells which.
  Value& FindOrInsert(std::string_view key, int64_t now_ms, bool* inserted);

  // Removes `key` if it is live; returns whether it was.
  bool Delete(std::string_view key, int64_t now_ms);

  // The deadline of a live key, kNoExpiry if it has none. The key must exist.
  int64_t GetExpire(std::string_view key) const;
  // Sets the deadline of an existing key.
  void SetExpire(std::string_view key, int64_t at_ms);
  // Removes the deadline of an existing key; returns whether it had one.
  bool Persist(std::string_view key);

  size_t size() const { return entries_.size(); }
  size_t expires_size() const { return expires_.size(); }
  uint64_t expired_keys() const { return expired_keys_; }
  // Redis's estimate of the average TTL of volatile keys, from active expiry's samples.
  int64_t avg_ttl_ms() const { return expires_.empty() ? 0 : avg_ttl_ms_; }
  void Clear();

  // One step of active expiry: examines up to `max_checks` volatile keys, continuing where the
  // previous step stopped so that every volatile key is visited in turn, and deletes the expired.
  ExpireCycleResult ActiveExpire(int64_t now_ms, size_t max_checks);

 private:
  // Deletes `key` if its deadline has passed; returns whether it did.
  bool ExpireIfNeeded(std::string_view key, int64_t now_ms);

  absl::flat_hash_map<std::string, Value, KeyHash, KeyEq> entries_;
  absl::flat_hash_map<std::string, int64_t, KeyHash, KeyEq> expires_;
  std::string expire_cursor_;  // the volatile key the next active expiry step starts from
  uint64_t expired_keys_ = 0;
  int64_t avg_ttl_ms_ = 0;
};

}  // namespace kv
