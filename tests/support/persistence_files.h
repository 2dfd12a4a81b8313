#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "tests/support/resp_client.h"

namespace kv::test {

// A whole file's bytes ("" when it cannot be read).
std::string ReadFile(const std::string& path);

// Waits up to 10 s for `needle` in the server's INFO persistence (a BGSAVE or AOF rewrite
// finishing, loading done, ...).
bool WaitForPersistenceInfo(RawConnection& c, const std::string& needle);

// What a second client sees while `command` (DEBUG RELOAD, DEBUG LOADAOF) runs on the server at
// `port`, whose load must be slowed down (key-load-delay) to take well over a second: INFO's
// "loading:" line and PING's reply during the load, the command's own reply once done, then PING's
// reply and the "loading:" line again.
struct SeenDuringLoad {
  std::string loading_during, ping_during, reply, ping_after, loading_after;
  bool operator==(const SeenDuringLoad&) const = default;
};
SeenDuringLoad ObserveSlowLoad(int port, const std::vector<std::string>& command);
// What Redis shows for a load that serves other clients: loading, -LOADING, +OK, then serving.
SeenDuringLoad SeenDuringAServedLoad();
std::ostream& operator<<(std::ostream& out, const SeenDuringLoad& seen);

// redis-check-rdb's verdict on an RDB file: "exit 0\n" or "failed\n", then its output.
std::string CheckRdb(const std::string& path);

}  // namespace kv::test
