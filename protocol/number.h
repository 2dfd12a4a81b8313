#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace kv {

// Redis's string2ll: an optional '-', then digits with no leading zero (except "0" itself), no
// spaces, no '+', and no overflow. This is the rule for integer arguments and INCR on values.
std::optional<int64_t> ParseInt64(std::string_view s);

// Formats `v` in decimal into `buf` (at least 21 bytes); returns the number of bytes written.
size_t FormatInt64(int64_t v, char* buf);

constexpr size_t kMaxInt64Chars = 21;

}  // namespace kv
