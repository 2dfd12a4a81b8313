// Arbitrary bytes into the RDB loader, the two ways a server meets RDB bytes from outside:
// - as a DUMP payload's object (the first byte even): the bytes get a valid footer (RDB version
//   10 and the right CRC64, so the checksum does not reject them before the loader sees them) and
//   go to RESTORE. A payload it accepts must DUMP to a payload that RESTOREs again, to a value
//   with the same DEBUG DIGEST-VALUE;
// - as a whole RDB file (the first byte odd), loaded without checksum into a fresh keyspace,
//   which DEBUG DIGEST then reads whole.
// Anything else must be refused with an error reply, never a crash, an out-of-bounds read or an
// allocation the bytes cannot justify.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "server/persistence/crc64.h"
#include "server/persistence/rdb_file.h"
#include "tests/support/command_harness.h"

namespace {

void Check(bool ok, const char* what, std::string_view detail = {}) {
  if (!ok) {
    std::fprintf(stderr, "rdb_fuzz: %s: %.*s\n", what, static_cast<int>(detail.size()),
                 detail.data());
    std::abort();
  }
}

kv::test::CommandHarness& Harness() {
  static kv::test::CommandHarness* harness = [] {
    kv::Config config;
    config.enable_debug_command = "yes";
    return new kv::test::CommandHarness(config);
  }();
  return *harness;
}

// The bulk string a reply holds ("$<n>\r\n<bytes>\r\n"), or empty for any other reply.
std::string BulkOf(const std::string& reply) {
  if (reply.empty() || reply[0] != '$') return {};
  const size_t line_end = reply.find("\r\n");
  const long len = std::strtol(reply.c_str() + 1, nullptr, 10);
  if (len < 0 || line_end == std::string::npos) return {};
  return reply.substr(line_end + 2, static_cast<size_t>(len));
}

void RestoreRoundTrip(kv::test::CommandHarness& h, std::string_view object) {
  std::string payload(object);
  payload += std::string("\x0a\x00", 2);
  const uint64_t crc = kv::Crc64(0, payload);
  for (int i = 0; i < 8; ++i) payload.push_back(static_cast<char>(crc >> (8 * i)));

  const std::string restored = h.Run({"RESTORE", "k", "0", payload, "REPLACE"});
  if (restored != "+OK\r\n") {
    Check(restored.rfind("-", 0) == 0, "RESTORE replied neither OK nor an error", restored);
    return;
  }
  const std::string dump = BulkOf(h.Run({"DUMP", "k"}));
  Check(!dump.empty(), "DUMP of a restored key");
  Check(h.Run({"RESTORE", "k2", "0", dump, "REPLACE"}) == "+OK\r\n", "RESTORE of its DUMP", dump);
  Check(h.Run({"DEBUG", "DIGEST-VALUE", "k"}) == h.Run({"DEBUG", "DIGEST-VALUE", "k2"}),
        "the copy's digest differs");
}

void LoadFile(kv::test::CommandHarness& h, std::string_view file) {
  kv::RdbLoadOptions options;
  options.checksum = false;
  // Half the inputs go through the parser on a thread of its own (files of 1 MB or more do).
  options.parse_thread_min_bytes = file.size() % 2 == 0 ? 0 : SIZE_MAX;
  const kv::RdbLoadResult result = kv::LoadRdbBytes(h.state().dbs, file, options);
  Check(result.ok || !result.error.empty(), "a failed load without a reason");
  const std::string digest = h.Run({"DEBUG", "DIGEST"});
  Check(digest.size() == 43 && digest[0] == '+', "DEBUG DIGEST after a load", digest);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  kv::test::CommandHarness& h = Harness();
  h.Run({"FLUSHALL"});
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] % 2 == 0) {
    RestoreRoundTrip(h, rest);
  } else {
    LoadFile(h, rest);
  }
  return 0;
}
