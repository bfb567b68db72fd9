#include "match/openings.h"

#include <fstream>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/game.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "match/input_limits.h"

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
    if (!board.ok()) return absl::InvalidArgumentError(absl::StrCat(label, ": ", board.status().message()));
    opening.start = *board;
  }
  Game game(opening.start);
  for (absl::string_view piece : absl::StrSplit(movesText, ' ', absl::SkipWhitespace())) {
    const std::string text(piece);
    if (game.result() != GameResult::kNone)
      return absl::InvalidArgumentError(absl::StrCat(label, ": the game is over before '", text, "'"));
    if (opening.moves.size() == static_cast<size_t>(kMaxGamePlies))
      return absl::InvalidArgumentError(absl::StrCat(label, ": more than ", kMaxGamePlies, " moves"));
    auto move = parseMove(game.position(), text);
    if (!move.ok()) return absl::InvalidArgumentError(absl::StrCat(label, ": ", move.status().message()));
    game.play(*move);
    opening.moves.push_back(*move);
  }
  if (game.result() != GameResult::kNone)
    return absl::InvalidArgumentError(absl::StrCat(label, ": the opening ends the game"));
  return opening;
}

OpeningFile::OpeningFile(const Variant& variant, const std::string& path)
    : variant_(variant), path_(path), in_(path, std::ios::binary) {
  lines_.emplace(in_, kMaxInputLineBytes);
}

absl::StatusOr<std::unique_ptr<OpeningFile>> OpeningFile::open(const Variant& variant, const std::string& path) {
  std::unique_ptr<OpeningFile> file(new OpeningFile(variant, path));
  if (!file->in_) return absl::NotFoundError(absl::StrCat("cannot open opening file '", path, "'"));
  while (true) {
    auto opening = file->readOpening();
    if (!opening.ok()) return opening.status();
    if (!*opening) break;
    ++file->size_;
  }
  if (file->size_ == 0) return absl::InvalidArgumentError(absl::StrCat("opening file '", path, "' has no openings"));
  if (!file->rewind()) return absl::InvalidArgumentError(absl::StrCat("cannot read opening file '", path, "' again"));
  return file;
}

absl::StatusOr<std::optional<Opening>> OpeningFile::readOpening() {
  while (std::optional<FileLines::Line> line = lines_->next()) {
    const std::string label = absl::StrCat(path_, ":", line->number);
    if (line->overlong)
      return absl::InvalidArgumentError(absl::StrCat(label, ": a line longer than ", kMaxInputLineBytes, " bytes"));
    const std::string stripped(absl::StripAsciiWhitespace(line->text));
    if (stripped.empty() || stripped[0] == '#') continue;
    auto opening = parseOpening(variant_, stripped, label);
    if (!opening.ok()) return opening.status();
    return std::optional<Opening>(*std::move(opening));
  }
  return std::optional<Opening>();
}

bool OpeningFile::rewind() {
  in_.clear();
  in_.seekg(0);
  lines_.emplace(in_, kMaxInputLineBytes);
  return static_cast<bool>(in_);
}

absl::StatusOr<Opening> OpeningFile::next() {
  auto opening = readOpening();
  if (opening.ok() && !*opening) {  // past the last opening: the first again
    if (!rewind()) return absl::UnavailableError(absl::StrCat("cannot read opening file '", path_, "' again"));
    opening = readOpening();
  }
  if (!opening.ok()) return opening.status();
  if (!*opening) return absl::UnavailableError(absl::StrCat("opening file '", path_, "' has no openings any more"));
  return **std::move(opening);
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
