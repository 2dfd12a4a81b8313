#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace kv {

// RESP pieces appended to a string, for the frames built outside a client's ReplyWriter: pushed
// messages and invalidations, commands written to the AOF.

inline void AppendRespNumber(std::string& out, int64_t n) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof(buf), n);
  out.append(buf, r.ptr);
}

// "$<len>\r\n<s>\r\n"
inline void AppendBulk(std::string& out, std::string_view s) {
  out += '$';
  AppendRespNumber(out, static_cast<int64_t>(s.size()));
  out += "\r\n";
  out.append(s);
  out += "\r\n";
}

}  // namespace kv
