#include "storage/scored_member.h"

#include <malloc.h>

#include <cstdlib>
#include <new>

namespace kv {

ScoredMember* ScoredMember::Make(double score, std::string_view member) {
  const size_t n = member.size();
  void* block = std::malloc(BlockSize(n));
  if (block == nullptr) throw std::bad_alloc();
  auto* p = static_cast<unsigned char*>(block);
  std::memcpy(p, &score, kScoreBytes);
  unsigned char* q = p + kScoreBytes;
  if (n < kLongSize) {
    *q++ = static_cast<unsigned char>(n);
  } else {
    *q++ = kLongSize;
    const uint64_t size = n;
    std::memcpy(q, &size, sizeof size);
    q += sizeof size;
  }
  if (n != 0) std::memcpy(q, member.data(), n);
  return static_cast<ScoredMember*>(block);
}

void ScoredMember::Free(ScoredMember* m) { std::free(m); }

size_t ScoredMember::allocated() const {
  return malloc_usable_size(const_cast<ScoredMember*>(this));
}

}  // namespace kv
