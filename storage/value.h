#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kv {

enum class ValueType : uint8_t { kString };

// A stored value. Only strings exist so far; other types arrive behind the same type tag.
// Strings are binary-safe byte arrays.
//
// Besides the bytes, a value keeps two small facts in what would otherwise be padding (the
// object is 40 bytes with or without them): whether it was changed in place (APPEND, SETRANGE),
// which Redis reports as the "raw" encoding whatever the content, and the second it was last
// accessed, for OBJECT IDLETIME.
class Value {
 public:
  Value() = default;
  explicit Value(std::string_view s) : str_(s) {}

  ValueType type() const { return type_; }
  const std::string& str() const { return str_; }
  // For changes in place; the value then counts as Redis's "raw" encoding.
  std::string& mutable_str() {
    in_place_ = true;
    return str_;
  }
  void SetString(std::string_view s) {
    type_ = ValueType::kString;
    in_place_ = false;
    unshared_ = false;
    str_.assign(s.data(), s.size());
  }
  // Whether the string was last changed in place rather than replaced.
  bool changed_in_place() const { return in_place_; }
  // A copy (COPY) of an integer value is never Redis's shared integer object.
  bool unshared() const { return unshared_; }
  void set_unshared() { unshared_ = true; }

  // The last access, in Unix seconds (truncated to 32 bits).
  uint32_t access_time() const { return access_s_; }
  void set_access_time(uint32_t s) { access_s_ = s; }

 private:
  std::string str_;
  ValueType type_ = ValueType::kString;
  bool in_place_ = false;
  bool unshared_ = false;
  uint32_t access_s_ = 0;
};

}  // namespace kv
