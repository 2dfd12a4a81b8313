// The directives kvserver accepts only at their default (or "off") values, with the feature each
// waits for. Redis's configuration files name them all; a value that asks for the feature is
// refused at start-up (FATAL CONFIG FILE ERROR) and by CONFIG SET, never ignored. As a feature
// lands, its entry goes and the directive comes alive.

#include "server/config_missing_features.h"

#include "server/strings.h"

namespace kv {

const std::vector<MissingFeature>& MissingFeatures() {
  static const std::vector<MissingFeature> features = {
      {"replicaof", "replication", "'replicaof no one'",
       [](const Config& c) { return !c.replicaof_host.empty(); }},
      {"min-replicas-to-write", "replication", "'min-replicas-to-write 0'",
       [](const Config& c) { return c.min_replicas_to_write != 0; }},
      {"cluster-enabled", "cluster mode", "'cluster-enabled no'",
       [](const Config& c) { return c.cluster_enabled; }},
      {"tls-port", "TLS", "'tls-port 0'", [](const Config& c) { return c.tls_port != 0; }},
      {"aclfile", "ACL users", "'aclfile \"\"'",
       [](const Config& c) { return !c.aclfile.empty(); }},
      {"user", "ACL users", "'user default on nopass ~* &* +@all' without requirepass", nullptr},
      {"io-threads", "threaded I/O", "'io-threads 1'",
       [](const Config& c) { return c.io_threads != 1; }},
      {"activedefrag", "active defragmentation", "'activedefrag no'",
       [](const Config& c) { return c.activedefrag; }},
      {"maxmemory-clients", "client eviction", "'maxmemory-clients 0'",
       [](const Config& c) { return c.maxmemory_clients != 0; }},
      {"socket-mark-id", "socket marks", "'socket-mark-id 0'",
       [](const Config& c) { return c.socket_mark_id != 0; }},
      {"loadmodule", "modules", "no loadmodule lines", nullptr},
      {"<module>.<config>", "modules", "no module configuration", nullptr},
      {"sentinel", "Sentinel mode", "no sentinel lines", nullptr},
  };
  return features;
}

namespace {

std::string ErrorText(const MissingFeature& f) {
  return "kvserver does not support " + std::string(f.feature) + " yet: only " +
         std::string(f.accepted) + " is accepted";
}

}  // namespace

std::optional<std::string> RefusedForMissingFeature(std::string_view directive,
                                                    const Config& config) {
  for (const MissingFeature& f : MissingFeatures()) {
    if (f.needs_feature != nullptr && EqualsIgnoreCase(f.directive, directive) &&
        f.needs_feature(config)) {
      return ErrorText(f);
    }
  }
  return std::nullopt;
}

std::string MissingFeatureError(std::string_view directive) {
  for (const MissingFeature& f : MissingFeatures()) {
    if (EqualsIgnoreCase(f.directive, directive)) return ErrorText(f);
  }
  return "kvserver does not support " + std::string(directive) + " yet";
}

}  // namespace kv
