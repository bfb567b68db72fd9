// Held entries of the proof database (proof/database.h): tic-tac-toe
// positions proved not lost (proof/not_lost.h) stored, found on every image
// with the defender relative to the side to move, checked whole; the win
// lookup never returns one; the not-lost prover answers a held root from
// the database; a forged held entry, a contradiction with a win, a held
// entry in a version-1 file and a cut tail are refused or dropped.
#include <gtest/gtest.h>

#include <sstream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/geometry.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "proof/check.h"
#include "proof/database.h"
#include "proof/database_check.h"
#include "proof/database_file.h"
#include "proof/not_lost.h"
#include "proof/prover.h"
#include "proof/store_proof.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/whole_file.h"

namespace gobblet::proof {
namespace {

using Mode = ProofDatabase::Mode;

const Variant kTicTacToe = Variant::ticTacToe();

Board position(const std::string& text) {
  auto b = parsePosition(kTicTacToe, text);
  EXPECT_TRUE(b.ok()) << text << ": " << b.status();
  return b.ok() ? *b : Board(kTicTacToe);
}

// Player `defender`'s (0 or 1) not-lost certificate of `board` (it must hold).
Certificate held(const Board& board, int defender) {
  auto r = proveNotLost(board, defender);
  EXPECT_TRUE(r.ok() && r->certificate) << positionToString(board);
  return r.ok() && r->certificate ? *r->certificate : Certificate{};
}

std::string encoded(const Certificate& c) {
  auto bytes = encodeCertificate(c);
  EXPECT_TRUE(bytes.ok()) << bytes.status();
  return bytes.ok() ? *bytes : std::string();
}

// Every image of `board`: the 8 symmetries, each with the players exchanged too.
std::vector<Board> images(const Board& board) {
  std::vector<Board> out;
  for (int s = 0; s < kSymmetries; ++s) {
    out.push_back(board.transformed(s));
    out.push_back(board.transformed(s).colorSwapped());
  }
  return out;
}

// A "win" of the side not to move at `board`, which open() indexes unchecked
// (only db check and append() run the checker): one AND node, every move a won leaf.
Certificate forgedWin(const Board& board) {
  Certificate c;
  c.variant = kTicTacToe.name();
  c.position = positionToString(board);
  c.winner = 1;
  c.nodes.resize(1);
  c.nodes[0].orNode = false;
  c.nodes[0].children.assign(static_cast<size_t>(countMoves(board)), kWonLeaf);
  return c;
}

// After a corner, tic-tac-toe is a draw: both sides stored as held entries,
// found on every image, a file of version 2 that db check accepts; the win
// lookup and the win prover ignore them; the not-lost prover answers from them.
TEST(HeldDatabase, ADrawIsStoredAndFoundOnEveryImage) {
  const testing::ScratchDir dir("held");
  const std::string path = dir.file("t.pdb");
  const Board corner = position("S2/3/3 2");
  auto drawn = proveDraw(corner);
  ASSERT_TRUE(drawn.ok() && drawn->drawn);
  auto db = ProofDatabase::open(path, Mode::kReadWrite, kTicTacToe);
  ASSERT_TRUE(db.ok()) << db.status();
  auto stored = storeProof(**db, std::vector<Certificate>{*drawn->sides[0].certificate, *drawn->sides[1].certificate});
  ASSERT_TRUE(stored.ok()) << stored.status();
  EXPECT_EQ(stored->appended, 2u);
  EXPECT_EQ(readWholeFile(path)[8], 2) << "a file with held entries is version 2";
  auto again = storeProof(**db, *drawn->sides[1].certificate);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->appended, 0u) << "held already";

  auto reader = ProofDatabase::open(path, Mode::kRead);
  ASSERT_TRUE(reader.ok()) << reader.status();
  for (const ProofDatabase* d : {db->get(), reader->get()}) {
    EXPECT_EQ(d->entries(), 2u);
    EXPECT_EQ(d->heldEntries(0) + d->heldEntries(1), 2u);
    EXPECT_EQ(d->draws(), 1u);
    EXPECT_EQ(d->wins(0) + d->wins(1), 0u);
    for (const Board& image : images(corner)) {
      EXPECT_TRUE(d->drawn(image)) << positionToString(image);
      EXPECT_FALSE(d->find(image).has_value()) << "a held entry is no win";
      for (int player : {0, 1}) {
        auto known = storedNotLost(*d, image, player);
        ASSERT_TRUE(known.ok()) << known.status();
        EXPECT_EQ(known->nodes, 0u);
        EXPECT_EQ(known->certificate->position, positionToString(image));
      }
    }
  }
  const DatabaseReport report = checkDatabase(path);
  EXPECT_TRUE(report.accepted) << report.reason;
  EXPECT_EQ(report.held[0] + report.held[1], 2u);
  EXPECT_EQ(report.draws, 1u);

  // The not-lost prover answers an image of the root from the database.
  NotLostOptions options;
  options.database = db->get();
  const Board image = corner.transformed(3).colorSwapped();
  auto answered = proveNotLost(image, image.sideToMove(), options);
  ASSERT_TRUE(answered.ok());
  EXPECT_EQ(answered->defence, Defence::kHeld);
  EXPECT_EQ(answered->nodes, 0u);
  EXPECT_NE(answered->note.find("known"), std::string::npos) << answered->note;

  // The win prover searches it: a held entry is not a proved win or loss.
  ProverOptions winOptions;
  winOptions.database = db->get();
  winOptions.hashMiB = 4;
  auto searched = prove(image, winOptions);
  ASSERT_TRUE(searched.ok());
  EXPECT_GT(searched->nodes, 0u);
  EXPECT_NE(searched->outcome, Outcome::kWin);
  EXPECT_NE(searched->outcome, Outcome::kLoss);
}

// One side held: the side to move, with a line to make, holds; the other
// does not. Found with the defender relative to the side to move.
TEST(HeldDatabase, OneSideHeldIsFoundForThatSideOnly) {
  const testing::ScratchDir dir("held");
  const Board threat = position("SS1/ss1/3 1");
  auto db = ProofDatabase::open(dir.file("one.pdb"), Mode::kReadWrite, kTicTacToe);
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_TRUE((*db)->append(held(threat, threat.sideToMove())).ok());
  for (const Board& image : images(threat)) {
    EXPECT_TRUE((*db)->held(image, 0).has_value()) << positionToString(image);
    EXPECT_FALSE((*db)->held(image, 1).has_value()) << positionToString(image);
    EXPECT_FALSE((*db)->drawn(image));
  }
  EXPECT_EQ((*db)->heldEntries(0), 1u);
  EXPECT_EQ((*db)->draws(), 0u);
}

// A forged held entry (a defender's move changed: checksums recomputed) is
// refused by append() and by db check, which names the entry; a held entry
// in a version-1 file is refused.
TEST(HeldDatabase, AForgedHeldEntryIsRefusedNamingTheEntry) {
  const testing::ScratchDir dir("held");
  const Board corner = position("S2/3/3 2");
  const Certificate good = held(corner, corner.sideToMove()), other = held(corner, corner.sideToMove() ^ 1);
  // Player 2 must answer a corner with the centre: any other first move
  // loses. The first the checker refuses, the certificate otherwise kept.
  ASSERT_TRUE(good.nodes[0].orNode);
  Certificate forged = good;
  bool found = false;
  MoveList moves;
  generateMoves(corner, moves);
  for (Move m : moves) {
    if (m == good.nodes[0].move || found) continue;
    forged.nodes[0].move = m;
    std::istringstream in(encoded(forged));
    found = !checkNotLostCertificate(in).accepted;
  }
  ASSERT_TRUE(found);
  auto db = ProofDatabase::open(dir.file("f.pdb"), Mode::kReadWrite, kTicTacToe);
  ASSERT_TRUE(db.ok());
  auto refused = (*db)->append(forged);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("the checker rejects"), std::string::npos) << refused.status();
  EXPECT_EQ((*db)->entries(), 0u);

  const std::string path = dir.file("forged.pdb");
  writeWholeFile(path, encodeDatabaseHeader(kTicTacToe, kDatabaseHeldVersion) + encodeRecord(0, encoded(other)) +
                           encodeRecord(0, encoded(forged)));
  const DatabaseReport report = checkDatabase(path);
  EXPECT_FALSE(report.accepted);
  EXPECT_EQ(report.badEntry, 1);
  EXPECT_EQ(report.reason.rfind("entry 1: ", 0), 0u) << report.reason;

  writeWholeFile(path, encodeDatabaseHeader(kTicTacToe, kDatabaseVersion) + encodeRecord(0, encoded(good)));
  const DatabaseReport old = checkDatabase(path);
  EXPECT_FALSE(old.accepted);
  EXPECT_NE(old.reason.find("version-2"), std::string::npos) << old.reason;
}

// A held entry and a win of the other side at the same position: the
// second is refused, by append() and by db check, naming the first.
TEST(HeldDatabase, AContradictionIsRefused) {
  const testing::ScratchDir dir("held");
  const Board corner = position("S2/3/3 2");
  const Certificate defends = held(corner, corner.sideToMove());
  const Certificate wins = forgedWin(corner.transformed(2));
  {  // A (forged, unchecked) win entry first: the held entry is refused.
    const std::string path = dir.file("win.pdb");
    writeWholeFile(path, encodeDatabaseHeader(kTicTacToe) + encodeRecord(1, encoded(wins)));
    auto db = ProofDatabase::open(path, Mode::kReadWrite, kTicTacToe);
    ASSERT_TRUE(db.ok()) << db.status();
    ASSERT_TRUE((*db)->find(corner).has_value());
    auto refused = (*db)->append(defends);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.status().message().find("contradicts the entry at offset"), std::string::npos)
        << refused.status();
    EXPECT_EQ((*db)->entries(), 1u);
  }
  {  // The held entry first: the win is refused for the contradiction.
    const std::string path = dir.file("held.pdb");
    auto db = ProofDatabase::open(path, Mode::kReadWrite, kTicTacToe);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE((*db)->append(defends).ok());
    auto refused = (*db)->append(wins);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.status().message().find("contradicts the held entry"), std::string::npos) << refused.status();
    writeWholeFile(path, readWholeFile(path) + encodeRecord(1, encoded(wins)));
    const DatabaseReport report = checkDatabase(path);
    EXPECT_FALSE(report.accepted);
    EXPECT_EQ(report.badEntry, 1);
    EXPECT_NE(report.reason.find("contradicts entry 0"), std::string::npos) << report.reason;
  }
}

// A held record cut short is dropped on opening, then written again whole.
TEST(HeldDatabase, ACutHeldTailIsDropped) {
  const testing::ScratchDir dir("held");
  const std::string path = dir.file("cut.pdb");
  const Board corner = position("S2/3/3 2");
  const Certificate first = held(corner, 0), second = held(corner, 1);
  const std::string whole = encodeDatabaseHeader(kTicTacToe, kDatabaseHeldVersion) + encodeRecord(0, encoded(first)) +
                            encodeRecord(0, encoded(second));
  writeWholeFile(path, whole.substr(0, whole.size() - 10));
  EXPECT_FALSE(checkDatabase(path).accepted);
  auto db = ProofDatabase::open(path, Mode::kReadWrite, kTicTacToe);
  ASSERT_TRUE(db.ok()) << db.status();
  EXPECT_EQ((*db)->entries(), 1u);
  EXPECT_GT((*db)->tail().bytes, 0u);
  EXPECT_FALSE((*db)->drawn(corner)) << "a cut record is never trusted";
  ASSERT_TRUE(*(*db)->append(second));
  EXPECT_EQ(readWholeFile(path), whole);
  EXPECT_TRUE((*db)->drawn(corner));
  EXPECT_TRUE(checkDatabase(path).accepted);
}

bool hasDatabaseLeaf(const Certificate& c) {
  for (const CertificateNode& n : c.nodes)
    for (uint32_t child : n.children)
      if (child == kDatabaseLeaf) return true;
  return false;
}

bool acceptedWith(const Certificate& c, const KnownPositions* database) {
  std::istringstream in(encoded(c));
  return checkNotLostCertificate(in, {}, database).accepted;
}

// The not-lost prover ends a branch at a position the database holds for
// the defender: player 2's strategy from the start names the corner draw's
// entries (database leaves), which the checker accepts with the database
// only; stored after them, db check accepts it, and before them it does not.
TEST(HeldDatabase, TheNotLostProverEndsAtHeldPositions) {
  const testing::ScratchDir dir("held");
  const std::string path = dir.file("leaves.pdb");
  const Board corner = position("S2/3/3 2"), start(kTicTacToe);
  const Certificate p1 = held(corner, 0), p2 = held(corner, 1);
  auto db = ProofDatabase::open(path, Mode::kReadWrite, kTicTacToe);
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_TRUE(storeProof(**db, std::vector<Certificate>{p1, p2}).ok());
  NotLostOptions options;
  options.database = db->get();
  auto r = proveNotLost(start, 1, options);
  ASSERT_TRUE(r.ok() && r->certificate) << (r.ok() ? r->note : r.status().ToString());
  EXPECT_TRUE(hasDatabaseLeaf(*r->certificate));
  EXPECT_TRUE(acceptedWith(*r->certificate, db->get()));
  EXPECT_FALSE(acceptedWith(*r->certificate, nullptr));
  auto empty = ProofDatabase::open(dir.file("empty.pdb"), Mode::kReadWrite, kTicTacToe);
  ASSERT_TRUE(empty.ok());
  EXPECT_FALSE(acceptedWith(*r->certificate, empty->get())) << "its leaves are not held there";
  EXPECT_FALSE((*empty)->append(*r->certificate).ok());
  ASSERT_TRUE(*(*db)->append(*r->certificate));
  EXPECT_TRUE(checkDatabase(path).accepted) << checkDatabase(path).reason;
  writeWholeFile(path, encodeDatabaseHeader(kTicTacToe, kDatabaseHeldVersion) +
                           encodeRecord(0, encoded(*r->certificate)) + encodeRecord(0, encoded(p1)) +
                           encodeRecord(0, encoded(p2)));
  const DatabaseReport reordered = checkDatabase(path);
  EXPECT_FALSE(reordered.accepted);
  EXPECT_EQ(reordered.badEntry, 0) << reordered.reason;
}

// A win entry of the defender is a leaf too: a position where the defender
// to move has a move into a stored win of its own (none at once).
TEST(HeldDatabase, AWinOfTheDefenderIsALeaf) {
  const testing::ScratchDir dir("held");
  auto db = ProofDatabase::open(dir.file("win.pdb"), Mode::kReadWrite, kTicTacToe);
  ASSERT_TRUE(db.ok());
  // Games in order of their moves: the first position P (the side to move
  // D, no line at once) with a move into Q, not over, that D wins.
  std::vector<Board> todo{Board(kTicTacToe)};
  std::optional<std::pair<Board, Board>> found;
  for (size_t i = 0; i < todo.size() && !found && i < 2000; ++i) {
    const Board p = todo[i];
    MoveList moves;
    generateMoves(p, moves);
    bool winsAtOnce = false;
    for (Move m : moves) {
      Board q = p;
      q.makeMove(m);
      winsAtOnce |= q.winner() == p.sideToMove();
    }
    for (Move m : moves) {
      Board q = p;
      q.makeMove(m);
      if (q.winner() != kNoWinner || countMoves(q) == 0) continue;
      todo.push_back(q);
      if (winsAtOnce || found) continue;
      ProverOptions quick;
      quick.hashMiB = 4;
      auto proved = prove(q, quick);
      if (proved.ok() && proved->outcome == Outcome::kLoss && proved->certificate) {
        ASSERT_TRUE(storeProof(**db, *proved->certificate).ok());
        found = std::make_pair(p, q);
      }
    }
  }
  ASSERT_TRUE(found);
  ASSERT_TRUE((*db)->find(found->second).has_value());
  NotLostOptions options;
  options.database = db->get();
  auto r = proveNotLost(found->first, found->first.sideToMove(), options);
  ASSERT_TRUE(r.ok() && r->certificate);
  EXPECT_TRUE(hasDatabaseLeaf(*r->certificate));
  EXPECT_TRUE(acceptedWith(*r->certificate, db->get()));
  EXPECT_FALSE(acceptedWith(*r->certificate, nullptr));
}

}  // namespace
}  // namespace gobblet::proof
