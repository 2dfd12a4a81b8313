// Sorted sets: ZADD, ZINCRBY, ZREM, ZCARD, ZCOUNT, ZLEXCOUNT, ZSCORE, ZMSCORE, ZRANK, ZREVRANK,
// ZPOPMIN, ZPOPMAX, ZMPOP, BZPOPMIN, BZPOPMAX, BZMPOP, ZRANDMEMBER and ZSCAN, as Redis 7.0's
// t_zset.c. The ranges (ZRANGE and its forms, ZREMRANGEBY*) are in zset_range_family.cc, the set
// operations (ZUNION, ZINTER, ZDIFF, their STORE forms, ZINTERCARD) in zset_setop_family.cc.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "protocol/number.h"
#include "server/command_registry.h"
#include "server/commands/block_timeout.h"
#include "server/commands/families.h"
#include "server/commands/lookup.h"
#include "server/commands/reply_budget.h"
#include "server/commands/scan_options.h"
#include "server/commands/zset_access.h"
#include "server/commands/zset_args.h"
#include "server/errors.h"
#include "server/strings.h"
#include "storage/zset.h"

namespace kv {
namespace {

using IntBuf = char[ListPackValue::kIntBufSize];

// ZRANDMEMBER's random numbers: Redis's are not reproducible either.
uint64_t NextRandom() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  return rng();
}

// ---- ZADD, ZINCRBY, ZREM ----

void AddGeneric(CommandContext& ctx, int flags) {
  const std::string_view key = ctx.args[1];
  bool ch = false;
  size_t scoreidx = 2;
  for (; scoreidx < ctx.args.size(); ++scoreidx) {
    const std::string_view opt = ctx.args[scoreidx];
    if (OptionIs(opt, "nx")) {
      flags |= ZSet::kAddNx;
    } else if (OptionIs(opt, "xx")) {
      flags |= ZSet::kAddXx;
    } else if (OptionIs(opt, "ch")) {
      ch = true;
    } else if (OptionIs(opt, "incr")) {
      flags |= ZSet::kAddIncr;
    } else if (OptionIs(opt, "gt")) {
      flags |= ZSet::kAddGt;
    } else if (OptionIs(opt, "lt")) {
      flags |= ZSet::kAddLt;
    } else {
      break;
    }
  }
  const bool incr = flags & ZSet::kAddIncr;
  const bool nx = flags & ZSet::kAddNx;
  const bool xx = flags & ZSet::kAddXx;
  const bool gt = flags & ZSet::kAddGt;
  const bool lt = flags & ZSet::kAddLt;
  size_t elements = ctx.args.size() - scoreidx;
  if (elements % 2 != 0 || elements == 0) return ctx.reply.Error(errors::kSyntax);
  elements /= 2;
  if (nx && xx) {
    return ctx.reply.Error("XX and NX options at the same time are not compatible");
  }
  if ((gt && nx) || (lt && nx) || (gt && lt)) {
    return ctx.reply.Error("GT, LT, and/or NX options at the same time are not compatible");
  }
  if (incr && elements > 1) {
    return ctx.reply.Error("INCR option supports a single increment-element pair");
  }
  // Every score is checked before anything changes.
  double first_score = 0;
  std::vector<double> scores;
  if (elements > 1) scores.resize(elements);
  for (size_t j = 0; j < elements; ++j) {
    const std::optional<double> s = ParseDouble(ctx.args[scoreidx + j * 2]);
    if (!s) return ctx.reply.Error(errors::kNotFloat);
    (elements > 1 ? scores[j] : first_score) = *s;
  }

  ZSet* z = nullptr;
  if (!WriteZSet(ctx, key, &z)) return;
  const ZSet::Limits limits = ZSetLimits(ctx);
  int64_t added = 0, updated = 0, processed = 0;
  double score = 0;
  if (z == nullptr && !xx) {
    const bool big = limits.max_listpack_entries == 0 ||
                     limits.max_listpack_value < ctx.args[scoreidx + 1].size();
    z = &AddAggregate(ctx, key, std::make_unique<ZSet>(big));
  }
  if (z != nullptr) {
    for (size_t j = 0; j < elements; ++j) {
      double newscore = 0;
      int out = 0;
      const double s = elements > 1 ? scores[j] : first_score;
      if (!z->Add(s, ctx.args[scoreidx + 1 + j * 2], flags, &out, &newscore, limits)) {
        // Only an INCR (one member) can get there: nothing changed.
        return ctx.reply.Error("resulting score is not a number (NaN)");
      }
      added += (out & ZSet::kOutAdded) != 0;
      updated += (out & ZSet::kOutUpdated) != 0;
      processed += (out & ZSet::kOutNop) == 0;
      score = newscore;
    }
    ctx.CountChanges(static_cast<uint64_t>(added + updated));
  }
  if (incr) {
    if (processed != 0) {
      ctx.reply.Double(score);
    } else {
      ctx.reply.Null();
    }
  } else {
    ctx.reply.Integer(ch ? added + updated : added);
  }
  if (added + updated != 0) {
    ctx.KeyModified(key);
    ctx.Notify(kNotifyZset, incr ? "zincr" : "zadd", key);
  }
}

void ZAdd(CommandContext& ctx) { AddGeneric(ctx, 0); }
void ZIncrBy(CommandContext& ctx) { AddGeneric(ctx, ZSet::kAddIncr); }

void ZRem(CommandContext& ctx) {
  const std::string_view key = ctx.args[1];
  ZSet* z = nullptr;
  if (!WriteZSet(ctx, key, &z)) return;
  if (z == nullptr) return ctx.reply.Integer(0);
  int64_t deleted = 0;
  bool key_removed = false;
  for (size_t j = 2; j < ctx.args.size(); ++j) {
    deleted += z->Remove(ctx.args[j]);
    if ((key_removed = DeleteIfEmpty(ctx, key, *z))) break;
  }
  if (deleted != 0) {
    ctx.Notify(kNotifyZset, "zrem", key);
    if (key_removed) ctx.Notify(kNotifyGeneric, "del", key);
    ctx.KeyModified(key);
  }
  ctx.CountChanges(static_cast<uint64_t>(deleted));
  ctx.reply.Integer(deleted);
}

// ---- Simple reads ----

void ZCard(CommandContext& ctx) {
  ZSet* z = nullptr;
  if (!ReadZSet(ctx, ctx.args[1], &z)) return;
  ctx.reply.Integer(z == nullptr ? 0 : static_cast<int64_t>(z->size()));
}

void ZScore(CommandContext& ctx) {
  ZSet* z = nullptr;
  if (!ReadZSet(ctx, ctx.args[1], &z)) return;
  double score;
  if (z == nullptr || !z->Score(ctx.args[2], &score)) return ctx.reply.Null();
  ctx.reply.Double(score);
}

void ZMScore(CommandContext& ctx) {
  ZSet* z = nullptr;
  if (!ReadZSet(ctx, ctx.args[1], &z)) return;
  ctx.reply.ArrayHeader(ctx.args.size() - 2);
  for (size_t j = 2; j < ctx.args.size(); ++j) {
    double score;
    if (z == nullptr || !z->Score(ctx.args[j], &score)) {
      ctx.reply.Null();
    } else {
      ctx.reply.Double(score);
    }
  }
}

void RankGeneric(CommandContext& ctx, bool reverse) {
  ZSet* z = nullptr;
  if (!ReadZSet(ctx, ctx.args[1], &z)) return;
  size_t rank;
  if (z == nullptr || !z->Rank(ctx.args[2], reverse, &rank, nullptr)) return ctx.reply.Null();
  ctx.reply.Integer(static_cast<int64_t>(rank));
}

void ZRank(CommandContext& ctx) { RankGeneric(ctx, false); }
void ZRevRank(CommandContext& ctx) { RankGeneric(ctx, true); }

void ZCount(CommandContext& ctx) {
  ScoreRange range;
  if (!ParseScoreRange(ctx.args[2], ctx.args[3], &range)) return ctx.reply.Error(kNotFloatRange);
  ZSet* z = nullptr;
  if (!ReadZSet(ctx, ctx.args[1], &z)) return;
  ctx.reply.Integer(z == nullptr ? 0 : static_cast<int64_t>(z->CountInRange(range)));
}

void ZLexCount(CommandContext& ctx) {
  LexRange range;
  if (!ParseLexRange(ctx.args[2], ctx.args[3], &range)) return ctx.reply.Error(kNotLexRange);
  ZSet* z = nullptr;
  if (!ReadZSet(ctx, ctx.args[1], &z)) return;
  ctx.reply.Integer(z == nullptr ? 0 : static_cast<int64_t>(z->CountInLexRange(range)));
}

// ---- Pops ----

// Redis's genericZpopCommand for one sorted set at `key`: `count` -1 is a plain single pop.
// `emitkey` puts the key first (BZPOP*, ZMPOP); `nested` makes member-score pairs arrays.
void PopFrom(CommandContext& ctx, std::string_view key, ZSet& z, bool max, bool emitkey,
             int64_t count, bool nested) {
  if (count == -1) count = 1;
  const size_t llen = z.size();
  const size_t rangelen = std::min(static_cast<uint64_t>(count), static_cast<uint64_t>(llen));
  if (!nested && !emitkey) {
    ctx.reply.ArrayHeader(rangelen * 2);
  } else if (nested && !emitkey) {
    ctx.reply.ArrayHeader(rangelen);
  } else if (!nested && emitkey) {
    ctx.reply.ArrayHeader(rangelen * 2 + 1);
    ctx.reply.Bulk(key);
  } else {
    ctx.reply.ArrayHeader(2);
    ctx.reply.Bulk(key);
    ctx.reply.ArrayHeader(rangelen);
  }
  IntBuf buf;
  ZSet::Iterator it = z.Seek(max ? llen - 1 : 0);
  for (size_t i = 0; i < rangelen; ++i) {
    if (nested) ctx.reply.ArrayHeader(2);
    ctx.reply.Bulk(it.member(buf));
    ctx.reply.Double(it.score());
    if (max) {
      it.Prev();
    } else {
      it.Next();
    }
  }
  if (max) {
    z.DeleteRangeByRank(llen - rangelen, llen - 1);
  } else {
    z.DeleteRangeByRank(0, rangelen - 1);
  }
  ctx.CountChanges(rangelen);
  // Also when serving a blocked client: Redis's genericZpopCommand signals the key either way.
  ctx.Notify(kNotifyZset, max ? "zpopmax" : "zpopmin", key);
  ctx.KeyModified(key);
  if (DeleteIfEmpty(ctx, key, z)) ctx.Notify(kNotifyGeneric, "del", key);
}

void PopMinMax(CommandContext& ctx, bool max) {
  if (ctx.args.size() > 3) return ctx.reply.Error(errors::kSyntax);
  int64_t count = -1;
  if (ctx.args.size() == 3 && !ParsePositiveLong(ctx, ctx.args[2], &count)) return;
  const bool nested = ctx.reply.protocol() > 2 && count != -1;
  ZSet* z = nullptr;
  if (!WriteZSet(ctx, ctx.args[1], &z)) return;
  if (z == nullptr || count == 0) return ctx.reply.ArrayHeader(0);
  PopFrom(ctx, ctx.args[1], *z, max, false, count, nested);
}

void ZPopMin(CommandContext& ctx) { PopMinMax(ctx, false); }
void ZPopMax(CommandContext& ctx) { PopMinMax(ctx, true); }

// ZMPOP and BZMPOP's arguments after numkeys: the keys, MIN|MAX, [COUNT count].
struct MPopArgs {
  std::span<const std::string_view> keys;
  bool max = false;
  int64_t count = -1;
};

bool ParseMPop(CommandContext& ctx, size_t numkeys_idx, MPopArgs* out) {
  int64_t numkeys;
  if (!ParseRangeLong(ctx, ctx.args[numkeys_idx], 1, INT64_MAX, &numkeys,
                      "numkeys should be greater than 0")) {
    return false;
  }
  const uint64_t where_idx = numkeys_idx + static_cast<uint64_t>(numkeys) + 1;
  if (where_idx >= ctx.args.size()) {
    ctx.reply.Error(errors::kSyntax);
    return false;
  }
  if (OptionIs(ctx.args[where_idx], "min")) {
    out->max = false;
  } else if (OptionIs(ctx.args[where_idx], "max")) {
    out->max = true;
  } else {
    ctx.reply.Error(errors::kSyntax);
    return false;
  }
  for (size_t j = where_idx + 1; j < ctx.args.size(); ++j) {
    const bool moreargs = j + 1 < ctx.args.size();
    if (out->count == -1 && OptionIs(ctx.args[j], "count") && moreargs) {
      ++j;
      if (!ParseRangeLong(ctx, ctx.args[j], 1, INT64_MAX, &out->count,
                          "count should be greater than 0")) {
        return false;
      }
    } else {
      ctx.reply.Error(errors::kSyntax);
      return false;
    }
  }
  if (out->count == -1) out->count = 1;
  out->keys = ctx.args.subspan(numkeys_idx + 1, static_cast<size_t>(numkeys));
  return true;
}

// ZMPOP, BZMPOP, BZPOPMIN and BZPOPMAX go to the AOF as ZPOPMIN/ZPOPMAX key [n], n the number
// actually popped.
void PropagateZPop(CommandContext& ctx, std::string_view key, const ZSet& z, bool max,
                   int64_t count) {
  if (!ctx.Propagating()) return;
  std::vector<std::string> argv{max ? "ZPOPMAX" : "ZPOPMIN", std::string(key)};
  if (count != -1) {
    argv.push_back(std::to_string(std::min<uint64_t>(static_cast<uint64_t>(count), z.size())));
  }
  ctx.PropagateAs(std::move(argv));
}

void ZMPop(CommandContext& ctx) {
  MPopArgs a;
  if (!ParseMPop(ctx, 1, &a)) return;
  for (std::string_view key : a.keys) {
    ZSet* z = nullptr;
    if (!WriteZSet(ctx, key, &z)) return;
    if (z == nullptr) continue;
    PropagateZPop(ctx, key, *z, a.max, a.count);
    return PopFrom(ctx, key, *z, a.max, true, a.count, true);
  }
  ctx.reply.NullArray();
}

// BZPOPMIN, BZPOPMAX and BZMPOP (blockingGenericZpopCommand): pops from the first non-empty key,
// or blocks on all of them. Served again because a key got a sorted set, only that key is looked
// at, as Redis 7.0 serves a blocked client from the ready key.
void BlockingPop(CommandContext& ctx, std::span<const std::string_view> keys, bool max,
                 std::string_view timeout_arg, int64_t count, bool nested) {
  int64_t deadline;
  if (!ParseBlockTimeout(ctx, timeout_arg, &deadline)) return;
  const std::string_view ready[] = {ctx.blocked_key != nullptr ? std::string_view(*ctx.blocked_key)
                                                               : std::string_view()};
  const std::span<const std::string_view> candidates =
      ctx.blocked_key != nullptr ? std::span<const std::string_view>(ready) : keys;
  for (std::string_view key : candidates) {
    ZSet* z = nullptr;
    if (!WriteZSet(ctx, key, &z)) return;
    if (z == nullptr || z->size() == 0) continue;
    PropagateZPop(ctx, key, *z, max, count);
    return PopFrom(ctx, key, *z, max, true, count, nested);
  }
  if (!ctx.CanBlock()) return ctx.reply.NullArray();
  ctx.Block(keys, ValueType::kZSet, deadline);
}

void BZPopMin(CommandContext& ctx) {
  BlockingPop(ctx, ctx.args.subspan(1, ctx.args.size() - 2), false, ctx.args.back(), -1, false);
}

void BZPopMax(CommandContext& ctx) {
  BlockingPop(ctx, ctx.args.subspan(1, ctx.args.size() - 2), true, ctx.args.back(), -1, false);
}

// BZMPOP timeout numkeys key [key ...] MIN|MAX [COUNT count]: the timeout is parsed last.
void BZMPop(CommandContext& ctx) {
  MPopArgs a;
  if (!ParseMPop(ctx, 2, &a)) return;
  BlockingPop(ctx, a.keys, a.max, ctx.args[1], a.count, true);
}

// ---- ZRANDMEMBER ----

void ReplyMemberScore(CommandContext& ctx, std::string_view member, double score, bool withscores) {
  if (withscores && ctx.reply.protocol() > 2) ctx.reply.ArrayHeader(2);
  ctx.reply.Bulk(member);
  if (withscores) ctx.reply.Double(score);
}

// Redis's zrandmemberWithCountCommand.
void RandMemberWithCount(CommandContext& ctx, int64_t l, bool withscores) {
  ZSet* z = nullptr;
  if (!ReadZSet(ctx, ctx.args[1], &z)) return;
  if (z == nullptr) return ctx.reply.ArrayHeader(0);
  const size_t size = z->size();
  const bool unique = l >= 0;
  const uint64_t count = unique ? static_cast<uint64_t>(l) : static_cast<uint64_t>(-l);
  if (count == 0) return ctx.reply.ArrayHeader(0);
  IntBuf buf;
  // CASE 1: a negative count (or 1): picks with repetition, in random order.
  if (!unique || count == 1) {
    ctx.reply.ArrayHeader(withscores && ctx.reply.protocol() == 2 ? count * 2 : count);
    ReplyBudget budget(ctx);
    for (uint64_t i = 0; i < count; ++i) {
      const ZSet::Iterator it = z->Seek(NextRandom() % size);
      ReplyMemberScore(ctx, it.member(buf), it.score(), withscores);
      if (!budget.Continue()) break;
    }
    return;
  }
  const uint64_t reply_size = std::min<uint64_t>(count, size);
  ctx.reply.ArrayHeader(withscores && ctx.reply.protocol() == 2 ? reply_size * 2 : reply_size);
  // CASE 2: the whole set, from the highest score down (zuiNext's order).
  if (count >= size) {
    for (ZSet::Iterator it = z->Seek(size - 1); it.valid(); it.Prev()) {
      ReplyMemberScore(ctx, it.member(buf), it.score(), withscores);
    }
    return;
  }
  // CASES 3 and 4: `count` distinct members (Floyd's sampling of ranks), in random order.
  absl::flat_hash_set<uint64_t> picked;
  picked.reserve(count);
  std::vector<uint64_t> order;
  order.reserve(count);
  for (uint64_t j = size - count; j < size; ++j) {
    const uint64_t t = NextRandom() % (j + 1);
    const uint64_t r = picked.insert(t).second ? t : j;
    if (r == j) picked.insert(j);
    order.push_back(r);
  }
  for (uint64_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[NextRandom() % i]);
  if (z->is_listpack()) {
    // One walk of the listpack rather than a seek per member.
    std::vector<std::pair<std::string, double>> by_rank(size);
    size_t r = 0;
    for (ZSet::Iterator it = z->Seek(0); it.valid(); it.Next(), ++r) {
      if (picked.contains(r)) by_rank[r] = {std::string(it.member(buf)), it.score()};
    }
    for (uint64_t rank : order) {
      ReplyMemberScore(ctx, by_rank[rank].first, by_rank[rank].second, withscores);
    }
    return;
  }
  for (uint64_t rank : order) {
    const ZSet::Iterator it = z->Seek(rank);
    ReplyMemberScore(ctx, it.member(buf), it.score(), withscores);
  }
}

void ZRandMember(CommandContext& ctx) {
  if (ctx.args.size() >= 3) {
    int64_t l;
    if (!ParseRangeLong(ctx, ctx.args[2], -INT64_MAX, INT64_MAX, &l)) return;
    if (ctx.args.size() > 4 || (ctx.args.size() == 4 && !OptionIs(ctx.args[3], "withscores"))) {
      return ctx.reply.Error(errors::kSyntax);
    }
    const bool withscores = ctx.args.size() == 4;
    if (withscores && (l < -INT64_MAX / 2 || l > INT64_MAX / 2)) {
      return ctx.reply.Error("value is out of range");
    }
    return RandMemberWithCount(ctx, l, withscores);
  }
  ZSet* z = nullptr;
  if (!ReadZSet(ctx, ctx.args[1], &z)) return;
  if (z == nullptr) return ctx.reply.Null();
  IntBuf buf;
  ctx.reply.Bulk(z->Seek(NextRandom() % z->size()).member(buf));
}

// ---- ZSCAN ----

void ZScan(CommandContext& ctx) {
  uint64_t cursor;
  if (!ParseScanCursor(ctx, ctx.args[2], &cursor)) return;
  ZSet* z = nullptr;
  if (!ReadZSet(ctx, ctx.args[1], &z)) return;
  if (z == nullptr) return ReplyEmptyScan(ctx);
  ScanOptions options;
  if (!ParseScanOptions(ctx, 3, false, &options)) return;
  std::vector<std::pair<std::string, std::string>> found;
  if (z->is_listpack()) {
    // Everything at once, the scores as the listpack holds them.
    const ListPack& lp = z->listpack();
    IntBuf mbuf, sbuf;
    for (ListPack::Pos e = lp.First(); e != ListPack::npos;) {
      const ListPack::Pos s = lp.Next(e);
      const std::string_view member = lp.Get(e).ToString(mbuf);
      if (options.Matches(member)) {
        found.emplace_back(std::string(member), std::string(lp.Get(s).ToString(sbuf)));
      }
      e = lp.Next(s);
    }
    cursor = 0;
  } else {
    // Whole home slots until COUNT pairs (Redis counts member and score), at most 10 * COUNT
    // steps.
    const uint64_t count = static_cast<uint64_t>(options.count) * 2;
    uint64_t max_iterations = count * 10;
    size_t returned = 0;
    do {
      cursor = z->Scan(cursor, 1, [&](std::string_view member, double score) {
        returned += 2;
        if (!options.Matches(member)) return;
        char buf[kMaxDoubleChars];
        found.emplace_back(std::string(member), std::string(buf, FormatDouble17g(score, buf)));
      });
    } while (cursor != 0 && max_iterations-- != 0 && returned < count);
  }
  ReplyScanHeader(ctx, cursor, found.size() * 2);
  for (const auto& [member, score] : found) {
    ctx.reply.Bulk(member);
    ctx.reply.Bulk(score);
  }
}

}  // namespace

void ZAddCommand(CommandContext& ctx) { AddGeneric(ctx, 0); }

void RegisterZSetFamily(CommandRegistry& r) {
  r.Register({"zadd", -4, kCmdWrite | kCmdDenyOom | kCmdFast, 1, 1, 1, ZAdd, "sorted-set",
              "Add one or more members to a sorted set, or update its score if it already exists",
              "1.2.0", "@write @sortedset @fast"});
  r.Register({"zincrby", 4, kCmdWrite | kCmdDenyOom | kCmdFast, 1, 1, 1, ZIncrBy, "sorted-set",
              "Increment the score of a member in a sorted set", "1.2.0",
              "@write @sortedset @fast"});
  r.Register({"zrem", -3, kCmdWrite | kCmdFast, 1, 1, 1, ZRem, "sorted-set",
              "Remove one or more members from a sorted set", "1.2.0", "@write @sortedset @fast"});
  r.Register({"zcard", 2, kCmdReadOnly | kCmdFast, 1, 1, 1, ZCard, "sorted-set",
              "Get the number of members in a sorted set", "1.2.0", "@read @sortedset @fast"});
  r.Register({"zcount", 4, kCmdReadOnly | kCmdFast, 1, 1, 1, ZCount, "sorted-set",
              "Count the members in a sorted set with scores within the given values", "2.0.0",
              "@read @sortedset @fast"});
  r.Register({"zlexcount", 4, kCmdReadOnly | kCmdFast, 1, 1, 1, ZLexCount, "sorted-set",
              "Count the number of members in a sorted set between a given lexicographical range",
              "2.8.9", "@read @sortedset @fast"});
  r.Register({"zscore", 3, kCmdReadOnly | kCmdFast, 1, 1, 1, ZScore, "sorted-set",
              "Get the score associated with the given member in a sorted set", "1.2.0",
              "@read @sortedset @fast"});
  r.Register({"zmscore", -3, kCmdReadOnly | kCmdFast, 1, 1, 1, ZMScore, "sorted-set",
              "Get the score associated with the given members in a sorted set", "6.2.0",
              "@read @sortedset @fast"});
  r.Register({"zrank", 3, kCmdReadOnly | kCmdFast, 1, 1, 1, ZRank, "sorted-set",
              "Determine the index of a member in a sorted set", "2.0.0",
              "@read @sortedset @fast"});
  r.Register(
      {"zrevrank", 3, kCmdReadOnly | kCmdFast, 1, 1, 1, ZRevRank, "sorted-set",
       "Determine the index of a member in a sorted set, with scores ordered from high to low",
       "2.0.0", "@read @sortedset @fast"});
  r.Register({"zpopmin", -2, kCmdWrite | kCmdFast, 1, 1, 1, ZPopMin, "sorted-set",
              "Remove and return members with the lowest scores in a sorted set", "5.0.0",
              "@write @sortedset @fast"});
  r.Register({"zpopmax", -2, kCmdWrite | kCmdFast, 1, 1, 1, ZPopMax, "sorted-set",
              "Remove and return members with the highest scores in a sorted set", "5.0.0",
              "@write @sortedset @fast"});
  r.Register({"zmpop", -4, kCmdWrite | kCmdMovableKeys, 0, 0, 0, ZMPop, "sorted-set",
              "Remove and return members with scores in a sorted set", "7.0.0",
              "@write @sortedset @slow"});
  r.Register({"bzpopmin", -3, kCmdWrite | kCmdNoScript | kCmdBlocking | kCmdFast, 1, -2, 1,
              BZPopMin, "sorted-set",
              "Remove and return the member with the lowest score from one or more sorted sets, or "
              "block until one is available",
              "5.0.0", "@write @sortedset @fast @blocking"});
  r.Register({"bzpopmax", -3, kCmdWrite | kCmdNoScript | kCmdBlocking | kCmdFast, 1, -2, 1,
              BZPopMax, "sorted-set",
              "Remove and return the member with the highest score from one or more sorted sets, "
              "or block until one is available",
              "5.0.0", "@write @sortedset @fast @blocking"});
  r.Register(
      {"bzmpop", -5, kCmdWrite | kCmdBlocking | kCmdMovableKeys, 0, 0, 0, BZMPop, "sorted-set",
       "Remove and return members with scores in a sorted set or block until one is available",
       "7.0.0", "@write @sortedset @slow @blocking"});
  r.Register({"zrandmember", -2, kCmdReadOnly, 1, 1, 1, ZRandMember, "sorted-set",
              "Get one or multiple random elements from a sorted set", "6.2.0",
              "@read @sortedset @slow"});
  r.Register({"zscan", -3, kCmdReadOnly, 1, 1, 1, ZScan, "sorted-set",
              "Incrementally iterate sorted sets elements and associated scores", "2.8.0",
              "@read @sortedset @slow"});
}

}  // namespace kv
