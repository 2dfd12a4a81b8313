#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "server/command.h"
#include "storage/key_hash.h"

namespace kv {

// The command table: every command kvserver knows, looked up case-insensitively.
class CommandRegistry {
 public:
  void Register(CommandSpec spec);
  // `name` in any case; nullptr when unknown.
  const CommandSpec* Find(std::string_view name) const;
  // Subcommand `sub` (any case) of `parent`; nullptr when unknown.
  static const CommandSpec* FindSubcommand(const CommandSpec& parent, std::string_view sub);

  size_t size() const { return commands_.size(); }
  // How many commands and subcommands have a stats slot (CommandSpec::stats_slot).
  size_t stats_slots() const { return stats_slots_; }
  // rename-command: `from` (any case) is known as `to` from now on (its COMMAND entries keep
  // the original name, as Redis's); an empty `to` removes it. False when `from` is unknown.
  bool Rename(std::string_view from, std::string_view to);
  // All commands, sorted by name so that COMMAND's output is stable.
  std::vector<const CommandSpec*> All() const;

 private:
  absl::flat_hash_map<std::string, CommandSpec, KeyHash, KeyEq> commands_;
  size_t stats_slots_ = 0;
};

// Builds the table of every command family, with the configuration's rename-command lines
// applied in order.
CommandRegistry BuildCommandRegistry(
    const std::vector<std::pair<std::string, std::string>>& renamed = {});

}  // namespace kv
