#include "storage/hash.h"

#include <vector>

#include "absl/container/flat_hash_set.h"
#include "storage/key_hash.h"

namespace kv {

Hash::Hash(Hash&& other) noexcept {
  if (other.is_map()) {
    rep_.map = other.rep_.map;
    new (&other.rep_.lp) ListPack();
  } else {
    new (&rep_.lp) ListPack(std::move(other.rep_.lp));
  }
}

Hash& Hash::operator=(Hash&& other) noexcept {
  if (this != &other) {
    this->~Hash();
    new (this) Hash(std::move(other));
  }
  return *this;
}

void Hash::Release() {
  if (is_map()) {
    delete map_ptr();
  } else {
    rep_.lp.~ListPack();
  }
}

std::unique_ptr<Aggregate> Hash::Clone() const {
  auto copy = std::make_unique<Hash>();
  if (is_map()) {
    copy->Release();
    copy->rep_.map = reinterpret_cast<uintptr_t>(new StringMap(map_ptr()->Clone())) | kMapBit;
  } else {
    copy->rep_.lp = rep_.lp.Clone();
  }
  return copy;
}

size_t Hash::AllocatedBytes(size_t samples) const {
  if (is_map()) return sizeof(StringMap) + map_ptr()->AllocatedBytes(samples);
  return rep_.lp.allocated();
}

void Hash::ConvertToMap() {
  auto map = std::make_unique<StringMap>();
  map->Reserve(size());
  ForEach([&](std::string_view field, std::string_view value) {
    map->InsertNew(field, value);
    return true;
  });
  rep_.lp.~ListPack();
  rep_.map = reinterpret_cast<uintptr_t>(map.release()) | kMapBit;
}

void Hash::PrepareFor(std::span<const std::string_view> strings, const Limits& limits) {
  if (is_map()) return;
  size_t sum = 0;
  for (std::string_view s : strings) {
    if (s.size() > limits.max_listpack_value) return ConvertToMap();
    sum += s.size();
  }
  if (!rep_.lp.SafeToAdd(sum)) ConvertToMap();
}

bool Hash::Set(std::string_view field, std::string_view value, const Limits& limits) {
  if (!is_map() &&
      (field.size() > limits.max_listpack_value || value.size() > limits.max_listpack_value)) {
    ConvertToMap();
  }
  if (is_map()) return map_ptr()->Set(field, value);
  const ListPack::Pos first = rep_.lp.First();
  const ListPack::Pos at = first == ListPack::npos ? first : rep_.lp.Find(first, field, 1);
  const bool added = at == ListPack::npos;
  if (added) {
    rep_.lp.Append(field);
    rep_.lp.Append(value);
  } else {
    rep_.lp.Replace(rep_.lp.Next(at), value);
  }
  // Checked after updates too: a lowered limit converts on the next write, as in Redis.
  if (size() > limits.max_listpack_entries) ConvertToMap();
  return added;
}

bool Hash::Erase(std::string_view field) {
  if (is_map()) return map_ptr()->Erase(field);
  const ListPack::Pos first = rep_.lp.First();
  if (first == ListPack::npos) return false;
  const ListPack::Pos at = rep_.lp.Find(first, field, 1);
  if (at == ListPack::npos) return false;
  rep_.lp.DeleteFrom(at, 2);
  return true;
}

bool Hash::Get(std::string_view field, IntBuf& buf, std::string_view* value) {
  if (is_map()) return map_ptr()->Find(field, value);
  const ListPack::Pos first = rep_.lp.First();
  if (first == ListPack::npos) return false;
  const ListPack::Pos at = rep_.lp.Find(first, field, 1);
  if (at == ListPack::npos) return false;
  *value = rep_.lp.Get(rep_.lp.Next(at)).ToString(buf);
  return true;
}

bool Hash::Contains(std::string_view field) {
  IntBuf buf;
  std::string_view unused;
  return Get(field, buf, &unused);
}

bool Hash::EmitPair(ListPack::Pos pos, FieldFn fn) const {
  IntBuf field_buf;
  IntBuf value_buf;
  const std::string_view field = rep_.lp.Get(pos).ToString(field_buf);
  const std::string_view value = rep_.lp.Get(rep_.lp.Next(pos)).ToString(value_buf);
  return fn(field, value);
}

void Hash::ForEach(FieldFn fn) const {
  if (is_map()) {
    map_ptr()->ForEach([&](const StringMap::Entry& e) { return fn(e.field, e.value); });
    return;
  }
  for (ListPack::Pos pos = rep_.lp.First(); pos != ListPack::npos;) {
    const ListPack::Pos value_pos = rep_.lp.Next(pos);
    IntBuf field_buf;
    IntBuf value_buf;
    if (!fn(rep_.lp.Get(pos).ToString(field_buf), rep_.lp.Get(value_pos).ToString(value_buf)))
      return;
    pos = rep_.lp.Next(value_pos);
  }
}

uint64_t Hash::Scan(uint64_t cursor, FieldFn fn) const {
  if (is_map()) {
    return map_ptr()->Scan(cursor, [&](const StringMap::Entry& e) { fn(e.field, e.value); });
  }
  ForEach(fn);
  return 0;
}

std::unique_ptr<ListPack::Pos[]> Hash::FieldPositions() const {
  auto positions = std::make_unique_for_overwrite<ListPack::Pos[]>(size());
  size_t i = 0;
  for (ListPack::Pos pos = rep_.lp.First(); pos != ListPack::npos;
       pos = rep_.lp.Next(rep_.lp.Next(pos))) {
    positions[i++] = pos;
  }
  return positions;
}

void Hash::SampleWithRepetition(size_t count, Random random, FieldFn fn) const {
  if (is_map()) {
    while (count-- > 0) {
      const StringMap::Entry e = map_ptr()->RandomEntry(random);
      if (!fn(e.field, e.value)) return;
    }
    return;
  }
  const size_t pairs = size();
  if (count == 1) {
    EmitPair(rep_.lp.RandomPair(pairs, random()), fn);
    return;
  }
  const std::unique_ptr<ListPack::Pos[]> positions = FieldPositions();
  while (count-- > 0) {
    if (!EmitPair(positions[random() % pairs], fn)) return;
  }
}

void Hash::SampleDistinct(size_t count, Random random, FieldFn fn) const {
  const size_t total = size();
  // Many of the fields: all of them, less random ones (Redis's HRANDFIELD_SUB_STRATEGY_MUL).
  if (count * 3 > total) {
    if (is_map()) {
      std::vector<StringMap::Entry> entries;
      entries.reserve(total);
      map_ptr()->ForEach([&](const StringMap::Entry& e) {
        entries.push_back(e);
        return true;
      });
      while (entries.size() > count) {
        std::swap(entries[random() % entries.size()], entries.back());
        entries.pop_back();
      }
      for (const StringMap::Entry& e : entries) {
        if (!fn(e.field, e.value)) return;
      }
      return;
    }
    std::unique_ptr<ListPack::Pos[]> positions = FieldPositions();
    size_t left = total;
    while (left > count) {
      std::swap(positions[random() % left], positions[left - 1]);
      --left;
    }
    for (size_t i = 0; i < left; ++i) {
      if (!EmitPair(positions[i], fn)) return;
    }
    return;
  }
  if (!is_map()) {
    // One pass, each field taken with probability (still needed) / (still to see): Redis's
    // lpRandomPairsUnique, in list pack order.
    size_t needed = count;
    size_t unseen = total;
    for (ListPack::Pos pos = rep_.lp.First(); pos != ListPack::npos && needed > 0;
         pos = rep_.lp.Next(rep_.lp.Next(pos)), --unseen) {
      if (random() % unseen >= needed) continue;
      --needed;
      if (!EmitPair(pos, fn)) return;
    }
    return;
  }
  // Few of a big table: random fields until enough distinct ones came.
  absl::flat_hash_set<std::string_view, KeyHash, KeyEq> seen;
  seen.reserve(count);
  while (seen.size() < count) {
    const StringMap::Entry e = map_ptr()->RandomEntry(random);
    if (!seen.insert(e.field).second) continue;
    if (!fn(e.field, e.value)) return;
  }
}

}  // namespace kv
