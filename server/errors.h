#pragma once

#include <string>
#include <string_view>

#include "storage/op_status.h"

namespace kv {

// Redis's exact error replies, in one place. Texts without a "-CODE" prefix get "-ERR " from the
// reply writer.
namespace errors {
inline constexpr std::string_view kSyntax = "syntax error";
inline constexpr std::string_view kNotInteger = "value is not an integer or out of range";
inline constexpr std::string_view kOverflow = "increment or decrement would overflow";
inline constexpr std::string_view kNotFloat = "value is not a valid float";
inline constexpr std::string_view kWrongType =
    "-WRONGTYPE Operation against a key holding the wrong kind of value";
inline constexpr std::string_view kDbIndexOutOfRange = "DB index is out of range";
inline constexpr std::string_view kNoSuchKey = "no such key";
inline constexpr std::string_view kStringTooLong =
    "string exceeds maximum allowed size (proto-max-bulk-len)";
inline constexpr std::string_view kNoAuth = "-NOAUTH Authentication required.";
inline constexpr std::string_view kWrongPass =
    "-WRONGPASS invalid username-password pair or user is disabled.";
inline constexpr std::string_view kOom = "-OOM command not allowed when used memory > 'maxmemory'.";
inline constexpr std::string_view kLoading = "-LOADING Redis is loading the dataset in memory";
// Writes refused while snapshots fail (stop-writes-on-bgsave-error).
inline constexpr std::string_view kMisconfBgsave =
    "-MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to "
    "disk. Commands that may modify the data set are disabled, because this instance is "
    "configured to report errors during writes if RDB snapshotting fails "
    "(stop-writes-on-bgsave-error option). Please check the Redis logs for details about the RDB "
    "error.";
}  // namespace errors

// The reply text for a failed storage operation.
std::string_view StatusMessage(OpStatus status);

// "unknown command 'foo', with args beginning with: 'a' 'b' " exactly as Redis 7 builds it.
std::string UnknownCommandError(std::string_view name, const std::string_view* args, size_t n);
// "wrong number of arguments for 'get' command" ("config|get" for subcommands).
std::string WrongArityError(std::string_view full_name);
// "unknown subcommand 'x'. Try CONFIG HELP."
std::string UnknownSubcommandError(std::string_view sub, std::string_view command);
// Redis's addReplySubcommandSyntaxError: "unknown subcommand or wrong number of arguments for
// 'x'. Try DEBUG HELP."
std::string SubcommandSyntaxError(std::string_view sub, std::string_view command);
// "invalid expire time in 'set' command"
std::string InvalidExpireError(std::string_view command);

}  // namespace kv
