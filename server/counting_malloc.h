#pragma once

#include <cstddef>

namespace kv {

// The allocator of the kvserver binary: mimalloc behind the C allocation functions, counting the
// usable size of every block it hands out, as Redis's zmalloc does for used_memory. Linked into the
// binary only (never into the library an embedding process links), since it replaces malloc for
// the whole process.
size_t CountedAllocatedBytes();
// "mimalloc-<version>", for INFO's mem_allocator.
const char* CountingMallocName();

}  // namespace kv
