#pragma once

#include <cstddef>
#include <memory>

#include "storage/aggregate.h"
#include "storage/releasable.h"

namespace kv {

// Where a database hands what it drops when lazy freeing applies (UNLINK, the lazyfree-lazy-*
// directives, FLUSHDB/FLUSHALL ASYNC), as Redis's lazyfree.c: the server implements it
// (server/lazy_free.h) and frees big things a slice at a time.
class LazyFreeSink {
 public:
  // Redis's LAZYFREE_THRESHOLD: a value whose FreeEffort is at most this is freed at once, where
  // queueing it costs more than freeing it.
  static constexpr size_t kThreshold = 64;

  // A value deleted or overwritten (Redis's freeObjAsync).
  virtual void FreeValue(std::unique_ptr<Aggregate> value) = 0;
  // A flushed database's tables holding `keys` keys (Redis's emptyDbAsync), always queued.
  virtual void FreeTables(std::unique_ptr<Releasable> tables, size_t keys) = 0;

 protected:
  ~LazyFreeSink() = default;
};

}  // namespace kv
