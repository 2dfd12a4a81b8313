#include "server/allocator.h"

#include <malloc.h>

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define KV_ASAN_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KV_ASAN_ALLOCATOR 1
#endif
#endif
#ifdef KV_ASAN_ALLOCATOR
// From the sanitizer runtime (<sanitizer/allocator_interface.h>, which gcc does not install).
extern "C" size_t __sanitizer_get_current_allocated_bytes();
#endif

namespace kv {
namespace {

size_t GlibcAllocatedBytes() {
#ifdef KV_ASAN_ALLOCATOR
  // Under AddressSanitizer malloc is the sanitizer's, which glibc's mallinfo2 does not see.
  return __sanitizer_get_current_allocated_bytes();
#else
  struct mallinfo2 mi = mallinfo2();
  return mi.uordblks + mi.hblkhd;
#endif
}

AllocatorProbe g_probe{"libc", &GlibcAllocatedBytes};

}  // namespace

void SetAllocatorProbe(AllocatorProbe probe) { g_probe = probe; }

const AllocatorProbe& Allocator() { return g_probe; }

}  // namespace kv
