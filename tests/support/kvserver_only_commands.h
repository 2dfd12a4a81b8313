#pragma once

#include <map>
#include <string>

namespace kv::test {

// The registered commands Redis 7.0.15 does not have, each with the reason kvserver has it. The
// tests that hold kvserver's command table to Redis's (tests/server/command_table_test.cc,
// tests/differential/command_docs_test.cc) skip these, and only these.
inline const std::map<std::string, std::string>& KvserverOnlyCommands() {
  static const std::map<std::string, std::string> kOnly = {
      {"kvfault", "kvserver's fault injection for tests (enable-fault-injection)"},
      {"kvfault|error", "kvserver's fault injection"},
      {"kvfault|delay", "kvserver's fault injection"},
      {"kvfault|drop", "kvserver's fault injection"},
      {"kvfault|clear", "kvserver's fault injection"},
      {"kvfault|help", "kvserver's fault injection"},
      {"client|setinfo", "Redis 7.2's, sent at connect by ioredis and node-redis"},
      {"client|no-touch", "Redis 7.2's, answered so that clients asking for it work"},
  };
  return kOnly;
}

}  // namespace kv::test
