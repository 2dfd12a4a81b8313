#pragma once

#include <string>

#include "tests/support/resp_client.h"

namespace kv::test {

// A whole file's bytes ("" when it cannot be read).
std::string ReadFile(const std::string& path);

// Waits up to 10 s for `needle` in the server's INFO persistence (a BGSAVE or AOF rewrite
// finishing, loading done, ...).
bool WaitForPersistenceInfo(RawConnection& c, const std::string& needle);

// redis-check-rdb's verdict on an RDB file: "exit 0\n" or "failed\n", then its output.
std::string CheckRdb(const std::string& path);

}  // namespace kv::test
