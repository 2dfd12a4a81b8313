#include "server/blocking.h"

#include <algorithm>
#include <vector>

#include "protocol/reply_writer.h"
#include "server/command.h"
#include "server/server_state.h"

namespace kv {

void BlockingController::Block(ConnState& conn, const CommandSpec& spec,
                               std::span<const std::string_view> args, size_t db,
                               std::span<const std::string_view> keys, ValueType type,
                               int64_t deadline_ms, bool needs_stream) {
  if (conn.id == serving_id_ && clients_.contains(conn.id)) {
    // Served again and still nothing there: it keeps its place in every queue.
    reblocked_ = true;
    return;
  }
  auto w = std::make_unique<Waiter>();
  w->conn = &conn;
  w->spec = &spec;
  w->args.assign(args.begin(), args.end());
  w->db = db;
  w->type = type;
  w->deadline_ms = deadline_ms;
  w->order = next_order_++;
  w->needs_stream = needs_stream;
  stream_waiters_ += needs_stream;
  for (std::string_view key : keys) {
    auto [it, inserted] = waiting_.try_emplace(DbKey(db, key));
    // A key named twice (BLPOP k k 0) waits once, as Redis's blockForKeys skips repeats: this
    // client is then already last in the key's queue (a client blocks once at a time). Looking
    // through the places instead took a million keys squared.
    if (!it->second.empty() && it->second.back() == conn.id) continue;
    it->second.push_back(conn.id);
    w->places.emplace_back(&it->first, std::prev(it->second.end()));
  }
  if (deadline_ms != 0) deadlines_.emplace(deadline_ms, conn.id);
  conn.blocked = true;
  clients_.emplace(conn.id, std::move(w));
}

void BlockingController::MarkReady(size_t db, std::string_view key) {
  DbKey k(db, key);
  if (!waiting_.contains(k) || ready_set_.contains(k)) return;
  ready_set_.insert(k);
  ready_.push_back(std::move(k));
}

std::unique_ptr<BlockingController::Waiter> BlockingController::Detach(uint64_t id) {
  auto node = clients_.extract(id);
  if (node.empty()) return nullptr;
  std::unique_ptr<Waiter> w = std::move(node.mapped());
  for (auto& [key, pos] : w->places) {
    auto q = waiting_.find(*key);
    q->second.erase(pos);
    if (q->second.empty()) waiting_.erase(q);
  }
  w->places.clear();
  if (w->deadline_ms != 0) deadlines_.erase({w->deadline_ms, id});
  stream_waiters_ -= w->needs_stream;
  w->conn->blocked = false;
  return w;
}

void BlockingController::Finish(ServerState& state, Waiter& w, size_t reply_start, uint64_t ns,
                                int64_t now_ms, Ending ending) {
  // An error reply counts in INFO's error statistics however the wait ended.
  const IoBuffer* out = w.conn->block_sink->BlockedReply().buffer();
  const bool error = out->size() > reply_start && out->data()[reply_start] == '-';
  if (error) {
    ++state.stats.total_error_replies;
    state.error_stats.Record(
        std::string_view(out->data() + reply_start, out->size() - reply_start));
  }
  // Redis's updateStatsOnUnblock: the call was counted when the command blocked; its time, its
  // failure and its slow log entry count now. A timeout counts none of them.
  CommandStats& stats = state.command_stats[w.spec->stats_slot];
  stats.nanoseconds += ns;
  stats.failed_calls += ending == Ending::kUnblocked || (ending == Ending::kServed && error);
  if (ending != Ending::kTimedOut && state.config.slowlog_log_slower_than >= 0) {
    std::vector<std::string_view> args(w.args.begin(), w.args.end());
    state.slowlog.Record(args, *w.conn, now_ms / 1000, static_cast<int64_t>(ns / 1000),
                         state.config.slowlog_log_slower_than,
                         static_cast<uint64_t>(state.config.slowlog_max_len));
  }
  // CLIENT REPLY OFF drops this reply too, as Redis's addReply would.
  if (w.conn->reply_off) w.conn->block_sink->BlockedReply().buffer()->Truncate(reply_start);
  w.conn->block_sink->Unblocked();
}

void BlockingController::ServeReadyKeys(ServerState& state, int64_t now_ms) {
  while (!ready_.empty()) {
    // Serving may signal more keys (BLMOVE's push): they go to a fresh list, served next round.
    std::vector<DbKey> ready;
    ready.swap(ready_);
    for (DbKey& key : ready) {
      ready_set_.erase(key);
      auto q = waiting_.find(key);
      if (q == waiting_.end()) continue;
      // The queue changes as clients are served: walk a copy, skipping those gone meanwhile.
      const std::vector<uint64_t> ids(q->second.begin(), q->second.end());
      Db& db = state.dbs.db(key.first);
      db.SetClock(now_ms);
      for (uint64_t id : ids) {
        const Value* v = db.Peek(key.second, now_ms);
        if (v == nullptr) break;  // emptied (and deleted) by the clients served before
        auto it = clients_.find(id);
        if (it == clients_.end() || it->second->type != v->type()) continue;
        Waiter& w = *it->second;
        ReplyWriter& reply = w.conn->block_sink->BlockedReply();
        const size_t reply_start = reply.buffer()->size();
        std::vector<std::string_view> args(w.args.begin(), w.args.end());
        CommandContext ctx{args, reply, *w.conn, state, now_ms};
        ctx.blocked_key = &key.second;
        serving_id_ = id;
        reblocked_ = false;
        // As Redis's serveClientsBlockedOn*Key: the served client is the current client while
        // its command runs (tracking's NOLOOP and its own invalidations, which follow its reply).
        ConnState* const writer = state.current_client;
        ConnState& served = *w.conn;
        const size_t saved_reply_start = served.reply_start;
        state.current_client = &served;
        served.reply_start = reply_start;
        ++state.executing;
        CommandPropagation propagation(state.propagation, state.dirty);
        const uint64_t start = state.command_clock.Ticks();
        w.spec->handler(ctx);
        const uint64_t ns = state.command_clock.Nanoseconds(state.command_clock.Ticks() - start);
        --state.executing;
        propagation.Finish(state.dirty, served.db_index, args, false);
        if (state.propagation.has_pending()) state.propagation.FlushPending();
        served.reply_start = saved_reply_start;
        serving_id_ = 0;
        if (!reblocked_) {
          std::unique_ptr<Waiter> done = Detach(id);
          Finish(state, *done, reply_start, ns, now_ms, Ending::kServed);
        }
        // Redis's afterCommand(receiver): its own keys' invalidations after its reply.
        if (state.tracking.has_pending()) state.tracking.SendPending(state);
        state.current_client = writer;
      }
    }
  }
}

void BlockingController::UnblockDeletedStreamWaiters(ServerState& state, int64_t now_ms) {
  std::vector<uint64_t> gone;
  for (const auto& [id, w] : clients_) {
    if (!w->needs_stream) continue;
    Db& db = state.dbs.db(w->db);
    for (const auto& [key, pos] : w->places) {
      const Value* v = db.Peek(key->second, now_ms);
      if (v == nullptr || v->type() != ValueType::kStream) {
        gone.push_back(id);
        break;
      }
    }
  }
  // In the order they blocked, as Redis walks each key's queue.
  std::sort(gone.begin(), gone.end(),
            [&](uint64_t a, uint64_t b) { return clients_.at(a)->order < clients_.at(b)->order; });
  for (uint64_t id : gone) {
    std::unique_ptr<Waiter> w = Detach(id);
    ReplyWriter& reply = w->conn->block_sink->BlockedReply();
    const size_t reply_start = reply.buffer()->size();
    reply.Error("-UNBLOCKED the stream key no longer exists");
    Finish(state, *w, reply_start, 0, now_ms, Ending::kServed);
  }
}

void BlockingController::EndWithReply(ServerState& state, uint64_t id, bool with_error,
                                      int64_t now_ms, Ending ending) {
  std::unique_ptr<Waiter> w = Detach(id);
  ReplyWriter& reply = w->conn->block_sink->BlockedReply();
  const size_t reply_start = reply.buffer()->size();
  if (with_error) {
    reply.Error("-UNBLOCKED client unblocked via CLIENT UNBLOCK");
  } else {
    // Redis's replyToBlockedClientTimedOut for lists, sorted sets and streams.
    reply.NullArray();
  }
  Finish(state, *w, reply_start, 0, now_ms, ending);
}

size_t BlockingController::ExpireTimeouts(ServerState& state, int64_t now_ms) {
  size_t n = 0;
  // Redis times a client out once its deadline is in the past (timeout < now).
  while (!deadlines_.empty() && deadlines_.begin()->first < now_ms) {
    EndWithReply(state, deadlines_.begin()->second, false, now_ms, Ending::kTimedOut);
    ++n;
  }
  return n;
}

bool BlockingController::Unblock(ServerState& state, uint64_t id, bool with_error, int64_t now_ms) {
  if (!clients_.contains(id)) return false;
  EndWithReply(state, id, with_error, now_ms, Ending::kUnblocked);
  return true;
}

void BlockingController::Remove(uint64_t id) { Detach(id); }

}  // namespace kv
