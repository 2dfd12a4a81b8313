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

// Redis's string2d (getDoubleFromObject): strtod on the whole text, which must not be empty,
// start with a space, hold a NUL byte, overflow (nor underflow to zero) or be NaN. "inf",
// "-inf" and hex floats are accepted as strtod reads them. Scores, weights, coordinates.
std::optional<double> ParseDouble(std::string_view s);

// The shortest text of `v` as printf's "%.17g" writes it (Redis's reply of a double), into `buf`
// (at least kMaxDoubleChars bytes); "inf" and "-inf" for the infinities. Returns the length.
constexpr size_t kMaxDoubleChars = 32;
size_t FormatDouble17g(double v, char* buf);

}  // namespace kv
