#include "server/allocator.h"

#include <malloc.h>

namespace kv {
namespace {

size_t GlibcAllocatedBytes() {
  struct mallinfo2 mi = mallinfo2();
  return mi.uordblks + mi.hblkhd;
}

AllocatorProbe g_probe{"libc", &GlibcAllocatedBytes};

}  // namespace

void SetAllocatorProbe(AllocatorProbe probe) { g_probe = probe; }

const AllocatorProbe& Allocator() { return g_probe; }

}  // namespace kv
