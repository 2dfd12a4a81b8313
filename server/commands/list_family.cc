// Lists: LPUSH, RPUSH, LPUSHX, RPUSHX, LPOP, RPOP, LLEN, LRANGE, LINDEX, LSET, LINSERT, LREM,
// LTRIM, LPOS, RPOPLPUSH, LMOVE, LMPOP, and the blocking BLPOP, BRPOP, BRPOPLPUSH, BLMOVE,
// BLMPOP. Semantics, argument order and error texts are Redis 7.0's t_list.c.

#include <algorithm>
#include <climits>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/number.h"
#include "server/command_registry.h"
#include "server/commands/block_timeout.h"
#include "server/commands/families.h"
#include "server/commands/lookup.h"
#include "server/errors.h"
#include "server/strings.h"
#include "storage/list.h"

namespace kv {
namespace {

using End = List::End;

constexpr std::string_view kIndexOutOfRange = "index out of range";
constexpr std::string_view kMustBePositive = "value is out of range, must be positive";

// Redis's getLongFromObjectOrReply: `msg` replaces the error text when given.
bool ParseLong(CommandContext& ctx, std::string_view arg, long* out,
               std::string_view msg = errors::kNotInteger) {
  const std::optional<int64_t> v = ParseInt64(arg);
  if (!v) {
    ctx.reply.Error(msg);
    return false;
  }
  *out = static_cast<long>(*v);
  return true;
}

// Redis's getRangeLongFromObjectOrReply with a message: one text for every failure.
bool ParseLongInRange(CommandContext& ctx, std::string_view arg, long min, long* out,
                      std::string_view msg) {
  if (!ParseLong(ctx, arg, out, msg)) return false;
  if (*out < min) {
    ctx.reply.Error(msg);
    return false;
  }
  return true;
}

// LEFT or RIGHT (getListPositionFromObjectOrReply).
bool ParseEnd(CommandContext& ctx, std::string_view arg, End* out) {
  if (OptionIs(arg, "left")) {
    *out = End::kHead;
  } else if (OptionIs(arg, "right")) {
    *out = End::kTail;
  } else {
    ctx.reply.Error(errors::kSyntax);
    return false;
  }
  return true;
}

void ReplyElement(ReplyWriter& reply, ListPackValue v) {
  if (!v.is_int) return reply.Bulk(v.str);
  char buf[ListPackValue::kIntBufSize];
  reply.Bulk(v.ToString(buf));
}

// A new, empty list under the current configuration (createQuicklistObject + options).
std::unique_ptr<List> NewList(const CommandContext& ctx) {
  const Config& config = ctx.server.config;
  return std::make_unique<List>(
      static_cast<int>(std::clamp<int64_t>(config.list_max_listpack_size, INT_MIN, INT_MAX)),
      static_cast<int>(std::clamp<int64_t>(config.list_compress_depth, 0, INT_MAX)),
      ctx.server.list_packed_threshold);
}

// The list at `key` for writing (nullptr if missing); false after replying WRONGTYPE. DEBUG
// QUICKLIST-PACKED-THRESHOLD applies to every list at once in Redis: the list learns it here.
bool WriteList(CommandContext& ctx, std::string_view key, List** out) {
  if (!WriteAggregate<List>(ctx, key, out)) return false;
  if (*out != nullptr) (*out)->items().set_packed_threshold(ctx.server.list_packed_threshold);
  return true;
}

List& AddList(CommandContext& ctx, std::string_view key) {
  return AddAggregate<List>(ctx, key, NewList(ctx));
}

// Redis's "lpop"/"rpop" event name for popping from `end`.
std::string_view PopEvent(End end) { return end == End::kHead ? "lpop" : "rpop"; }
std::string_view PushEvent(End end) { return end == End::kHead ? "lpush" : "rpush"; }

// Deletes `key` once its list is empty, with the "del" event (Redis's dbDelete after a pop).
bool DeleteIfEmptyNotify(CommandContext& ctx, std::string_view key, const List& list) {
  if (!DeleteIfEmpty(ctx, key, list)) return false;
  ctx.Notify(kNotifyGeneric, "del", key);
  return true;
}

// After elements were popped from `end` (listElementsRemoved): the pop event, an emptied list
// goes, the key is signalled modified and the changes count.
void ElementsRemoved(CommandContext& ctx, std::string_view key, End end, const List& list,
                     size_t n) {
  ctx.Notify(kNotifyList, PopEvent(end), key);
  DeleteIfEmptyNotify(ctx, key, list);
  ctx.KeyModified(key);
  ctx.CountChanges(n);
}

// Redis's addListRangeReply: the elements from `start` to `end` (negative from the tail, clamped
// to the list), reversed when `reverse`.
void ReplyRange(CommandContext& ctx, List& list, long start, long end, bool reverse) {
  const long len = static_cast<long>(list.size());
  if (start < 0) start += len;
  if (end < 0) end += len;
  if (start < 0) start = 0;
  if (start > end || start >= len) return ctx.reply.ArrayHeader(0);
  if (end >= len) end = len - 1;
  ctx.reply.ArrayHeader(static_cast<size_t>(end - start + 1));
  list.ForRange(start, end, reverse, [&](ListPackValue v) { ReplyElement(ctx.reply, v); });
}

// Pops up to `count` elements from one end, replying them as an array in popping order.
void PopRange(CommandContext& ctx, std::string_view key, List& list, End end, long count) {
  const long len = static_cast<long>(list.size());
  const long n = std::min(count, len);
  if (end == End::kHead) {
    ReplyRange(ctx, list, 0, n - 1, false);
  } else {
    ReplyRange(ctx, list, -n, -1, true);
  }
  list.PopMany(end, static_cast<size_t>(n));
  ElementsRemoved(ctx, key, end, list, static_cast<size_t>(n));
}

// How a blocking or multi-key pop goes to the AOF: run at once, the command is rewritten into
// its plain form; serving a blocked client, Redis counts no change and adds the plain form with
// alsoPropagate (serveClientBlockedOnList).
void PropagatePop(CommandContext& ctx, std::vector<std::string> argv) {
  if (ctx.blocked_key != nullptr) {
    ctx.AlsoPropagate(std::move(argv));
    ctx.PreventPropagation();
  } else {
    ctx.PropagateAs(std::move(argv));
  }
}

std::string_view PopName(End end) { return end == End::kHead ? "LPOP" : "RPOP"; }

// listPopRangeAndReplyWithKey: [key, [elements]] (LMPOP, BLMPOP), propagated as [LR]POP key n.
void PopRangeWithKey(CommandContext& ctx, std::string_view key, List& list, End end, long count) {
  if (ctx.Propagating()) {
    const long n = std::min(count, static_cast<long>(list.size()));
    PropagatePop(ctx, {std::string(PopName(end)), std::string(key), std::to_string(n)});
  }
  ctx.reply.ArrayHeader(2);
  ctx.reply.Bulk(key);
  PopRange(ctx, key, list, end, count);
}

// ---- Pushes ----

void PushGeneric(CommandContext& ctx, End end, bool only_existing) {
  const std::string_view key = ctx.args[1];
  List* list = nullptr;
  if (!WriteList(ctx, key, &list)) return;
  if (list == nullptr) {
    if (only_existing) return ctx.reply.Integer(0);
    list = &AddList(ctx, key);
  }
  for (size_t i = 2; i < ctx.args.size(); ++i) list->Push(ctx.args[i], end);
  ctx.CountChanges(ctx.args.size() - 2);
  ctx.reply.Integer(static_cast<int64_t>(list->size()));
  ctx.KeyModified(key);
  ctx.Notify(kNotifyList, PushEvent(end), key);
}

void LPush(CommandContext& ctx) { PushGeneric(ctx, End::kHead, false); }
void RPush(CommandContext& ctx) { PushGeneric(ctx, End::kTail, false); }
void LPushX(CommandContext& ctx) { PushGeneric(ctx, End::kHead, true); }
void RPushX(CommandContext& ctx) { PushGeneric(ctx, End::kTail, true); }

// LINSERT key BEFORE|AFTER pivot element
void LInsert(CommandContext& ctx) {
  bool after;
  if (OptionIs(ctx.args[2], "after")) {
    after = true;
  } else if (OptionIs(ctx.args[2], "before")) {
    after = false;
  } else {
    return ctx.reply.Error(errors::kSyntax);
  }
  List* list = nullptr;
  if (!WriteList(ctx, ctx.args[1], &list)) return;
  if (list == nullptr) return ctx.reply.Integer(0);
  if (!list->Insert(ctx.args[3], ctx.args[4], after)) return ctx.reply.Integer(-1);
  ctx.KeyModified(ctx.args[1]);
  ctx.Notify(kNotifyList, "linsert", ctx.args[1]);
  ctx.CountChanges();
  ctx.reply.Integer(static_cast<int64_t>(list->size()));
}

// ---- Reads ----

void LLen(CommandContext& ctx) {
  List* list = nullptr;
  if (!ReadAggregate<List>(ctx, ctx.args[1], &list)) return;
  ctx.reply.Integer(list == nullptr ? 0 : static_cast<int64_t>(list->size()));
}

// LINDEX key index: the key is looked up before the index is parsed, as in Redis.
void LIndex(CommandContext& ctx) {
  List* list = nullptr;
  if (!ReadAggregate<List>(ctx, ctx.args[1], &list)) return;
  if (list == nullptr) return ctx.reply.Null();
  long index;
  if (!ParseLong(ctx, ctx.args[2], &index)) return;
  if (!list->Index(index, [&](ListPackValue v) { ReplyElement(ctx.reply, v); })) {
    ctx.reply.Null();
  }
}

void LRange(CommandContext& ctx) {
  long start;
  long end;
  if (!ParseLong(ctx, ctx.args[2], &start) || !ParseLong(ctx, ctx.args[3], &end)) return;
  List* list = nullptr;
  if (!ReadAggregate<List>(ctx, ctx.args[1], &list)) return;
  if (list == nullptr) return ctx.reply.ArrayHeader(0);
  ReplyRange(ctx, *list, start, end, false);
}

// LPOS key element [RANK rank] [COUNT num-matches] [MAXLEN len]
void LPos(CommandContext& ctx) {
  long rank = 1;
  long count = -1;  // -1: no COUNT, a single index (or null) is the reply
  long maxlen = 0;
  for (size_t j = 3; j < ctx.args.size(); ++j) {
    const bool more = j + 1 < ctx.args.size();
    if (more && OptionIs(ctx.args[j], "rank")) {
      if (!ParseLong(ctx, ctx.args[++j], &rank)) return;
      if (rank == 0) {
        return ctx.reply.Error(
            "RANK can't be zero: use 1 to start from the first match, 2 from the second ... or "
            "use negative to start from the end of the list");
      }
    } else if (more && OptionIs(ctx.args[j], "count")) {
      if (!ParseLongInRange(ctx, ctx.args[++j], 0, &count, "COUNT can't be negative")) return;
    } else if (more && OptionIs(ctx.args[j], "maxlen")) {
      if (!ParseLongInRange(ctx, ctx.args[++j], 0, &maxlen, "MAXLEN can't be negative")) return;
    } else {
      return ctx.reply.Error(errors::kSyntax);
    }
  }
  // Redis negates the rank as a long: LONG_MIN stays negative, so that every match from the tail
  // is past the rank and COUNT never stops it.
  bool count_unbounded = count == 0;
  if (rank == LONG_MIN) {
    rank = -1;
    count_unbounded = true;
  }
  List* list = nullptr;
  if (!ReadAggregate<List>(ctx, ctx.args[1], &list)) return;
  if (list == nullptr) return count != -1 ? ctx.reply.ArrayHeader(0) : ctx.reply.Null();
  if (count == -1) {
    long found = -1;
    list->Find(ctx.args[2], rank, maxlen, [&](long index) {
      found = index;
      return false;
    });
    return found >= 0 ? ctx.reply.Integer(found) : ctx.reply.Null();
  }
  std::vector<long> matches;
  list->Find(ctx.args[2], rank, maxlen, [&](long index) {
    matches.push_back(index);
    return count_unbounded || static_cast<long>(matches.size()) < count;
  });
  ctx.reply.ArrayHeader(matches.size());
  for (long index : matches) ctx.reply.Integer(index);
}

// ---- Changes ----

// LSET key index element: the key is looked up before the index is parsed.
void LSet(CommandContext& ctx) {
  List* list = nullptr;
  if (!WriteList(ctx, ctx.args[1], &list)) return;
  if (list == nullptr) return ctx.reply.Error(errors::kNoSuchKey);
  long index;
  if (!ParseLong(ctx, ctx.args[2], &index)) return;
  if (!list->Set(index, ctx.args[3])) return ctx.reply.Error(kIndexOutOfRange);
  ctx.reply.Ok();
  ctx.KeyModified(ctx.args[1]);
  ctx.Notify(kNotifyList, "lset", ctx.args[1]);
  ctx.CountChanges();
}

// LREM key count element
void LRem(CommandContext& ctx) {
  long count;
  if (!ParseLong(ctx, ctx.args[2], &count)) return;
  List* list = nullptr;
  if (!WriteList(ctx, ctx.args[1], &list)) return;
  if (list == nullptr) return ctx.reply.Integer(0);
  const size_t removed = list->Remove(count, ctx.args[3]);
  ctx.CountChanges(removed);
  if (removed != 0) {
    ctx.KeyModified(ctx.args[1]);
    ctx.Notify(kNotifyList, "lrem", ctx.args[1]);
  }
  DeleteIfEmptyNotify(ctx, ctx.args[1], *list);
  ctx.reply.Integer(static_cast<int64_t>(removed));
}

// LTRIM key start stop
void LTrim(CommandContext& ctx) {
  long start;
  long end;
  if (!ParseLong(ctx, ctx.args[2], &start) || !ParseLong(ctx, ctx.args[3], &end)) return;
  List* list = nullptr;
  if (!WriteList(ctx, ctx.args[1], &list)) return;
  if (list == nullptr) return ctx.reply.Ok();
  const long len = static_cast<long>(list->size());
  if (start < 0) start += len;
  if (end < 0) end += len;
  if (start < 0) start = 0;
  long from_head;
  long from_tail;
  if (start > end || start >= len) {
    // Nothing is left.
    from_head = len;
    from_tail = 0;
  } else {
    if (end >= len) end = len - 1;
    from_head = start;
    from_tail = len - end - 1;
  }
  list->Trim(static_cast<size_t>(from_head), static_cast<size_t>(from_tail));
  // Redis notifies "ltrim" and signals the key even when nothing was trimmed.
  ctx.Notify(kNotifyList, "ltrim", ctx.args[1]);
  DeleteIfEmptyNotify(ctx, ctx.args[1], *list);
  ctx.KeyModified(ctx.args[1]);
  ctx.CountChanges(static_cast<uint64_t>(from_head + from_tail));
  ctx.reply.Ok();
}

// ---- Pops ----

// LPOP/RPOP key [count]
void PopGeneric(CommandContext& ctx, End end) {
  const bool has_count = ctx.args.size() == 3;
  if (ctx.args.size() > 3) return ctx.reply.Error(WrongArityError(ctx.conn.last_cmd->name));
  long count = 0;
  if (has_count && !ParseLongInRange(ctx, ctx.args[2], 0, &count, kMustBePositive)) return;
  const std::string_view key = ctx.args[1];
  List* list = nullptr;
  if (!WriteList(ctx, key, &list)) return;
  if (list == nullptr) return has_count ? ctx.reply.NullArray() : ctx.reply.Null();
  if (has_count && count == 0) return ctx.reply.ArrayHeader(0);
  if (!has_count) {
    ReplyElement(ctx.reply, list->Peek(end));
    list->Pop(end);
    return ElementsRemoved(ctx, key, end, *list, 1);
  }
  PopRange(ctx, key, *list, end, count);
}

void LPop(CommandContext& ctx) { PopGeneric(ctx, End::kHead); }
void RPop(CommandContext& ctx) { PopGeneric(ctx, End::kTail); }

// LMOVE/RPOPLPUSH and served BLMOVE/BRPOPLPUSH (lmoveGenericCommand): pops from args[1] and
// pushes onto args[2], which may be the same list.
void MoveGeneric(CommandContext& ctx, End from, End to) {
  const std::string_view src_key = ctx.args[1];
  const std::string_view dst_key = ctx.args[2];
  List* src = nullptr;
  if (!WriteList(ctx, src_key, &src)) return;
  if (src == nullptr) return ctx.reply.Null();
  List* dst = nullptr;
  if (!WriteList(ctx, dst_key, &dst)) return;
  // The element is copied: popping invalidates its view, and the push may go to the same list.
  char buf[ListPackValue::kIntBufSize];
  const std::string value(src->Peek(from).ToString(buf));
  src->Pop(from);
  // lmoveHandlePush: the destination is signalled before the push, then its push event; then
  // the source's pop event and its deletion when emptied.
  if (dst == nullptr) dst = &AddList(ctx, dst_key);
  ctx.KeyModified(dst_key);
  dst->Push(value, to);
  ctx.Notify(kNotifyList, PushEvent(to), dst_key);
  ctx.reply.Bulk(value);
  ctx.Notify(kNotifyList, PopEvent(from), src_key);
  DeleteIfEmptyNotify(ctx, src_key, *src);
  // A served BLMOVE signals no change to the source (its push already did) and counts none, as
  // Redis's serveClientBlockedOnList.
  if (ctx.blocked_key == nullptr) {
    ctx.KeyModified(src_key);
    ctx.CountChanges();
  }
  // BLMOVE and BRPOPLPUSH go to the AOF as LMOVE and RPOPLPUSH (served: with the ends named as
  // Redis's getStringObjectFromListPosition names them).
  if (ctx.Propagating()) {
    const std::string_view name = ctx.args[0];
    const bool served = ctx.blocked_key != nullptr;
    if (EqualsIgnoreCase(name, "brpoplpush")) {
      PropagatePop(ctx, {"RPOPLPUSH", std::string(src_key), std::string(dst_key)});
    } else if (EqualsIgnoreCase(name, "blmove")) {
      PropagatePop(
          ctx,
          {"LMOVE", std::string(src_key), std::string(dst_key),
           served ? std::string(from == End::kHead ? "left" : "right") : std::string(ctx.args[3]),
           served ? std::string(to == End::kHead ? "left" : "right") : std::string(ctx.args[4])});
    }
  }
}

void LMove(CommandContext& ctx) {
  End from;
  End to;
  if (!ParseEnd(ctx, ctx.args[3], &from) || !ParseEnd(ctx, ctx.args[4], &to)) return;
  MoveGeneric(ctx, from, to);
}

void RPopLPush(CommandContext& ctx) { MoveGeneric(ctx, End::kTail, End::kHead); }

// The keys of LMPOP/BLMPOP and where and how many to pop; false after replying an error.
struct MPopArgs {
  std::span<const std::string_view> keys;
  End end;
  long count;
};

bool ParseMPop(CommandContext& ctx, size_t numkeys_index, MPopArgs* out) {
  long numkeys;
  if (!ParseLongInRange(ctx, ctx.args[numkeys_index], 1, &numkeys,
                        "numkeys should be greater than 0")) {
    return false;
  }
  // The direction follows the keys.
  const size_t rest = ctx.args.size() - numkeys_index - 1;
  if (static_cast<unsigned long>(numkeys) >= rest) {
    ctx.reply.Error(errors::kSyntax);
    return false;
  }
  const size_t where_index = numkeys_index + 1 + static_cast<size_t>(numkeys);
  if (!ParseEnd(ctx, ctx.args[where_index], &out->end)) return false;
  out->count = -1;
  for (size_t j = where_index + 1; j < ctx.args.size(); ++j) {
    if (out->count == -1 && j + 1 < ctx.args.size() && OptionIs(ctx.args[j], "count")) {
      if (!ParseLongInRange(ctx, ctx.args[++j], 1, &out->count, "count should be greater than 0")) {
        return false;
      }
    } else {
      ctx.reply.Error(errors::kSyntax);
      return false;
    }
  }
  if (out->count == -1) out->count = 1;
  out->keys = ctx.args.subspan(numkeys_index + 1, static_cast<size_t>(numkeys));
  return true;
}

// LMPOP numkeys key [key ...] LEFT|RIGHT [COUNT count]
void LMPop(CommandContext& ctx) {
  MPopArgs a;
  if (!ParseMPop(ctx, 1, &a)) return;
  for (std::string_view key : a.keys) {
    List* list = nullptr;
    if (!WriteList(ctx, key, &list)) return;
    if (list == nullptr) continue;
    return PopRangeWithKey(ctx, key, *list, a.end, a.count);
  }
  ctx.reply.NullArray();
}

// ---- Blocking ----

// BLPOP, BRPOP and BLMPOP (blockingPopGenericCommand): pops from the first non-empty key, or
// blocks on all of them. `count` -1 is BLPOP's single element replied as [key, element]. When the
// client is served again because a key got a list, only that key is looked at, as in Redis 7.0.
void BlockingPop(CommandContext& ctx, std::span<const std::string_view> keys, End end,
                 std::string_view timeout_arg, long count) {
  int64_t deadline;
  if (!ParseBlockTimeout(ctx, timeout_arg, &deadline)) return;
  const std::string_view ready[] = {ctx.blocked_key != nullptr ? std::string_view(*ctx.blocked_key)
                                                               : std::string_view()};
  const std::span<const std::string_view> candidates =
      ctx.blocked_key != nullptr ? std::span<const std::string_view>(ready) : keys;
  for (std::string_view key : candidates) {
    List* list = nullptr;
    if (!WriteList(ctx, key, &list)) return;
    if (list == nullptr) continue;
    if (count != -1) return PopRangeWithKey(ctx, key, *list, end, count);
    if (ctx.Propagating()) PropagatePop(ctx, {std::string(PopName(end)), std::string(key)});
    ctx.reply.ArrayHeader(2);
    ctx.reply.Bulk(key);
    ReplyElement(ctx.reply, list->Peek(end));
    list->Pop(end);
    // Served from a ready key, Redis signals and counts no change (serveClientBlockedOnList:
    // the push that made the key ready signalled it).
    if (ctx.blocked_key == nullptr) return ElementsRemoved(ctx, key, end, *list, 1);
    ctx.Notify(kNotifyList, PopEvent(end), key);
    DeleteIfEmptyNotify(ctx, key, *list);
    return;
  }
  // Where a client may not block (MULTI, scripts), nothing to pop is a timeout at once.
  if (!ctx.CanBlock()) return ctx.reply.NullArray();
  ctx.Block(keys, ValueType::kList, deadline);
}

void BLPop(CommandContext& ctx) {
  BlockingPop(ctx, ctx.args.subspan(1, ctx.args.size() - 2), End::kHead, ctx.args.back(), -1);
}

void BRPop(CommandContext& ctx) {
  BlockingPop(ctx, ctx.args.subspan(1, ctx.args.size() - 2), End::kTail, ctx.args.back(), -1);
}

// BLMPOP timeout numkeys key [key ...] LEFT|RIGHT [COUNT count]: the timeout is parsed last.
void BLMPop(CommandContext& ctx) {
  MPopArgs a;
  if (!ParseMPop(ctx, 2, &a)) return;
  BlockingPop(ctx, a.keys, a.end, ctx.args[1], a.count);
}

// BLMOVE and BRPOPLPUSH (blmoveGenericCommand): moves at once when the source has elements.
void BlockingMove(CommandContext& ctx, End from, End to, int64_t deadline) {
  List* src = nullptr;
  if (!WriteAggregate<List>(ctx, ctx.args[1], &src)) return;
  if (src != nullptr) return MoveGeneric(ctx, from, to);
  if (!ctx.CanBlock()) return ctx.reply.Null();
  ctx.Block(ctx.args.subspan(1, 1), ValueType::kList, deadline);
}

// BLMOVE source destination LEFT|RIGHT LEFT|RIGHT timeout
void BLMove(CommandContext& ctx) {
  End from;
  End to;
  int64_t deadline;
  if (!ParseEnd(ctx, ctx.args[3], &from) || !ParseEnd(ctx, ctx.args[4], &to) ||
      !ParseBlockTimeout(ctx, ctx.args[5], &deadline)) {
    return;
  }
  BlockingMove(ctx, from, to, deadline);
}

// BRPOPLPUSH source destination timeout
void BRPopLPush(CommandContext& ctx) {
  int64_t deadline;
  if (!ParseBlockTimeout(ctx, ctx.args[3], &deadline)) return;
  BlockingMove(ctx, End::kTail, End::kHead, deadline);
}

}  // namespace

void RegisterListFamily(CommandRegistry& r) {
  constexpr uint32_t kRead = kCmdReadOnly;
  constexpr uint32_t kWrite = kCmdWrite;
  constexpr uint32_t kGrow = kCmdWrite | kCmdDenyOom;
  constexpr uint32_t kBlock = kCmdNoScript | kCmdBlocking;
  // name, arity, flags, first key, last key, step, handler, group, summary, since, ACL categories
  r.Register({"lpush", -3, kGrow | kCmdFast, 1, 1, 1, LPush, "list",
              "Prepend one or multiple elements to a list", "1.0.0", "@write @list @fast"});
  r.Register({"rpush", -3, kGrow | kCmdFast, 1, 1, 1, RPush, "list",
              "Append one or multiple elements to a list", "1.0.0", "@write @list @fast"});
  r.Register({"lpushx", -3, kGrow | kCmdFast, 1, 1, 1, LPushX, "list",
              "Prepend an element to a list, only if the list exists", "2.2.0",
              "@write @list @fast"});
  r.Register({"rpushx", -3, kGrow | kCmdFast, 1, 1, 1, RPushX, "list",
              "Append an element to a list, only if the list exists", "2.2.0",
              "@write @list @fast"});
  r.Register({"lpop", -2, kWrite | kCmdFast, 1, 1, 1, LPop, "list",
              "Remove and get the first elements in a list", "1.0.0", "@write @list @fast"});
  r.Register({"rpop", -2, kWrite | kCmdFast, 1, 1, 1, RPop, "list",
              "Remove and get the last elements in a list", "1.0.0", "@write @list @fast"});
  r.Register({"llen", 2, kRead | kCmdFast, 1, 1, 1, LLen, "list", "Get the length of a list",
              "1.0.0", "@read @list @fast"});
  r.Register({"lrange", 4, kRead, 1, 1, 1, LRange, "list", "Get a range of elements from a list",
              "1.0.0", "@read @list @slow"});
  r.Register({"lindex", 3, kRead, 1, 1, 1, LIndex, "list",
              "Get an element from a list by its index", "1.0.0", "@read @list @slow"});
  r.Register({"lset", 4, kGrow, 1, 1, 1, LSet, "list",
              "Set the value of an element in a list by its index", "1.0.0", "@write @list @slow"});
  r.Register({"linsert", 5, kGrow, 1, 1, 1, LInsert, "list",
              "Insert an element before or after another element in a list", "2.2.0",
              "@write @list @slow"});
  r.Register({"lrem", 4, kWrite, 1, 1, 1, LRem, "list", "Remove elements from a list", "1.0.0",
              "@write @list @slow"});
  r.Register({"ltrim", 4, kWrite, 1, 1, 1, LTrim, "list", "Trim a list to the specified range",
              "1.0.0", "@write @list @slow"});
  r.Register({"lpos", -3, kRead, 1, 1, 1, LPos, "list",
              "Return the index of matching elements on a list", "6.0.6", "@read @list @slow"});
  r.Register({"rpoplpush", 3, kGrow, 1, 2, 1, RPopLPush, "list",
              "Remove the last element in a list, prepend it to another list and return it",
              "1.2.0", "@write @list @slow"});
  r.Register({"lmove", 5, kGrow, 1, 2, 1, LMove, "list",
              "Pop an element from a list, push it to another list and return it", "6.2.0",
              "@write @list @slow"});
  r.Register({"lmpop", -4, kWrite | kCmdMovableKeys, 0, 0, 0, LMPop, "list",
              "Pop elements from a list", "7.0.0", "@write @list @slow"});
  r.Register({"blpop", -3, kWrite | kBlock, 1, -2, 1, BLPop, "list",
              "Remove and get the first element in a list, or block until one is available",
              "2.0.0", "@write @list @slow @blocking"});
  r.Register({"brpop", -3, kWrite | kBlock, 1, -2, 1, BRPop, "list",
              "Remove and get the last element in a list, or block until one is available", "2.0.0",
              "@write @list @slow @blocking"});
  r.Register({"brpoplpush", 4, kGrow | kBlock, 1, 2, 1, BRPopLPush, "list",
              "Pop an element from a list, push it to another list and return it; or block until "
              "one is available",
              "2.2.0", "@write @list @slow @blocking"});
  r.Register({"blmove", 6, kGrow | kBlock, 1, 2, 1, BLMove, "list",
              "Pop an element from a list, push it to another list and return it; or block until "
              "one is available",
              "6.2.0", "@write @list @slow @blocking"});
  r.Register({"blmpop", -5, kWrite | kCmdBlocking | kCmdMovableKeys, 0, 0, 0, BLMPop, "list",
              "Pop elements from a list, or block until one is available", "7.0.0",
              "@write @list @slow @blocking"});
}

}  // namespace kv
