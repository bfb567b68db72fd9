#include "protocol/token_auth.h"

#include <utility>

#include "protocol/command.h"

namespace gobblet {

bool authenticationRequired(std::string_view token) { return !token.empty(); }

bool tokenMatches(std::string_view given, std::string_view token) {
  if (given.size() != token.size()) return false;
  unsigned diff = 0;
  for (size_t i = 0; i < token.size(); ++i)
    diff |= static_cast<unsigned char>(given[i]) ^ static_cast<unsigned char>(token[i]);
  return diff == 0;
}

TokenAuth::TokenAuth(std::string token)
    : token_(std::move(token)), authenticated_(!authenticationRequired(token_)) {}

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
