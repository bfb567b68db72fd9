#include "position_display.h"

#include <cctype>
#include <cstdio>

#include "engine/notation.h"

namespace gobblet {

namespace {

// Player p's pieces still off the board: the tops of the three stacks
// (4x4, largest stack first) or the count per size (3x3).
std::string supply(const Board& board, int player) {
  const Variant& v = board.variant();
  std::string out;
  if (v.stacks) {
    const std::array<int, 5> counts = board.stackCounts(player);
    out = "stacks";
    for (int k = 4; k >= 0; --k)
      for (int i = 0; i < counts[k]; ++i) out += k == 0 ? std::string(" -") : std::string(" ") + kSizeLetters[k - 1];
  } else {
    for (int s = 0; s < v.sizes; ++s) {
      if (s) out += ' ';
      out += kSizeLetters[s];
      out += 'x' + std::to_string(board.inHand(player, s));
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> describeGame(const Game& game) {
  const Board& board = game.position();
  const Variant& v = board.variant();
  std::vector<std::string> lines;
  std::string rule = "   ";
  for (int f = 0; f < v.n; ++f) rule += "+------";
  rule += "+";
  lines.push_back(rule);
  for (int r = v.n - 1; r >= 0; --r) {
    std::string row = " " + std::to_string(r + 1) + " ";
    for (int f = 0; f < v.n; ++f) {
      const int sq = r * v.n + f;
      std::string cell;
      for (int s = 0; s < v.sizes; ++s)
        for (int p = 0; p < 2; ++p)
          if (board.pieces(p, s) & bit(sq))
            cell += p == 0 ? kSizeLetters[s] : static_cast<char>(std::tolower(kSizeLetters[s]));
      cell.resize(4, ' ');
      row += "| " + cell + " ";
    }
    lines.push_back(row + "|");
    lines.push_back(rule);
  }
  std::string files = "   ";
  for (int f = 0; f < v.n; ++f) files += std::string("   ") + static_cast<char>('a' + f) + "   ";
  lines.push_back(files);
  char key[32];
  std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(board.key()));
  EndReason reason;
  const GameResult result = game.result(&reason);
  const std::string why = reason == EndReason::kNone ? "" : " (" + endReasonText(reason, result) + ")";
  lines.push_back("variant " + v.name());
  lines.push_back("position " + positionToString(board));
  lines.push_back("side to move " + std::to_string(board.sideToMove() + 1));
  lines.push_back("sizes " + std::string(kSizeLetters, v.sizes));
  lines.push_back("supply 1: " + supply(board, 0));
  lines.push_back("supply 2: " + supply(board, 1));
  lines.push_back(std::string("key ") + key);
  lines.push_back("history " + std::to_string(game.moves().size()) + " moves, this position seen " +
                  std::to_string(game.occurrences()) + " times, result " + resultWord(result) + why);
  return lines;
}

}  // namespace gobblet
