#include "tests/support/persistence_files.h"

#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

namespace kv::test {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool WaitForPersistenceInfo(RawConnection& c, const std::string& needle) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    if (c.Call({"info", "persistence"}).find(needle) != std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

namespace {

std::string LoadingLine(RawConnection& c) {
  const std::string info = c.Call({"info", "persistence"});
  const size_t at = info.find("loading:");
  return at == std::string::npos ? "missing" : info.substr(at, info.find("\r\n", at) - at);
}

}  // namespace

SeenDuringLoad ObserveSlowLoad(int port, const std::vector<std::string>& command) {
  SeenDuringLoad seen;
  auto loader = RawConnection::Connect(port);
  auto other = RawConnection::Connect(port);
  if (!loader || !other) return seen;
  loader->Send(EncodeCommand(command));
  // Served only once the load serves clients (a save before it keeps the server busy).
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  seen.loading_during = LoadingLine(*other);
  seen.ping_during = other->Call({"ping"});
  seen.reply = loader->ReadReply(60000).value_or("no reply");
  seen.ping_after = other->Call({"ping"});
  seen.loading_after = LoadingLine(*other);
  return seen;
}

SeenDuringLoad SeenDuringAServedLoad() {
  return {"loading:1", "-LOADING Redis is loading the dataset in memory\r\n", "+OK\r\n",
          "+PONG\r\n", "loading:0"};
}

std::ostream& operator<<(std::ostream& out, const SeenDuringLoad& seen) {
  return out << "{during: " << seen.loading_during << ", " << Escape(seen.ping_during) << "; reply "
             << Escape(seen.reply) << "; after: " << Escape(seen.ping_after) << ", "
             << seen.loading_after << "}";
}

std::string CheckRdb(const std::string& path) {
  const std::string cmd = "redis-check-rdb '" + path + "' 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return "cannot run redis-check-rdb";
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int status = ::pclose(p);
  return (WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "exit 0\n" : "failed\n") + out;
}

}  // namespace kv::test
