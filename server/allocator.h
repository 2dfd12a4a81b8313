#pragma once

#include <cstddef>

namespace kv {

// What INFO's memory section says about the allocator: its name (mem_allocator) and the bytes it
// has handed out and not yet taken back (used_memory). By default that is glibc's malloc, read
// with mallinfo2; the kvserver binary replaces malloc with a counting mimalloc (see
// server/counting_malloc.cc) and installs its probe at start. An embedding process keeps its own
// allocator and the default probe.
struct AllocatorProbe {
  const char* name;
  size_t (*allocated_bytes)();
};

// Process-wide, as the allocator is; call before any server starts.
void SetAllocatorProbe(AllocatorProbe probe);
const AllocatorProbe& Allocator();

}  // namespace kv
