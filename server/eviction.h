#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kv {

struct ServerState;

// The allocator's use as the maxmemory check reads it before every command. Reading it
// (mallinfo2) walks every free chunk, so its cost grows with fragmentation: microseconds with a
// few thousand free chunks, milliseconds with a hundred thousand. The gauge reads it afresh once
// the time since the last reading is 50 times what that reading cost (at most 2% of the loop),
// or 5 times when what it was told since exceeds 1/32 of the limit; in between it adds what it
// is told: about what each command that may grow memory stores (its arguments, plus a chunk
// header per argument) and, negative, what eviction freed.
class MemoryGauge {
 public:
  size_t Read(uint64_t limit);
  void Add(int64_t bytes) { pending_ += bytes; }

 private:
  std::chrono::steady_clock::time_point next_reading_{};
  std::chrono::steady_clock::time_point next_early_reading_{};
  size_t measured_ = 0;
  int64_t pending_ = 0;
};

// Redis's performEvictions: while the allocator's use is over maxmemory, deletes keys chosen by
// maxmemory-policy, for at most the time maxmemory-eviction-tenacity allows. LRU, LFU and TTL
// policies sample maxmemory-samples keys of every database per round into a pool of the 16 best
// candidates kept across calls, and evict the best; the random policies take a random key of
// the next database in turn.
class Evictor {
 public:
  enum class Result {
    kOk,       // within the limit (or eviction must not run now)
    kRunning,  // over the limit, but keys were evicted until the time ran out: go on
    kFail,     // over the limit and nothing (more) may be evicted: refuse denyoom commands
  };
  Result Perform(ServerState& state, int64_t now_ms);

 private:
  struct Candidate {
    uint64_t score;  // higher: evicted sooner (idle time, 255 - LFU counter, or time to live)
    std::string key;
    size_t db;
  };
  void Populate(ServerState& state, size_t db_index, int64_t now_ms);
  // Takes the best candidate still in its database out of the pool; false if the pool runs dry.
  bool PopBest(ServerState& state, int64_t now_ms, Candidate* best);
  bool PickRandom(ServerState& state, Candidate* picked);

  std::vector<Candidate> pool_;  // ascending by score, at most kPoolSize
  size_t next_db_ = 0;           // the random policies' round robin
};

}  // namespace kv
