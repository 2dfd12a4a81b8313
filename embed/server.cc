// The embedding API (include/kvserver/server.h) over kv::Server.
//
// Threads: the server's loop runs on a thread of its own and owns every piece of server state.
// A call from the test's thread that reads or changes that state (FlushAll, KeyCount, faults,
// the clock's expiry pass) is posted to the loop and waited for, so the state is only ever
// touched by one thread at a time. Only the clock's time itself is shared, as an atomic.

#include "kvserver/server.h"

#include <boost/asio/post.hpp>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "server/config.h"
#include "server/server.h"
#include "storage/clock.h"

namespace kvserver {
namespace {

// A server that wants to hear when its clock moves.
class ClockListener {
 public:
  virtual void ClockMoved() = 0;

 protected:
  ~ClockListener() = default;
};

int64_t ToUnixMs(std::chrono::system_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

}  // namespace

// ---- ManualClock

struct ManualClock::State {
  explicit State(int64_t start_ms) : clock(start_ms) {}

  kv::ManualClock clock;
  std::mutex mu;  // guards listeners, and keeps each listener alive while it is told
  std::vector<ClockListener*> listeners;

  void Moved() {
    std::lock_guard lock(mu);
    for (ClockListener* l : listeners) l->ClockMoved();
  }
  void Attach(ClockListener* l) {
    std::lock_guard lock(mu);
    listeners.push_back(l);
  }
  void Detach(ClockListener* l) {
    std::lock_guard lock(mu);
    std::erase(listeners, l);
  }
};

ManualClock::ManualClock() : ManualClock(std::chrono::system_clock::now()) {}

ManualClock::ManualClock(std::chrono::system_clock::time_point start)
    : state_(std::make_shared<State>(ToUnixMs(start))) {}

void ManualClock::Advance(std::chrono::milliseconds by) {
  state_->clock.Advance(by.count());
  state_->Moved();
}

void ManualClock::Set(std::chrono::system_clock::time_point to) {
  state_->clock.Set(ToUnixMs(to));
  state_->Moved();
}

std::chrono::system_clock::time_point ManualClock::Now() const {
  return std::chrono::system_clock::time_point(std::chrono::milliseconds(state_->clock.NowMs()));
}

// ---- Options

Options::Options() {
  Set("port", "0");
  Set("bind", "127.0.0.1");
  Set("save", "");
}

Options& Options::Set(std::string_view directive, std::string_view value) {
  directives_.emplace_back(directive, value);
  return *this;
}

Options& Options::UseClock(ManualClock clock) {
  clock_ = std::move(clock);
  return *this;
}

// ---- Fault

Fault Fault::Error(std::string message) {
  Fault f;
  f.kind = Kind::kError;
  f.message = std::move(message);
  return f;
}

Fault Fault::Delay(std::chrono::milliseconds by) {
  Fault f;
  f.kind = Kind::kDelay;
  f.delay = by;
  return f;
}

Fault Fault::Drop() {
  Fault f;
  f.kind = Kind::kDrop;
  return f;
}

// ---- Server

struct Server::Impl final : ClockListener {
  enum class Phase { kNew, kRunning, kStopped };

  explicit Impl(Options options) : clock(std::move(options.clock_)) {
    kv::Config config;
    std::string text;
    for (const auto& [name, value] : options.directives_) {
      text += name + " " + kv::QuoteConfigArg(value) + "\n";
    }
    if (auto err = kv::ApplyConfigText(text, &config)) throw Error(err->Short());
    server = std::make_unique<kv::Server>(std::move(config), nullptr,
                                          clock ? &clock->state_->clock : nullptr);
    if (clock) clock->state_->Attach(this);
  }

  ~Impl() {
    Stop();
    if (clock) clock->state_->Detach(this);
  }

  Endpoint Start() {
    std::lock_guard lock(mu);
    if (phase != Phase::kNew) throw Error("kvserver::Server::Start: the server was started before");
    if (auto err = server->Start()) {
      phase = Phase::kStopped;
      // An empty error was logged already (the append-only file's failures).
      throw Error(err->empty() ? "the append-only file could not be loaded (see the log)" : *err);
    }
    const kv::Config& config = server->state().config;
    endpoint.port = server->port();
    if (!config.bind.empty()) {
      endpoint.host = config.bind.front();
      if (endpoint.host.starts_with('-')) endpoint.host.erase(0, 1);
    }
    if (!config.unixsocket.empty()) endpoint.unix_socket = config.unixsocket;
    phase = Phase::kRunning;
    thread = std::thread([this] {
      server->Run();
      {
        std::lock_guard loop_lock(loop_mu);
        loop_exited = true;
      }
      loop_cv.notify_all();
    });
    return endpoint;
  }

  void Stop() {
    std::lock_guard lock(mu);
    if (phase != Phase::kRunning) return;  // not started (Stop does nothing), or stopped
    server->Stop();
    thread.join();
    phase = Phase::kStopped;
  }

  // Runs `fn` where it may touch the server's state: on the loop while it runs (waiting for it),
  // else right here, since then no other thread touches the state.
  template <typename Fn>
  void OnLoop(Fn&& fn) {
    std::lock_guard lock(mu);  // Stop waits until fn is done
    if (phase != Phase::kRunning) return fn();
    bool done = false;
    boost::asio::post(server->io_context(), [&] {
      fn();
      {
        std::lock_guard loop_lock(loop_mu);
        done = true;
      }
      loop_cv.notify_all();
    });
    std::unique_lock loop_lock(loop_mu);
    loop_cv.wait(loop_lock, [&] { return done || loop_exited; });
    // The loop ended before running fn (a client's SHUTDOWN): nothing else runs it now.
    if (!done) fn();
  }

  void ClockMoved() override {
    OnLoop([this] {
      server->state().dbs.ActiveExpireAll(server->state().clock->NowMs());
      server->ExpireBlockedClients();
    });
  }

  std::optional<ManualClock> clock;
  std::unique_ptr<kv::Server> server;
  Endpoint endpoint;
  std::mutex mu;  // serialises Start, Stop and the calls that run on the loop
  Phase phase = Phase::kNew;
  std::thread thread;
  std::mutex loop_mu;
  std::condition_variable loop_cv;
  bool loop_exited = false;
};

Server::Server(Options options) : impl_(std::make_unique<Impl>(std::move(options))) {}

Server::~Server() = default;

Endpoint Server::Start() { return impl_->Start(); }

void Server::Stop() { impl_->Stop(); }

bool Server::running() const {
  std::lock_guard lock(impl_->mu);
  if (impl_->phase != Impl::Phase::kRunning) return false;
  std::lock_guard loop_lock(impl_->loop_mu);
  return !impl_->loop_exited;
}

uint16_t Server::port() const { return impl_->endpoint.port; }

const Endpoint& Server::endpoint() const { return impl_->endpoint; }

void Server::FlushAll() {
  impl_->OnLoop([this] { impl_->server->state().dbs.FlushAll(); });
}

size_t Server::KeyCount(int db) const {
  // The number of databases never changes once the server exists.
  if (db < 0 || db >= impl_->server->state().config.databases) {
    throw std::out_of_range("kvserver::Server::KeyCount: no database " + std::to_string(db));
  }
  size_t n = 0;
  impl_->OnLoop([&] { n = impl_->server->state().dbs.db(static_cast<size_t>(db)).size(); });
  return n;
}

size_t Server::KeyCount() const {
  size_t n = 0;
  impl_->OnLoop([&] { n = impl_->server->state().dbs.TotalKeys(); });
  return n;
}

void Server::InjectFault(Fault fault) {
  kv::FaultInjector::Fault f;
  switch (fault.kind) {
    case Fault::Kind::kError:
      f.kind = kv::FaultInjector::Kind::kError;
      f.message = kv::ErrorLine(fault.message);
      break;
    case Fault::Kind::kDelay:
      f.kind = kv::FaultInjector::Kind::kDelay;
      f.delay_ms = fault.delay.count();
      break;
    case Fault::Kind::kDrop:
      f.kind = kv::FaultInjector::Kind::kDrop;
      break;
  }
  f.command = std::move(fault.command);
  f.count = fault.count;
  if (f.count == 0) return;
  impl_->OnLoop([&] { impl_->server->state().faults.Add(std::move(f)); });
}

void Server::ClearFaults() {
  impl_->OnLoop([this] { impl_->server->state().faults.Clear(); });
}

ManualClock* Server::clock() { return impl_->clock ? &*impl_->clock : nullptr; }

}  // namespace kvserver
