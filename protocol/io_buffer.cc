#include "protocol/io_buffer.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <utility>

namespace kv {

IoBuffer::~IoBuffer() { std::free(data_); }

IoBuffer::IoBuffer(IoBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      capacity_(std::exchange(other.capacity_, 0)),
      begin_(std::exchange(other.begin_, 0)),
      end_(std::exchange(other.end_, 0)),
      limit_(std::exchange(other.limit_, 0)),
      watcher_(std::exchange(other.watcher_, nullptr)),
      watch_size_(std::exchange(other.watch_size_, 0)) {}

IoBuffer& IoBuffer::operator=(IoBuffer&& other) noexcept {
  if (this != &other) {
    std::free(data_);
    data_ = std::exchange(other.data_, nullptr);
    capacity_ = std::exchange(other.capacity_, 0);
    begin_ = std::exchange(other.begin_, 0);
    end_ = std::exchange(other.end_, 0);
    limit_ = std::exchange(other.limit_, 0);
    watcher_ = std::exchange(other.watcher_, nullptr);
    watch_size_ = std::exchange(other.watch_size_, 0);
  }
  return *this;
}

void IoBuffer::Reserve(size_t n) {
  if (capacity_ - end_ >= n) return;
  MakeRoom(n);
}

void IoBuffer::Watch(size_t size, IoBufferWatcher* watcher) {
  watcher_ = watcher;
  // Bounded so that begin_ + watch_size_ cannot wrap.
  watch_size_ = std::min(size, SIZE_MAX / 4);
  UpdateLimit();
}

void IoBuffer::PrepareWriteSlow(size_t n) {
  if (watcher_ != nullptr && size() + n > watch_size_) watcher_->WatchedSizeReached(*this, n);
  if (capacity_ - end_ < n) MakeRoom(n);
  UpdateLimit();
  // The write goes ahead even past the watch (the watcher saw it): the limit covers it, so that
  // end_ never passes limit_.
  if (limit_ - end_ < n) limit_ = end_ + n;
}

void IoBuffer::MakeRoom(size_t n) {
  const size_t used = end_ - begin_;
  // Sliding the readable bytes to the front is cheaper than growing when little is readable.
  if (begin_ > 0 && capacity_ - used >= n && used <= capacity_ / 2) {
    std::memmove(data_, data_ + begin_, used);
    begin_ = 0;
    end_ = used;
    UpdateLimit();
    return;
  }
  size_t new_capacity = std::max<size_t>({capacity_ * 2, used + n, 1024});
  char* fresh = static_cast<char*>(std::malloc(new_capacity));
  if (fresh == nullptr) throw std::bad_alloc();
  if (used > 0) std::memcpy(fresh, data_ + begin_, used);
  std::free(data_);
  data_ = fresh;
  capacity_ = new_capacity;
  begin_ = 0;
  end_ = used;
  UpdateLimit();
}

void IoBuffer::ShrinkIfEmpty(size_t keep_capacity) {
  if (begin_ != end_ || capacity_ <= keep_capacity) return;
  std::free(data_);
  data_ = nullptr;
  capacity_ = begin_ = end_ = 0;
  UpdateLimit();
}

}  // namespace kv
