#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kv {

struct CommandSpec;
class MonitorSink;
class BlockedClientSink;
struct ClientSubscriptions;  // server/pubsub.h
struct MultiState;           // server/transaction.h
struct ClientTracking;       // server/tracking.h

// Where frames pushed to a client go: pub/sub messages, keyspace notifications, tracking
// invalidations, and the (un)subscribe confirmations, which Redis sends even under CLIENT REPLY
// OFF. The connection implements it (the in-process test harness too).
class PushSink {
 public:
  virtual ~PushSink() = default;
  // Appends `frame`, a complete RESP frame, to the client's output. The publisher never waits:
  // the connection writes it later, or closes itself once over its client-output-buffer-limit.
  virtual void Push(std::string_view frame) = 0;
  // The bytes of output the client has pending (where the next reply byte will go).
  virtual size_t OutputSize() const = 0;
};

// Per-connection state that commands may read or change. It lives with the connection, never in
// storage: the selected database, the protocol version, the client's name, its subscriptions,
// transaction and tracking state.
struct ConnState {
  ConnState();
  ~ConnState();
  ConnState(const ConnState&) = delete;
  ConnState& operator=(const ConnState&) = delete;
  // A connection's state starts afresh (tests); the server must have forgotten the old one
  // (ServerState::ForgetClient).
  ConnState& operator=(ConnState&&);

  uint64_t id = 0;
  // The peer as Redis's getClientPeerId shows it (SLOWLOG, MONITOR, CLIENT LIST): "ip:port",
  // "[ipv6]:port", or "<unixsocket>:0" for a unix socket client.
  std::string addr;
  bool unix_socket = false;
  size_t db_index = 0;
  int protocol = 2;
  std::string name;
  // False until AUTH or HELLO AUTH succeeds when the server requires a password; a client that
  // connected while none was set stays authenticated, as in Redis.
  bool authenticated = true;
  // Set by QUIT and fatal errors: the connection closes once the replies are written.
  bool close_after_reply = false;
  // Redis's CLIENT_CLOSE_ASAP: the client's output passed its client-output-buffer-limit while a
  // command was replying; the connection closes after the command without sending anything, and
  // drops what the command still writes. Commands whose reply can grow without bound (KEYS, a
  // huge random count) stop once it is set, as Redis's do.
  bool close_asap = false;
  // Where in the pending output the part client-output-buffer-limit counts in full begins
  // (SIZE_MAX: none). Redis counts a client's pending output beyond its fixed 16 KB reply buffer,
  // except that a reply built after a deferred length (KEYS, SMEMBERS) goes to its reply list
  // whole: CommandContext::ReplyLengthDeferred sets this to where such a reply starts.
  size_t output_counted_from = SIZE_MAX;
  // When the connection was accepted, for CLIENT LIST's age.
  int64_t created_ms = 0;
  // The last command looked up for this client (CLIENT LIST's cmd), null when it was unknown.
  // A pointer into the command table, so recording it costs nothing per command.
  const CommandSpec* last_cmd = nullptr;
  // CLIENT REPLY: OFF discards every reply; SKIP discards the next command's reply (skip_next is
  // set by CLIENT REPLY SKIP itself and becomes skip once that command is done).
  bool reply_off = false;
  bool reply_skip_next = false;
  bool reply_skip = false;
  // CLIENT NO-EVICT and CLIENT NO-TOUCH (flags only: kvserver neither evicts clients nor tracks
  // LRU/LFU yet).
  bool no_evict = false;
  bool no_touch = false;
  // CLIENT SETINFO LIB-NAME / LIB-VER.
  std::string lib_name;
  std::string lib_ver;
  // MONITOR: whether this connection receives every command run, and where its lines go (set by
  // the connection; null where there is nowhere to send them).
  bool monitor = false;
  MonitorSink* monitor_sink = nullptr;
  // Waiting on keys (BLPOP and friends; CLIENT LIST's flag b): the connection runs no command
  // until the BlockingController serves or releases it, and replies through block_sink (set by
  // the connection; null where a client cannot block).
  bool blocked = false;
  BlockedClientSink* block_sink = nullptr;
  // Held by CLIENT PAUSE (set by the server): Redis's postponed client, flag b as well.
  bool paused = false;
  // Set while commands may not block (inside EXEC, a script): blocking commands then act as
  // their non-blocking forms, as Redis's CLIENT_DENY_BLOCKING.
  bool deny_blocking = false;
  // The client a script's redis.call commands run as (Redis's CLIENT_SCRIPT).
  bool script_client = false;
  // Pub/sub: where pushed frames go (null where nothing can be pushed), the subscriptions (null
  // until the first one), and Redis's CLIENT_PUBSUB: set by a subscribe, cleared once the client
  // has no subscription left. In RESP2 it limits the commands the client may run, and it puts the
  // client under client-output-buffer-limit's pubsub class.
  PushSink* push_sink = nullptr;
  std::unique_ptr<ClientSubscriptions> subscriptions;
  bool pubsub_mode = false;
  // Where the running command's own reply starts in the client's output: frames pushed to the
  // client before the command wrote any reply (a SUBSCRIBE's confirmations, a message published
  // to itself) move it on, so error accounting and CLIENT REPLY OFF see the reply alone.
  size_t reply_start = 0;
  // MULTI: the queued commands (null outside a transaction); WATCH: the keys watched, pointing at
  // the server's watch table (see WatchTable), and Redis's CLIENT_DIRTY_CAS, set when one of
  // them was touched (EXEC then fails).
  std::unique_ptr<MultiState> multi;
  std::vector<const std::pair<size_t, std::string>*> watched_keys;
  bool dirty_cas = false;
  // CLIENT TRACKING: null while off.
  std::unique_ptr<ClientTracking> tracking;
  // Set by a script whose error reply repeats an error a command inside it already counted in
  // INFO's errorstats (Redis's ERR_REPLY_FLAG_NO_STATS_UPDATE); the dispatcher clears it.
  bool error_already_counted = false;
  // Arguments of the running command that SLOWLOG and MONITOR show as "(redacted)" (passwords),
  // as Redis's redactClientCommandArgument; the dispatcher clears them after each command.
  std::vector<uint32_t> redacted_args;

  // Argument `i` of the running command as the logs show it.
  std::string_view LoggedArg(std::span<const std::string_view> args, size_t i) const {
    for (uint32_t r : redacted_args) {
      if (r == i) return "(redacted)";
    }
    return args[i];
  }
};

}  // namespace kv
