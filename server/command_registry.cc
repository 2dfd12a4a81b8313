#include "server/command_registry.h"

#include <algorithm>

#include "server/commands/families.h"
#include "server/strings.h"

namespace kv {
namespace {

// Lower-cases `name` into `buf`; names longer than the buffer are not commands anyway.
std::string_view ToLower(std::string_view name, char (&buf)[64]) {
  if (name.size() > sizeof(buf)) return {};
  for (size_t i = 0; i < name.size(); ++i) buf[i] = AsciiLower(name[i]);
  return {buf, name.size()};
}

}  // namespace

void CommandRegistry::Register(CommandSpec spec) {
  spec.stats_slot = stats_slots_++;
  for (CommandSpec& sub : spec.subcommands) {
    sub.parent = spec.name;
    sub.stats_slot = stats_slots_++;
  }
  std::string key(spec.name);
  commands_.insert_or_assign(std::move(key), std::move(spec));
}

const CommandSpec* CommandRegistry::Find(std::string_view name) const {
  char buf[64];
  std::string_view lower = ToLower(name, buf);
  if (lower.empty()) return nullptr;
  auto it = commands_.find(lower);
  return it == commands_.end() ? nullptr : &it->second;
}

const CommandSpec* CommandRegistry::FindSubcommand(const CommandSpec& parent,
                                                   std::string_view sub) {
  char buf[64];
  std::string_view lower = ToLower(sub, buf);
  for (const CommandSpec& s : parent.subcommands) {
    if (s.name == lower) return &s;
  }
  return nullptr;
}

bool CommandRegistry::Rename(std::string_view from, std::string_view to) {
  auto node = commands_.extract(std::string(kv::ToLower(from)));
  if (node.empty()) return false;
  if (to.empty()) return true;
  node.key() = kv::ToLower(to);
  commands_.insert(std::move(node));
  return true;
}

std::vector<const CommandSpec*> CommandRegistry::All() const {
  std::vector<const CommandSpec*> all;
  all.reserve(commands_.size());
  for (const auto& [name, spec] : commands_) all.push_back(&spec);
  std::sort(all.begin(), all.end(),
            [](const CommandSpec* a, const CommandSpec* b) { return a->name < b->name; });
  return all;
}

CommandRegistry BuildCommandRegistry(
    const std::vector<std::pair<std::string, std::string>>& renamed) {
  CommandRegistry registry;
  RegisterConnectionFamily(registry);
  RegisterStringFamily(registry);
  RegisterListFamily(registry);
  RegisterBitmapFamily(registry);
  RegisterGenericFamily(registry);
  RegisterKeyspaceFamily(registry);
  RegisterServerFamily(registry);
  RegisterIntrospectionFamily(registry);
  RegisterClientFamily(registry);
  RegisterDebugFamily(registry);
  RegisterMemoryFamily(registry);
  RegisterScriptingFamily(registry);
  RegisterFaultFamily(registry);
  RegisterMonitorFamily(registry);
  RegisterSlowlogFamily(registry);
  RegisterLatencyFamily(registry);
  RegisterHashFamily(registry);
  RegisterSetFamily(registry);
  RegisterZSetFamily(registry);
  RegisterZSetRangeFamily(registry);
  RegisterZSetSetOpFamily(registry);
  RegisterGeoFamily(registry);
  RegisterHllFamily(registry);
  RegisterSortFamily(registry);
  RegisterStreamFamily(registry);
  RegisterStreamGroupFamily(registry);
  RegisterPubSubFamily(registry);
  RegisterTransactionFamily(registry);
  RegisterDumpFamily(registry);
  RegisterMigrateFamily(registry);
  RegisterPersistenceFamily(registry);
  RegisterClusterFamily(registry);
  for (const auto& [from, to] : renamed) registry.Rename(from, to);
  return registry;
}

}  // namespace kv
