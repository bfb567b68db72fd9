// Reading what gobblet-match wrote, for the tests that compare two runs of
// one match (over MPI ranks, resumed): its record's games by number and its
// final table.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>

#include "tests/support/whole_file.h"

namespace gobblet {

// The record's games by number (each number once: a second is a failure);
// the match line (#) is skipped.
inline std::map<int, std::string> gamesByNumber(const std::string& path) {
  std::map<int, std::string> games;
  std::istringstream in(readWholeFile(path));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const int number = std::stoi(line.substr(line.find('=') + 1));
    EXPECT_TRUE(games.emplace(number, line).second) << "game " << number << " twice in " << path;
  }
  return games;
}

// The final report: from the blank line before "variant ..., N of M games
// played" to the end.
inline std::string finalTable(const std::string& output) {
  const size_t at = output.rfind("\nvariant ");
  return at == std::string::npos ? "(no final table)" : output.substr(at);
}

}  // namespace gobblet
