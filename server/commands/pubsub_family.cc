// Pub/sub: SUBSCRIBE UNSUBSCRIBE PSUBSCRIBE PUNSUBSCRIBE PUBLISH, the sharded SSUBSCRIBE
// SUNSUBSCRIBE SPUBLISH, and PUBSUB CHANNELS/NUMSUB/NUMPAT/SHARDCHANNELS/SHARDNUMSUB/HELP, as Redis
// 7.0's pubsub.c. The registry is server/pubsub.

#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/commands/help.h"
#include "server/errors.h"
#include "server/glob.h"
#include "server/pubsub.h"

namespace kv {
namespace {

// Redis's clientTotalPubSubSubscriptionCount reaching 0 ends pub/sub mode (and the client's
// subscription tables go).
void LeavePubSubModeIfDone(ConnState& conn) {
  if (!conn.subscriptions || conn.subscriptions->empty()) {
    conn.pubsub_mode = false;
    conn.subscriptions.reset();
  }
}

void Subscribe(CommandContext& ctx) {
  // A client that needs one reply per command (inside a script) cannot subscribe; MULTI is let
  // through for backward compatibility, as in Redis.
  if (ctx.conn.deny_blocking && !ctx.conn.multi) {
    return ctx.reply.Error("SUBSCRIBE isn't allowed for a DENY BLOCKING client");
  }
  for (size_t i = 1; i < ctx.args.size(); ++i) {
    ctx.server.pubsub.Subscribe(ctx.server, ctx.conn, ctx.args[i], /*shard=*/false);
  }
  ctx.conn.pubsub_mode = true;
}

void Unsubscribe(CommandContext& ctx) {
  if (ctx.args.size() == 1) {
    ctx.server.pubsub.UnsubscribeAll(ctx.server, ctx.conn, /*shard=*/false, /*notify=*/true);
  } else {
    for (size_t i = 1; i < ctx.args.size(); ++i) {
      ctx.server.pubsub.Unsubscribe(ctx.server, ctx.conn, ctx.args[i], /*shard=*/false, true);
    }
  }
  LeavePubSubModeIfDone(ctx.conn);
}

void PSubscribe(CommandContext& ctx) {
  if (ctx.conn.deny_blocking && !ctx.conn.multi) {
    return ctx.reply.Error("PSUBSCRIBE isn't allowed for a DENY BLOCKING client");
  }
  for (size_t i = 1; i < ctx.args.size(); ++i) {
    ctx.server.pubsub.PSubscribe(ctx.server, ctx.conn, ctx.args[i]);
  }
  ctx.conn.pubsub_mode = true;
}

void PUnsubscribe(CommandContext& ctx) {
  if (ctx.args.size() == 1) {
    ctx.server.pubsub.PUnsubscribeAll(ctx.server, ctx.conn, /*notify=*/true);
  } else {
    for (size_t i = 1; i < ctx.args.size(); ++i) {
      ctx.server.pubsub.PUnsubscribe(ctx.server, ctx.conn, ctx.args[i], /*notify=*/true);
    }
  }
  LeavePubSubModeIfDone(ctx.conn);
}

void SSubscribe(CommandContext& ctx) {
  // Unlike SUBSCRIBE, refused inside EXEC too (Redis 7.0 has no exception for MULTI here).
  if (ctx.conn.deny_blocking) {
    return ctx.reply.Error("SSUBSCRIBE isn't allowed for a DENY BLOCKING client");
  }
  for (size_t i = 1; i < ctx.args.size(); ++i) {
    ctx.server.pubsub.Subscribe(ctx.server, ctx.conn, ctx.args[i], /*shard=*/true);
  }
  ctx.conn.pubsub_mode = true;
}

void SUnsubscribe(CommandContext& ctx) {
  if (ctx.args.size() == 1) {
    ctx.server.pubsub.UnsubscribeAll(ctx.server, ctx.conn, /*shard=*/true, /*notify=*/true);
  } else {
    for (size_t i = 1; i < ctx.args.size(); ++i) {
      ctx.server.pubsub.Unsubscribe(ctx.server, ctx.conn, ctx.args[i], /*shard=*/true, true);
    }
  }
  LeavePubSubModeIfDone(ctx.conn);
}

void Publish(CommandContext& ctx) {
  const size_t receivers =
      ctx.server.pubsub.Publish(ctx.server, ctx.args[1], ctx.args[2], /*shard=*/false);
  ctx.reply.Integer(static_cast<int64_t>(receivers));
}

void SPublish(CommandContext& ctx) {
  const size_t receivers =
      ctx.server.pubsub.Publish(ctx.server, ctx.args[1], ctx.args[2], /*shard=*/true);
  ctx.reply.Integer(static_cast<int64_t>(receivers));
}

void PubSubContainer(CommandContext& ctx) {
  // Reached only with no subcommand, which the arity check rejects first.
  ctx.reply.Error(WrongArityError("pubsub"));
}

// Redis's channelList: the active channels matching the optional pattern.
void ChannelList(CommandContext& ctx, bool shard) {
  if (ctx.args.size() > 3) return ctx.reply.Error(SubcommandSyntaxError(ctx.args[1], ctx.args[0]));
  std::vector<std::string_view> found;
  ctx.server.pubsub.ForEachChannel(shard, [&](std::string_view channel) {
    if (ctx.args.size() == 2 || GlobMatch(ctx.args[2], channel)) found.push_back(channel);
  });
  ctx.reply.ArrayHeader(found.size());
  for (std::string_view c : found) ctx.reply.Bulk(c);
}

void NumSub(CommandContext& ctx, bool shard) {
  ctx.reply.ArrayHeader((ctx.args.size() - 2) * 2);
  for (size_t i = 2; i < ctx.args.size(); ++i) {
    ctx.reply.Bulk(ctx.args[i]);
    ctx.reply.Integer(static_cast<int64_t>(ctx.server.pubsub.Subscribers(ctx.args[i], shard)));
  }
}

void PubSubChannels(CommandContext& ctx) { ChannelList(ctx, /*shard=*/false); }
void PubSubShardChannels(CommandContext& ctx) { ChannelList(ctx, /*shard=*/true); }
void PubSubNumSub(CommandContext& ctx) { NumSub(ctx, /*shard=*/false); }
void PubSubShardNumSub(CommandContext& ctx) { NumSub(ctx, /*shard=*/true); }
void PubSubNumPat(CommandContext& ctx) {
  ctx.reply.Integer(static_cast<int64_t>(ctx.server.pubsub.pattern_count()));
}

void PubSubHelp(CommandContext& ctx) {
  ReplyHelp(ctx, ctx.args[0],
            {
                "CHANNELS [<pattern>]",
                "    Return the currently active channels matching a <pattern> (default: '*').",
                "NUMPAT",
                "    Return number of subscriptions to patterns.",
                "NUMSUB [<channel> ...]",
                "    Return the number of subscribers for the specified channels, excluding",
                "    pattern subscriptions(default: no channels).",
                "SHARDCHANNELS [<pattern>]",
                "    Return the currently active shard level channels matching a <pattern> "
                "(default: '*').",
                "SHARDNUMSUB [<shardchannel> ...]",
                "    Return the number of subscribers for the specified shard level channel(s)",
            });
}

}  // namespace

void RegisterPubSubFamily(CommandRegistry& r) {
  constexpr uint32_t kSub = kCmdPubSub | kCmdNoScript | kCmdLoading | kCmdStale;
  constexpr uint32_t kPub = kCmdPubSub | kCmdLoading | kCmdStale | kCmdFast | kCmdMayReplicate;
  constexpr uint32_t kIntro = kCmdPubSub | kCmdLoading | kCmdStale;
  r.Register({"subscribe", -2, kSub, 0, 0, 0, Subscribe, "pubsub",
              "Listen for messages published to the given channels", "2.0.0", "@pubsub @slow"});
  r.Register({"unsubscribe", -1, kSub, 0, 0, 0, Unsubscribe, "pubsub",
              "Stop listening for messages posted to the given channels", "2.0.0",
              "@pubsub @slow"});
  r.Register({"psubscribe", -2, kSub, 0, 0, 0, PSubscribe, "pubsub",
              "Listen for messages published to channels matching the given patterns", "2.0.0",
              "@pubsub @slow"});
  r.Register({"punsubscribe", -1, kSub, 0, 0, 0, PUnsubscribe, "pubsub",
              "Stop listening for messages posted to channels matching the given patterns", "2.0.0",
              "@pubsub @slow"});
  r.Register({"publish", 3, kPub, 0, 0, 0, Publish, "pubsub", "Post a message to a channel",
              "2.0.0", "@pubsub @fast"});
  // The shard channels are keys (for cluster routing), as Redis's key specifications say.
  r.Register({"ssubscribe", -2, kSub, 1, -1, 1, SSubscribe, "pubsub",
              "Listen for messages published to the given shard channels", "7.0.0",
              "@pubsub @slow"});
  r.Register({"sunsubscribe", -1, kSub, 1, -1, 1, SUnsubscribe, "pubsub",
              "Stop listening for messages posted to the given shard channels", "7.0.0",
              "@pubsub @slow"});
  r.Register({"spublish", 3, kPub, 1, 1, 1, SPublish, "pubsub", "Post a message to a shard channel",
              "7.0.0", "@pubsub @fast"});
  r.Register(
      {"pubsub",
       -2,
       0,
       0,
       0,
       0,
       PubSubContainer,
       "pubsub",
       "A container for Pub/Sub commands",
       "2.8.0",
       "@slow",
       {
           {"channels", -2, kIntro, 0, 0, 0, PubSubChannels, "pubsub", "List active channels",
            "2.8.0", "@pubsub @slow"},
           {"help", 2, kCmdLoading | kCmdStale, 0, 0, 0, PubSubHelp, "pubsub",
            "Show helpful text about the different subcommands", "6.2.0", "@slow"},
           {"numpat", 2, kIntro, 0, 0, 0, PubSubNumPat, "pubsub",
            "Get the count of unique patterns pattern subscriptions", "2.8.0", "@pubsub @slow"},
           {"numsub", -2, kIntro, 0, 0, 0, PubSubNumSub, "pubsub",
            "Get the count of subscribers for channels", "2.8.0", "@pubsub @slow"},
           {"shardchannels", -2, kIntro, 0, 0, 0, PubSubShardChannels, "pubsub",
            "List active shard channels", "7.0.0", "@pubsub @slow"},
           {"shardnumsub", -2, kIntro, 0, 0, 0, PubSubShardNumSub, "pubsub",
            "Get the count of subscribers for shard channels", "7.0.0", "@pubsub @slow"},
       }});
}

}  // namespace kv
