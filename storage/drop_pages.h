#pragma once

#include <cstddef>

namespace kv {

// Gives the memory pages lying wholly inside [begin, end) back to the OS (madvise
// MADV_DONTNEED), inside a block that stays allocated and whose bytes there are never read again.
// A structure that frees a huge array in steps (lazy freeing, see Releasable) drops the part it
// is done with as it goes: freeing a 150 MB block whose pages are all still mapped takes tens of
// milliseconds in munmap, which would stall the thread at the last step.
void DropPages(const void* begin, const void* end);

}  // namespace kv
