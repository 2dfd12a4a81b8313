#include "server/lazy_free.h"

#include <limits>
#include <utility>

namespace kv {

void LazyFreer::FreeValue(std::unique_ptr<Aggregate> value) {
  if (value == nullptr || value->FreeEffort() <= kThreshold) return;  // freed as it goes
  Enqueue(std::move(value), 1);
}

void LazyFreer::FreeTables(std::unique_ptr<Releasable> tables, size_t keys) {
  Enqueue(std::move(tables), keys);
}

void LazyFreer::Enqueue(std::unique_ptr<Releasable> object, size_t objects) {
  pending_ += objects;
  jobs_.push_back({std::move(object), objects});
  SchedulePost();
}

void LazyFreer::SchedulePost() {
  if (slice_posted_ || !post_ || jobs_.empty()) return;
  slice_posted_ = true;
  post_([this] {
    slice_posted_ = false;
    if (RunSlice()) SchedulePost();
  });
}

bool LazyFreer::Step(size_t budget) {
  if (jobs_.empty()) return false;
  Job& job = jobs_.front();
  if (!job.object->ReleaseSome(budget)) return true;
  const size_t objects = job.objects;
  jobs_.pop_front();  // the object's destructor frees what is left, a few blocks
  pending_ -= objects;
  freed_ += objects;
  return !jobs_.empty();
}

bool LazyFreer::RunSlice(std::chrono::nanoseconds time) {
  const auto deadline = std::chrono::steady_clock::now() + time;
  while (Step(kStep)) {
    if (std::chrono::steady_clock::now() >= deadline) return true;
  }
  return false;
}

void LazyFreer::Drain() {
  while (Step(std::numeric_limits<size_t>::max())) {
  }
}

}  // namespace kv
