// What the stream families reply and propagate alike: ids, entries, ranges of entries, new
// consumers, and the commands a consumer group's reads and claims propagate.

#include "server/commands/stream_replies.h"

#include <string>

#include "server/commands/stream_args.h"

namespace kv {
namespace {

void ReplyListPackValue(ReplyWriter& reply, const ListPackValue& v) {
  char buf[ListPackValue::kIntBufSize];
  reply.Bulk(v.ToString(buf));
}

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

}  // namespace

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

bool ReplyOneEntry(ReplyWriter& reply, const Stream& s, StreamId id) {
  Stream::Iterator it(s, id, id, false);
  StreamId found;
  int64_t n;
  if (!it.Next(&found, &n)) return false;
  ReplyEntry(reply, it, found, n);
  return true;
}

StreamConsumer* CreateConsumer(CommandContext& ctx, StreamGroup& g, std::string_view name,
                               std::string_view key) {
  StreamConsumer* c = g.CreateConsumer(name, NowMs(ctx));
  ctx.CountChanges();
  ctx.Notify(kNotifyStream, "xgroup-createconsumer", key);
  return c;
}

void PropagateClaim(CommandContext& ctx, std::string_view key, std::string_view group_name,
                    const StreamGroup& g, std::string_view id, const StreamNack& nack) {
  if (!ctx.Propagating()) return;
  ctx.AlsoPropagate({"XCLAIM", std::string(key), std::string(group_name), nack.consumer->name, "0",
                     std::string(id), "TIME", std::to_string(nack.delivery_time), "RETRYCOUNT",
                     std::to_string(nack.delivery_count), "FORCE", "JUSTID", "LASTID",
                     g.last_id.ToString()});
}

void PropagateGroupId(CommandContext& ctx, std::string_view key, std::string_view group_name,
                      const StreamGroup& g) {
  if (!ctx.Propagating()) return;
  ctx.AlsoPropagate({"XGROUP", "SETID", std::string(key), std::string(group_name),
                     g.last_id.ToString(), "ENTRIESREAD", std::to_string(g.entries_read)});
}

void PropagateConsumerCreation(CommandContext& ctx, std::string_view key,
                               std::string_view group_name, std::string_view consumer) {
  if (!ctx.Propagating()) return;
  ctx.AlsoPropagate({"XGROUP", "CREATECONSUMER", std::string(key), std::string(group_name),
                     std::string(consumer)});
}

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

}  // namespace kv
