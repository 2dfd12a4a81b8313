#include "storage/entry.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>

namespace kv {

Entry::Ptr Entry::Make(std::string_view key, std::string_view value) {
  if (key.size() > UINT32_MAX) throw std::length_error("key too long");
  const size_t key_end = (key.size() > UINT16_MAX ? 16 : 8) + key.size();
  const bool embed = value.size() <= kMaxEmbedded;
  // Room for the embedded string, and always for the word of an external one.
  const size_t bytes = std::max(key_end + (embed ? value.size() : 0), SlotOffset(key_end) + 8);
  void* block = std::malloc(bytes);
  if (block == nullptr) throw std::bad_alloc();
  Entry* e = new (block) Entry(key.size());
  std::memcpy(e->base() + e->key_offset(), key.data(), key.size());
  Ptr owned(e);
  if (embed) {
    e->Embed(value);
  } else {
    e->MakeExternal(CompactString(value));
  }
  return owned;
}

void Entry::Free::operator()(Entry* e) const {
  e->~Entry();
  std::free(e);
}

}  // namespace kv
