#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tests/support/resp_client.h"

namespace kv::test {

using Args = std::vector<std::string>;

// An unsigned number from the environment (seeds and counts of differential runs).
std::optional<uint64_t> EnvU64(const char* name);

// `args` quoted and escaped, for failure messages: "set" "k" "v\r\n".
std::string DescribeArgs(const Args& args);

// The replies of kvserver and of redis-server to the same commands, one per command.
struct ReplyPair {
  std::vector<std::string> kv, redis;
};

// Sends FLUSHALL and `commands`, pipelined in one write, on each connection; returns each
// server's replies to `commands`, or std::nullopt (after a test failure naming the server and
// what was pending) if a reply is missing.
std::optional<ReplyPair> ExchangeAfterFlush(RawConnection& kv, RawConnection& redis,
                                            const std::vector<Args>& commands);

}  // namespace kv::test
