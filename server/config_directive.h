#pragma once

// How a directive parses, renders and rewrites its value: Redis's generic config types (bool,
// enum, numeric with ranges and memory/percent/octal forms, string) and special directives with
// functions of their own. Internal to the configuration files (config*.cc).

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "server/config.h"

namespace kv {

using ConfigArgs = std::vector<std::string>;

// Whether a directive is being set from configuration text (a file or the command line) or by
// CONFIG SET: Redis's save directive appends in the first case and replaces in the second.
enum class SetMode { kLoading, kConfigSet };

// The lines CONFIG REWRITE writes for a directive, each with whether it must be written even
// where the old file did not mention the directive (Redis's `force`). No lines: the directive is
// left out of the file (its old lines are removed).
using RewriteLines = std::vector<std::pair<std::string, bool>>;

struct EnumName {
  std::string_view name;
  int value;
};

struct DirectiveImpl {
  enum class Kind { kBool, kEnum, kNumeric, kString, kSpecial } kind;

  // kBool
  bool Config::*bool_field = nullptr;
  bool bool_default = false;

  // kEnum: the names (Redis's order; a value may have several names, the first renders it) and
  // accessors of the field holding the value.
  std::vector<EnumName> enum_names;
  int enum_default = 0;
  bool enum_bitflags = false;  // Redis's multi-argument enums: names OR-ed together
  int (*enum_get)(const Config&) = nullptr;
  void (*enum_set)(Config&, int) = nullptr;

  // kNumeric
  enum NumericFlags : uint8_t { kInteger = 0, kMemory = 1, kPercent = 2, kOctal = 4 };
  uint8_t numeric_flags = kInteger;
  // Redis checks the range of unsigned int, unsigned long long and size_t directives unsigned.
  bool numeric_unsigned = false;
  int64_t lower = 0, upper = 0, numeric_default = 0;
  int64_t (*numeric_get)(const Config&) = nullptr;
  void (*numeric_set)(Config&, int64_t) = nullptr;

  // kString: Redis's string configs stop at a NUL byte, its sds ones (passwords) keep it.
  std::string Config::*string_field = nullptr;
  const char* string_default = nullptr;  // nullptr: none (Redis's NULL)
  bool empty_is_null = false;
  bool binary_safe = false;

  // Extra validation of a parsed value (Redis's is_valid_fn): an error text or nullptr.
  const char* (*validate_string)(const std::string&) = nullptr;
  const char* (*validate_int)(int64_t) = nullptr;

  // Redis's apply function where it changes the value (CONFIG SET only, and only when the value
  // changed): repl-backlog-size's minimum.
  void (*after_config_set)(Config&) = nullptr;

  // kSpecial
  std::optional<std::string> (*special_set)(Config&, const ConfigArgs&, SetMode) = nullptr;
  std::string (*special_get)(const Config&) = nullptr;
  RewriteLines (*special_rewrite)(const Config&, std::string_view name) = nullptr;
};

// The directive's value parsed and applied (without the missing-feature check).
std::optional<std::string> SetDirective(const DirectiveImpl& impl, Config& config,
                                        const ConfigArgs& args, SetMode mode);
std::string GetDirective(const DirectiveImpl& impl, const Config& config);
// CONFIG REWRITE's lines for the directive's current value.
RewriteLines RewriteDirective(const DirectiveImpl& impl, const Config& config,
                              std::string_view name);

// Sets with the loading/CONFIG SET distinction. CONFIG SET refuses a value that needs a missing
// feature at once; configuration text is checked once read whole (the last value counts, so that
// a command line option can override a file's line).
std::optional<std::string> SetDirectiveChecked(const Directive& d, Config& config,
                                               const ConfigArgs& args, SetMode mode);

// `s` without the leading and trailing characters in `chars` (Redis's sdstrim).
std::string_view StripChars(std::string_view s, std::string_view chars);

// Redis's rewriteConfigFormatMemory: the largest of gb, mb, kb that divides the value.
std::string FormatMemory(int64_t bytes);
// Redis's "%f" followed by trimDoubleString: 99.9 is "99.9", 50 is "50".
std::string FormatPercentile(double value);

// The special directives (config_special.cc).
namespace special {
std::optional<std::string> SetSave(Config&, const ConfigArgs&, SetMode);
std::string GetSave(const Config&);
RewriteLines RewriteSave(const Config&, std::string_view);
std::optional<std::string> SetDir(Config&, const ConfigArgs&, SetMode);
std::string GetDir(const Config&);
RewriteLines RewriteDir(const Config&, std::string_view);
std::optional<std::string> SetOutputBufferLimit(Config&, const ConfigArgs&, SetMode);
std::string GetOutputBufferLimit(const Config&);
RewriteLines RewriteOutputBufferLimit(const Config&, std::string_view);
std::optional<std::string> SetOomScoreAdjValues(Config&, const ConfigArgs&, SetMode);
std::string GetOomScoreAdjValues(const Config&);
RewriteLines RewriteOomScoreAdjValues(const Config&, std::string_view);
std::optional<std::string> SetNotifyKeyspaceEvents(Config&, const ConfigArgs&, SetMode);
std::string GetNotifyKeyspaceEvents(const Config&);
RewriteLines RewriteNotifyKeyspaceEvents(const Config&, std::string_view);
std::optional<std::string> SetBind(Config&, const ConfigArgs&, SetMode);
std::string GetBind(const Config&);
RewriteLines RewriteBind(const Config&, std::string_view);
std::optional<std::string> SetReplicaOf(Config&, const ConfigArgs&, SetMode);
std::string GetReplicaOf(const Config&);
RewriteLines RewriteReplicaOf(const Config&, std::string_view);
std::optional<std::string> SetLatencyPercentiles(Config&, const ConfigArgs&, SetMode);
std::string GetLatencyPercentiles(const Config&);
RewriteLines RewriteLatencyPercentiles(const Config&, std::string_view);
// Redis's keyspaceEventsStringToFlags (-1: a character that is no class) and its reverse.
int KeyspaceEventsFlags(std::string_view classes);
std::string KeyspaceEventsString(int flags);
}  // namespace special

// Validators of string directives (Redis's is_valid_fn), for the table.
const char* ValidateDbFilename(const std::string& value);
const char* ValidateAppendFilename(const std::string& value);
const char* ValidateAppendDirname(const std::string& value);
const char* ValidateAnnouncedHostname(const std::string& value);
const char* ValidateProcTitleTemplate(const std::string& value);
const char* ValidateShutdownOnSignal(int64_t flags);

// Redis's sdstemplate: each "{name}" replaced by lookup(name), "{{" by "{"; nullopt when the
// template is malformed or lookup knows no such variable.
std::optional<std::string> ExpandTemplate(
    std::string_view tmpl,
    const std::function<std::optional<std::string>(std::string_view)>& lookup);

}  // namespace kv
