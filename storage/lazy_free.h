#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "storage/aggregate.h"

namespace kv {

// Frees big values on a thread of its own, as Redis's lazyfree (its bio thread's BIO_LAZY_FREE
// jobs): deleting a ten-million-element set must not stall the event loop. The thread starts on
// the first job and is joined, after finishing every job, when the freer is destroyed.
class LazyFreer {
 public:
  // Values whose freeing takes more allocations than this go to the thread (Redis's
  // LAZYFREE_THRESHOLD); smaller ones are freed at once, where a thread hop costs more.
  static constexpr size_t kThreshold = 64;

  LazyFreer() = default;
  LazyFreer(const LazyFreer&) = delete;
  LazyFreer& operator=(const LazyFreer&) = delete;
  ~LazyFreer();

  // Frees `value`, on the thread if it is big.
  void Free(std::unique_ptr<Aggregate> value);
  // Runs `job` (which frees `objects` values, e.g. a flushed database's tables) on the thread.
  void FreeLater(std::function<void()> job, size_t objects);
  // Blocks until every job queued so far is done (tests, and shutdown paths that need it).
  void Drain();

  // INFO's lazyfree_pending_objects and lazyfreed_objects.
  size_t pending_objects() const { return pending_.load(std::memory_order_relaxed); }
  uint64_t freed_objects() const { return freed_.load(std::memory_order_relaxed); }
  // CONFIG RESETSTAT (Redis's lazyfreeResetStats): lazyfreed_objects starts again from 0.
  void ResetFreedObjects() { freed_.store(0, std::memory_order_relaxed); }

 private:
  struct Job {
    std::function<void()> run;
    size_t objects;
  };
  void Loop();

  std::mutex mu_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::deque<Job> jobs_;
  bool running_job_ = false;
  bool stopping_ = false;
  std::thread thread_;
  std::atomic<size_t> pending_{0};
  std::atomic<uint64_t> freed_{0};
};

}  // namespace kv
