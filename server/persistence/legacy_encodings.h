#pragma once

#include <string_view>

#include "absl/functional/function_ref.h"
#include "storage/listpack.h"

namespace kv {

// The compact encodings older Redis versions wrote into RDB files (versions 6 to 9), read only to
// load those files: the values are converted to today's encodings as Redis 7.0 converts them.

// Walks a ziplist (small lists, hashes and sorted sets before Redis 7.0), checking it as Redis's
// ziplistValidateIntegrity with deep checks: header sizes, every entry's encoding and prevlen, the
// tail offset and the count. Calls `fn` with each entry (a string view into `bytes`, or an
// integer); false when the ziplist is malformed or `fn` returned false.
bool WalkZipList(std::string_view bytes, absl::FunctionRef<bool(ListPackValue)> fn);

// Walks a zipmap (hashes before Redis 2.6), checking it as zipmapValidateIntegrity: calls `fn`
// with each field and value; false when malformed or `fn` returned false.
bool WalkZipMap(std::string_view bytes,
                absl::FunctionRef<bool(std::string_view field, std::string_view value)> fn);

}  // namespace kv
