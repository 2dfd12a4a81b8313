#include "server/eviction.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "server/info.h"
#include "server/server_state.h"

namespace kv {
namespace {

constexpr size_t kPoolSize = 16;  // Redis's EVPOOL_SIZE

// Redis's evictionTimeLimitUs: 0..500 us linearly up to tenacity 10, then 15% more per step,
// and no limit at 100. In nanoseconds, the clock's unit: microseconds::max() would overflow when
// compared with a steady_clock duration.
std::chrono::nanoseconds TimeLimit(int64_t tenacity) {
  if (tenacity <= 10) return std::chrono::microseconds(50 * tenacity);
  if (tenacity < 100) {
    return std::chrono::microseconds(
        static_cast<int64_t>(500.0 * std::pow(1.15, static_cast<double>(tenacity) - 10.0)));
  }
  return std::chrono::nanoseconds::max();
}

bool AllKeys(MaxmemoryPolicy p) {
  return p == MaxmemoryPolicy::kAllkeysLru || p == MaxmemoryPolicy::kAllkeysLfu ||
         p == MaxmemoryPolicy::kAllkeysRandom;
}

// The keys a policy may evict from `db`: all of them, or those with a TTL.
size_t Evictable(const Db& db, MaxmemoryPolicy p) {
  return AllKeys(p) ? db.size() : db.expires_size();
}

}  // namespace

size_t MemoryGauge::Read(uint64_t limit) {
  const auto now = std::chrono::steady_clock::now();
  const bool early = pending_ > static_cast<int64_t>(limit / 32) && now >= next_early_reading_;
  if (now >= next_reading_ || early) {
    measured_ = UsedMemory();
    pending_ = 0;
    const auto cost = std::chrono::steady_clock::now() - now;
    next_reading_ = now + cost * 50;
    next_early_reading_ = now + cost * 5;
  }
  const int64_t used = static_cast<int64_t>(measured_) + pending_;
  return used > 0 ? static_cast<size_t>(used) : 0;
}

void Evictor::Populate(ServerState& state, size_t db_index, int64_t now_ms) {
  const MaxmemoryPolicy policy = state.config.maxmemory_policy;
  Db& db = state.dbs.db(db_index);
  db.SetClock(now_ms);
  db.SampleKeys(static_cast<size_t>(state.config.maxmemory_samples), !AllKeys(policy),
                [&](std::string_view key, const Value& value, int64_t expire_at_ms) {
                  uint64_t score;
                  if (policy == MaxmemoryPolicy::kVolatileTtl) {
                    // The sooner the deadline, the better.
                    score =
                        std::numeric_limits<uint64_t>::max() - static_cast<uint64_t>(expire_at_ms);
                  } else if (IsLfuPolicy(policy)) {
                    score = 255 - db.LfuCounter(value);
                  } else {
                    score = db.IdleSeconds(value);
                  }
                  // Redis's evictionPoolPopulate: the pool stays sorted; a candidate worse than
                  // all of a full pool is dropped, otherwise a full pool drops its worst.
                  auto at = std::find_if(pool_.begin(), pool_.end(),
                                         [&](const Candidate& c) { return c.score >= score; });
                  if (pool_.size() == kPoolSize) {
                    if (at == pool_.begin()) return;
                    pool_.erase(pool_.begin());
                    --at;
                  }
                  pool_.insert(at, Candidate{score, std::string(key), db_index});
                });
}

bool Evictor::PopBest(ServerState& state, int64_t now_ms, Candidate* best) {
  const MaxmemoryPolicy policy = state.config.maxmemory_policy;
  for (;;) {
    size_t total = 0;
    for (size_t i = 0; i < state.dbs.count(); ++i) {
      const size_t n = Evictable(state.dbs.db(i), policy);
      if (n == 0) continue;
      Populate(state, i, now_ms);
      total += n;
    }
    if (total == 0) return false;
    // From the best down; a candidate no longer there (deleted, or sampled twice) is a ghost.
    while (!pool_.empty()) {
      Candidate c = std::move(pool_.back());
      pool_.pop_back();
      const Db& db = state.dbs.db(c.db);
      const bool present =
          AllKeys(policy) ? db.MemoryOf(c.key).has_value() : db.GetExpire(c.key) != kNoExpiry;
      if (present) {
        *best = std::move(c);
        return true;
      }
    }
  }
}

bool Evictor::PickRandom(ServerState& state, Candidate* picked) {
  const MaxmemoryPolicy policy = state.config.maxmemory_policy;
  const size_t count = state.dbs.count();
  for (size_t i = 0; i < count; ++i) {
    const size_t j = ++next_db_ % count;
    Db& db = state.dbs.db(j);
    if (Evictable(db, policy) == 0) continue;
    bool found = false;
    db.SampleKeys(1, !AllKeys(policy), [&](std::string_view key, const Value&, int64_t) {
      *picked = Candidate{0, std::string(key), j};
      found = true;
    });
    if (found) return true;
  }
  return false;
}

Evictor::Result Evictor::Perform(ServerState& state, int64_t now_ms) {
  const Config& config = state.config;
  // Redis's isSafeToPerformEvictions: a pause freezes the dataset.
  if (state.pause.type() != ClientPause::Type::kOff) {
    state.pause.Expire(now_ms);
    if (state.pause.type() != ClientPause::Type::kOff) return Result::kOk;
  }
  const size_t used = state.memory_gauge.Read(config.maxmemory);
  if (used <= config.maxmemory) return Result::kOk;
  if (config.maxmemory_policy == MaxmemoryPolicy::kNoEviction) return Result::kFail;
  const bool random = config.maxmemory_policy == MaxmemoryPolicy::kAllkeysRandom ||
                      config.maxmemory_policy == MaxmemoryPolicy::kVolatileRandom;
  const size_t to_free = used - config.maxmemory;
  const auto limit = TimeLimit(config.maxmemory_eviction_tenacity);
  const auto start = std::chrono::steady_clock::now();
  size_t freed = 0;
  uint64_t evicted = 0;
  Result result = Result::kOk;
  while (freed < to_free) {
    Candidate victim;
    if (!(random ? PickRandom(state, &victim) : PopBest(state, now_ms, &victim))) {
      result = Result::kFail;
      break;
    }
    Db& db = state.dbs.db(victim.db);
    // Deleting frees the key's own blocks; its table slot stays for the next key.
    freed += db.MemoryOf(victim.key)->allocated;
    // A key whose deadline has passed goes as expired rather than evicted.
    if (db.Delete(victim.key, now_ms, state.config.lazyfree_lazy_eviction)) {
      ++state.stats.evicted_keys;
      // Redis's performEvictions: signalModifiedKey, then the "evicted" event.
      if (state.KeyHooksArmed()) state.SignalModifiedKey(nullptr, victim.db, victim.key);
      if (state.config.notify_keyspace_events & kNotifyEvicted) {
        PublishKeyspaceEvent(state, kNotifyEvicted, "evicted", victim.key, victim.db);
      }
      // Redis's propagateDeletion for an evicted key.
      if (state.propagation.on()) {
        state.propagation.AlsoPropagate(
            victim.db,
            {state.config.lazyfree_lazy_eviction ? "UNLINK" : "DEL", std::string(victim.key)});
      }
    }
    if (++evicted % 16 == 0 && std::chrono::steady_clock::now() - start > limit) {
      result = Result::kRunning;
      break;
    }
  }
  state.memory_gauge.Add(-static_cast<int64_t>(freed));
  return result;
}

}  // namespace kv
