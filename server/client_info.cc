// CLIENT LIST lines, shared by the CLIENT commands and the server's log.

#include <string>

#include "server/client_registry.h"
#include "server/command.h"
#include "server/pubsub.h"
#include "server/tracking.h"
#include "server/transaction.h"

namespace kv {

// One line of CLIENT LIST, as Redis 7.2's catClientInfoString (7.0.15's fields, then lib-name and
// lib-ver). Fields kvserver has no use for yet (pubsub, MULTI, tracking) have their idle values.
void AppendClientInfo(std::string& out, const ClientInfo& info, const ConnState& caller,
                      std::span<const std::string_view> caller_args, int64_t now_ms) {
  const ConnState& st = *info.state;
  const bool self = &st == &caller;
  std::string flags;
  if (st.monitor) flags += 'O';
  if (st.pubsub_mode) flags += 'P';
  if (st.multi) flags += 'x';
  if (st.blocked || st.paused) flags += 'b';
  if (st.tracking) {
    flags += 't';
    if (st.tracking->broken_redirect) flags += 'R';
    if (st.tracking->bcast) flags += 'B';
  }
  if (st.dirty_cas) flags += 'd';
  if (st.close_after_reply) flags += 'c';
  if (info.unix_socket) flags += 'U';
  if (st.no_evict) flags += 'e';
  if (st.no_touch) flags += 'T';
  if (flags.empty()) flags = "N";
  // Redis keeps the arguments of the running command only (argv-mem), and ages in whole seconds
  // of its cached unixtime.
  size_t argv_mem = 0;
  if (self) {
    for (std::string_view a : caller_args) argv_mem += a.size();
  }
  const int64_t now_s = now_ms / 1000;
  std::string cmd = "NULL";
  if (st.last_cmd != nullptr) {
    cmd = st.last_cmd->parent.empty()
              ? std::string(st.last_cmd->name)
              : std::string(st.last_cmd->parent) + "|" + std::string(st.last_cmd->name);
  }
  out += "id=" + std::to_string(st.id);
  out += " addr=";
  out += info.addr;
  out += " laddr=";
  out += info.laddr;
  out += " fd=" + std::to_string(info.fd);
  out += " name=" + st.name;
  out += " age=" + std::to_string(now_s - st.created_ms / 1000);
  out += " idle=" + std::to_string(now_s - info.last_interaction_ms / 1000);
  out += " flags=" + flags;
  out += " db=" + std::to_string(st.db_index);
  const ClientSubscriptions* subs = st.subscriptions.get();
  out += " sub=" + std::to_string(subs != nullptr ? subs->channels.size() : 0);
  out += " psub=" + std::to_string(subs != nullptr ? subs->patterns.size() : 0);
  out += " ssub=" + std::to_string(subs != nullptr ? subs->shard_channels.size() : 0);
  out += " multi=" + (st.multi ? std::to_string(st.multi->commands.size()) : std::string("-1"));
  out += " qbuf=" + std::to_string(info.qbuf);
  out += " qbuf-free=" + std::to_string(info.qbuf_free);
  out += " argv-mem=" + std::to_string(argv_mem);
  out += " multi-mem=" + std::to_string(st.multi ? st.multi->argv_len_sums : 0);
  out += " rbs=" + std::to_string(info.rbs);
  out += " rbp=" + std::to_string(info.obl);
  out += " obl=" + std::to_string(info.obl);
  out += " oll=" + std::to_string(info.oll);
  out += " omem=" + std::to_string(info.omem);
  out += " tot-mem=" + std::to_string(info.tot_mem + argv_mem);
  // Replies of the running batch are not "waiting for the socket" yet, as Redis installs its
  // write handler only when a write falls short.
  out += info.writing && !self ? " events=rw" : " events=r";
  out += " cmd=" + cmd;
  out += " user=default redir=";
  out += st.tracking ? std::to_string(st.tracking->redirect) : std::string("-1");
  out += " resp=" + std::to_string(st.protocol);
  out += " lib-name=" + st.lib_name;
  out += " lib-ver=" + st.lib_ver;
  out += '\n';
}

}  // namespace kv
