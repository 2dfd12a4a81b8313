#include "storage/entry.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>

#include "storage/compact_string.h"

namespace kv {
namespace {

// The key's bytes start right after key_size_, not at sizeof(Entry) (which is padded).
constexpr size_t kKeyOffset = sizeof(Value) + sizeof(uint32_t);

}  // namespace

Entry* Entry::Allocate(std::string_view key, size_t extra) {
  if (key.size() > UINT32_MAX) throw std::length_error("key too long");
  static_assert(offsetof(Entry, key_size_) + sizeof(uint32_t) == kKeyOffset);
  void* block = std::malloc(kKeyOffset + key.size() + extra);
  if (block == nullptr) throw std::bad_alloc();
  Entry* e = new (block) Entry(static_cast<uint32_t>(key.size()));
  std::memcpy(e->KeyBytes(), key.data(), key.size());
  return e;
}

Entry::Ptr Entry::Make(std::string_view key) { return Ptr(Allocate(key, 0)); }

Entry::Ptr Entry::Make(std::string_view key, std::string_view value) {
  // Short strings live in the Value's word, and sizes past 4 GiB need CompactString's wide form.
  if (value.size() <= CompactString::kInlineCapacity || value.size() > UINT32_MAX) {
    Ptr e = Make(key);
    e->value_.SetString(value);
    return e;
  }
  // The borrowed block must be 8-byte aligned, as CompactString keeps tags in a pointer's low bits.
  const size_t value_offset = (kKeyOffset + key.size() + 7) & ~size_t{7};
  const size_t padding = value_offset - kKeyOffset - key.size();
  Entry* e = Allocate(key, padding + sizeof(uint32_t) + value.size());
  char* block = reinterpret_cast<char*>(e) + value_offset;
  const uint32_t size = static_cast<uint32_t>(value.size());
  std::memcpy(block, &size, sizeof size);
  std::memcpy(block + sizeof size, value.data(), value.size());
  e->value_.BorrowString(block);
  return Ptr(e);
}

void Entry::Free::operator()(Entry* e) const {
  e->~Entry();
  std::free(e);
}

}  // namespace kv
