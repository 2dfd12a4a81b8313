// CLUSTER, as Redis 7.0.15 started without cluster mode (kvserver has none): every subcommand
// answers that cluster support is disabled. The command table is Redis's, so that COMMAND shows
// it and scripts are refused the subcommands Redis refuses them (CLUSTER RESET).

#include "server/command_registry.h"
#include "server/commands/families.h"

namespace kv {
namespace {

// Redis's clusterCommand outside cluster mode, for every subcommand, HELP included.
void ClusterDisabled(CommandContext& ctx) {
  ctx.reply.Error("This instance has cluster support disabled");
}

}  // namespace

void RegisterClusterFamily(CommandRegistry& r) {
  r.Register(
      {"cluster",
       -2,
       0,
       0,
       0,
       0,
       ClusterDisabled,
       "cluster",
       "A container for cluster commands",
       "3.0.0",
       "@slow",
       {
           {"addslots", -3, kCmdAdmin | kCmdStale | kCmdNoAsyncLoading, 0, 0, 0, ClusterDisabled,
            "cluster", "Assign new hash slots to receiving node", "3.0.0",
            "@admin @slow @dangerous"},
           {"addslotsrange", -4, kCmdAdmin | kCmdStale | kCmdNoAsyncLoading, 0, 0, 0,
            ClusterDisabled, "cluster", "Assign new hash slots to receiving node", "7.0.0",
            "@admin @slow @dangerous"},
           {"bumpepoch", 2, kCmdAdmin | kCmdStale | kCmdNoAsyncLoading, 0, 0, 0, ClusterDisabled,
            "cluster", "Advance the cluster config epoch", "3.0.0", "@admin @slow @dangerous"},
           {"count-failure-reports", 3, kCmdAdmin | kCmdStale, 0, 0, 0, ClusterDisabled, "cluster",
            "Return the number of failure reports active for a given node", "3.0.0",
            "@admin @slow @dangerous"},
           {"countkeysinslot", 3, kCmdStale, 0, 0, 0, ClusterDisabled, "cluster",
            "Return the number of local keys in the specified hash slot", "3.0.0", "@slow"},
           {"delslots", -3, kCmdAdmin | kCmdStale | kCmdNoAsyncLoading, 0, 0, 0, ClusterDisabled,
            "cluster", "Set hash slots as unbound in receiving node", "3.0.0",
            "@admin @slow @dangerous"},
           {"delslotsrange", -4, kCmdAdmin | kCmdStale | kCmdNoAsyncLoading, 0, 0, 0,
            ClusterDisabled, "cluster", "Set hash slots as unbound in receiving node", "7.0.0",
            "@admin @slow @dangerous"},
           {"failover", -2, kCmdAdmin | kCmdStale | kCmdNoAsyncLoading, 0, 0, 0, ClusterDisabled,
            "cluster", "Forces a replica to perform a manual failover of its master.", "3.0.0",
            "@admin @slow @dangerous"},
           {"flushslots", 2, kCmdAdmin | kCmdStale | kCmdNoAsyncLoading, 0, 0, 0, ClusterDisabled,
            "cluster", "Delete a node's own slots information", "3.0.0", "@admin @slow @dangerous"},
           {"forget", 3, kCmdAdmin | kCmdStale | kCmdNoAsyncLoading, 0, 0, 0, ClusterDisabled,
            "cluster", "Remove a node from the nodes table", "3.0.0", "@admin @slow @dangerous"},
           {"getkeysinslot", 4, kCmdStale, 0, 0, 0, ClusterDisabled, "cluster",
            "Return local key names in the specified hash slot", "3.0.0", "@slow"},
           {"help", 2, kCmdLoading | kCmdStale, 0, 0, 0, ClusterDisabled, "cluster",
            "Show helpful text about the different subcommands", "5.0.0", "@slow"},
           {"info", 2, kCmdStale, 0, 0, 0, ClusterDisabled, "cluster",
            "Provides info about Redis Cluster node state", "3.0.0", "@slow"},
           {"keyslot", 3, kCmdStale, 0, 0, 0, ClusterDisabled, "cluster",
            "Returns the hash slot of the specified key", "3.0.0", "@slow"},
           {"links", 2, kCmdStale, 0, 0, 0, ClusterDisabled, "cluster",
            "Returns a list of all TCP links to and from peer nodes in cluster", "7.0.0", "@slow"},
           {"meet", -4, kCmdAdmin | kCmdStale | kCmdNoAsyncLoading, 0, 0, 0, ClusterDisabled,
            "cluster", "Force a node cluster to handshake with another node", "3.0.0",
            "@admin @slow @dangerous"},
           {"myid", 2, kCmdStale, 0, 0, 0, ClusterDisabled, "cluster", "Return the node id",
            "3.0.0", "@slow"},
           {"nodes", 2, kCmdStale, 0, 0, 0, ClusterDisabled, "cluster",
            "Get Cluster config for the node", "3.0.0", "@slow"},
           {"replicas", 3, kCmdAdmin | kCmdStale, 0, 0, 0, ClusterDisabled, "cluster",
            "List replica nodes of the specified master node", "5.0.0", "@admin @slow @dangerous"},
           {"replicate", 3, kCmdAdmin | kCmdStale | kCmdNoAsyncLoading, 0, 0, 0, ClusterDisabled,
            "cluster", "Reconfigure a node as a replica of the specified master node", "3.0.0",
            "@admin @slow @dangerous"},
           {"reset", -2, kCmdAdmin | kCmdNoScript | kCmdStale, 0, 0, 0, ClusterDisabled, "cluster",
            "Reset a Redis Cluster node", "3.0.0", "@admin @slow @dangerous"},
           {"saveconfig", 2, kCmdAdmin | kCmdStale | kCmdNoAsyncLoading, 0, 0, 0, ClusterDisabled,
            "cluster", "Forces the node to save cluster state on disk", "3.0.0",
            "@admin @slow @dangerous"},
           {"set-config-epoch", 3, kCmdAdmin | kCmdStale | kCmdNoAsyncLoading, 0, 0, 0,
            ClusterDisabled, "cluster", "Set the configuration epoch in a new node", "3.0.0",
            "@admin @slow @dangerous"},
           {"setslot", -4, kCmdAdmin | kCmdStale | kCmdNoAsyncLoading, 0, 0, 0, ClusterDisabled,
            "cluster", "Bind a hash slot to a specific node", "3.0.0", "@admin @slow @dangerous"},
           {"shards", 2, kCmdStale, 0, 0, 0, ClusterDisabled, "cluster",
            "Get array of cluster slots to node mappings", "7.0.0", "@slow"},
           {"slaves", 3, kCmdAdmin | kCmdStale, 0, 0, 0, ClusterDisabled, "cluster",
            "List replica nodes of the specified master node", "3.0.0", "@admin @slow @dangerous"},
           {"slots", 2, kCmdStale, 0, 0, 0, ClusterDisabled, "cluster",
            "Get array of Cluster slot to node mappings", "3.0.0", "@slow"},
       }});
}

}  // namespace kv
