#include "server/errors.h"

#include <algorithm>

#include "server/strings.h"

namespace kv {
namespace {

// Redis formats these texts with printf("%s") into C strings: a NUL byte ends an argument.
std::string_view AsCString(std::string_view s) {
  size_t nul = s.find('\0');
  return nul == std::string_view::npos ? s : s.substr(0, nul);
}

}  // namespace

std::string_view StatusMessage(OpStatus status) {
  switch (status) {
    case OpStatus::kOk:
    case OpStatus::kSkipped:
      return {};
    case OpStatus::kKeyNotFound:
      return errors::kNoSuchKey;
    case OpStatus::kWrongType:
      return errors::kWrongType;
  }
  return {};
}

std::string UnknownCommandError(std::string_view name, const std::string_view* args, size_t n) {
  std::string listed;
  for (size_t i = 0; i < n && listed.size() < 128; ++i) {
    std::string_view arg = AsCString(args[i]);
    listed += '\'';
    listed += arg.substr(0, 128 - listed.size() + 1);
    listed += "' ";
  }
  std::string msg = "unknown command '";
  msg += AsCString(name).substr(0, 128);
  msg += "', with args beginning with: ";
  msg += listed;
  return msg;
}

std::string WrongArityError(std::string_view full_name) {
  return "wrong number of arguments for '" + std::string(full_name) + "' command";
}

std::string UnknownSubcommandError(std::string_view sub, std::string_view command) {
  return "unknown subcommand '" + std::string(AsCString(sub).substr(0, 128)) + "'. Try " +
         ToUpper(command) + " HELP.";
}

std::string SubcommandSyntaxError(std::string_view sub, std::string_view command) {
  return "unknown subcommand or wrong number of arguments for '" +
         std::string(AsCString(sub).substr(0, 128)) + "'. Try " + ToUpper(command) + " HELP.";
}

std::string InvalidExpireError(std::string_view command) {
  return "invalid expire time in '" + std::string(command) + "' command";
}

}  // namespace kv
