#include "storage/intset.h"

#include <malloc.h>

#include <cstdlib>
#include <cstring>
#include <new>

namespace kv {
namespace {

// What every empty set points at: encoding 2, length 0 (intsetNew). Never written.
alignas(8) constexpr uint8_t kEmptyBlock[IntSet::kHeaderSize] = {2, 0, 0, 0, 0, 0, 0, 0};

inline uint32_t Load32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

inline void Store32(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v);
  p[1] = static_cast<uint8_t>(v >> 8);
  p[2] = static_cast<uint8_t>(v >> 16);
  p[3] = static_cast<uint8_t>(v >> 24);
}

// The value at `index` of values `enc` bytes wide starting at `values`.
inline int64_t Load(const uint8_t* values, size_t index, uint32_t enc) {
  const uint8_t* p = values + index * enc;
  switch (enc) {
    case 2:
      return static_cast<int16_t>(uint16_t{p[0]} | uint16_t{p[1]} << 8);
    case 4:
      return static_cast<int32_t>(Load32(p));
    default:
      return static_cast<int64_t>(uint64_t{Load32(p)} | uint64_t{Load32(p + 4)} << 32);
  }
}

inline void Store(uint8_t* values, size_t index, int64_t v, uint32_t enc) {
  uint8_t* p = values + index * enc;
  const auto u = static_cast<uint64_t>(v);
  for (uint32_t i = 0; i < enc; ++i) p[i] = static_cast<uint8_t>(u >> (8 * i));
}

}  // namespace

IntSet::IntSet() noexcept : block_(const_cast<uint8_t*>(kEmptyBlock)) {}

IntSet::IntSet(IntSet&& other) noexcept : block_(other.block_) {
  other.block_ = const_cast<uint8_t*>(kEmptyBlock);
}

IntSet& IntSet::operator=(IntSet&& other) noexcept {
  if (this != &other) {
    if (!is_shared_empty()) std::free(block_);
    block_ = other.block_;
    other.block_ = const_cast<uint8_t*>(kEmptyBlock);
  }
  return *this;
}

IntSet::~IntSet() {
  if (!is_shared_empty()) std::free(block_);
}

bool IntSet::is_shared_empty() const { return block_ == kEmptyBlock; }

uint32_t IntSet::encoding() const { return Load32(block_); }

size_t IntSet::size() const { return Load32(block_ + 4); }

void IntSet::SetEncoding(uint32_t enc) { Store32(block_, enc); }

void IntSet::SetLength(uint32_t n) { Store32(block_ + 4, n); }

size_t IntSet::allocated() const { return is_shared_empty() ? 0 : malloc_usable_size(block_); }

uint32_t IntSet::EncodingFor(int64_t v) {
  if (v < INT32_MIN || v > INT32_MAX) return 8;
  if (v < INT16_MIN || v > INT16_MAX) return 4;
  return 2;
}

int64_t IntSet::Get(size_t index) const { return Load(block_ + kHeaderSize, index, encoding()); }

void IntSet::Put(size_t index, int64_t v, uint32_t enc) {
  Store(block_ + kHeaderSize, index, v, enc);
}

void IntSet::Reserve(size_t n) {
  if (is_shared_empty()) {
    void* p = std::malloc(n);
    if (p == nullptr) throw std::bad_alloc();
    std::memcpy(p, kEmptyBlock, kHeaderSize);
    block_ = static_cast<uint8_t*>(p);
    return;
  }
  if (n <= malloc_usable_size(block_)) return;
  void* p = std::realloc(block_, n);
  if (p == nullptr) throw std::bad_alloc();
  block_ = static_cast<uint8_t*>(p);
}

void IntSet::MaybeShrink(size_t n) {
  if (is_shared_empty()) return;
  if (malloc_usable_size(block_) <= n + n / 4 + 16) return;
  if (void* p = std::realloc(block_, n)) block_ = static_cast<uint8_t*>(p);
}

bool IntSet::Search(int64_t v, size_t* index) const {
  const size_t n = size();
  if (n == 0) {
    *index = 0;
    return false;
  }
  const uint32_t enc = encoding();
  const uint8_t* values = block_ + kHeaderSize;
  // Outside the range: no search needed (adds at either end are the common case).
  if (v > Load(values, n - 1, enc)) {
    *index = n;
    return false;
  }
  if (v < Load(values, 0, enc)) {
    *index = 0;
    return false;
  }
  size_t lo = 0;
  size_t hi = n;  // [lo, hi)
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    const int64_t cur = Load(values, mid, enc);
    if (cur < v) {
      lo = mid + 1;
    } else if (cur > v) {
      hi = mid;
    } else {
      *index = mid;
      return true;
    }
  }
  *index = lo;
  return false;
}

bool IntSet::Contains(int64_t v) const {
  size_t ignored;
  return EncodingFor(v) <= encoding() && Search(v, &ignored);
}

void IntSet::UpgradeAndAdd(int64_t v, uint32_t enc) {
  const uint32_t old_enc = encoding();
  const size_t n = size();
  // A value that needs a wider encoding is below or above every value in the set.
  const size_t shift = v < 0 ? 1 : 0;
  Reserve(kHeaderSize + (n + 1) * enc);
  uint8_t* values = block_ + kHeaderSize;
  // Back to front, so that no value is overwritten before it is read.
  for (size_t i = n; i-- > 0;) Store(values, i + shift, Load(values, i, old_enc), enc);
  Store(values, v < 0 ? 0 : n, v, enc);
  SetEncoding(enc);
  SetLength(static_cast<uint32_t>(n + 1));
}

bool IntSet::Add(int64_t v) {
  const uint32_t enc = EncodingFor(v);
  if (enc > encoding()) {
    UpgradeAndAdd(v, enc);
    return true;
  }
  size_t index;
  if (Search(v, &index)) return false;
  const size_t n = size();
  const uint32_t width = encoding();
  Reserve(kHeaderSize + (n + 1) * width);
  uint8_t* values = block_ + kHeaderSize;
  std::memmove(values + (index + 1) * width, values + index * width, (n - index) * width);
  Put(index, v, width);
  SetLength(static_cast<uint32_t>(n + 1));
  return true;
}

bool IntSet::Remove(int64_t v) {
  size_t index;
  if (EncodingFor(v) > encoding() || !Search(v, &index)) return false;
  const size_t n = size();
  const uint32_t width = encoding();
  uint8_t* values = block_ + kHeaderSize;
  std::memmove(values + index * width, values + (index + 1) * width, (n - index - 1) * width);
  SetLength(static_cast<uint32_t>(n - 1));
  MaybeShrink(kHeaderSize + (n - 1) * width);
  return true;
}

IntSet IntSet::Clone() const {
  if (is_shared_empty()) return IntSet();
  const size_t n = bytes();
  void* p = std::malloc(n);
  if (p == nullptr) throw std::bad_alloc();
  std::memcpy(p, block_, n);
  return IntSet(static_cast<uint8_t*>(p));
}

bool IntSet::Validate(std::string_view bytes, bool deep) {
  if (bytes.size() < kHeaderSize) return false;
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint32_t enc = Load32(p);
  if (enc != 2 && enc != 4 && enc != 8) return false;
  const uint64_t count = Load32(p + 4);
  if (kHeaderSize + count * enc != bytes.size()) return false;
  if (count == 0) return false;
  if (!deep) return true;
  const uint8_t* values = p + kHeaderSize;
  int64_t prev = Load(values, 0, enc);
  for (size_t i = 1; i < count; ++i) {
    const int64_t cur = Load(values, i, enc);
    if (cur <= prev) return false;
    prev = cur;
  }
  return true;
}

std::optional<IntSet> IntSet::FromBytes(std::string_view bytes, bool deep) {
  if (!Validate(bytes, deep)) return std::nullopt;
  void* p = std::malloc(bytes.size());
  if (p == nullptr) throw std::bad_alloc();
  std::memcpy(p, bytes.data(), bytes.size());
  return IntSet(static_cast<uint8_t*>(p));
}

}  // namespace kv
