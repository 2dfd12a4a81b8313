#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/config.h"

namespace kv {

// A directive (or configuration line) kvserver accepts only at values that ask for nothing it
// lacks, and the feature it waits for. Directives that only tune a missing feature (rdbcompression,
// repl-timeout, cluster-node-timeout, tls-cert-file, ...) take any valid value: nothing can use
// them while the feature itself is refused.
struct MissingFeature {
  std::string_view directive;  // the primary name (its aliases are covered too)
  std::string_view feature;    // what kvserver does not have yet
  std::string_view accepted;   // the values accepted, as shown in the error
  // True when the configuration's value needs the feature; nullptr: the line is always refused
  // (loadmodule, user, sentinel, module configurations).
  bool (*needs_feature)(const Config&);
};

// The one list of them, for the error texts, the tests and the documentation.
const std::vector<MissingFeature>& MissingFeatures();

// The error for a directive whose value (already applied to `config`) needs a missing feature:
// "kvserver does not support <feature> yet: only <accepted> is accepted".
std::optional<std::string> RefusedForMissingFeature(std::string_view directive,
                                                    const Config& config);
// The same error for a line that is always refused ("loadmodule", "user", ...).
std::string MissingFeatureError(std::string_view directive);

}  // namespace kv
