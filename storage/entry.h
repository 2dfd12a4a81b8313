#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "storage/key_hash.h"
#include "storage/value.h"

namespace kv {

// A key and its value in one allocation: the value's 8-byte header, the key's bytes, the string's
// bytes (see Value for the layout). The keyspace's hash tables hold only a pointer to it, so a
// slot is 8 bytes instead of a key and a value side by side, and a value stays where it is when
// its table grows or splits.
class Entry : public Value {
 public:
  struct Free {
    void operator()(Entry* e) const;
  };
  using Ptr = std::unique_ptr<Entry, Free>;

  // Throws std::length_error for a key of 4 GiB or more (which no client can send under any sane
  // proto-max-bulk-len).
  static Ptr Make(std::string_view key) { return Make(key, {}); }
  // An entry holding the string `value`, embedded when it is at most kMaxEmbedded bytes.
  static Ptr Make(std::string_view key, std::string_view value);

  std::string_view key() const { return {base() + key_offset(), key_size()}; }
  Value& value() { return *this; }
  const Value& value() const { return *this; }

 private:
  explicit Entry(size_t key_size) : Value(key_size) {}
  ~Entry() = default;
};

// Hashing and equality for tables of Entry::Ptr that are looked up by key (std::string_view, or
// PrehashedKey when the hash is already known).
struct EntryHash {
  using is_transparent = void;
  size_t operator()(const Entry::Ptr& e) const { return KeyHash{}(e->key()); }
  size_t operator()(std::string_view key) const { return KeyHash{}(key); }
  size_t operator()(const PrehashedKey& k) const { return k.hash; }
};

struct EntryEq {
  using is_transparent = void;
  static std::string_view Key(const Entry::Ptr& e) { return e->key(); }
  static std::string_view Key(std::string_view key) { return key; }
  static std::string_view Key(const PrehashedKey& k) { return k.key; }
  template <typename A, typename B>
  bool operator()(const A& a, const B& b) const {
    return Key(a) == Key(b);
  }
};

}  // namespace kv
