// Hashes: HSET, HSETNX, HMSET, HGET, HMGET, HGETALL, HKEYS, HVALS, HDEL, HLEN, HSTRLEN, HEXISTS,
// HINCRBY, HINCRBYFLOAT, HRANDFIELD, HSCAN, as Redis 7.0's t_hash.c.

#include <climits>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/number.h"
#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/commands/lookup.h"
#include "server/commands/reply_budget.h"
#include "server/commands/scan_options.h"
#include "server/errors.h"
#include "server/long_double.h"
#include "server/strings.h"
#include "storage/hash.h"

namespace kv {
namespace {

Hash::Limits Limits(const CommandContext& ctx) {
  return {static_cast<size_t>(ctx.server.config.hash_max_listpack_entries),
          static_cast<size_t>(ctx.server.config.hash_max_listpack_value)};
}

// Redis's hashTypeLookupWriteOrCreate: the hash at `key`, created empty if missing; nullptr after
// replying WRONGTYPE. A created hash always gets a field before the command ends.
Hash* LookupWriteOrCreate(CommandContext& ctx, std::string_view key) {
  Hash* h = nullptr;
  if (!WriteAggregate<Hash>(ctx, key, &h)) return nullptr;
  if (h == nullptr) h = &AddAggregate(ctx, key, std::make_unique<Hash>());
  return h;
}

// HRANDFIELD's random numbers. Any good generator does: Redis's sampling is not reproducible
// either (its rand() is seeded per process).
uint64_t NextRandom() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  return rng();
}

// HSET key field value [field value ...] (the number of new fields) and HMSET (OK).
void SetFields(CommandContext& ctx, bool hmset) {
  if (ctx.args.size() % 2 == 1) {
    return ctx.reply.Error(WrongArityError(hmset ? "hmset" : "hset"));
  }
  Hash* h = LookupWriteOrCreate(ctx, ctx.args[1]);
  if (h == nullptr) return;
  const Hash::Limits limits = Limits(ctx);
  h->PrepareFor(ctx.args.subspan(2), limits);
  int64_t created = 0;
  for (size_t i = 2; i < ctx.args.size(); i += 2) {
    created += h->Set(ctx.args[i], ctx.args[i + 1], limits);
  }
  ctx.KeyModified(ctx.args[1]);
  ctx.Notify(kNotifyHash, "hset", ctx.args[1]);
  ctx.CountChanges((ctx.args.size() - 2) / 2);
  if (hmset) return ctx.reply.Ok();
  ctx.reply.Integer(created);
}

void HSet(CommandContext& ctx) { SetFields(ctx, false); }
void HMSet(CommandContext& ctx) { SetFields(ctx, true); }

void HSetNx(CommandContext& ctx) {
  Hash* h = LookupWriteOrCreate(ctx, ctx.args[1]);
  if (h == nullptr) return;
  if (h->Contains(ctx.args[2])) return ctx.reply.Integer(0);
  const Hash::Limits limits = Limits(ctx);
  h->PrepareFor(ctx.args.subspan(2, 2), limits);
  h->Set(ctx.args[2], ctx.args[3], limits);
  ctx.KeyModified(ctx.args[1]);
  ctx.Notify(kNotifyHash, "hset", ctx.args[1]);
  ctx.CountChanges();
  ctx.reply.Integer(1);
}

void HGet(CommandContext& ctx) {
  Hash* h = nullptr;
  if (!ReadAggregate<Hash>(ctx, ctx.args[1], &h)) return;
  Hash::IntBuf buf;
  std::string_view value;
  if (h == nullptr || !h->Get(ctx.args[2], buf, &value)) return ctx.reply.Null();
  ctx.reply.Bulk(value);
}

void HMGet(CommandContext& ctx) {
  Hash* h = nullptr;
  if (!ReadAggregate<Hash>(ctx, ctx.args[1], &h)) return;
  ctx.reply.ArrayHeader(ctx.args.size() - 2);
  for (size_t i = 2; i < ctx.args.size(); ++i) {
    Hash::IntBuf buf;
    std::string_view value;
    if (h != nullptr && h->Get(ctx.args[i], buf, &value)) {
      ctx.reply.Bulk(value);
    } else {
      ctx.reply.Null();
    }
  }
}

// HGETALL (a map), HKEYS and HVALS (arrays).
void GetAll(CommandContext& ctx, bool fields, bool values) {
  Hash* h = nullptr;
  if (!ReadAggregate<Hash>(ctx, ctx.args[1], &h)) return;
  const size_t n = h == nullptr ? 0 : h->size();
  if (fields && values) {
    ctx.reply.MapHeader(n);
  } else {
    ctx.reply.ArrayHeader(n);
  }
  if (h == nullptr) return;
  h->ForEach([&](std::string_view field, std::string_view value) {
    if (fields) ctx.reply.Bulk(field);
    if (values) ctx.reply.Bulk(value);
    return true;
  });
}

void HGetAll(CommandContext& ctx) { GetAll(ctx, true, true); }
void HKeys(CommandContext& ctx) { GetAll(ctx, true, false); }
void HVals(CommandContext& ctx) { GetAll(ctx, false, true); }

void HDel(CommandContext& ctx) {
  Hash* h = nullptr;
  if (!WriteAggregate<Hash>(ctx, ctx.args[1], &h)) return;
  if (h == nullptr) return ctx.reply.Integer(0);
  int64_t deleted = 0;
  bool removed = false;
  for (size_t i = 2; i < ctx.args.size(); ++i) {
    if (!h->Erase(ctx.args[i])) continue;
    ++deleted;
    if (DeleteIfEmpty(ctx, ctx.args[1], *h)) {
      removed = true;
      break;
    }
  }
  if (deleted != 0) {
    ctx.KeyModified(ctx.args[1]);
    ctx.Notify(kNotifyHash, "hdel", ctx.args[1]);
    if (removed) ctx.Notify(kNotifyGeneric, "del", ctx.args[1]);
  }
  ctx.CountChanges(deleted);
  ctx.reply.Integer(deleted);
}

void HLen(CommandContext& ctx) {
  Hash* h = nullptr;
  if (!ReadAggregate<Hash>(ctx, ctx.args[1], &h)) return;
  ctx.reply.Integer(h == nullptr ? 0 : static_cast<int64_t>(h->size()));
}

void HStrLen(CommandContext& ctx) {
  Hash* h = nullptr;
  if (!ReadAggregate<Hash>(ctx, ctx.args[1], &h)) return;
  Hash::IntBuf buf;
  std::string_view value;
  if (h == nullptr || !h->Get(ctx.args[2], buf, &value)) return ctx.reply.Integer(0);
  ctx.reply.Integer(static_cast<int64_t>(value.size()));
}

void HExists(CommandContext& ctx) {
  Hash* h = nullptr;
  if (!ReadAggregate<Hash>(ctx, ctx.args[1], &h)) return;
  ctx.reply.Integer(h != nullptr && h->Contains(ctx.args[2]) ? 1 : 0);
}

void HIncrBy(CommandContext& ctx) {
  const auto incr = ParseInt64(ctx.args[3]);
  if (!incr) return ctx.reply.Error(errors::kNotInteger);
  Hash* h = LookupWriteOrCreate(ctx, ctx.args[1]);
  if (h == nullptr) return;
  int64_t value = 0;
  Hash::IntBuf buf;
  std::string_view old;
  if (h->Get(ctx.args[2], buf, &old)) {
    const auto parsed = ParseInt64(old);
    if (!parsed) return ctx.reply.Error("hash value is not an integer");
    value = *parsed;
  }
  if ((*incr < 0 && value < 0 && *incr < INT64_MIN - value) ||
      (*incr > 0 && value > 0 && *incr > INT64_MAX - value)) {
    return ctx.reply.Error(errors::kOverflow);
  }
  value += *incr;
  char text[kMaxInt64Chars];
  const size_t len = FormatInt64(value, text);
  h->Set(ctx.args[2], std::string_view(text, len), Limits(ctx));
  ctx.KeyModified(ctx.args[1]);
  ctx.Notify(kNotifyHash, "hincrby", ctx.args[1]);
  ctx.CountChanges();
  ctx.reply.Integer(value);
}

void HIncrByFloat(CommandContext& ctx) {
  const auto incr = ParseLongDouble(ctx.args[3]);
  if (!incr) return ctx.reply.Error(errors::kNotFloat);
  if (std::isnan(*incr) || std::isinf(*incr)) return ctx.reply.Error("value is NaN or Infinity");
  Hash* h = LookupWriteOrCreate(ctx, ctx.args[1]);
  if (h == nullptr) return;
  long double value = 0;
  Hash::IntBuf buf;
  std::string_view old;
  if (h->Get(ctx.args[2], buf, &old)) {
    const auto parsed = ParseLongDouble(old);
    if (!parsed) return ctx.reply.Error("hash value is not a float");
    value = *parsed;
  }
  value += *incr;
  if (std::isnan(value) || std::isinf(value)) {
    return ctx.reply.Error("increment would produce NaN or Infinity");
  }
  const std::string text = FormatLongDoubleHuman(value);
  h->Set(ctx.args[2], text, Limits(ctx));
  ctx.KeyModified(ctx.args[1]);
  ctx.Notify(kNotifyHash, "hincrbyfloat", ctx.args[1]);
  ctx.CountChanges();
  ctx.reply.Bulk(text);
  // Propagated as HSET of the value it came to.
  if (ctx.Propagating()) ctx.RewriteArg(0, "HSET"), ctx.RewriteArg(3, text);
}

// HRANDFIELD key count [WITHVALUES], as Redis's hrandfieldWithCountCommand: a negative count
// draws that many fields independently; a positive one that many distinct fields, all of them
// once it reaches the size. With WITHVALUES, RESP2 gets a flat array and RESP3 an array of
// [field, value] pairs.
void RandomFieldsWithCount(CommandContext& ctx, int64_t l, bool with_values) {
  Hash* h = nullptr;
  if (!ReadAggregate<Hash>(ctx, ctx.args[1], &h)) return;
  if (h == nullptr || l == 0) return ctx.reply.ArrayHeader(0);
  const bool unique = l > 0;
  const uint64_t count = unique ? static_cast<uint64_t>(l) : static_cast<uint64_t>(-l);
  const size_t size = h->size();
  const bool pairs = with_values && ctx.reply.protocol() >= 3;
  ReplyBudget budget(ctx);
  auto emit = [&](std::string_view field, std::string_view value) {
    if (pairs) ctx.reply.ArrayHeader(2);
    ctx.reply.Bulk(field);
    if (with_values) ctx.reply.Bulk(value);
    return budget.Continue();
  };
  const uint64_t reply_size = unique && count > size ? size : count;
  ctx.reply.ArrayHeader(with_values && !pairs ? reply_size * 2 : reply_size);
  if (!unique || count == 1) return h->SampleWithRepetition(count, NextRandom, emit);
  if (count >= size) return h->ForEach(emit);
  h->SampleDistinct(count, NextRandom, emit);
}

void HRandField(CommandContext& ctx) {
  if (ctx.args.size() >= 3) {
    const auto l = ParseInt64(ctx.args[2]);
    if (!l) return ctx.reply.Error(errors::kNotInteger);
    if (*l < -INT64_MAX) {
      return ctx.reply.Error(
          "value is out of range, value must between -9223372036854775807 and "
          "9223372036854775807");
    }
    if (ctx.args.size() > 4 || (ctx.args.size() == 4 && !OptionIs(ctx.args[3], "withvalues"))) {
      return ctx.reply.Error(errors::kSyntax);
    }
    const bool with_values = ctx.args.size() == 4;
    if (with_values && (*l < -INT64_MAX / 2 || *l > INT64_MAX / 2)) {
      return ctx.reply.Error("value is out of range");
    }
    return RandomFieldsWithCount(ctx, *l, with_values);
  }
  Hash* h = nullptr;
  if (!ReadAggregate<Hash>(ctx, ctx.args[1], &h)) return;
  if (h == nullptr) return ctx.reply.Null();
  h->SampleWithRepetition(1, NextRandom, [&](std::string_view field, std::string_view) {
    ctx.reply.Bulk(field);
    return true;
  });
}

// HSCAN key cursor [MATCH pattern] [COUNT count], as Redis's scanGenericCommand for a hash: the
// cursor is checked before the key, the options after it; a list pack is returned whole with
// cursor 0, a table bucket by bucket until about COUNT fields came.
void HScan(CommandContext& ctx) {
  uint64_t cursor = 0;
  if (!ParseScanCursor(ctx, ctx.args[2], &cursor)) return;
  Hash* h = nullptr;
  if (!ReadAggregate<Hash>(ctx, ctx.args[1], &h)) return;
  if (h == nullptr) return ReplyEmptyScan(ctx);
  ScanOptions options;
  if (!ParseScanOptions(ctx, 3, /*allow_type=*/false, &options)) return;

  if (h->encoding() == Encoding::kListPack) {
    // Everything at once. List pack integers are formatted on the fly, so the matches are
    // counted first and written in a second pass rather than kept.
    size_t matched = 0;
    h->ForEach([&](std::string_view field, std::string_view) {
      matched += options.Matches(field);
      return true;
    });
    ReplyScanHeader(ctx, 0, matched * 2);
    h->ForEach([&](std::string_view field, std::string_view value) {
      if (options.Matches(field)) {
        ctx.reply.Bulk(field);
        ctx.reply.Bulk(value);
      }
      return true;
    });
    return;
  }
  // A table's fields and values stay where they are during the command: views suffice.
  std::vector<std::pair<std::string_view, std::string_view>> found;
  const uint64_t count = static_cast<uint64_t>(options.count);
  // Redis bounds the buckets visited at ten times COUNT (doubled for the values).
  uint64_t max_iterations = count > UINT64_MAX / 20 ? UINT64_MAX : count * 20;
  do {
    cursor = h->Scan(cursor, [&](std::string_view field, std::string_view value) {
      if (options.Matches(field)) found.emplace_back(field, value);
      return true;
    });
  } while (cursor != 0 && max_iterations-- != 0 && found.size() < count);
  ReplyScanHeader(ctx, cursor, found.size() * 2);
  for (const auto& [field, value] : found) {
    ctx.reply.Bulk(field);
    ctx.reply.Bulk(value);
  }
}

constexpr uint32_t kRead = kCmdReadOnly;
constexpr uint32_t kWrite = kCmdWrite;

}  // namespace

void RegisterHashFamily(CommandRegistry& r) {
  r.Register({"hset", -4, kWrite | kCmdDenyOom | kCmdFast, 1, 1, 1, HSet, "hash",
              "Set the string value of a hash field", "2.0.0", "@write @hash @fast"});
  r.Register({"hsetnx", 4, kWrite | kCmdDenyOom | kCmdFast, 1, 1, 1, HSetNx, "hash",
              "Set the value of a hash field, only if the field does not exist", "2.0.0",
              "@write @hash @fast"});
  r.Register({"hmset", -4, kWrite | kCmdDenyOom | kCmdFast, 1, 1, 1, HMSet, "hash",
              "Set multiple hash fields to multiple values", "2.0.0", "@write @hash @fast"});
  r.Register({"hget", 3, kRead | kCmdFast, 1, 1, 1, HGet, "hash", "Get the value of a hash field",
              "2.0.0", "@read @hash @fast"});
  r.Register({"hmget", -3, kRead | kCmdFast, 1, 1, 1, HMGet, "hash",
              "Get the values of all the given hash fields", "2.0.0", "@read @hash @fast"});
  r.Register({"hgetall", 2, kRead, 1, 1, 1, HGetAll, "hash",
              "Get all the fields and values in a hash", "2.0.0", "@read @hash @slow"});
  r.Register({"hkeys", 2, kRead, 1, 1, 1, HKeys, "hash", "Get all the fields in a hash", "2.0.0",
              "@read @hash @slow"});
  r.Register({"hvals", 2, kRead, 1, 1, 1, HVals, "hash", "Get all the values in a hash", "2.0.0",
              "@read @hash @slow"});
  r.Register({"hdel", -3, kWrite | kCmdFast, 1, 1, 1, HDel, "hash",
              "Delete one or more hash fields", "2.0.0", "@write @hash @fast"});
  r.Register({"hlen", 2, kRead | kCmdFast, 1, 1, 1, HLen, "hash",
              "Get the number of fields in a hash", "2.0.0", "@read @hash @fast"});
  r.Register({"hstrlen", 3, kRead | kCmdFast, 1, 1, 1, HStrLen, "hash",
              "Get the length of the value of a hash field", "3.2.0", "@read @hash @fast"});
  r.Register({"hexists", 3, kRead | kCmdFast, 1, 1, 1, HExists, "hash",
              "Determine if a hash field exists", "2.0.0", "@read @hash @fast"});
  r.Register({"hincrby", 4, kWrite | kCmdDenyOom | kCmdFast, 1, 1, 1, HIncrBy, "hash",
              "Increment the integer value of a hash field by the given number", "2.0.0",
              "@write @hash @fast"});
  r.Register({"hincrbyfloat", 4, kWrite | kCmdDenyOom | kCmdFast, 1, 1, 1, HIncrByFloat, "hash",
              "Increment the float value of a hash field by the given amount", "2.6.0",
              "@write @hash @fast"});
  r.Register({"hrandfield", -2, kRead, 1, 1, 1, HRandField, "hash",
              "Get one or multiple random fields from a hash", "6.2.0", "@read @hash @slow"});
  r.Register({"hscan", -3, kRead, 1, 1, 1, HScan, "hash",
              "Incrementally iterate hash fields and associated values", "2.8.0",
              "@read @hash @slow"});
}

}  // namespace kv
