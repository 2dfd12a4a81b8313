#include "protocol/number.h"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace kv {

std::optional<int64_t> ParseInt64(std::string_view s) {
  if (s.empty() || s.size() > 20) return std::nullopt;
  if (s.size() == 1 && s[0] == '0') return 0;
  size_t i = 0;
  const bool negative = s[0] == '-';
  if (negative && ++i == s.size()) return std::nullopt;
  if (s[i] < '1' || s[i] > '9') return std::nullopt;
  uint64_t v = 0;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c < '0' || c > '9') return std::nullopt;
    if (v > (UINT64_MAX - 9) / 10 && (v > UINT64_MAX / 10 || v * 10 > UINT64_MAX - (c - '0'))) {
      return std::nullopt;
    }
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  if (negative) {
    if (v > static_cast<uint64_t>(INT64_MAX) + 1) return std::nullopt;
    return static_cast<int64_t>(0 - v);
  }
  if (v > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
  return static_cast<int64_t>(v);
}

size_t FormatInt64(int64_t v, char* buf) {
  return static_cast<size_t>(std::to_chars(buf, buf + kMaxInt64Chars, v).ptr - buf);
}

std::optional<long double> ParseLongDouble(std::string_view s) {
  if (s.empty() || s.size() >= kMaxLongDoubleChars) return std::nullopt;
  char buf[kMaxLongDoubleChars];
  std::memcpy(buf, s.data(), s.size());
  buf[s.size()] = '\0';
  errno = 0;
  char* end = nullptr;
  const long double value = std::strtold(buf, &end);
  if (std::isspace(static_cast<unsigned char>(buf[0])) || *end != '\0' ||
      static_cast<size_t>(end - buf) != s.size() ||
      (errno == ERANGE &&
       (value == HUGE_VALL || value == -HUGE_VALL || std::fpclassify(value) == FP_ZERO)) ||
      errno == EINVAL || std::isnan(value)) {
    return std::nullopt;
  }
  return value;
}

}  // namespace kv
