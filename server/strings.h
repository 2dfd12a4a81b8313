#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kv {

// Small ASCII string helpers for std::string_view (Debian's abseil uses its own string_view type,
// so its helpers do not take ours).

inline char AsciiLower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }
inline char AsciiUpper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 32) : c; }

inline bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (AsciiLower(a[i]) != AsciiLower(b[i])) return false;
  }
  return true;
}

// Redis compares option words as C strings (strcasecmp): a NUL byte ends the argument, so
// "nx\0..." is NX.
inline bool OptionIs(std::string_view arg, std::string_view word) {
  return EqualsIgnoreCase(arg.substr(0, arg.find('\0')), word);
}

inline std::string ToLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = AsciiLower(c);
  return out;
}

inline std::string ToUpper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = AsciiUpper(c);
  return out;
}

inline bool IsAsciiSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

inline std::string_view StripWhitespace(std::string_view s) {
  while (!s.empty() && IsAsciiSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsAsciiSpace(s.back())) s.remove_suffix(1);
  return s;
}

// Splits on runs of `sep`, dropping empty pieces.
inline std::vector<std::string_view> SplitWords(std::string_view s, char sep = ' ') {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == sep) ++i;
    size_t j = i;
    while (j < s.size() && s[j] != sep) ++j;
    if (j > i) words.push_back(s.substr(i, j - i));
    i = j;
  }
  return words;
}

// Redis's sdscatrepr: `s` in double quotes with \\, \", \n, \r, \t, \a, \b and \xHH escapes
// (MONITOR's lines, CONFIG REWRITE's values; the config parser reads it back exactly).
inline void AppendRepr(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '\\':
      case '"':
        out += '\\';
        out += static_cast<char>(c);
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\a':
        out += "\\a";
        break;
      case '\b':
        out += "\\b";
        break;
      default:
        // isprint in the C locale: 0x20..0x7e.
        if (c >= 0x20 && c < 0x7f) {
          out += static_cast<char>(c);
        } else {
          out += "\\x";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        }
    }
  }
  out += '"';
}

template <typename Strings>
std::string JoinWords(const Strings& words, std::string_view sep = " ") {
  std::string out;
  for (const auto& w : words) {
    if (!out.empty()) out += sep;
    out += w;
  }
  return out;
}

}  // namespace kv
