#pragma once

#include <string_view>

namespace kv {

// Redis's stringmatchlen: glob matching with *, ?, [abc], [^a-z] and \ escapes.
bool GlobMatch(std::string_view pattern, std::string_view str, bool nocase = false);

}  // namespace kv
