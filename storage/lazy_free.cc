#include "storage/lazy_free.h"

#include <utility>

namespace kv {

LazyFreer::~LazyFreer() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void LazyFreer::Free(std::unique_ptr<Aggregate> value) {
  if (value == nullptr) return;
  if (value->FreeEffort() <= kThreshold) return;  // freed here, as it goes out of scope
  // std::function needs a copyable callable: the job owns the value through a shared_ptr.
  std::shared_ptr<Aggregate> owned(std::move(value));
  FreeLater([owned = std::move(owned)]() mutable { owned.reset(); }, 1);
}

void LazyFreer::FreeLater(std::function<void()> job, size_t objects) {
  pending_.fetch_add(objects, std::memory_order_relaxed);
  {
    std::lock_guard lock(mu_);
    jobs_.push_back({std::move(job), objects});
    if (!thread_.joinable()) thread_ = std::thread([this] { Loop(); });
  }
  wake_.notify_one();
}

void LazyFreer::Drain() {
  std::unique_lock lock(mu_);
  idle_.wait(lock, [this] { return jobs_.empty() && !running_job_; });
}

void LazyFreer::Loop() {
  std::unique_lock lock(mu_);
  while (true) {
    wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
    if (jobs_.empty()) return;  // stopping, with nothing left to free
    Job job = std::move(jobs_.front());
    jobs_.pop_front();
    running_job_ = true;
    lock.unlock();
    job.run();
    job.run = nullptr;  // what the job captured is freed here, off the lock too
    pending_.fetch_sub(job.objects, std::memory_order_relaxed);
    freed_.fetch_add(job.objects, std::memory_order_relaxed);
    lock.lock();
    running_job_ = false;
    if (jobs_.empty()) idle_.notify_all();
  }
}

}  // namespace kv
