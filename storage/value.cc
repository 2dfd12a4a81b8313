#include "storage/value.h"

#include <malloc.h>

#include <cstring>
#include <new>
#include <utility>

namespace kv {
namespace {

uint32_t Load32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

void Store32(char* p, uint32_t v) { std::memcpy(p, &v, sizeof v); }

}  // namespace

Value::Value(size_t key_size) : meta_(static_cast<uint32_t>(ValueType::kString) << 24) {
  if (key_size > UINT16_MAX) {
    meta_ |= kWide;
    Store32(base() + 8, static_cast<uint32_t>(key_size));
    Store32(base() + 12, 0);
  } else {
    key_size_ = static_cast<uint16_t>(key_size);
  }
}

Value::~Value() { ReleaseExternal(); }

size_t Value::key_size() const { return wide() ? Load32(base() + 8) : key_size_; }

size_t Value::EmbeddedSize() const { return wide() ? Load32(base() + 12) : str_size_; }

void Value::SetEmbeddedSize(size_t n) {
  if (wide()) {
    Store32(base() + 12, static_cast<uint32_t>(n));
  } else {
    str_size_ = static_cast<uint16_t>(n);
  }
}

size_t Value::EmbeddedCapacity() const {
  // The allocator's real size: a block is often bigger than asked for.
  const size_t room = malloc_usable_size(const_cast<char*>(base())) - EmbeddedOffset();
  return room < kMaxEmbedded ? room : kMaxEmbedded;
}

void Value::ReleaseExternal() {
  if (!is_string()) {
    delete slot_aggregate();
    set_type(ValueType::kString);
    SetEmbeddedSize(0);
    return;
  }
  if (!external()) return;
  external_str().~CompactString();
  meta_ &= ~kExternal;
  SetEmbeddedSize(0);
}

void Value::SetAggregate(std::unique_ptr<Aggregate> a) {
  ReleaseExternal();
  meta_ &= ~(kInPlace | kUnshared);
  set_type(a->type());
  // The word every entry reserves after the key (see Entry::Make).
  new (base() + SlotOffset(EmbeddedOffset())) Aggregate*(a.release());
}

size_t Value::allocated(size_t samples) const {
  if (!is_string())
    return slot_aggregate()->AllocatedBytes(samples) + malloc_usable_size(slot_aggregate());
  return external() ? external_str().allocated() : 0;
}

void Value::Embed(std::string_view s) {
  // An empty view may have a null data(), which memmove must not be given.
  if (!s.empty()) std::memmove(base() + EmbeddedOffset(), s.data(), s.size());
  SetEmbeddedSize(s.size());
}

void Value::MakeExternal(CompactString&& s) {
  // The slot overlaps the embedded bytes, which are dead by now.
  new (base() + SlotOffset(EmbeddedOffset())) CompactString(std::move(s));
  meta_ |= kExternal;
}

CompactString& Value::mutable_str() {
  meta_ |= kInPlace;
  if (!external()) MakeExternal(CompactString(str()));
  return external_str();
}

void Value::SetString(std::string_view s) {
  if (!is_string()) ReleaseExternal();
  meta_ &= ~(kInPlace | kUnshared);
  if (external()) {
    const std::string_view old = external_str().view();
    // A string made from a part of the old one stays where it is.
    const bool overlaps = s.data() >= old.data() && s.data() < old.data() + old.size();
    if (overlaps || s.size() > EmbeddedCapacity()) return external_str().assign(s);
    ReleaseExternal();
  } else if (s.size() <= EmbeddedCapacity()) {
    return Embed(s);
  } else {
    return MakeExternal(CompactString(s));
  }
  Embed(s);
}

void Value::Adopt(DetachedValue&& d) {
  if (d.aggregate) return SetAggregate(std::move(d.aggregate));
  ReleaseExternal();
  meta_ &= ~(kInPlace | kUnshared);
  if (d.changed_in_place) meta_ |= kInPlace;
  if (d.unshared) meta_ |= kUnshared;
  if (d.str.size() <= EmbeddedCapacity()) {
    Embed(d.str.view());
  } else {
    MakeExternal(std::move(d.str));
  }
}

DetachedValue Value::Detach() {
  DetachedValue d;
  d.changed_in_place = changed_in_place();
  d.unshared = unshared();
  d.lru = lru();
  if (!is_string()) {
    d.aggregate.reset(slot_aggregate());
    set_type(ValueType::kString);
    SetEmbeddedSize(0);
  } else if (external()) {
    d.str = std::move(external_str());
    ReleaseExternal();
  } else {
    d.str.assign(str());
    SetEmbeddedSize(0);
  }
  return d;
}

}  // namespace kv
