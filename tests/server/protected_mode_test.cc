// The protected-mode decision: which peers are refused, as Redis 7.0.15's clientAcceptHandler
// and islocalClient decide.

#include "server/protected_mode.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/un.h>

#include <string>

#include "gtest/gtest.h"

namespace kv {
namespace {

sockaddr_storage Peer(const std::string& ip) {
  sockaddr_storage ss{};
  if (ip.find(':') == std::string::npos) {
    auto* in = reinterpret_cast<sockaddr_in*>(&ss);
    in->sin_family = AF_INET;
    EXPECT_EQ(inet_pton(AF_INET, ip.c_str(), &in->sin_addr), 1) << ip;
  } else {
    auto* in6 = reinterpret_cast<sockaddr_in6*>(&ss);
    in6->sin6_family = AF_INET6;
    EXPECT_EQ(inet_pton(AF_INET6, ip.c_str(), &in6->sin6_addr), 1) << ip;
  }
  return ss;
}

bool Refuses(const Config& c, const std::string& ip) {
  sockaddr_storage ss = Peer(ip);
  return ProtectedModeRefuses(c, reinterpret_cast<const sockaddr*>(&ss));
}

TEST(ProtectedModeTest, DefaultsRefuseNonLoopbackPeers) {
  Config c;
  ASSERT_TRUE(c.protected_mode);
  ASSERT_TRUE(c.requirepass.empty());
  EXPECT_FALSE(Refuses(c, "127.0.0.1"));
  EXPECT_FALSE(Refuses(c, "::1"));
  EXPECT_TRUE(Refuses(c, "10.0.0.2"));
  EXPECT_TRUE(Refuses(c, "192.168.1.20"));
  EXPECT_TRUE(Refuses(c, "fe80::1"));
  // Redis compares the address text with "127.0.0.1" and "::1" only.
  EXPECT_TRUE(Refuses(c, "127.0.0.2"));
  EXPECT_TRUE(Refuses(c, "::ffff:127.0.0.1"));
  sockaddr_un un{};
  un.sun_family = AF_UNIX;
  EXPECT_FALSE(ProtectedModeRefuses(c, reinterpret_cast<const sockaddr*>(&un)));
}

TEST(ProtectedModeTest, APasswordOrProtectedModeOffLetsEveryoneIn) {
  Config c;
  c.requirepass = "pw";
  EXPECT_FALSE(Refuses(c, "10.0.0.2"));
  c.requirepass.clear();
  c.protected_mode = false;
  EXPECT_FALSE(Refuses(c, "10.0.0.2"));
  // Unlike Redis 6.0, an explicit bind does not turn the protection off in 7.0.
  c.protected_mode = true;
  c.bind = {"0.0.0.0"};
  EXPECT_TRUE(Refuses(c, "10.0.0.2"));
}

TEST(ProtectedModeTest, DeniedMessageIsRedisText) {
  EXPECT_EQ(kProtectedModeDenied.substr(0, 50),
            "-DENIED Redis is running in protected mode because");
  EXPECT_EQ(kProtectedModeDenied.size(), 1067u);
  EXPECT_EQ(kProtectedModeDenied.substr(kProtectedModeDenied.size() - 2), "\r\n");
}

}  // namespace
}  // namespace kv
