#include "storage/compact_string.h"

#include <malloc.h>

#include <cstdlib>
#include <cstring>
#include <new>

namespace kv {
namespace {

constexpr size_t kMaxNarrow = UINT32_MAX;
// Past this a growing string adds this much room at a time instead of doubling, as Redis's
// sdsMakeRoomFor does with SDS_MAX_PREALLOC.
constexpr size_t kMaxPrealloc = 1024 * 1024;

char* Allocate(size_t bytes) {
  void* p = std::malloc(bytes);
  if (p == nullptr) throw std::bad_alloc();
  return static_cast<char*>(p);
}

}  // namespace

size_t CompactString::size() const {
  if (is_inline()) return (word_ & 0xff) >> 1;
  if (is_wide()) {
    uint64_t n;
    std::memcpy(&n, block(), 8);
    return n;
  }
  uint32_t n;
  std::memcpy(&n, block(), 4);
  return n;
}

const char* CompactString::data() const {
  if (is_inline()) return reinterpret_cast<const char*>(&word_) + 1;
  return block() + header();
}

char* CompactString::data() {
  if (is_inline()) return reinterpret_cast<char*>(&word_) + 1;
  return block() + header();
}

size_t CompactString::capacity() const {
  if (is_inline()) return kInlineCapacity;
  return malloc_usable_size(block()) - header();
}

size_t CompactString::allocated() const { return is_inline() ? 0 : malloc_usable_size(block()); }

void CompactString::SetSize(size_t n) {
  if (is_inline()) {
    word_ = (word_ & ~uintptr_t{0xff}) | (n << 1) | kInlineBit;
  } else if (is_wide()) {
    const uint64_t v = n;
    std::memcpy(block(), &v, 8);
  } else {
    const uint32_t v = static_cast<uint32_t>(n);
    std::memcpy(block(), &v, 4);
  }
}

void CompactString::Release() {
  if (!is_inline()) std::free(block());
  word_ = kEmpty;
}

void CompactString::Assign(std::string_view s) {
  if (s.size() > kInlineCapacity) {
    const bool wide = s.size() > kMaxNarrow;
    char* b = Allocate((wide ? 8 : 4) + s.size());
    word_ = reinterpret_cast<uintptr_t>(b) | (wide ? kWideBit : 0);
  } else {
    word_ = kEmpty;
  }
  std::memcpy(data(), s.data(), s.size());
  SetSize(s.size());
}

void CompactString::assign(std::string_view s) {
  const size_t cap = capacity();
  // Reuse the block when the new value fills at least half of it; otherwise a small value would
  // keep a big block alive, or a big one would not fit.
  if (s.size() <= cap && (is_inline() || s.size() > kInlineCapacity) &&
      (is_inline() || s.size() >= cap / 2)) {
    std::memmove(data(), s.data(), s.size());  // s may be a part of this string
    SetSize(s.size());
    return;
  }
  CompactString fresh(s);
  *this = std::move(fresh);
}

void CompactString::Reserve(size_t n, size_t keep) {
  const bool wide = n > kMaxNarrow;
  const size_t hdr = wide ? 8 : 4;
  if (!is_inline() && wide == is_wide()) {
    void* p = std::realloc(block(), hdr + n);
    if (p == nullptr) throw std::bad_alloc();
    word_ = reinterpret_cast<uintptr_t>(p) | (wide ? kWideBit : 0);
    return;
  }
  char* b = Allocate(hdr + n);
  std::memcpy(b + hdr, data(), keep);
  Release();
  word_ = reinterpret_cast<uintptr_t>(b) | (wide ? kWideBit : 0);
}

void CompactString::resize(size_t n) {
  const size_t old = size();
  if (n > capacity()) {
    Reserve(n < kMaxPrealloc ? n * 2 : n + kMaxPrealloc, old);
  }
  if (n > old) std::memset(data() + old, 0, n - old);
  SetSize(n);
}

void CompactString::append(std::string_view s) {
  const size_t old = size();
  const size_t n = old + s.size();
  if (n > capacity()) {
    // s may point into this string, which growing moves: copy it out of the old block first.
    CompactString grown;
    grown.Reserve(n < kMaxPrealloc ? n * 2 : n + kMaxPrealloc, 0);
    std::memcpy(grown.data(), data(), old);
    std::memcpy(grown.data() + old, s.data(), s.size());
    grown.SetSize(n);
    *this = std::move(grown);
    return;
  }
  std::memmove(data() + old, s.data(), s.size());
  SetSize(n);
}

}  // namespace kv
