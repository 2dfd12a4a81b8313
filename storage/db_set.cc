#include "storage/db_set.h"

namespace kv {

void DbSet::FlushAll() {
  for (Db& db : dbs_) db.Clear();
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
  constexpr size_t kSample = 20;
  const auto deadline = std::chrono::steady_clock::now() + budget;
  size_t expired = 0;
  for (Db& db : dbs_) {
    while (db.expires_size() > 0) {
      Db::ExpireCycleResult r = db.ActiveExpire(now_ms, kSample);
      expired += r.expired;
      if (r.expired * 4 <= r.checked) break;
      if (std::chrono::steady_clock::now() >= deadline) return expired;
    }
  }
  return expired;
}

}  // namespace kv
