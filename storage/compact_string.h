#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace kv {

// An owned, binary-safe byte string in one machine word, for keys and string values: every key
// and value of the keyspace is one of these, so their size is most of the memory per key.
//
// Up to 7 bytes live inside the word itself. Longer strings live in one heap block laid out as
// [size][bytes]: a 4-byte size (an 8-byte one past 4 GiB), then the bytes. The block's capacity
// is what the allocator really gave (malloc_usable_size), so nothing stores it, and a string that
// is set once (the common case) takes one allocation of its exact size. std::string, by
// contrast, takes 32 bytes in place plus a separate block for anything over 15 bytes.
//
// The word tells the forms apart by its low bits, which block pointers (8-byte aligned) leave at
// zero: bit 0 set means inline (size in bits 1-3 of the first byte), bit 1 set means a heap
// block with an 8-byte size.
class CompactString {
 public:
  static constexpr size_t kInlineCapacity = 7;

  CompactString() = default;
  explicit CompactString(std::string_view s) { Assign(s); }
  CompactString(const CompactString& other) { Assign(other.view()); }
  CompactString(CompactString&& other) noexcept : word_(other.word_) { other.word_ = kEmpty; }
  CompactString& operator=(const CompactString& other) {
    if (this != &other) assign(other.view());
    return *this;
  }
  CompactString& operator=(CompactString&& other) noexcept {
    if (this != &other) {
      Release();
      word_ = other.word_;
      other.word_ = kEmpty;
    }
    return *this;
  }
  ~CompactString() { Release(); }

  size_t size() const;
  bool empty() const { return size() == 0; }
  const char* data() const;
  char* data();
  std::string_view view() const { return {data(), size()}; }
  operator std::string_view() const { return view(); }
  std::string str() const { return std::string(view()); }
  char& operator[](size_t i) { return data()[i]; }
  char operator[](size_t i) const { return data()[i]; }

  void assign(std::string_view s);
  void assign(const char* p, size_t n) { assign(std::string_view(p, n)); }
  void append(std::string_view s);
  void append(const char* p, size_t n) { append(std::string_view(p, n)); }
  // New bytes are zero, as std::string::resize(n) and Redis's SETRANGE/SETBIT padding.
  void resize(size_t n);
  void clear() { resize(0); }
  // Bytes the string can hold without reallocating.
  size_t capacity() const;
  // Bytes taken from the allocator (0 when inline), for memory accounting.
  size_t allocated() const;

  friend bool operator==(const CompactString& a, std::string_view b) { return a.view() == b; }

 private:
  static constexpr uintptr_t kInlineBit = 1;
  static constexpr uintptr_t kWideBit = 2;
  static constexpr uintptr_t kTagBits = kInlineBit | kWideBit;
  static constexpr uintptr_t kEmpty = kInlineBit;  // inline, size 0

  bool is_inline() const { return (word_ & kInlineBit) != 0; }
  bool is_wide() const { return (word_ & kWideBit) != 0; }
  char* block() const { return reinterpret_cast<char*>(word_ & ~kTagBits); }
  size_t header() const { return is_wide() ? 8 : 4; }
  void SetSize(size_t n);
  // Into an empty (just released) string.
  void Assign(std::string_view s);
  // Makes room for n bytes, keeping the first `keep` bytes; may move the string to the heap.
  void Reserve(size_t n, size_t keep);
  void Release();

  uintptr_t word_ = kEmpty;
};

}  // namespace kv
