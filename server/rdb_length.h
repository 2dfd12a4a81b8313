#pragma once

#include <cstddef>
#include <string_view>

namespace kv {

// The bytes Redis's RDB format takes for a string value (rdbSavedObjectLen, as DEBUG OBJECT
// reports it as serializedlength): an integer of up to 32 bits in 2, 3 or 5 bytes, a string of
// more than 20 bytes LZF-compressed when that makes it shorter (rdbcompression yes), else its
// length's encoding and its bytes.
size_t RdbStringLength(std::string_view s);

class Value;
// The bytes Redis's RDB format takes for any value (rdbSavedObjectLen), DEBUG OBJECT's
// serializedlength.
size_t RdbValueLength(const Value& v);

}  // namespace kv
