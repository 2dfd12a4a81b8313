// Protected mode over a real non-loopback path: the test creates a network namespace joined to
// this one by a veth pair, binds the servers to the address on this side, and connects from the
// other side. Needs root (CAP_NET_ADMIN) and iproute2's `ip`; the test skips itself otherwise.
// Only addresses of the pair the test creates are used, and the namespace and pair are removed
// whatever happens.

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "tests/integration/raw_client.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

class VethNamespace {
 public:
  VethNamespace() {
    const int pid = static_cast<int>(::getpid());
    name_ = "kvtest" + std::to_string(pid);
    host_if_ = "kvh" + std::to_string(pid);
    const std::string ns_if = "kvn" + std::to_string(pid);
    // A /30 of 10.0.0.0/8 chosen from the pid, so that tests running in parallel do not meet.
    const std::string net = "10." + std::to_string(200 + (pid >> 14) % 50) + "." +
                            std::to_string((pid >> 6) & 255) + ".";
    const int base = (pid & 63) * 4;
    host_ip_ = net + std::to_string(base + 1);
    ns_ip_ = net + std::to_string(base + 2);
    const std::string steps[] = {
        "ip netns add " + name_,
        "ip link add " + host_if_ + " type veth peer name " + ns_if,
        "ip link set " + ns_if + " netns " + name_,
        "ip addr add " + host_ip_ + "/30 dev " + host_if_,
        "ip link set " + host_if_ + " up",
        "ip netns exec " + name_ + " ip addr add " + ns_ip_ + "/30 dev " + ns_if,
        "ip netns exec " + name_ + " ip link set " + ns_if + " up",
    };
    for (const std::string& step : steps) {
      int status = 0;
      const std::string out = RunShell(step + " 2>&1", &status);
      if (status != 0) {
        error_ = "`" + step + "` failed: " + out;
        return;
      }
    }
  }
  ~VethNamespace() {
    // Deleting the namespace destroys its end of the pair, and with it this end.
    RunShell("ip netns del " + name_ + " 2>/dev/null");
    RunShell("ip link del " + host_if_ + " 2>/dev/null");
  }

  const std::string& error() const { return error_; }
  const std::string& host_ip() const { return host_ip_; }
  const std::string& ns_ip() const { return ns_ip_; }

  // A TCP connection to host_ip_:port made from inside the namespace, so that the server sees
  // ns_ip_ as the peer; -1 on failure. The socket belongs to the namespace it was created in,
  // which is why a thread enters the namespace to create it.
  int ConnectFromInside(int port) const {
    int result = -1;
    std::thread t([&] {
      const int target = ::open(("/var/run/netns/" + name_).c_str(), O_RDONLY | O_CLOEXEC);
      if (target < 0) return;
      const bool entered = ::setns(target, CLONE_NEWNET) == 0;
      ::close(target);
      if (!entered) return;
      const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
      sockaddr_in addr{};
      addr.sin_family = AF_INET;
      addr.sin_port = htons(static_cast<uint16_t>(port));
      ::inet_pton(AF_INET, host_ip_.c_str(), &addr.sin_addr);
      if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
        ::close(fd);
        return;
      }
      result = fd;
    });
    t.join();
    return result;
  }

 private:
  std::string name_;
  std::string host_if_;
  std::string host_ip_;
  std::string ns_ip_;
  std::string error_;
};

#define SKIP_WITHOUT_NAMESPACES(ns)                                                        \
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to create a network namespace";        \
  if (RunShell("command -v ip").empty()) GTEST_SKIP() << "needs iproute2's ip (setup.sh)"; \
  VethNamespace ns;                                                                        \
  if (!ns.error().empty()) GTEST_SKIP() << "cannot create a network namespace: " << ns.error()

// What a client connecting from inside the namespace receives before the server closes it
// (after sending `request`, if any); `closed` says whether it was closed.
std::string FromInside(const VethNamespace& ns, int port, const std::string& request,
                       bool* closed) {
  RawClient c;
  const int fd = ns.ConnectFromInside(port);
  EXPECT_GE(fd, 0) << "cannot connect from the namespace";
  if (fd < 0) return "";
  c.Adopt(fd);
  if (!request.empty()) {
    EXPECT_TRUE(c.SendAll(request));
  }
  return c.ReadUntilClosed(1500, closed);
}

TEST(ProtectedMode, NonLoopbackClientIsDeniedWithRedisText) {
  SKIP_WITHOUT_NAMESPACES(ns);
  const std::string bind = "127.0.0.1 " + ns.host_ip();
  auto kv = ServerProcess::StartKvserver({"--bind", bind});
  auto redis = ServerProcess::StartRedis({"--bind", bind});
  ASSERT_TRUE(kv && redis);
  bool kv_closed = false;
  bool redis_closed = false;
  const std::string from_redis = FromInside(ns, redis->port(), "", &redis_closed);
  const std::string from_kv = FromInside(ns, kv->port(), "", &kv_closed);
  EXPECT_EQ(from_redis.substr(0, 50), "-DENIED Redis is running in protected mode because");
  EXPECT_EQ(from_kv, from_redis);
  EXPECT_TRUE(kv_closed);
  EXPECT_TRUE(redis_closed);
  // Loopback clients are served meanwhile; the refused client counts as rejected.
  auto local = kv->Connect();
  EXPECT_EQ(Str(Command(local.get(), "PING")), "PONG");
  EXPECT_EQ(InfoField(local.get(), "rejected_connections"), "1");
  EXPECT_EQ(InfoField(local.get(), "total_connections_received"), "1");
}

TEST(ProtectedMode, PasswordOrProtectedModeOffAdmitsRemoteClients) {
  SKIP_WITHOUT_NAMESPACES(ns);
  const std::string bind = "127.0.0.1 " + ns.host_ip();
  {
    // With a password the remote client is let in and must authenticate.
    auto kv = ServerProcess::StartKvserver({"--bind", bind, "--requirepass", "pw"});
    ASSERT_TRUE(kv);
    RawClient c;
    c.Adopt(ns.ConnectFromInside(kv->port()));
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(c.Exchange("PING\r\n", 34), "-NOAUTH Authentication required.\r\n");
    EXPECT_EQ(c.Exchange("AUTH pw\r\nPING\r\n", 12), "+OK\r\n+PONG\r\n");
  }
  {
    auto kv = ServerProcess::StartKvserver({"--bind", bind, "--protected-mode", "no"});
    ASSERT_TRUE(kv);
    RawClient c;
    c.Adopt(ns.ConnectFromInside(kv->port()));
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(c.Exchange("PING\r\n", 7), "+PONG\r\n");
    // CLIENT LIST shows the namespace's address as the peer.
    EXPECT_NE(c.Exchange("CLIENT INFO\r\n", 60).find("addr=" + ns.ns_ip() + ":"),
              std::string::npos);
  }
  {
    // CONFIG SET protected-mode no from the loopback interface, as the DENIED text advises.
    auto kv = ServerProcess::StartKvserver({"--bind", bind});
    ASSERT_TRUE(kv);
    bool closed = false;
    EXPECT_EQ(FromInside(ns, kv->port(), "", &closed).substr(0, 8), "-DENIED ");
    auto local = kv->Connect();
    EXPECT_EQ(Str(Command(local.get(), "CONFIG SET protected-mode no")), "OK");
    RawClient c;
    c.Adopt(ns.ConnectFromInside(kv->port()));
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(c.Exchange("PING\r\n", 7), "+PONG\r\n");
  }
}

}  // namespace
}  // namespace kv::test
