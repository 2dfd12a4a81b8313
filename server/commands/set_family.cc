// Sets: SADD, SREM, SMEMBERS, SISMEMBER, SMISMEMBER, SCARD, SPOP, SRANDMEMBER, SMOVE, SINTER,
// SINTERCARD, SINTERSTORE, SUNION, SUNIONSTORE, SDIFF, SDIFFSTORE, SSCAN; as Redis 7.0's t_set.c.
//
// Replies that Redis builds from a set it fills on the way (SUNION, SDIFF, SPOP of the whole set)
// come in that set's order: ascending when it ended as an intset (at most
// set-max-intset-entries integers), else the order of Redis's hash table, which no client can
// rely on; kvserver answers those in ascending order whenever Redis's would be, and in its own
// table's order otherwise.

#include <algorithm>
#include <climits>
#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "protocol/number.h"
#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/commands/lookup.h"
#include "server/commands/reply_budget.h"
#include "server/commands/scan_options.h"
#include "server/errors.h"
#include "server/strings.h"
#include "storage/key_hash.h"
#include "storage/set.h"

namespace kv {
namespace {

constexpr std::string_view kMustBePositive = "value is out of range, must be positive";
size_t MaxIntSetEntries(const CommandContext& ctx) {
  const int64_t v = ctx.server.config.set_max_intset_entries;
  return v < 0 ? 0 : std::min(static_cast<size_t>(v), Set::kIntSetEntriesCap);
}

auto RandomFn(CommandContext& ctx) {
  return [&random = ctx.server.random] { return random.Next(); };
}

void BulkInt(CommandContext& ctx, int64_t v) {
  IntText text;
  ctx.reply.Bulk(text.Format(v));
}

// The set at `key` for a write, as lookupKeyWrite (counting nothing); nullptr when missing.
// Returns false after replying WRONGTYPE.
bool FindSetForWrite(CommandContext& ctx, std::string_view key, Value** value, Set** set) {
  *value = ctx.db().Find(key, ctx.now_ms);
  *set = nullptr;
  if (*value == nullptr) return true;
  if ((*value)->type() != ValueType::kSet) {
    ctx.reply.Error(errors::kWrongType);
    return false;
  }
  *set = &(*value)->As<Set>();
  return true;
}

// Looks up every key for reading, as the multi-key commands do: a missing key is a null entry;
// the first key of another type replies WRONGTYPE (false).
bool ReadSets(CommandContext& ctx, std::span<const std::string_view> keys,
              std::vector<const Set*>* sets) {
  sets->reserve(keys.size());
  for (std::string_view key : keys) {
    Set* s = nullptr;
    if (!ReadAggregate<Set>(ctx, key, &s)) return false;
    sets->push_back(s);
  }
  return true;
}

// A *STORE's empty result: the destination goes, with its "del" event.
void DeleteDestination(CommandContext& ctx, std::string_view key) {
  if (!ctx.db().Delete(key, ctx.now_ms)) return;
  ctx.CountChanges();
  ctx.KeyModified(key);
  ctx.Notify(kNotifyGeneric, "del", key);
}

// Stores `result` at `key` (Redis's setKey: any old value and its TTL go, the key is signalled)
// with the command's `event` when it has members, else deletes the key; replies the size, as
// every *STORE does.
void StoreResult(CommandContext& ctx, std::string_view key, std::unique_ptr<Set> result,
                 std::string_view event) {
  const size_t n = result->size();
  if (n > 0) {
    DetachedValue value;
    value.aggregate = std::move(result);
    ctx.db().Put(key, std::move(value), kNoExpiry);
    ctx.KeyModified(key);
    ctx.reply.Integer(static_cast<int64_t>(n));
    ctx.Notify(kNotifySet, event, key);
    ctx.CountChanges();
    return;
  }
  ctx.reply.Integer(0);
  DeleteDestination(ctx, key);
}

// A set reply of integers, in the given order.
void ReplyInts(CommandContext& ctx, const std::vector<int64_t>& values) {
  ctx.reply.SetHeader(values.size());
  for (int64_t v : values) BulkInt(ctx, v);
}

// A set reply of the members Redis would have gathered in a fresh set (which starts as an
// intset): ascending when they are at most set-max-intset-entries integers, else as given.
void ReplyGathered(CommandContext& ctx, const std::vector<std::string_view>& members) {
  if (members.size() <= MaxIntSetEntries(ctx)) {
    std::vector<int64_t> ints;
    ints.reserve(members.size());
    for (std::string_view m : members) {
      int64_t v;
      if (!Set::IsInteger(m, &v)) break;
      ints.push_back(v);
    }
    if (ints.size() == members.size()) {
      std::sort(ints.begin(), ints.end());
      return ReplyInts(ctx, ints);
    }
  }
  ctx.reply.SetHeader(members.size());
  for (std::string_view m : members) ctx.reply.Bulk(m);
}

// The reply of SUNION over `sets` (null entries are missing keys).
void ReplyUnion(CommandContext& ctx, std::span<const Set* const> sets) {
  size_t total = 0;
  bool all_intsets = true;
  for (const Set* s : sets) {
    if (s == nullptr) continue;
    total += s->size();
    all_intsets = all_intsets && s->is_intset();
  }
  if (all_intsets) {
    std::vector<int64_t> ints;
    ints.reserve(total);
    size_t sources = 0;
    for (const Set* s : sets) {
      if (s == nullptr) continue;
      ++sources;
      ints.insert(ints.end(), s->intset().begin(), s->intset().end());
    }
    if (sources > 1) {
      std::sort(ints.begin(), ints.end());
      ints.erase(std::unique(ints.begin(), ints.end()), ints.end());
    }
    return ReplyInts(ctx, ints);
  }
  // Views of the hash tables' members, which stay put while the command runs, and digits of the
  // intsets' members in blocks that never move.
  absl::flat_hash_set<std::string_view, KeyHash, KeyEq> seen;
  seen.reserve(total);
  std::deque<IntText> digits;
  std::vector<std::string_view> members;
  members.reserve(total);
  for (const Set* s : sets) {
    if (s == nullptr) continue;
    if (s->is_table()) {
      for (std::string_view m : *s->table()) {
        if (seen.insert(m).second) members.push_back(m);
      }
      continue;
    }
    for (int64_t v : s->intset()) {
      IntText& text = digits.emplace_back();
      const std::string_view m = text.Format(v);
      if (seen.insert(m).second) {
        members.push_back(m);
      } else {
        digits.pop_back();
      }
    }
  }
  ReplyGathered(ctx, members);
}

// ---- SADD, SREM, SMOVE ----

void SAdd(CommandContext& ctx) {
  const std::string_view key = ctx.args[1];
  Set* set;
  if (!WriteAggregate<Set>(ctx, key, &set)) return;
  if (set == nullptr) set = &AddAggregate(ctx, key, Set::ForMember(ctx.args[2]));
  const size_t max = MaxIntSetEntries(ctx);
  int64_t added = 0;
  for (size_t i = 2; i < ctx.args.size(); ++i) added += set->Add(ctx.args[i], max);
  if (added != 0) {
    ctx.KeyModified(key);
    ctx.Notify(kNotifySet, "sadd", key);
  }
  ctx.CountChanges(static_cast<uint64_t>(added));
  ctx.reply.Integer(added);
}

void SRem(CommandContext& ctx) {
  const std::string_view key = ctx.args[1];
  Set* set;
  if (!WriteAggregate<Set>(ctx, key, &set)) return;
  int64_t removed = 0;
  bool key_removed = false;
  if (set != nullptr) {
    for (size_t i = 2; i < ctx.args.size(); ++i) {
      if (!set->Remove(ctx.args[i])) continue;
      ++removed;
      if ((key_removed = DeleteIfEmpty(ctx, key, *set))) break;
    }
  }
  if (removed != 0) {
    ctx.KeyModified(key);
    ctx.Notify(kNotifySet, "srem", key);
    if (key_removed) ctx.Notify(kNotifyGeneric, "del", key);
  }
  ctx.CountChanges(static_cast<uint64_t>(removed));
  ctx.reply.Integer(removed);
}

void SMove(CommandContext& ctx) {
  const std::string_view src_key = ctx.args[1], dst_key = ctx.args[2], member = ctx.args[3];
  Db& db = ctx.db();
  Value* src = db.Find(src_key, ctx.now_ms);
  Value* dst = db.Find(dst_key, ctx.now_ms);
  // A missing source is 0 before any type check.
  if (src == nullptr) return ctx.reply.Integer(0);
  if (src->type() != ValueType::kSet || (dst != nullptr && dst->type() != ValueType::kSet)) {
    return ctx.reply.Error(errors::kWrongType);
  }
  Set& from = src->As<Set>();
  if (src == dst) return ctx.reply.Integer(from.Contains(member) ? 1 : 0);
  if (!from.Remove(member)) return ctx.reply.Integer(0);
  ctx.Notify(kNotifySet, "srem", src_key);
  if (DeleteIfEmpty(ctx, src_key, from)) ctx.Notify(kNotifyGeneric, "del", src_key);
  Set* to = dst != nullptr ? &dst->As<Set>() : &AddAggregate(ctx, dst_key, Set::ForMember(member));
  ctx.KeyModified(src_key);
  ctx.CountChanges();
  if (to->Add(member, MaxIntSetEntries(ctx))) {
    ctx.CountChanges();
    ctx.KeyModified(dst_key);
    ctx.Notify(kNotifySet, "sadd", dst_key);
  }
  ctx.reply.Integer(1);
}

// ---- SISMEMBER, SMISMEMBER, SCARD ----

void SIsMember(CommandContext& ctx) {
  Set* set;
  if (!ReadAggregate<Set>(ctx, ctx.args[1], &set)) return;
  ctx.reply.Integer(set != nullptr && set->Contains(ctx.args[2]) ? 1 : 0);
}

void SMIsMember(CommandContext& ctx) {
  Set* set;
  if (!ReadAggregate<Set>(ctx, ctx.args[1], &set)) return;
  ctx.reply.ArrayHeader(ctx.args.size() - 2);
  for (size_t i = 2; i < ctx.args.size(); ++i) {
    ctx.reply.Integer(set != nullptr && set->Contains(ctx.args[i]) ? 1 : 0);
  }
}

void SCard(CommandContext& ctx) {
  Set* set;
  if (!ReadAggregate<Set>(ctx, ctx.args[1], &set)) return;
  ctx.reply.Integer(set == nullptr ? 0 : static_cast<int64_t>(set->size()));
}

// ---- SPOP, SRANDMEMBER ----

// Redis's SPOP_MOVE_STRATEGY_MUL and SRANDMEMBER_SUB_STRATEGY_MUL.
constexpr uint64_t kSpopMoveStrategyMul = 5;
constexpr uint64_t kSrandmemberSubStrategyMul = 3;

void SPopWithCount(CommandContext& ctx) {
  const std::string_view key = ctx.args[1];
  auto n = ParseInt64(ctx.args[2]);
  if (!n || *n < 0) return ctx.reply.Error(kMustBePositive);
  const auto count = static_cast<uint64_t>(*n);
  Value* value;
  Set* set;
  if (!FindSetForWrite(ctx, key, &value, &set)) return;
  if (set == nullptr || count == 0) return ctx.reply.SetHeader(0);
  const uint64_t size = set->size();
  ctx.Notify(kNotifySet, "spop", key);
  ctx.CountChanges(std::min(count, size));

  // The whole set: as SUNION of it, then the key goes.
  if (count >= size) {
    // Redis replies through SUNION's code, whose read lookup counts a keyspace hit.
    ++ctx.server.stats.keyspace_hits;
    const Set* one[] = {set};
    ReplyUnion(ctx, one);
    ctx.db().Delete(key, ctx.now_ms);
    ctx.Notify(kNotifyGeneric, "del", key);
    ctx.KeyModified(key);
    if (ctx.Propagating()) ctx.PropagateAs({"DEL", std::string(key)});
    return;
  }

  // Each member popped goes to the AOF as an SREM (wrapped in MULTI/EXEC), never the SPOP.
  const bool propagating = ctx.Propagating();
  ctx.PreventPropagation();
  const auto srem = [&](std::string_view m) {
    if (propagating) ctx.AlsoPropagate({"SREM", std::string(key), std::string(m)});
  };
  ctx.reply.SetHeader(count);
  const uint64_t remaining = size - count;
  auto random = RandomFn(ctx);
  if (remaining * kSpopMoveStrategyMul > count) {
    // Few to pop: pop them one by one.
    for (uint64_t i = 0; i < count; ++i) {
      set->PopRandom(random, [&](std::string_view m) {
        ctx.reply.Bulk(m);
        srem(m);
      });
    }
    ctx.KeyModified(key);
    return;
  }
  // Most of the set goes: move the members that stay into a new set (made as SADD would make it,
  // so its encoding is Redis's), reply what is left of the old one, and store the new one.
  const size_t max = MaxIntSetEntries(ctx);
  std::unique_ptr<Set> kept;
  for (uint64_t i = 0; i < remaining; ++i) {
    set->PopRandom(random, [&](std::string_view m) {
      if (kept == nullptr) kept = Set::ForMember(m);
      kept->Add(m, max);
    });
  }
  set->ForEach([&](std::string_view m) {
    ctx.reply.Bulk(m);
    srem(m);
  });
  // Redis's dbOverwrite: the key keeps its TTL and access data; the old set goes to the lazy
  // freer under lazyfree-lazy-server-del.
  DetachedValue replacement;
  replacement.aggregate = std::move(kept);
  replacement.lru = value->lru();
  Db& db = ctx.db();
  db.Put(key, std::move(replacement), db.GetExpire(key));
  ctx.KeyModified(key);
}

void SPop(CommandContext& ctx) {
  if (ctx.args.size() == 3) return SPopWithCount(ctx);
  if (ctx.args.size() > 3) return ctx.reply.Error(errors::kSyntax);
  const std::string_view key = ctx.args[1];
  Set* set;
  if (!WriteAggregate<Set>(ctx, key, &set)) return;
  if (set == nullptr) return ctx.reply.Null();
  set->PopRandom(RandomFn(ctx), [&](std::string_view m) {
    ctx.reply.Bulk(m);
    if (ctx.Propagating()) ctx.PropagateAs({"SREM", std::string(key), std::string(m)});
  });
  ctx.Notify(kNotifySet, "spop", key);
  if (DeleteIfEmpty(ctx, key, *set)) ctx.Notify(kNotifyGeneric, "del", key);
  ctx.KeyModified(key);
  ctx.CountChanges();
}

// SRANDMEMBER with a negative count: `count` members with repetition, bounded by ReplyBudget
// (a count of -(2^63-1) cannot be served; Redis would grow until out of memory).
void ReplyRandomWithRepetition(CommandContext& ctx, const Set& set, uint64_t count) {
  ReplyBudget budget(ctx);
  auto random = RandomFn(ctx);
  IntText text;
  ctx.reply.ArrayHeader(count);
  for (uint64_t i = 0; i < count; ++i) {
    ctx.reply.Bulk(set.RandomMember(random, text));
    if (!budget.Continue()) return;
  }
}

void SRandMemberWithCount(CommandContext& ctx) {
  auto n = ParseInt64(ctx.args[2]);
  if (!n) return ctx.reply.Error(errors::kNotInteger);
  if (*n == LLONG_MIN) {
    return ctx.reply.Error(
        "value is out of range, value must between -9223372036854775807 and "
        "9223372036854775807");
  }
  Set* set;
  if (!ReadAggregate<Set>(ctx, ctx.args[1], &set)) return;
  if (set == nullptr || *n == 0) return ctx.reply.ArrayHeader(0);
  const bool unique = *n > 0;
  const uint64_t count = unique ? static_cast<uint64_t>(*n) : static_cast<uint64_t>(-*n);
  if (!unique || count == 1) return ReplyRandomWithRepetition(ctx, *set, count);

  const uint64_t size = set->size();
  if (count >= size) {
    ctx.reply.ArrayHeader(size);
    set->ForEach([&](std::string_view m) { ctx.reply.Bulk(m); });
    return;
  }
  auto random = RandomFn(ctx);
  ctx.reply.ArrayHeader(count);
  if (set->is_intset()) {
    const IntSet& ints = set->intset();
    if (count * kSrandmemberSubStrategyMul > size) {
      // Close to the whole set: a partial shuffle of all of it.
      std::vector<int64_t> all(ints.begin(), ints.end());
      for (uint64_t i = 0; i < count; ++i) std::swap(all[i], all[i + random() % (size - i)]);
      for (uint64_t i = 0; i < count; ++i) BulkInt(ctx, all[i]);
    } else {
      absl::flat_hash_set<int64_t> picked;
      picked.reserve(count);
      while (picked.size() < count) picked.insert(ints.Random(random()));
      for (int64_t v : picked) BulkInt(ctx, v);
    }
    return;
  }
  const StringHashSet& table = *set->table();
  if (count * kSrandmemberSubStrategyMul > size) {
    std::vector<std::string_view> all(table.begin(), table.end());
    for (uint64_t i = 0; i < count; ++i) std::swap(all[i], all[i + random() % (size - i)]);
    for (uint64_t i = 0; i < count; ++i) ctx.reply.Bulk(all[i]);
  } else {
    absl::flat_hash_set<size_t> picked;
    picked.reserve(count);
    while (picked.size() < count) picked.insert(table.RandomSlot(random));
    for (size_t slot : picked) ctx.reply.Bulk(table.at(slot));
  }
}

void SRandMember(CommandContext& ctx) {
  if (ctx.args.size() == 3) return SRandMemberWithCount(ctx);
  if (ctx.args.size() > 3) return ctx.reply.Error(errors::kSyntax);
  Set* set;
  if (!ReadAggregate<Set>(ctx, ctx.args[1], &set)) return;
  if (set == nullptr) return ctx.reply.Null();
  IntText text;
  ctx.reply.Bulk(set->RandomMember(RandomFn(ctx), text));
}

// ---- SMEMBERS, SINTER, SINTERCARD, SINTERSTORE ----

enum class InterMode { kReply, kCardinality, kStore };

// Redis's sinterGenericCommand: the members of the smallest set found in every other one.
void Intersect(CommandContext& ctx, std::span<const std::string_view> keys, InterMode mode,
               uint64_t limit = 0, std::string_view dst_key = {}) {
  std::vector<const Set*> sets;
  if (!ReadSets(ctx, keys, &sets)) return;
  if (std::find(sets.begin(), sets.end(), nullptr) != sets.end()) {
    // A missing key is an empty set, and so is the intersection.
    switch (mode) {
      case InterMode::kStore:
        DeleteDestination(ctx, dst_key);
        return ctx.reply.Integer(0);
      case InterMode::kCardinality:
        return ctx.reply.Integer(0);
      case InterMode::kReply:
        return ctx.reply.SetHeader(0);
    }
  }
  // Redis replies to SINTER (and SMEMBERS) after a deferred length: the output limit counts all of
  // it.
  if (mode == InterMode::kReply) ctx.ReplyLengthDeferred();
  if (sets.size() == 1 && mode == InterMode::kReply) {
    ctx.reply.SetHeader(sets[0]->size());
    sets[0]->ForEach([&](std::string_view m) { ctx.reply.Bulk(m); });
    return;
  }
  std::stable_sort(sets.begin(), sets.end(),
                   [](const Set* a, const Set* b) { return a->size() < b->size(); });
  const Set& first = *sets[0];
  auto in_all = [&](auto&& contains) {
    for (size_t j = 1; j < sets.size(); ++j) {
      if (sets[j] != &first && !contains(*sets[j])) return false;
    }
    return true;
  };

  uint64_t cardinality = 0;
  std::unique_ptr<Set> result = mode == InterMode::kStore ? std::make_unique<Set>() : nullptr;
  const size_t max = MaxIntSetEntries(ctx);
  std::vector<int64_t> ints;
  std::vector<std::string_view> members;
  if (first.is_intset()) {
    for (int64_t v : first.intset()) {
      if (!in_all([v](const Set& s) { return s.ContainsInteger(v); })) continue;
      ++cardinality;
      if (mode == InterMode::kCardinality) {
        if (limit != 0 && cardinality >= limit) break;
      } else if (mode == InterMode::kStore) {
        IntText text;
        result->Add(text.Format(v), max);
      } else {
        ints.push_back(v);
      }
    }
  } else {
    for (std::string_view m : *first.table()) {
      if (!in_all([m](const Set& s) { return s.Contains(m); })) continue;
      ++cardinality;
      if (mode == InterMode::kCardinality) {
        if (limit != 0 && cardinality >= limit) break;
      } else if (mode == InterMode::kStore) {
        result->Add(m, max);
      } else {
        members.push_back(m);
      }
    }
  }
  switch (mode) {
    case InterMode::kCardinality:
      return ctx.reply.Integer(static_cast<int64_t>(cardinality));
    case InterMode::kStore:
      return StoreResult(ctx, dst_key, std::move(result), "sinterstore");
    case InterMode::kReply:
      if (first.is_intset()) return ReplyInts(ctx, ints);
      ctx.reply.SetHeader(members.size());
      for (std::string_view m : members) ctx.reply.Bulk(m);
      return;
  }
}

// SINTER of one key, without its bookkeeping.
void SMembers(CommandContext& ctx) {
  Set* set;
  if (!ReadAggregate<Set>(ctx, ctx.args[1], &set)) return;
  if (set == nullptr) return ctx.reply.SetHeader(0);
  ctx.ReplyLengthDeferred();  // Redis's SMEMBERS is SINTER of one key
  ctx.reply.SetHeader(set->size());
  set->ForEach([&](std::string_view m) { ctx.reply.Bulk(m); });
}

void SInter(CommandContext& ctx) { Intersect(ctx, ctx.args.subspan(1), InterMode::kReply); }

void SInterStore(CommandContext& ctx) {
  Intersect(ctx, ctx.args.subspan(2), InterMode::kStore, 0, ctx.args[1]);
}

void SInterCard(CommandContext& ctx) {
  constexpr std::string_view kBadNumkeys = "numkeys should be greater than 0";
  auto numkeys = ParseInt64(ctx.args[1]);
  if (!numkeys || *numkeys < 1) return ctx.reply.Error(kBadNumkeys);
  if (static_cast<uint64_t>(*numkeys) > ctx.args.size() - 2) {
    return ctx.reply.Error("Number of keys can't be greater than number of args");
  }
  const size_t keys_end = 2 + static_cast<size_t>(*numkeys);
  uint64_t limit = 0;
  for (size_t i = keys_end; i < ctx.args.size(); ++i) {
    if (OptionIs(ctx.args[i], "limit") && i + 1 < ctx.args.size()) {
      auto l = ParseInt64(ctx.args[++i]);
      if (!l || *l < 0) return ctx.reply.Error("LIMIT can't be negative");
      limit = static_cast<uint64_t>(*l);
    } else {
      return ctx.reply.Error(errors::kSyntax);
    }
  }
  Intersect(ctx, ctx.args.subspan(2, keys_end - 2), InterMode::kCardinality, limit);
}

// ---- SUNION, SUNIONSTORE, SDIFF, SDIFFSTORE ----

// Whether a later key names the same set as the first (SDIFF's result is then empty).
bool FirstRepeated(std::span<const Set* const> sets) {
  return sets[0] != nullptr && std::find(sets.begin() + 1, sets.end(), sets[0]) != sets.end();
}

// The members of sets[0] in none of the others (Redis's DIFF algorithm 1), calling fn for each.
template <typename Fn>
void ForEachDiffMember(std::span<const Set* const> sets, Fn&& fn) {
  const Set& first = *sets[0];
  auto in_other = [&](std::string_view m) {
    for (size_t j = 1; j < sets.size(); ++j) {
      if (sets[j] != nullptr && sets[j]->Contains(m)) return true;
    }
    return false;
  };
  first.ForEach([&](std::string_view m) {
    if (!in_other(m)) fn(m);
  });
}

void SUnion(CommandContext& ctx) {
  std::vector<const Set*> sets;
  if (!ReadSets(ctx, ctx.args.subspan(1), &sets)) return;
  ReplyUnion(ctx, sets);
}

void SDiff(CommandContext& ctx) {
  std::vector<const Set*> sets;
  if (!ReadSets(ctx, ctx.args.subspan(1), &sets)) return;
  if (sets[0] == nullptr || FirstRepeated(sets)) return ctx.reply.SetHeader(0);
  const Set& first = *sets[0];
  if (first.is_intset()) {
    std::vector<int64_t> ints;
    for (int64_t v : first.intset()) {
      bool found = false;
      for (size_t j = 1; j < sets.size() && !found; ++j) {
        found = sets[j] != nullptr && sets[j]->ContainsInteger(v);
      }
      if (!found) ints.push_back(v);
    }
    return ReplyInts(ctx, ints);
  }
  std::vector<std::string_view> members;
  ForEachDiffMember(sets, [&](std::string_view m) { members.push_back(m); });
  ReplyGathered(ctx, members);
}

void SUnionStore(CommandContext& ctx) {
  std::vector<const Set*> sets;
  if (!ReadSets(ctx, ctx.args.subspan(2), &sets)) return;
  auto result = std::make_unique<Set>();
  const size_t max = MaxIntSetEntries(ctx);
  for (const Set* s : sets) {
    if (s != nullptr) s->ForEach([&](std::string_view m) { result->Add(m, max); });
  }
  StoreResult(ctx, ctx.args[1], std::move(result), "sunionstore");
}

void SDiffStore(CommandContext& ctx) {
  std::vector<const Set*> sets;
  if (!ReadSets(ctx, ctx.args.subspan(2), &sets)) return;
  auto result = std::make_unique<Set>();
  const size_t max = MaxIntSetEntries(ctx);
  if (sets[0] != nullptr && !FirstRepeated(sets)) {
    // Redis picks between two algorithms by their expected work; the second adds the whole first
    // set before removing the others' members, which decides the result's encoding.
    uint64_t one = 0, two = 0;
    for (const Set* s : sets) {
      if (s == nullptr) continue;
      one += sets[0]->size();
      two += s->size();
    }
    if (one / 2 <= two) {
      ForEachDiffMember(sets, [&](std::string_view m) { result->Add(m, max); });
    } else {
      sets[0]->ForEach([&](std::string_view m) { result->Add(m, max); });
      for (size_t j = 1; j < sets.size() && result->size() > 0; ++j) {
        if (sets[j] != nullptr) sets[j]->ForEach([&](std::string_view m) { result->Remove(m); });
      }
    }
  }
  StoreResult(ctx, ctx.args[1], std::move(result), "sdiffstore");
}

// ---- SSCAN ----

void SScan(CommandContext& ctx) {
  uint64_t cursor;
  if (!ParseScanCursor(ctx, ctx.args[2], &cursor)) return;
  Set* set;
  if (!ReadAggregate<Set>(ctx, ctx.args[1], &set)) return;
  if (set == nullptr) return ReplyEmptyScan(ctx);
  ScanOptions options;
  if (!ParseScanOptions(ctx, 3, /*allow_type=*/false, &options)) return;
  if (set->is_intset()) {
    // Everything at once, as Redis does for a compact encoding.
    std::vector<int64_t> ints;
    IntText text;
    for (int64_t v : set->intset()) {
      if (options.Matches(text.Format(v))) ints.push_back(v);
    }
    ReplyScanHeader(ctx, 0, ints.size());
    for (int64_t v : ints) BulkInt(ctx, v);
    return;
  }
  std::vector<std::string_view> members;
  cursor = set->table()->Scan(cursor, static_cast<size_t>(options.count), [&](std::string_view m) {
    if (options.Matches(m)) members.push_back(m);
  });
  ReplyScanHeader(ctx, cursor, members.size());
  for (std::string_view m : members) ctx.reply.Bulk(m);
}

constexpr uint32_t kRead = kCmdReadOnly;
constexpr uint32_t kWrite = kCmdWrite;

}  // namespace

void RegisterSetFamily(CommandRegistry& r) {
  r.Register({"sadd", -3, kWrite | kCmdDenyOom | kCmdFast, 1, 1, 1, SAdd, "set",
              "Add one or more members to a set", "1.0.0", "@write @set @fast"});
  r.Register({"srem", -3, kWrite | kCmdFast, 1, 1, 1, SRem, "set",
              "Remove one or more members from a set", "1.0.0", "@write @set @fast"});
  r.Register({"smembers", 2, kRead, 1, 1, 1, SMembers, "set", "Get all the members in a set",
              "1.0.0", "@read @set @slow"});
  r.Register({"sismember", 3, kRead | kCmdFast, 1, 1, 1, SIsMember, "set",
              "Determine if a given value is a member of a set", "1.0.0", "@read @set @fast"});
  r.Register({"smismember", -3, kRead | kCmdFast, 1, 1, 1, SMIsMember, "set",
              "Returns the membership associated with the given elements for a set", "6.2.0",
              "@read @set @fast"});
  r.Register({"scard", 2, kRead | kCmdFast, 1, 1, 1, SCard, "set",
              "Get the number of members in a set", "1.0.0", "@read @set @fast"});
  r.Register({"spop", -2, kWrite | kCmdFast, 1, 1, 1, SPop, "set",
              "Remove and return one or multiple random members from a set", "1.0.0",
              "@write @set @fast"});
  r.Register({"srandmember", -2, kRead, 1, 1, 1, SRandMember, "set",
              "Get one or multiple random members from a set", "1.0.0", "@read @set @slow"});
  r.Register({"smove", 4, kWrite | kCmdFast, 1, 2, 1, SMove, "set",
              "Move a member from one set to another", "1.0.0", "@write @set @fast"});
  r.Register({"sinter", -2, kRead, 1, -1, 1, SInter, "set", "Intersect multiple sets", "1.0.0",
              "@read @set @slow"});
  r.Register({"sintercard", -3, kRead | kCmdMovableKeys, 0, 0, 0, SInterCard, "set",
              "Intersect multiple sets and return the cardinality of the result", "7.0.0",
              "@read @set @slow"});
  r.Register({"sinterstore", -3, kWrite | kCmdDenyOom, 1, -1, 1, SInterStore, "set",
              "Intersect multiple sets and store the resulting set in a key", "1.0.0",
              "@write @set @slow"});
  r.Register({"sunion", -2, kRead, 1, -1, 1, SUnion, "set", "Add multiple sets", "1.0.0",
              "@read @set @slow"});
  r.Register({"sunionstore", -3, kWrite | kCmdDenyOom, 1, -1, 1, SUnionStore, "set",
              "Add multiple sets and store the resulting set in a key", "1.0.0",
              "@write @set @slow"});
  r.Register({"sdiff", -2, kRead, 1, -1, 1, SDiff, "set", "Subtract multiple sets", "1.0.0",
              "@read @set @slow"});
  r.Register({"sdiffstore", -3, kWrite | kCmdDenyOom, 1, -1, 1, SDiffStore, "set",
              "Subtract multiple sets and store the resulting set in a key", "1.0.0",
              "@write @set @slow"});
  r.Register({"sscan", -3, kRead, 1, 1, 1, SScan, "set", "Incrementally iterate Set elements",
              "2.8.0", "@read @set @slow"});
}

}  // namespace kv
