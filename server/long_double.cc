#include "server/long_double.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace kv {

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

std::string FormatLongDoubleHuman(long double value) {
  char buf[kMaxLongDoubleChars];
  int n = std::snprintf(buf, sizeof(buf), "%.17Lf", value);
  if (n < 0 || static_cast<size_t>(n) + 1 > sizeof(buf)) return std::string();
  size_t len = static_cast<size_t>(n);
  if (std::memchr(buf, '.', len) != nullptr) {
    while (buf[len - 1] == '0') --len;
    if (buf[len - 1] == '.') --len;
  }
  if (len == 2 && buf[0] == '-' && buf[1] == '0') {
    buf[0] = '0';
    len = 1;
  }
  return std::string(buf, len);
}

}  // namespace kv
