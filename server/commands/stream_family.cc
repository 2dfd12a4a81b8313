// Streams: XADD, XLEN, XRANGE, XREVRANGE, XDEL, XTRIM, XSETID, XREAD and XREADGROUP (which shares
// XREAD's reading and blocking), as Redis 7.0's t_stream.c. The consumer groups' other commands
// (XGROUP, XACK, XPENDING, XCLAIM, XAUTOCLAIM) and XINFO are in stream_group_family.cc.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/number.h"
#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/commands/lookup.h"
#include "server/commands/stream_args.h"
#include "server/commands/stream_replies.h"
#include "server/errors.h"
#include "server/persistence/aof_loader.h"
#include "server/strings.h"
#include "storage/stream.h"

namespace kv {
namespace {

constexpr int64_t kXreadBlockedDefaultCount = 1000;  // XREAD_BLOCKED_DEFAULT_COUNT

// ---- XADD and XTRIM ----

struct AddTrimArgs {
  StreamId id;
  bool id_given = false;
  bool seq_given = true;
  bool no_mkstream = false;
  Stream::TrimArgs trim;
  size_t trim_arg = 0;  // where the MAXLEN/MINID threshold is (trim_strategy_arg_idx)
};

Stream::NodeLimits NodeLimits(const CommandContext& ctx) {
  return {static_cast<size_t>(ctx.server.config.stream_node_max_bytes),
          ctx.server.config.stream_node_max_entries};
}

// Redis's streamParseAddOrTrimArgsOrReply: the position of XADD's id argument, or -1 after
// replying an error.
int ParseAddOrTrim(CommandContext& ctx, AddTrimArgs* a, bool xadd) {
  const auto& args = ctx.args;
  const int argc = static_cast<int>(args.size());
  int i = 2;
  bool limit_given = false;
  constexpr std::string_view kBoth =
      "syntax error, MAXLEN and MINID options at the same time are not compatible";
  for (; i < argc; ++i) {
    const int moreargs = argc - 1 - i;
    const std::string_view opt = args[i];
    if (xadd && CStr(opt) == "*") break;
    if (OptionIs(opt, "maxlen") && moreargs != 0) {
      if (a->trim.strategy != Stream::TrimStrategy::kNone) {
        ctx.reply.Error(kBoth);
        return -1;
      }
      a->trim.approx = false;
      const std::string_view next = CStr(args[i + 1]);
      if (moreargs >= 2 && next == "~") {
        a->trim.approx = true;
        ++i;
      } else if (moreargs >= 2 && next == "=") {
        ++i;
      }
      a->trim_arg = static_cast<size_t>(i + 1);
      if (!ParseLongLong(ctx, args[i + 1], &a->trim.maxlen)) return -1;
      if (a->trim.maxlen < 0) {
        ctx.reply.Error("The MAXLEN argument must be >= 0.");
        return -1;
      }
      ++i;
      a->trim.strategy = Stream::TrimStrategy::kMaxLen;
    } else if (OptionIs(opt, "minid") && moreargs != 0) {
      if (a->trim.strategy != Stream::TrimStrategy::kNone) {
        ctx.reply.Error(kBoth);
        return -1;
      }
      a->trim.approx = false;
      const std::string_view next = CStr(args[i + 1]);
      if (moreargs >= 2 && next == "~") {
        a->trim.approx = true;
        ++i;
      } else if (moreargs >= 2 && next == "=") {
        ++i;
      }
      a->trim_arg = static_cast<size_t>(i + 1);
      if (!ParseStrictId(ctx, args[i + 1], &a->trim.minid, 0)) return -1;
      ++i;
      a->trim.strategy = Stream::TrimStrategy::kMinId;
    } else if (OptionIs(opt, "limit") && moreargs != 0) {
      if (!ParseLongLong(ctx, args[i + 1], &a->trim.limit)) return -1;
      if (a->trim.limit < 0) {
        ctx.reply.Error("The LIMIT argument must be >= 0.");
        return -1;
      }
      limit_given = true;
      ++i;
    } else if (xadd && OptionIs(opt, "nomkstream")) {
      a->no_mkstream = true;
    } else if (xadd) {
      if (!ParseStrictId(ctx, opt, &a->id, 0, &a->seq_given)) return -1;
      a->id_given = true;
      break;
    } else {
      ctx.reply.Error(errors::kSyntax);
      return -1;
    }
  }
  if (a->trim.limit != 0 && a->trim.strategy == Stream::TrimStrategy::kNone) {
    ctx.reply.Error("syntax error, LIMIT cannot be used without specifying a trimming strategy");
    return -1;
  }
  if (!xadd && a->trim.strategy == Stream::TrimStrategy::kNone) {
    ctx.reply.Error("syntax error, XTRIM must be called with a trimming strategy");
    return -1;
  }
  if (ctx.conn.id == kAofClientId) {
    // From the AOF the threshold was rewritten to the exact trim the command came to: no limit
    // on the work (Redis's mustObeyClient).
    a->trim.limit = 0;
  } else if (limit_given) {
    if (!a->trim.approx) {
      ctx.reply.Error("syntax error, LIMIT cannot be used without the special ~ option");
      return -1;
    }
  } else if (a->trim.approx) {
    // At most 100 nodes' worth of work when the client names no limit.
    a->trim.limit = 100 * ctx.server.config.stream_node_max_entries;
    if (a->trim.limit <= 0) a->trim.limit = 10000;
    if (a->trim.limit > 1000000) a->trim.limit = 1000000;
  } else {
    a->trim.limit = 0;
  }
  return i;
}

// streamRewriteApproxSpecifier and streamRewriteTrimArgument: an approximate trim ("~", LIMIT)
// goes to the AOF as the exact trim it came to, so that a replay trims the same entries.
void PropagateExactTrim(CommandContext& ctx, const AddTrimArgs& a, const Stream& s) {
  if (!a.trim.approx || !ctx.Propagating()) return;
  ctx.RewriteArg(a.trim_arg - 1, "=");
  if (a.trim.strategy == Stream::TrimStrategy::kMaxLen) {
    ctx.RewriteArg(a.trim_arg, std::to_string(s.length()));
  } else {
    StreamId first;
    if (!s.EdgeId(true, &first)) first = StreamId{};
    ctx.RewriteArg(a.trim_arg, first.ToString());
  }
}

void XAdd(CommandContext& ctx) {
  AddTrimArgs a;
  const int id_pos = ParseAddOrTrim(ctx, &a, true);
  if (id_pos < 0) return;
  const size_t field_pos = static_cast<size_t>(id_pos) + 1;
  const size_t nfv = ctx.args.size() - std::min(field_pos, ctx.args.size());
  if (field_pos > ctx.args.size() || nfv < 2 || nfv % 2 == 1) {
    return ctx.reply.Error(WrongArityError("xadd"));
  }
  if (a.id_given && a.seq_given && a.id.IsZero()) {
    return ctx.reply.Error("The ID specified in XADD must be greater than 0-0");
  }
  Stream* s = nullptr;
  if (!WriteAggregate<Stream>(ctx, ctx.args[1], &s)) return;
  if (s == nullptr) {
    if (a.no_mkstream) return ctx.reply.Null();
    s = &AddAggregate(ctx, ctx.args[1], std::make_unique<Stream>());
  }
  const StreamId last = s->last_id();
  if (last == StreamId::Max()) {
    return ctx.reply.Error(
        "The stream has exhausted the last possible ID, unable to add more items");
  }
  // The new id (streamAppendItem's rules).
  StreamId id;
  bool ok = true;
  if (a.id_given) {
    if (a.seq_given) {
      id = a.id;
    } else if (last.ms == a.id.ms) {
      if (last.seq == UINT64_MAX) {
        ok = false;
      } else {
        id = {last.ms, last.seq + 1};
      }
    } else {
      id = a.id;
    }
  } else {
    // The clock's time, or the last id's successor when the clock is behind it.
    const uint64_t ms = static_cast<uint64_t>(NowMs(ctx));
    if (ms > last.ms) {
      id = {ms, 0};
    } else {
      id = last;
      id.Incr();
    }
  }
  if (!ok || id <= last) {
    return ctx.reply.Error(
        "The ID specified in XADD is equal or smaller than the target stream top item");
  }
  const std::span<const std::string_view> fv = ctx.args.subspan(field_pos);
  size_t total = 0;
  for (std::string_view f : fv) total += f.size();
  if (total > Stream::kMaxListPackSize) {
    return ctx.reply.Error("Elements are too large to be stored");
  }
  s->Append(id, fv, NodeLimits(ctx));
  ReplyId(ctx.reply, id);
  ctx.Notify(kNotifyStream, "xadd", ctx.args[1]);
  ctx.CountChanges();
  if (a.trim.strategy != Stream::TrimStrategy::kNone) {
    if (s->Trim(a.trim) != 0) ctx.Notify(kNotifyStream, "xtrim", ctx.args[1]);
    PropagateExactTrim(ctx, a, *s);
  }
  // The id generated goes to the AOF in place of "*" or "<ms>-*".
  if ((!a.id_given || !a.seq_given) && ctx.Propagating()) {
    ctx.RewriteArg(static_cast<size_t>(id_pos), id.ToString());
  }
  ctx.SignalKeyAsReady(ctx.args[1], ValueType::kStream);
}

void XTrim(CommandContext& ctx) {
  AddTrimArgs a;
  if (ParseAddOrTrim(ctx, &a, false) < 0) return;
  Stream* s = nullptr;
  if (!WriteAggregate<Stream>(ctx, ctx.args[1], &s)) return;
  if (s == nullptr) return ctx.reply.Integer(0);
  const int64_t deleted = s->Trim(a.trim);
  if (deleted != 0) ctx.Notify(kNotifyStream, "xtrim", ctx.args[1]);
  PropagateExactTrim(ctx, a, *s);
  ctx.CountChanges(static_cast<uint64_t>(deleted));
  ctx.reply.Integer(deleted);
}

// ---- Reading ----

void RangeGeneric(CommandContext& ctx, bool rev) {
  const std::string_view start_arg = rev ? ctx.args[3] : ctx.args[2];
  const std::string_view end_arg = rev ? ctx.args[2] : ctx.args[3];
  StreamId start;
  StreamId end;
  bool start_ex;
  bool end_ex;
  if (!ParseIntervalId(ctx, start_arg, &start, &start_ex, 0)) return;
  if (start_ex && !start.Incr()) return ctx.reply.Error("invalid start ID for the interval");
  if (!ParseIntervalId(ctx, end_arg, &end, &end_ex, UINT64_MAX)) return;
  if (end_ex && !end.Decr()) return ctx.reply.Error("invalid end ID for the interval");
  int64_t count = -1;
  for (size_t j = 4; j < ctx.args.size(); ++j) {
    const size_t additional = ctx.args.size() - j - 1;
    if (OptionIs(ctx.args[j], "COUNT") && additional >= 1) {
      if (!ParseLongLong(ctx, ctx.args[j + 1], &count)) return;
      if (count < 0) count = 0;
      ++j;
    } else {
      return ctx.reply.Error(errors::kSyntax);
    }
  }
  Stream* s = nullptr;
  if (!ReadAggregate<Stream>(ctx, ctx.args[1], &s)) return;
  if (s == nullptr) return ctx.reply.ArrayHeader(0);
  if (count == 0) return ctx.reply.NullArray();
  if (count == -1) count = 0;
  ReplyRange(ctx, *s, start, end, static_cast<size_t>(count), rev, nullptr);
}

void XRange(CommandContext& ctx) { RangeGeneric(ctx, false); }
void XRevRange(CommandContext& ctx) { RangeGeneric(ctx, true); }

void XLen(CommandContext& ctx) {
  Stream* s = nullptr;
  if (!ReadAggregate<Stream>(ctx, ctx.args[1], &s)) return;
  ctx.reply.Integer(s == nullptr ? 0 : static_cast<int64_t>(s->length()));
}

// The last live entry's id (streamLastValidID).
StreamId LastValidId(const Stream& s) {
  StreamId id;
  s.EdgeId(false, &id);
  return id;
}

// XREAD and XREADGROUP (xreadCommand). A client served again after blocking (ctx.blocked_key
// set) is served from that key only, as Redis's serveClientsBlockedOnStreamKey.
void ReadGeneric(CommandContext& ctx, bool xreadgroup) {
  // XREADGROUP goes to the AOF as the claims and group changes it made, never as itself.
  ctx.PreventPropagation();
  const auto& args = ctx.args;
  const size_t argc = args.size();
  int64_t timeout = -1;
  int64_t count = 0;
  size_t streams_arg = 0;
  size_t streams_count = 0;
  bool noack = false;
  std::string_view group_name;
  std::string_view consumer_name;
  bool have_group = false;
  for (size_t i = 1; i < argc; ++i) {
    const size_t moreargs = argc - i - 1;
    const std::string_view o = args[i];
    if (OptionIs(o, "BLOCK") && moreargs != 0) {
      // Redis refuses BLOCK in scripts outright rather than reading without blocking.
      if (ctx.conn.script_client) {
        return ctx.reply.Error(std::string(args[0]) +
                               " command is not allowed with BLOCK option from scripts");
      }
      ++i;
      if (!ParseLongLong(ctx, args[i], &timeout, "timeout is not an integer or out of range")) {
        return;
      }
      if (timeout < 0) return ctx.reply.Error("timeout is negative");
    } else if (OptionIs(o, "COUNT") && moreargs != 0) {
      ++i;
      if (!ParseLongLong(ctx, args[i], &count)) return;
      if (count < 0) count = 0;
    } else if (OptionIs(o, "STREAMS") && moreargs != 0) {
      streams_arg = i + 1;
      streams_count = argc - streams_arg;
      if (streams_count % 2 != 0) {
        return ctx.reply.Error(
            "Unbalanced XREAD list of streams: for each stream key an ID or '$' must be "
            "specified.");
      }
      streams_count /= 2;
      break;
    } else if (OptionIs(o, "GROUP") && moreargs >= 2) {
      if (!xreadgroup) {
        return ctx.reply.Error(
            "The GROUP option is only supported by XREADGROUP. You called XREAD instead.");
      }
      group_name = args[i + 1];
      consumer_name = args[i + 2];
      have_group = true;
      i += 2;
    } else if (OptionIs(o, "NOACK")) {
      if (!xreadgroup) {
        return ctx.reply.Error(
            "The NOACK option is only supported by XREADGROUP. You called XREAD instead.");
      }
      noack = true;
    } else {
      return ctx.reply.Error(errors::kSyntax);
    }
  }
  if (streams_arg == 0) return ctx.reply.Error(errors::kSyntax);
  if (xreadgroup && !have_group) return ctx.reply.Error("Missing GROUP option for XREADGROUP");

  const std::span<const std::string_view> keys = args.subspan(streams_arg, streams_count);
  std::vector<StreamId> ids(streams_count);
  std::vector<StreamGroup*> groups(have_group ? streams_count : 0);
  constexpr StreamId kNewOnly = StreamId::Max();  // ">"
  for (size_t k = 0; k < streams_count; ++k) {
    const std::string_view key = keys[k];
    const std::string_view id_arg = args[streams_arg + streams_count + k];
    Stream* s = nullptr;
    if (!ReadAggregate<Stream>(ctx, key, &s)) return;
    if (have_group) {
      StreamGroup* g = s != nullptr ? s->FindGroup(group_name) : nullptr;
      if (g == nullptr) {
        if (ctx.blocked_key != nullptr) {
          return ctx.reply.Error(
              "-NOGROUP the consumer group this client was blocked on no longer exists");
        }
        return ctx.reply.Error("-NOGROUP No such key '" + std::string(CStr(key)) +
                               "' or consumer group '" + std::string(CStr(group_name)) +
                               "' in XREADGROUP with GROUP option");
      }
      groups[k] = g;
    }
    const std::string_view id_c = CStr(id_arg);
    if (id_c == "$") {
      if (xreadgroup) {
        return ctx.reply.Error(
            "The $ ID is meaningless in the context of XREADGROUP: you want to read the history "
            "of this consumer by specifying a proper ID, or use the > ID to get new messages. "
            "The $ ID would just return an empty result set.");
      }
      ids[k] = s != nullptr ? s->last_id() : StreamId{};
      continue;
    }
    if (id_c == ">") {
      if (!xreadgroup) {
        return ctx.reply.Error(
            "The > ID can be specified only when calling XREADGROUP using the GROUP <group> "
            "<consumer> option.");
      }
      ids[k] = kNewOnly;
      continue;
    }
    if (!ParseStrictId(ctx, id_arg, &ids[k], 0)) return;
  }

  // Which streams can be served now.
  std::vector<size_t> serve;
  std::vector<bool> history(streams_count, false);
  for (size_t k = 0; k < streams_count; ++k) {
    if (ctx.blocked_key != nullptr && keys[k] != *ctx.blocked_key) continue;
    Stream* s = nullptr;
    ReadAggregate<Stream>(ctx, keys[k], &s);
    if (s == nullptr) continue;
    bool now = false;
    if (have_group) {
      if (ids[k] != kNewOnly) {
        now = true;
        history[k] = true;
      } else if (ctx.blocked_key != nullptr) {
        now = s->last_id() > groups[k]->last_id;
      } else if (s->length() != 0) {
        now = LastValidId(*s) > groups[k]->last_id;
      }
    } else if (ctx.blocked_key != nullptr) {
      now = s->last_id() > ids[k];
    } else if (s->length() != 0) {
      now = LastValidId(*s) > ids[k];
    }
    if (now) serve.push_back(k);
    if (ctx.blocked_key != nullptr) break;  // the ready key's first occurrence only
  }

  if (!serve.empty()) {
    const size_t limit = ctx.blocked_key != nullptr && count == 0
                             ? static_cast<size_t>(kXreadBlockedDefaultCount)
                             : static_cast<size_t>(count);
    if (ctx.reply.protocol() == 2) {
      ctx.reply.ArrayHeader(serve.size());
    } else {
      ctx.reply.MapHeader(serve.size());
    }
    for (size_t k : serve) {
      Stream* s = nullptr;
      WriteAggregate<Stream>(ctx, keys[k], &s);
      if (ctx.reply.protocol() == 2) ctx.reply.ArrayHeader(2);
      ctx.reply.Bulk(keys[k]);
      StreamId start = have_group && ids[k] == kNewOnly ? groups[k]->last_id : ids[k];
      start.Incr();
      if (have_group) {
        GroupRead g;
        g.group = groups[k];
        g.consumer = g.group->FindConsumer(consumer_name);
        if (g.consumer == nullptr) {
          g.consumer = CreateConsumer(ctx, *g.group, consumer_name, keys[k]);
          if (noack) PropagateConsumerCreation(ctx, keys[k], group_name, consumer_name);
        } else {
          g.consumer->seen_time = NowMs(ctx);
        }
        g.noack = noack;
        g.history = history[k];
        g.key = keys[k];
        g.group_name = group_name;
        ReplyRange(ctx, *s, start, StreamId::Max(), limit, false, &g);
        ctx.CountChanges();
      } else {
        ReplyRange(ctx, *s, start, StreamId::Max(), limit, false, nullptr);
      }
    }
    return;
  }

  if (timeout == -1 || !ctx.CanBlock()) return ctx.reply.NullArray();
  if (ctx.blocked_key != nullptr) {
    // Still nothing: keeps its place (the controller ignores the arguments).
    ctx.Block(keys, ValueType::kStream, 0);
    return;
  }
  // Block with "$" replaced by the id it stood for now, so that entries added later are new to
  // it when it runs again.
  std::vector<std::string> owned(args.begin(), args.end());
  for (size_t k = 0; k < streams_count; ++k) {
    if (CStr(owned[streams_arg + streams_count + k]) == "$") {
      owned[streams_arg + streams_count + k] = ids[k].ToString();
    }
  }
  std::vector<std::string_view> views(owned.begin(), owned.end());
  const int64_t deadline = timeout == 0                       ? 0
                           : timeout > INT64_MAX - ctx.now_ms ? INT64_MAX
                                                              : ctx.now_ms + timeout;
  ctx.server.blocking.Block(ctx.conn, *ctx.conn.last_cmd, views, ctx.conn.db_index, keys,
                            ValueType::kStream, deadline, /*needs_stream=*/xreadgroup);
  if (ctx.server.blocking_deadlines_changed && deadline != 0) {
    ctx.server.blocking_deadlines_changed();
  }
}

void XRead(CommandContext& ctx) { ReadGeneric(ctx, false); }
void XReadGroup(CommandContext& ctx) { ReadGeneric(ctx, true); }

// ---- Deleting and setting ids ----

void XDel(CommandContext& ctx) {
  Stream* s = nullptr;
  if (!WriteAggregate<Stream>(ctx, ctx.args[1], &s)) return;
  if (s == nullptr) return ctx.reply.Integer(0);
  std::vector<StreamId> ids(ctx.args.size() - 2);
  for (size_t j = 2; j < ctx.args.size(); ++j) {
    if (!ParseStrictId(ctx, ctx.args[j], &ids[j - 2], 0)) return;
  }
  int64_t deleted = 0;
  for (StreamId id : ids) {
    if (!s->Delete(id)) continue;
    if (id > s->max_deleted_id()) s->set_max_deleted_id(id);
    ++deleted;
  }
  if (deleted != 0) ctx.Notify(kNotifyStream, "xdel", ctx.args[1]);
  ctx.CountChanges(static_cast<uint64_t>(deleted));
  ctx.reply.Integer(deleted);
}

void XSetId(CommandContext& ctx) {
  StreamId id;
  StreamId max_xdel;
  int64_t entries_added = -1;
  if (!ParseStrictId(ctx, ctx.args[2], &id, 0)) return;
  for (size_t i = 3; i < ctx.args.size();) {
    const size_t moreargs = ctx.args.size() - 1 - i;
    const std::string_view opt = ctx.args[i];
    if (OptionIs(opt, "ENTRIESADDED") && moreargs != 0) {
      if (!ParseLongLong(ctx, ctx.args[i + 1], &entries_added)) return;
      if (entries_added < 0) return ctx.reply.Error("entries_added must be positive");
      i += 2;
    } else if (OptionIs(opt, "MAXDELETEDID") && moreargs != 0) {
      if (!ParseStrictId(ctx, ctx.args[i + 1], &max_xdel, 0)) return;
      if (id < max_xdel) {
        return ctx.reply.Error(
            "The ID specified in XSETID is smaller than the provided max_deleted_entry_id");
      }
      i += 2;
    } else {
      return ctx.reply.Error(errors::kSyntax);
    }
  }
  Stream* s = nullptr;
  if (!WriteAggregate<Stream>(ctx, ctx.args[1], &s)) return;
  if (s == nullptr) return ctx.reply.Error(errors::kNoSuchKey);
  if (s->length() > 0) {
    if (id < LastValidId(*s)) {
      return ctx.reply.Error(
          "The ID specified in XSETID is smaller than the target stream top item");
    }
    if (entries_added != -1 && s->length() > static_cast<uint64_t>(entries_added)) {
      return ctx.reply.Error(
          "The entries_added specified in XSETID is smaller than the target stream length");
    }
  }
  s->set_last_id(id);
  if (entries_added != -1) s->set_entries_added(static_cast<uint64_t>(entries_added));
  if (!max_xdel.IsZero()) s->set_max_deleted_id(max_xdel);
  ctx.reply.Ok();
  ctx.CountChanges();
  ctx.Notify(kNotifyStream, "xsetid", ctx.args[1]);
}

constexpr uint32_t kRead = kCmdReadOnly;
constexpr uint32_t kWrite = kCmdWrite;

}  // namespace

void RegisterStreamFamily(CommandRegistry& r) {
  r.Register({"xadd", -5, kWrite | kCmdDenyOom | kCmdFast, 1, 1, 1, XAdd, "stream",
              "Appends a new entry to a stream", "5.0.0", "@write @stream @fast"});
  r.Register({"xlen", 2, kRead | kCmdFast, 1, 1, 1, XLen, "stream",
              "Return the number of entries in a stream", "5.0.0", "@read @stream @fast"});
  r.Register({"xrange", -4, kRead, 1, 1, 1, XRange, "stream",
              "Return a range of elements in a stream, with IDs matching the specified IDs "
              "interval",
              "5.0.0", "@read @stream @slow"});
  r.Register({"xrevrange", -4, kRead, 1, 1, 1, XRevRange, "stream",
              "Return a range of elements in a stream, with IDs matching the specified IDs "
              "interval, in reverse order (from greater to smaller IDs) compared to XRANGE",
              "5.0.0", "@read @stream @slow"});
  r.Register({"xdel", -3, kWrite | kCmdFast, 1, 1, 1, XDel, "stream",
              "Removes the specified entries from the stream. Returns the number of items "
              "actually deleted, that may be different from the number of IDs passed in case "
              "certain IDs do not exist.",
              "5.0.0", "@write @stream @fast"});
  r.Register({"xtrim", -4, kWrite, 1, 1, 1, XTrim, "stream",
              "Trims the stream to (approximately if '~' is passed) a certain size", "5.0.0",
              "@write @stream @slow"});
  r.Register({"xsetid", -3, kWrite | kCmdDenyOom | kCmdFast, 1, 1, 1, XSetId, "stream",
              "An internal command for replicating stream values", "5.0.0",
              "@write @stream @fast"});
  r.Register({"xread", -4, kRead | kCmdBlocking | kCmdMovableKeys, 0, 0, 0, XRead, "stream",
              "Return never seen elements in multiple streams, with IDs greater than the ones "
              "reported by the caller for each stream. Can block.",
              "5.0.0", "@read @stream @slow @blocking"});
  r.Register({"xreadgroup", -7, kWrite | kCmdBlocking | kCmdMovableKeys, 0, 0, 0, XReadGroup,
              "stream",
              "Return new entries from a stream using a consumer group, or access the history of "
              "the pending entries for a given consumer. Can block.",
              "5.0.0", "@write @stream @slow @blocking"});
}

}  // namespace kv
