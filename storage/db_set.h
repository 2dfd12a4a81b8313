#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "storage/db.h"

namespace kv {

// The numbered databases that SELECT chooses among (16 by default).
class DbSet {
 public:
  explicit DbSet(size_t count) : dbs_(count) {}

  size_t count() const { return dbs_.size(); }
  Db& db(size_t index) { return dbs_[index]; }
  const Db& db(size_t index) const { return dbs_[index]; }

  // With `async`, the tables go to the lazy freeing sink (FLUSHALL ASYNC).
  void FlushAll(bool async = false);
  // The sink every database hands what it frees lazily to (see Db::SetLazyFree), and whether
  // expiry and overwrites use it. The sink outlives the databases.
  void SetLazyFree(LazyFreeSink* freer, bool lazy_expire, bool lazy_server_del) {
    for (Db& db : dbs_) db.SetLazyFree(freer, lazy_expire, lazy_server_del);
  }
  // SWAPDB: the contents of two databases trade places (connections keep their index).
  void Swap(size_t a, size_t b) {
    std::swap(dbs_[a], dbs_[b]);
    if (observer_ != nullptr) SetObserver(observer_);
  }
  // Every database reports to `observer` under its number; see KeyspaceObserver.
  void SetObserver(KeyspaceObserver* observer) {
    observer_ = observer;
    for (size_t i = 0; i < dbs_.size(); ++i) dbs_[i].SetObserver(observer, i);
  }
  void ReportAdditions(bool on) {
    for (Db& db : dbs_) db.ReportAdditions(on);
  }
  // See Db::SuspendExpiry.
  void SuspendExpiry(bool on) {
    for (Db& db : dbs_) db.SuspendExpiry(on);
  }
  // See Db::KeepExpiredKeys.
  void KeepExpiredKeys(bool on) {
    for (Db& db : dbs_) db.KeepExpiredKeys(on);
  }
  size_t TotalKeys() const;
  uint64_t ExpiredKeys() const;
  // Redis's active expire cycle: samples volatile keys of every database, 20 at a time, and keeps
  // going in a database while more than 10% of a sample had expired, until `budget` of real time
  // is spent; the next call then starts with the database after the one it stopped in. Returns
  // the number of keys deleted.
  size_t ActiveExpireCycle(int64_t now_ms, std::chrono::microseconds budget);
  // Active expiry without sampling or budget: visits every volatile key of every database once
  // and deletes those expired at `now_ms`. For a test clock that jumps. Returns the number deleted.
  size_t ActiveExpireAll(int64_t now_ms);

 private:
  std::vector<Db> dbs_;
  size_t next_expire_db_ = 0;  // where the next active expire cycle starts
  KeyspaceObserver* observer_ = nullptr;
};

}  // namespace kv
