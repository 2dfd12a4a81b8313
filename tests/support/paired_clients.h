#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/reply_pair.h"
#include "tests/support/resp_client.h"

namespace kv::test {

// The same clients on kvserver and on redis-server: connection i of one server mirrors connection
// i of the other. A step sends one command on a connection of both servers and collects what every
// connection received because of it, synchronized by a PING marker: the server handles a
// connection's commands in order, so once a connection's marker reply arrives, every frame pushed
// to it by the step (messages, notifications, invalidations) came before it.
class PairedClients {
 public:
  PairedClients(int kv_port, int redis_port) : kv_port_(kv_port), redis_port_(redis_port) {}

  // Opens connection `i` on both servers (closing any there was).
  bool Open(size_t i) {
    if (kv_.size() <= i) {
      kv_.resize(i + 1);
      redis_.resize(i + 1);
    }
    kv_[i] = RawConnection::Connect(kv_port_);
    redis_[i] = RawConnection::Connect(redis_port_);
    return kv_[i] && redis_[i];
  }
  void Close(size_t i) {
    kv_[i].reset();
    redis_[i].reset();
  }
  bool open(size_t i) const { return i < kv_.size() && kv_[i] != nullptr; }
  size_t size() const { return kv_.size(); }
  RawConnection& kv(size_t i) { return *kv_[i]; }
  RawConnection& redis(size_t i) { return *redis_[i]; }

  // What each connection received: kv[i] and redis[i] hold connection i's frames in order.
  struct Received {
    std::vector<std::vector<std::string>> kv, redis;
  };

  // Sends `args` on connection `i` with a marker PING behind it, reads connection `i` up to the
  // marker's reply (so the server has run the command), then sends a marker PING on every other
  // open connection and reads each up to its reply. Returns every connection's frames before its
  // marker reply. A connection closed by the server (or by QUIT) yields what arrived before the
  // close, then "<no reply>".
  //
  // A connection inside MULTI would queue the marker: with `own_frames` >= 0, connection `i` gets
  // no marker and exactly that many frames are read from it instead (the other connections must
  // not be inside MULTI).
  Received Step(size_t i, const Args& args, int own_frames = -1) {
    Received r;
    r.kv.resize(kv_.size());
    r.redis.resize(redis_.size());
    const std::string marker = "marker-" + std::to_string(++markers_);
    const std::string ping = EncodeCommand({"PING", marker});
    const std::string request = EncodeCommand(args) + (own_frames < 0 ? ping : std::string());
    if (kv_[i]) kv_[i]->Send(request);
    if (redis_[i]) redis_[i]->Send(request);
    if (own_frames < 0) {
      if (kv_[i]) r.kv[i] = UntilMarker(*kv_[i], marker);
      if (redis_[i]) r.redis[i] = UntilMarker(*redis_[i], marker);
    } else {
      for (int n = 0; n < own_frames; ++n) {
        if (kv_[i]) r.kv[i].push_back(kv_[i]->ReadReply().value_or("<no reply>"));
        if (redis_[i]) r.redis[i].push_back(redis_[i]->ReadReply().value_or("<no reply>"));
      }
    }
    for (size_t c = 0; c < kv_.size(); ++c) {
      if (c == i) continue;
      if (kv_[c]) kv_[c]->Send(ping);
      if (redis_[c]) redis_[c]->Send(ping);
    }
    for (size_t c = 0; c < kv_.size(); ++c) {
      if (c == i) continue;
      if (kv_[c]) r.kv[c] = UntilMarker(*kv_[c], marker);
      if (redis_[c]) r.redis[c] = UntilMarker(*redis_[c], marker);
    }
    return r;
  }

  // Sends `args` on connection `i` of both servers and returns each server's one reply, without
  // markers: for clients that only get replies (no pushed frames), in or out of MULTI.
  std::pair<std::string, std::string> Call(size_t i, const Args& args) {
    const std::string request = EncodeCommand(args);
    kv_[i]->Send(request);
    redis_[i]->Send(request);
    return {kv_[i]->ReadReply().value_or("<no reply>"),
            redis_[i]->ReadReply().value_or("<no reply>")};
  }

  // Reads frames until the reply to PING `marker` (a bulk string, or ["pong", marker] in a RESP2
  // subscribed connection); a missing reply ends the list with "<no reply>".
  static std::vector<std::string> UntilMarker(RawConnection& c, const std::string& marker) {
    const std::string bulk = "$" + std::to_string(marker.size()) + "\r\n" + marker + "\r\n";
    const std::string pong = "*2\r\n$4\r\npong\r\n" + bulk;
    std::vector<std::string> frames;
    while (true) {
      std::optional<std::string> f = c.ReadReply(5000);
      if (!f) {
        frames.push_back("<no reply>");
        return frames;
      }
      if (*f == bulk || *f == pong) return frames;
      frames.push_back(std::move(*f));
    }
  }

 private:
  int kv_port_, redis_port_;
  std::vector<std::unique_ptr<RawConnection>> kv_, redis_;
  uint64_t markers_ = 0;
};

}  // namespace kv::test
