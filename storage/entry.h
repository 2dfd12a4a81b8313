#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "storage/key_hash.h"
#include "storage/value.h"

namespace kv {

// A key and its value in one allocation: [Value (16 bytes)][key size (4)][key bytes], and when the
// entry is made with a string longer than fits in the Value's own word, [padding to 8][string size
// (4)][string bytes] after the key, borrowed by the Value (CompactString::Borrow). The keyspace's
// hash tables hold only a pointer to it, so a slot is 8 bytes instead of a key and a value side by
// side, and a value stays where it is when its table grows or splits. For a 36-byte key and a
// 36-byte value that is one 96-byte block: with mimalloc, which has no per-block header, exactly
// 96 bytes, where a separate value block would cost 64 + 48.
class Entry {
 public:
  struct Free {
    void operator()(Entry* e) const;
  };
  using Ptr = std::unique_ptr<Entry, Free>;

  // Throws std::length_error for a key of 4 GiB or more (which no client can send under any sane
  // proto-max-bulk-len).
  static Ptr Make(std::string_view key);
  // An entry holding the string `value`, in the same allocation when that saves one.
  static Ptr Make(std::string_view key, std::string_view value);

  std::string_view key() const { return {KeyBytes(), key_size_}; }
  Value& value() { return value_; }
  const Value& value() const { return value_; }

 private:
  explicit Entry(uint32_t key_size) : key_size_(key_size) {}
  // Allocates and constructs an entry for `key` with `extra` more bytes after the key's.
  static Entry* Allocate(std::string_view key, size_t extra);
  ~Entry() = default;
  const char* KeyBytes() const { return reinterpret_cast<const char*>(&key_size_ + 1); }
  char* KeyBytes() { return reinterpret_cast<char*>(&key_size_ + 1); }

  Value value_;
  uint32_t key_size_;
  // The key's bytes follow key_size_ in the same allocation.
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
