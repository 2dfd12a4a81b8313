// Transactions: MULTI EXEC DISCARD WATCH UNWATCH, as Redis 7.0's multi.c. The dispatcher queues
// commands while a client is in MULTI (and marks the transaction failed when queueing one fails);
// EXEC runs them through Dispatcher::Call, the path every command takes.

#include <memory>
#include <vector>

#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/dispatcher.h"
#include "server/errors.h"
#include "server/transaction.h"

namespace kv {
namespace {

// Redis's discardTransaction.
void DiscardTransaction(CommandContext& ctx) {
  ctx.conn.multi.reset();
  ctx.conn.dirty_cas = false;
  ctx.server.watches.UnwatchAll(ctx.conn);
}

void Multi(CommandContext& ctx) {
  if (ctx.conn.multi) return ctx.reply.Error("MULTI calls can not be nested");
  ctx.conn.multi = std::make_unique<MultiState>();
  ctx.reply.Ok();
}

void Discard(CommandContext& ctx) {
  if (!ctx.conn.multi) return ctx.reply.Error("DISCARD without MULTI");
  DiscardTransaction(ctx);
  ctx.reply.Ok();
}

void Exec(CommandContext& ctx) {
  ConnState& conn = ctx.conn;
  if (!conn.multi) return ctx.reply.Error("EXEC without MULTI");
  // A watched key that expired since WATCH fails the transaction, as a write to it would.
  if (!conn.watched_keys.empty() &&
      ctx.server.watches.AnyExpired(conn, ctx.server.dbs, ctx.now_ms)) {
    conn.dirty_cas = true;
  }
  if (conn.dirty_cas || conn.multi->dirty) {
    // A failed queueing is an error; a touched watched key is the null array.
    if (conn.multi->dirty) {
      ctx.reply.Error("-EXECABORT Transaction discarded because of previous errors.");
    } else {
      ctx.reply.NullArray();
    }
    return DiscardTransaction(ctx);
  }
  // Blocking commands act as their non-blocking forms; clients blocked on keys the transaction
  // fills are served after it (by the dispatcher, once EXEC returns).
  const bool deny_blocking = conn.deny_blocking;
  conn.deny_blocking = true;
  ctx.server.watches.UnwatchAll(conn);  // nothing it does may fail it now
  ctx.server.in_exec = true;
  const MultiState* queued = conn.multi.get();
  ctx.reply.ArrayHeader(queued->commands.size());
  std::vector<std::string_view> args;
  for (size_t i = 0; i < queued->commands.size() && conn.multi.get() == queued; ++i) {
    queued->Args(i, &args);
    ctx.server.dispatcher->Call(*queued->commands[i].spec, args, conn, ctx.reply, ctx.now_ms);
  }
  conn.deny_blocking = deny_blocking;
  DiscardTransaction(ctx);
  ctx.server.in_exec = false;
}

void Watch(CommandContext& ctx) {
  if (ctx.conn.multi) return ctx.reply.Error("WATCH inside MULTI is not allowed");
  // No point in watching once the transaction is bound to fail.
  if (!ctx.conn.dirty_cas) {
    Db& db = ctx.db();
    for (size_t i = 1; i < ctx.args.size(); ++i) {
      ctx.server.watches.Watch(ctx.conn, ctx.conn.db_index, ctx.args[i],
                               db.IsExpired(ctx.args[i], ctx.now_ms));
    }
  }
  ctx.reply.Ok();
}

void Unwatch(CommandContext& ctx) {
  ctx.server.watches.UnwatchAll(ctx.conn);
  ctx.conn.dirty_cas = false;
  ctx.reply.Ok();
}

}  // namespace

void RegisterTransactionFamily(CommandRegistry& r) {
  constexpr uint32_t kTx = kCmdNoScript | kCmdLoading | kCmdStale;
  r.Register({"multi", 1, kTx | kCmdFast | kCmdAllowBusy, 0, 0, 0, Multi, "transactions",
              "Mark the start of a transaction block", "1.2.0", "@fast @transaction"});
  r.Register({"exec", 1, kTx | kCmdSkipSlowlog, 0, 0, 0, Exec, "transactions",
              "Execute all commands issued after MULTI", "1.2.0", "@slow @transaction"});
  r.Register({"discard", 1, kTx | kCmdFast | kCmdAllowBusy, 0, 0, 0, Discard, "transactions",
              "Discard all commands issued after MULTI", "2.0.0", "@fast @transaction"});
  r.Register({"watch", -2, kTx | kCmdFast | kCmdAllowBusy, 1, -1, 1, Watch, "transactions",
              "Watch the given keys to determine execution of the MULTI/EXEC block", "2.2.0",
              "@fast @transaction"});
  r.Register({"unwatch", 1, kTx | kCmdFast | kCmdAllowBusy, 0, 0, 0, Unwatch, "transactions",
              "Forget about all watched keys", "2.2.0", "@fast @transaction"});
}

}  // namespace kv
