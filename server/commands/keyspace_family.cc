// The keyspace: KEYS, SCAN, RANDOMKEY, TYPE, RENAME, RENAMENX, UNLINK, TOUCH, COPY, MOVE, SWAPDB,
// OBJECT, and the server clock commands TIME and LASTSAVE.

#include <cctype>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <string>
#include <vector>

#include "protocol/number.h"
#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/commands/scan_options.h"
#include "server/errors.h"
#include "server/glob.h"
#include "server/object_info.h"
#include "server/persistence/snapshot.h"
#include "server/strings.h"
#include "storage/clock.h"

namespace kv {
namespace {

constexpr std::string_view kSameObject = "source and destination objects are the same";

// The live value of `key` without marking it accessed, counting a keyspace hit or miss as Redis's
// lookupKeyReadWithFlags(LOOKUP_NOTOUCH) does.
Value* PeekForRead(CommandContext& ctx, std::string_view key, bool notify = true) {
  Value* v = ctx.db().Peek(key, ctx.now_ms);
  ++(v != nullptr ? ctx.server.stats.keyspace_hits : ctx.server.stats.keyspace_misses);
  if (v == nullptr && notify) ctx.Notify(kNotifyKeyMiss, "keymiss", key);
  return v;
}

// As Redis's getIntFromObjectOrReply: an integer argument that must fit an int. `msg`, when not
// empty, replaces both error texts.
bool ParseIntArg(CommandContext& ctx, std::string_view arg, int* out, std::string_view msg = {}) {
  auto v = ParseInt64(arg);
  if (!v) {
    ctx.reply.Error(msg.empty() ? errors::kNotInteger : msg);
    return false;
  }
  if (*v < INT_MIN || *v > INT_MAX) {
    ctx.reply.Error(
        msg.empty() ? "value is out of range, value must between -2147483648 and 2147483647" : msg);
    return false;
  }
  *out = static_cast<int>(*v);
  return true;
}

bool ValidDb(CommandContext& ctx, int index) {
  return index >= 0 && static_cast<size_t>(index) < ctx.server.dbs.count();
}

std::string_view TypeName(const Value* v) { return v == nullptr ? "none" : kv::TypeName(*v); }

void Keys(CommandContext& ctx) {
  const std::string_view pattern = ctx.args[1];
  const bool all = pattern == "*";
  Db& db = ctx.db();
  std::vector<std::string_view> found;
  // Like Redis, expired keys are skipped but not deleted.
  db.ForEach([&](std::string_view key, const Value&) {
    if (!all && !GlobMatch(pattern, key)) return;
    const int64_t at = db.GetExpire(key);
    if (at != kNoExpiry && at < ctx.now_ms) return;
    found.push_back(key);
  });
  // As Redis's (after a deferred length), the whole reply counts against the output limit, and
  // the command stops once that closes the client.
  ctx.ReplyLengthDeferred();
  ctx.reply.ArrayHeader(found.size());
  for (std::string_view key : found) {
    if (ctx.conn.close_asap) break;
    ctx.reply.Bulk(key);
  }
}

// SCAN cursor [MATCH pattern] [COUNT count] [TYPE type], as Redis's scanGenericCommand (the
// cursor and options as scan_options.h reads them): the keys collected are then filtered by
// pattern, type and expiry.
void Scan(CommandContext& ctx) {
  uint64_t cursor = 0;
  if (!ParseScanCursor(ctx, ctx.args[1], &cursor)) return;
  ScanOptions options;
  if (!ParseScanOptions(ctx, 2, /*allow_type=*/true, &options)) return;
  const int64_t count = options.count;
  Db& db = ctx.db();
  std::vector<std::string> keys;
  int64_t max_iterations = count > INT64_MAX / 10 ? INT64_MAX : count * 10;
  do {
    cursor = db.Scan(cursor, [&](std::string_view key) { keys.emplace_back(key); });
  } while (cursor != 0 && max_iterations-- && static_cast<int64_t>(keys.size()) < count);

  size_t kept = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    const std::string& key = keys[i];
    if (!options.Matches(key)) continue;
    if (options.use_type && !EqualsIgnoreCase(options.type, TypeName(PeekForRead(ctx, key)))) {
      continue;
    }
    if (!db.Exists(key, ctx.now_ms)) continue;  // deletes it if it has expired
    if (kept != i) keys[kept] = std::move(keys[i]);
    ++kept;
  }
  keys.resize(kept);
  ReplyScanHeader(ctx, cursor, keys.size());
  for (const std::string& key : keys) ctx.reply.Bulk(key);
}

void RandomKey(CommandContext& ctx) {
  std::optional<std::string> key = ctx.db().RandomKey(ctx.now_ms);
  if (!key) return ctx.reply.Null();
  ctx.reply.Bulk(*key);
}

void Type(CommandContext& ctx) { ctx.reply.SimpleString(TypeName(PeekForRead(ctx, ctx.args[1]))); }

void RenameGeneric(CommandContext& ctx, bool nx) {
  const std::string_view from = ctx.args[1];
  const std::string_view to = ctx.args[2];
  Db& db = ctx.db();
  if (db.Find(from, ctx.now_ms) == nullptr) return ctx.reply.Error(errors::kNoSuchKey);
  if (from == to) return nx ? ctx.reply.Integer(0) : ctx.reply.Ok();
  if (nx && db.Exists(to, ctx.now_ms)) return ctx.reply.Integer(0);
  DetachedValue value;
  int64_t expire_at = kNoExpiry;
  db.Take(from, ctx.now_ms, &value, &expire_at);
  const ValueType type = value.type();
  // Redis deletes an existing destination before adding the key anew (a "new" event).
  db.Delete(to, ctx.now_ms, ctx.server.config.lazyfree_lazy_server_del);
  db.Put(to, std::move(value), expire_at);
  ctx.SignalKeyAsReady(to, type);
  ctx.KeyModified(from);
  ctx.KeyModified(to);
  ctx.Notify(kNotifyGeneric, "rename_from", from);
  ctx.Notify(kNotifyGeneric, "rename_to", to);
  ctx.CountChanges();
  nx ? ctx.reply.Integer(1) : ctx.reply.Ok();
}

void Rename(CommandContext& ctx) { RenameGeneric(ctx, false); }
void RenameNx(CommandContext& ctx) { RenameGeneric(ctx, true); }

void Unlink(CommandContext& ctx) {
  Db& db = ctx.db();
  int64_t deleted = 0;
  for (size_t i = 1; i < ctx.args.size(); ++i) {
    if (!db.Delete(ctx.args[i], ctx.now_ms, /*lazy=*/true)) continue;
    ctx.KeyModified(ctx.args[i]);
    ctx.Notify(kNotifyGeneric, "del", ctx.args[i]);
    ++deleted;
  }
  ctx.CountChanges(deleted);
  ctx.reply.Integer(deleted);
}

void Touch(CommandContext& ctx) {
  Db& db = ctx.db();
  int64_t touched = 0;
  for (size_t i = 1; i < ctx.args.size(); ++i) {
    const bool found = db.Find(ctx.args[i], ctx.now_ms) != nullptr;
    ++(found ? ctx.server.stats.keyspace_hits : ctx.server.stats.keyspace_misses);
    if (!found) ctx.Notify(kNotifyKeyMiss, "keymiss", ctx.args[i]);
    touched += found;
  }
  ctx.reply.Integer(touched);
}

// COPY source destination [DB destination-db] [REPLACE]
void Copy(CommandContext& ctx) {
  int dst_index = static_cast<int>(ctx.conn.db_index);
  bool replace = false;
  for (size_t j = 3; j < ctx.args.size(); ++j) {
    const size_t additional = ctx.args.size() - j - 1;
    if (OptionIs(ctx.args[j], "replace")) {
      replace = true;
    } else if (OptionIs(ctx.args[j], "db") && additional >= 1) {
      if (!ParseIntArg(ctx, ctx.args[j + 1], &dst_index)) return;
      if (!ValidDb(ctx, dst_index)) return ctx.reply.Error(errors::kDbIndexOutOfRange);
      ++j;
    } else {
      return ctx.reply.Error(errors::kSyntax);
    }
  }
  const std::string_view key = ctx.args[1];
  const std::string_view new_key = ctx.args[2];
  const bool same_db = static_cast<size_t>(dst_index) == ctx.conn.db_index;
  if (same_db && key == new_key) return ctx.reply.Error(kSameObject);
  Db& src = ctx.db();
  const Value* v = src.Find(key, ctx.now_ms);
  ++(v != nullptr ? ctx.server.stats.keyspace_hits : ctx.server.stats.keyspace_misses);
  if (v == nullptr) {
    ctx.Notify(kNotifyKeyMiss, "keymiss", key);
    return ctx.reply.Integer(0);
  }
  // Redis duplicates the object: a new object (with fresh LRU data), and an integer copy is its own
  // object, never the shared one.
  DetachedValue copy;
  if (v->is_string()) {
    copy.str.assign(v->str());
    copy.changed_in_place = v->changed_in_place();
    copy.unshared = true;
  } else {
    copy.aggregate = v->aggregate()->Clone();
  }
  const ValueType type = v->type();
  const int64_t expire_at = src.GetExpire(key);
  Db& dst = ctx.server.dbs.db(static_cast<size_t>(dst_index));
  dst.SetClock(ctx.now_ms);
  if (dst.Exists(new_key, ctx.now_ms)) {
    if (!replace) return ctx.reply.Integer(0);
    // REPLACE deletes the old key before adding the copy (a "new" event), as Redis.
    dst.Delete(new_key, ctx.now_ms, ctx.server.config.lazyfree_lazy_server_del);
  }
  dst.Put(new_key, std::move(copy), expire_at);
  ctx.SignalKeyAsReady(static_cast<size_t>(dst_index), new_key, type);
  ctx.KeyModified(static_cast<size_t>(dst_index), new_key);
  ctx.Notify(kNotifyGeneric, "copy_to", new_key, static_cast<size_t>(dst_index));
  ctx.CountChanges();
  ctx.reply.Integer(1);
}

void Move(CommandContext& ctx) {
  int dst_index = 0;
  if (!ParseIntArg(ctx, ctx.args[2], &dst_index)) return;
  if (!ValidDb(ctx, dst_index)) return ctx.reply.Error(errors::kDbIndexOutOfRange);
  if (static_cast<size_t>(dst_index) == ctx.conn.db_index) return ctx.reply.Error(kSameObject);
  const std::string_view key = ctx.args[1];
  Db& src = ctx.db();
  if (src.Find(key, ctx.now_ms) == nullptr) return ctx.reply.Integer(0);
  Db& dst = ctx.server.dbs.db(static_cast<size_t>(dst_index));
  dst.SetClock(ctx.now_ms);
  if (dst.Exists(key, ctx.now_ms)) return ctx.reply.Integer(0);
  DetachedValue value;
  int64_t expire_at = kNoExpiry;
  src.Take(key, ctx.now_ms, &value, &expire_at);
  const ValueType type = value.type();
  dst.Put(key, std::move(value), expire_at);
  ctx.SignalKeyAsReady(static_cast<size_t>(dst_index), key, type);
  ctx.KeyModified(key);
  ctx.KeyModified(static_cast<size_t>(dst_index), key);
  ctx.Notify(kNotifyGeneric, "move_from", key);
  ctx.Notify(kNotifyGeneric, "move_to", key, static_cast<size_t>(dst_index));
  ctx.CountChanges();
  ctx.reply.Integer(1);
}

void SwapDb(CommandContext& ctx) {
  int a = 0, b = 0;
  if (!ParseIntArg(ctx, ctx.args[1], &a, "invalid first DB index")) return;
  if (!ParseIntArg(ctx, ctx.args[2], &b, "invalid second DB index")) return;
  if (!ValidDb(ctx, a) || !ValidDb(ctx, b)) return ctx.reply.Error(errors::kDbIndexOutOfRange);
  if (a != b && !ctx.server.watches.empty()) {
    // A transaction watching a key of either database fails, unless the key is in neither.
    ctx.server.watches.TouchAllInDb(ctx.server.dbs, static_cast<size_t>(a), b, ctx.now_ms);
    ctx.server.watches.TouchAllInDb(ctx.server.dbs, static_cast<size_t>(b), a, ctx.now_ms);
  }
  ctx.server.dbs.Swap(static_cast<size_t>(a), static_cast<size_t>(b));
  // Redis's scanDatabaseForReadyKeys: clients of either database may find their keys now.
  for (const int index : {a, b}) {
    Db& db = ctx.server.dbs.db(static_cast<size_t>(index));
    ctx.server.blocking.SignalDatabase(static_cast<size_t>(index), [&](std::string_view key) {
      const Value* v = db.Peek(key, ctx.now_ms);
      return v != nullptr && (v->type() == ValueType::kList || v->type() == ValueType::kZSet ||
                              v->type() == ValueType::kStream);
    });
  }
  ctx.CountChanges();
  ctx.reply.Ok();
}

void ObjectEncoding(CommandContext& ctx) {
  const Value* v = PeekForRead(ctx, ctx.args[2], /*notify=*/false);
  if (v == nullptr) return ctx.reply.Null();
  ctx.reply.Bulk(EncodingName(*v));
}

void ObjectRefCount(CommandContext& ctx) {
  const Value* v = PeekForRead(ctx, ctx.args[2], /*notify=*/false);
  if (v == nullptr) return ctx.reply.Null();
  ctx.reply.Integer(ObjectRefcount(ctx.server.config, *v));
}

void ObjectIdleTime(CommandContext& ctx) {
  const Value* v = PeekForRead(ctx, ctx.args[2], /*notify=*/false);
  if (v == nullptr) return ctx.reply.Null();
  if (IsLfuPolicy(ctx.server.config.maxmemory_policy)) {
    return ctx.reply.Error(
        "An LFU maxmemory policy is selected, idle time not tracked. Please note that when "
        "switching between policies at runtime LRU and LFU data will take some time to adjust.");
  }
  ctx.reply.Integer(ctx.db().IdleSeconds(*v));
}

void ObjectFreq(CommandContext& ctx) {
  const Value* v = PeekForRead(ctx, ctx.args[2], /*notify=*/false);
  if (v == nullptr) return ctx.reply.Null();
  if (!IsLfuPolicy(ctx.server.config.maxmemory_policy)) {
    return ctx.reply.Error(
        "An LFU maxmemory policy is not selected, access frequency not tracked. Please note that "
        "when switching between policies at runtime LRU and LFU data will take some time to "
        "adjust.");
  }
  ctx.reply.Integer(ctx.db().LfuCounter(*v));
}

void ObjectHelp(CommandContext& ctx) {
  static constexpr std::string_view kLines[] = {
      "OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
      "ENCODING <key>",
      "    Return the kind of internal representation used in order to store the value",
      "    associated with a <key>.",
      "FREQ <key>",
      "    Return the access frequency index of the <key>. The returned integer is",
      "    proportional to the logarithm of the recent access frequency of the key.",
      "IDLETIME <key>",
      "    Return the idle time of the <key>, that is the approximated number of",
      "    seconds elapsed since the last access to the key.",
      "REFCOUNT <key>",
      "    Return the number of references of the value associated with the specified",
      "    <key>.",
      "HELP",
      "    Prints this help."};
  ctx.reply.ArrayHeader(std::size(kLines));
  for (std::string_view line : kLines) ctx.reply.SimpleString(line);
}

// Never reached with a subcommand; OBJECT alone fails the arity check first.
void ObjectContainer(CommandContext& ctx) { ctx.reply.Error(WrongArityError("object")); }

// TIME: seconds and microseconds. With the system clock the microseconds are read afresh, as
// Redis does; a test clock only has milliseconds.
void Time(CommandContext& ctx) {
  int64_t us = ctx.now_ms * 1000;
  if (dynamic_cast<const SystemClock*>(ctx.server.clock) != nullptr) {
    us = std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
             .count();
  }
  ctx.reply.ArrayHeader(2);
  ctx.reply.Bulk(std::to_string(us / 1'000'000));
  ctx.reply.Bulk(std::to_string(us % 1'000'000));
}

// kvserver never saves; like Redis without a save, the last save is the start time.
void LastSave(CommandContext& ctx) { ctx.reply.Integer(LastSaveSeconds(ctx.server)); }

constexpr uint32_t kRead = kCmdReadOnly;
constexpr uint32_t kWrite = kCmdWrite;

}  // namespace

void RegisterKeyspaceFamily(CommandRegistry& r) {
  r.Register({"keys", 2, kRead, 0, 0, 0, Keys, "generic",
              "Find all keys matching the given pattern", "1.0.0",
              "@keyspace @read @slow @dangerous"});
  r.Register({"scan", -2, kRead, 0, 0, 0, Scan, "generic", "Incrementally iterate the keys space",
              "2.8.0", "@keyspace @read @slow"});
  r.Register({"randomkey", 1, kRead, 0, 0, 0, RandomKey, "generic",
              "Return a random key from the keyspace", "1.0.0", "@keyspace @read @slow"});
  r.Register({"type", 2, kRead | kCmdFast, 1, 1, 1, Type, "generic",
              "Determine the type stored at key", "1.0.0", "@keyspace @read @fast"});
  r.Register({"rename", 3, kWrite, 1, 2, 1, Rename, "generic", "Rename a key", "1.0.0",
              "@keyspace @write @slow"});
  r.Register({"renamenx", 3, kWrite | kCmdFast, 1, 2, 1, RenameNx, "generic",
              "Rename a key, only if the new key does not exist", "1.0.0",
              "@keyspace @write @fast"});
  r.Register({"unlink", -2, kWrite | kCmdFast, 1, -1, 1, Unlink, "generic",
              "Delete a key asynchronously in another thread. Otherwise it is just as DEL, but "
              "non blocking.",
              "4.0.0", "@keyspace @write @fast"});
  r.Register({"touch", -2, kRead | kCmdFast, 1, -1, 1, Touch, "generic",
              "Alters the last access time of a key(s). Returns the number of existing keys "
              "specified.",
              "3.2.1", "@keyspace @read @fast"});
  r.Register({"copy", -3, kWrite | kCmdDenyOom, 1, 2, 1, Copy, "generic", "Copy a key", "6.2.0",
              "@keyspace @write @slow"});
  r.Register({"move", 3, kWrite | kCmdFast, 1, 1, 1, Move, "generic",
              "Move a key to another database", "1.0.0", "@keyspace @write @fast"});
  r.Register({"swapdb", 3, kWrite | kCmdFast, 0, 0, 0, SwapDb, "server",
              "Swaps two Redis databases", "4.0.0", "@keyspace @write @fast @dangerous"});
  r.Register(
      {"object",
       -2,
       0,
       0,
       0,
       0,
       ObjectContainer,
       "generic",
       "A container for object introspection commands",
       "2.2.3",
       "@slow",
       {
           {"encoding", 3, kRead, 2, 2, 1, ObjectEncoding, "generic",
            "Inspect the internal encoding of a Redis object", "2.2.3", "@keyspace @read @slow"},
           {"refcount", 3, kRead, 2, 2, 1, ObjectRefCount, "generic",
            "Get the number of references to the value of the key", "2.2.3",
            "@keyspace @read @slow"},
           {"idletime", 3, kRead, 2, 2, 1, ObjectIdleTime, "generic",
            "Get the time since a Redis object was last accessed", "2.2.3",
            "@keyspace @read @slow"},
           {"freq", 3, kRead, 2, 2, 1, ObjectFreq, "generic",
            "Get the logarithmic access frequency counter of a Redis object", "4.0.0",
            "@keyspace @read @slow"},
           {"help", 2, kCmdLoading | kCmdStale, 0, 0, 0, ObjectHelp, "generic",
            "Show helpful text about the different subcommands", "6.2.0", "@keyspace @slow"},
       }});
  r.Register({"time", 1, kCmdLoading | kCmdStale | kCmdFast, 0, 0, 0, Time, "server",
              "Return the current server time", "2.6.0", "@fast"});
  r.Register({"lastsave", 1, kCmdLoading | kCmdStale | kCmdFast, 0, 0, 0, LastSave, "server",
              "Get the UNIX time stamp of the last successful save to disk", "1.0.0",
              "@admin @fast @dangerous"});
}

}  // namespace kv
