#include "storage/entry.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>

namespace kv {

Entry::Ptr Entry::Make(std::string_view key) {
  if (key.size() > UINT32_MAX) throw std::length_error("key too long");
  // The key's bytes start right after key_size_, not at sizeof(Entry) (which is padded).
  const size_t key_offset = offsetof(Entry, key_size_) + sizeof(uint32_t);
  void* block = std::malloc(key_offset + key.size());
  if (block == nullptr) throw std::bad_alloc();
  Entry* e = new (block) Entry(static_cast<uint32_t>(key.size()));
  std::memcpy(e->KeyBytes(), key.data(), key.size());
  return Ptr(e);
}

void Entry::Free::operator()(Entry* e) const {
  e->~Entry();
  std::free(e);
}

}  // namespace kv
