#pragma once

#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/io_buffer.h"
#include "protocol/reply_writer.h"
#include "server/blocking.h"
#include "server/client_registry.h"
#include "server/command_registry.h"
#include "server/conn_state.h"
#include "server/dispatcher.h"
#include "server/monitor.h"
#include "server/server_state.h"
#include "storage/clock.h"

namespace kv::test {

// The connections the CLIENT commands see in a harness: the harness's own connection (id 1,
// from 127.0.0.1:40001 to 127.0.0.1:6379, fd 8) and whichever others a test adds. KillClient
// removes a client and records its id.
class FakeClients : public ClientRegistry {
 public:
  struct Entry {
    ConnState* state;
    std::string addr;
    std::string laddr;
    int fd;
  };
  void Add(ConnState* state, std::string addr, std::string laddr, int fd) {
    entries_.push_back({state, std::move(addr), std::move(laddr), fd});
  }
  void ForEachClient(const std::function<void(const ClientInfo&)>& fn) const override;
  void KillClient(uint64_t id) override;
  const std::vector<uint64_t>& killed() const { return killed_; }

 private:
  std::vector<Entry> entries_;
  std::vector<uint64_t> killed_;
};

// Runs commands in-process through the real command table and dispatcher, with a manual clock,
// and returns the exact RESP bytes each one replied. Frames pushed to a client (pub/sub messages,
// notifications, invalidations) join its output as they come; after each command the harness runs
// the server's end-of-turn work (BCAST invalidations) and one slice of lazy freeing, as the event
// loop would. One harness is one
// client connection (from 127.0.0.1:40001); after MONITOR its monitor lines follow the replies in
// what Run returns, as they would on the wire.
//
// Blocking commands block as on a server: Run returns "" for a command that blocked, and its reply
// comes once another client's command serves it (NewClient() makes other clients), a timeout
// passes (AdvanceClock) or CLIENT UNBLOCK ends it; TakeOutput() collects it (so does the next
// Run, before its own reply).
class CommandHarness : private MonitorSink, private BlockedClientSink, private PushSink {
 public:
  // `config` without its save points (as the fixtures' `--save ""`): nothing is saved unless a
  // test runs SAVE, BGSAVE or CONFIG SET save.
  explicit CommandHarness(Config config = {});

  std::string Run(std::initializer_list<std::string_view> args);
  std::string Run(const std::vector<std::string>& args);
  std::string RunViews(std::span<const std::string_view> args);
  // Replies made since the last Run (a served blocking command's).
  std::string TakeOutput();

  // Another client of the same server (ids 2, 3, ...), running commands the same way.
  class Client : private BlockedClientSink, private PushSink, private MonitorSink {
   public:
    std::string Run(std::initializer_list<std::string_view> args);
    std::string Run(const std::vector<std::string>& args);
    std::string TakeOutput();
    ConnState& conn() { return conn_; }
    // The client disconnects: the server forgets its subscriptions, transaction, watched keys
    // and tracking. It runs nothing after this.
    void Disconnect();

   private:
    friend class CommandHarness;
    Client(CommandHarness* h, uint64_t id);
    ReplyWriter& BlockedReply() override;
    void Unblocked() override {}
    void Push(std::string_view frame) override { out_.Append(frame); }
    size_t OutputSize() const override { return out_.size(); }
    void SendMonitorLine(std::string_view line) override { out_.Append(line); }

    CommandHarness* h_;
    ConnState conn_;
    IoBuffer out_;
    ReplyWriter writer_;
  };
  Client& NewClient();
  // Moves the clock and times out the blocked clients whose deadline passed, as the server's
  // timer would.
  void AdvanceClock(int64_t ms);

  // The harness's connection starts afresh, as a new client with the same id (the server forgets
  // its subscriptions, transaction, watched keys and tracking); pending output is dropped.
  void ResetConnection();

  ManualClock& clock() { return clock_; }
  ConnState& conn() { return conn_; }
  ServerState& state() { return state_; }
  Db& db() { return state_.dbs.db(conn_.db_index); }
  bool shutdown_requested() const { return shutdown_requested_; }
  FakeClients& clients() { return clients_; }
  // Whether CLIENT PAUSE held the last command (it did not run, and Run returned "").
  bool held() const { return held_; }

 private:
  void SendMonitorLine(std::string_view line) override { out_.Append(line); }
  void Push(std::string_view frame) override { out_.Append(frame); }
  size_t OutputSize() const override { return out_.size(); }
  ReplyWriter& BlockedReply() override;
  void Unblocked() override {}
  // What the event loop does between a command and the next: ServerState::RunAfterBatch and one
  // slice of lazy freeing.
  void EndTurn();

  ManualClock clock_;
  CommandRegistry registry_;
  ServerState state_;
  Dispatcher dispatcher_;
  ConnState conn_;
  FakeClients clients_;
  IoBuffer out_;
  ReplyWriter writer_;
  bool shutdown_requested_ = false;
  bool held_ = false;
  std::vector<std::unique_ptr<Client>> others_;
};

}  // namespace kv::test
