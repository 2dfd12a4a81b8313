#include "storage/hash.h"

#include <vector>

#include "absl/container/flat_hash_set.h"
#include "storage/key_hash.h"

namespace kv {

std::unique_ptr<Aggregate> Hash::Clone() const {
  auto copy = std::make_unique<Hash>();
  if (map_) {
    copy->map_ = std::make_unique<StringMap>(map_->Clone());
  } else {
    copy->lp_ = lp_.Clone();
  }
  return copy;
}

size_t Hash::AllocatedBytes(size_t samples) const {
  if (map_) return sizeof(StringMap) + map_->AllocatedBytes(samples);
  return lp_.allocated();
}

void Hash::ConvertToMap() {
  auto map = std::make_unique<StringMap>();
  map->Reserve(size());
  ForEach([&](std::string_view field, std::string_view value) {
    map->InsertNew(field, value);
    return true;
  });
  map_ = std::move(map);
  lp_ = ListPack();
}

void Hash::PrepareFor(std::span<const std::string_view> strings, const Limits& limits) {
  if (map_) return;
  size_t sum = 0;
  for (std::string_view s : strings) {
    if (s.size() > limits.max_listpack_value) return ConvertToMap();
    sum += s.size();
  }
  if (!lp_.SafeToAdd(sum)) ConvertToMap();
}

bool Hash::Set(std::string_view field, std::string_view value, const Limits& limits) {
  if (!map_ &&
      (field.size() > limits.max_listpack_value || value.size() > limits.max_listpack_value)) {
    ConvertToMap();
  }
  if (map_) return map_->Set(field, value);
  const ListPack::Pos first = lp_.First();
  const ListPack::Pos at = first == ListPack::npos ? first : lp_.Find(first, field, 1);
  const bool added = at == ListPack::npos;
  if (added) {
    lp_.Append(field);
    lp_.Append(value);
  } else {
    lp_.Replace(lp_.Next(at), value);
  }
  // Checked after updates too: a lowered limit converts on the next write, as in Redis.
  if (size() > limits.max_listpack_entries) ConvertToMap();
  return added;
}

bool Hash::Erase(std::string_view field) {
  if (map_) return map_->Erase(field);
  const ListPack::Pos first = lp_.First();
  if (first == ListPack::npos) return false;
  const ListPack::Pos at = lp_.Find(first, field, 1);
  if (at == ListPack::npos) return false;
  lp_.DeleteFrom(at, 2);
  return true;
}

bool Hash::Get(std::string_view field, IntBuf& buf, std::string_view* value) {
  if (map_) return map_->Find(field, value);
  const ListPack::Pos first = lp_.First();
  if (first == ListPack::npos) return false;
  const ListPack::Pos at = lp_.Find(first, field, 1);
  if (at == ListPack::npos) return false;
  *value = lp_.Get(lp_.Next(at)).ToString(buf);
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
  const std::string_view field = lp_.Get(pos).ToString(field_buf);
  const std::string_view value = lp_.Get(lp_.Next(pos)).ToString(value_buf);
  return fn(field, value);
}

void Hash::ForEach(FieldFn fn) const {
  if (map_) {
    map_->ForEach([&](const StringMap::Entry& e) { return fn(e.field, e.value); });
    return;
  }
  for (ListPack::Pos pos = lp_.First(); pos != ListPack::npos;) {
    const ListPack::Pos value_pos = lp_.Next(pos);
    IntBuf field_buf;
    IntBuf value_buf;
    if (!fn(lp_.Get(pos).ToString(field_buf), lp_.Get(value_pos).ToString(value_buf))) return;
    pos = lp_.Next(value_pos);
  }
}

uint64_t Hash::Scan(uint64_t cursor, FieldFn fn) const {
  if (map_) {
    return map_->Scan(cursor, [&](const StringMap::Entry& e) { fn(e.field, e.value); });
  }
  ForEach(fn);
  return 0;
}

std::unique_ptr<ListPack::Pos[]> Hash::FieldPositions() const {
  auto positions = std::make_unique_for_overwrite<ListPack::Pos[]>(size());
  size_t i = 0;
  for (ListPack::Pos pos = lp_.First(); pos != ListPack::npos; pos = lp_.Next(lp_.Next(pos))) {
    positions[i++] = pos;
  }
  return positions;
}

void Hash::SampleWithRepetition(size_t count, Random random, FieldFn fn) const {
  if (map_) {
    while (count-- > 0) {
      const StringMap::Entry e = map_->RandomEntry(random);
      if (!fn(e.field, e.value)) return;
    }
    return;
  }
  const size_t pairs = size();
  if (count == 1) {
    EmitPair(lp_.RandomPair(pairs, random()), fn);
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
    if (map_) {
      std::vector<StringMap::Entry> entries;
      entries.reserve(total);
      map_->ForEach([&](const StringMap::Entry& e) {
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
  if (!map_) {
    // One pass, each field taken with probability (still needed) / (still to see): Redis's
    // lpRandomPairsUnique, in list pack order.
    size_t needed = count;
    size_t unseen = total;
    for (ListPack::Pos pos = lp_.First(); pos != ListPack::npos && needed > 0;
         pos = lp_.Next(lp_.Next(pos)), --unseen) {
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
    const StringMap::Entry e = map_->RandomEntry(random);
    if (!seen.insert(e.field).second) continue;
    if (!fn(e.field, e.value)) return;
  }
}

}  // namespace kv
