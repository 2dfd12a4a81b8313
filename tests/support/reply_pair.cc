#include "tests/support/reply_pair.h"

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <sstream>

#include "gtest/gtest.h"

namespace kv::test {

std::optional<uint64_t> EnvU64(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::strtoull(v, nullptr, 10);
}

std::string DescribeArgs(const Args& args) {
  std::string out;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) out += ' ';
    out += '"' + Escape(args[i]) + '"';
  }
  return out;
}

std::optional<ReplyPair> ExchangeAfterFlush(RawConnection& kv, RawConnection& redis,
                                            const std::vector<Args>& commands) {
  std::string request = EncodeCommand({"FLUSHALL"});
  for (const Args& c : commands) request += EncodeCommand(c);
  kv.Send(request);
  redis.Send(request);
  ReplyPair out;
  for (auto [conn, replies] : {std::pair{&kv, &out.kv}, {&redis, &out.redis}}) {
    for (size_t i = 0; i <= commands.size(); ++i) {
      std::optional<std::string> r = conn->ReadReply();
      if (!r) {
        ADD_FAILURE() << "no reply to command #" << i << " from "
                      << (conn == &kv ? "kvserver" : "redis") << "; pending \""
                      << Escape(conn->pending()) << "\"";
        return std::nullopt;
      }
      if (i > 0) replies->push_back(*r);
    }
  }
  return out;
}

void ExpectSameReplies(RawConnection& kv, RawConnection& redis, const std::vector<Args>& commands,
                       const SameReply& same) {
  std::optional<ReplyPair> r = ExchangeAfterFlush(kv, redis, commands);
  if (!r) return;
  int failures = 0;
  for (size_t i = 0; i < commands.size() && failures < 20; ++i) {
    if (same ? same(commands[i], r->kv[i], r->redis[i]) : r->kv[i] == r->redis[i]) continue;
    ++failures;
    ADD_FAILURE() << "command #" << i << ": " << DescribeArgs(commands[i]) << "\n  kvserver: \""
                  << Escape(r->kv[i]) << "\"\n  redis:    \"" << Escape(r->redis[i]) << "\"";
  }
}

void RunRandomSequences(RawConnection& kv, RawConnection& redis, const RandomRun& run) {
  const std::optional<uint64_t> only = EnvU64((run.env + "_SEED").c_str());
  const uint64_t base =
      only.value_or(EnvU64((run.env + "_BASE_SEED").c_str())
                        .value_or(static_cast<uint64_t>(
                            std::chrono::system_clock::now().time_since_epoch().count())));
  const uint64_t count =
      only ? 1 : EnvU64((run.env + "_SEQUENCES").c_str()).value_or(run.default_count);
  std::cout << "[" << run.name << "] base seed " << base << " (replay the run: " << run.env
            << "_BASE_SEED=" << base << "), " << count << " sequences" << std::endl;
  ::testing::Test::RecordProperty("base_seed", std::to_string(base));
  int failed = 0;
  uint64_t commands_run = 0;
  std::map<std::string, uint64_t> tally;
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t i = 0; i < count && failed < 10; ++i) {
    const uint64_t seed = base + i;
    const std::vector<Args> commands = run.generate(seed);
    commands_run += commands.size();
    std::optional<ReplyPair> r = ExchangeAfterFlush(kv, redis, commands);
    if (!r) {
      ADD_FAILURE() << "seed " << seed << " (replay: " << run.env << "_SEED=" << seed << ")";
      break;
    }
    for (size_t j = 0; j < commands.size(); ++j) {
      for (const auto& [kind, text] : run.kinds) {
        if (r->redis[j].find(text) != std::string::npos &&
            (!run.counts || run.counts(kind, commands[j], r->redis[j]))) {
          ++tally[kind];
        }
      }
      if (run.same ? run.same(commands[j], r->kv[j], r->redis[j]) : r->kv[j] == r->redis[j]) {
        continue;
      }
      ++failed;
      std::ostringstream out;
      out << "divergence in sequence with seed " << seed << " (replay: " << run.env
          << "_SEED=" << seed << "), command #" << j << "\n";
      for (size_t m = 0; m <= j; ++m) {
        out << "  #" << m << " " << DescribeArgs(commands[m]) << "\n";
        if (r->kv[m] == r->redis[m]) {
          out << "      -> \"" << Escape(r->kv[m]) << "\"\n";
        } else {
          out << "      kvserver -> \"" << Escape(r->kv[m]) << "\"\n";
          out << "      redis    -> \"" << Escape(r->redis[m]) << "\"\n";
        }
      }
      ADD_FAILURE() << out.str();
      break;
    }
  }
  std::cout << "[" << run.name << "] " << count << " sequences, " << commands_run << " commands in "
            << std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::steady_clock::now() - start)
                   .count()
            << " ms, " << failed << " diverged" << std::endl;
  std::ostringstream kinds;
  for (const auto& [kind, n] : tally) kinds << " [" << kind << "] " << n;
  std::cout << "[" << run.name << "] reply kinds:" << kinds.str() << std::endl;
  if (failed == 0 && count >= 500) {
    for (const auto& [kind, text] : run.kinds) {
      EXPECT_GT(tally[kind], 0u) << "the generator never produced: " << kind;
    }
  }
}

}  // namespace kv::test
