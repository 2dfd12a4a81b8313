#pragma once

// kvserver embedded in a process: a real Redis-compatible server on a loopback port, for tests.
//
//   kvserver::ManualClock clock;
//   kvserver::Server server(kvserver::Options().Set("databases", "4").UseClock(clock));
//   kvserver::Endpoint at = server.Start();          // port 0: a free port
//   ... connect any Redis client to at.host:at.port ...
//   clock.Advance(std::chrono::seconds(30));          // keys with a 30 s TTL are gone now
//   server.InjectFault(kvserver::Fault::Error("LOADING Redis is loading the dataset in memory"));
//
// Each server runs its event loop on a thread of its own; many may run in one process. Every
// method may be called from any thread (not from the server's own thread).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kvserver {

// A bad directive, or a listener that cannot be set up.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A clock the test moves by hand. Copies share one time, so one clock may drive several
// servers. Starts at the real time of its construction unless told otherwise.
class ManualClock {
 public:
  ManualClock();
  explicit ManualClock(std::chrono::system_clock::time_point start);

  // Moves time forward (or back, for a negative duration). When it returns, every server using
  // this clock has seen the new time: commands run at it (lazy expiry), and one complete pass of
  // active expiry has run at it, so keys whose deadline passed are deleted even if nobody touches
  // them. A key with a TTL of N ms lives while less than N ms have passed and is gone after N ms
  // + 1 ms, as in Redis (expired when now > deadline).
  void Advance(std::chrono::milliseconds by);
  void Set(std::chrono::system_clock::time_point to);
  std::chrono::system_clock::time_point Now() const;

 private:
  friend class Server;
  struct State;
  std::shared_ptr<State> state_;
};

// What a server is started with: directives as in kvserver.conf (any directive the binary takes),
// applied in order. The defaults differ from the binary's in three ways: port 0 (a free port),
// bind 127.0.0.1 only, and save "" (no snapshot is written to the working directory, by the save
// points or at shutdown; Set("save", "60 1") and Set("dir", ...) turn snapshots on).
class Options {
 public:
  Options();
  // A directive and its value, e.g. Set("maxclients", "100"), Set("bind", "127.0.0.1 ::1").
  // An unknown directive or a bad value makes the Server constructor throw kvserver::Error.
  Options& Set(std::string_view directive, std::string_view value);
  Options& UseClock(ManualClock clock);

 private:
  friend class Server;
  std::vector<std::pair<std::string, std::string>> directives_;
  std::optional<ManualClock> clock_;
};

// Where a started server listens.
struct Endpoint {
  std::string host;                        // the first TCP address, e.g. "127.0.0.1"
  uint16_t port = 0;                       // the TCP port actually bound (0 when TCP is off)
  std::optional<std::string> unix_socket;  // the unixsocket directive, when set
};

// A fault for the next commands a server receives, from any client. Faults queue: each command
// takes the first armed fault that matches it.
struct Fault {
  enum class Kind { kError, kDelay, kDrop };

  // Reply `message` instead of running the command, e.g. "LOADING Redis is loading the dataset in
  // memory", "BUSY Redis is busy running a script", "TRYAGAIN Multiple keys request during
  // rehashing of slot", "MOVED 3999 127.0.0.1:6381" (a leading '-' is optional).
  static Fault Error(std::string message);
  // Run the command, then hold its reply (and the connection's later replies) for `by`. Other
  // connections are served meanwhile.
  static Fault Delay(std::chrono::milliseconds by);
  // Close the connection without running the command; replies to earlier commands still go out.
  static Fault Drop();

  // Applies to the next `n` commands instead of one.
  Fault& Times(uint64_t n) {
    count = n;
    return *this;
  }
  // Applies only to commands with this name (any case), e.g. "get".
  Fault& OnlyFor(std::string name) {
    command = std::move(name);
    return *this;
  }

  Kind kind = Kind::kError;
  std::string message;
  std::chrono::milliseconds delay{0};
  std::string command;
  uint64_t count = 1;
};

class Server {
 public:
  // Throws kvserver::Error for a bad directive.
  explicit Server(Options options = Options());
  // Stops the server if it runs.
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds the listeners and starts serving on a thread of the server's own; connections are
  // accepted once it returns. Throws kvserver::Error when a listener cannot be set up, or when
  // the server was started before.
  Endpoint Start();
  // Closes the listeners and every connection and ends the server's thread. Safe to call more
  // than once; does nothing before Start(). A stopped server (also after a client's SHUTDOWN)
  // cannot be started again.
  void Stop();

  bool running() const;
  uint16_t port() const;
  const Endpoint& endpoint() const;

  // Deletes every key of every database.
  void FlushAll();
  // The number of keys in database `db`, or in all of them; like DBSIZE, keys whose TTL passed
  // count until expiry deletes them.
  size_t KeyCount(int db) const;
  size_t KeyCount() const;

  // Arms a fault (whether or not enable-fault-injection is on: that directive gates KVFAULT).
  void InjectFault(Fault fault);
  // Disarms every armed fault.
  void ClearFaults();

  // The clock given in the options, or nullptr when the server uses the system clock.
  ManualClock* clock();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kvserver
