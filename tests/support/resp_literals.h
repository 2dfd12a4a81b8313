#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kv::test {

// The exact RESP2 bytes of common replies, for tests that compare reply bytes.
inline std::string Bulk(std::string_view s) {
  return "$" + std::to_string(s.size()) + "\r\n" + std::string(s) + "\r\n";
}
inline std::string Int(int64_t n) { return ":" + std::to_string(n) + "\r\n"; }
inline std::string Err(std::string_view msg) { return "-ERR " + std::string(msg) + "\r\n"; }
inline const std::string kOk = "+OK\r\n";
inline const std::string kNil = "$-1\r\n";

}  // namespace kv::test
