#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "storage/compact_string.h"

namespace kv {

enum class ValueType : uint8_t { kString };

// A stored value. Only strings exist so far; other types arrive behind the same type tag.
// Strings are binary-safe byte arrays.
//
// A value is 16 bytes: the string's word and, in the other eight, the type and two small facts:
// whether it was changed in place (APPEND, SETRANGE), which Redis reports as the "raw" encoding
// whatever the content, and the second it was last accessed, for OBJECT IDLETIME.
class Value {
 public:
  Value() = default;
  explicit Value(std::string_view s) : str_(s) {}

  ValueType type() const { return type_; }
  std::string_view str() const { return str_.view(); }
  // Bytes of the string's own heap block, 0 when it is inline: for memory accounting.
  size_t allocated() const { return str_.allocated(); }
  // For changes in place; the value then counts as Redis's "raw" encoding.
  CompactString& mutable_str() {
    in_place_ = true;
    return str_;
  }
  void SetString(std::string_view s) {
    type_ = ValueType::kString;
    in_place_ = false;
    unshared_ = false;
    str_.assign(s);
  }
  // Sets the string to the one in `block` (see CompactString::Borrow), which outlives this value.
  void BorrowString(char* block) {
    type_ = ValueType::kString;
    in_place_ = false;
    unshared_ = false;
    str_.Borrow(block);
  }
  // Whether the string was last changed in place rather than replaced.
  bool changed_in_place() const { return in_place_; }
  // A copy (COPY) of an integer value is never Redis's shared integer object.
  bool unshared() const { return unshared_; }
  void set_unshared() { unshared_ = true; }

  // The last access, in Unix seconds (truncated to 32 bits).
  uint32_t access_time() const { return access_s_; }
  void set_access_time(uint32_t s) { access_s_ = s; }
  // Redis's logarithmic access counter for the LFU policies (LFU_INIT_VAL for a new value); its
  // last decrement time is the access time.
  uint8_t lfu_counter() const { return lfu_; }
  void set_lfu_counter(uint8_t c) { lfu_ = c; }

 private:
  CompactString str_;
  ValueType type_ = ValueType::kString;
  bool in_place_ = false;
  bool unshared_ = false;
  uint8_t lfu_ = 5;
  uint32_t access_s_ = 0;
};

static_assert(sizeof(Value) == 16);

}  // namespace kv
