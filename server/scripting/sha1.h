#pragma once

#include <string_view>

namespace kv {

// The SHA-1 of `data` as 40 lower-case hex digits: the name of a script in the script cache
// (EVALSHA, SCRIPT LOAD) and redis.sha1hex's result.
void Sha1Hex(std::string_view data, char out[40]);

}  // namespace kv
