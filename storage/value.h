#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kv {

enum class ValueType : uint8_t { kString };

// A stored value. Only strings exist so far; other types arrive behind the same type tag.
// Strings are binary-safe byte arrays.
class Value {
 public:
  Value() = default;
  explicit Value(std::string_view s) : str_(s) {}

  ValueType type() const { return type_; }
  const std::string& str() const { return str_; }
  std::string& mutable_str() { return str_; }
  void SetString(std::string_view s) {
    type_ = ValueType::kString;
    str_.assign(s.data(), s.size());
  }

 private:
  std::string str_;
  ValueType type_ = ValueType::kString;
};

}  // namespace kv
