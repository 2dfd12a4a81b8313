// COMMAND and its subcommands, generated from the command table.

#include <iterator>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/dispatcher.h"
#include "server/errors.h"
#include "server/glob.h"
#include "server/strings.h"

namespace kv {
namespace {

// What Redis 7.0 reports for a command beyond the command table: the flags of its key
// specification (and a note about them), its tips, and the documentation's complexity and
// history (the arguments are in kArgs below). Commands that are not listed get the flags their
// command flags imply (RO access for readonly commands, RW update for the others) and nothing
// else.
struct KeySpecDoc {
  std::string_view flags;  // space separated
  int index;               // the first key's argument
  int lastkey;             // relative to index; -1: the last argument
};

// BITOP destkey key [key ...]: the destination is overwritten, the sources read.
constexpr KeySpecDoc kBitopKeySpecs[] = {{"OW update", 2, 0}, {"RO access", 3, -1}};
constexpr KeySpecDoc kCopyKeySpecs[] = {{"RO access", 1, 0}, {"OW update", 2, 0}};
constexpr KeySpecDoc kRenameKeySpecs[] = {{"RW access delete", 1, 0}, {"OW update", 2, 0}};
constexpr KeySpecDoc kRenameNxKeySpecs[] = {{"RW access delete", 1, 0}, {"OW insert", 2, 0}};

// The tips of LATENCY's reporting subcommands.
constexpr std::string_view kLatencyTips =
    "nondeterministic_output request_policy:all_nodes response_policy:special";

struct CommandMeta {
  std::string_view full_name;
  std::string_view key_flags;  // space separated, as COMMAND INFO spells them
  std::string_view key_notes;
  std::string_view tips;  // space separated
  std::string_view complexity;
  // "since|changes" entries separated by '\n'.
  std::string_view history;
  // Key specifications, for commands with more than the one first/last/step implies.
  std::span<const KeySpecDoc> key_specs = {};
};

constexpr CommandMeta kMeta[] = {
    {"get", "RO access", "", "", "O(1)", ""},
    {"set", "RW access update variable_flags", "RW and ACCESS due to the optional `GET` argument",
     "", "O(1)",
     "2.6.12|Added the `EX`, `PX`, `NX` and `XX` options.\n"
     "6.0.0|Added the `KEEPTTL` option.\n"
     "6.2.0|Added the `GET`, `EXAT` and `PXAT` option.\n"
     "7.0.0|Allowed the `NX` and `GET` options to be used together."},
    {"incr", "RW access update", "", "", "O(1)", ""},
    {"decr", "RW access update", "", "", "O(1)", ""},
    {"incrby", "RW access update", "", "", "O(1)", ""},
    {"decrby", "RW access update", "", "", "O(1)", ""},
    {"mset", "OW update", "", "request_policy:multi_shard response_policy:all_succeeded",
     "O(N) where N is the number of keys to set.", ""},
    {"mget", "RO access", "", "request_policy:multi_shard",
     "O(N) where N is the number of keys to retrieve.", ""},
    {"setnx", "OW insert", "", "", "O(1)", ""},
    {"setex", "OW update", "", "", "O(1)", ""},
    {"psetex", "OW update", "", "", "O(1)", ""},
    {"getset", "RW access update", "", "", "O(1)", ""},
    {"getdel", "RW access delete", "", "", "O(1)", ""},
    {"getex", "RW access update", "RW and UPDATE because it changes the TTL", "", "O(1)", ""},
    {"msetnx", "OW insert", "", "request_policy:multi_shard response_policy:agg_min",
     "O(N) where N is the number of keys to set.", ""},
    {"incrbyfloat", "RW access update", "", "", "O(1)", ""},
    {"append", "RW insert", "", "",
     "O(1). The amortized time complexity is O(1) assuming the appended value is small and the "
     "already present value is of any size, since the dynamic string library used by Redis will "
     "double the free space available on every reallocation.",
     ""},
    {"strlen", "RO", "", "", "O(1)", ""},
    {"getrange", "RO access", "", "",
     "O(N) where N is the length of the returned string. The complexity is ultimately determined "
     "by the returned length, but because creating a substring from an existing string is very "
     "cheap, it can be considered O(1) for small strings.",
     ""},
    {"substr", "RO access", "", "",
     "O(N) where N is the length of the returned string. The complexity is ultimately determined "
     "by the returned length, but because creating a substring from an existing string is very "
     "cheap, it can be considered O(1) for small strings.",
     ""},
    {"setrange", "RW update", "", "",
     "O(1), not counting the time taken to copy the new string in place. Usually, this string is "
     "very small so the amortized complexity is O(1). Otherwise, complexity is O(M) with M being "
     "the length of the value argument.",
     ""},
    {"lcs", "RO access", "", "", "O(N*M) where N and M are the lengths of s1 and s2, respectively",
     ""},
    {"setbit", "RW access update", "", "", "O(1)", ""},
    {"getbit", "RO access", "", "", "O(1)", ""},
    {"bitcount", "RO access", "", "", "O(N)", "7.0.0|Added the `BYTE|BIT` option."},
    {"bitpos", "RO access", "", "", "O(N)", "7.0.0|Added the `BYTE|BIT` option."},
    {"bitop", "", "", "", "O(N)", "", kBitopKeySpecs},
    {"bitfield", "RW access update variable_flags",
     "This command allows both access and modification of the key", "",
     "O(1) for each subcommand specified", ""},
    {"bitfield_ro", "RO access", "", "", "O(1) for each subcommand specified", ""},
    {"del", "RM delete", "", "request_policy:multi_shard response_policy:agg_sum",
     "O(N) where N is the number of keys that will be removed. When a key to remove holds a "
     "value other than a string, the individual complexity for this key is O(M) where M is the "
     "number of elements in the list, set, sorted set or hash. Removing a single key that holds "
     "a string value is O(1).",
     ""},
    {"exists", "RO", "", "request_policy:multi_shard response_policy:agg_sum",
     "O(N) where N is the number of keys to check.", "3.0.3|Accepts multiple `key` arguments."},
    {"expire", "RW update", "", "", "O(1)", "7.0.0|Added options: `NX`, `XX`, `GT` and `LT`."},
    {"pexpire", "RW update", "", "", "O(1)", "7.0.0|Added options: `NX`, `XX`, `GT` and `LT`."},
    {"ttl", "RO access", "", "nondeterministic_output", "O(1)", "2.8.0|Added the -2 reply."},
    {"pttl", "RO access", "", "nondeterministic_output", "O(1)", "2.8.0|Added the -2 reply."},
    {"persist", "RW update", "", "", "O(1)", ""},
    {"ping", "", "", "request_policy:all_shards response_policy:all_succeeded", "O(1)", ""},
    {"echo", "", "", "", "O(1)", ""},
    {"quit", "", "", "", "O(1)", ""},
    {"select", "", "", "", "O(1)", ""},
    {"auth", "", "", "", "O(N) where N is the number of passwords defined for the user",
     "6.0.0|Added ACL style (username and password)."},
    {"flushdb", "", "", "request_policy:all_shards response_policy:all_succeeded",
     "O(N) where N is the number of keys in the selected database",
     "4.0.0|Added the `ASYNC` flushing mode modifier.\n"
     "6.2.0|Added the `SYNC` flushing mode modifier."},
    {"flushall", "", "", "request_policy:all_shards response_policy:all_succeeded",
     "O(N) where N is the total number of keys in all databases",
     "4.0.0|Added the `ASYNC` flushing mode modifier.\n"
     "6.2.0|Added the `SYNC` flushing mode modifier."},
    {"dbsize", "", "", "request_policy:all_shards response_policy:agg_sum", "O(1)", ""},
    {"shutdown", "", "", "",
     "O(N) when saving, where N is the total number of keys in all databases when saving data, "
     "otherwise O(1)",
     "7.0.0|Added the `NOW`, `FORCE` and `ABORT` modifiers."},
    {"info", "", "", "nondeterministic_output request_policy:all_shards response_policy:special",
     "O(1)", "7.0.0|Added support for taking multiple section arguments."},
    {"config", "", "", "", "Depends on subcommand.", ""},
    {"config|get", "", "", "", "O(N) when N is the number of configuration parameters provided",
     "7.0.0|Added the ability to pass multiple pattern parameters in one call"},
    {"config|set", "", "", "request_policy:all_nodes response_policy:all_succeeded",
     "O(N) when N is the number of configuration parameters provided",
     "7.0.0|Added the ability to set multiple parameters in one call."},
    {"config|resetstat", "", "", "", "O(1)", ""},
    {"config|rewrite", "", "", "", "O(1)", ""},
    {"function|flush", "", "", "request_policy:all_shards response_policy:all_succeeded",
     "O(N) where N is the number of functions deleted", ""},
    {"client|info", "", "", "nondeterministic_output", "O(1)", ""},
    {"client|list", "", "", "nondeterministic_output",
     "O(N) where N is the number of client connections",
     "2.8.12|Added unique client `id` field.\n"
     "5.0.0|Added optional `TYPE` filter.\n"
     "6.0.0|Added `user` field.\n"
     "6.2.0|Added `argv-mem`, `tot-mem`, `laddr` and `redir` fields and the optional `ID` "
     "filter.\n"
     "7.0.0|Added `resp`, `multi-mem`, `rbs` and `rbp` fields.\n"
     "7.0.3|Added `ssub` field."},
    {"client|pause", "", "", "", "O(1)",
     "6.2.0|`CLIENT PAUSE WRITE` mode added along with the `mode` option."},
    {"client|unpause", "", "", "", "O(N) Where N is the number of paused clients", ""},
    {"copy", "", "", "", "", "", kCopyKeySpecs},
    {"rename", "", "", "", "", "", kRenameKeySpecs},
    {"renamenx", "", "", "", "", "", kRenameNxKeySpecs},
    {"move", "RW access update", "", "", "", ""},
    {"touch", "RO", "", "request_policy:multi_shard response_policy:agg_sum", "", ""},
    {"type", "RO", "", "", "", ""},
    {"unlink", "RM delete", "", "request_policy:multi_shard response_policy:agg_sum", "", ""},
    {"keys", "", "", "request_policy:all_shards nondeterministic_output_order", "", ""},
    {"scan", "", "", "nondeterministic_output request_policy:special", "", ""},
    {"randomkey", "", "", "request_policy:all_shards nondeterministic_output", "", ""},
    {"time", "", "", "nondeterministic_output", "", ""},
    {"lastsave", "", "", "nondeterministic_output", "", ""},
    {"object|encoding", "RO", "", "nondeterministic_output", "", ""},
    {"object|freq", "RO", "", "nondeterministic_output", "", ""},
    {"object|idletime", "RO", "", "nondeterministic_output", "", ""},
    {"object|refcount", "RO", "", "nondeterministic_output", "", ""},
    {"config|help", "", "", "", "O(1)", ""},
    {"slowlog", "", "", "", "Depends on subcommand.", ""},
    {"slowlog|get", "", "", "request_policy:all_nodes nondeterministic_output",
     "O(N) where N is the number of entries returned",
     "4.0.0|Added client IP address, port and name to the reply."},
    {"slowlog|len", "", "",
     "request_policy:all_nodes response_policy:agg_sum nondeterministic_output", "O(1)", ""},
    {"slowlog|reset", "", "", "request_policy:all_nodes response_policy:all_succeeded",
     "O(N) where N is the number of entries in the slowlog", ""},
    {"slowlog|help", "", "", "", "O(1)", ""},
    {"latency", "", "", "", "Depends on subcommand.", ""},
    {"latency|latest", "", "", kLatencyTips, "O(1)", ""},
    {"latency|history", "", "", kLatencyTips, "O(1)", ""},
    {"latency|doctor", "", "", kLatencyTips, "O(1)", ""},
    {"latency|graph", "", "", kLatencyTips, "O(1)", ""},
    {"latency|histogram", "", "", kLatencyTips,
     "O(N) where N is the number of commands with latency information being retrieved.", ""},
    {"latency|reset", "", "", "request_policy:all_nodes response_policy:all_succeeded", "O(1)", ""},
    {"latency|help", "", "", "", "O(1)", ""},
    {"reset", "", "", "", "O(1)", ""},
    {"role", "", "", "", "O(1)", ""},
    {"memory", "", "", "", "Depends on subcommand.", ""},
    {"memory|doctor", "", "",
     "nondeterministic_output request_policy:all_shards response_policy:special", "O(1)", ""},
    {"memory|help", "", "", "", "O(1)", ""},
    {"memory|malloc-stats", "", "",
     "nondeterministic_output request_policy:all_shards response_policy:special",
     "Depends on how much memory is allocated, could be slow", ""},
    {"memory|purge", "", "", "request_policy:all_shards response_policy:all_succeeded",
     "Depends on how much memory is allocated, could be slow", ""},
    {"memory|stats", "", "",
     "nondeterministic_output request_policy:all_shards response_policy:special", "O(1)", ""},
    {"memory|usage", "RO", "", "", "O(N) where N is the number of samples.", ""},
    {"command", "", "", "nondeterministic_output_order",
     "O(N) where N is the total number of Redis commands", ""},
    {"command|count", "", "", "", "O(1)", ""},
    {"command|info", "", "", "nondeterministic_output_order",
     "O(N) where N is the number of commands to look up",
     "7.0.0|Allowed to be called with no argument to get info on all commands."},
    {"command|docs", "", "", "nondeterministic_output_order",
     "O(N) where N is the number of commands to look up", ""},
    {"command|list", "", "", "nondeterministic_output_order",
     "O(N) where N is the total number of Redis commands", ""},
    {"command|help", "", "", "", "O(1)", ""},
    {"command|getkeys", "", "", "", "O(N) where N is the number of arguments to the command", ""},
    {"command|getkeysandflags", "", "", "",
     "O(N) where N is the number of arguments to the command", ""},
};

// The arguments COMMAND DOCS describes, as Redis 7.0.15's command table has them.
enum DocArgFlag : uint8_t { kArgOptional = 1, kArgMultiple = 2, kArgMultipleToken = 4 };

struct DocArg {
  std::string_view name;
  std::string_view type;  // string, integer, key, pattern, unix-time, pure-token, oneof, block
  int key_spec_index;     // -1: not a key
  std::string_view token;
  std::string_view since;
  uint8_t flags;
  std::span<const DocArg> args;  // for oneof and block
};

struct CommandArgs {
  std::string_view full_name;
  std::span<const DocArg> args;
};

constexpr DocArg kGetArgs1[] = {{"key", "key", 0, "", "", 0, {}}};
constexpr DocArg kSetArgs2[] = {{"nx", "pure-token", -1, "NX", "", 0, {}},
                                {"xx", "pure-token", -1, "XX", "", 0, {}}};
constexpr DocArg kSetArgs3[] = {{"seconds", "integer", -1, "EX", "2.6.12", 0, {}},
                                {"milliseconds", "integer", -1, "PX", "2.6.12", 0, {}},
                                {"unix-time-seconds", "unix-time", -1, "EXAT", "6.2.0", 0, {}},
                                {"unix-time-milliseconds", "unix-time", -1, "PXAT", "6.2.0", 0, {}},
                                {"keepttl", "pure-token", -1, "KEEPTTL", "6.0.0", 0, {}}};
constexpr DocArg kSetArgs4[] = {{"key", "key", 0, "", "", 0, {}},
                                {"value", "string", -1, "", "", 0, {}},
                                {"condition", "oneof", -1, "", "2.6.12", kArgOptional, kSetArgs2},
                                {"get", "pure-token", -1, "GET", "6.2.0", kArgOptional, {}},
                                {"expiration", "oneof", -1, "", "", kArgOptional, kSetArgs3}};
constexpr DocArg kIncrArgs5[] = {{"key", "key", 0, "", "", 0, {}}};
constexpr DocArg kDecrArgs6[] = {{"key", "key", 0, "", "", 0, {}}};
constexpr DocArg kIncrbyArgs7[] = {{"key", "key", 0, "", "", 0, {}},
                                   {"increment", "integer", -1, "", "", 0, {}}};
constexpr DocArg kDecrbyArgs8[] = {{"key", "key", 0, "", "", 0, {}},
                                   {"decrement", "integer", -1, "", "", 0, {}}};
constexpr DocArg kMsetArgs9[] = {{"key", "key", 0, "", "", 0, {}},
                                 {"value", "string", -1, "", "", 0, {}}};
constexpr DocArg kMsetArgs10[] = {{"key_value", "block", -1, "", "", kArgMultiple, kMsetArgs9}};
constexpr DocArg kMgetArgs11[] = {{"key", "key", 0, "", "", kArgMultiple, {}}};
constexpr DocArg kDelArgs12[] = {{"key", "key", 0, "", "", kArgMultiple, {}}};
constexpr DocArg kExistsArgs13[] = {{"key", "key", 0, "", "", kArgMultiple, {}}};
constexpr DocArg kExpireArgs14[] = {{"nx", "pure-token", -1, "NX", "", 0, {}},
                                    {"xx", "pure-token", -1, "XX", "", 0, {}},
                                    {"gt", "pure-token", -1, "GT", "", 0, {}},
                                    {"lt", "pure-token", -1, "LT", "", 0, {}}};
constexpr DocArg kExpireArgs15[] = {
    {"key", "key", 0, "", "", 0, {}},
    {"seconds", "integer", -1, "", "", 0, {}},
    {"condition", "oneof", -1, "", "7.0.0", kArgOptional, kExpireArgs14}};
constexpr DocArg kPexpireArgs16[] = {{"nx", "pure-token", -1, "NX", "", 0, {}},
                                     {"xx", "pure-token", -1, "XX", "", 0, {}},
                                     {"gt", "pure-token", -1, "GT", "", 0, {}},
                                     {"lt", "pure-token", -1, "LT", "", 0, {}}};
constexpr DocArg kPexpireArgs17[] = {
    {"key", "key", 0, "", "", 0, {}},
    {"milliseconds", "integer", -1, "", "", 0, {}},
    {"condition", "oneof", -1, "", "7.0.0", kArgOptional, kPexpireArgs16}};
constexpr DocArg kTtlArgs18[] = {{"key", "key", 0, "", "", 0, {}}};
constexpr DocArg kPttlArgs19[] = {{"key", "key", 0, "", "", 0, {}}};
constexpr DocArg kPersistArgs20[] = {{"key", "key", 0, "", "", 0, {}}};
constexpr DocArg kPingArgs21[] = {{"message", "string", -1, "", "", kArgOptional, {}}};
constexpr DocArg kEchoArgs22[] = {{"message", "string", -1, "", "", 0, {}}};
constexpr DocArg kSelectArgs23[] = {{"index", "integer", -1, "", "", 0, {}}};
constexpr DocArg kFlushdbArgs24[] = {{"async", "pure-token", -1, "ASYNC", "4.0.0", 0, {}},
                                     {"sync", "pure-token", -1, "SYNC", "6.2.0", 0, {}}};
constexpr DocArg kFlushdbArgs25[] = {{"async", "oneof", -1, "", "", kArgOptional, kFlushdbArgs24}};
constexpr DocArg kFlushallArgs26[] = {{"async", "pure-token", -1, "ASYNC", "4.0.0", 0, {}},
                                      {"sync", "pure-token", -1, "SYNC", "6.2.0", 0, {}}};
constexpr DocArg kFlushallArgs27[] = {
    {"async", "oneof", -1, "", "", kArgOptional, kFlushallArgs26}};
constexpr DocArg kShutdownArgs28[] = {{"nosave", "pure-token", -1, "NOSAVE", "", 0, {}},
                                      {"save", "pure-token", -1, "SAVE", "", 0, {}}};
constexpr DocArg kShutdownArgs29[] = {
    {"nosave_save", "oneof", -1, "", "", kArgOptional, kShutdownArgs28},
    {"now", "pure-token", -1, "NOW", "7.0.0", kArgOptional, {}},
    {"force", "pure-token", -1, "FORCE", "7.0.0", kArgOptional, {}},
    {"abort", "pure-token", -1, "ABORT", "7.0.0", kArgOptional, {}}};
constexpr DocArg kInfoArgs30[] = {
    {"section", "string", -1, "", "", kArgOptional | kArgMultiple, {}}};
constexpr DocArg kConfigGetArgs31[] = {{"parameter", "string", -1, "", "", 0, {}}};
constexpr DocArg kConfigGetArgs32[] = {
    {"parameter", "block", -1, "", "", kArgMultiple, kConfigGetArgs31}};
constexpr DocArg kConfigSetArgs33[] = {{"parameter", "string", -1, "", "", 0, {}},
                                       {"value", "string", -1, "", "", 0, {}}};
constexpr DocArg kConfigSetArgs34[] = {
    {"parameter_value", "block", -1, "", "", kArgMultiple, kConfigSetArgs33}};
constexpr DocArg kCommandDocsArgs35[] = {
    {"command-name", "string", -1, "", "", kArgOptional | kArgMultiple, {}}};
constexpr DocArg kCommandInfoArgs36[] = {
    {"command-name", "string", -1, "", "", kArgOptional | kArgMultiple, {}}};
constexpr DocArg kCommandListArgs37[] = {{"module-name", "string", -1, "MODULE", "", 0, {}},
                                         {"category", "string", -1, "ACLCAT", "", 0, {}},
                                         {"pattern", "pattern", -1, "PATTERN", "", 0, {}}};
constexpr DocArg kCommandListArgs38[] = {
    {"filterby", "oneof", -1, "FILTERBY", "", kArgOptional, kCommandListArgs37}};
constexpr DocArg kAuthArgs[] = {{"username", "string", -1, "", "6.0.0", kArgOptional, {}},
                                {"password", "string", -1, "", "", 0, {}}};
// The string commands beyond GET/SET/INCR/MSET/MGET.
constexpr DocArg kStrSetnxArgs1[] = {{"key", "key", 0, "", "", 0, {}},
                                     {"value", "string", -1, "", "", 0, {}}};
constexpr DocArg kStrSetexArgs2[] = {{"key", "key", 0, "", "", 0, {}},
                                     {"seconds", "integer", -1, "", "", 0, {}},
                                     {"value", "string", -1, "", "", 0, {}}};
constexpr DocArg kStrPsetexArgs3[] = {{"key", "key", 0, "", "", 0, {}},
                                      {"milliseconds", "integer", -1, "", "", 0, {}},
                                      {"value", "string", -1, "", "", 0, {}}};
constexpr DocArg kStrGetsetArgs4[] = {{"key", "key", 0, "", "", 0, {}},
                                      {"value", "string", -1, "", "", 0, {}}};
constexpr DocArg kStrGetdelArgs5[] = {{"key", "key", 0, "", "", 0, {}}};
constexpr DocArg kStrGetexArgs6[] = {{"seconds", "integer", -1, "EX", "", 0, {}},
                                     {"milliseconds", "integer", -1, "PX", "", 0, {}},
                                     {"unix-time-seconds", "unix-time", -1, "EXAT", "", 0, {}},
                                     {"unix-time-milliseconds", "unix-time", -1, "PXAT", "", 0, {}},
                                     {"persist", "pure-token", -1, "PERSIST", "", 0, {}}};
constexpr DocArg kStrGetexArgs7[] = {
    {"key", "key", 0, "", "", 0, {}},
    {"expiration", "oneof", -1, "", "", kArgOptional, kStrGetexArgs6}};
constexpr DocArg kStrMsetnxArgs8[] = {{"key", "key", 0, "", "", 0, {}},
                                      {"value", "string", -1, "", "", 0, {}}};
constexpr DocArg kStrMsetnxArgs9[] = {
    {"key_value", "block", -1, "", "", kArgMultiple, kStrMsetnxArgs8}};
constexpr DocArg kStrIncrbyfloatArgs10[] = {{"key", "key", 0, "", "", 0, {}},
                                            {"increment", "double", -1, "", "", 0, {}}};
constexpr DocArg kStrAppendArgs11[] = {{"key", "key", 0, "", "", 0, {}},
                                       {"value", "string", -1, "", "", 0, {}}};
constexpr DocArg kStrStrlenArgs12[] = {{"key", "key", 0, "", "", 0, {}}};
constexpr DocArg kStrGetrangeArgs13[] = {{"key", "key", 0, "", "", 0, {}},
                                         {"start", "integer", -1, "", "", 0, {}},
                                         {"end", "integer", -1, "", "", 0, {}}};
constexpr DocArg kStrSubstrArgs14[] = {{"key", "key", 0, "", "", 0, {}},
                                       {"start", "integer", -1, "", "", 0, {}},
                                       {"end", "integer", -1, "", "", 0, {}}};
constexpr DocArg kStrSetrangeArgs15[] = {{"key", "key", 0, "", "", 0, {}},
                                         {"offset", "integer", -1, "", "", 0, {}},
                                         {"value", "string", -1, "", "", 0, {}}};
constexpr DocArg kStrLcsArgs16[] = {
    {"key1", "key", 0, "", "", 0, {}},
    {"key2", "key", 0, "", "", 0, {}},
    {"len", "pure-token", -1, "LEN", "", kArgOptional, {}},
    {"idx", "pure-token", -1, "IDX", "", kArgOptional, {}},
    {"len", "integer", -1, "MINMATCHLEN", "", kArgOptional, {}},
    {"withmatchlen", "pure-token", -1, "WITHMATCHLEN", "", kArgOptional, {}}};

// The bitmap commands.
constexpr DocArg kBitSetbitArgs[] = {{"key", "key", 0, "", "", 0, {}},
                                     {"offset", "integer", -1, "", "", 0, {}},
                                     {"value", "integer", -1, "", "", 0, {}}};
constexpr DocArg kBitGetbitArgs[] = {{"key", "key", 0, "", "", 0, {}},
                                     {"offset", "integer", -1, "", "", 0, {}}};
constexpr DocArg kBitUnits[] = {{"byte", "pure-token", -1, "BYTE", "", 0, {}},
                                {"bit", "pure-token", -1, "BIT", "", 0, {}}};
constexpr DocArg kBitCountIndex[] = {
    {"start", "integer", -1, "", "", 0, {}},
    {"end", "integer", -1, "", "", 0, {}},
    {"index_unit", "oneof", -1, "", "7.0.0", kArgOptional, kBitUnits}};
constexpr DocArg kBitCountArgs[] = {{"key", "key", 0, "", "", 0, {}},
                                    {"index", "block", -1, "", "", kArgOptional, kBitCountIndex}};
constexpr DocArg kBitPosEnd[] = {{"end", "integer", -1, "", "", 0, {}},
                                 {"index_unit", "oneof", -1, "", "7.0.0", kArgOptional, kBitUnits}};
constexpr DocArg kBitPosIndex[] = {{"start", "integer", -1, "", "", 0, {}},
                                   {"end_index", "block", -1, "", "", kArgOptional, kBitPosEnd}};
constexpr DocArg kBitPosArgs[] = {{"key", "key", 0, "", "", 0, {}},
                                  {"bit", "integer", -1, "", "", 0, {}},
                                  {"index", "block", -1, "", "", kArgOptional, kBitPosIndex}};
constexpr DocArg kBitOpArgs[] = {{"operation", "string", -1, "", "", 0, {}},
                                 {"destkey", "key", 0, "", "", 0, {}},
                                 {"key", "key", 1, "", "", kArgMultiple, {}}};
constexpr DocArg kBitfieldGet[] = {{"encoding", "string", -1, "", "", 0, {}},
                                   {"offset", "integer", -1, "", "", 0, {}}};
constexpr DocArg kBitfieldSet[] = {{"encoding", "string", -1, "", "", 0, {}},
                                   {"offset", "integer", -1, "", "", 0, {}},
                                   {"value", "integer", -1, "", "", 0, {}}};
constexpr DocArg kBitfieldIncr[] = {{"encoding", "string", -1, "", "", 0, {}},
                                    {"offset", "integer", -1, "", "", 0, {}},
                                    {"increment", "integer", -1, "", "", 0, {}}};
constexpr DocArg kBitfieldOverflow[] = {{"wrap", "pure-token", -1, "WRAP", "", 0, {}},
                                        {"sat", "pure-token", -1, "SAT", "", 0, {}},
                                        {"fail", "pure-token", -1, "FAIL", "", 0, {}}};
constexpr DocArg kBitfieldWriteOp[] = {
    {"encoding_offset_value", "block", -1, "SET", "", 0, kBitfieldSet},
    {"encoding_offset_increment", "block", -1, "INCRBY", "", 0, kBitfieldIncr}};
constexpr DocArg kBitfieldWrite[] = {
    {"wrap_sat_fail", "oneof", -1, "OVERFLOW", "", kArgOptional, kBitfieldOverflow},
    {"write_operation", "oneof", -1, "", "", 0, kBitfieldWriteOp}};
constexpr DocArg kBitfieldOps[] = {{"encoding_offset", "block", -1, "GET", "", 0, kBitfieldGet},
                                   {"write", "block", -1, "", "", 0, kBitfieldWrite}};
constexpr DocArg kBitfieldArgs[] = {
    {"key", "key", 0, "", "", 0, {}},
    {"operation", "oneof", -1, "", "", kArgOptional | kArgMultiple, kBitfieldOps}};
constexpr DocArg kBitfieldRoArgs[] = {
    {"key", "key", 0, "", "", 0, {}},
    {"encoding_offset", "block", -1, "GET", "", kArgOptional | kArgMultiple | kArgMultipleToken,
     kBitfieldGet}};
constexpr DocArg kMemoryUsageArgs[] = {{"key", "key", 0, "", "", 0, {}},
                                       {"count", "integer", -1, "SAMPLES", "", kArgOptional, {}}};

// SLOWLOG and LATENCY.
constexpr DocArg kSlowlogGetArgs[] = {{"count", "integer", -1, "", "", kArgOptional, {}}};
constexpr DocArg kLatencyEventArgs[] = {{"event", "string", -1, "", "", 0, {}}};
constexpr DocArg kLatencyResetArgs[] = {
    {"event", "string", -1, "", "", kArgOptional | kArgMultiple, {}}};
constexpr DocArg kLatencyHistogramArgs[] = {
    {"command", "string", -1, "", "", kArgOptional | kArgMultiple, {}}};

constexpr CommandArgs kArgs[] = {{"get", kGetArgs1},
                                 {"set", kSetArgs4},
                                 {"incr", kIncrArgs5},
                                 {"decr", kDecrArgs6},
                                 {"incrby", kIncrbyArgs7},
                                 {"decrby", kDecrbyArgs8},
                                 {"mset", kMsetArgs10},
                                 {"mget", kMgetArgs11},
                                 {"del", kDelArgs12},
                                 {"exists", kExistsArgs13},
                                 {"expire", kExpireArgs15},
                                 {"pexpire", kPexpireArgs17},
                                 {"ttl", kTtlArgs18},
                                 {"pttl", kPttlArgs19},
                                 {"persist", kPersistArgs20},
                                 {"ping", kPingArgs21},
                                 {"echo", kEchoArgs22},
                                 {"select", kSelectArgs23},
                                 {"auth", kAuthArgs},
                                 {"flushdb", kFlushdbArgs25},
                                 {"flushall", kFlushallArgs27},
                                 {"shutdown", kShutdownArgs29},
                                 {"info", kInfoArgs30},
                                 {"config|get", kConfigGetArgs32},
                                 {"config|set", kConfigSetArgs34},
                                 {"command|docs", kCommandDocsArgs35},
                                 {"command|info", kCommandInfoArgs36},
                                 {"command|list", kCommandListArgs38},
                                 {"setnx", kStrSetnxArgs1},
                                 {"setex", kStrSetexArgs2},
                                 {"psetex", kStrPsetexArgs3},
                                 {"getset", kStrGetsetArgs4},
                                 {"getdel", kStrGetdelArgs5},
                                 {"getex", kStrGetexArgs7},
                                 {"msetnx", kStrMsetnxArgs9},
                                 {"incrbyfloat", kStrIncrbyfloatArgs10},
                                 {"append", kStrAppendArgs11},
                                 {"strlen", kStrStrlenArgs12},
                                 {"getrange", kStrGetrangeArgs13},
                                 {"substr", kStrSubstrArgs14},
                                 {"setrange", kStrSetrangeArgs15},
                                 {"lcs", kStrLcsArgs16},
                                 {"setbit", kBitSetbitArgs},
                                 {"getbit", kBitGetbitArgs},
                                 {"bitcount", kBitCountArgs},
                                 {"bitpos", kBitPosArgs},
                                 {"bitop", kBitOpArgs},
                                 {"bitfield", kBitfieldArgs},
                                 {"bitfield_ro", kBitfieldRoArgs},
                                 {"slowlog|get", kSlowlogGetArgs},
                                 {"latency|graph", kLatencyEventArgs},
                                 {"latency|history", kLatencyEventArgs},
                                 {"latency|reset", kLatencyResetArgs},
                                 {"latency|histogram", kLatencyHistogramArgs},
                                 {"memory|usage", kMemoryUsageArgs}};

// Commands that Redis 7.0's documentation marks deprecated: COMMAND DOCS reports the "deprecated"
// doc flag, the version and the replacement.
struct Deprecation {
  std::string_view full_name;
  std::string_view since;
  std::string_view replaced_by;
};

constexpr Deprecation kDeprecated[] = {
    {"getset", "6.2.0", "`SET` with the `!GET` argument"},
    {"substr", "2.0.0", "`GETRANGE`"},
};

const Deprecation* FindDeprecation(std::string_view full_name) {
  for (const Deprecation& d : kDeprecated) {
    if (d.full_name == full_name) return &d;
  }
  return nullptr;
}

std::span<const DocArg> FindArgs(std::string_view full_name) {
  for (const CommandArgs& entry : kArgs) {
    if (entry.full_name == full_name) return entry.args;
  }
  return {};
}

const CommandMeta* FindMeta(const CommandSpec& spec) {
  const std::string name = FullName(spec);
  for (const CommandMeta& meta : kMeta) {
    if (meta.full_name == name) return &meta;
  }
  return nullptr;
}

// The flags of the command's single key specification.
std::vector<std::string_view> KeySpecFlags(const CommandSpec& spec) {
  const CommandMeta* meta = FindMeta(spec);
  if (meta != nullptr && !meta->key_flags.empty()) return SplitWords(meta->key_flags);
  if (spec.flags & kCmdReadOnly) return {"RO", "access"};
  return {"RW", "update"};
}

std::vector<std::string_view> FlagNames(uint32_t flags) {
  static constexpr std::pair<uint32_t, std::string_view> kNames[] = {
      {kCmdWrite, "write"},       {kCmdReadOnly, "readonly"},
      {kCmdDenyOom, "denyoom"},   {kCmdAdmin, "admin"},
      {kCmdPubSub, "pubsub"},     {kCmdNoScript, "noscript"},
      {kCmdBlocking, "blocking"}, {kCmdLoading, "loading"},
      {kCmdStale, "stale"},       {kCmdSkipMonitor, "skip_monitor"},
      {kCmdFast, "fast"},         {kCmdNoAuth, "no_auth"},
      {kCmdNoMulti, "no_multi"},  {kCmdAllowBusy, "allow_busy"},
  };
  std::vector<std::string_view> names;
  for (auto [bit, name] : kNames) {
    if (flags & bit) names.push_back(name);
  }
  return names;
}

void ReplyStatusSet(ReplyWriter& r, const std::vector<std::string_view>& words) {
  r.SetHeader(words.size());
  for (std::string_view w : words) r.SimpleString(w);
}

// One key specification: keys from argument `index`, up to `lastkey` (relative to it; -1 for the
// last argument) in steps of `keystep`.
void ReplyKeySpec(ReplyWriter& r, std::string_view notes,
                  const std::vector<std::string_view>& flags, int index, int lastkey, int keystep) {
  r.MapHeader(notes.empty() ? 3 : 4);
  if (!notes.empty()) {
    r.Bulk("notes");
    r.Bulk(notes);
  }
  r.Bulk("flags");
  ReplyStatusSet(r, flags);
  r.Bulk("begin_search");
  r.MapHeader(2);
  r.Bulk("type");
  r.Bulk("index");
  r.Bulk("spec");
  r.MapHeader(1);
  r.Bulk("index");
  r.Integer(index);
  r.Bulk("find_keys");
  r.MapHeader(2);
  r.Bulk("type");
  r.Bulk("range");
  r.Bulk("spec");
  r.MapHeader(3);
  r.Bulk("lastkey");
  r.Integer(lastkey);
  r.Bulk("keystep");
  r.Integer(keystep);
  r.Bulk("limit");
  r.Integer(0);
}

// The key specifications: those listed in the command's metadata, or the one Redis 7 derives for
// a simple first/last/step command.
void ReplyKeySpecs(CommandContext& ctx, const CommandSpec& spec) {
  ReplyWriter& r = ctx.reply;
  if (spec.first_key == 0) return r.SetHeader(0);
  const CommandMeta* meta = FindMeta(spec);
  if (meta != nullptr && !meta->key_specs.empty()) {
    r.SetHeader(meta->key_specs.size());
    for (const KeySpecDoc& ks : meta->key_specs) {
      ReplyKeySpec(r, "", SplitWords(ks.flags), ks.index, ks.lastkey, 1);
    }
    return;
  }
  r.SetHeader(1);
  ReplyKeySpec(r, meta != nullptr ? meta->key_notes : std::string_view(), KeySpecFlags(spec),
               spec.first_key, spec.last_key < 0 ? spec.last_key : spec.last_key - spec.first_key,
               spec.key_step);
}

// One command as COMMAND and COMMAND INFO describe it: ten fields, as Redis 7's
// addReplyCommandInfo.
void ReplyCommandInfo(CommandContext& ctx, const CommandSpec& spec) {
  ReplyWriter& r = ctx.reply;
  r.ArrayHeader(10);
  r.Bulk(FullName(spec));
  r.Integer(spec.arity);
  ReplyStatusSet(r, FlagNames(spec.flags));
  r.Integer(spec.first_key);
  r.Integer(spec.last_key);
  r.Integer(spec.key_step);
  ReplyStatusSet(r, SplitWords(spec.acl_categories));
  const CommandMeta* meta = FindMeta(spec);
  const std::vector<std::string_view> tips =
      meta != nullptr ? SplitWords(meta->tips) : std::vector<std::string_view>{};
  r.SetHeader(tips.size());
  for (std::string_view tip : tips) r.Bulk(tip);
  ReplyKeySpecs(ctx, spec);
  if (spec.subcommands.empty()) return r.SetHeader(0);
  r.ArrayHeader(spec.subcommands.size());
  for (const CommandSpec& sub : spec.subcommands) ReplyCommandInfo(ctx, sub);
}

// Redis's addReplyCommandArgList.
void ReplyDocArgs(ReplyWriter& r, std::span<const DocArg> args) {
  r.ArrayHeader(args.size());
  for (const DocArg& arg : args) {
    const bool nested = arg.type == "oneof" || arg.type == "block";
    r.MapHeader(2 + (arg.key_spec_index >= 0) + !arg.token.empty() + !arg.since.empty() +
                (arg.flags != 0) + nested);
    r.Bulk("name");
    r.Bulk(arg.name);
    r.Bulk("type");
    r.Bulk(arg.type);
    if (arg.key_spec_index >= 0) {
      r.Bulk("key_spec_index");
      r.Integer(arg.key_spec_index);
    }
    if (!arg.token.empty()) {
      r.Bulk("token");
      r.Bulk(arg.token);
    }
    if (!arg.since.empty()) {
      r.Bulk("since");
      r.Bulk(arg.since);
    }
    if (arg.flags != 0) {
      std::vector<std::string_view> flags;
      if (arg.flags & kArgOptional) flags.push_back("optional");
      if (arg.flags & kArgMultiple) flags.push_back("multiple");
      if (arg.flags & kArgMultipleToken) flags.push_back("multiple_token");
      r.Bulk("flags");
      ReplyStatusSet(r, flags);
    }
    if (nested) {
      r.Bulk("arguments");
      ReplyDocArgs(r, arg.args);
    }
  }
}

void ReplyCommandDocs(CommandContext& ctx, const CommandSpec& spec) {
  ReplyWriter& r = ctx.reply;
  const CommandMeta* meta = FindMeta(spec);
  const bool complexity = meta != nullptr && !meta->complexity.empty();
  const std::vector<std::string_view> history =
      meta != nullptr ? SplitWords(meta->history, '\n') : std::vector<std::string_view>{};
  const std::span<const DocArg> args = FindArgs(FullName(spec));
  const Deprecation* deprecation = FindDeprecation(FullName(spec));
  r.MapHeader(3 + complexity + 3 * (deprecation != nullptr) + !history.empty() + !args.empty() +
              !spec.subcommands.empty());
  r.Bulk("summary");
  r.Bulk(spec.summary);
  r.Bulk("since");
  r.Bulk(spec.since);
  r.Bulk("group");
  r.Bulk(spec.group);
  if (complexity) {
    r.Bulk("complexity");
    r.Bulk(meta->complexity);
  }
  if (deprecation != nullptr) {
    r.Bulk("doc_flags");
    ReplyStatusSet(r, {"deprecated"});
    r.Bulk("deprecated_since");
    r.Bulk(deprecation->since);
    r.Bulk("replaced_by");
    r.Bulk(deprecation->replaced_by);
  }
  if (!history.empty()) {
    r.Bulk("history");
    r.SetHeader(history.size());
    for (std::string_view entry : history) {
      const size_t bar = entry.find('|');
      r.ArrayHeader(2);
      r.Bulk(entry.substr(0, bar));
      r.Bulk(entry.substr(bar + 1));
    }
  }
  if (!args.empty()) {
    r.Bulk("arguments");
    ReplyDocArgs(r, args);
  }
  if (!spec.subcommands.empty()) {
    r.Bulk("subcommands");
    r.MapHeader(spec.subcommands.size());
    for (const CommandSpec& sub : spec.subcommands) {
      r.Bulk(FullName(sub));
      ReplyCommandDocs(ctx, sub);
    }
  }
}

// "config|get" or "get" to its table entry, as Redis's lookupCommandBySds: at most one '|', and
// a name with a '|' must name a subcommand.
const CommandSpec* Lookup(CommandContext& ctx, std::string_view name) {
  name = name.substr(0, name.find('\0'));
  const size_t bar = name.find('|');
  const CommandSpec* spec = ctx.server.registry->Find(name.substr(0, bar));
  if (spec == nullptr || bar == std::string_view::npos) return spec;
  const std::string_view sub = name.substr(bar + 1);
  if (sub.find('|') != std::string_view::npos) return nullptr;
  return CommandRegistry::FindSubcommand(*spec, sub);
}

void Command(CommandContext& ctx) {
  auto all = ctx.server.registry->All();
  ctx.reply.ArrayHeader(all.size());
  for (const CommandSpec* spec : all) ReplyCommandInfo(ctx, *spec);
}

void CommandCount(CommandContext& ctx) {
  ctx.reply.Integer(static_cast<int64_t>(ctx.server.registry->size()));
}

void CommandInfo(CommandContext& ctx) {
  if (ctx.args.size() == 2) return Command(ctx);
  ctx.reply.ArrayHeader(ctx.args.size() - 2);
  for (size_t i = 2; i < ctx.args.size(); ++i) {
    const CommandSpec* spec = Lookup(ctx, ctx.args[i]);
    if (spec == nullptr) {
      ctx.reply.Null();
    } else {
      ReplyCommandInfo(ctx, *spec);
    }
  }
}

void CommandDocs(CommandContext& ctx) {
  std::vector<const CommandSpec*> specs;
  if (ctx.args.size() == 2) {
    specs = ctx.server.registry->All();
  } else {
    for (size_t i = 2; i < ctx.args.size(); ++i) {
      if (const CommandSpec* spec = Lookup(ctx, ctx.args[i])) specs.push_back(spec);
    }
  }
  ctx.reply.MapHeader(specs.size());
  for (const CommandSpec* spec : specs) {
    ctx.reply.Bulk(FullName(*spec));
    ReplyCommandDocs(ctx, *spec);
  }
}

// COMMAND LIST [FILTERBY MODULE name|ACLCAT category|PATTERN pattern]: every command and
// subcommand by full name, optionally filtered.
void CommandList(CommandContext& ctx) {
  enum class Filter { kNone, kModule, kAclCat, kPattern } filter = Filter::kNone;
  std::string_view filter_arg;
  for (size_t i = 2; i < ctx.args.size(); ++i) {
    const size_t more = ctx.args.size() - 1 - i;
    if (!OptionIs(ctx.args[i], "filterby") || more != 2) return ctx.reply.Error(errors::kSyntax);
    std::string_view type = ctx.args[i + 1];
    if (OptionIs(type, "module")) {
      filter = Filter::kModule;
    } else if (OptionIs(type, "aclcat")) {
      filter = Filter::kAclCat;
    } else if (OptionIs(type, "pattern")) {
      filter = Filter::kPattern;
    } else {
      return ctx.reply.Error(errors::kSyntax);
    }
    filter_arg = ctx.args[i + 2];
    i += 2;
  }
  auto listed = [&](const CommandSpec& spec, const std::string& full_name) {
    switch (filter) {
      case Filter::kNone:
        return true;
      case Filter::kModule:
        return false;  // kvserver loads no modules
      case Filter::kAclCat: {
        const std::string_view cat = filter_arg.substr(0, filter_arg.find('\0'));
        for (std::string_view c : SplitWords(spec.acl_categories)) {
          if (c.size() > 1 && EqualsIgnoreCase(c.substr(1), cat)) return true;
        }
        return false;
      }
      case Filter::kPattern:
        return GlobMatch(filter_arg.substr(0, filter_arg.find('\0')), full_name, true);
    }
    return false;
  };
  std::vector<std::string> names;
  for (const CommandSpec* spec : ctx.server.registry->All()) {
    std::string name = FullName(*spec);
    if (listed(*spec, name)) names.push_back(std::move(name));
    for (const CommandSpec& sub : spec->subcommands) {
      std::string sub_name = FullName(sub);
      if (listed(sub, sub_name)) names.push_back(std::move(sub_name));
    }
  }
  ctx.reply.ArrayHeader(names.size());
  for (const std::string& name : names) ctx.reply.Bulk(name);
}

void CommandHelp(CommandContext& ctx) {
  static constexpr std::string_view kLines[] = {
      "(no subcommand)",
      "    Return details about all Redis commands.",
      "COUNT",
      "    Return the total number of commands in this Redis server.",
      "LIST",
      "    Return a list of all commands in this Redis server.",
      "INFO [<command-name> ...]",
      "    Return details about multiple Redis commands.",
      "    If no command names are given, documentation details for all",
      "    commands are returned.",
      "DOCS [<command-name> ...]",
      "    Return documentation details about multiple Redis commands.",
      "    If no command names are given, documentation details for all",
      "    commands are returned.",
      "GETKEYS <full-command>",
      "    Return the keys from a full Redis command.",
      "GETKEYSANDFLAGS <full-command>",
      "    Return the keys and the access flags from a full Redis command.",
  };
  ReplyWriter& r = ctx.reply;
  r.ArrayHeader(std::size(kLines) + 3);
  r.SimpleString("COMMAND <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
  for (std::string_view line : kLines) r.SimpleString(line);
  r.SimpleString("HELP");
  r.SimpleString("    Prints this help.");
}

// COMMAND GETKEYS / GETKEYSANDFLAGS <command> [args...]: the keys a command line would touch,
// from the command's first/last/step key positions.
void GetKeys(CommandContext& ctx, bool with_flags) {
  const auto cmd_args = ctx.args.subspan(2);
  const CommandSpec* spec = ctx.server.registry->Find(cmd_args[0]);
  if (spec != nullptr && !spec->subcommands.empty() && cmd_args.size() >= 2) {
    spec = CommandRegistry::FindSubcommand(*spec, cmd_args[1]);
  }
  if (spec == nullptr) return ctx.reply.Error("Invalid command specified");
  if (spec->first_key == 0) return ctx.reply.Error("The command has no key arguments");
  if (!ArityMatches(spec->arity, cmd_args.size())) {
    return ctx.reply.Error("Invalid number of arguments specified for command");
  }
  const int argc = static_cast<int>(cmd_args.size());
  const int last = spec->last_key < 0 ? argc + spec->last_key : spec->last_key;
  std::vector<int> positions;
  for (int i = spec->first_key; i <= last && i < argc; i += spec->key_step) positions.push_back(i);
  // SET's key is only read when GET is given (Redis's setGetKeys).
  std::vector<std::string_view> flags = KeySpecFlags(*spec);
  if (spec->name == "set" && spec->parent.empty()) {
    bool get = false;
    for (size_t i = 3; i < cmd_args.size(); ++i) get = get || OptionIs(cmd_args[i], "get");
    flags = get ? std::vector<std::string_view>{"RW", "access", "update"}
                : std::vector<std::string_view>{"OW", "update"};
  }
  // BITFIELD's key is only read when every operation is a GET (Redis's bitfieldGetKeys).
  if (spec->name == "bitfield") {
    bool read_only = true;
    for (size_t i = 2; i < cmd_args.size() && read_only; ++i) {
      const size_t remaining = cmd_args.size() - i - 1;
      if (OptionIs(cmd_args[i], "get") && remaining >= 2) {
        i += 2;
      } else if (OptionIs(cmd_args[i], "overflow") && remaining >= 1) {
        i += 1;
      } else {
        read_only = false;
      }
    }
    flags = read_only ? std::vector<std::string_view>{"RO", "access"}
                      : std::vector<std::string_view>{"RW", "access", "update"};
  }
  // Commands with several key specifications: each key gets the flags of the spec it falls in.
  const CommandMeta* meta = FindMeta(*spec);
  ctx.reply.ArrayHeader(positions.size());
  for (int pos : positions) {
    if (!with_flags) {
      ctx.reply.Bulk(cmd_args[pos]);
      continue;
    }
    ctx.reply.ArrayHeader(2);
    ctx.reply.Bulk(cmd_args[pos]);
    if (meta != nullptr && !meta->key_specs.empty()) {
      const KeySpecDoc* in = &meta->key_specs[0];
      for (const KeySpecDoc& ks : meta->key_specs) {
        if (pos >= ks.index) in = &ks;
      }
      ReplyStatusSet(ctx.reply, SplitWords(in->flags));
    } else {
      ReplyStatusSet(ctx.reply, flags);
    }
  }
}

void CommandGetKeys(CommandContext& ctx) { GetKeys(ctx, false); }
void CommandGetKeysAndFlags(CommandContext& ctx) { GetKeys(ctx, true); }

constexpr uint32_t kIntro = kCmdLoading | kCmdStale;

}  // namespace

void RegisterIntrospectionFamily(CommandRegistry& r) {
  r.Register(
      {"command",
       -1,
       kIntro,
       0,
       0,
       0,
       Command,
       "server",
       "Get array of Redis command details",
       "2.8.13",
       "@slow @connection",
       {
           {"count", 2, kIntro, 0, 0, 0, CommandCount, "server",
            "Get total number of Redis commands", "2.8.13", "@slow @connection"},
           {"info", -2, kIntro, 0, 0, 0, CommandInfo, "server",
            "Get array of specific Redis command details, or all when no argument is "
            "given.",
            "2.8.13", "@slow @connection"},
           {"docs", -2, kIntro, 0, 0, 0, CommandDocs, "server",
            "Get array of specific Redis command documentation", "7.0.0", "@slow @connection"},
           {"list", -2, kIntro, 0, 0, 0, CommandList, "server",
            "Get an array of Redis command names", "7.0.0", "@slow @connection"},
           {"help", 2, kIntro, 0, 0, 0, CommandHelp, "server",
            "Show helpful text about the different subcommands", "5.0.0", "@slow @connection"},
           {"getkeys", -4, kIntro, 0, 0, 0, CommandGetKeys, "server",
            "Extract keys given a full Redis command", "2.8.13", "@slow @connection"},
           {"getkeysandflags", -4, kIntro, 0, 0, 0, CommandGetKeysAndFlags, "server",
            "Extract keys and access flags given a full Redis command", "7.0.0",
            "@slow @connection"},
       }});
}

}  // namespace kv
