#include "puzzle_file.h"

#include <fstream>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/board.h"
#include "engine/notation.h"
#include "engine/printable_text.h"

namespace gobblet::proof {

namespace {

constexpr size_t kMaxQuotedBytes = 200;

absl::Status bad(int64_t lineNumber, const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat("puzzles line ", lineNumber, ": ", what));
}

std::string quoted(const std::string& text) { return absl::StrCat("\"", printableText(text, kMaxQuotedBytes), "\""); }

bool parseInt(const std::string& text, int min, int max, int& out) {
  int value = 0;
  if (text.empty() || text.size() > 9 || !absl::SimpleAtoi(absl::string_view(text), &value) || text[0] == '+' ||
      text[0] == ' ' || value < min || value > max)
    return false;
  out = value;
  return true;
}

absl::StatusOr<Puzzle> parseLine(const std::string& text, int64_t lineNumber, int expectedId, const Variant& variant) {
  const std::vector<std::string> fields = absl::StrSplit(absl::string_view(text), '\t');
  if (fields.size() != 6)
    return bad(lineNumber, absl::StrCat(fields.size(),
                                        " fields, not 6 (id, rating, position, solution, line, plies, "
                                        "separated by tabs)"));
  Puzzle p;
  if (!parseInt(fields[0], 1, 1 << 30, p.id)) return bad(lineNumber, "id " + quoted(fields[0]) + " is not a number");
  if (p.id != expectedId) return bad(lineNumber, absl::StrCat("id ", p.id, " where ", expectedId, " is due"));
  if (!parseInt(fields[1], kMinPuzzleRating, kMaxPuzzleRating, p.rating))
    return bad(lineNumber,
               absl::StrCat("rating ", quoted(fields[1]), " is not ", kMinPuzzleRating, " to ", kMaxPuzzleRating));
  if (!parseInt(fields[5], 1, 10000, p.plies))
    return bad(lineNumber, "plies " + quoted(fields[5]) + " is not a number");
  auto board = parsePosition(variant, fields[2]);
  if (!board.ok()) return bad(lineNumber, absl::StrCat("position ", quoted(fields[2]), ": ", board.status().message()));
  if (board->winner() != kNoWinner) return bad(lineNumber, "position " + quoted(fields[2]) + " is already won");
  p.position = positionToString(*board);
  const int solver = board->sideToMove();
  const auto solution = parseMove(*board, fields[3]);
  if (!solution.ok())
    return bad(lineNumber, absl::StrCat("solution ", quoted(fields[3]), ": ", solution.status().message()));
  p.solution = moveToString(*solution, variant);
  Board b = *board;
  for (const std::string& word : std::vector<std::string>(absl::StrSplit(absl::string_view(fields[4]), ' '))) {
    if (b.winner() != kNoWinner)
      return bad(lineNumber, absl::StrCat("line goes on after the game is won, at move ", p.line.size() + 1));
    const auto move = parseMove(b, word);
    if (!move.ok())
      return bad(lineNumber,
                 absl::StrCat("line's move ", p.line.size() + 1, " ", quoted(word), ": ", move.status().message()));
    p.line.push_back(moveToString(*move, variant));
    b.makeMove(*move);
  }
  if (p.line.front() != p.solution)
    return bad(lineNumber, "line starts with " + p.line.front() + ", not with the solution " + p.solution);
  if (static_cast<int>(p.line.size()) != p.plies)
    return bad(lineNumber, absl::StrCat("line has ", p.line.size(), " moves, plies says ", p.plies));
  if (b.winner() != solver) return bad(lineNumber, "line does not end with the side to move having won");
  return p;
}

uint32_t readU32(const std::string& bytes, size_t at) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
  return v;
}

void writeU32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

}  // namespace

absl::StatusOr<std::vector<Puzzle>> parsePuzzles(const std::string& text, const Variant& variant) {
  std::vector<Puzzle> puzzles;
  int64_t lineNumber = 0;
  absl::string_view all = text;
  if (!all.empty() && all.back() == '\n') all.remove_suffix(1);  // (the last line's newline)
  if (all.empty()) return puzzles;
  for (std::string line : std::vector<std::string>(absl::StrSplit(all, '\n'))) {
    ++lineNumber;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (puzzles.empty() && (line.empty() || line.front() == '#')) continue;
    if (line.empty()) return bad(lineNumber, "an empty line among the puzzles");
    if (line.front() == '#') return bad(lineNumber, "a comment among the puzzles (comments go before the first)");
    auto puzzle = parseLine(line, lineNumber, static_cast<int>(puzzles.size()) + 1, variant);
    if (!puzzle.ok()) return puzzle.status();
    puzzles.push_back(std::move(*puzzle));
  }
  return puzzles;
}

absl::StatusOr<std::string> readWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError("cannot open " + path);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return absl::DataLossError("cannot read " + path);
  return text.str();
}

absl::StatusOr<std::vector<Puzzle>> readPuzzlesFile(const std::string& path, const Variant& variant) {
  auto text = readWholeFile(path);
  if (!text.ok()) return text.status();
  auto puzzles = parsePuzzles(*text, variant);
  if (!puzzles.ok()) return absl::InvalidArgumentError(absl::StrCat(path, ": ", puzzles.status().message()));
  return puzzles;
}

std::string formatPuzzle(const Puzzle& p) {
  return absl::StrCat(p.id, "\t", p.rating, "\t", p.position, "\t", p.solution, "\t", absl::StrJoin(p.line, " "), "\t",
                      p.plies);
}

std::string formatPuzzles(const std::vector<Puzzle>& puzzles, const std::vector<std::string>& header) {
  std::string out;
  for (const std::string& h : header) absl::StrAppend(&out, h.empty() ? "#" : "# " + h, "\n");
  for (const Puzzle& p : puzzles) absl::StrAppend(&out, formatPuzzle(p), "\n");
  return out;
}

std::string encodePuzzleProofs(const std::vector<PuzzleProofs>& proofs) {
  std::string out(kPuzzleProofsMagic, sizeof kPuzzleProofsMagic);
  writeU32(out, kPuzzleProofsVersion);
  writeU32(out, static_cast<uint32_t>(proofs.size()));
  for (const PuzzleProofs& p : proofs) {
    writeU32(out, static_cast<uint32_t>(p.id));
    writeU32(out, static_cast<uint32_t>(p.certificates.size()));
    for (const std::string& c : p.certificates) {
      writeU32(out, static_cast<uint32_t>(c.size()));
      out += c;
    }
  }
  return out;
}

absl::StatusOr<std::vector<PuzzleProofs>> decodePuzzleProofs(const std::string& bytes) {
  size_t at = 0;
  const auto need = [&](size_t n) { return bytes.size() - at >= n; };
  if (!need(16) || bytes.compare(0, 8, kPuzzleProofsMagic, 8) != 0)
    return absl::InvalidArgumentError("not a puzzle proofs file (no GBPUZZL magic)");
  if (const uint32_t version = readU32(bytes, 8); version != kPuzzleProofsVersion)
    return absl::InvalidArgumentError(absl::StrCat("puzzle proofs version ", version, ", not ", kPuzzleProofsVersion));
  const uint32_t count = readU32(bytes, 12);
  at = 16;
  std::vector<PuzzleProofs> proofs;
  for (uint32_t i = 0; i < count; ++i) {
    if (!need(8)) return absl::DataLossError(absl::StrCat("puzzle proofs cut inside puzzle ", i + 1, " of ", count));
    PuzzleProofs p;
    p.id = static_cast<int>(readU32(bytes, at));
    const uint32_t k = readU32(bytes, at + 4);
    at += 8;
    // Each certificate takes 4 bytes at least: a count the bytes cannot back is refused before any allocation.
    if (k == 0 || (bytes.size() - at) / 4 < k)
      return absl::DataLossError(absl::StrCat("puzzle ", p.id, ": ", k, " certificates do not fit in the file"));
    p.certificates.reserve(k);
    for (uint32_t c = 0; c < k; ++c) {
      if (!need(4)) return absl::DataLossError(absl::StrCat("puzzle ", p.id, ": cut at certificate ", c + 1));
      const uint32_t length = readU32(bytes, at);
      at += 4;
      if (!need(length)) return absl::DataLossError(absl::StrCat("puzzle ", p.id, ": certificate ", c + 1, " is cut"));
      p.certificates.push_back(bytes.substr(at, length));
      at += length;
    }
    proofs.push_back(std::move(p));
  }
  if (at != bytes.size()) return absl::DataLossError("bytes after the last puzzle's proofs");
  return proofs;
}

absl::StatusOr<std::vector<PuzzleProofs>> readPuzzleProofsFile(const std::string& path) {
  auto bytes = readWholeFile(path);
  if (!bytes.ok()) return bytes.status();
  auto proofs = decodePuzzleProofs(*bytes);
  if (!proofs.ok()) return absl::Status(proofs.status().code(), absl::StrCat(path, ": ", proofs.status().message()));
  return proofs;
}

}  // namespace gobblet::proof
