// Sorted sets: ZADD, ZINCRBY, ZREM, ZCARD, ZCOUNT, ZLEXCOUNT, ZSCORE, ZMSCORE, ZRANK, ZREVRANK,
// ZRANGE (BYSCORE BYLEX REV LIMIT WITHSCORES), ZRANGESTORE, ZREVRANGE, ZRANGEBYSCORE,
// ZREVRANGEBYSCORE, ZRANGEBYLEX, ZREVRANGEBYLEX, ZREMRANGEBYRANK/SCORE/LEX, ZPOPMIN, ZPOPMAX,
// ZMPOP, BZPOPMIN, BZPOPMAX, BZMPOP, ZUNION, ZINTER, ZDIFF and their STORE forms, ZINTERCARD,
// ZRANDMEMBER and ZSCAN, as Redis 7.0's t_zset.c.

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "protocol/number.h"
#include "server/command_registry.h"
#include "server/commands/block_timeout.h"
#include "server/commands/families.h"
#include "server/commands/lookup.h"
#include "server/commands/reply_budget.h"
#include "server/commands/scan_options.h"
#include "server/commands/zset_access.h"
#include "server/errors.h"
#include "server/strings.h"
#include "storage/set.h"
#include "storage/zset.h"

namespace kv {
namespace {

using IntBuf = char[ListPackValue::kIntBufSize];

// ZRANDMEMBER's random numbers: Redis's are not reproducible either.
uint64_t NextRandom() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  return rng();
}

// ---- Arguments ----

// Redis's getLongFromObjectOrReply (long is 64 bits): `msg` replaces both of its errors.
bool ParseLong(CommandContext& ctx, std::string_view arg, int64_t* out, std::string_view msg = {}) {
  const std::optional<int64_t> v = ParseInt64(arg);
  if (!v) {
    ctx.reply.Error(msg.empty() ? errors::kNotInteger : msg);
    return false;
  }
  *out = *v;
  return true;
}

// Redis's getRangeLongFromObjectOrReply.
bool ParseRangeLong(CommandContext& ctx, std::string_view arg, int64_t min, int64_t max,
                    int64_t* out, std::string_view msg = {}) {
  if (!ParseLong(ctx, arg, out, msg)) return false;
  if (*out < min || *out > max) {
    if (!msg.empty()) {
      ctx.reply.Error(msg);
    } else {
      ctx.reply.Error("value is out of range, value must between " + std::to_string(min) + " and " +
                      std::to_string(max));
    }
    return false;
  }
  return true;
}

// Redis's getPositiveLongFromObjectOrReply.
bool ParsePositiveLong(CommandContext& ctx, std::string_view arg, int64_t* out,
                       std::string_view msg = {}) {
  return ParseRangeLong(ctx, arg, 0, INT64_MAX, out,
                        msg.empty() ? "value is out of range, must be positive" : msg);
}

// Redis reads range bounds as C strings: a NUL byte ends them.
std::string CString(std::string_view arg) { return std::string(arg.substr(0, arg.find('\0'))); }

// One end of zslParseRange: "(" for exclusive, then strtod, which must use the whole text (a
// leading space is fine, "" is 0, overflow is inf) and not be NaN.
bool ParseScoreBound(std::string_view arg, double* value, bool* exclusive) {
  const std::string text = CString(arg);
  const char* p = text.c_str();
  *exclusive = p[0] == '(';
  if (*exclusive) ++p;
  char* end = nullptr;
  *value = std::strtod(p, &end);
  return *end == '\0' && !std::isnan(*value);
}

bool ParseScoreRange(std::string_view min, std::string_view max, ScoreRange* range) {
  return ParseScoreBound(min, &range->min, &range->minex) &&
         ParseScoreBound(max, &range->max, &range->maxex);
}

// zslParseLexRangeItem: "+" and "-" alone (up to a NUL), or "(" / "[" and the rest of the bytes.
bool ParseLexBound(std::string_view arg, std::string_view* value, LexRange::Bound* bound,
                   bool* exclusive) {
  if (arg.empty()) return false;
  switch (arg[0]) {
    case '+':
    case '-':
      if (arg.size() > 1 && arg[1] != '\0') return false;
      *exclusive = true;
      *bound = arg[0] == '+' ? LexRange::Bound::kMax : LexRange::Bound::kMin;
      return true;
    case '(':
    case '[':
      *exclusive = arg[0] == '(';
      *bound = LexRange::Bound::kValue;
      *value = arg.substr(1);
      return true;
    default:
      return false;
  }
}

bool ParseLexRange(std::string_view min, std::string_view max, LexRange* range) {
  return ParseLexBound(min, &range->min, &range->min_bound, &range->minex) &&
         ParseLexBound(max, &range->max, &range->max_bound, &range->maxex);
}

constexpr std::string_view kNotFloatRange = "min or max is not a float";
constexpr std::string_view kNotLexRange = "min or max not valid string range item";

// ---- Lookups ----

bool ReadZSet(CommandContext& ctx, std::string_view key, ZSet** out) {
  return ReadAggregate<ZSet>(ctx, key, out);
}

bool WriteZSet(CommandContext& ctx, std::string_view key, ZSet** out) {
  return WriteAggregate<ZSet>(ctx, key, out);
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

// ---- ZUNION, ZINTER, ZDIFF and their STORE forms, ZINTERCARD ----

enum class SetOp { kUnion, kInter, kDiff };
enum class Aggregate { kSum, kMin, kMax };

// One input: a sorted set, a plain set (whose members score 1), or nothing.
struct OpSource {
  const ZSet* zset = nullptr;
  const Set* set = nullptr;
  double weight = 1.0;
  size_t size() const { return zset != nullptr ? zset->size() : set != nullptr ? set->size() : 0; }
  // The same key given twice (an intersection or difference of a set with itself).
  bool SameAs(const OpSource& other) const {
    return zset != nullptr ? zset == other.zset : set != nullptr && set == other.set;
  }
};

// Redis's zunionInterAggregate.
inline void AggregateInto(double* target, double val, Aggregate aggregate) {
  switch (aggregate) {
    case Aggregate::kSum:
      *target = *target + val;
      // +inf + -inf is NaN: Redis makes it 0.
      if (std::isnan(*target)) *target = 0.0;
      break;
    case Aggregate::kMin:
      *target = val < *target ? val : *target;
      break;
    case Aggregate::kMax:
      *target = val > *target ? val : *target;
      break;
  }
}

// Visits a source's members as Redis's zuiNext does: a sorted set's from the highest score down,
// a set's in its own order.
template <typename Fn>
void ForEachDescending(const OpSource& src, Fn&& fn) {
  if (src.set != nullptr) {
    src.set->ForEach([&](std::string_view member) { fn(member, 1.0); });
    return;
  }
  if (src.zset == nullptr || src.zset->size() == 0) return;
  IntBuf buf;
  for (ZSet::Iterator it = src.zset->Seek(src.zset->size() - 1); it.valid(); it.Prev()) {
    fn(it.member(buf), it.score());
  }
}

bool FindIn(const OpSource& src, std::string_view member, double* score) {
  if (src.set != nullptr) {
    *score = 1.0;
    return src.set->Contains(member);
  }
  return src.zset != nullptr && src.zset->Score(member, score);
}

using ScoredEntries = std::vector<std::pair<double, std::string>>;

void SortEntries(ScoredEntries& entries) {
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    return CompareScored(a.first, a.second, b.first, b.second) < 0;
  });
}

void SetOpGeneric(CommandContext& ctx, std::string_view dst_key, size_t numkeys_idx, SetOp op,
                  bool cardinality_only) {
  int64_t setnum;
  if (!ParseLong(ctx, ctx.args[numkeys_idx], &setnum)) return;
  if (setnum < 1) {
    return ctx.reply.Error("at least 1 input key is needed for '" + ToLower(ctx.args[0]) +
                           "' command");
  }
  if (static_cast<uint64_t>(setnum) > ctx.args.size() - (numkeys_idx + 1)) {
    return ctx.reply.Error(errors::kSyntax);
  }
  std::vector<OpSource> src(static_cast<size_t>(setnum));
  size_t j = numkeys_idx + 1;
  for (size_t i = 0; i < src.size(); ++i, ++j) {
    const Value* v = LookupRead(ctx, ctx.args[j]);
    if (v == nullptr) continue;
    if (v->type() == ValueType::kZSet) {
      src[i].zset = &v->As<ZSet>();
    } else if (v->type() == ValueType::kSet) {
      src[i].set = &v->As<Set>();
    } else {
      return ctx.reply.Error(errors::kWrongType);
    }
  }
  Aggregate aggregate = Aggregate::kSum;
  bool withscores = false;
  int64_t limit = 0;
  while (j < ctx.args.size()) {
    const size_t remaining = ctx.args.size() - j;
    const std::string_view opt = ctx.args[j];
    if (op != SetOp::kDiff && !cardinality_only && remaining >= src.size() + 1 &&
        OptionIs(opt, "weights")) {
      ++j;
      for (size_t i = 0; i < src.size(); ++i, ++j) {
        const std::optional<double> w = ParseDouble(ctx.args[j]);
        if (!w) return ctx.reply.Error("weight value is not a float");
        src[i].weight = *w;
      }
    } else if (op != SetOp::kDiff && !cardinality_only && remaining >= 2 &&
               OptionIs(opt, "aggregate")) {
      const std::string_view a = ctx.args[j + 1];
      if (OptionIs(a, "sum")) {
        aggregate = Aggregate::kSum;
      } else if (OptionIs(a, "min")) {
        aggregate = Aggregate::kMin;
      } else if (OptionIs(a, "max")) {
        aggregate = Aggregate::kMax;
      } else {
        return ctx.reply.Error(errors::kSyntax);
      }
      j += 2;
    } else if (remaining >= 1 && dst_key.empty() && !cardinality_only &&
               OptionIs(opt, "withscores")) {
      ++j;
      withscores = true;
    } else if (cardinality_only && remaining >= 2 && OptionIs(opt, "limit")) {
      if (!ParsePositiveLong(ctx, ctx.args[j + 1], &limit, "LIMIT can't be negative")) return;
      j += 2;
    } else {
      return ctx.reply.Error(errors::kSyntax);
    }
  }
  // Smallest first (a stable sort, as glibc's qsort is for these small arrays).
  if (op != SetOp::kDiff) {
    std::stable_sort(src.begin(), src.end(),
                     [](const OpSource& a, const OpSource& b) { return a.size() < b.size(); });
  }

  ScoredEntries result;
  uint64_t cardinality = 0;
  if (op == SetOp::kInter) {
    if (src[0].size() > 0) {
      ForEachDescending(src[0], [&](std::string_view member, double s) {
        if (cardinality_only && limit != 0 && cardinality >= static_cast<uint64_t>(limit)) return;
        double score = src[0].weight * s;
        if (std::isnan(score)) score = 0;
        size_t k = 1;
        for (; k < src.size(); ++k) {
          double value;
          if (src[k].SameAs(src[0])) {
            value = s * src[k].weight;
          } else if (FindIn(src[k], member, &value)) {
            value *= src[k].weight;
          } else {
            break;
          }
          AggregateInto(&score, value, aggregate);
        }
        if (k != src.size()) return;
        if (cardinality_only) {
          ++cardinality;
        } else {
          result.emplace_back(score, std::string(member));
        }
      });
    }
  } else if (op == SetOp::kUnion) {
    absl::flat_hash_map<std::string, double> accumulator;
    if (!src.empty()) accumulator.reserve(src.back().size());
    for (const OpSource& s : src) {
      ForEachDescending(s, [&](std::string_view member, double sc) {
        double score = s.weight * sc;
        if (std::isnan(score)) score = 0;
        auto [it, inserted] = accumulator.try_emplace(std::string(member), score);
        if (!inserted) AggregateInto(&it->second, score, aggregate);
      });
    }
    result.reserve(accumulator.size());
    for (auto& [member, score] : accumulator) result.emplace_back(score, member);
  } else {
    // ZDIFF: the first set's members found in none of the others, with their scores.
    ForEachDescending(src[0], [&](std::string_view member, double s) {
      for (size_t k = 1; k < src.size(); ++k) {
        double unused;
        if (src[k].SameAs(src[0]) || FindIn(src[k], member, &unused)) return;
      }
      result.emplace_back(s, std::string(member));
    });
  }

  if (cardinality_only) return ctx.reply.Integer(static_cast<int64_t>(cardinality));
  SortEntries(result);
  if (!dst_key.empty()) {
    if (result.empty()) {
      ctx.reply.Integer(0);
      DeleteStoreDestination(ctx, dst_key);
      return;
    }
    auto dst = std::make_unique<ZSet>(true);
    size_t maxelelen = 0, totelelen = 0;
    for (const auto& [score, member] : result) {
      dst->AddNew(score, member);
      maxelelen = std::max(maxelelen, member.size());
      totelelen += member.size();
    }
    dst->ConvertToListPackIfNeeded(maxelelen, totelelen, ZSetLimits(ctx));
    const size_t n = dst->size();
    StoreZSet(ctx, dst_key, std::move(dst));
    ctx.reply.Integer(static_cast<int64_t>(n));
    static constexpr std::string_view kEvents[] = {"zunionstore", "zinterstore", "zdiffstore"};
    ctx.Notify(kNotifyZset, kEvents[static_cast<int>(op)], dst_key);
    ctx.CountChanges();
    return;
  }
  ctx.reply.ArrayHeader(withscores && ctx.reply.protocol() == 2 ? result.size() * 2
                                                                : result.size());
  for (const auto& [score, member] : result) {
    if (withscores && ctx.reply.protocol() > 2) ctx.reply.ArrayHeader(2);
    ctx.reply.Bulk(member);
    if (withscores) ctx.reply.Double(score);
  }
}

void ZUnionStore(CommandContext& ctx) { SetOpGeneric(ctx, ctx.args[1], 2, SetOp::kUnion, false); }
void ZInterStore(CommandContext& ctx) { SetOpGeneric(ctx, ctx.args[1], 2, SetOp::kInter, false); }
void ZDiffStore(CommandContext& ctx) { SetOpGeneric(ctx, ctx.args[1], 2, SetOp::kDiff, false); }
void ZUnion(CommandContext& ctx) { SetOpGeneric(ctx, {}, 1, SetOp::kUnion, false); }
void ZInter(CommandContext& ctx) { SetOpGeneric(ctx, {}, 1, SetOp::kInter, false); }
void ZInterCard(CommandContext& ctx) { SetOpGeneric(ctx, {}, 1, SetOp::kInter, true); }
void ZDiff(CommandContext& ctx) { SetOpGeneric(ctx, {}, 1, SetOp::kDiff, false); }

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
  r.Register({"zunion", -3, kCmdReadOnly | kCmdMovableKeys, 0, 0, 0, ZUnion, "sorted-set",
              "Add multiple sorted sets", "6.2.0", "@read @sortedset @slow"});
  r.Register({"zinter", -3, kCmdReadOnly | kCmdMovableKeys, 0, 0, 0, ZInter, "sorted-set",
              "Intersect multiple sorted sets", "6.2.0", "@read @sortedset @slow"});
  r.Register({"zdiff", -3, kCmdReadOnly | kCmdMovableKeys, 0, 0, 0, ZDiff, "sorted-set",
              "Subtract multiple sorted sets", "6.2.0", "@read @sortedset @slow"});
  r.Register({"zunionstore", -4, kCmdWrite | kCmdDenyOom | kCmdMovableKeys, 1, 1, 1, ZUnionStore,
              "sorted-set",
              "Add multiple sorted sets and store the resulting sorted set in a new key", "2.0.0",
              "@write @sortedset @slow"});
  r.Register({"zinterstore", -4, kCmdWrite | kCmdDenyOom | kCmdMovableKeys, 1, 1, 1, ZInterStore,
              "sorted-set",
              "Intersect multiple sorted sets and store the resulting sorted set in a new key",
              "2.0.0", "@write @sortedset @slow"});
  r.Register({"zdiffstore", -4, kCmdWrite | kCmdDenyOom | kCmdMovableKeys, 1, 1, 1, ZDiffStore,
              "sorted-set",
              "Subtract multiple sorted sets and store the resulting sorted set in a new key",
              "6.2.0", "@write @sortedset @slow"});
  r.Register({"zintercard", -3, kCmdReadOnly | kCmdMovableKeys, 0, 0, 0, ZInterCard, "sorted-set",
              "Intersect multiple sorted sets and return the cardinality of the result", "7.0.0",
              "@read @sortedset @slow"});
  r.Register({"zrandmember", -2, kCmdReadOnly, 1, 1, 1, ZRandMember, "sorted-set",
              "Get one or multiple random elements from a sorted set", "6.2.0",
              "@read @sortedset @slow"});
  r.Register({"zscan", -3, kCmdReadOnly, 1, 1, 1, ZScan, "sorted-set",
              "Incrementally iterate sorted sets elements and associated scores", "2.8.0",
              "@read @sortedset @slow"});
}

}  // namespace kv
