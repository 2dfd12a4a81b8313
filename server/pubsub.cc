#include "server/pubsub.h"

#include <algorithm>
#include <memory>

#include "protocol/resp_text.h"
#include "server/conn_state.h"
#include "server/glob.h"
#include "server/server_state.h"
#include "server/shrink.h"

namespace kv {
namespace {

// "*n\r\n" (or ">n\r\n" for a RESP3 push).
void AppendHeader(std::string& f, bool push3, size_t n) {
  f += push3 ? '>' : '*';
  AppendRespNumber(f, static_cast<int64_t>(n));
  f += "\r\n";
}

void AppendInteger(std::string& f, int64_t n) {
  f += ':';
  AppendRespNumber(f, n);
  f += "\r\n";
}

// Redis's addReplyPubsub(Pat)(Un)Subscribed: [kind, name or null, count].
void ReplySubscription(ServerState& state, ConnState& conn, std::string_view kind,
                       const std::string_view* name, size_t count) {
  std::string f;
  AppendHeader(f, conn.protocol >= 3, 3);
  AppendBulk(f, kind);
  if (name != nullptr) {
    AppendBulk(f, *name);
  } else {
    f += conn.protocol >= 3 ? "_\r\n" : "$-1\r\n";
  }
  AppendInteger(f, static_cast<int64_t>(count));
  PushFrame(state, conn, f);
}

ClientSubscriptions& SubscriptionsOf(ConnState& conn) {
  if (!conn.subscriptions) conn.subscriptions = std::make_unique<ClientSubscriptions>();
  return *conn.subscriptions;
}

// The same message for RESP2 and RESP3 clients: the frames differ in their first byte only.
class Frames {
 public:
  explicit Frames(std::string resp2) : resp2_(std::move(resp2)) {}
  std::string_view For(const ConnState& conn) {
    if (conn.protocol < 3) return resp2_;
    if (resp3_.empty()) {
      resp3_ = resp2_;
      resp3_[0] = '>';
    }
    return resp3_;
  }

 private:
  std::string resp2_;
  std::string resp3_;
};

}  // namespace

void PushFrame(ServerState& state, ConnState& target, std::string_view frame) {
  if (target.push_sink == nullptr) return;
  if (&target == state.current_client && state.executing > 0 &&
      target.push_sink->OutputSize() == target.reply_start) {
    // Pushed before the running command replied anything: its reply starts after this frame.
    target.push_sink->Push(frame);
    target.reply_start = target.push_sink->OutputSize();
    return;
  }
  target.push_sink->Push(frame);
}

bool PubSub::Subscribe(ServerState& state, ConnState& conn, std::string_view channel, bool shard) {
  ClientSubscriptions& subs = SubscriptionsOf(conn);
  auto& mine = shard ? subs.shard_channels : subs.channels;
  const bool added = mine.emplace(channel).second;
  if (added) (shard ? shard_channels_ : channels_)[channel].push_back(&conn);
  ReplySubscription(state, conn, shard ? "ssubscribe" : "subscribe", &channel,
                    shard ? subs.shard_count() : subs.count());
  return added;
}

bool PubSub::Unsubscribe(ServerState& state, ConnState& conn, std::string_view channel, bool shard,
                         bool notify) {
  bool removed = false;
  std::string name(channel);  // `channel` may be a view of the element erased below
  if (conn.subscriptions) {
    auto& mine = shard ? conn.subscriptions->shard_channels : conn.subscriptions->channels;
    auto it = mine.find(name);
    if (it != mine.end()) {
      mine.erase(it);
      ShrinkAfterErase(mine);
      RemoveSubscriber(shard ? shard_channels_ : channels_, name, &conn);
      removed = true;
    }
  }
  if (notify) {
    const size_t count = !conn.subscriptions ? 0
                         : shard             ? conn.subscriptions->shard_count()
                                             : conn.subscriptions->count();
    const std::string_view view = name;
    ReplySubscription(state, conn, shard ? "sunsubscribe" : "unsubscribe", &view, count);
  }
  return removed;
}

size_t PubSub::UnsubscribeAll(ServerState& state, ConnState& conn, bool shard, bool notify) {
  size_t n = 0;
  if (conn.subscriptions) {
    const auto& mine = shard ? conn.subscriptions->shard_channels : conn.subscriptions->channels;
    const std::vector<std::string> names(mine.begin(), mine.end());
    for (const std::string& name : names) n += Unsubscribe(state, conn, name, shard, notify);
  }
  if (notify && n == 0) {
    const size_t count = !conn.subscriptions ? 0
                         : shard             ? conn.subscriptions->shard_count()
                                             : conn.subscriptions->count();
    ReplySubscription(state, conn, shard ? "sunsubscribe" : "unsubscribe", nullptr, count);
  }
  return n;
}

bool PubSub::PSubscribe(ServerState& state, ConnState& conn, std::string_view pattern) {
  ClientSubscriptions& subs = SubscriptionsOf(conn);
  const bool added = !subs.pattern_index.contains(pattern);
  if (added) {
    subs.patterns.emplace_back(pattern);
    subs.pattern_index.emplace(subs.patterns.back(), std::prev(subs.patterns.end()));
    patterns_[pattern].push_back(&conn);
  }
  ReplySubscription(state, conn, "psubscribe", &pattern, subs.count());
  return added;
}

bool PubSub::PUnsubscribe(ServerState& state, ConnState& conn, std::string_view pattern,
                          bool notify) {
  bool removed = false;
  std::string name(pattern);  // `pattern` may be a view of the element erased below
  if (conn.subscriptions) {
    ClientSubscriptions& subs = *conn.subscriptions;
    auto it = subs.pattern_index.find(name);
    if (it != subs.pattern_index.end()) {
      const auto node = it->second;
      subs.pattern_index.erase(it);
      ShrinkAfterErase(subs.pattern_index);
      subs.patterns.erase(node);
      RemoveSubscriber(patterns_, name, &conn);
      removed = true;
    }
  }
  if (notify) {
    const std::string_view view = name;
    ReplySubscription(state, conn, "punsubscribe", &view,
                      conn.subscriptions ? conn.subscriptions->count() : 0);
  }
  return removed;
}

size_t PubSub::PUnsubscribeAll(ServerState& state, ConnState& conn, bool notify) {
  size_t n = 0;
  if (conn.subscriptions) {
    const std::vector<std::string> names(conn.subscriptions->patterns.begin(),
                                         conn.subscriptions->patterns.end());
    for (const std::string& name : names) n += PUnsubscribe(state, conn, name, notify);
  }
  if (notify && n == 0) {
    ReplySubscription(state, conn, "punsubscribe", nullptr,
                      conn.subscriptions ? conn.subscriptions->count() : 0);
  }
  return n;
}

void PubSub::Forget(ServerState& state, ConnState& conn) {
  if (conn.subscriptions) {
    UnsubscribeAll(state, conn, /*shard=*/false, /*notify=*/false);
    UnsubscribeAll(state, conn, /*shard=*/true, /*notify=*/false);
    PUnsubscribeAll(state, conn, /*notify=*/false);
    conn.subscriptions.reset();
  }
  conn.pubsub_mode = false;
}

size_t PubSub::Publish(ServerState& state, std::string_view channel, std::string_view message,
                       bool shard) {
  size_t receivers = 0;
  const Subscribers_& table = shard ? shard_channels_ : channels_;
  if (auto it = table.find(channel); it != table.end()) {
    std::string f;
    f.reserve(32 + channel.size() + message.size());
    AppendHeader(f, false, 3);
    AppendBulk(f, shard ? "smessage" : "message");
    AppendBulk(f, channel);
    AppendBulk(f, message);
    Frames frames(std::move(f));
    for (ConnState* c : it->second) {
      PushFrame(state, *c, frames.For(*c));
      ++receivers;
    }
  }
  if (shard) return receivers;  // shard channels ignore patterns
  for (const auto& [pattern, subscribers] : patterns_) {
    if (!GlobMatch(pattern, channel)) continue;
    std::string f;
    f.reserve(48 + pattern.size() + channel.size() + message.size());
    AppendHeader(f, false, 4);
    AppendBulk(f, "pmessage");
    AppendBulk(f, pattern);
    AppendBulk(f, channel);
    AppendBulk(f, message);
    Frames frames(std::move(f));
    for (ConnState* c : subscribers) {
      PushFrame(state, *c, frames.For(*c));
      ++receivers;
    }
  }
  return receivers;
}

size_t PubSub::Subscribers(std::string_view channel, bool shard) const {
  const Subscribers_& table = shard ? shard_channels_ : channels_;
  auto it = table.find(channel);
  return it == table.end() ? 0 : it->second.size();
}

void PubSub::RemoveSubscriber(Subscribers_& table, std::string_view name, const ConnState* conn) {
  auto it = table.find(name);
  if (it == table.end()) return;
  std::vector<ConnState*>& v = it->second;
  auto pos = std::find(v.begin(), v.end(), conn);
  if (pos != v.end()) v.erase(pos);
  if (v.empty()) {
    table.erase(it);
    ShrinkAfterErase(table);
  }
}

}  // namespace kv
