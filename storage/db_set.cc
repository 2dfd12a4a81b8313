#include "storage/db_set.h"

namespace kv {

void DbSet::FlushAll(bool async) {
  for (Db& db : dbs_) db.Clear(async);
}

size_t DbSet::TotalKeys() const {
  size_t n = 0;
  for (const Db& db : dbs_) n += db.size();
  return n;
}

uint64_t DbSet::ExpiredKeys() const {
  uint64_t n = 0;
  for (const Db& db : dbs_) n += db.expired_keys();
  return n;
}

size_t DbSet::ActiveExpireCycle(int64_t now_ms, std::chrono::microseconds budget) {
  // Redis 7.0's defaults (active-expire-effort 1): 20 keys per sample, and a database is sampled
  // again while more than 10% of a sample had expired.
  constexpr size_t kSample = 20;
  constexpr size_t kAcceptableStalePercent = 10;
  const auto deadline = std::chrono::steady_clock::now() + budget;
  size_t expired = 0;
  for (size_t n = 0; n < dbs_.size(); ++n) {
    // Move on to the next database before working on this one, so that when time runs out here
    // the next cycle starts with the next database and none is starved.
    Db& db = dbs_[next_expire_db_ % dbs_.size()];
    next_expire_db_ = (next_expire_db_ + 1) % dbs_.size();
    while (true) {
      const Db::ExpireCycleResult r = db.ActiveExpire(now_ms, kSample);
      expired += r.expired;
      if (r.checked == 0 || r.expired * 100 / r.checked <= kAcceptableStalePercent) break;
      if (std::chrono::steady_clock::now() >= deadline) return expired;
    }
  }
  return expired;
}

size_t DbSet::ActiveExpireAll(int64_t now_ms) {
  size_t expired = 0;
  for (Db& db : dbs_) expired += db.ActiveExpire(now_ms, db.expires_size()).expired;
  return expired;
}

}  // namespace kv
