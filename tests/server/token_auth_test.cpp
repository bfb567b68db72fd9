// The token gate (server/token_auth.h) on its own, without a socket: what
// an unauthenticated connection may send and when it becomes authenticated.
// The transports' use of it (the replies, the deadline, the close) is tested
// in tcp_*_test.cpp and websocket_server_test.cpp.
#include <gtest/gtest.h>

#include <string>

#include "server/token_auth.h"

namespace gobblet {
namespace {

using Verdict = TokenAuth::Verdict;

TEST(ProtocolAuth, WithoutATokenEveryLineIsTheSessions) {
  EXPECT_FALSE(authenticationRequired(""));
  TokenAuth auth("");
  EXPECT_TRUE(auth.authenticated());
  for (const char* line : {"ugi", "", "auth anything", "xyzzy"}) EXPECT_EQ(auth.judge(line), Verdict::kSession) << line;
}

TEST(ProtocolAuth, TheRightTokenAuthenticatesThenLinesAreTheSessions) {
  EXPECT_TRUE(authenticationRequired("s3cret"));
  TokenAuth auth("s3cret");
  EXPECT_FALSE(auth.authenticated());
  EXPECT_EQ(auth.judge("auth s3cret"), Verdict::kAuthenticated);
  EXPECT_TRUE(auth.authenticated());
  EXPECT_EQ(auth.judge("ugi"), Verdict::kSession);
  EXPECT_EQ(auth.judge("auth s3cret"), Verdict::kSession);  // the session's to answer now
  EXPECT_EQ(auth.judge("auth wrong"), Verdict::kSession);
}

TEST(ProtocolAuth, TheCommandWordIsCaseInsensitiveAndSpacingFreeTheTokenIsNot) {
  EXPECT_EQ(TokenAuth("s3cret").judge("  AUTH\ts3cret\r"), Verdict::kAuthenticated);
  EXPECT_EQ(TokenAuth("s3cret").judge("auth S3CRET"), Verdict::kRefused);
}

TEST(ProtocolAuth, BlankLinesAreNoAttempt) {
  TokenAuth auth("s3cret");
  for (const char* line : {"", " ", "\t\r"}) EXPECT_EQ(auth.judge(line), Verdict::kNoAttempt);
  EXPECT_FALSE(auth.authenticated());
  EXPECT_EQ(auth.judge("auth s3cret"), Verdict::kAuthenticated);
}

TEST(ProtocolAuth, AnythingElseBeforeAuthenticationIsRefused) {
  const std::string lines[] = {"ugi",
                               "isready",
                               "quit",
                               "auth",
                               "auth wrong",
                               "auth s3cre",
                               "auth s3cret2",
                               "xyzzy",
                               "auth s3cret extra",
                               std::string("auth s3cret\0", 12)};
  for (const std::string& line : lines) {
    TokenAuth auth("s3cret");
    EXPECT_EQ(auth.judge(line), Verdict::kRefused) << line;
    EXPECT_FALSE(auth.authenticated()) << line;
  }
}

TEST(ProtocolAuth, TokenMatchesOnlyTheWholeToken) {
  EXPECT_TRUE(tokenMatches("s3cret", "s3cret"));
  EXPECT_TRUE(tokenMatches("", ""));
  EXPECT_FALSE(tokenMatches("s3cre", "s3cret"));
  EXPECT_FALSE(tokenMatches("s3crett", "s3cret"));
  EXPECT_FALSE(tokenMatches("x3cret", "s3cret"));  // a difference at either end
  EXPECT_FALSE(tokenMatches("s3crex", "s3cret"));
  EXPECT_FALSE(tokenMatches(std::string("s3cre\xf4", 6), "s3cret"));  // 0xf4 is 't' (0x74) but for the high bit
  EXPECT_TRUE(tokenMatches(std::string("\x80\xff", 2), std::string("\x80\xff", 2)));
}

}  // namespace
}  // namespace gobblet
