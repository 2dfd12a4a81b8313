#include "server/commands/scan_options.h"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>

#include "protocol/number.h"
#include "server/errors.h"
#include "server/glob.h"
#include "server/strings.h"

namespace kv {

bool ParseScanCursor(CommandContext& ctx, std::string_view arg, uint64_t* cursor) {
  const std::string text(arg);  // a C string: a NUL byte ends it, as in Redis
  char* end = nullptr;
  errno = 0;
  const unsigned long parsed = std::strtoul(text.c_str(), &end, 10);
  if (std::isspace(static_cast<unsigned char>(text.c_str()[0])) || *end != '\0' ||
      errno == ERANGE) {
    ctx.reply.Error("invalid cursor");
    return false;
  }
  *cursor = parsed;
  return true;
}

bool ScanOptions::Matches(std::string_view element) const {
  return !use_pattern || GlobMatch(pattern, element);
}

bool ParseScanOptions(CommandContext& ctx, size_t first, bool allow_type, ScanOptions* options) {
  for (size_t i = first; i < ctx.args.size();) {
    const size_t left = ctx.args.size() - i;
    if (OptionIs(ctx.args[i], "count") && left >= 2) {
      auto n = ParseInt64(ctx.args[i + 1]);
      if (!n) {
        ctx.reply.Error(errors::kNotInteger);
        return false;
      }
      if (*n < 1) {
        ctx.reply.Error(errors::kSyntax);
        return false;
      }
      options->count = *n;
      i += 2;
    } else if (OptionIs(ctx.args[i], "match") && left >= 2) {
      options->pattern = ctx.args[i + 1];
      options->use_pattern = options->pattern != "*";
      i += 2;
    } else if (allow_type && OptionIs(ctx.args[i], "type") && left >= 2) {
      const std::string_view t = ctx.args[i + 1];
      options->type.assign(t.substr(0, t.find('\0')));
      options->use_type = true;
      i += 2;
    } else {
      ctx.reply.Error(errors::kSyntax);
      return false;
    }
  }
  return true;
}

void ReplyEmptyScan(CommandContext& ctx) { ctx.reply.Raw("*2\r\n$1\r\n0\r\n*0\r\n"); }

void ReplyScanHeader(CommandContext& ctx, uint64_t cursor, size_t n) {
  char buf[kMaxInt64Chars];
  const auto end = std::to_chars(buf, buf + sizeof(buf), cursor).ptr;  // unsigned, as Redis's
  ctx.reply.ArrayHeader(2);
  ctx.reply.Bulk(std::string_view(buf, static_cast<size_t>(end - buf)));
  ctx.reply.ArrayHeader(n);
}

}  // namespace kv
