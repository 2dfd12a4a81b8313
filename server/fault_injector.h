#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>

namespace kv {

// Faults a test asks for, to see how its client copes: the next commands (all of them, or only
// those with a given name) fail with a chosen error, get their reply late, or lose their
// connection. Armed through the embedding API or the KVFAULT command; consulted by the
// connection before each command, on the loop's thread.
// `text` as an error reply line: a leading '-' is added when missing ("LOADING ..." becomes
// "-LOADING ..."), so the reply writer keeps the text's own code instead of adding "ERR".
std::string ErrorLine(std::string_view text);

class FaultInjector {
 public:
  enum class Kind {
    kNone,   // run the command normally
    kError,  // reply `message` (a whole error line such as "-LOADING ...") instead of running it
    kDelay,  // run the command, then hold the replies for `delay_ms`
    kDrop,   // close the connection without running the command or replying to it
  };
  struct Fault {
    Kind kind = Kind::kNone;
    std::string message;
    int64_t delay_ms = 0;
    std::string command;  // empty: any command; otherwise only this one (any case)
    uint64_t count = 1;   // how many commands it applies to
  };

  void Add(Fault fault) { faults_.push_back(std::move(fault)); }
  void Clear() { faults_.clear(); }
  bool armed() const { return !faults_.empty(); }
  size_t size() const { return faults_.size(); }

  // The fault for the command named `name`, counted as used; the first armed fault that matches
  // wins. KVFAULT itself is never affected, so faults can always be cleared.
  Fault Take(std::string_view name);

 private:
  std::deque<Fault> faults_;
};

}  // namespace kv
