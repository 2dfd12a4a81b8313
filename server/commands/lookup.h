#pragma once

#include <memory>
#include <string_view>
#include <utility>

#include "server/command.h"
#include "server/errors.h"
#include "storage/value.h"

namespace kv {

// The value of `key` for reading, counting a keyspace hit or miss (and notifying a "keymiss") as
// Redis's lookupKeyRead; nullptr when the key is missing. Write lookups (lookupKeyWrite) do
// neither and use Db::Find directly.
inline const Value* LookupRead(CommandContext& ctx, std::string_view key) {
  const Value* v = ctx.db().Find(key, ctx.now_ms);
  if (v != nullptr) {
    ++ctx.server.stats.keyspace_hits;
  } else {
    ++ctx.server.stats.keyspace_misses;
    ctx.Notify(kNotifyKeyMiss, "keymiss", key);
  }
  return v;
}

// Typed lookups for the aggregate families. T is the storage class of the type (List, Hash, Set,
// ...), naming its type as T::kType. Each returns false after replying WRONGTYPE (Redis's
// checkType); otherwise *out is the value, or nullptr when the key is missing.

// For reading: counts a keyspace hit or miss (lookupKeyRead).
template <typename T>
bool ReadAggregate(CommandContext& ctx, std::string_view key, T** out) {
  const Value* v = LookupRead(ctx, key);
  *out = nullptr;
  if (v == nullptr) return true;
  if (v->type() != T::kType) {
    ctx.reply.Error(errors::kWrongType);
    return false;
  }
  *out = &v->As<T>();
  return true;
}

// For writing (lookupKeyWrite): counts nothing.
template <typename T>
bool WriteAggregate(CommandContext& ctx, std::string_view key, T** out) {
  const Value* v = ctx.db().Find(key, ctx.now_ms);
  *out = nullptr;
  if (v == nullptr) return true;
  if (v->type() != T::kType) {
    ctx.reply.Error(errors::kWrongType);
    return false;
  }
  *out = &v->As<T>();
  return true;
}

// Stores a new aggregate at `key`, which must be missing (Redis's dbAdd), and wakes clients
// blocked on it. Returns the stored value.
template <typename T>
T& AddAggregate(CommandContext& ctx, std::string_view key, std::unique_ptr<T> a) {
  bool inserted = false;
  Value& v = ctx.db().FindOrInsert(key, ctx.now_ms, &inserted);
  v.SetAggregate(std::move(a));
  ctx.SignalKeyAsReady(key, T::kType);
  return v.As<T>();
}

// Redis's rule that an aggregate never exists empty: deletes `key` once its value `a` lost its
// last element. Returns whether it did.
inline bool DeleteIfEmpty(CommandContext& ctx, std::string_view key, const Aggregate& a) {
  if (a.size() != 0) return false;
  ctx.db().Delete(key, ctx.now_ms);
  return true;
}

}  // namespace kv
