#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "absl/hash/hash.h"
#include "absl/strings/string_view.h"

namespace kv {

// A key with its hash already computed, so that a lookup that needed the hash for something
// else (choosing a segment) does not compute it twice.
struct PrehashedKey {
  std::string_view key;
  size_t hash;
  operator std::string_view() const { return key; }
};

// Transparent hashing for maps keyed by std::string, so lookups take a std::string_view without
// building a string. (Debian's abseil has its own string_view type, so its default hasher does
// not accept std::string_view.)
struct KeyHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const {
    return absl::Hash<absl::string_view>{}(absl::string_view(s.data(), s.size()));
  }
  size_t operator()(const PrehashedKey& k) const { return k.hash; }
};

struct KeyEq {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const { return a == b; }
};

}  // namespace kv
