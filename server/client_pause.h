#pragma once

#include <cstdint>

namespace kv {

// CLIENT PAUSE, as Redis 7.0's pauseClients: while a pause lasts, the commands it covers (every
// command for ALL, write commands for WRITE) are held, not refused, until it ends. A new pause
// extends the current one to the later end and the stricter type.
class ClientPause {
 public:
  enum class Type { kOff = 0, kWrite = 1, kAll = 2 };

  void Pause(Type type, int64_t end_ms, int64_t now_ms) {
    Expire(now_ms);
    if (type > type_) type_ = type;
    if (end_ms > end_ms_) end_ms_ = end_ms;
    Expire(now_ms);  // CLIENT PAUSE 0 pauses nothing
  }
  void Unpause() {
    type_ = Type::kOff;
    end_ms_ = 0;
  }
  // Ends a pause whose time is over at `now_ms` (Redis's checkClientPauseTimeoutAndReturnIfPaused:
  // the pause lasts while its end is not before now).
  void Expire(int64_t now_ms) {
    if (type_ != Type::kOff && end_ms_ < now_ms) Unpause();
  }
  // Whether a command (a write command or not) must wait at `now_ms`.
  bool Holds(bool write_command, int64_t now_ms) {
    if (type_ == Type::kOff) return false;
    Expire(now_ms);
    return type_ == Type::kAll || (type_ == Type::kWrite && write_command);
  }
  Type type() const { return type_; }
  int64_t end_ms() const { return end_ms_; }

 private:
  Type type_ = Type::kOff;
  int64_t end_ms_ = 0;
};

}  // namespace kv
