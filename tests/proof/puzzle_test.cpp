// Puzzles with proofs: the puzzles file read (every bad line a clear error
// naming its line, never a crash), the proofs file read (cut or forged
// counts refused), and the puzzle checker: a true puzzle accepted, and
// rejected when the solution is not the only win, when a certificate is
// forged, swapped, damaged or missing, or when the line leaves the proof.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <sstream>
#include <string>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "proof/certificate.h"
#include "proof/prover.h"
#include "proof/puzzle_check.h"
#include "proof/puzzle_file.h"

namespace gobblet::proof {
namespace {

// A puzzle found by gobblet-puzzles in a self-play game: player 1 wins in 3
// plies by d3a1 only, every other move loses.
constexpr char kPosition[] = "[MlX]1[Lx]1/[sL][SmLx]S[mX]/[Sm][sX]2/[sMl][Ml]x1 1";
constexpr char kLine[] = "1\t2\t[MlX]1[Lx]1/[sL][SmLx]S[mX]/[Sm][sX]2/[sMl][Ml]x1 1\td3a1\td3a1 d3d1 a3d4\t3";

std::string bytesOf(const Certificate& c) {
  auto bytes = encodeCertificate(c);
  EXPECT_TRUE(bytes.ok());
  return bytes.ok() ? *bytes : std::string();
}

// A certificate that the side to move wins at `board` (empty if the prover finds none).
std::string winCertificate(const Board& board, const std::vector<Board>& history = {}) {
  ProverOptions options;
  options.maxNodes = 200000;
  options.hashMiB = 8;
  options.tryLoss = false;
  options.history = history;
  auto r = prove(board, options);
  if (!r.ok() || r->outcome != Outcome::kWin || !r->certificate) return "";
  return bytesOf(*r->certificate);
}

std::vector<Move> sortedMoves(const Board& board) {
  MoveList list;
  generateMoves(board, list);
  std::vector<Move> moves(list.begin(), list.end());
  std::sort(moves.begin(), moves.end(), [](Move a, Move b) { return a.raw() < b.raw(); });
  return moves;
}

// The proofs of `solution` winning and of every other move losing, made by the prover.
PuzzleProofs proofsOf(const Board& position, Move solution, int id) {
  PuzzleProofs proofs;
  proofs.id = id;
  proofs.certificates.push_back(winCertificate(position));
  for (Move m : sortedMoves(position)) {
    if (m == solution) continue;
    Board after = position;
    after.makeMove(m);
    proofs.certificates.push_back(after.winner() != kNoWinner ? "" : winCertificate(after, {position}));
  }
  return proofs;
}

Puzzle knownPuzzle() {
  auto puzzles = parsePuzzles(std::string("# a comment\n\n") + kLine + "\n");
  EXPECT_TRUE(puzzles.ok()) << puzzles.status();
  return puzzles.ok() && !puzzles->empty() ? puzzles->front() : Puzzle{};
}

const PuzzleProofs& knownProofs() {
  static const PuzzleProofs proofs = [] {
    const Board position = *parsePosition(Variant::gobblet(), kPosition);
    return proofsOf(position, *parseMove(position, "d3a1"), 1);
  }();
  return proofs;
}

std::string errorOf(const std::string& text) {
  auto puzzles = parsePuzzles(text);
  return puzzles.ok() ? "(accepted)" : std::string(puzzles.status().message());
}

TEST(PuzzleFile, ReadsTheFieldsAndWritesThemBack) {
  const Puzzle p = knownPuzzle();
  EXPECT_EQ(p.id, 1);
  EXPECT_EQ(p.rating, 2);
  EXPECT_EQ(p.position, kPosition);
  EXPECT_EQ(p.solution, "d3a1");
  EXPECT_EQ(p.line, (std::vector<std::string>{"d3a1", "d3d1", "a3d4"}));
  EXPECT_EQ(p.plies, 3);
  EXPECT_EQ(formatPuzzle(p), kLine);
  EXPECT_EQ(formatPuzzles({p}, {"head"}), std::string("# head\n") + kLine + "\n");
}

TEST(PuzzleFile, EveryBadLineIsAnErrorNamingItsLine) {
  const std::string ok = kLine;
  const auto with = [&](int field, const std::string& value) {
    std::vector<std::string> fields;
    std::stringstream in(ok);
    for (std::string f; std::getline(in, f, '\t');) fields.push_back(f);
    fields[static_cast<size_t>(field)] = value;
    std::string line;
    for (size_t i = 0; i < fields.size(); ++i) line += (i ? "\t" : "") + fields[i];
    return "# header\n" + line + "\n";
  };
  EXPECT_EQ(errorOf(with(0, "2")), "puzzles line 2: id 2 where 1 is due");
  EXPECT_EQ(errorOf(with(0, "x")), "puzzles line 2: id \"x\" is not a number");
  EXPECT_EQ(errorOf(with(1, "6")), "puzzles line 2: rating \"6\" is not 1 to 5");
  EXPECT_EQ(errorOf(with(1, "0")), "puzzles line 2: rating \"0\" is not 1 to 5");
  EXPECT_EQ(errorOf(with(5, "5")), "puzzles line 2: line has 3 moves, plies says 5");
  EXPECT_EQ(errorOf(with(4, "d3d1")), "puzzles line 2: line starts with d3d1, not with the solution d3a1");
  EXPECT_EQ(errorOf(with(4, "d3a1 d3d1")), "puzzles line 2: line has 2 moves, plies says 3");
  EXPECT_EQ(errorOf(with(4, "d3a1 d3d1 a3d4 a1a2")), "puzzles line 2: line goes on after the game is won, at move 4");
  EXPECT_NE(errorOf(with(3, "X@a1")).find("puzzles line 2: solution \"X@a1\": "), std::string::npos);
  EXPECT_NE(errorOf(with(2, "4/4/4 1")).find("puzzles line 2: position \"4/4/4 1\": "), std::string::npos);
  EXPECT_NE(errorOf(with(4, "d3a1 zz a3d4")).find("puzzles line 2: line's move 2 \"zz\": "), std::string::npos);
  EXPECT_EQ(errorOf("# h\n1\t2\n"),
            "puzzles line 2: 2 fields, not 6 (id, rating, position, solution, line, plies, "
            "separated by tabs)");
  EXPECT_EQ(errorOf(ok + "\n\n"), "puzzles line 2: an empty line among the puzzles");
  EXPECT_EQ(errorOf(ok + "\n# late\n"), "puzzles line 2: a comment among the puzzles (comments go before the first)");
  EXPECT_EQ(errorOf(with(3, std::string("\x1b[2J", 4))).substr(0, 34), "puzzles line 2: solution \"\\x1b[2J\"");
  auto empty = parsePuzzles("# only comments\n");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

TEST(PuzzleFile, GarbageNeverCrashes) {
  std::mt19937 random(62);
  const std::string alphabet = "\t\n #0123456789/[]SMLXsmlx@abcd ";
  for (int i = 0; i < 2000; ++i) {
    std::string text = kLine;
    for (int k = 0; k < 3; ++k) text[random() % text.size()] = alphabet[random() % alphabet.size()];
    auto puzzles = parsePuzzles(text);
    if (puzzles.ok()) EXPECT_LE(puzzles->size(), 1u);
  }
}

TEST(PuzzleProofsFile, RoundTripAndDamageRefused) {
  const std::string bytes = encodePuzzleProofs({knownProofs()});
  auto back = decodePuzzleProofs(bytes);
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->size(), 1u);
  EXPECT_EQ((*back)[0].certificates, knownProofs().certificates);
  EXPECT_EQ(decodePuzzleProofs("nonsense").status().message(), "not a puzzle proofs file (no GBPUZZL magic)");
  EXPECT_EQ(decodePuzzleProofs(bytes.substr(0, bytes.size() - 1)).status().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(decodePuzzleProofs(bytes + "x").status().message(), "bytes after the last puzzle's proofs");
  std::string forged = bytes;
  forged[20] = forged[21] = forged[22] = forged[23] = '\xff';  // the first puzzle's certificate count: 2^32 - 1
  EXPECT_EQ(decodePuzzleProofs(forged).status().message(), "puzzle 1: 4294967295 certificates do not fit in the file");
  forged = bytes;
  forged[12] = '\x09';  // nine puzzles claimed, one there
  EXPECT_EQ(decodePuzzleProofs(forged).status().message(), "puzzle proofs cut inside puzzle 2 of 9");
}

TEST(PuzzleCheck, AcceptsTheKnownPuzzle) {
  const PuzzleReport r = checkPuzzle(knownPuzzle(), knownProofs());
  EXPECT_TRUE(r.accepted) << r.reason;
  const Board position = *parsePosition(Variant::gobblet(), kPosition);
  EXPECT_EQ(r.alternatives, static_cast<int>(sortedMoves(position).size()) - 1);
  EXPECT_GT(r.nodes, 0u);
}

TEST(PuzzleCheck, RejectsASolutionThatIsNotTheWin) {
  Puzzle p = knownPuzzle();
  p.solution = "d3d1";  // a legal move of player 1 that loses
  p.line = {"d3d1", "d3a1", "a3d4"};
  const PuzzleReport r = checkPuzzle(p, knownProofs());
  EXPECT_FALSE(r.accepted);
  EXPECT_EQ(r.reason, "puzzle 1: the certificate's winning move is not the solution d3d1");
}

TEST(PuzzleCheck, RejectsASecondWinningMove) {
  // After d3a1 c2b1, player 1 completes a line in more than one way: a puzzle claiming one of them
  // as the only win is false whatever certificates come with it.
  Board position = *parsePosition(Variant::gobblet(), kPosition);
  Move wins[2];
  int found = 0;
  for (Move m : sortedMoves(position)) {
    Board after = position;
    after.makeMove(m);
    for (Move reply : sortedMoves(after)) {
      Board next = after;
      next.makeMove(reply);
      if (next.winner() != kNoWinner) continue;
      int lines = 0;
      for (Move w : sortedMoves(next)) {
        Board won = next;
        won.makeMove(w);
        if (won.winner() == next.sideToMove() && lines < 2) wins[lines++] = w;
      }
      if (lines == 2) {
        position = next;
        found = 2;
        break;
      }
    }
    if (found) break;
  }
  ASSERT_EQ(found, 2) << "no position with two winning moves near the known puzzle";
  for (Move claimed : wins) {
    Puzzle p;
    p.id = 1;
    p.rating = 1;
    p.position = positionToString(position);
    p.solution = moveToString(claimed, position.variant());
    p.line = {p.solution};
    p.plies = 1;
    PuzzleProofs proofs = proofsOf(position, claimed, 1);
    // The certificate names whichever winning move the prover chose: put the claimed one at its root.
    Certificate c;
    c.variant = "gobblet";
    c.position = p.position;
    c.nodes = {CertificateNode{true, claimed, {kWonLeaf}}};
    proofs.certificates[0] = bytesOf(c);
    const PuzzleReport r = checkPuzzle(p, proofs);
    EXPECT_FALSE(r.accepted) << p.position << " " << p.solution;
    const Move other = claimed == wins[0] ? wins[1] : wins[0];
    // Every move before the other win that loses has its certificate: the other win is what is rejected.
    if (r.reason.find("wins too") != std::string::npos)
      EXPECT_EQ(r.reason, "puzzle 1: " + moveToString(other, position.variant()) + " wins too");
  }
}

TEST(PuzzleCheck, RejectsForgedSwappedDamagedOrMissingCertificates) {
  const Puzzle p = knownPuzzle();
  const PuzzleProofs& good = knownProofs();
  // Two alternatives' certificates exchanged: each proves a position that is not its move's.
  std::vector<size_t> proved;  // the alternatives with a certificate
  for (size_t i = 1; i < good.certificates.size(); ++i)
    if (!good.certificates[i].empty()) proved.push_back(i);
  ASSERT_GE(proved.size(), 2u);
  const size_t a = proved[0], b = proved[1];
  PuzzleProofs swapped = good;
  std::swap(swapped.certificates[a], swapped.certificates[b]);
  PuzzleReport r = checkPuzzle(p, swapped);
  EXPECT_FALSE(r.accepted);
  EXPECT_NE(r.reason.find("proves gobblet"), std::string::npos) << r.reason;

  PuzzleProofs missing = good;
  missing.certificates.pop_back();
  r = checkPuzzle(p, missing);
  EXPECT_FALSE(r.accepted);
  EXPECT_NE(r.reason.find("certificates for the solution and the"), std::string::npos) << r.reason;

  PuzzleProofs flipped = good;
  flipped.certificates[a][flipped.certificates[a].size() - 2] ^= 0x01;
  r = checkPuzzle(p, flipped);
  EXPECT_FALSE(r.accepted);
  EXPECT_NE(r.reason.find("loses rejected: "), std::string::npos) << r.reason;

  // A "loss" certificate that is the solution's win (the side to move wins at the puzzle, not after the move).
  PuzzleProofs wrongSide = good;
  wrongSide.certificates[a] = good.certificates[0];
  r = checkPuzzle(p, wrongSide);
  EXPECT_FALSE(r.accepted);

  // The empty certificate stands only for a move that hands the opponent a line at once.
  PuzzleProofs emptied = good;
  emptied.certificates[a].clear();
  r = checkPuzzle(p, emptied);
  EXPECT_FALSE(r.accepted);

  // A forged win: one OR node claiming the solution makes a line at once.
  Certificate forged;
  forged.variant = "gobblet";
  forged.position = kPosition;
  const Board position = *parsePosition(Variant::gobblet(), kPosition);
  forged.nodes = {CertificateNode{true, *parseMove(position, "d3a1"), {kWonLeaf}}};
  PuzzleProofs forgedWin = good;
  forgedWin.certificates[0] = bytesOf(forged);
  r = checkPuzzle(p, forgedWin);
  EXPECT_FALSE(r.accepted);
  EXPECT_NE(r.reason.find("is not won by the winner"), std::string::npos) << r.reason;

  PuzzleProofs otherId = good;
  otherId.id = 2;
  EXPECT_EQ(checkPuzzle(p, otherId).reason, "puzzle 1: the proofs are puzzle 2's");
}

TEST(PuzzleCheck, RejectsALineThatLeavesTheProofOrIsShorter) {
  Puzzle p = knownPuzzle();
  const Board position = *parsePosition(Variant::gobblet(), kPosition);
  // Another defence of player 2 after d3a1: the proof answers it, but the line must be the longest.
  Board after = position;
  after.makeMove(*parseMove(position, "d3a1"));
  bool tried = false;
  for (Move defence : sortedMoves(after)) {
    Board next = after;
    next.makeMove(defence);
    if (next.winner() != kNoWinner) continue;
    for (Move w : sortedMoves(next)) {
      Board won = next;
      won.makeMove(w);
      if (won.winner() != position.sideToMove()) continue;
      Puzzle q = p;
      q.line = {"d3a1", moveToString(defence, position.variant()), moveToString(w, position.variant())};
      if (q.line == p.line) continue;
      const PuzzleReport r = checkPuzzle(q, knownProofs());
      if (!r.accepted) {
        tried = true;
        EXPECT_TRUE(r.reason.find("line's move 3") != std::string::npos ||
                    r.reason.find("line stops") != std::string::npos)
            << r.reason;
      }
    }
  }
  EXPECT_TRUE(tried);
  p.plies = 5;
  EXPECT_EQ(checkPuzzle(p, knownProofs()).reason, "puzzle 1: the proof allows 3 plies, the puzzle says 5");
}

}  // namespace
}  // namespace gobblet::proof
