#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>

#include "storage/lazy_free.h"

namespace kv {

// Redis's lazyfree: big values deleted by UNLINK (and the lazyfree-lazy-* directives) and the
// tables of FLUSHDB/FLUSHALL ASYNC are queued here and freed on the event loop, a slice of about
// kSlice at a time between the other handlers, oldest first, so that no client waits long while
// ten million members are freed (Redis frees ten million members in about as long, or longer
// when its bio thread shares the CPU). Redis frees them on its bio thread; here a thread would not
// help: mimalloc makes the thread that allocated the blocks (the event loop) stall while another
// thread frees them (bench/results/lazyfree-10M/findings.md). Values no bigger than kThreshold
// are freed at once.
//
// Counters as Redis's INFO reports them: an object is pending from the moment it is queued
// until its last block is freed (a flushed database counts as its number of keys), and then
// counts as lazily freed.
class LazyFreer final : public LazyFreeSink {
 public:
  // How long one slice frees for. A client whose request arrives meanwhile waits at most this
  // (plus one step).
  static constexpr std::chrono::microseconds kSlice{500};
  // How long the server's loop waits between two slices. A loop that never sleeps while it frees
  // is, on a busy machine, preempted by the OS for milliseconds at a time, and its clients wait
  // that long (measured with ten million members and a load of 9 on 2 cores: GET p99 1 to 13 ms
  // without the pause, 0.6 ms with it; freeing took as long).
  static constexpr std::chrono::microseconds kPause{500};
  // The units of work (see Releasable) between two looks at the clock: tens of microseconds.
  static constexpr size_t kStep = 1024;

  LazyFreer() = default;
  LazyFreer(const LazyFreer&) = delete;
  LazyFreer& operator=(const LazyFreer&) = delete;
  // Frees whatever is still queued.
  ~LazyFreer() { Drain(); }

  // How slices get run: `post(fn)` runs `fn` later on the same thread, after what is ready now
  // (the server: on its event loop, kPause later). While one is set, the freer keeps one slice
  // posted as long as work remains. Without one (the default, and once the server stops) nothing
  // runs unless the owner calls RunSlice or Drain.
  void SetPost(std::function<void(std::function<void()>)> post) { post_ = std::move(post); }

  void FreeValue(std::unique_ptr<Aggregate> value) override;
  void FreeTables(std::unique_ptr<Releasable> tables, size_t keys) override;

  // Frees queued objects, oldest first, for about `time` (at least one step); returns whether
  // work remains.
  bool RunSlice(std::chrono::nanoseconds time = kSlice);
  // Frees everything queued, now.
  void Drain();

  // INFO's lazyfree_pending_objects and lazyfreed_objects.
  size_t pending_objects() const { return pending_; }
  uint64_t freed_objects() const { return freed_; }
  // CONFIG RESETSTAT (Redis's lazyfreeResetStats): lazyfreed_objects starts again from 0.
  void ResetFreedObjects() { freed_ = 0; }

 private:
  struct Job {
    std::unique_ptr<Releasable> object;
    size_t objects;
  };
  void Enqueue(std::unique_ptr<Releasable> object, size_t objects);
  // Frees one step of the oldest job; false when the queue is empty.
  bool Step(size_t budget);
  void SchedulePost();

  std::deque<Job> jobs_;
  std::function<void(std::function<void()>)> post_;
  bool slice_posted_ = false;
  size_t pending_ = 0;
  uint64_t freed_ = 0;
};

}  // namespace kv
