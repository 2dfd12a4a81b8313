// Stream consumer groups and introspection: XGROUP (CREATE, SETID, DESTROY, CREATECONSUMER,
// DELCONSUMER, HELP), XACK, XPENDING, XCLAIM, XAUTOCLAIM and XINFO (STREAM, GROUPS, CONSUMERS,
// HELP), as Redis 7.0's t_stream.c. XREADGROUP reads with XREAD, in stream_family.cc.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/number.h"
#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/commands/help.h"
#include "server/commands/lookup.h"
#include "server/commands/stream_args.h"
#include "server/commands/stream_replies.h"
#include "server/errors.h"
#include "server/strings.h"
#include "storage/stream.h"

namespace kv {
namespace {

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

void RegisterStreamGroupFamily(CommandRegistry& r) {
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
