#include "storage/packed_string.h"

#include <malloc.h>

#include <cstdlib>
#include <cstring>
#include <new>

// LeakSanitizer finds a block by scanning memory for pointers into it. The short form keeps the
// size in the pointer's top 16 bits, which hides the address from that scan (libFuzzer's
// per-input leak check then reports live members as leaked), so sanitized builds always use the
// long form, whose pointer only carries a low tag bit.
#if defined(__SANITIZE_ADDRESS__)
#define KV_LEAK_SCANNED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KV_LEAK_SCANNED 1
#endif
#endif

namespace kv {
namespace {

#ifdef KV_LEAK_SCANNED
constexpr bool kShortForm = false;
#else
constexpr bool kShortForm = true;
#endif

void* Allocate(size_t n) {
  void* p = std::malloc(n);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

}  // namespace

PackedString::PackedString(std::string_view s) {
  const size_t n = s.size();
  if (n <= kInlineCapacity) {
    word_ = (n << 1) | kInlineBit;
    if (n != 0) std::memcpy(reinterpret_cast<char*>(&word_) + 1, s.data(), n);
    return;
  }
  if (kShortForm && n <= kMaxShort) {
    void* p = Allocate(n);
    const auto address = reinterpret_cast<uintptr_t>(p);
    if ((address & ~kAddressMask) == 0) {
      std::memcpy(p, s.data(), n);
      word_ = address | (static_cast<uintptr_t>(n) << kAddressBits);
      return;
    }
    std::free(p);  // an address past 48 bits: keep the size in the block instead
  }
  char* p = static_cast<char*>(Allocate(8 + n));
  const uint64_t size = n;
  std::memcpy(p, &size, 8);
  std::memcpy(p + 8, s.data(), n);
  word_ = reinterpret_cast<uintptr_t>(p) | kLongBit;
}

size_t PackedString::LongSize() const {
  uint64_t n;
  std::memcpy(&n, reinterpret_cast<const void*>(word_ & ~kTagBits), 8);
  return n;
}

void* PackedString::block() const {
  return reinterpret_cast<void*>(word_ & kLongBit ? word_ & ~kTagBits : word_ & kAddressMask);
}

size_t PackedString::allocated() const { return on_heap() ? malloc_usable_size(block()) : 0; }

void PackedString::Release() {
  if (on_heap()) std::free(block());
  word_ = kEmpty;
}

}  // namespace kv
