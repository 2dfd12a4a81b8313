#include "protocol/inline_splitter.h"

namespace kv {
namespace {

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

bool IsHex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

}  // namespace

bool SplitInlineArgs(std::string_view line, std::string* storage,
                     std::vector<std::string_view>* words) {
  // Redis works on a C string: a NUL ends the line.
  if (size_t nul = line.find('\0'); nul != std::string_view::npos) line = line.substr(0, nul);
  storage->clear();
  words->clear();
  // Unescaping only shrinks text, so this capacity is never exceeded and the views stay valid.
  storage->reserve(line.size());
  size_t p = 0;
  const size_t n = line.size();
  auto at = [&](size_t i) { return i < n ? line[i] : '\0'; };
  while (true) {
    while (p < n && IsSpace(line[p])) ++p;
    if (p >= n) break;
    const size_t start = storage->size();
    bool in_double = false, in_single = false, done = false;
    while (!done) {
      const char c = at(p);
      if (in_double) {
        if (c == '\\' && at(p + 1) == 'x' && IsHex(at(p + 2)) && IsHex(at(p + 3))) {
          storage->push_back(static_cast<char>(HexValue(at(p + 2)) * 16 + HexValue(at(p + 3))));
          p += 3;
        } else if (c == '\\' && at(p + 1) != '\0') {
          ++p;
          char e = at(p);
          switch (e) {
            case 'n':
              e = '\n';
              break;
            case 'r':
              e = '\r';
              break;
            case 't':
              e = '\t';
              break;
            case 'b':
              e = '\b';
              break;
            case 'a':
              e = '\a';
              break;
            default:
              break;
          }
          storage->push_back(e);
        } else if (c == '"') {
          if (at(p + 1) != '\0' && !IsSpace(at(p + 1))) return false;
          done = true;
        } else if (c == '\0') {
          return false;
        } else {
          storage->push_back(c);
        }
      } else if (in_single) {
        if (c == '\\' && at(p + 1) == '\'') {
          ++p;
          storage->push_back('\'');
        } else if (c == '\'') {
          if (at(p + 1) != '\0' && !IsSpace(at(p + 1))) return false;
          done = true;
        } else if (c == '\0') {
          return false;
        } else {
          storage->push_back(c);
        }
      } else {
        switch (c) {
          case ' ':
          case '\n':
          case '\r':
          case '\t':
          case '\0':
            done = true;
            break;
          case '"':
            in_double = true;
            break;
          case '\'':
            in_single = true;
            break;
          default:
            storage->push_back(c);
            break;
        }
      }
      if (p < n) ++p;
    }
    words->emplace_back(storage->data() + start, storage->size() - start);
  }
  return true;
}

}  // namespace kv
