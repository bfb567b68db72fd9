// TokenAuth: who may use a network session — the `--token` rule, one home
// for it, applied to every client connection whatever its transport (TCP
// lines, WebSocket messages) by ClientConnection.
//
// - Without a token (an empty one) every connection is authenticated from
//   the start: nothing to send first.
// - With a token a connection starts unauthenticated, and until it is
//   authenticated it may send blank lines (no attempt: ignored) and one
//   `auth <token>` line with exactly the server's token (the command word
//   is case-insensitive, the token is not; compared in constant time).
//   That line authenticates it. Anything else — another command, a wrong
//   or malformed `auth`, junk — refuses it: the connection is told and
//   closed. There is no second attempt.
// - Once authenticated, every line is the session's (a later `auth` is
//   answered by the Session as not expected).
//
// What the gate does not decide, and where it is: the auth deadline
// (ConnectionLimits::authTimeout, armed by ClientConnection), the bounded
// pool of connections waiting to authenticate (SessionSlots), and the
// Origin check of a WebSocket upgrade, which happens before there is a
// connection (sameOrigin() in http_server.cpp). The parser (command.h) only
// recognises the `auth` word and its token.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace gobblet {

// Where a server's token comes from, most private first: a file only its
// owner reads (`--token-file`), the environment (GOBBLET_TOKEN, read by
// the program), or the command line (`--token`, which every local user
// sees in `ps`).
//
// Ok if `token` can be a server's token: 1 to kMaxTokenBytes bytes of
// printable ASCII without spaces (a client sends it as one word of a line).
inline constexpr size_t kMaxTokenBytes = 256;
absl::Status checkToken(std::string_view token);

// The token in the file at `path`: its first line, without the line end.
// Refused, saying why: a file that cannot be read, is not a regular file,
// is larger than a token's line, or whose token fails checkToken. A file
// that others may read is accepted, and `*warning` (when given) says so.
absl::StatusOr<std::string> readTokenFile(const std::string& path, std::string* warning = nullptr);

// Does a server with this token make its clients authenticate? (An empty
// token is no token.)
bool authenticationRequired(std::string_view token);

// Is `given` the token? Every byte is compared, whatever the first
// difference, so the time taken does not tell how much of a guess was right
// (only whether its length was).
bool tokenMatches(std::string_view given, std::string_view token);

class TokenAuth {
 public:
  // What one line means to the gate.
  enum class Verdict {
    kSession,        // the connection is authenticated: the line is the session's
    kNoAttempt,      // a blank line before authentication: ignored
    kAuthenticated,  // `auth <token>`: the connection is authenticated from now on
    kRefused,        // anything else before authentication: refuse and close
  };

  // `token` is the server's (empty: no authentication).
  explicit TokenAuth(std::string token);

  // Has the connection authenticated (or was none needed)?
  bool authenticated() const { return authenticated_; }

  // Judges one input line (without its newline) and remembers a successful
  // `auth`. After kRefused the connection is to be closed, without asking
  // the gate about any more of its lines.
  Verdict judge(std::string_view line);

 private:
  std::string token_;
  bool authenticated_;
};

}  // namespace gobblet
