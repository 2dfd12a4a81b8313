#pragma once

#include <cstddef>
#include <string>

#include "storage/compact_string.h"

namespace kv {

// Redis's sdsnewlen(NULL, n) for a string value made at its final length (SETRANGE or SETBIT on a
// missing key): n zero bytes in a block of about n bytes, where CompactString::resize leaves room
// to grow (twice the size under 1 MB, as Redis's sdsMakeRoomFor does for a string that grows).
// From 1 MB on, where resize adds at most 1 MB, resize is used rather than building the bytes
// twice.
inline void MakeZeroString(CompactString& s, size_t n) {
  constexpr size_t kExactBelow = 1024 * 1024;
  if (n >= kExactBelow) return s.resize(n);
  s.assign(std::string(n, '\0'));
}

}  // namespace kv
