#pragma once

#include <cctype>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/resp_client.h"

namespace kv::test {

using Args = std::vector<std::string>;

// An unsigned number from the environment (seeds and counts of differential runs).
std::optional<uint64_t> EnvU64(const char* name);

// `args` quoted and escaped, for failure messages: "set" "k" "v\r\n".
std::string DescribeArgs(const Args& args);

// Seeded random choices, the base of the differential suites' command generators.
class RandomChoices {
 public:
  explicit RandomChoices(uint64_t seed) : rng_(seed) {}

  uint64_t Uniform(uint64_t n) { return rng_() % n; }
  bool Percent(int p) { return static_cast<int>(Uniform(100)) < p; }
  template <typename T>
  const T& Pick(const std::vector<T>& v) {
    return v[Uniform(v.size())];
  }
  std::string Pick(std::initializer_list<std::string> v) { return v.begin()[Uniform(v.size())]; }
  // A command or option word in random case.
  std::string Case(std::string word) {
    for (char& c : word) {
      if (Percent(50)) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    return word;
  }

 private:
  std::mt19937_64 rng_;
};

// The replies of kvserver and of redis-server to the same commands, one per command.
struct ReplyPair {
  std::vector<std::string> kv, redis;
};

// Sends FLUSHALL and `commands`, pipelined in one write, on each connection; returns each
// server's replies to `commands`, or std::nullopt (after a test failure naming the server and
// what was pending) if a reply is missing.
std::optional<ReplyPair> ExchangeAfterFlush(RawConnection& kv, RawConnection& redis,
                                            const std::vector<Args>& commands);

using SameReply =
    std::function<bool(const Args& command, const std::string& kv, const std::string& redis)>;

// Exchanges `commands` (ExchangeAfterFlush) and expects the same reply from both servers to
// each (by `same`; byte equality when empty), reporting up to 20 differences.
void ExpectSameReplies(RawConnection& kv, RawConnection& redis, const std::vector<Args>& commands,
                       const SameReply& same = {});

// A differential run of seeded random command sequences: sequence i uses seed base+i, each is
// sent pipelined after a FLUSHALL, and every reply must match (by `same`). The environment
// replays: <env>_SEED=<seed> one sequence, <env>_BASE_SEED=<seed> a whole run, and
// <env>_SEQUENCES=<n> changes how many run.
struct RandomRun {
  std::string name;  // e.g. "bitmaps differential", for the printed lines
  std::string env;   // e.g. "KV_BIT_DIFF"
  uint64_t default_count = 600;
  std::function<std::vector<Args>(uint64_t seed)> generate;
  // Whether kvserver's reply matches Redis's; byte equality when empty.
  SameReply same;
  // Kinds of replies a run should produce: a label and a text found in Redis's reply, so that a
  // generator that stops exercising something shows up (checked on runs of 500 or more).
  std::vector<std::pair<std::string, std::string>> kinds;
  // Optionally narrows when a reply counts for a kind (given its label).
  std::function<bool(const std::string& kind, const Args&, const std::string& redis)> counts;
};

// Runs `run` over the two connections, reporting the first divergences as test failures with
// the whole sequence up to them.
void RunRandomSequences(RawConnection& kv, RawConnection& redis, const RandomRun& run);

}  // namespace kv::test
