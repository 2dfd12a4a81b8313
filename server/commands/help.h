#pragma once

#include <initializer_list>
#include <string_view>

#include "server/command.h"
#include "server/strings.h"

namespace kv {

// Redis's addReplyHelp: "<COMMAND> <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
// the command's own lines, then HELP's.
inline void ReplyHelp(CommandContext& ctx, std::string_view command,
                      std::initializer_list<std::string_view> lines) {
  ctx.reply.ArrayHeader(lines.size() + 3);
  ctx.reply.SimpleString(ToUpper(command) +
                         " <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
  for (std::string_view line : lines) ctx.reply.SimpleString(line);
  ctx.reply.SimpleString("HELP");
  ctx.reply.SimpleString("    Prints this help.");
}

}  // namespace kv
