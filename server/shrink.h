#pragma once

#include <cstddef>

namespace kv {

// Gives back the memory of a hash table that emptied or shrank to a small fraction of its
// capacity: absl's tables never shrink on erase, so a registry that once held a million entries
// would keep their slots for good. Amortized O(1) per erase: a shrink rehashes at most an eighth
// of the slots it frees.
template <typename Table>
void ShrinkAfterErase(Table& table) {
  if (table.empty()) {
    if (table.capacity() != 0) Table().swap(table);
  } else if (table.capacity() > 64 && table.size() * 8 < table.capacity()) {
    table.rehash(0);
  }
}

}  // namespace kv
