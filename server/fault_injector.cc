#include "server/fault_injector.h"

#include "server/strings.h"

namespace kv {

std::string ErrorLine(std::string_view text) {
  if (!text.empty() && text[0] == '-') return std::string(text);
  return "-" + std::string(text);
}

FaultInjector::Fault FaultInjector::Take(std::string_view name) {
  if (EqualsIgnoreCase(name, "kvfault")) return {};
  for (auto it = faults_.begin(); it != faults_.end(); ++it) {
    if (!it->command.empty() && !EqualsIgnoreCase(it->command, name)) continue;
    if (--it->count > 0) return *it;
    Fault used = std::move(*it);
    faults_.erase(it);
    return used;
  }
  return {};
}

}  // namespace kv
