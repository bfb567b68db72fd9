#include "match/engine_command.h"

#include <vector>

#include "absl/strings/ascii.h"

namespace gobblet::match {

namespace {

// The command's words as sh splits them at blanks, quotes ('...', "...")
// and backslashes removed; no expansion.
std::vector<std::string> shellWords(const std::string& command) {
  std::vector<std::string> words;
  std::string word;
  bool inWord = false;
  char quote = 0;
  for (size_t i = 0; i < command.size(); ++i) {
    const char c = command[i];
    if (quote == 0 && (c == ' ' || c == '\t' || c == '\n')) {
      if (inWord) words.push_back(word), word.clear(), inWord = false;
      continue;
    }
    inWord = true;
    if (c == quote)
      quote = 0;
    else if (quote == 0 && (c == '\'' || c == '"'))
      quote = c;
    else if (c == '\\' && quote != '\'' && i + 1 < command.size())
      word += command[++i];
    else
      word += c;
  }
  if (inWord) words.push_back(word);
  return words;
}

// Whether `word` is an assignment NAME=VALUE (NAME: a letter or '_', then
// letters, digits and '_').
bool isAssignment(const std::string& word) {
  const size_t eq = word.find('=');
  if (eq == std::string::npos || eq == 0 || absl::ascii_isdigit(static_cast<unsigned char>(word[0]))) return false;
  for (size_t i = 0; i < eq; ++i)
    if (!absl::ascii_isalnum(static_cast<unsigned char>(word[i])) && word[i] != '_') return false;
  return true;
}

}  // namespace

std::string shellCommandFor(const std::string& command) {
  const std::vector<std::string> words = shellWords(command);
  return (!words.empty() && isAssignment(words.front()) ? "exec env " : "exec ") + command;
}

std::string programName(const std::string& command) {
  for (const std::string& word : shellWords(command))
    if (!isAssignment(word)) return word.substr(word.rfind('/') + 1);
  return "";
}

}  // namespace gobblet::match
