#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace kv {

// Redis's MAX_LONG_DOUBLE_CHARS: the longest float text string2ld reads and ld2string writes.
constexpr size_t kMaxLongDoubleChars = 5 * 1024;

// Redis's string2ld: strtold on the whole text, which must not start with a space, must be all
// used, and must not be NaN or overflow (nor underflow to zero). Hex and "inf" are accepted, as
// strtold reads them. INCRBYFLOAT and HINCRBYFLOAT read their increments and values with it.
std::optional<long double> ParseLongDouble(std::string_view s);

// Redis's ld2string in LD_STR_HUMAN mode: "%.17Lf", then trailing zeros (and a bare '.') removed,
// and "-0" written as "0".
std::string FormatLongDoubleHuman(long double value);

}  // namespace kv
