#include "server/token_auth.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "engine/printable_text.h"
#include "protocol/command.h"

namespace gobblet {

absl::Status checkToken(std::string_view token) {
  if (token.empty()) return absl::InvalidArgumentError("the token is empty");
  if (token.size() > kMaxTokenBytes)
    return absl::InvalidArgumentError("the token is longer than " + std::to_string(kMaxTokenBytes) + " bytes");
  for (char c : token)
    if (c <= ' ' || c > '~')
      return absl::InvalidArgumentError(
          "the token must be one word of printable ASCII (no spaces or control "
          "characters)");
  return absl::OkStatus();
}

absl::StatusOr<std::string> readTokenFile(const std::string& path, std::string* warning) {
  const std::string name = "--token-file " + quoteWord(path);
  // O_NONBLOCK: a FIFO must not hang the start; it is refused below.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return absl::InvalidArgumentError(name + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int statErrno = errno;
    ::close(fd);
    return absl::InvalidArgumentError(name + ": " + std::strerror(statErrno));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return absl::InvalidArgumentError(name + ": not a regular file");
  }
  // Up to a token, "\r\n", and one byte to see that it is longer; a read
  // may return less than asked (network file systems): read to the end.
  std::string text(kMaxTokenBytes + 3, '\0');
  size_t got = 0;
  while (got < text.size()) {
    const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int readErrno = errno;
      ::close(fd);
      return absl::InvalidArgumentError(name + ": " + std::strerror(readErrno));
    }
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  ::close(fd);
  text.resize(got);
  const size_t end = text.find('\n');
  if (end == std::string::npos && text.size() > kMaxTokenBytes + 1)
    return absl::InvalidArgumentError(name + ": the first line is longer than a token (" +
                                      std::to_string(kMaxTokenBytes) + " bytes)");
  std::string token = text.substr(0, end);
  if (!token.empty() && token.back() == '\r') token.pop_back();
  if (absl::Status ok = checkToken(token); !ok.ok())
    return absl::InvalidArgumentError(name + ": " + std::string(ok.message()));
  if (warning)
    *warning = (st.st_mode & (S_IRGRP | S_IROTH)) ? name + ": other users may read it (chmod 600 keeps it yours)" : "";
  return token;
}

bool authenticationRequired(std::string_view token) { return !token.empty(); }

bool tokenMatches(std::string_view given, std::string_view token) {
  if (given.size() != token.size()) return false;
  unsigned diff = 0;
  for (size_t i = 0; i < token.size(); ++i)
    diff |= static_cast<unsigned char>(given[i]) ^ static_cast<unsigned char>(token[i]);
  return diff == 0;
}

TokenAuth::TokenAuth(std::string token) : token_(std::move(token)), authenticated_(!authenticationRequired(token_)) {}

TokenAuth::Verdict TokenAuth::judge(std::string_view line) {
  if (authenticated_) return Verdict::kSession;
  const auto command = parseCommand(line);
  if (command.ok() && command->kind == CommandKind::kEmpty) return Verdict::kNoAttempt;
  if (!command.ok() || command->kind != CommandKind::kAuth || !tokenMatches(command->token, token_))
    return Verdict::kRefused;
  authenticated_ = true;
  return Verdict::kAuthenticated;
}

}  // namespace gobblet
