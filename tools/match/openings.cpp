#include "tools/match/openings.h"

#include <fstream>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/game.h"
#include "engine/movegen.h"
#include "engine/notation.h"

namespace gobblet::match {

absl::StatusOr<Opening> parseOpening(const Variant& variant, const std::string& line, const std::string& label) {
  Opening opening{label, Board(variant), {}};
  std::string movesText = std::string(absl::StripAsciiWhitespace(line));
  if (movesText.find('/') != std::string::npos) {
    std::string positionText = movesText;
    movesText.clear();
    if (const size_t at = positionText.find(" moves"); at != std::string::npos) {
      movesText = positionText.substr(at + 6);
      positionText.resize(at);
    }
    auto board = parsePosition(variant, positionText);
    if (!board.ok())
      return absl::InvalidArgumentError(absl::StrCat(label, ": ", board.status().message()));
    opening.start = *board;
  }
  Game game(opening.start);
  for (const std::string& text : std::vector<std::string>(absl::StrSplit(movesText, ' ', absl::SkipWhitespace()))) {
    if (game.result() != GameResult::kNone)
      return absl::InvalidArgumentError(absl::StrCat(label, ": the game is over before '", text, "'"));
    auto move = parseMove(game.position(), text);
    if (!move.ok()) return absl::InvalidArgumentError(absl::StrCat(label, ": ", move.status().message()));
    game.play(*move);
    opening.moves.push_back(*move);
  }
  if (game.result() != GameResult::kNone)
    return absl::InvalidArgumentError(absl::StrCat(label, ": the opening ends the game"));
  return opening;
}

absl::StatusOr<std::vector<Opening>> loadOpenings(const Variant& variant, const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open opening file '", path, "'"));
  std::vector<Opening> openings;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string stripped(absl::StripAsciiWhitespace(line));
    if (stripped.empty() || stripped[0] == '#') continue;
    auto opening = parseOpening(variant, stripped, absl::StrCat(path, ":", number));
    if (!opening.ok()) return opening.status();
    openings.push_back(*std::move(opening));
  }
  if (openings.empty()) return absl::InvalidArgumentError(absl::StrCat("opening file '", path, "' has no openings"));
  return openings;
}

absl::StatusOr<Opening> randomOpening(const Variant& variant, int plies, std::mt19937_64& rng,
                                      const std::string& label) {
  for (int attempt = 0; attempt < 1000; ++attempt) {
    Game game{Board(variant)};
    Opening opening{label, Board(variant), {}};
    for (int ply = 0; ply < plies && game.result() == GameResult::kNone; ++ply) {
      MoveList list;
      generateMoves(game.position(), list);
      const Move move = list[static_cast<int>(rng() % static_cast<uint64_t>(list.size()))];
      game.play(move);
      opening.moves.push_back(move);
    }
    if (game.result() == GameResult::kNone) return opening;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("no ", plies, "-ply random opening of ", variant.name(), " leaves the game running"));
}

}  // namespace gobblet::match
