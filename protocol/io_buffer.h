#pragma once

#include <cstddef>
#include <cstring>
#include <string_view>

namespace kv {

class IoBuffer;

// Told when an IoBuffer is about to grow past the size it watches (IoBuffer::Watch).
class IoBufferWatcher {
 public:
  virtual ~IoBufferWatcher() = default;
  // `incoming` bytes are about to be written to `buffer`, which would then hold more than the
  // watched size. The watcher may change the buffer (Clear it) or its watch; the write then goes
  // ahead.
  virtual void WatchedSizeReached(IoBuffer& buffer, size_t incoming) = 0;
};

// A growable byte buffer: bytes are appended at the back and consumed from the front.
// Memory grows only with bytes actually written, never with a length a peer announces.
class IoBuffer {
 public:
  IoBuffer() = default;
  explicit IoBuffer(size_t initial_capacity) { Reserve(initial_capacity); }
  ~IoBuffer();
  IoBuffer(const IoBuffer&) = delete;
  IoBuffer& operator=(const IoBuffer&) = delete;
  IoBuffer(IoBuffer&& other) noexcept;
  IoBuffer& operator=(IoBuffer&& other) noexcept;

  const char* data() const { return data_ + begin_; }
  char* data() { return data_ + begin_; }
  size_t size() const { return end_ - begin_; }
  bool empty() const { return begin_ == end_; }
  size_t capacity() const { return capacity_; }
  std::string_view view() const { return {data(), size()}; }

  void Consume(size_t n) {
    begin_ += n;
    if (begin_ == end_) begin_ = end_ = 0;
    UpdateLimit();
  }
  void Clear() {
    begin_ = end_ = 0;
    UpdateLimit();
  }
  // Drops the readable bytes past the first `n`, e.g. a reply that must not be sent; nothing when
  // the buffer holds no more than `n` (a watcher may have cleared it meanwhile).
  void Truncate(size_t n) {
    if (n >= size()) return;
    end_ = begin_ + n;
    if (begin_ == end_) begin_ = end_ = 0;
    UpdateLimit();
  }

  // Returns a pointer to at least `n` writable bytes at the back; CommitWrite makes them readable.
  // The one test covers both growing and the watch: limit_ is where either begins.
  char* PrepareWrite(size_t n) {
    if (limit_ - end_ < n) PrepareWriteSlow(n);
    return data_ + end_;
  }
  size_t WritableSize() const { return capacity_ - end_; }
  void CommitWrite(size_t n) { end_ += n; }

  void Append(std::string_view s) {
    // memcpy must not see the null pointers of an empty view or of a buffer without storage.
    if (s.empty()) return;
    std::memcpy(PrepareWrite(s.size()), s.data(), s.size());
    end_ += s.size();
  }
  void Append(char c) {
    *PrepareWrite(1) = c;
    ++end_;
  }

  // From now on, a write that would make size() exceed `size` first calls `watcher` (the owner
  // of a client's output counts it against a limit this way, without a test per write). One
  // watcher at a time; Unwatch ends it.
  void Watch(size_t size, IoBufferWatcher* watcher);
  void Unwatch() { Watch(0, nullptr); }
  // Calls the watcher now (its limits or what it counts changed), as if a write of nothing had
  // reached the watched size.
  void RecheckWatch() {
    if (watcher_ != nullptr) watcher_->WatchedSizeReached(*this, 0);
  }

  void Reserve(size_t n);
  // Frees the storage of a large buffer that holds nothing, so an idle connection that once
  // carried a big value does not keep its memory.
  void ShrinkIfEmpty(size_t keep_capacity);

 private:
  void MakeRoom(size_t n);
  void PrepareWriteSlow(size_t n);
  // Where the fast path of a write ends: the capacity, or before it the watched size (never
  // below end_, so `limit_ - end_` cannot wrap).
  void UpdateLimit() {
    if (watcher_ == nullptr) {
      limit_ = capacity_;
    } else {
      const size_t watched = begin_ + watch_size_;
      limit_ = watched < end_ ? end_ : (watched > capacity_ ? capacity_ : watched);
    }
  }

  char* data_ = nullptr;
  size_t capacity_ = 0;
  size_t begin_ = 0;
  size_t end_ = 0;
  size_t limit_ = 0;
  IoBufferWatcher* watcher_ = nullptr;
  size_t watch_size_ = 0;
};

}  // namespace kv
