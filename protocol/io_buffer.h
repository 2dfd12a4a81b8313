#pragma once

#include <cstddef>
#include <cstring>
#include <string_view>

namespace kv {

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
  }
  void Clear() { begin_ = end_ = 0; }
  // Drops the readable bytes past the first `n` (n <= size()), e.g. a reply that must not be sent.
  void Truncate(size_t n) {
    end_ = begin_ + n;
    if (begin_ == end_) begin_ = end_ = 0;
  }

  // Returns a pointer to at least `n` writable bytes at the back; CommitWrite makes them readable.
  char* PrepareWrite(size_t n) {
    if (capacity_ - end_ < n) MakeRoom(n);
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

  void Reserve(size_t n);
  // Frees the storage of a large buffer that holds nothing, so an idle connection that once
  // carried a big value does not keep its memory.
  void ShrinkIfEmpty(size_t keep_capacity);

 private:
  void MakeRoom(size_t n);

  char* data_ = nullptr;
  size_t capacity_ = 0;
  size_t begin_ = 0;
  size_t end_ = 0;
};

}  // namespace kv
