#include "tests/support/reply_pair.h"

#include <cstdlib>

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

}  // namespace kv::test
