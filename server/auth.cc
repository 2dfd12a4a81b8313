#include "server/auth.h"

#include <algorithm>

namespace kv {
namespace {

// Compares without stopping at the first difference, so that the time taken does not tell how
// much of a guess was right (Redis compares hashes with time_independent_strcmp for the same
// reason).
bool EqualInConstantTime(std::string_view a, std::string_view b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  const size_t n = std::max(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    const unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    const unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    diff |= static_cast<unsigned char>(x ^ y);
  }
  return diff == 0;
}

}  // namespace

bool Authenticate(ConnState& conn, const ServerState& server, std::string_view user,
                  std::string_view password) {
  if (user != "default") return false;
  const std::string& required = server.config.requirepass;
  if (!required.empty() && !EqualInConstantTime(password, required)) return false;
  conn.authenticated = true;
  return true;
}

}  // namespace kv
