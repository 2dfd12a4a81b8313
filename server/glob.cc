#include "server/glob.h"

#include <utility>

#include "server/strings.h"

namespace kv {
namespace {

char Fold(char c, bool nocase) { return nocase ? AsciiLower(c) : c; }

// Ported from Redis's stringmatchlen_impl, including its nesting guard for runs of '*'.
bool Match(const char* p, size_t plen, const char* s, size_t slen, bool nocase, bool* skip_longer,
           int nesting) {
  if (nesting > 1000) return false;
  while (plen && slen) {
    switch (p[0]) {
      case '*':
        while (plen > 1 && p[1] == '*') {
          ++p;
          --plen;
        }
        if (plen == 1) return true;
        while (slen) {
          if (Match(p + 1, plen - 1, s, slen, nocase, skip_longer, nesting + 1)) return true;
          if (*skip_longer) return false;
          ++s;
          --slen;
        }
        *skip_longer = true;
        return false;
      case '?':
        ++s;
        --slen;
        break;
      case '[': {
        ++p;
        --plen;
        const bool negate = plen && p[0] == '^';
        if (negate) {
          ++p;
          --plen;
        }
        bool matched = false;
        while (true) {
          if (plen && p[0] == '\\' && plen >= 2) {
            ++p;
            --plen;
            if (p[0] == s[0]) matched = true;
          } else if (plen && p[0] == ']') {
            break;
          } else if (plen == 0) {
            --p;
            ++plen;
            break;
          } else if (plen >= 3 && p[1] == '-') {
            char start = p[0], end = p[2];
            if (start > end) std::swap(start, end);
            start = Fold(start, nocase);
            end = Fold(end, nocase);
            const char c = Fold(s[0], nocase);
            p += 2;
            plen -= 2;
            if (c >= start && c <= end) matched = true;
          } else if (Fold(p[0], nocase) == Fold(s[0], nocase)) {
            matched = true;
          }
          ++p;
          --plen;
        }
        if (negate) matched = !matched;
        if (!matched) return false;
        ++s;
        --slen;
        break;
      }
      case '\\':
        if (plen >= 2) {
          ++p;
          --plen;
        }
        [[fallthrough]];
      default:
        if (Fold(p[0], nocase) != Fold(s[0], nocase)) return false;
        ++s;
        --slen;
        break;
    }
    ++p;
    --plen;
    if (slen == 0) {
      while (plen && *p == '*') {
        ++p;
        --plen;
      }
      break;
    }
  }
  return plen == 0 && slen == 0;
}

}  // namespace

bool GlobMatch(std::string_view pattern, std::string_view str, bool nocase) {
  bool skip_longer = false;
  return Match(pattern.data(), pattern.size(), str.data(), str.size(), nocase, &skip_longer, 0);
}

}  // namespace kv
