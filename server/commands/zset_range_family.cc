// Sorted set ranges: ZRANGE (BYSCORE BYLEX REV LIMIT WITHSCORES), ZRANGESTORE, ZREVRANGE,
// ZRANGEBYSCORE, ZREVRANGEBYSCORE, ZRANGEBYLEX, ZREVRANGEBYLEX and ZREMRANGEBYRANK, -SCORE and
// -LEX, as Redis 7.0's t_zset.c (zrangeGenericCommand, zremrangeGenericCommand).

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>

#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/commands/lookup.h"
#include "server/commands/zset_access.h"
#include "server/commands/zset_args.h"
#include "server/errors.h"
#include "server/strings.h"
#include "storage/zset.h"

namespace kv {
namespace {

using IntBuf = char[ListPackValue::kIntBufSize];

// ---- ZREMRANGEBY* ----

enum class RangeType { kAuto, kRank, kScore, kLex };

void RemRangeGeneric(CommandContext& ctx, RangeType type) {
  const std::string_view key = ctx.args[1];
  int64_t start = 0, end = 0;
  ScoreRange range;
  LexRange lex;
  if (type == RangeType::kRank) {
    if (!ParseLong(ctx, ctx.args[2], &start) || !ParseLong(ctx, ctx.args[3], &end)) return;
  } else if (type == RangeType::kScore) {
    if (!ParseScoreRange(ctx.args[2], ctx.args[3], &range)) {
      return ctx.reply.Error(kNotFloatRange);
    }
  } else if (!ParseLexRange(ctx.args[2], ctx.args[3], &lex)) {
    return ctx.reply.Error(kNotLexRange);
  }
  ZSet* z = nullptr;
  if (!WriteZSet(ctx, key, &z)) return;
  if (z == nullptr) return ctx.reply.Integer(0);
  size_t deleted = 0;
  if (type == RangeType::kRank) {
    const auto llen = static_cast<int64_t>(z->size());
    if (start < 0) start = llen + start;
    if (end < 0) end = llen + end;
    if (start < 0) start = 0;
    if (start > end || start >= llen) return ctx.reply.Integer(0);
    if (end >= llen) end = llen - 1;
    deleted = z->DeleteRangeByRank(static_cast<size_t>(start), static_cast<size_t>(end));
  } else if (type == RangeType::kScore) {
    deleted = z->DeleteRangeByScore(range);
  } else {
    deleted = z->DeleteRangeByLex(lex);
  }
  const bool key_removed = DeleteIfEmpty(ctx, key, *z);
  if (deleted != 0) {
    static constexpr std::string_view kEvents[] = {"zremrangebyrank", "zremrangebyrank",
                                                   "zremrangebyscore", "zremrangebylex"};
    ctx.KeyModified(key);
    ctx.Notify(kNotifyZset, kEvents[static_cast<int>(type)], key);
    if (key_removed) ctx.Notify(kNotifyGeneric, "del", key);
  }
  ctx.CountChanges(deleted);
  ctx.reply.Integer(static_cast<int64_t>(deleted));
}

void ZRemRangeByRank(CommandContext& ctx) { RemRangeGeneric(ctx, RangeType::kRank); }
void ZRemRangeByScore(CommandContext& ctx) { RemRangeGeneric(ctx, RangeType::kScore); }
void ZRemRangeByLex(CommandContext& ctx) { RemRangeGeneric(ctx, RangeType::kLex); }

// ---- ZRANGE and friends ----

// Where a range's results go: the client (Redis's zrange_result_handler for clients) or a new
// sorted set (ZRANGESTORE's).
class RangeSink {
 public:
  RangeSink(CommandContext& ctx, bool withscores, std::string_view dst_key)
      : ctx_(ctx), withscores_(withscores), dst_key_(dst_key), store_(!dst_key.empty()) {}

  // The number of results (-1 when the range by score or lex does not know it in advance, which
  // only matters to ZRANGESTORE's choice of encoding).
  void Begin(int64_t length_hint, size_t count) {
    if (store_) {
      dst_ = std::make_unique<ZSet>(
          length_hint > static_cast<int64_t>(ctx_.server.config.zset_max_listpack_entries));
      return;
    }
    ctx_.reply.ArrayHeader(withscores_ && ctx_.reply.protocol() == 2 ? count * 2 : count);
  }
  void Emit(std::string_view member, double score) {
    if (store_) {
      int out;
      double ns;
      dst_->Add(score, member, 0, &out, &ns, ZSetLimits(ctx_));
      ++stored_;
      return;
    }
    if (withscores_ && ctx_.reply.protocol() > 2) ctx_.reply.ArrayHeader(2);
    ctx_.reply.Bulk(member);
    if (withscores_) ctx_.reply.Double(score);
  }
  // ZRANGESTORE's zrangeResultFinalizeStore.
  void Finish() {
    if (!store_) return;
    if (stored_ != 0) {
      StoreZSet(ctx_, dst_key_, std::move(dst_));
      ctx_.reply.Integer(static_cast<int64_t>(stored_));
      ctx_.Notify(kNotifyZset, "zrangestore", dst_key_);
      ctx_.CountChanges();
      return;
    }
    ctx_.reply.Integer(0);
    DeleteStoreDestination(ctx_, dst_key_);
  }

 private:
  CommandContext& ctx_;
  bool withscores_;
  std::string_view dst_key_;
  bool store_;
  std::unique_ptr<ZSet> dst_;
  size_t stored_ = 0;
};

// Emits `count` entries from `it` on, going backwards with `reverse`.
void EmitRun(RangeSink& sink, ZSet::Iterator it, size_t count, bool reverse) {
  IntBuf buf;
  for (size_t i = 0; i < count && it.valid(); ++i) {
    sink.Emit(it.member(buf), it.score());
    if (reverse) {
      it.Prev();
    } else {
      it.Next();
    }
  }
}

void RangeByRank(RangeSink& sink, const ZSet& z, int64_t start, int64_t end, bool reverse) {
  const auto llen = static_cast<int64_t>(z.size());
  if (start < 0) start = llen + start;
  if (end < 0) end = llen + end;
  if (start < 0) start = 0;
  if (start > end || start >= llen) {
    sink.Begin(0, 0);
    return sink.Finish();
  }
  if (end >= llen) end = llen - 1;
  const auto rangelen = static_cast<size_t>(end - start + 1);
  sink.Begin(static_cast<int64_t>(rangelen), rangelen);
  const auto first = static_cast<size_t>(reverse ? llen - 1 - start : start);
  EmitRun(sink, z.Seek(first), rangelen, reverse);
  sink.Finish();
}

// Where a range by score or lex starts and how many entries it yields: Redis's loops (first or
// last in range, `offset` steps without checks, then up to `limit` while in range), counted
// ahead because the reply's length comes first.
struct RangeRun {
  ZSet::Iterator start;
  size_t count = 0;
};

template <typename InRange>
RangeRun WalkRun(ZSet::Iterator it, int64_t offset, int64_t limit, bool reverse,
                 InRange&& in_range) {
  auto step = [&](ZSet::Iterator& i) {
    if (reverse) {
      i.Prev();
    } else {
      i.Next();
    }
  };
  // A negative offset walks off the end (Redis's `while (offset--)`).
  if (offset < 0) return {};
  while (it.valid() && offset-- > 0) step(it);
  RangeRun run{it, 0};
  for (; it.valid() && limit != 0 && in_range(it); step(it)) {
    ++run.count;
    if (limit > 0) --limit;
  }
  return run;
}

// The same run from ranks, for a big set: the entries in range are [lo, hi).
RangeRun RankRun(const ZSet& z, size_t lo, size_t hi, int64_t offset, int64_t limit, bool reverse) {
  if (offset < 0 || hi <= lo) return {};
  const size_t avail = hi - lo;
  if (static_cast<uint64_t>(offset) >= avail) return {};
  size_t count = avail - static_cast<size_t>(offset);
  if (limit >= 0) count = std::min(count, static_cast<size_t>(limit));
  const size_t first =
      reverse ? hi - 1 - static_cast<size_t>(offset) : lo + static_cast<size_t>(offset);
  return {z.Seek(first), count};
}

void RangeByScore(RangeSink& sink, const ZSet& z, const ScoreRange& range, int64_t offset,
                  int64_t limit, bool reverse) {
  RangeRun run;
  if (!(offset > 0 && static_cast<uint64_t>(offset) >= z.size())) {
    if (z.is_listpack()) {
      const ZSet::Iterator first = reverse ? z.LastInRange(range) : z.FirstInRange(range);
      run = WalkRun(first, offset, limit, reverse, [&](const ZSet::Iterator& it) {
        return reverse ? range.GteMin(it.score()) : range.LteMax(it.score());
      });
    } else if (z.FirstInRange(range).valid()) {
      const size_t lo = z.RankOfFirstInRange(range);
      const size_t hi = lo + z.CountInRange(range);
      run = RankRun(z, lo, hi, offset, limit, reverse);
    }
  }
  sink.Begin(-1, run.count);
  EmitRun(sink, run.start, run.count, reverse);
  sink.Finish();
}

void RangeByLex(RangeSink& sink, const ZSet& z, const LexRange& range, int64_t offset,
                int64_t limit, bool reverse) {
  RangeRun run;
  if (z.is_listpack()) {
    const ZSet::Iterator first = reverse ? z.LastInLexRange(range) : z.FirstInLexRange(range);
    run = WalkRun(first, offset, limit, reverse, [&](const ZSet::Iterator& it) {
      IntBuf buf;
      return reverse ? range.GteMin(it.member(buf)) : range.LteMax(it.member(buf));
    });
  } else if (z.FirstInLexRange(range).valid()) {
    const size_t lo = z.RankOfFirstInLexRange(range);
    const size_t hi = lo + z.CountInLexRange(range);
    run = RankRun(z, lo, hi, offset, limit, reverse);
  }
  sink.Begin(-1, run.count);
  EmitRun(sink, run.start, run.count, reverse);
  sink.Finish();
}

// Redis's zrangeGenericCommand: `first` is the source key's position; ZRANGESTORE passes its
// destination.
void RangeGeneric(CommandContext& ctx, size_t first, std::string_view dst_key, RangeType type,
                  bool forward_only, bool reverse_only) {
  const bool store = !dst_key.empty();
  const std::string_view key = ctx.args[first];
  size_t minidx = first + 1, maxidx = first + 2;
  bool withscores = false;
  int64_t offset = 0, limit = -1;
  bool reverse = reverse_only;
  bool direction_given = forward_only || reverse_only;
  for (size_t j = first + 3; j < ctx.args.size(); ++j) {
    const size_t leftargs = ctx.args.size() - j - 1;
    const std::string_view opt = ctx.args[j];
    if (!store && OptionIs(opt, "withscores")) {
      withscores = true;
    } else if (OptionIs(opt, "limit") && leftargs >= 2) {
      if (!ParseLong(ctx, ctx.args[j + 1], &offset) || !ParseLong(ctx, ctx.args[j + 2], &limit)) {
        return;
      }
      j += 2;
    } else if (!direction_given && OptionIs(opt, "rev")) {
      reverse = true;
      direction_given = true;
    } else if (type == RangeType::kAuto && OptionIs(opt, "bylex")) {
      type = RangeType::kLex;
    } else if (type == RangeType::kAuto && OptionIs(opt, "byscore")) {
      type = RangeType::kScore;
    } else {
      return ctx.reply.Error(errors::kSyntax);
    }
  }
  if (type == RangeType::kAuto) type = RangeType::kRank;
  if (limit != -1 && type == RangeType::kRank) {
    return ctx.reply.Error(
        "syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX");
  }
  if (withscores && type == RangeType::kLex) {
    return ctx.reply.Error("syntax error, WITHSCORES not supported in combination with BYLEX");
  }
  if (reverse && (type == RangeType::kScore || type == RangeType::kLex)) std::swap(minidx, maxidx);
  int64_t start = 0, end = 0;
  ScoreRange range;
  LexRange lex;
  if (type == RangeType::kRank) {
    if (!ParseLong(ctx, ctx.args[minidx], &start) || !ParseLong(ctx, ctx.args[maxidx], &end)) {
      return;
    }
  } else if (type == RangeType::kScore) {
    if (!ParseScoreRange(ctx.args[minidx], ctx.args[maxidx], &range)) {
      return ctx.reply.Error(kNotFloatRange);
    }
  } else if (!ParseLexRange(ctx.args[minidx], ctx.args[maxidx], &lex)) {
    return ctx.reply.Error(kNotLexRange);
  }

  ZSet* z = nullptr;
  if (!ReadZSet(ctx, key, &z)) return;
  RangeSink sink(ctx, withscores || store, dst_key);
  if (z == nullptr) {
    if (!store) return ctx.reply.ArrayHeader(0);
    sink.Begin(-1, 0);
    return sink.Finish();
  }
  switch (type) {
    case RangeType::kAuto:
    case RangeType::kRank:
      return RangeByRank(sink, *z, start, end, reverse);
    case RangeType::kScore:
      return RangeByScore(sink, *z, range, offset, limit, reverse);
    case RangeType::kLex:
      return RangeByLex(sink, *z, lex, offset, limit, reverse);
  }
}

void ZRange(CommandContext& ctx) { RangeGeneric(ctx, 1, {}, RangeType::kAuto, false, false); }
void ZRangeStore(CommandContext& ctx) {
  RangeGeneric(ctx, 2, ctx.args[1], RangeType::kAuto, false, false);
}
void ZRevRange(CommandContext& ctx) { RangeGeneric(ctx, 1, {}, RangeType::kRank, false, true); }
void ZRangeByScore(CommandContext& ctx) {
  RangeGeneric(ctx, 1, {}, RangeType::kScore, true, false);
}
void ZRevRangeByScore(CommandContext& ctx) {
  RangeGeneric(ctx, 1, {}, RangeType::kScore, false, true);
}
void ZRangeByLex(CommandContext& ctx) { RangeGeneric(ctx, 1, {}, RangeType::kLex, true, false); }
void ZRevRangeByLex(CommandContext& ctx) { RangeGeneric(ctx, 1, {}, RangeType::kLex, false, true); }

}  // namespace

void RegisterZSetRangeFamily(CommandRegistry& r) {
  r.Register({"zrange", -4, kCmdReadOnly, 1, 1, 1, ZRange, "sorted-set",
              "Return a range of members in a sorted set", "1.2.0", "@read @sortedset @slow"});
  r.Register({"zrangestore", -5, kCmdWrite | kCmdDenyOom, 1, 2, 1, ZRangeStore, "sorted-set",
              "Store a range of members from sorted set into another key", "6.2.0",
              "@write @sortedset @slow"});
  r.Register(
      {"zrevrange", -4, kCmdReadOnly, 1, 1, 1, ZRevRange, "sorted-set",
       "Return a range of members in a sorted set, by index, with scores ordered from high to low",
       "1.2.0", "@read @sortedset @slow"});
  r.Register({"zrangebyscore", -4, kCmdReadOnly, 1, 1, 1, ZRangeByScore, "sorted-set",
              "Return a range of members in a sorted set, by score", "1.0.5",
              "@read @sortedset @slow"});
  r.Register(
      {"zrevrangebyscore", -4, kCmdReadOnly, 1, 1, 1, ZRevRangeByScore, "sorted-set",
       "Return a range of members in a sorted set, by score, with scores ordered from high to low",
       "2.2.0", "@read @sortedset @slow"});
  r.Register({"zrangebylex", -4, kCmdReadOnly, 1, 1, 1, ZRangeByLex, "sorted-set",
              "Return a range of members in a sorted set, by lexicographical range", "2.8.9",
              "@read @sortedset @slow"});
  r.Register({"zrevrangebylex", -4, kCmdReadOnly, 1, 1, 1, ZRevRangeByLex, "sorted-set",
              "Return a range of members in a sorted set, by lexicographical range, ordered from "
              "higher to lower strings.",
              "2.8.9", "@read @sortedset @slow"});
  r.Register({"zremrangebyrank", 4, kCmdWrite, 1, 1, 1, ZRemRangeByRank, "sorted-set",
              "Remove all members in a sorted set within the given indexes", "2.0.0",
              "@write @sortedset @slow"});
  r.Register({"zremrangebyscore", 4, kCmdWrite, 1, 1, 1, ZRemRangeByScore, "sorted-set",
              "Remove all members in a sorted set within the given scores", "1.2.0",
              "@write @sortedset @slow"});
  r.Register({"zremrangebylex", 4, kCmdWrite, 1, 1, 1, ZRemRangeByLex, "sorted-set",
              "Remove all members in a sorted set between the given lexicographical range", "2.8.9",
              "@write @sortedset @slow"});
}

}  // namespace kv
