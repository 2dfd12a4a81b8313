// Arbitrary bytes through the request parser, the real command table and dispatcher, and the
// store, in-process and deterministic (a manual clock, no sockets). Each input is one client
// connection's bytes, run as a connection runs them: commands until a protocol error, a QUIT or
// the end of the input. The keyspace carries over from input to input (so later inputs meet keys
// earlier ones made) until it holds more than kMaxKeys keys or kInputsPerServer inputs have run;
// then the server starts afresh, which bounds the memory.
//
// Every reply must be exactly one well-formed RESP reply (none when CLIENT REPLY silences it,
// or after a SHUTDOWN; followed by its MONITOR line when the connection monitors), besides RESP3
// push frames (messages, notifications, invalidations), which must be well-formed too. A
// (P|S)(UN)SUBSCRIBE answers with a frame per channel, and a RESP2 subscriber or an EXEC may get
// messages between replies: those need at least one well-formed reply.
// proto-max-bulk-len is 64 KB here, and CONFIG SET may not change it: at the real 512 MB, a few
// SETRANGE or SETBIT commands at high offsets legitimately take gigabytes, as in Redis, which
// says nothing about bugs and only exhausts the fuzzer's memory limit.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <span>
#include <string_view>
#include <utility>

#include "protocol/resp_parser.h"
#include "server/auth.h"
#include "server/strings.h"
#include "tests/fuzz/reply_check.h"
#include "tests/support/command_harness.h"

namespace {

constexpr size_t kMaxKeys = 2000;
constexpr int kInputsPerServer = 20000;
constexpr int64_t kFuzzMaxBulkLen = 64 * 1024;
// Time passes between connections, so keys with a TTL expire (lazily and actively).
constexpr int64_t kMsPerInput = 250;

void Check(bool ok, const char* what, std::string_view detail = {}) {
  if (!ok) {
    std::fprintf(stderr, "request_fuzz: %s: %.*s\n", what, static_cast<int>(detail.size()),
                 detail.data());
    std::abort();
  }
}

kv::Config FuzzConfig() {
  kv::Config config;
  config.proto_max_bulk_len = kFuzzMaxBulkLen;
  return config;
}

// CONFIG SET of proto-max-bulk-len (see above).
bool ChangesBulkLimit(std::span<const std::string_view> args) {
  if (args.size() < 3 || !kv::EqualsIgnoreCase(args[0], "config") ||
      !kv::EqualsIgnoreCase(args[1], "set")) {
    return false;
  }
  for (size_t i = 2; i < args.size(); i += 2) {
    if (kv::EqualsIgnoreCase(args[i], "proto-max-bulk-len")) return true;
  }
  return false;
}

// (P|S)(UN)SUBSCRIBE: a frame per channel (or one for none).
bool IsSubscription(std::string_view name) {
  for (std::string_view s :
       {"subscribe", "unsubscribe", "psubscribe", "punsubscribe", "ssubscribe", "sunsubscribe"}) {
    if (kv::EqualsIgnoreCase(name, s)) return true;
  }
  return false;
}

std::unique_ptr<kv::test::CommandHarness> harness;
int inputs_on_this_server = 0;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (!harness || ++inputs_on_this_server > kInputsPerServer ||
      harness->state().dbs.TotalKeys() > kMaxKeys) {
    harness.reset();
    harness = std::make_unique<kv::test::CommandHarness>(FuzzConfig());
    inputs_on_this_server = 0;
  }
  kv::test::CommandHarness& h = *harness;
  kv::ServerState& server = h.state();
  // A new connection to a server whose settings are back to the fuzzer's (an earlier input may
  // have set a password or paused clients); the keys stay.
  server.config = FuzzConfig();
  server.pause.Unpause();
  h.clock().Advance(kMsPerInput);
  server.dbs.ActiveExpireAll(h.clock().NowMs());
  // The harness's connection, as new (not monitoring, subscribed, in a transaction or tracking);
  // frames pushed to the old one (expiry notifications just now) are dropped with it.
  h.ResetConnection();
  kv::ConnState& conn = h.conn();
  server.monitors.clear();

  kv::ParserLimits limits;
  limits.max_bulk_len = kFuzzMaxBulkLen;
  kv::ParserLimits unauthenticated = limits;
  unauthenticated.unauthenticated = true;
  kv::RespParser parser(&limits);

  std::string_view input(reinterpret_cast<const char*>(data), size);
  while (!input.empty()) {
    parser.set_limits(kv::AuthRequired(conn, server) ? &unauthenticated : &limits);
    size_t consumed = 0;
    if (parser.Parse(input, &consumed) != kv::RespParser::Status::kCommand) break;
    const std::span<const std::string_view> args = parser.args();
    // The cross-protocol guard closes the connection.
    if (kv::EqualsIgnoreCase(args[0], "post") || kv::EqualsIgnoreCase(args[0], "host:")) break;
    if (!ChangesBulkLimit(args)) {
      const bool maybe_silent = conn.reply_off || conn.reply_skip;
      const bool was_resp2_subscriber = conn.pubsub_mode && conn.protocol == 2;
      // MONITOR on a monitoring connection replies nothing, as in Redis.
      const bool was_monitor = conn.monitor;
      std::string reply = h.RunViews(args);
      if (h.held()) {
        // CLIENT PAUSE held it: the pause ends (as its timeout would) and the command runs.
        server.pause.Unpause();
        reply = h.RunViews(args);
        Check(!h.held(), "a command held without a pause", args[0]);
      }
      int pushes = 0;
      const int replies = kv::fuzz::CountReplies(reply, &pushes);
      Check(replies >= 0, "a malformed reply", reply);
      // No reply: CLIENT REPLY OFF or SKIP, or a SHUTDOWN that succeeded (it closes the
      // connection, as Redis). A monitoring connection's own command may add its MONITOR line.
      // A blocking command that blocked (BRPOP of a missing key) replies nothing yet.
      const bool quiet =
          maybe_silent || was_monitor || conn.reply_off || conn.close_after_reply || conn.blocked;
      const bool frames = was_resp2_subscriber || (conn.pubsub_mode && conn.protocol == 2) ||
                          kv::EqualsIgnoreCase(args[0], "exec") || IsSubscription(args[0]);
      Check((replies >= 1 || quiet || (frames && pushes >= 1)) &&
                (frames || replies <= (conn.monitor ? 2 : 1)),
            "not exactly one reply", reply);
    }
    input.remove_prefix(consumed);
    // A blocked client's further input waits until it is served, which nothing here will do.
    if (conn.close_after_reply || conn.blocked) break;
  }
  return 0;
}
