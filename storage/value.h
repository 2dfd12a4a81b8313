#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "storage/aggregate.h"
#include "storage/compact_string.h"

namespace kv {

// A value outside the keyspace: what Db::Take hands over and Db::Put stores.
struct DetachedValue {
  static constexpr uint32_t kFreshLru = UINT32_MAX;

  CompactString str;
  // Set for a list, hash, set, ...: the value is this, and `str` is unused.
  std::unique_ptr<Aggregate> aggregate;
  bool changed_in_place = false;
  bool unshared = false;
  ValueType type() const { return aggregate ? aggregate->type() : ValueType::kString; }
  // The value's Redis `lru` field, kept across RENAME and MOVE as Redis moves the object itself;
  // kFreshLru for a new value, which Put stamps as just created.
  uint32_t lru = kFreshLru;
};

// A stored value: a binary-safe string, or an aggregate (list, hash, set, ...) behind the type tag.
//
// A value lives at the start of its key's Entry, in the same allocation, and is only ever handled
// through a pointer or reference into the keyspace. It is an 8-byte header, Redis's robj squeezed
// to what a key needs:
//   bits 0-23 of the first word: Redis's `lru` field (the LRU clock in seconds, or under an LFU
//     policy 16 bits of minutes and the 8-bit access counter);
//   bits 24-27: the type; bit 28: changed in place; bit 29: unshared; bit 30: the string is
//     external; bit 31: the wide layout;
//   then (narrow layout) the key's size and the embedded string's size, 16 bits each.
// The key's bytes follow the header, and the string's bytes follow the key's, with no padding:
// a 36-byte key and a 36-byte value take 80 bytes, where Redis 7.0 spends three blocks of 32
// (dictEntry), 48 (the key's sds) and 64 (robj with the embedded sds).
//
// A string that outgrows its place, or is changed in place (APPEND, SETRANGE, SETBIT), or is
// longer than 64 KiB, becomes external: a CompactString (one word, pointing at a block of its own)
// in the first 8-byte-aligned word after the key, which every entry reserves room for. Keys of
// 64 KiB or more use the wide layout: the sizes are 32 bits at offsets 8 and 12, the key at 16.
//
// An aggregate lives in a block of its own (see Aggregate), and its pointer in that same word.
class Value {
 public:
  static constexpr size_t kMaxEmbedded = UINT16_MAX;
  static constexpr uint32_t kLruMax = (1u << 24) - 1;  // Redis's LRU_CLOCK_MAX

  Value(const Value&) = delete;
  Value& operator=(const Value&) = delete;

  ValueType type() const { return static_cast<ValueType>((meta_ >> 24) & 0xf); }
  bool is_string() const { return type() == ValueType::kString; }
  // The string; only for a string value.
  std::string_view str() const {
    return external() ? external_str().view() : std::string_view(EmbeddedData(), EmbeddedSize());
  }
  // The aggregate of a non-string value (nullptr for a string), and the same as its class T (which
  // names its type as T::kType); the caller has checked the type.
  Aggregate* aggregate() const { return is_string() ? nullptr : slot_aggregate(); }
  template <typename T>
  T& As() const {
    return *static_cast<T*>(slot_aggregate());
  }
  // Makes the value `a`, releasing what it held (string or aggregate).
  void SetAggregate(std::unique_ptr<Aggregate> a);
  // Bytes of the value's own heap blocks (an external string's, or an aggregate's with `samples`
  // as Aggregate::AllocatedBytes takes it), 0 for an embedded string: for memory accounting.
  size_t allocated(size_t samples = 0) const;
  // For changes in place; the value then counts as Redis's "raw" encoding, and its string moves
  // to a block of its own (once) so that it can grow.
  CompactString& mutable_str();
  void SetString(std::string_view s);
  // Takes over `d`'s string and flags.
  void Adopt(DetachedValue&& d);
  // Moves the string or aggregate and the flags out (copying an embedded string); the value is
  // left an empty string.
  DetachedValue Detach();

  // Whether the string was last changed in place rather than replaced.
  bool changed_in_place() const { return meta_ & kInPlace; }
  // A copy (COPY) of an integer value is never Redis's shared integer object.
  bool unshared() const { return meta_ & kUnshared; }
  void set_unshared() { meta_ |= kUnshared; }

  // Redis's robj.lru: see the class comment. Db reads and writes it (Touch, LfuCounter, Idle).
  uint32_t lru() const { return meta_ & kLruMax; }
  void set_lru(uint32_t lru) { meta_ = (meta_ & ~kLruMax) | (lru & kLruMax); }

 protected:
  static constexpr uint32_t kInPlace = 1u << 28;
  static constexpr uint32_t kUnshared = 1u << 29;
  static constexpr uint32_t kExternal = 1u << 30;
  static constexpr uint32_t kWide = 1u << 31;

  // An empty embedded string, with the layout for a key of `key_size` bytes.
  explicit Value(size_t key_size);
  ~Value();

  bool wide() const { return meta_ & kWide; }
  bool external() const { return meta_ & kExternal; }
  size_t key_offset() const { return wide() ? 16 : 8; }
  size_t key_size() const;
  const char* base() const { return reinterpret_cast<const char*>(this); }
  char* base() { return reinterpret_cast<char*>(this); }
  // Where the embedded string's bytes start.
  size_t EmbeddedOffset() const { return key_offset() + key_size(); }
  const char* EmbeddedData() const { return base() + EmbeddedOffset(); }
  size_t EmbeddedSize() const;
  void SetEmbeddedSize(size_t n);
  // Where an external string's word lives: the first aligned word after the key.
  static size_t SlotOffset(size_t key_end) { return (key_end + 7) & ~size_t{7}; }
  const CompactString& external_str() const {
    return *reinterpret_cast<const CompactString*>(base() + SlotOffset(EmbeddedOffset()));
  }
  CompactString& external_str() {
    return *reinterpret_cast<CompactString*>(base() + SlotOffset(EmbeddedOffset()));
  }
  // Room for an embedded string in this allocation.
  size_t EmbeddedCapacity() const;
  // Sets an embedded string (which must fit) or an external one; `s` may not point into this
  // value's embedded bytes.
  void Embed(std::string_view s);
  void MakeExternal(CompactString&& s);
  // Frees an external string or an aggregate; the value becomes an empty embedded string.
  void ReleaseExternal();
  Aggregate* slot_aggregate() const {
    return *reinterpret_cast<Aggregate* const*>(base() + SlotOffset(EmbeddedOffset()));
  }
  void set_type(ValueType t) { meta_ = (meta_ & ~(0xfu << 24)) | (static_cast<uint32_t>(t) << 24); }

  uint32_t meta_;
  uint16_t key_size_ = 0;  // narrow layout
  uint16_t str_size_ = 0;  // narrow layout, embedded string
};

static_assert(sizeof(Value) == 8);

}  // namespace kv
