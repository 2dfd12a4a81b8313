#include "server/counting_malloc.h"

#include <errno.h>
#include <malloc.h>
#include <mimalloc.h>
#include <stdlib.h>

#include <atomic>
#include <cstdio>
#include <new>

// Definitions of malloc and friends in the executable take precedence over glibc's (and over
// libmimalloc.so's own exports) for every caller in the process, glibc itself included; this is
// glibc's documented way to replace malloc. All of them must agree, so every entry point that can
// hand out or take back a block is here.

namespace {

// Relaxed: a running total read by INFO, not a synchronisation point. Steady-state command
// execution allocates nothing, so this is off the hot path.
std::atomic<size_t> g_allocated{0};

inline void* Counted(void* p) {
  if (p != nullptr) g_allocated.fetch_add(mi_usable_size(p), std::memory_order_relaxed);
  return p;
}

}  // namespace

namespace kv {

size_t CountedAllocatedBytes() { return g_allocated.load(std::memory_order_relaxed); }

const char* CountingMallocName() {
  static char name[32];
  if (name[0] == '\0') {
    const int v = mi_version();  // e.g. 209 for 2.0.9
    std::snprintf(name, sizeof name, "mimalloc-%d.%d.%d", v / 100, v / 10 % 10, v % 10);
  }
  return name;
}

}  // namespace kv

extern "C" {

void* malloc(size_t n) noexcept { return Counted(mi_malloc(n)); }

void* calloc(size_t count, size_t n) noexcept { return Counted(mi_calloc(count, n)); }

void free(void* p) noexcept {
  if (p == nullptr) return;
  g_allocated.fetch_sub(mi_usable_size(p), std::memory_order_relaxed);
  mi_free(p);
}

void* realloc(void* p, size_t n) noexcept {
  const size_t before = p != nullptr ? mi_usable_size(p) : 0;
  void* q = mi_realloc(p, n);
  if (q != nullptr) {
    g_allocated.fetch_sub(before, std::memory_order_relaxed);
    Counted(q);
  }
  return q;
}

void* reallocarray(void* p, size_t count, size_t n) noexcept {
  size_t total;
  if (__builtin_mul_overflow(count, n, &total)) {
    errno = ENOMEM;
    return nullptr;
  }
  return realloc(p, total);
}

void* aligned_alloc(size_t alignment, size_t n) noexcept {
  return Counted(mi_aligned_alloc(alignment, n));
}

void* memalign(size_t alignment, size_t n) noexcept { return Counted(mi_memalign(alignment, n)); }

int posix_memalign(void** out, size_t alignment, size_t n) noexcept {
  const int rc = mi_posix_memalign(out, alignment, n);
  if (rc == 0) Counted(*out);
  return rc;
}

void* valloc(size_t n) noexcept { return Counted(mi_valloc(n)); }

void* pvalloc(size_t n) noexcept { return Counted(mi_pvalloc(n)); }

size_t malloc_usable_size(void* p) noexcept { return p != nullptr ? mi_usable_size(p) : 0; }

}  // extern "C"

// libmimalloc.so also replaces the C++ allocation functions (straight to mimalloc, uncounted), so
// the program's own replacements (which win over any library's) route them through the counted
// functions above.

namespace {

void* NewOrThrow(size_t n) {
  // operator new(0) must return a unique pointer.
  if (void* p = malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}

void* AlignedNewOrThrow(size_t n, std::align_val_t alignment) {
  if (void* p = mi_malloc_aligned(n == 0 ? 1 : n, static_cast<size_t>(alignment)))
    return Counted(p);
  throw std::bad_alloc();
}

}  // namespace

void* operator new(size_t n) { return NewOrThrow(n); }
void* operator new[](size_t n) { return NewOrThrow(n); }
void* operator new(size_t n, const std::nothrow_t&) noexcept { return malloc(n == 0 ? 1 : n); }
void* operator new[](size_t n, const std::nothrow_t&) noexcept { return malloc(n == 0 ? 1 : n); }
void* operator new(size_t n, std::align_val_t a) { return AlignedNewOrThrow(n, a); }
void* operator new[](size_t n, std::align_val_t a) { return AlignedNewOrThrow(n, a); }
void* operator new(size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return Counted(mi_malloc_aligned(n == 0 ? 1 : n, static_cast<size_t>(a)));
}
void* operator new[](size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return Counted(mi_malloc_aligned(n == 0 ? 1 : n, static_cast<size_t>(a)));
}
void operator delete(void* p) noexcept { free(p); }
void operator delete[](void* p) noexcept { free(p); }
void operator delete(void* p, size_t) noexcept { free(p); }
void operator delete[](void* p, size_t) noexcept { free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { free(p); }
void operator delete(void* p, std::align_val_t) noexcept { free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { free(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { free(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { free(p); }
