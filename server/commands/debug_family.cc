// DEBUG: the subcommands Redis's test suite and tools use that kvserver can honour (HELP,
// AOF-FLUSH-SLEEP, DIGEST, DIGEST-VALUE, LOG, HTSTATS-KEY, OBJECT, POPULATE, PROTOCOL, SLEEP,
// SET-ACTIVE-EXPIRE, SET-DISABLE-DENY-SCRIPTS, PAUSE-CRON, QUICKLIST-PACKED-THRESHOLD, ...). Every
// other subcommand gets Redis's unknown-subcommand error. As in Redis 7, DEBUG is refused unless
// enable-debug-command allows the client.

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdlib>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "protocol/number.h"
#include "server/client_registry.h"
#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/commands/help.h"
#include "server/commands/local_client.h"
#include "server/config_rewrite.h"
#include "server/dataset_digest.h"
#include "server/errors.h"
#include "server/object_info.h"
#include "server/persistence/aof.h"
#include "server/persistence/snapshot.h"
#include "server/rdb_length.h"
#include "server/scripting/scripting.h"
#include "server/strings.h"
#include "storage/hash.h"
#include "storage/set.h"
#include "storage/table_stats.h"
#include "storage/zset.h"

namespace kv {
namespace {

// Redis's allowProtectedAction for enable-debug-command.
bool DebugAllowed(CommandContext& ctx) {
  const std::string& mode = ctx.server.config.enable_debug_command;
  return mode == "yes" || (mode == "local" && IsLocalClient(ctx));
}

// A C string's value as strtod reads it (0 for no number), as DEBUG SLEEP parses its argument.
double StrToD(std::string_view arg) {
  const std::string s(arg.substr(0, arg.find('\0')));
  return std::strtod(s.c_str(), nullptr);
}

// DEBUG OBJECT key: Redis's line about the value. "at" is the value's address; the refcount and
// encoding are what OBJECT reports; lru is Redis's 24-bit field as stored (the LRU clock, or under
// an LFU policy minutes and counter), and lru_seconds_idle is read from it whatever the policy, as
// Redis does.
//
// As Redis (dictFind), the table is read as it is: a key past its TTL that nothing deleted yet is
// still shown (unit/scripting "Script delete the expired key" relies on it).
void DebugObject(CommandContext& ctx) {
  Db& db = ctx.db();
  const Value* v = db.Peek(ctx.args[2], /*now_ms=*/0);
  if (v == nullptr) return ctx.reply.Error(errors::kNoSuchKey);
  ctx.reply.SimpleString(fmt::format(
      "Value at:{} refcount:{} encoding:{} serializedlength:{} lru:{} lru_seconds_idle:{}{}",
      static_cast<const void*>(v), ObjectRefcount(ctx.server.config, *v), EncodingName(*v),
      RdbValueLength(*v), v->lru(), db.IdleSeconds(*v), DebugObjectExtras(*v)));
}

// DEBUG POPULATE <count> [<prefix>] [<size>]: string keys <prefix>:<n> (prefix "key") holding
// "value:<n>", or with a size, that text cut or padded with zero bytes to the size; keys that
// exist are left alone. As Redis, the name is built in a 128-byte buffer from the prefix as a C
// string, and the keys count as no change (no dirty increment).
void DebugPopulate(CommandContext& ctx) {
  constexpr std::string_view kNotPositive = "value is out of range, must be positive";
  const std::optional<int64_t> count = ParseInt64(ctx.args[2]);
  if (!count || *count < 0) return ctx.reply.Error(kNotPositive);
  int64_t size = 0;
  if (ctx.args.size() == 5) {
    const std::optional<int64_t> parsed = ParseInt64(ctx.args[4]);
    if (!parsed || *parsed < 0) return ctx.reply.Error(kNotPositive);
    size = *parsed;
  }
  const std::string_view prefix =
      ctx.args.size() >= 4 ? ctx.args[3].substr(0, ctx.args[3].find('\0')) : "key";
  constexpr size_t kNameBuffer = 128;
  Db& db = ctx.db();
  std::string key, value;
  for (int64_t j = 0; j < *count; ++j) {
    key.assign(prefix);
    fmt::format_to(std::back_inserter(key), ":{}", j);
    if (key.size() > kNameBuffer - 1) key.resize(kNameBuffer - 1);
    if (db.Find(key, ctx.now_ms) != nullptr) continue;
    value = fmt::format("value:{}", j);
    if (size > 0) value.resize(static_cast<size_t>(size), '\0');
    db.SetString(key, value);
  }
  ctx.reply.Ok();
}

// DEBUG PROTOCOL <type>: a test value of each RESP3 type, as Redis sends it (in RESP2, each in
// its RESP2 form; attributes are left out and pushes refused).
void DebugProtocol(CommandContext& ctx) {
  const std::string_view name = ctx.args[2];
  ReplyWriter& r = ctx.reply;
  const bool resp3 = ctx.conn.protocol >= 3;
  if (OptionIs(name, "string")) return r.Bulk("Hello World");
  if (OptionIs(name, "integer")) return r.Integer(12345);
  if (OptionIs(name, "double")) return r.Double(3.141);
  if (OptionIs(name, "bignum")) {
    constexpr std::string_view kBigNum = "1234567999999999999999999999999999999";
    if (!resp3) return r.Bulk(kBigNum);
    return r.Raw(fmt::format("({}\r\n", kBigNum));
  }
  if (OptionIs(name, "null")) return r.Null();
  if (OptionIs(name, "array") || OptionIs(name, "set")) {
    if (OptionIs(name, "set")) {
      r.SetHeader(3);
    } else {
      r.ArrayHeader(3);
    }
    for (int j = 0; j < 3; ++j) r.Integer(j);
    return;
  }
  if (OptionIs(name, "map")) {
    r.MapHeader(3);
    for (int j = 0; j < 3; ++j) {
      r.Integer(j);
      r.Bool(j == 1);
    }
    return;
  }
  if (OptionIs(name, "attrib")) {
    if (resp3) {
      r.Raw("|1\r\n");
      r.Bulk("key-popularity");
      r.ArrayHeader(2);
      r.Bulk("key:123");
      r.Integer(90);
    }
    // An attribute is not a reply by itself: a real one follows.
    return r.Bulk("Some real reply following the attribute");
  }
  if (OptionIs(name, "push")) {
    if (!resp3) return r.Error("RESP2 is not supported by this command");
    r.PushHeader(2);
    r.Bulk("server-cpu-usage");
    r.Integer(42);
    // A push is not the command's reply: a real one follows.
    return r.Bulk("Some real reply following the push reply");
  }
  if (OptionIs(name, "true")) return r.Bool(true);
  if (OptionIs(name, "false")) return r.Bool(false);
  if (OptionIs(name, "verbatim")) return r.Verbatim("This is a verbatim\nstring");
  r.Error(
      "Wrong protocol type name. Please use one of the following: "
      "string|integer|double|bignum|null|array|set|map|attrib|push|verbatim|true|false");
}

// DEBUG RELOAD [MERGE] [NOFLUSH] [NOSAVE]: SAVE, empty the databases, load the file back.
void DebugReload(CommandContext& ctx) {
  bool merge = false, flush = true, save = true;
  for (size_t j = 2; j < ctx.args.size(); ++j) {
    if (OptionIs(ctx.args[j], "merge")) {
      merge = true;
    } else if (OptionIs(ctx.args[j], "noflush")) {
      flush = false;
    } else if (OptionIs(ctx.args[j], "nosave")) {
      save = false;
    } else {
      return ctx.reply.Error("DEBUG RELOAD only supports the MERGE, NOFLUSH and NOSAVE options.");
    }
  }
  if (save && SaveSnapshot(ctx.server)) return ctx.reply.Error("-ERR");
  if (flush) {
    // emptyData: the functions go too.
    ctx.server.dbs.FlushAll();
    if (ctx.server.scripting) ctx.server.scripting->FlushLibraries();
  }
  const RdbLoadResult loaded = LoadSnapshot(ctx.server, merge);
  if (!loaded.ok) {
    return ctx.reply.Error("Error trying to load the RDB dump");
  }
  spdlog::warn("DB reloaded by DEBUG RELOAD");
  ctx.reply.Ok();
}

// One table's shape in the text of Redis's _dictGetStatsHt (table 0 is the main table, 1 the
// rehash target).
std::string FormatTableStats(const TableStats& s, int table) {
  const char* role = table == 0 ? "main hash table" : "rehashing target";
  if (s.elements == 0) {
    return fmt::format("Hash table {} stats ({}):\nNo stats available for empty dictionaries\n",
                       table, role);
  }
  std::string text = fmt::format(
      "Hash table {} stats ({}):\n table size: {}\n number of elements: {}\n different slots: {}\n"
      " max chain length: {}\n avg chain length (counted): {:.2f}\n avg chain length (computed): "
      "{:.2f}\n Chain length distribution:\n",
      table, role, s.table_size, s.elements, s.used_buckets, s.max_chain,
      static_cast<float>(s.total_chain) / static_cast<float>(s.used_buckets),
      static_cast<float>(s.elements) / static_cast<float>(s.used_buckets));
  // As Redis, the last entry (chains of 49 or more) is not printed.
  for (size_t n = 0; n + 1 < TableStats::kChainLengths; ++n) {
    if (s.chains[n] == 0) continue;
    fmt::format_to(std::back_inserter(text), "   {}: {} ({:.2f}%)\n", n, s.chains[n],
                   static_cast<float>(s.chains[n]) / static_cast<float>(s.table_size) * 100);
  }
  return text;
}

// DEBUG HTSTATS-KEY key: Redis's dictGetStats of the hash table behind a set, hash or sorted set
// in its hash table encoding. kvserver's tables are its own (storage/string_hash_set.h,
// string_map.h, member_index.h): the figures are theirs, in Redis's words; for the open-addressing
// ones a slot's chain is the members whose home it is.
void DebugHtStatsKey(CommandContext& ctx) {
  const Value* v = ctx.db().Peek(ctx.args[2], ctx.now_ms);
  if (v == nullptr) return ctx.reply.Error(errors::kNoSuchKey);
  std::string text;
  if (v->type() == ValueType::kSet) {
    const Set& set = v->As<Set>();
    if (set.is_table()) text = FormatTableStats(set.table()->Stats(), 0);
  } else if (v->type() == ValueType::kHash) {
    if (const StringMap* map = v->As<Hash>().map()) {
      text = FormatTableStats(map->Stats(0), 0);
      if (map->rehashing()) text += FormatTableStats(map->Stats(1), 1);
    }
  } else if (v->type() == ValueType::kZSet) {
    if (const MemberIndex* index = v->As<ZSet>().index())
      text = FormatTableStats(index->Stats(), 0);
  }
  if (text.empty()) {
    return ctx.reply.Error(
        "The value stored at the specified key is not represented using an hash table");
  }
  ctx.reply.Verbatim(text);
}

// Redis's atoi of a DEBUG argument: a leading number, 0 when there is none.
int AtoI(std::string_view arg) {
  const std::string value(arg.substr(0, arg.find('\0')));
  return std::atoi(value.c_str());
}

void Debug(CommandContext& ctx) {
  if (!DebugAllowed(ctx)) {
    return ctx.reply.Error(
        "DEBUG command not allowed. If the enable-debug-command option is set to \"local\", you "
        "can run it from a local connection, otherwise you need to set this option in the "
        "configuration file, and then restart the server.");
  }
  const std::string_view sub = ctx.args[1];
  const size_t argc = ctx.args.size();
  if (argc == 2 && OptionIs(sub, "help")) {
    return ReplyHelp(
        ctx, "debug",
        {"AOF-FLUSH-SLEEP <microsec>",
         "    Server will sleep before flushing the AOF, this is used for testing.",
         "DIGEST",
         "    Output a hex signature representing the current DB content.",
         "DIGEST-VALUE <key> [<key> ...]",
         "    Output a hex signature of the values of all the specified keys.",
         "LOG <message>",
         "    Write <message> to the server log.",
         "HTSTATS-KEY <key>",
         "    Like HTSTATS but for the hash table stored at <key>'s value.",
         "OBJECT <key>",
         "    Show low level info about `key` and associated value.",
         "POPULATE <count> [<prefix>] [<size>]",
         "    Create <count> string keys named key:<num>. If <prefix> is specified then",
         "    it is used instead of the 'key' prefix. These are not propagated to",
         "    replicas. Cluster slots are not respected so keys not belonging to the",
         "    current node can be created in cluster mode.",
         "PROTOCOL <type>",
         "    Reply with a test value of the specified type. <type> can be: string,",
         "    integer, double, bignum, null, array, set, map, attrib, push, verbatim,",
         "    true, false.",
         "RELOAD [option ...]",
         "    Save the RDB on disk and reload it back to memory. Valid <option> values:",
         "    * MERGE: conflicting keys will be loaded from RDB.",
         "    * NOFLUSH: the existing database will not be removed before load, but",
         "      conflicting keys will generate an exception and kill the server.",
         "    * NOSAVE: the database will be loaded from an existing RDB file.",
         "    Examples:",
         "    * DEBUG RELOAD: verify that the server is able to persist, flush and reload",
         "      the database.",
         "    * DEBUG RELOAD NOSAVE: replace the current database with the contents of an",
         "      existing RDB file.",
         "    * DEBUG RELOAD NOSAVE NOFLUSH MERGE: add the contents of an existing RDB",
         "      file to the database.",
         "SET-ACTIVE-EXPIRE <0|1>",
         "    Setting it to 0 disables expiring keys in background when they are not",
         "    accessed (otherwise the Redis behavior). Setting it to 1 reenables back the",
         "    default.",
         "QUICKLIST-PACKED-THRESHOLD <size>",
         "    Sets the threshold for elements to be inserted as plain vs packed nodes",
         "    Default value is 1GB, allows values up to 4GB. Setting to 0 restores to default.",
         "SLEEP <seconds>",
         "    Stop the server for <seconds>. Decimals allowed.",
         "PAUSE-CRON <0|1>",
         "    Stop periodic cron job processing."});
  }
  if (argc == 3 && OptionIs(sub, "log")) {
    const std::string_view msg = ctx.args[2];
    spdlog::warn("DEBUG LOG: {}", msg.substr(0, msg.find('\0')));
    return ctx.reply.Ok();
  }
  if (argc == 3 && OptionIs(sub, "sleep")) {
    // As Redis: the whole server stops (the seconds become whole microseconds first).
    const auto us = static_cast<long long>(StrToD(ctx.args[2]) * 1000000);
    if (us > 0) std::this_thread::sleep_for(std::chrono::microseconds(us));
    return ctx.reply.Ok();
  }
  if (argc == 3 && OptionIs(sub, "object")) return DebugObject(ctx);
  if (argc == 3 && OptionIs(sub, "aof-flush-sleep")) {
    // atoi, as Redis: the microseconds each write of the AOF's buffer waits first (for tests).
    const std::string us(ctx.args[2].substr(0, ctx.args[2].find('\0')));
    if (!ctx.server.aof) ctx.server.aof = std::make_shared<AppendOnlyFile>(ctx.server);
    ctx.server.aof->set_flush_sleep_us(std::atoi(us.c_str()));
    return ctx.reply.Ok();
  }
  // A load serves the other clients from inside it, and DEBUG may run then: another load
  // meanwhile would empty the data under the running one, so it waits for the end.
  if (ctx.server.persistence.loading &&
      (OptionIs(sub, "reload") || (argc == 2 && OptionIs(sub, "loadaof")))) {
    return ctx.reply.Error(errors::kLoading);
  }
  if (OptionIs(sub, "reload")) return DebugReload(ctx);
  if (argc == 2 && OptionIs(sub, "loadaof")) {
    if (!ctx.server.aof) ctx.server.aof = std::make_shared<AppendOnlyFile>(ctx.server);
    ctx.server.aof->DebugLoad();
    return ctx.reply.Ok();
  }
  if (argc == 3 && OptionIs(sub, "protocol")) return DebugProtocol(ctx);
  if (argc >= 3 && argc <= 5 && OptionIs(sub, "populate")) return DebugPopulate(ctx);
  if (argc == 2 && OptionIs(sub, "digest")) {
    return ctx.reply.SimpleString(DigestHex(DatasetDigest(ctx.server.dbs)));
  }
  if (OptionIs(sub, "digest-value")) {
    // Each key's value digest, all zeros for a missing key. As Redis (dictFind), the table is
    // read as it is: looked up at time 0, a key past its TTL but not yet deleted still has its
    // value.
    Db& db = ctx.db();
    ctx.reply.ArrayHeader(argc - 2);
    for (size_t j = 2; j < argc; ++j) {
      Digest digest{};
      if (const Value* v = db.Peek(ctx.args[j], /*now_ms=*/0)) {
        XorValueDigest(db, ctx.args[j], *v, &digest);
      }
      ctx.reply.SimpleString(DigestHex(digest));
    }
    return;
  }
  if (argc == 3 && OptionIs(sub, "quicklist-packed-threshold")) {
    // Redis's quicklistisSetPackedThreshold: 0 restores the default; up to 4 GB less 1 MB.
    const std::optional<int64_t> bytes = ParseMemory(ctx.args[2]);
    if (!bytes || *bytes < 0 || static_cast<uint64_t>(*bytes) > QuickList::kMaxPackedThreshold) {
      return ctx.reply.Error("argument must be a memory value bigger than 1 and smaller than 4gb");
    }
    ctx.server.list_packed_threshold =
        *bytes == 0 ? QuickList::kDefaultPackedThreshold : static_cast<size_t>(*bytes);
    return ctx.reply.Ok();
  }
  if (argc == 2 && OptionIs(sub, "config-rewrite-force-all")) {
    // CONFIG REWRITE writing every directive, defaults included (Redis's test suite uses it).
    const std::string& path = ctx.server.config.config_file;
    if (path.empty()) return ctx.reply.Error("CONFIG-REWRITE-FORCE-ALL failed: Bad address");
    if (auto err = RewriteConfigFile(path, ctx.server.config, /*force_all=*/true)) {
      return ctx.reply.Error("CONFIG-REWRITE-FORCE-ALL failed: " +
                             err->substr(err->find(": ") + 2));
    }
    return ctx.reply.Ok();
  }
  if (argc == 3 && OptionIs(sub, "set-active-expire")) {
    ctx.server.active_expire_enabled = AtoI(ctx.args[2]) != 0;
    return ctx.reply.Ok();
  }
  if (argc == 3 && OptionIs(sub, "set-disable-deny-scripts")) {
    ctx.server.script_disable_deny_script = AtoI(ctx.args[2]) != 0;
    return ctx.reply.Ok();
  }
  if (argc == 3 && OptionIs(sub, "pause-cron")) {
    ctx.server.pause_cron = AtoI(ctx.args[2]) != 0;
    return ctx.reply.Ok();
  }
  if (argc == 3 && OptionIs(sub, "htstats-key")) return DebugHtStatsKey(ctx);
  ctx.reply.Error(SubcommandSyntaxError(sub, "debug"));
}

}  // namespace

void RegisterDebugFamily(CommandRegistry& r) {
  r.Register({"debug", -2, kCmdAdmin | kCmdNoScript | kCmdLoading | kCmdStale, 0, 0, 0, Debug,
              "server", "A container for debugging commands", "1.0.0", "@admin @slow @dangerous"});
}

}  // namespace kv
