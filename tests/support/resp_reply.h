#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kv::test {

// One RESP2 or RESP3 reply, parsed into a tree: the tests' own reply reader, since the hiredis
// the tests use (0.14) reads RESP2 only.
struct RespReply {
  enum class Type {
    kSimpleString,  // +
    kError,         // -
    kInteger,       // :
    kBulkString,    // $
    kNullBulk,      // $-1 (RESP2)
    kArray,         // *
    kNullArray,     // *-1 (RESP2)
    kNull,          // _
    kDouble,        // ,
    kBoolean,       // #
    kBigNumber,     // (
    kBlobError,     // !
    kVerbatim,      // =
    kMap,           // %
    kSet,           // ~
    kPush,          // >
  };

  Type type = Type::kNull;
  // The text of a simple string, error, bulk, blob error, verbatim string (without its format),
  // big number (its digits) or double (as sent).
  std::string str;
  std::string format;  // a verbatim string's three-letter format ("txt", "mkd")
  long long integer = 0;
  double number = 0;  // a double's value
  bool boolean = false;
  // Array, set and push elements; a map's keys and values alternate.
  std::vector<RespReply> elements;
  // The RESP3 attribute (`|`) sent before this reply, keys and values alternating.
  std::vector<RespReply> attributes;

  // A map's value for the key whose text is `key`, or nullptr.
  const RespReply* Find(std::string_view key) const;
  // Whether this reply, or any reply nested in it, uses a type RESP2 does not have.
  bool UsesResp3() const;
};

// A readable one-line rendering for messages and comparisons: `%{"proto": 3, "modules": []}`,
// each value prefixed by its RESP type byte.
std::string Describe(const RespReply& reply);

// The RESP type byte's name, e.g. "map" for '%'.
const char* TypeName(RespReply::Type type);

// Parses exactly one complete reply from `bytes` (nothing may follow it); std::nullopt if the
// bytes are incomplete, malformed, or hold more than one reply.
std::optional<RespReply> ParseReply(std::string_view bytes);

// The decimal length in a RESP header (`$5`, `*-1`): at most 19 digits with an optional minus.
bool ParseRespLength(std::string_view s, long long* out);

}  // namespace kv::test
