#include "tests/fuzz/reply_check.h"

#include <optional>
#include <string>

#include "protocol/number.h"

namespace kv::fuzz {
namespace {

// Reads one "<type><line>\r\n" header at `pos`; returns the line without type and CRLF.
std::optional<std::string_view> Line(std::string_view b, size_t& pos) {
  const size_t cr = b.find("\r\n", pos);
  if (cr == std::string_view::npos) return std::nullopt;
  std::string_view line = b.substr(pos + 1, cr - pos - 1);
  if (line.find_first_of("\r\n") != std::string_view::npos) return std::nullopt;
  pos = cr + 2;
  return line;
}

bool Value(std::string_view b, size_t& pos, int depth) {
  if (pos >= b.size() || depth > 64) return false;
  const char type = b[pos];
  const auto line = Line(b, pos);
  if (!line) return false;
  switch (type) {
    case '+':
    case '-':
    case '(':
      return !(type == '-' && line->empty());
    case ',':
      return !line->empty();
    case ':':
      return ParseInt64(*line).has_value();
    case '_':
      return line->empty();
    case '#':
      return *line == "t" || *line == "f";
    case '$':
    case '=':
    case '!': {
      const auto len = ParseInt64(*line);
      if (!len) return false;
      if (*len == -1 && type == '$') return true;
      if (*len < 0 || b.size() - pos < static_cast<size_t>(*len) + 2) return false;
      if (type == '=' && (*len < 4 || b[pos + 3] != ':')) return false;
      pos += static_cast<size_t>(*len);
      if (b.substr(pos, 2) != "\r\n") return false;
      pos += 2;
      return true;
    }
    case '*':
    case '~':
    case '>':
    case '%':
    case '|': {
      const auto count = ParseInt64(*line);
      if (!count) return false;
      if (*count == -1 && type == '*') return true;
      if (*count < 0) return false;
      const int64_t elements = (type == '%' || type == '|') ? 2 * *count : *count;
      for (int64_t i = 0; i < elements; ++i) {
        if (!Value(b, pos, depth + 1)) return false;
      }
      // An attribute annotates the reply that follows it.
      return type != '|' || Value(b, pos, depth + 1);
    }
    default:
      return false;
  }
}

}  // namespace

int CountReplies(std::string_view bytes, int* pushes) {
  int count = 0;
  size_t pos = 0;
  while (pos < bytes.size()) {
    const bool push = bytes[pos] == '>';
    if (!Value(bytes, pos, 0)) return -1;
    ++(push && pushes != nullptr ? *pushes : count);
  }
  return count;
}

}  // namespace kv::fuzz
