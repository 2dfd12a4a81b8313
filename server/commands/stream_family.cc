// Streams: XADD, XLEN, XRANGE, XREVRANGE, XDEL, XTRIM, XSETID, XREAD, and the consumer groups'
// XGROUP, XREADGROUP, XACK, XPENDING, XCLAIM, XAUTOCLAIM, plus XINFO, as Redis 7.0's t_stream.c.

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/number.h"
#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/commands/help.h"
#include "server/commands/lookup.h"
#include "server/errors.h"
#include "server/persistence/aof_loader.h"
#include "server/strings.h"
#include "storage/stream.h"

namespace kv {
namespace {

constexpr std::string_view kInvalidId = "Invalid stream ID specified as stream command argument";
constexpr int64_t kXreadBlockedDefaultCount = 1000;  // XREAD_BLOCKED_DEFAULT_COUNT

// An argument as Redis's C string functions see it: up to its first NUL byte.
std::string_view CStr(std::string_view s) { return s.substr(0, s.find('\0')); }

// The server clock's time, for new ids and delivery times (Redis's mstime()).
int64_t NowMs(const CommandContext& ctx) { return ctx.server.clock->NowMs(); }

// Redis's string2ull: a strict integer that is not negative, else strtoull's looser forms
// (leading blanks, a sign, leading zeros), failing on overflow or trailing bytes.
bool StringToUll(std::string_view s, uint64_t* out) {
  if (auto v = ParseInt64(s)) {
    if (*v < 0) return false;
    *out = static_cast<uint64_t>(*v);
    return true;
  }
  if (s.empty()) return false;
  std::string buf(s);
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(buf.c_str(), &end, 10);
  if (errno == EINVAL || errno == ERANGE || *end != '\0') return false;
  if (end == buf.c_str()) return false;  // no digits
  *out = v;
  return true;
}

// Redis's streamGenericParseIDOrReply: "<ms>-<seq>", "<ms>" (seq = missing_seq), "-" and "+"
// unless strict, "<ms>-*" when seq_given is asked for. Replies the error when `reply`.
bool ParseId(CommandContext* ctx, std::string_view arg, StreamId* id, uint64_t missing_seq,
             bool strict, bool* seq_given) {
  auto invalid = [&] {
    if (ctx != nullptr) ctx->reply.Error(kInvalidId);
    return false;
  };
  if (arg.size() > 127) return invalid();
  const std::string_view s = CStr(arg);
  if (strict && (s == "-" || s == "+")) return invalid();
  if (seq_given != nullptr) *seq_given = true;
  if (s == "-") {
    *id = {0, 0};
    return true;
  }
  if (s == "+") {
    *id = StreamId::Max();
    return true;
  }
  const size_t dash = s.find('-');
  uint64_t ms = 0;
  uint64_t seq = 0;
  if (!StringToUll(s.substr(0, dash), &ms)) return invalid();
  if (dash != std::string_view::npos) {
    const std::string_view rest = s.substr(dash + 1);
    if (seq_given != nullptr && rest == "*") {
      seq = 0;
      *seq_given = false;
    } else if (!StringToUll(rest, &seq)) {
      return invalid();
    }
  } else {
    seq = missing_seq;
  }
  *id = {ms, seq};
  return true;
}

bool ParseStrictId(CommandContext& ctx, std::string_view arg, StreamId* id, uint64_t missing_seq,
                   bool* seq_given = nullptr) {
  return ParseId(&ctx, arg, id, missing_seq, true, seq_given);
}

// Redis's streamParseIntervalIDOrReply: an id, or "(id" for an exclusive bound.
bool ParseIntervalId(CommandContext& ctx, std::string_view arg, StreamId* id, bool* exclude,
                     uint64_t missing_seq) {
  *exclude = arg.size() > 1 && arg[0] == '(';
  if (*exclude) return ParseStrictId(ctx, arg.substr(1), id, missing_seq);
  return ParseId(&ctx, arg, id, missing_seq, false, nullptr);
}

bool ParseLongLong(CommandContext& ctx, std::string_view arg, int64_t* out,
                   std::string_view error = errors::kNotInteger) {
  const std::optional<int64_t> v = ParseInt64(arg);
  if (!v) {
    ctx.reply.Error(error);
    return false;
  }
  *out = *v;
  return true;
}

void ReplyId(ReplyWriter& reply, StreamId id) {
  char buf[48];
  char* p = buf;
  auto put = [&](uint64_t v) {
    char tmp[24];
    int n = 0;
    do {
      tmp[n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    while (n > 0) *p++ = tmp[--n];
  };
  put(id.ms);
  *p++ = '-';
  put(id.seq);
  reply.Bulk(std::string_view(buf, static_cast<size_t>(p - buf)));
}

void ReplyListPackValue(ReplyWriter& reply, const ListPackValue& v) {
  char buf[ListPackValue::kIntBufSize];
  reply.Bulk(v.ToString(buf));
}

// An array whose length is known only once its elements are written: they go to a scratch
// buffer first (Redis's deferred lengths).
class DeferredArray {
 public:
  explicit DeferredArray(ReplyWriter& out) : out_(out), writer_(&scratch_, out.protocol()) {}
  ReplyWriter& writer() { return writer_; }
  void Finish(size_t n, bool map = false) {
    if (map) {
      out_.MapHeader(n);
    } else {
      out_.ArrayHeader(n);
    }
    out_.Raw(scratch_.view());
  }

 private:
  ReplyWriter& out_;
  IoBuffer scratch_;
  ReplyWriter writer_;
};

// One entry: [id, [field, value, ...]], from an iterator just positioned on it.
void ReplyEntry(ReplyWriter& reply, Stream::Iterator& it, StreamId id, int64_t num_fields) {
  reply.ArrayHeader(2);
  ReplyId(reply, id);
  reply.ArrayHeader(static_cast<size_t>(num_fields) * 2);
  for (int64_t i = 0; i < num_fields; ++i) {
    ListPackValue field;
    ListPackValue value;
    it.NextField(&field, &value);
    ReplyListPackValue(reply, field);
    ReplyListPackValue(reply, value);
  }
}

// Writes entry `id` alone ([id, fields]) when it exists; false otherwise (STREAM_RWR_RAWENTRIES).
bool ReplyOneEntry(ReplyWriter& reply, const Stream& s, StreamId id) {
  Stream::Iterator it(s, id, id, false);
  StreamId found;
  int64_t n;
  if (!it.Next(&found, &n)) return false;
  ReplyEntry(reply, it, found, n);
  return true;
}

// Redis's streamCreateConsumer: a new consumer (the name must be new), a change and its
// "xgroup-createconsumer" event.
StreamConsumer* CreateConsumer(CommandContext& ctx, StreamGroup& g, std::string_view name,
                               std::string_view key) {
  StreamConsumer* c = g.CreateConsumer(name, NowMs(ctx));
  ctx.CountChanges();
  ctx.Notify(kNotifyStream, "xgroup-createconsumer", key);
  return c;
}

// What a consumer group's reads and claims send to the AOF in place of the command (Redis's
// streamPropagateXCLAIM, streamPropagateGroupID and streamPropagateConsumerCreation): commands
// that replay the same change whatever the clock and the entries' state then.

// XCLAIM <key> <group> <consumer> 0 <id> TIME <ms> RETRYCOUNT <count> FORCE JUSTID LASTID <id>:
// the pending entry `id` (as the client wrote it, or formatted) as it is now.
void PropagateClaim(CommandContext& ctx, std::string_view key, std::string_view group_name,
                    const StreamGroup& g, std::string_view id, const StreamNack& nack) {
  if (!ctx.Propagating()) return;
  ctx.AlsoPropagate({"XCLAIM", std::string(key), std::string(group_name), nack.consumer->name, "0",
                     std::string(id), "TIME", std::to_string(nack.delivery_time), "RETRYCOUNT",
                     std::to_string(nack.delivery_count), "FORCE", "JUSTID", "LASTID",
                     g.last_id.ToString()});
}

// XGROUP SETID <key> <group> <last id> ENTRIESREAD <n>: a group's position moved without a
// claim to carry it (NOACK reads, XCLAIM LASTID alone).
void PropagateGroupId(CommandContext& ctx, std::string_view key, std::string_view group_name,
                      const StreamGroup& g) {
  if (!ctx.Propagating()) return;
  ctx.AlsoPropagate({"XGROUP", "SETID", std::string(key), std::string(group_name),
                     g.last_id.ToString(), "ENTRIESREAD", std::to_string(g.entries_read)});
}

// XGROUP CREATECONSUMER <key> <group> <consumer>: a consumer a NOACK read created (no claim will
// create it on replay).
void PropagateConsumerCreation(CommandContext& ctx, std::string_view key,
                               std::string_view group_name, std::string_view consumer) {
  if (!ctx.Propagating()) return;
  ctx.AlsoPropagate({"XGROUP", "CREATECONSUMER", std::string(key), std::string(group_name),
                     std::string(consumer)});
}

struct GroupRead {
  StreamGroup* group = nullptr;
  StreamConsumer* consumer = nullptr;
  bool noack = false;
  bool history = false;
  // The key and group name as the client wrote them (what is propagated).
  std::string_view key;
  std::string_view group_name;
};

// Redis's streamReplyWithRangeFromConsumerPEL: the consumer's pending entries from `start`.
size_t ReplyFromConsumerPel(CommandContext& ctx, const Stream& s, StreamId start, size_t count,
                            StreamGroup& group, StreamConsumer& consumer) {
  DeferredArray out(ctx.reply);
  size_t n = 0;
  const int64_t now = NowMs(ctx);
  for (auto it = consumer.pel.lower_bound(start);
       it != consumer.pel.end() && (count == 0 || n < count); ++it) {
    if (!ReplyOneEntry(out.writer(), s, *it)) {
      // Pending but deleted meanwhile: the id with a null entry.
      out.writer().ArrayHeader(2);
      ReplyId(out.writer(), *it);
      out.writer().NullArray();
    } else {
      StreamNack& nack = group.pel.at(*it);
      nack.delivery_time = now;
      ++nack.delivery_count;
    }
    ++n;
  }
  out.Finish(n);
  return n;
}

// Redis's streamReplyWithRange: entries from start to end (inclusive), at most `count` (0: all),
// delivered to a group's consumer when `g` has one.
size_t ReplyRange(CommandContext& ctx, Stream& s, StreamId start, StreamId end, size_t count,
                  bool rev, const GroupRead* g) {
  if (g != nullptr && g->history) {
    return ReplyFromConsumerPel(ctx, s, start, count, *g->group, *g->consumer);
  }
  DeferredArray out(ctx.reply);
  Stream::Iterator it(s, start, end, rev);
  StreamId id;
  int64_t num_fields;
  size_t n = 0;
  const int64_t now = g != nullptr ? NowMs(ctx) : 0;
  bool propagate_last_id = false;
  while (it.Next(&id, &num_fields)) {
    if (g != nullptr && id > g->group->last_id) {
      s.AdvanceGroup(*g->group, id);
      // Without NOACK the claims carry the group's last id (LASTID).
      if (g->noack) propagate_last_id = true;
    }
    ReplyEntry(out.writer(), it, id, num_fields);
    if (g != nullptr && !g->noack) {
      g->group->Deliver(id, g->consumer, now);
      if (ctx.Propagating()) {
        PropagateClaim(ctx, g->key, g->group_name, *g->group, id.ToString(), g->group->pel.at(id));
      }
    }
    ++n;
    if (count != 0 && n == count) break;
  }
  if (propagate_last_id) PropagateGroupId(ctx, g->key, g->group_name, *g->group);
  out.Finish(n);
  return n;
}

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

// ---- Consumer groups ----

std::string NoGroupForKey(std::string_view group, std::string_view key) {
  return "-NOGROUP No such consumer group '" + std::string(CStr(group)) + "' for key name '" +
         std::string(CStr(key)) + "'";
}

std::string NoKeyOrGroup(std::string_view key, std::string_view group) {
  return "-NOGROUP No such key '" + std::string(CStr(key)) + "' or consumer group '" +
         std::string(CStr(group)) + "'";
}

void XGroupHelp(CommandContext& ctx) {
  ReplyHelp(
      ctx, "xgroup",
      {"CREATE <key> <groupname> <id|$> [option]",
       "    Create a new consumer group. Options are:", "    * MKSTREAM",
       "      Create the empty stream if it does not exist.", "    * ENTRIESREAD entries_read",
       "      Set the group's entries_read counter (internal use).",
       "CREATECONSUMER <key> <groupname> <consumer>",
       "    Create a new consumer in the specified group.",
       "DELCONSUMER <key> <groupname> <consumer>", "    Remove the specified consumer.",
       "DESTROY <key> <groupname>", "    Remove the specified group.",
       "SETID <key> <groupname> <id|$> [ENTRIESREAD entries_read]",
       "    Set the current group ID and entries_read counter."});
}

// Every XGROUP subcommand but HELP (xgroupCommand): options, the key and group checks, then the
// subcommand.
void XGroupGeneric(CommandContext& ctx) {
  const std::string_view opt = ctx.args[1];
  const size_t argc = ctx.args.size();
  bool mkstream = false;
  int64_t entries_read = StreamGroup::kInvalidEntriesRead;
  Stream* s = nullptr;
  StreamGroup* cg = nullptr;
  const bool create = OptionIs(opt, "CREATE");
  const bool setid = OptionIs(opt, "SETID");
  const std::string_view key = ctx.args[2];
  const std::string_view name = ctx.args[3];
  for (size_t i = 5; i < argc;) {
    if (create && OptionIs(ctx.args[i], "MKSTREAM")) {
      mkstream = true;
      ++i;
    } else if ((create || setid) && OptionIs(ctx.args[i], "ENTRIESREAD") && i + 1 < argc) {
      if (!ParseLongLong(ctx, ctx.args[i + 1], &entries_read)) return;
      if (entries_read < 0 && entries_read != StreamGroup::kInvalidEntriesRead) {
        return ctx.reply.Error("value for ENTRIESREAD must be positive or -1");
      }
      i += 2;
    } else {
      return ctx.reply.Error(SubcommandSyntaxError(opt, "xgroup"));
    }
  }
  if (!WriteAggregate<Stream>(ctx, key, &s)) return;
  if (!mkstream) {
    if (s == nullptr) {
      return ctx.reply.Error(
          "The XGROUP subcommand requires the key to exist. Note that for CREATE you may want "
          "to use the MKSTREAM option to create an empty stream automatically.");
    }
    cg = s->FindGroup(name);
    if (cg == nullptr &&
        (setid || OptionIs(opt, "CREATECONSUMER") || OptionIs(opt, "DELCONSUMER"))) {
      return ctx.reply.Error(NoGroupForKey(name, key));
    }
  }
  if (create && argc >= 5 && argc <= 8) {
    StreamId id;
    if (CStr(ctx.args[4]) == "$") {
      id = s != nullptr ? s->last_id() : StreamId{};
    } else if (!ParseStrictId(ctx, ctx.args[4], &id, 0)) {
      return;
    }
    if (s == nullptr) s = &AddAggregate(ctx, key, std::make_unique<Stream>());
    if (s->CreateGroup(name, id, entries_read) == nullptr) {
      return ctx.reply.Error("-BUSYGROUP Consumer Group name already exists");
    }
    ctx.reply.Ok();
    ctx.CountChanges();
    ctx.Notify(kNotifyStream, "xgroup-create", key);
    return;
  }
  if (setid && (argc == 5 || argc == 7)) {
    StreamId id;
    if (CStr(ctx.args[4]) == "$") {
      id = s->last_id();
    } else if (!ParseId(&ctx, ctx.args[4], &id, 0, false, nullptr)) {
      return;
    }
    cg->last_id = id;
    cg->entries_read = entries_read;
    ctx.reply.Ok();
    ctx.CountChanges();
    ctx.Notify(kNotifyStream, "xgroup-setid", key);
    return;
  }
  if (OptionIs(opt, "DESTROY") && argc == 4) {
    if (cg == nullptr) return ctx.reply.Integer(0);
    s->DestroyGroup(name);
    ctx.reply.Integer(1);
    ctx.CountChanges();
    ctx.Notify(kNotifyStream, "xgroup-destroy", key);
    // Clients blocked in XREADGROUP on this group get their error.
    ctx.SignalKeyAsReady(key, ValueType::kStream);
    return;
  }
  if (OptionIs(opt, "CREATECONSUMER") && argc == 5) {
    if (cg->FindConsumer(ctx.args[4]) != nullptr) return ctx.reply.Integer(0);
    CreateConsumer(ctx, *cg, ctx.args[4], key);
    return ctx.reply.Integer(1);
  }
  if (OptionIs(opt, "DELCONSUMER") && argc == 5) {
    StreamConsumer* c = cg->FindConsumer(ctx.args[4]);
    if (c == nullptr) return ctx.reply.Integer(0);
    const size_t pending = cg->DeleteConsumer(c);
    ctx.CountChanges();
    ctx.Notify(kNotifyStream, "xgroup-delconsumer", key);
    return ctx.reply.Integer(static_cast<int64_t>(pending));
  }
  ctx.reply.Error(SubcommandSyntaxError(opt, "xgroup"));
}

void XGroupContainer(CommandContext& ctx) { ctx.reply.Error(WrongArityError("xgroup")); }

void XAck(CommandContext& ctx) {
  Stream* s = nullptr;
  if (!ReadAggregate<Stream>(ctx, ctx.args[1], &s)) return;
  StreamGroup* g = s != nullptr ? s->FindGroup(ctx.args[2]) : nullptr;
  if (g == nullptr) return ctx.reply.Integer(0);
  std::vector<StreamId> ids(ctx.args.size() - 3);
  for (size_t j = 3; j < ctx.args.size(); ++j) {
    if (!ParseStrictId(ctx, ctx.args[j], &ids[j - 3], 0)) return;
  }
  int64_t acked = 0;
  for (StreamId id : ids) acked += g->Ack(id);
  ctx.CountChanges(static_cast<uint64_t>(acked));
  ctx.reply.Integer(acked);
}

void XPending(CommandContext& ctx) {
  const size_t argc = ctx.args.size();
  const bool justinfo = argc == 3;
  StreamId start;
  StreamId end;
  int64_t count = 0;
  int64_t minidle = 0;
  std::string_view consumer_name;
  bool have_consumer = false;
  if (argc != 3 && (argc < 6 || argc > 9)) return ctx.reply.Error(errors::kSyntax);
  if (argc >= 6) {
    size_t startidx = 3;
    if (OptionIs(ctx.args[3], "IDLE")) {
      if (!ParseLongLong(ctx, ctx.args[4], &minidle)) return;
      if (argc < 8) return ctx.reply.Error(errors::kSyntax);
      startidx += 2;
    }
    if (!ParseLongLong(ctx, ctx.args[startidx + 2], &count)) return;
    if (count < 0) count = 0;
    bool ex;
    if (!ParseIntervalId(ctx, ctx.args[startidx], &start, &ex, 0)) return;
    if (ex && !start.Incr()) return ctx.reply.Error("invalid start ID for the interval");
    if (!ParseIntervalId(ctx, ctx.args[startidx + 1], &end, &ex, UINT64_MAX)) return;
    if (ex && !end.Decr()) return ctx.reply.Error("invalid end ID for the interval");
    if (startidx + 3 < argc) {
      consumer_name = ctx.args[startidx + 3];
      have_consumer = true;
    }
  }
  Stream* s = nullptr;
  if (!ReadAggregate<Stream>(ctx, ctx.args[1], &s)) return;
  StreamGroup* g = s != nullptr ? s->FindGroup(ctx.args[2]) : nullptr;
  if (g == nullptr) return ctx.reply.Error(NoKeyOrGroup(ctx.args[1], ctx.args[2]));

  if (justinfo) {
    ctx.reply.ArrayHeader(4);
    ctx.reply.Integer(static_cast<int64_t>(g->pel.size()));
    if (g->pel.empty()) {
      ctx.reply.Null();
      ctx.reply.Null();
      ctx.reply.NullArray();
      return;
    }
    ReplyId(ctx.reply, g->pel.begin()->first);
    ReplyId(ctx.reply, g->pel.rbegin()->first);
    size_t n = 0;
    for (const auto& [name, c] : g->consumers) n += !c->pel.empty();
    ctx.reply.ArrayHeader(n);
    for (const auto& [name, c] : g->consumers) {
      if (c->pel.empty()) continue;
      ctx.reply.ArrayHeader(2);
      ctx.reply.Bulk(name);
      ctx.reply.Bulk(std::to_string(c->pel.size()));
    }
    return;
  }
  StreamConsumer* consumer = nullptr;
  if (have_consumer) {
    consumer = g->FindConsumer(consumer_name);
    if (consumer == nullptr) return ctx.reply.ArrayHeader(0);
  }
  const int64_t now = NowMs(ctx);
  DeferredArray out(ctx.reply);
  size_t n = 0;
  auto emit = [&](StreamId id, const StreamNack& nack) {
    if (minidle != 0 && now - nack.delivery_time < minidle) return;
    ++n;
    --count;
    ReplyWriter& w = out.writer();
    w.ArrayHeader(4);
    ReplyId(w, id);
    w.Bulk(nack.consumer->name);
    w.Integer(std::max<int64_t>(0, now - nack.delivery_time));
    w.Integer(static_cast<int64_t>(nack.delivery_count));
  };
  if (consumer != nullptr) {
    for (auto it = consumer->pel.lower_bound(start);
         count != 0 && it != consumer->pel.end() && *it <= end; ++it) {
      emit(*it, g->pel.at(*it));
    }
  } else {
    for (auto it = g->pel.lower_bound(start); count != 0 && it != g->pel.end() && it->first <= end;
         ++it) {
      emit(it->first, it->second);
    }
  }
  out.Finish(n);
}

void XClaim(CommandContext& ctx) {
  Stream* s = nullptr;
  if (!ReadAggregate<Stream>(ctx, ctx.args[1], &s)) return;
  StreamGroup* g = s != nullptr ? s->FindGroup(ctx.args[2]) : nullptr;
  if (g == nullptr) return ctx.reply.Error(NoKeyOrGroup(ctx.args[1], ctx.args[2]));
  // Propagated as one XCLAIM ... FORCE per entry claimed or dropped (or an XGROUP SETID).
  ctx.PreventPropagation();
  int64_t minidle;
  if (!ParseLongLong(ctx, ctx.args[4], &minidle, "Invalid min-idle-time argument for XCLAIM")) {
    return;
  }
  if (minidle < 0) minidle = 0;
  // The ids, up to the first argument that is not one (the options begin there).
  std::vector<StreamId> ids;
  size_t j = 5;
  for (; j < ctx.args.size(); ++j) {
    StreamId id;
    if (!ParseId(nullptr, ctx.args[j], &id, 0, true, nullptr)) break;
    ids.push_back(id);
  }
  const int64_t now = NowMs(ctx);
  int64_t retrycount = -1;
  int64_t deliverytime = -1;
  bool force = false;
  bool justid = false;
  StreamId last_id;
  for (; j < ctx.args.size(); ++j) {
    const size_t moreargs = ctx.args.size() - 1 - j;
    const std::string_view opt = ctx.args[j];
    if (OptionIs(opt, "FORCE")) {
      force = true;
    } else if (OptionIs(opt, "JUSTID")) {
      justid = true;
    } else if (OptionIs(opt, "IDLE") && moreargs != 0) {
      ++j;
      if (!ParseLongLong(ctx, ctx.args[j], &deliverytime,
                         "Invalid IDLE option argument for XCLAIM")) {
        return;
      }
      deliverytime = now - deliverytime;
    } else if (OptionIs(opt, "TIME") && moreargs != 0) {
      ++j;
      if (!ParseLongLong(ctx, ctx.args[j], &deliverytime,
                         "Invalid TIME option argument for XCLAIM")) {
        return;
      }
    } else if (OptionIs(opt, "RETRYCOUNT") && moreargs != 0) {
      ++j;
      if (!ParseLongLong(ctx, ctx.args[j], &retrycount,
                         "Invalid RETRYCOUNT option argument for XCLAIM")) {
        return;
      }
    } else if (OptionIs(opt, "LASTID") && moreargs != 0) {
      ++j;
      if (!ParseStrictId(ctx, ctx.args[j], &last_id, 0)) return;
    } else {
      return ctx.reply.Error("Unrecognized XCLAIM option '" + std::string(CStr(opt)) + "'");
    }
  }
  // Redis counts the group's new last id as a change only when no entry was claimed or dropped.
  bool last_id_alone = false;
  if (last_id > g->last_id) {
    g->last_id = last_id;
    last_id_alone = true;
  }
  if (deliverytime != -1) {
    if (deliverytime < 0 || deliverytime > now) deliverytime = now;
  } else {
    deliverytime = now;
  }
  const std::string_view name = ctx.args[3];
  StreamConsumer* consumer = nullptr;
  DeferredArray out(ctx.reply);
  size_t n = 0;
  for (size_t i = 0; i < ids.size(); ++i) {
    const StreamId id = ids[i];
    const std::string_view id_arg = ctx.args[5 + i];
    auto nit = g->pel.find(id);
    if (!s->Contains(id)) {
      // Pending but deleted: it leaves the PEL.
      if (nit != g->pel.end()) {
        PropagateClaim(ctx, ctx.args[1], ctx.args[2], *g, id_arg, nit->second);
        g->Ack(id);
        ctx.CountChanges();
        last_id_alone = false;
      }
      continue;
    }
    if (force && nit == g->pel.end()) {
      nit = g->pel.try_emplace(id).first;
      nit->second.consumer = nullptr;
      nit->second.delivery_time = now;
    }
    if (nit == g->pel.end()) continue;
    StreamNack& nack = nit->second;
    if (nack.consumer != nullptr && minidle != 0 && now - nack.delivery_time < minidle) continue;
    if (consumer == nullptr) {
      consumer = g->FindConsumer(name);
      if (consumer == nullptr) {
        consumer = CreateConsumer(ctx, *g, name, ctx.args[1]);
      } else {
        consumer->seen_time = now;
      }
    }
    if (nack.consumer != consumer) {
      if (nack.consumer != nullptr) nack.consumer->pel.erase(id);
    }
    nack.delivery_time = deliverytime;
    if (retrycount >= 0) {
      nack.delivery_count = static_cast<uint64_t>(retrycount);
    } else if (!justid) {
      ++nack.delivery_count;
    }
    if (nack.consumer != consumer) {
      consumer->pel.insert(id);
      nack.consumer = consumer;
    }
    if (justid) {
      ReplyId(out.writer(), id);
    } else {
      ReplyOneEntry(out.writer(), *s, id);
    }
    ++n;
    PropagateClaim(ctx, ctx.args[1], ctx.args[2], *g, id_arg, nack);
    ctx.CountChanges();
    last_id_alone = false;
  }
  if (last_id_alone) {
    PropagateGroupId(ctx, ctx.args[1], ctx.args[2], *g);
    ctx.CountChanges();
  }
  out.Finish(n);
}

void XAutoClaim(CommandContext& ctx) {
  // The key is looked up before the arguments are parsed (a "keymiss" even when they are bad),
  // its type checked after, as Redis's xautoclaimCommand.
  LookupRead(ctx, ctx.args[1]);
  int64_t minidle;
  if (!ParseLongLong(ctx, ctx.args[4], &minidle, "Invalid min-idle-time argument for XAUTOCLAIM")) {
    return;
  }
  if (minidle < 0) minidle = 0;
  StreamId start;
  bool ex;
  if (!ParseIntervalId(ctx, ctx.args[5], &start, &ex, 0)) return;
  if (ex && !start.Incr()) return ctx.reply.Error("invalid start ID for the interval");
  constexpr int64_t kAttemptsFactor = 10;
  int64_t count = 100;
  bool justid = false;
  for (size_t j = 6; j < ctx.args.size(); ++j) {
    const size_t moreargs = ctx.args.size() - 1 - j;
    const std::string_view opt = ctx.args[j];
    if (OptionIs(opt, "COUNT") && moreargs != 0) {
      constexpr int64_t kMaxCount = LONG_MAX / 16;  // LONG_MAX / max(sizeof(streamID), 10)
      const std::optional<int64_t> v = ParseInt64(ctx.args[j + 1]);
      if (!v || *v < 1 || *v > kMaxCount) return ctx.reply.Error("COUNT must be > 0");
      count = *v;
      ++j;
    } else if (OptionIs(opt, "JUSTID")) {
      justid = true;
    } else {
      return ctx.reply.Error(errors::kSyntax);
    }
  }
  Stream* s = nullptr;
  if (!WriteAggregate<Stream>(ctx, ctx.args[1], &s)) return;  // (looked up above)
  StreamGroup* g = s != nullptr ? s->FindGroup(ctx.args[2]) : nullptr;
  if (g == nullptr) return ctx.reply.Error(NoKeyOrGroup(ctx.args[1], ctx.args[2]));
  // Redis allocates COUNT ids up front (ztrymalloc) and fails when that cannot be had; so does
  // this, without touching the block.
  if (void* probe = std::malloc(static_cast<size_t>(count) * sizeof(StreamId))) {
    std::free(probe);
  } else {
    return ctx.reply.Error(
        "Insufficient memory, failed allocating transient memory, COUNT too high.");
  }

  // Propagated as one XCLAIM ... FORCE per entry claimed or dropped.
  ctx.PreventPropagation();
  const int64_t now = NowMs(ctx);
  const std::string_view name = ctx.args[3];
  StreamConsumer* consumer = nullptr;
  int64_t attempts = count * kAttemptsFactor;
  std::vector<StreamId> deleted;
  DeferredArray out(ctx.reply);
  size_t n = 0;
  auto it = g->pel.lower_bound(start);
  while (attempts-- != 0 && count != 0 && it != g->pel.end()) {
    const StreamId id = it->first;
    StreamNack& nack = it->second;
    if (!s->Contains(id)) {
      // Pending but deleted: it leaves the PEL and is reported.
      if (ctx.Propagating()) PropagateClaim(ctx, ctx.args[1], ctx.args[2], *g, id.ToString(), nack);
      ++it;
      nack.consumer->pel.erase(id);
      g->pel.erase(id);
      deleted.push_back(id);
      ctx.CountChanges();
      --count;
      continue;
    }
    if (minidle != 0 && now - nack.delivery_time < minidle) {
      ++it;
      continue;
    }
    if (consumer == nullptr) {
      consumer = g->FindConsumer(name);
      if (consumer == nullptr) {
        consumer = CreateConsumer(ctx, *g, name, ctx.args[1]);
      } else {
        consumer->seen_time = now;
      }
    }
    g->Reassign(nack, id, consumer);
    nack.delivery_time = now;
    if (!justid) ++nack.delivery_count;
    if (justid) {
      ReplyId(out.writer(), id);
    } else {
      ReplyOneEntry(out.writer(), *s, id);
    }
    ++n;
    --count;
    if (ctx.Propagating()) PropagateClaim(ctx, ctx.args[1], ctx.args[2], *g, id.ToString(), nack);
    ctx.CountChanges();
    ++it;
  }
  ctx.reply.ArrayHeader(3);
  ReplyId(ctx.reply, it == g->pel.end() ? StreamId{} : it->first);
  out.Finish(n);
  ctx.reply.ArrayHeader(deleted.size());
  for (StreamId id : deleted) ReplyId(ctx.reply, id);
}

// ---- XINFO ----

void ReplyEntriesRead(ReplyWriter& reply, const StreamGroup& g) {
  if (g.entries_read != StreamGroup::kInvalidEntriesRead) {
    reply.Integer(g.entries_read);
  } else {
    reply.Null();
  }
}

void ReplyLag(ReplyWriter& reply, const Stream& s, const StreamGroup& g) {
  if (const std::optional<int64_t> lag = s.GroupLag(g)) {
    reply.Integer(*lag);
  } else {
    reply.Null();
  }
}

// XINFO's radix-tree-nodes: the node count of the radix tree Redis would keep for these node keys
// (16-byte big-endian master ids). kvserver keeps the nodes in an ordered map, so this counts what
// rax's compressed trie has: the root, every prefix where keys branch and each of its children,
// and each key's leaf. In sorted order, adjacent keys branch at their common prefix.
size_t RadixTreeNodes(const Stream& s) {
  std::vector<std::string> keys;
  keys.reserve(s.nodes().size());
  for (const auto& [id, lp] : s.nodes()) {
    std::string k(16, '\0');
    for (int i = 0; i < 8; ++i) {
      k[i] = static_cast<char>(id.ms >> (56 - 8 * i));
      k[8 + i] = static_cast<char>(id.seq >> (56 - 8 * i));
    }
    keys.push_back(std::move(k));
  }
  std::set<std::string> positions = {std::string()};
  for (size_t i = 0; i < keys.size(); ++i) {
    positions.insert(keys[i]);
    if (i + 1 == keys.size()) break;
    size_t lcp = 0;
    while (keys[i][lcp] == keys[i + 1][lcp]) ++lcp;
    positions.insert(keys[i].substr(0, lcp));
    positions.insert(keys[i].substr(0, lcp + 1));
    positions.insert(keys[i + 1].substr(0, lcp + 1));
  }
  return positions.size();
}

Stream* LookupInfo(CommandContext& ctx) {
  Stream* s = nullptr;
  if (!ReadAggregate<Stream>(ctx, ctx.args[2], &s)) return nullptr;
  if (s == nullptr) ctx.reply.Error(errors::kNoSuchKey);
  return s;
}

void XInfoStream(CommandContext& ctx) {
  // The key first, then the options (xinfoCommand looks it up before xinfoReplyWithStreamInfo).
  Stream* s = LookupInfo(ctx);
  if (s == nullptr) return;
  const size_t optc = ctx.args.size() - 3;
  bool full = false;
  int64_t count = 10;
  if (optc != 0) {
    if ((optc != 1 && optc != 3) || !OptionIs(ctx.args[3], "full") ||
        (optc == 3 && !OptionIs(ctx.args[4], "count"))) {
      return ctx.reply.Error(SubcommandSyntaxError(ctx.args[1], "xinfo"));
    }
    full = true;
    if (optc == 3) {
      if (!ParseLongLong(ctx, ctx.args[5], &count)) return;
      if (count < 0) count = 10;
    }
  }
  ReplyWriter& r = ctx.reply;
  r.MapHeader(full ? 9 : 10);
  r.Bulk("length");
  r.Integer(static_cast<int64_t>(s->length()));
  r.Bulk("radix-tree-keys");
  r.Integer(static_cast<int64_t>(s->nodes().size()));
  r.Bulk("radix-tree-nodes");
  r.Integer(static_cast<int64_t>(RadixTreeNodes(*s)));
  r.Bulk("last-generated-id");
  ReplyId(r, s->last_id());
  r.Bulk("max-deleted-entry-id");
  ReplyId(r, s->max_deleted_id());
  r.Bulk("entries-added");
  r.Integer(static_cast<int64_t>(s->entries_added()));
  r.Bulk("recorded-first-entry-id");
  ReplyId(r, s->first_id());
  if (!full) {
    r.Bulk("groups");
    r.Integer(static_cast<int64_t>(s->groups().size()));
    r.Bulk("first-entry");
    StreamId id;
    if (!s->EdgeId(true, &id) || !ReplyOneEntry(r, *s, id)) r.Null();
    r.Bulk("last-entry");
    if (!s->EdgeId(false, &id) || !ReplyOneEntry(r, *s, id)) r.Null();
    return;
  }
  const size_t limit = static_cast<size_t>(count);
  r.Bulk("entries");
  ReplyRange(ctx, *s, {}, StreamId::Max(), limit, false, nullptr);
  r.Bulk("groups");
  r.ArrayHeader(s->groups().size());
  for (const auto& [name, g] : s->groups()) {
    r.MapHeader(7);
    r.Bulk("name");
    r.Bulk(name);
    r.Bulk("last-delivered-id");
    ReplyId(r, g->last_id);
    r.Bulk("entries-read");
    ReplyEntriesRead(r, *g);
    r.Bulk("lag");
    ReplyLag(r, *s, *g);
    r.Bulk("pel-count");
    r.Integer(static_cast<int64_t>(g->pel.size()));
    r.Bulk("pending");
    size_t n = limit == 0 ? g->pel.size() : std::min(limit, g->pel.size());
    r.ArrayHeader(n);
    for (auto it = g->pel.begin(); n-- != 0; ++it) {
      r.ArrayHeader(4);
      ReplyId(r, it->first);
      r.Bulk(it->second.consumer->name);
      r.Integer(it->second.delivery_time);
      r.Integer(static_cast<int64_t>(it->second.delivery_count));
    }
    r.Bulk("consumers");
    r.ArrayHeader(g->consumers.size());
    for (const auto& [cname, c] : g->consumers) {
      r.MapHeader(4);
      r.Bulk("name");
      r.Bulk(cname);
      r.Bulk("seen-time");
      r.Integer(c->seen_time);
      r.Bulk("pel-count");
      r.Integer(static_cast<int64_t>(c->pel.size()));
      r.Bulk("pending");
      size_t m = limit == 0 ? c->pel.size() : std::min(limit, c->pel.size());
      r.ArrayHeader(m);
      for (auto it = c->pel.begin(); m-- != 0; ++it) {
        const StreamNack& nack = g->pel.at(*it);
        r.ArrayHeader(3);
        ReplyId(r, *it);
        r.Integer(nack.delivery_time);
        r.Integer(static_cast<int64_t>(nack.delivery_count));
      }
    }
  }
}

void XInfoGroups(CommandContext& ctx) {
  Stream* s = LookupInfo(ctx);
  if (s == nullptr) return;
  ReplyWriter& r = ctx.reply;
  r.ArrayHeader(s->groups().size());
  for (const auto& [name, g] : s->groups()) {
    r.MapHeader(6);
    r.Bulk("name");
    r.Bulk(name);
    r.Bulk("consumers");
    r.Integer(static_cast<int64_t>(g->consumers.size()));
    r.Bulk("pending");
    r.Integer(static_cast<int64_t>(g->pel.size()));
    r.Bulk("last-delivered-id");
    ReplyId(r, g->last_id);
    r.Bulk("entries-read");
    ReplyEntriesRead(r, *g);
    r.Bulk("lag");
    ReplyLag(r, *s, *g);
  }
}

void XInfoConsumers(CommandContext& ctx) {
  Stream* s = LookupInfo(ctx);
  if (s == nullptr) return;
  StreamGroup* g = s->FindGroup(ctx.args[3]);
  if (g == nullptr) return ctx.reply.Error(NoGroupForKey(ctx.args[3], ctx.args[2]));
  const int64_t now = NowMs(ctx);
  ReplyWriter& r = ctx.reply;
  r.ArrayHeader(g->consumers.size());
  for (const auto& [name, c] : g->consumers) {
    r.MapHeader(3);
    r.Bulk("name");
    r.Bulk(name);
    r.Bulk("pending");
    r.Integer(static_cast<int64_t>(c->pel.size()));
    r.Bulk("idle");
    r.Integer(std::max<int64_t>(0, now - c->seen_time));
  }
}

void XInfoHelp(CommandContext& ctx) {
  ReplyHelp(ctx, "xinfo",
            {"CONSUMERS <key> <groupname>", "    Show consumers of <groupname>.", "GROUPS <key>",
             "    Show the stream consumer groups.", "STREAM <key> [FULL [COUNT <count>]",
             "    Show information about the stream."});
}

void XInfoContainer(CommandContext& ctx) { ctx.reply.Error(WrongArityError("xinfo")); }

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
  r.Register({"xack", -4, kWrite | kCmdFast, 1, 1, 1, XAck, "stream",
              "Marks a pending message as correctly processed, effectively removing it from the "
              "pending entries list of the consumer group. Return value of the command is the "
              "number of messages successfully acknowledged, that is, the IDs we were actually "
              "able to resolve in the PEL.",
              "5.0.0", "@write @stream @fast"});
  r.Register({"xpending", -3, kRead, 1, 1, 1, XPending, "stream",
              "Return information and entries from a stream consumer group pending entries list, "
              "that are messages fetched but never acknowledged.",
              "5.0.0", "@read @stream @slow"});
  r.Register({"xclaim", -6, kWrite | kCmdFast, 1, 1, 1, XClaim, "stream",
              "Changes (or acquires) ownership of a message in a consumer group, as if the "
              "message was delivered to the specified consumer.",
              "5.0.0", "@write @stream @fast"});
  r.Register({"xautoclaim", -6, kWrite | kCmdFast, 1, 1, 1, XAutoClaim, "stream",
              "Changes (or acquires) ownership of messages in a consumer group, as if the "
              "messages were delivered to the specified consumer.",
              "6.2.0", "@write @stream @fast"});
  r.Register({"xgroup",
              -2,
              0,
              0,
              0,
              0,
              XGroupContainer,
              "stream",
              "A container for consumer groups commands",
              "5.0.0",
              "@slow",
              {
                  {"create", -5, kWrite | kCmdDenyOom, 2, 2, 1, XGroupGeneric, "stream",
                   "Create a consumer group.", "5.0.0", "@write @stream @slow"},
                  {"setid", -5, kWrite, 2, 2, 1, XGroupGeneric, "stream",
                   "Set a consumer group to an arbitrary last delivered ID value.", "5.0.0",
                   "@write @stream @slow"},
                  {"destroy", 4, kWrite, 2, 2, 1, XGroupGeneric, "stream",
                   "Destroy a consumer group.", "5.0.0", "@write @stream @slow"},
                  {"createconsumer", 5, kWrite | kCmdDenyOom, 2, 2, 1, XGroupGeneric, "stream",
                   "Create a consumer in a consumer group.", "6.2.0", "@write @stream @slow"},
                  {"delconsumer", 5, kWrite, 2, 2, 1, XGroupGeneric, "stream",
                   "Delete a consumer from a consumer group.", "5.0.0", "@write @stream @slow"},
                  {"help", 2, kCmdLoading | kCmdStale, 0, 0, 0, XGroupHelp, "stream",
                   "Show helpful text about the different subcommands", "5.0.0", "@stream @slow"},
              }});
  r.Register({"xinfo",
              -2,
              0,
              0,
              0,
              0,
              XInfoContainer,
              "stream",
              "A container for stream introspection commands",
              "5.0.0",
              "@slow",
              {
                  {"stream", -3, kRead, 2, 2, 1, XInfoStream, "stream",
                   "Get information about a stream", "5.0.0", "@read @stream @slow"},
                  {"groups", 3, kRead, 2, 2, 1, XInfoGroups, "stream",
                   "List the consumer groups of a stream", "5.0.0", "@read @stream @slow"},
                  {"consumers", 4, kRead, 2, 2, 1, XInfoConsumers, "stream",
                   "List the consumers in a consumer group", "5.0.0", "@read @stream @slow"},
                  {"help", 2, kCmdLoading | kCmdStale, 0, 0, 0, XInfoHelp, "stream",
                   "Show helpful text about the different subcommands", "5.0.0", "@stream @slow"},
              }});
}

}  // namespace kv
