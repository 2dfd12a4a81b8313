#include "protocol/number.h"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

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

std::optional<double> ParseDouble(std::string_view s) {
  if (s.empty()) return std::nullopt;
  // The common case: [-]digits[.digits] with at most 15 digits, whose value is an exact
  // integer over an exact power of ten, so one division rounds exactly as strtod does.
  {
    size_t i = 0;
    const bool negative = s[0] == '-';
    if (negative) ++i;
    uint64_t mantissa = 0;
    int digits = 0, frac = 0;
    bool dot = false, simple = i < s.size();
    for (; i < s.size() && simple; ++i) {
      const char c = s[i];
      if (c >= '0' && c <= '9') {
        mantissa = mantissa * 10 + static_cast<uint64_t>(c - '0');
        ++digits;
        frac += dot;
      } else if (c == '.' && !dot) {
        dot = true;
      } else {
        simple = false;
      }
    }
    if (simple && digits > 0 && digits <= 15) {
      static constexpr double kPow10[] = {1,   1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                          1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
      double v = static_cast<double>(mantissa) / kPow10[frac];
      return negative ? -v : v;
    }
  }
  char stack_buf[128];
  std::string heap_buf;
  char* buf = stack_buf;
  if (s.size() >= sizeof(stack_buf)) {
    heap_buf.assign(s);
    buf = heap_buf.data();
  } else {
    std::memcpy(buf, s.data(), s.size());
    buf[s.size()] = '\0';
  }
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(buf, &end);
  if (std::isspace(static_cast<unsigned char>(buf[0])) ||
      static_cast<size_t>(end - buf) != s.size() ||
      (errno == ERANGE &&
       (value == HUGE_VAL || value == -HUGE_VAL || std::fpclassify(value) == FP_ZERO)) ||
      std::isnan(value)) {
    return std::nullopt;
  }
  return value;
}

size_t FormatDouble17g(double v, char* buf) {
  if (std::isinf(v)) {
    const std::string_view text = v > 0 ? "inf" : "-inf";
    std::memcpy(buf, text.data(), text.size());
    return text.size();
  }
  // Integers below 1e17 print as their digits (and -0 as "-0"), without printf.
  if (v == std::trunc(v) && std::fabs(v) < 1e17) {
    if (v == 0) {
      if (std::signbit(v)) {
        std::memcpy(buf, "-0", 2);
        return 2;
      }
      buf[0] = '0';
      return 1;
    }
    return static_cast<size_t>(
        std::to_chars(buf, buf + kMaxDoubleChars, static_cast<int64_t>(v)).ptr - buf);
  }
  const auto r = std::to_chars(buf, buf + kMaxDoubleChars, v, std::chars_format::general, 17);
  return static_cast<size_t>(r.ptr - buf);
}

}  // namespace kv
