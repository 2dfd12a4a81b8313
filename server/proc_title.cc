#include "server/proc_title.h"

#include <unistd.h>

#include <cstring>

#include "server/config_directive.h"

extern char** environ;

namespace kv {
namespace {

char* g_title_begin = nullptr;  // argv[0]'s memory ...
char* g_title_end = nullptr;    // ... up to the end of the last string next to it
std::string g_program_name;

}  // namespace

void ProcTitle::Init(int argc, char** argv) {
  if (argc < 1 || argv[0] == nullptr) return;
  g_program_name = argv[0];
  // The arguments and the environment strings lie one after the other: all of it can hold the
  // title.
  char* begin = argv[0];
  char* end = begin + std::strlen(begin) + 1;
  for (int i = 1; i < argc; ++i) {
    if (argv[i] == end) end = argv[i] + std::strlen(argv[i]) + 1;
  }
  size_t env_count = 0;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e, ++env_count) {
    if (*e == end) end = *e + std::strlen(*e) + 1;
  }
  // Copy the environment and the arguments out of the way.
  char** env_copy = new char*[env_count + 1];
  for (size_t i = 0; i < env_count; ++i) env_copy[i] = ::strdup(environ[i]);
  env_copy[env_count] = nullptr;
  environ = env_copy;
  for (int i = 0; i < argc; ++i) argv[i] = ::strdup(argv[i]);
  g_title_begin = begin;
  g_title_end = end;
}

const std::string& ProcTitle::ProgramName() { return g_program_name; }

void ProcTitle::Set(std::string_view title) {
  if (g_title_begin == nullptr) return;
  const size_t room = static_cast<size_t>(g_title_end - g_title_begin);
  const size_t len = std::min(title.size(), room - 1);
  std::memcpy(g_title_begin, title.data(), len);
  std::memset(g_title_begin + len, 0, room - len);
}

std::optional<std::string> ExpandProcTitle(const Config& config, const ProcTitleFacts& facts) {
  auto expanded = ExpandTemplate(
      config.proc_title_template, [&](std::string_view name) -> std::optional<std::string> {
        if (name == "title") return ProcTitle::ProgramName();
        if (name == "listen-addr") {
          const int port = facts.port != 0 ? facts.port : static_cast<int>(config.tls_port);
          if (port != 0) {
            return (config.bind.empty() ? std::string("*") : config.bind.front()) + ":" +
                   std::to_string(port);
          }
          return "unixsocket:" + config.unixsocket;
        }
        if (name == "server-mode") return std::string();
        if (name == "config-file") {
          return config.config_file.empty() ? std::string("-") : config.config_file;
        }
        if (name == "port") return std::to_string(facts.port);
        if (name == "tls-port") return std::to_string(config.tls_port);
        if (name == "unixsocket") return config.unixsocket;
        return std::nullopt;
      });
  if (!expanded) return std::nullopt;
  return std::string(StripChars(*expanded, " "));
}

}  // namespace kv
