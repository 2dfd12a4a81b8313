#pragma once

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

namespace kv {

// A key of a SORT command line and its flags, as COMMAND GETKEYSANDFLAGS shows them.
struct SortKey {
  size_t pos;
  std::string_view flags;
};

// Redis's sortGetKeys / sortROGetKeys: the keys of a SORT or SORT_RO line (`argv` from the
// command's name on), which its key specifications cannot find (the STORE key may be anywhere):
// the key sorted, and SORT's last STORE key.
std::vector<SortKey> SortGetKeys(std::span<const std::string_view> argv, bool readonly);

}  // namespace kv
