// The arguments the stream families share: stream ids and integers.

#include "server/commands/stream_args.h"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/number.h"

namespace kv {
namespace {

constexpr std::string_view kInvalidId = "Invalid stream ID specified as stream command argument";

// Redis's string2ull: a strict integer that is not negative, else strtoull's looser forms
// (leading blanks, a sign, leading zeros), failing on overflow or trailing bytes.
bool StringToUll(std::string_view s, uint64_t* out) {
  if (auto v = ParseInt64(s)) {
    if (*v < 0) return false;
    *out = static_cast<uint64_t>(*v);
    return true;
  }
  if (s.empty()) return false;
  std::string buf(s);
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(buf.c_str(), &end, 10);
  if (errno == EINVAL || errno == ERANGE || *end != '\0') return false;
  if (end == buf.c_str()) return false;  // no digits
  *out = v;
  return true;
}

}  // namespace

bool ParseId(CommandContext* ctx, std::string_view arg, StreamId* id, uint64_t missing_seq,
             bool strict, bool* seq_given) {
  auto invalid = [&] {
    if (ctx != nullptr) ctx->reply.Error(kInvalidId);
    return false;
  };
  if (arg.size() > 127) return invalid();
  const std::string_view s = CStr(arg);
  if (strict && (s == "-" || s == "+")) return invalid();
  if (seq_given != nullptr) *seq_given = true;
  if (s == "-") {
    *id = {0, 0};
    return true;
  }
  if (s == "+") {
    *id = StreamId::Max();
    return true;
  }
  const size_t dash = s.find('-');
  uint64_t ms = 0;
  uint64_t seq = 0;
  if (!StringToUll(s.substr(0, dash), &ms)) return invalid();
  if (dash != std::string_view::npos) {
    const std::string_view rest = s.substr(dash + 1);
    if (seq_given != nullptr && rest == "*") {
      seq = 0;
      *seq_given = false;
    } else if (!StringToUll(rest, &seq)) {
      return invalid();
    }
  } else {
    seq = missing_seq;
  }
  *id = {ms, seq};
  return true;
}

bool ParseStrictId(CommandContext& ctx, std::string_view arg, StreamId* id, uint64_t missing_seq,
                   bool* seq_given) {
  return ParseId(&ctx, arg, id, missing_seq, true, seq_given);
}

bool ParseIntervalId(CommandContext& ctx, std::string_view arg, StreamId* id, bool* exclude,
                     uint64_t missing_seq) {
  *exclude = arg.size() > 1 && arg[0] == '(';
  if (*exclude) return ParseStrictId(ctx, arg.substr(1), id, missing_seq);
  return ParseId(&ctx, arg, id, missing_seq, false, nullptr);
}

bool ParseLongLong(CommandContext& ctx, std::string_view arg, int64_t* out,
                   std::string_view error) {
  const std::optional<int64_t> v = ParseInt64(arg);
  if (!v) {
    ctx.reply.Error(error);
    return false;
  }
  *out = *v;
  return true;
}

}  // namespace kv
