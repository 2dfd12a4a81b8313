#pragma once

#include <string>

namespace kv::test {

// A FUNCTION LIST [WITHCODE] reply as text independent of the order of libraries and of their
// functions (Redis's dictionaries iterate in an order seeded at start-up), for comparing
// kvserver's with Redis's.
std::string CanonicalFunctionList(const std::string& reply);

}  // namespace kv::test
