#pragma once

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

namespace kv {

// Redis's migrateGetKeys: the positions of the keys of a MIGRATE line (`argv` from the command's
// name on), which its key specifications cannot find: the key argument, or every argument after
// KEYS (none when KEYS comes with a non-empty key argument, a syntax error). Their flags are
// "RW access delete".
std::vector<size_t> MigrateGetKeys(std::span<const std::string_view> argv);

}  // namespace kv
