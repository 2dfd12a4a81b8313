#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace kv {

// An immutable, binary-safe string in one machine word, for the members of big sets: one word per
// member in the hash table, and a heap block holding nothing but the member's bytes.
//
// Three forms, told apart by the word's low bits (block pointers are 8-byte aligned):
//   - inline (bit 0 set): up to 7 bytes in the word itself, the size in bits 1-3 of its first byte;
//   - short (bits 0-1 clear): a block of exactly the string's bytes; its size (up to 65535) in the
//     word's top 16 bits, above the 48-bit address. A 16-byte member takes a 16-byte block, where a
//     string with a size header takes the next size class (32 bytes);
//   - long (bit 1 set): a block [8-byte size][bytes], for longer strings (and for a block whose
//     address does not fit 48 bits, which x86-64 and AArch64 user space never hands out).
// The size of an inline or short string is read from the word alone, so comparing strings of
// different sizes touches no memory.
class PackedString {
 public:
  static constexpr size_t kInlineCapacity = 7;
  static constexpr size_t kMaxShort = 0xffff;

  PackedString() = default;
  explicit PackedString(std::string_view s);
  PackedString(PackedString&& other) noexcept : word_(other.word_) { other.word_ = kEmpty; }
  PackedString& operator=(PackedString&& other) noexcept {
    if (this != &other) {
      Release();
      word_ = other.word_;
      other.word_ = kEmpty;
    }
    return *this;
  }
  PackedString(const PackedString&) = delete;
  PackedString& operator=(const PackedString&) = delete;
  ~PackedString() { Release(); }

  size_t size() const {
    if (word_ & kInlineBit) return (word_ & 0xff) >> 1;
    if (word_ & kLongBit) return LongSize();
    return word_ >> kAddressBits;
  }
  const char* data() const {
    if (word_ & kInlineBit) return reinterpret_cast<const char*>(&word_) + 1;
    if (word_ & kLongBit) return reinterpret_cast<const char*>(word_ & ~kTagBits) + 8;
    return reinterpret_cast<const char*>(word_ & kAddressMask);
  }
  std::string_view view() const { return {data(), size()}; }
  // Bytes taken from the allocator (0 when inline), for memory accounting.
  size_t allocated() const;
  bool on_heap() const { return (word_ & kInlineBit) == 0; }

 private:
  static constexpr uintptr_t kInlineBit = 1;
  static constexpr uintptr_t kLongBit = 2;
  static constexpr uintptr_t kTagBits = 3;
  static constexpr uintptr_t kEmpty = kInlineBit;  // inline, size 0
  static constexpr int kAddressBits = 48;
  static constexpr uintptr_t kAddressMask = (uintptr_t{1} << kAddressBits) - 1;

  size_t LongSize() const;
  void* block() const;
  void Release();

  uintptr_t word_ = kEmpty;
};

static_assert(sizeof(PackedString) == sizeof(uintptr_t));
static_assert(sizeof(uintptr_t) == 8, "PackedString needs 64-bit pointers");

}  // namespace kv
