#include "server/commands/command_docs.h"

#include <algorithm>

namespace kv {
namespace {

// The empty lists of the generated table.
constexpr std::span<const ArgDoc> kNoArgs;
constexpr std::span<const KeySpecDoc> kNoKeySpecs;
constexpr std::span<const HistoryDoc> kNoHistory;
constexpr std::string_view kNoToken;

#include "server/commands/command_docs.inc"

}  // namespace

const CommandDoc* FindCommandDoc(std::string_view full_name) {
  const auto* it = std::lower_bound(
      std::begin(kCommandDocs), std::end(kCommandDocs), full_name,
      [](const CommandDoc& doc, std::string_view name) { return doc.name < name; });
  return it != std::end(kCommandDocs) && it->name == full_name ? it : nullptr;
}

std::span<const CommandDoc> AllCommandDocs() { return kCommandDocs; }

}  // namespace kv
