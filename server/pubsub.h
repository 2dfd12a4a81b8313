#pragma once

#include <cstddef>
#include <list>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "storage/key_hash.h"

namespace kv {

struct ConnState;
struct ServerState;

// What one client is subscribed to (Redis's c->pubsub_channels, c->pubsub_patterns and
// c->pubsubshard_channels).
struct ClientSubscriptions {
  absl::flat_hash_set<std::string, KeyHash, KeyEq> channels;
  absl::flat_hash_set<std::string, KeyHash, KeyEq> shard_channels;
  // In subscription order, as Redis's list: PUNSUBSCRIBE without arguments goes in this order.
  std::list<std::string> patterns;
  absl::flat_hash_map<std::string_view, std::list<std::string>::iterator, KeyHash, KeyEq>
      pattern_index;

  // Redis's clientSubscriptionsCount (channels and patterns, as SUBSCRIBE/PSUBSCRIBE replies count
  // them) and clientShardSubscriptionsCount.
  size_t count() const { return channels.size() + patterns.size(); }
  size_t shard_count() const { return shard_channels.size(); }
  bool empty() const { return count() + shard_count() == 0; }
};

// Appends `frame` to `target`'s output through its PushSink; when `target` is the client running
// the current command and has not replied yet, its reply starts after the frame
// (ConnState::reply_start).
void PushFrame(ServerState& state, ConnState& target, std::string_view frame);

// The server's pub/sub registry (Redis's pubsub.c): channel -> subscribers, pattern -> subscribers,
// shard channel -> subscribers, each in subscription order. Messages go straight into the
// subscribers' output through their PushSink; a subscriber that falls behind hits its
// client-output-buffer-limit and is closed, it never slows the publisher.
class PubSub {
 public:
  // (S)SUBSCRIBE one channel; replies the subscribe frame. False when already subscribed.
  bool Subscribe(ServerState& state, ConnState& conn, std::string_view channel, bool shard);
  // (S)UNSUBSCRIBE one channel, replying the unsubscribe frame when `notify`. False when the client
  // was not subscribed.
  bool Unsubscribe(ServerState& state, ConnState& conn, std::string_view channel, bool shard,
                   bool notify);
  // (S)UNSUBSCRIBE without arguments: every channel (a frame with a null channel when there was
  // none, if `notify`). Returns how many.
  size_t UnsubscribeAll(ServerState& state, ConnState& conn, bool shard, bool notify);
  bool PSubscribe(ServerState& state, ConnState& conn, std::string_view pattern);
  bool PUnsubscribe(ServerState& state, ConnState& conn, std::string_view pattern, bool notify);
  size_t PUnsubscribeAll(ServerState& state, ConnState& conn, bool notify);
  // A client that goes away or RESETs: every subscription, without frames.
  void Forget(ServerState& state, ConnState& conn);

  // PUBLISH / SPUBLISH: the message to every subscriber of `channel` (in subscription order), then,
  // unless `shard`, a pmessage to every subscriber of each matching pattern. Returns the number of
  // messages queued.
  size_t Publish(ServerState& state, std::string_view channel, std::string_view message,
                 bool shard);

  // PUBSUB introspection.
  size_t channel_count(bool shard) const { return (shard ? shard_channels_ : channels_).size(); }
  size_t pattern_count() const { return patterns_.size(); }
  size_t Subscribers(std::string_view channel, bool shard) const;
  template <typename Fn>
  void ForEachChannel(bool shard, Fn&& fn) const {
    for (const auto& [name, subscribers] : shard ? shard_channels_ : channels_) fn(name);
  }

 private:
  using Subscribers_ = absl::flat_hash_map<std::string, std::vector<ConnState*>, KeyHash, KeyEq>;
  static void RemoveSubscriber(Subscribers_& table, std::string_view name, const ConnState* conn);

  Subscribers_ channels_;
  Subscribers_ shard_channels_;
  Subscribers_ patterns_;
};

}  // namespace kv
