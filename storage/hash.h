#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <string_view>

#include "absl/functional/function_ref.h"
#include "storage/aggregate.h"
#include "storage/listpack.h"
#include "storage/string_map.h"

namespace kv {

// A hash: fields to values, both binary-safe strings, in Redis 7.0's two encodings.
//
// Small hashes are one ListPack of field, value, field, value ... in insertion order, byte for
// byte Redis's listpack. A hash converts to a StringMap (Redis's "hashtable") when it gets more
// fields than `max_listpack_entries`, or a field or value longer than `max_listpack_value`, or
// when the list pack would pass its 1 GB safety size; it never converts back, as in Redis. The
// limits come from the caller (hash-max-listpack-entries/-value) with each change, so a CONFIG SET
// applies from the next write on.
//
// Views passed to callbacks or returned are valid until the next change to the hash. A list pack
// stores canonical integers as integers: they are handed out formatted in decimal, which is the
// string they were set from.
class Hash final : public Aggregate {
 public:
  static constexpr ValueType kType = ValueType::kHash;

  struct Limits {
    size_t max_listpack_entries = 512;
    size_t max_listpack_value = 64;
  };
  using FieldFn = absl::FunctionRef<bool(std::string_view field, std::string_view value)>;
  using Random = absl::FunctionRef<uint64_t()>;
  // Room for a list pack integer in decimal.
  using IntBuf = char[ListPackValue::kIntBufSize];

  Hash() { new (&rep_.lp) ListPack(); }
  // A hash holding the field/value pairs of `lp` (RDB loading; the caller checked them).
  explicit Hash(ListPack lp) { new (&rep_.lp) ListPack(std::move(lp)); }
  Hash(Hash&& other) noexcept;
  Hash& operator=(Hash&& other) noexcept;
  ~Hash() override { Release(); }

  ValueType type() const override { return kType; }
  Encoding encoding() const override {
    return is_map() ? Encoding::kHashTable : Encoding::kListPack;
  }
  size_t size() const override { return is_map() ? map_ptr()->size() : rep_.lp.size() / 2; }
  std::unique_ptr<Aggregate> Clone() const override;
  size_t AllocatedBytes(size_t samples) const override;
  size_t FreeEffort() const override { return is_map() ? map_ptr()->size() : 1; }
  // A list pack is one block, freed by the destructor.
  bool ReleaseSome(size_t budget) override { return !is_map() || map_ptr()->ReleaseSome(budget); }

  // Redis's hashTypeTryConversion, before a command writes `strings` (its fields and values): a
  // list pack converts if any of them is longer than the limit or all of them together would
  // take it past its safety size.
  void PrepareFor(std::span<const std::string_view> strings, const Limits& limits);
  // Sets `field` to `value`; returns true if the field is new (Redis's hashTypeSet, converting
  // before a field or value over the length limit and after passing the entries limit).
  bool Set(std::string_view field, std::string_view value, const Limits& limits);
  // Removes `field`; returns whether it was there.
  bool Erase(std::string_view field);

  // The value of `field` (written into `buf` if the list pack holds it as an integer), or false.
  bool Get(std::string_view field, IntBuf& buf, std::string_view* value);
  bool Contains(std::string_view field);

  // Every field and value, in the list pack's order or the table's; `fn` returning false stops.
  void ForEach(FieldFn fn) const;
  // One HSCAN step from `cursor` (see StringMap::Scan); a list pack is returned whole, with the
  // cursor 0, as Redis does.
  uint64_t Scan(uint64_t cursor, FieldFn fn) const;

  // HRANDFIELD's sampling; the hash must not be empty, and `fn` returning false stops.
  // `count` fields chosen independently (repetitions allowed), in random order.
  void SampleWithRepetition(size_t count, Random random, FieldFn fn) const;
  // `count` distinct fields, `count` < size(), as Redis 7.0 chooses them: when they are more than a
  // third of the hash, all fields less random ones; otherwise random fields until `count`
  // distinct ones came (for a list pack, one pass choosing each with the right probability, in
  // list pack order).
  void SampleDistinct(size_t count, Random random, FieldFn fn) const;

  // Redis's hashTypeConvert to the table (RDB loading decides it up front); no-op once converted.
  void ConvertToTable() {
    if (!is_map()) ConvertToMap();
  }

  // The list pack, for the RDB length and tests; nullptr once converted.
  const ListPack* listpack() const { return is_map() ? nullptr : &rep_.lp; }
  // The table once converted, else nullptr.
  const StringMap* map() const { return is_map() ? map_ptr() : nullptr; }

 private:
  // One word, so that a small hash's object is 16 bytes with the vtable pointer, as Redis's robj:
  // the list pack (whose block is 8-byte aligned), or once converted the table's address with
  // the low bit set.
  union Rep {
    Rep() {}
    ~Rep() {}
    ListPack lp;
    uintptr_t map;
  };
  static constexpr uintptr_t kMapBit = 1;
  uintptr_t word() const {
    uintptr_t w;
    std::memcpy(&w, reinterpret_cast<const unsigned char*>(&rep_), sizeof(w));
    return w;
  }
  bool is_map() const { return (word() & kMapBit) != 0; }
  StringMap* map_ptr() const { return reinterpret_cast<StringMap*>(word() & ~kMapBit); }
  // Frees what the word holds; it is then neither (the caller sets it).
  void Release();
  void ConvertToMap();
  // Positions of every field of the list pack, for sampling.
  std::unique_ptr<ListPack::Pos[]> FieldPositions() const;
  // Calls `fn` with the pair at `pos` (a field's position) formatted.
  bool EmitPair(ListPack::Pos pos, FieldFn fn) const;

  Rep rep_;
};

static_assert(sizeof(Hash) == 16);

}  // namespace kv
