// Redis's generic config types (config.c's boolConfigSet, enumConfigSet, numericConfigSet,
// stringConfigSet and their get and rewrite functions), over kvserver's Config fields.

#include "server/config_directive.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "protocol/number.h"
#include "server/config_missing_features.h"
#include "server/strings.h"

namespace kv {
namespace {

// Redis passes values to its C-string functions (strcasecmp, strtoll, zstrdup): a NUL byte ends
// them.
std::string_view CString(std::string_view s) { return s.substr(0, s.find('\0')); }

std::string Quote(std::string_view s) {
  std::string out;
  AppendRepr(out, s);
  return out;
}

// ---- bool

std::optional<std::string> SetBool(const DirectiveImpl& impl, Config& c, const ConfigArgs& a) {
  const std::string_view v = CString(a[0]);
  int yes;
  if (EqualsIgnoreCase(v, "yes")) {
    yes = 1;
  } else if (EqualsIgnoreCase(v, "no")) {
    yes = 0;
  } else {
    return "argument must be 'yes' or 'no'";
  }
  if (impl.validate_int != nullptr) {
    if (const char* err = impl.validate_int(yes)) return err;
  }
  c.*impl.bool_field = yes != 0;
  return std::nullopt;
}

// ---- enum

// Redis's configEnumGetName: the first name of the value; for bit flags, the names whose bits
// the value has, from the table's start, or "unknown" when bits remain.
std::string EnumToName(const DirectiveImpl& impl, int value, bool bitflags) {
  std::string names;
  int unmatched = value;
  for (const EnumName& e : impl.enum_names) {
    if (value == e.value) return std::string(e.name);
    if (bitflags && e.value != 0 && e.value == (unmatched & e.value)) {
      if (!names.empty()) names += ' ';
      names += e.name;
      unmatched &= ~e.value;
    }
  }
  if (names.empty() || unmatched != 0) return "unknown";
  return names;
}

std::optional<std::string> SetEnum(const DirectiveImpl& impl, bool bitflags, Config& c,
                                   const ConfigArgs& a) {
  // Redis's configEnumGetValue: one name, or for bit flags any number of names OR-ed together.
  bool ok = !a.empty() && (bitflags || a.size() == 1);
  int value = 0;
  for (size_t i = 0; ok && i < a.size(); ++i) {
    bool matched = false;
    for (const EnumName& e : impl.enum_names) {
      if (EqualsIgnoreCase(CString(a[i]), e.name)) {
        value |= e.value;
        matched = true;
      }
    }
    ok = matched;
  }
  if (!ok) {
    std::string err = "argument(s) must be one of the following: ";
    for (size_t i = 0; i < impl.enum_names.size(); ++i) {
      if (i > 0) err += ", ";
      err += impl.enum_names[i].name;
    }
    return err.substr(0, 255);  // Redis copies it into a 256-byte buffer
  }
  if (impl.validate_int != nullptr) {
    if (const char* err = impl.validate_int(value)) return err;
  }
  impl.enum_set(c, value);
  return std::nullopt;
}

// ---- numeric

std::string RangeError(const DirectiveImpl& impl) {
  char buf[256];
  if (impl.numeric_unsigned) {
    const auto lo = static_cast<unsigned long long>(impl.lower);
    const auto hi = static_cast<unsigned long long>(impl.upper);
    if ((impl.numeric_flags & DirectiveImpl::kOctal) != 0) {
      std::snprintf(buf, sizeof(buf), "argument must be between %llo and %llo inclusive", lo, hi);
    } else {
      std::snprintf(buf, sizeof(buf), "argument must be between %llu and %llu inclusive", lo, hi);
    }
  } else {
    std::snprintf(buf, sizeof(buf),
                  "argument must be between %" PRId64 " and %" PRId64 " inclusive", impl.lower,
                  impl.upper);
  }
  return buf;
}

// Redis's numericParseString: a memory value, a percentage, an octal number or a plain integer,
// as the directive's flags allow, in that order.
std::optional<int64_t> ParseNumber(const DirectiveImpl& impl, const std::string& value) {
  const uint8_t flags = impl.numeric_flags;
  if ((flags & DirectiveImpl::kMemory) != 0) {
    if (auto v = ParseMemory(value)) return v;
  }
  if ((flags & DirectiveImpl::kPercent) != 0 && value.size() > 1 && value.back() == '%') {
    auto v = ParseInt64(std::string_view(value).substr(0, value.size() - 1));
    if (v && *v >= 0) return -*v;  // stored negative, as Redis does
  }
  if ((flags & DirectiveImpl::kOctal) != 0) {
    const std::string c(CString(value));
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(c.c_str(), &end, 8);
    if (errno == 0 && *end == '\0') return v;
  }
  if (flags == DirectiveImpl::kInteger) return ParseInt64(value);
  return std::nullopt;
}

std::optional<std::string> SetNumeric(const DirectiveImpl& impl, Config& c, const ConfigArgs& a) {
  const uint8_t flags = impl.numeric_flags;
  auto parsed = ParseNumber(impl, a[0]);
  if (!parsed) {
    if ((flags & DirectiveImpl::kMemory) != 0 && (flags & DirectiveImpl::kPercent) != 0) {
      return "argument must be a memory or percent value";
    }
    if ((flags & DirectiveImpl::kMemory) != 0) return "argument must be a memory value";
    if ((flags & DirectiveImpl::kOctal) != 0) {
      return "argument couldn't be parsed as an octal number";
    }
    return "argument couldn't be parsed into an integer";
  }
  const int64_t v = *parsed;
  // Redis's numericBoundaryCheck.
  if (impl.numeric_unsigned) {
    const auto u = static_cast<uint64_t>(v);
    if (u > static_cast<uint64_t>(impl.upper) || u < static_cast<uint64_t>(impl.lower)) {
      return RangeError(impl);
    }
  } else if ((flags & DirectiveImpl::kPercent) != 0 && v < 0) {
    if (v < impl.lower) {
      return "percentage argument must be less or equal to " + std::to_string(-impl.lower);
    }
  } else if (v > impl.upper || v < impl.lower) {
    return RangeError(impl);
  }
  if (impl.validate_int != nullptr) {
    if (const char* err = impl.validate_int(v)) return err;
  }
  impl.numeric_set(c, v);
  return std::nullopt;
}

std::string GetNumeric(const DirectiveImpl& impl, const Config& c) {
  const int64_t v = impl.numeric_get(c);
  if ((impl.numeric_flags & DirectiveImpl::kPercent) != 0 && v < 0) {
    return std::to_string(-v) + "%";
  }
  if ((impl.numeric_flags & DirectiveImpl::kMemory) != 0) {
    return std::to_string(static_cast<uint64_t>(v));
  }
  if ((impl.numeric_flags & DirectiveImpl::kOctal) != 0) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%llo", static_cast<unsigned long long>(v));
    return buf;
  }
  return std::to_string(v);
}

RewriteLines RewriteNumeric(const DirectiveImpl& impl, const Config& c, std::string_view name) {
  const int64_t v = impl.numeric_get(c);
  const std::string prefix = std::string(name) + " ";
  const bool force = v != impl.numeric_default;
  if ((impl.numeric_flags & DirectiveImpl::kPercent) != 0 && v < 0) {
    // Redis compares the positive percentage with the default here.
    return {{prefix + std::to_string(-v) + "%", -v != impl.numeric_default}};
  }
  if ((impl.numeric_flags & DirectiveImpl::kMemory) != 0) {
    return {{prefix + FormatMemory(v), force}};
  }
  if ((impl.numeric_flags & DirectiveImpl::kOctal) != 0) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%llo", static_cast<unsigned long long>(v));
    return {{prefix + buf, force}};
  }
  return {{prefix + std::to_string(v), force}};
}

// ---- string

std::optional<std::string> SetString(const DirectiveImpl& impl, Config& c, const ConfigArgs& a) {
  const std::string value = impl.binary_safe ? a[0] : std::string(CString(a[0]));
  if (impl.validate_string != nullptr) {
    if (const char* err = impl.validate_string(value)) return err;
  }
  c.*impl.string_field = value;
  return std::nullopt;
}

RewriteLines RewriteString(const DirectiveImpl& impl, const Config& c, std::string_view name) {
  const std::string& value = c.*impl.string_field;
  // Redis's rewriteConfigStringOption: a NULL value is left out of the file altogether.
  if (value.empty() && impl.empty_is_null) return {};
  const bool force = impl.string_default == nullptr || value != impl.string_default;
  return {{std::string(name) + " " + Quote(value), force}};
}

}  // namespace

std::string_view StripChars(std::string_view s, std::string_view chars) {
  const size_t start = s.find_first_not_of(chars);
  if (start == std::string_view::npos) return {};
  return s.substr(start, s.find_last_not_of(chars) - start + 1);
}

std::string FormatMemory(int64_t bytes) {
  constexpr int64_t kGb = 1024LL * 1024 * 1024, kMb = 1024 * 1024, kKb = 1024;
  if (bytes != 0 && bytes % kGb == 0) return std::to_string(bytes / kGb) + "gb";
  if (bytes != 0 && bytes % kMb == 0) return std::to_string(bytes / kMb) + "mb";
  if (bytes != 0 && bytes % kKb == 0) return std::to_string(bytes / kKb) + "kb";
  return std::to_string(bytes);
}

std::string FormatPercentile(double value) {
  char buf[128];
  int len = std::snprintf(buf, sizeof(buf), "%f", value);
  if (std::strchr(buf, '.') != nullptr) {
    while (len > 0 && buf[len - 1] == '0') --len;
    if (len > 0 && buf[len - 1] == '.') --len;
  }
  return std::string(buf, static_cast<size_t>(len));
}

std::optional<std::string> SetDirective(const DirectiveImpl& impl, Config& config,
                                        const ConfigArgs& args, SetMode mode) {
  switch (impl.kind) {
    case DirectiveImpl::Kind::kBool:
      return SetBool(impl, config, args);
    case DirectiveImpl::Kind::kEnum:
      return SetEnum(impl, impl.enum_bitflags, config, args);
    case DirectiveImpl::Kind::kNumeric:
      return SetNumeric(impl, config, args);
    case DirectiveImpl::Kind::kString:
      return SetString(impl, config, args);
    case DirectiveImpl::Kind::kSpecial:
      return impl.special_set(config, args, mode);
  }
  return std::nullopt;
}

std::string GetDirective(const DirectiveImpl& impl, const Config& config) {
  switch (impl.kind) {
    case DirectiveImpl::Kind::kBool:
      return config.*impl.bool_field ? "yes" : "no";
    case DirectiveImpl::Kind::kEnum:
      return EnumToName(impl, impl.enum_get(config), impl.enum_bitflags);
    case DirectiveImpl::Kind::kNumeric:
      return GetNumeric(impl, config);
    case DirectiveImpl::Kind::kString:
      return config.*impl.string_field;
    case DirectiveImpl::Kind::kSpecial:
      return impl.special_get(config);
  }
  return {};
}

RewriteLines RewriteDirective(const DirectiveImpl& impl, const Config& config,
                              std::string_view name) {
  const std::string prefix = std::string(name) + " ";
  switch (impl.kind) {
    case DirectiveImpl::Kind::kBool: {
      const bool v = config.*impl.bool_field;
      return {{prefix + (v ? "yes" : "no"), v != impl.bool_default}};
    }
    case DirectiveImpl::Kind::kEnum: {
      const int v = impl.enum_get(config);
      return {{prefix + EnumToName(impl, v, impl.enum_bitflags), v != impl.enum_default}};
    }
    case DirectiveImpl::Kind::kNumeric:
      return RewriteNumeric(impl, config, name);
    case DirectiveImpl::Kind::kString:
      return RewriteString(impl, config, name);
    case DirectiveImpl::Kind::kSpecial:
      return impl.special_rewrite(config, name);
  }
  return {};
}

std::optional<std::string> SetDirectiveChecked(const Directive& d, Config& config,
                                               const ConfigArgs& args, SetMode mode) {
  // On a copy, so that a refused value leaves the configuration as it was.
  Config updated = config;
  if (auto err = SetDirective(*d.impl, updated, args, mode)) return err;
  if (mode == SetMode::kConfigSet) {
    if (auto err = RefusedForMissingFeature(d.primary(), updated)) return err;
    if (d.impl->after_config_set != nullptr &&
        GetDirective(*d.impl, updated) != GetDirective(*d.impl, config)) {
      d.impl->after_config_set(updated);
    }
  }
  config = std::move(updated);
  return std::nullopt;
}

std::string Directive::Get(const Config& config) const { return GetDirective(*impl, config); }

std::optional<std::string> Directive::Set(Config& config, const ConfigArgs& args) const {
  return SetDirectiveChecked(*this, config, args, SetMode::kConfigSet);
}

// ---- validators (Redis's is_valid_fn)

namespace {
bool IsBaseName(const std::string& path) {
  return path.find('/') == std::string::npos && path.find('\\') == std::string::npos;
}
}  // namespace

const char* ValidateDbFilename(const std::string& value) {
  return IsBaseName(value) ? nullptr : "dbfilename can't be a path, just a filename";
}

const char* ValidateAppendFilename(const std::string& value) {
  if (value.empty()) return "appendfilename can't be empty";
  return IsBaseName(value) ? nullptr : "appendfilename can't be a path, just a filename";
}

const char* ValidateAppendDirname(const std::string& value) {
  if (value.empty()) return "appenddirname can't be empty";
  return IsBaseName(value) ? nullptr : "appenddirname can't be a path, just a dirname";
}

const char* ValidateAnnouncedHostname(const std::string& value) {
  if (value.size() >= 256) return "Hostnames must be less than 256 characters";
  for (char c : value) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '.';
    if (!ok) return "Hostnames may only contain alphanumeric characters, hyphens or dots";
  }
  return nullptr;
}

std::optional<std::string> ExpandTemplate(
    std::string_view tmpl,
    const std::function<std::optional<std::string>(std::string_view)>& lookup) {
  tmpl = CString(tmpl);
  std::string out;
  while (!tmpl.empty()) {
    const size_t open = tmpl.find('{');
    if (open == std::string_view::npos) {
      out += tmpl;
      break;
    }
    out += tmpl.substr(0, open);
    tmpl.remove_prefix(open + 1);
    if (tmpl.empty()) return std::nullopt;  // premature end
    if (tmpl[0] == '{') {                   // "{{" is a literal '{'
      out += '{';
      tmpl.remove_prefix(1);
      continue;
    }
    const size_t close = tmpl.find('}');
    if (close == std::string_view::npos) return std::nullopt;
    auto value = lookup(tmpl.substr(0, close));
    if (!value) return std::nullopt;
    out += *value;
    tmpl.remove_prefix(close + 1);
  }
  return out;
}

const char* ValidateProcTitleTemplate(const std::string& value) {
  // Redis expands it with an empty title and the server's current values; a default server's
  // stand in here (only {title}, {server-mode} and {unixsocket} can expand to nothing).
  auto expanded = ExpandTemplate(value, [](std::string_view name) -> std::optional<std::string> {
    if (name == "title" || name == "server-mode" || name == "unixsocket") return "";
    if (name == "listen-addr") return "127.0.0.1:6379";
    if (name == "config-file") return "-";
    if (name == "port") return "6379";
    if (name == "tls-port") return "0";
    return std::nullopt;
  });
  if (!expanded || StripChars(*expanded, " ").empty()) {
    return "template format is invalid or contains unknown variables";
  }
  return nullptr;
}

const char* ValidateShutdownOnSignal(int64_t flags) {
  if ((flags & kShutdownNoSave) != 0 && (flags & kShutdownSave) != 0) {
    return "shutdown options SAVE and NOSAVE can't be used simultaneously";
  }
  return nullptr;
}

}  // namespace kv
