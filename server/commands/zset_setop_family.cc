// Sorted set operations: ZUNION, ZINTER, ZDIFF, ZUNIONSTORE, ZINTERSTORE, ZDIFFSTORE (WEIGHTS,
// AGGREGATE SUM|MIN|MAX, plain sets as inputs) and ZINTERCARD (LIMIT), as Redis 7.0's t_zset.c
// (zunionInterDiffGenericCommand).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "protocol/number.h"
#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/commands/lookup.h"
#include "server/commands/zset_access.h"
#include "server/commands/zset_args.h"
#include "server/errors.h"
#include "server/strings.h"
#include "storage/set.h"
#include "storage/zset.h"

namespace kv {
namespace {

using IntBuf = char[ListPackValue::kIntBufSize];

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

}  // namespace

void RegisterZSetSetOpFamily(CommandRegistry& r) {
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
}

}  // namespace kv
