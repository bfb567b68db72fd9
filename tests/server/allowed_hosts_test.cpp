// AllowedHosts (server/allowed_hosts.h): which Host and Origin values the
// board's HTTP server answers, against DNS rebinding.
#include <gtest/gtest.h>

#include "server/allowed_hosts.h"

namespace gobblet {
namespace {

TEST(AllowedHosts, LoopbackAnswersItsAddressAndLocalhostOnly) {
  const AllowedHosts hosts("127.0.0.1", {});
  EXPECT_TRUE(hosts.allowsHost("127.0.0.1:8080"));
  EXPECT_TRUE(hosts.allowsHost("127.0.0.1"));
  EXPECT_TRUE(hosts.allowsHost("localhost:8080"));
  EXPECT_TRUE(hosts.allowsHost("LocalHost"));
  EXPECT_FALSE(hosts.allowsHost("evil.example:8080"));
  EXPECT_FALSE(hosts.allowsHost("10.0.0.1:8080"));  // not the bound address
  EXPECT_FALSE(hosts.allowsHost("localhost.evil.example"));
  EXPECT_FALSE(hosts.allowsHost(""));
}

// Bound as `--http localhost:PORT`, the loopback literals are where that
// name points: a browser opened at http://127.0.0.1:PORT/ is served (it
// got 403).
TEST(AllowedHosts, BoundToLocalhostAnswersTheLoopbackLiterals) {
  const AllowedHosts hosts("localhost", {});
  EXPECT_TRUE(hosts.allowsHost("localhost:8080"));
  EXPECT_TRUE(hosts.allowsHost("127.0.0.1:8080"));
  EXPECT_TRUE(hosts.allowsHost("[::1]:8080"));
  EXPECT_FALSE(hosts.allowsHost("10.0.0.1:8080"));
  EXPECT_FALSE(hosts.allowsHost("evil.example:8080"));
}

TEST(AllowedHosts, MalformedHostsAreRefused) {
  const AllowedHosts hosts("127.0.0.1", {});
  for (const char* bad : {"127.0.0.1:", "127.0.0.1:x", "127.0.0.1:123456", "[::1", "localhost:80:80", ":8080"})
    EXPECT_FALSE(hosts.allowsHost(bad)) << bad;
}

TEST(AllowedHosts, Ipv6BoundAddressIsBracketed) {
  const AllowedHosts hosts("::1", {});
  EXPECT_TRUE(hosts.allowsHost("[::1]:8080"));
  EXPECT_TRUE(hosts.allowsHost("[::1]"));
  EXPECT_FALSE(hosts.allowsHost("[::2]:8080"));
  EXPECT_FALSE(hosts.allowsHost("[::1]x"));
}

TEST(AllowedHosts, EveryInterfaceAnswersAddressesButNotNames) {
  for (const char* any : {"0.0.0.0", "::"}) {
    const AllowedHosts hosts(any, {});
    EXPECT_TRUE(hosts.allowsHost("192.168.1.20:8080")) << any;
    EXPECT_TRUE(hosts.allowsHost("[fe80::1]:8080")) << any;
    EXPECT_FALSE(hosts.allowsHost("evil.example:8080")) << any;
  }
}

TEST(AllowedHosts, OperatorNamesAreAddedCaseInsensitively) {
  const AllowedHosts hosts("0.0.0.0", {"Board.LAN"});
  EXPECT_TRUE(hosts.allowsHost("board.lan:8080"));
  EXPECT_TRUE(hosts.allowsHost("BOARD.lan"));
  EXPECT_FALSE(hosts.allowsHost("board.lan.evil.example"));
}

TEST(AllowedHosts, OriginMustBeTheSameAllowedHost) {
  const AllowedHosts hosts("127.0.0.1", {});
  EXPECT_TRUE(hosts.allowsOrigin("http://127.0.0.1:8080", "127.0.0.1:8080"));
  EXPECT_TRUE(hosts.allowsOrigin("https://localhost:8080", "localhost:8080"));
  EXPECT_FALSE(hosts.allowsOrigin("http://127.0.0.1:1", "127.0.0.1:8080"));
  // DNS rebinding: Origin and Host agree, but the name is not this machine's.
  EXPECT_FALSE(hosts.allowsOrigin("http://evil.example:8080", "evil.example:8080"));
  EXPECT_FALSE(hosts.allowsOrigin("ftp://127.0.0.1:8080", "127.0.0.1:8080"));
}

}  // namespace
}  // namespace gobblet
