// The arguments the sorted set families share: integers, score ranges and lex ranges.

#include "server/commands/zset_args.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/number.h"
#include "server/errors.h"

namespace kv {
namespace {

// Redis reads range bounds as C strings: a NUL byte ends them.
std::string CString(std::string_view arg) { return std::string(arg.substr(0, arg.find('\0'))); }

// One end of zslParseRange: "(" for exclusive, then strtod, which must use the whole text (a
// leading space is fine, "" is 0, overflow is inf) and not be NaN.
bool ParseScoreBound(std::string_view arg, double* value, bool* exclusive) {
  const std::string text = CString(arg);
  const char* p = text.c_str();
  *exclusive = p[0] == '(';
  if (*exclusive) ++p;
  char* end = nullptr;
  *value = std::strtod(p, &end);
  return *end == '\0' && !std::isnan(*value);
}

// zslParseLexRangeItem: "+" and "-" alone (up to a NUL), or "(" / "[" and the rest of the bytes.
bool ParseLexBound(std::string_view arg, std::string_view* value, LexRange::Bound* bound,
                   bool* exclusive) {
  if (arg.empty()) return false;
  switch (arg[0]) {
    case '+':
    case '-':
      if (arg.size() > 1 && arg[1] != '\0') return false;
      *exclusive = true;
      *bound = arg[0] == '+' ? LexRange::Bound::kMax : LexRange::Bound::kMin;
      return true;
    case '(':
    case '[':
      *exclusive = arg[0] == '(';
      *bound = LexRange::Bound::kValue;
      *value = arg.substr(1);
      return true;
    default:
      return false;
  }
}

}  // namespace

bool ParseLong(CommandContext& ctx, std::string_view arg, int64_t* out, std::string_view msg) {
  const std::optional<int64_t> v = ParseInt64(arg);
  if (!v) {
    ctx.reply.Error(msg.empty() ? errors::kNotInteger : msg);
    return false;
  }
  *out = *v;
  return true;
}

bool ParseRangeLong(CommandContext& ctx, std::string_view arg, int64_t min, int64_t max,
                    int64_t* out, std::string_view msg) {
  if (!ParseLong(ctx, arg, out, msg)) return false;
  if (*out < min || *out > max) {
    if (!msg.empty()) {
      ctx.reply.Error(msg);
    } else {
      ctx.reply.Error("value is out of range, value must between " + std::to_string(min) + " and " +
                      std::to_string(max));
    }
    return false;
  }
  return true;
}

bool ParsePositiveLong(CommandContext& ctx, std::string_view arg, int64_t* out,
                       std::string_view msg) {
  return ParseRangeLong(ctx, arg, 0, INT64_MAX, out,
                        msg.empty() ? "value is out of range, must be positive" : msg);
}

bool ParseScoreRange(std::string_view min, std::string_view max, ScoreRange* range) {
  return ParseScoreBound(min, &range->min, &range->minex) &&
         ParseScoreBound(max, &range->max, &range->maxex);
}

bool ParseLexRange(std::string_view min, std::string_view max, LexRange* range) {
  return ParseLexBound(min, &range->min, &range->min_bound, &range->minex) &&
         ParseLexBound(max, &range->max, &range->max_bound, &range->maxex);
}

}  // namespace kv
