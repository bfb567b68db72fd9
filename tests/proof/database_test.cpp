// The proof database: a proof stored and reused (fewer nodes, a database
// leaf the checker accepts with the database and refuses without it),
// symmetric positions found, forged databases refused with the bad entry's
// number, a cut tail dropped then overwritten, two processes appending at
// once, a failed write leaving the file as it was, and the results of a
// growing database against the brute solver.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "engine/canonical.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "proof/certified.h"
#include "proof/check.h"
#include "proof/database.h"
#include "proof/database_check.h"
#include "proof/database_file.h"
#include "proof/drop_split.h"
#include "proof/file_bytes.h"
#include "proof/prover.h"
#include "proof/store_proof.h"
#include "tests/support/brute_solver.h"
#include "tests/support/scratch_dir.h"

namespace gobblet::proof {
namespace {

using Mode = ProofDatabase::Mode;

Board position(const Variant& v, const std::string& text) {
  auto b = parsePosition(v, text);
  EXPECT_TRUE(b.ok()) << text << ": " << b.status();
  return *b;
}

ProofResult proveWith(const Board& b, const KnownPositions* db, uint64_t maxNodes = 2'000'000) {
  ProverOptions options;
  options.maxNodes = maxNodes;
  options.hashMiB = 16;
  options.database = db;
  auto r = prove(b, options);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : ProofResult{};
}

std::string encoded(const Certificate& c) {
  auto bytes = encodeCertificate(c);
  EXPECT_TRUE(bytes.ok()) << bytes.status();
  return bytes.ok() ? *bytes : std::string();
}

bool hasDatabaseLeaf(const Certificate& c) {
  for (const CertificateNode& n : c.nodes)
    for (uint32_t child : n.children)
      if (child == kDatabaseLeaf) return true;
  return false;
}

std::string readWhole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeWhole(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Gobblet Gobblers: the start, won by the first player, and the position
// after the first move of its certificate, lost by the side to move there.
struct Gobblers {
  Variant v = Variant::gobblers();
  Board start{Variant::gobblers()};
  Board afterFirst{Variant::gobblers()};
  ProofResult startAlone, afterFirstAlone;
  Gobblers() {
    startAlone = proveWith(start, nullptr);
    EXPECT_EQ(startAlone.outcome, Outcome::kWin);
    afterFirst = start;
    afterFirst.makeMove(startAlone.certificate->nodes[0].move);
    afterFirstAlone = proveWith(afterFirst, nullptr);
    EXPECT_EQ(afterFirstAlone.outcome, Outcome::kLoss);
  }
};

// P's continuation Q proved and stored: proving P again stops at Q (a
// drop), in far fewer nodes, with a certificate that names the database.
TEST(ProofDatabase, AStoredProofIsReused) {
  const testing::ScratchDir dir("pdb");
  const Gobblers g;
  ASSERT_TRUE(g.afterFirstAlone.certificate);
  EXPECT_EQ(encoded(*g.afterFirstAlone.certificate)[8], 1) << "a certificate without database leaves is version 1";
  auto db = ProofDatabase::open(dir.file("g.pdb"), Mode::kReadWrite, g.v);
  ASSERT_TRUE(db.ok()) << db.status();
  auto appended = (*db)->append(*g.afterFirstAlone.certificate);
  ASSERT_TRUE(appended.ok()) << appended.status();
  EXPECT_TRUE(*appended);
  EXPECT_FALSE(*(*db)->append(*g.afterFirstAlone.certificate)) << "a position is stored once";

  ProofResult reused = proveWith(g.start, db->get());
  EXPECT_EQ(reused.outcome, Outcome::kWin);
  EXPECT_LT(reused.nodes * 20, g.startAlone.nodes) << reused.nodes << " against " << g.startAlone.nodes;
  ASSERT_TRUE(reused.certificate);
  EXPECT_TRUE(hasDatabaseLeaf(*reused.certificate));
  EXPECT_EQ(reused.plies, 1 + g.afterFirstAlone.plies);
  const std::string bytes = encoded(*reused.certificate);
  EXPECT_EQ(bytes[8], 2) << "a certificate with database leaves is version 2";
  {
    std::istringstream in(bytes);
    const CheckReport with = checkCertificate(in, {}, {}, db->get());
    EXPECT_TRUE(with.accepted) << with.reason;
    EXPECT_EQ(with.plies, reused.plies);
  }
  {
    std::istringstream in(bytes);
    const CheckReport without = checkCertificate(in);
    EXPECT_FALSE(without.accepted);
    EXPECT_NE(without.reason.find("no proof database"), std::string::npos) << without.reason;
  }
  ProofResult certified = reused;
  certify(certified, {}, db->get());
  EXPECT_TRUE(certified.certified) << certified.note;
  ASSERT_TRUE(*(*db)->append(*reused.certificate));
  EXPECT_EQ((*db)->entries(), 2u);
  EXPECT_EQ((*db)->find(g.start)->plies, reused.plies);

  // The start is now an entry, proved for this very position: with no
  // history it is answered from the database, its stored certificate, no
  // node searched; with a history since the last drop it is searched.
  const ProofResult known = proveWith(g.start, db->get());
  EXPECT_EQ(known.outcome, Outcome::kWin);
  EXPECT_EQ(known.nodes, 0u);
  EXPECT_EQ(known.plies, reused.plies);
  ASSERT_TRUE(known.certificate);
  EXPECT_EQ(encoded(*known.certificate), bytes);
  ProverOptions withHistory;
  withHistory.hashMiB = 16;
  withHistory.database = db->get();
  withHistory.history = {g.start.transformed(1).colorSwapped()};
  auto searched = prove(g.start, withHistory);
  ASSERT_TRUE(searched.ok()) << searched.status();
  EXPECT_EQ(searched->outcome, Outcome::kWin);
  EXPECT_GT(searched->nodes, 0u);

  // Read back from the file by a new reader, and checked whole.
  db->reset();
  auto again = ProofDatabase::open(dir.file("g.pdb"), Mode::kRead);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ((*again)->entries(), 2u);
  EXPECT_EQ((*again)->tail().bytes, 0u);
  auto stored = (*again)->certificate(g.start);
  ASSERT_TRUE(stored.ok()) << stored.status();
  EXPECT_EQ(encoded(*stored), bytes);
  const DatabaseReport report = checkDatabase(dir.file("g.pdb"));
  EXPECT_TRUE(report.accepted) << report.reason;
  EXPECT_EQ(report.entries, 2u);
  EXPECT_EQ(report.wins[0], 1u);
  EXPECT_EQ(report.wins[1], 1u);
}

// Every image of a stored position is found, with its winner: Q stored as
// a rotated image with the players exchanged still ends the proof of the
// start at Q.
TEST(ProofDatabase, SymmetricPositionsAreFound) {
  const testing::ScratchDir dir("pdb");
  const Gobblers g;
  const Board image = g.afterFirst.transformed(1).colorSwapped();
  ASSERT_NE(image, g.afterFirst);
  const ProofResult imageAlone = proveWith(image, nullptr);
  ASSERT_EQ(imageAlone.outcome, Outcome::kLoss);
  auto db = ProofDatabase::open(dir.file("g.pdb"), Mode::kReadWrite, g.v);
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_TRUE(*(*db)->append(*imageAlone.certificate));
  for (int s = 0; s < kSymmetries; ++s)
    for (const Board& b : {g.afterFirst.transformed(s), g.afterFirst.transformed(s).colorSwapped()}) {
      const auto known = (*db)->find(b);
      ASSERT_TRUE(known.has_value()) << positionToString(b);
      EXPECT_EQ(known->winner, 1) << positionToString(b);
    }
  // A position of two pieces off the centre (eight images or more), stored
  // as one of them: every image is found.
  Board two = g.afterFirst;
  MoveList replies;
  generateMoves(two, replies);
  two.makeMove(replies[0]);
  const ProofResult twoAlone = proveWith(two.transformed(3).colorSwapped(), nullptr);
  ASSERT_EQ(twoAlone.outcome, Outcome::kWin);
  ASSERT_TRUE(*(*db)->append(*twoAlone.certificate));
  std::set<std::string> images;
  for (int s = 0; s < kSymmetries; ++s)
    for (const Board& b : {two.transformed(s), two.transformed(s).colorSwapped()}) {
      images.insert(positionToString(b));
      const auto known = (*db)->find(b);
      ASSERT_TRUE(known.has_value()) << positionToString(b);
      EXPECT_EQ(known->winner, 0) << positionToString(b);
    }
  EXPECT_GE(images.size(), 8u);
  EXPECT_FALSE((*db)->find(g.start).has_value());
  const ProofResult r = proveWith(g.start, db->get());
  EXPECT_EQ(r.outcome, Outcome::kWin);
  ASSERT_TRUE(r.certificate);
  EXPECT_TRUE(hasDatabaseLeaf(*r.certificate));
  EXPECT_LT(r.nodes * 20, g.startAlone.nodes);
  std::istringstream in(encoded(*r.certificate));
  const CheckReport report = checkCertificate(in, {}, {}, db->get());
  EXPECT_TRUE(report.accepted) << report.reason;
}

// A proof split at its drops: an entry for the root and one for each
// position its strategy reaches by a drop, each cut at the drops below it,
// appended in one batch the checker accepts; a batch with a forged
// certificate at its end appends nothing.
TEST(ProofDatabase, TheSubPositionsReachedByDropsAreStored) {
  const testing::ScratchDir dir("pdb");
  const Gobblers g;
  auto entries = splitAtDrops(*g.startAlone.certificate);
  ASSERT_TRUE(entries.ok()) << entries.status();
  ASSERT_GT(entries->size(), 10u);
  EXPECT_EQ(entries->back().position, g.startAlone.certificate->position) << "the root comes last";
  size_t nodes = 0;
  for (const Certificate& e : *entries) nodes += e.nodes.size();
  EXPECT_LT(nodes, 2 * g.startAlone.certificate->nodes.size()) << "the parts share little";
  const std::string path = dir.file("split.pdb");
  auto db = ProofDatabase::open(path, Mode::kReadWrite, g.v);
  ASSERT_TRUE(db.ok()) << db.status();
  {  // A forged last certificate: nothing is appended.
    std::vector<Certificate> forged = *entries;
    forged.back().winner ^= 1;
    const std::string before = readWhole(path);
    auto appended = (*db)->append(forged);
    EXPECT_FALSE(appended.ok());
    EXPECT_NE(appended.status().message().find("certificate " + std::to_string(forged.size() - 1)), std::string::npos)
        << appended.status();
    EXPECT_EQ(readWhole(path), before);
    EXPECT_EQ((*db)->entries(), 0u);
    EXPECT_FALSE((*db)->find(g.afterFirst).has_value());
  }
  auto appended = (*db)->append(*entries);
  ASSERT_TRUE(appended.ok()) << appended.status();
  EXPECT_GT(*appended, 10u);
  EXPECT_EQ((*db)->entries(), *appended);
  EXPECT_GE((*db)->find(g.start)->plies, 13) << "the first player's fastest forced win takes 13 plies";
  EXPECT_EQ((*db)->find(g.start)->winner, 0);
  EXPECT_EQ((*db)->find(g.afterFirst)->winner, 1);
  const DatabaseReport r = checkDatabase(path);
  EXPECT_TRUE(r.accepted) << r.reason;
  EXPECT_EQ(r.entries, *appended);
  // Proving the start again ends at once.
  const ProofResult again = proveWith(g.start, db->get());
  EXPECT_EQ(again.outcome, Outcome::kWin);
  EXPECT_LT(again.nodes * 20, g.startAlone.nodes);
}

// A database of Q then P, written by hand, so that it can be forged.
struct Forge {
  Gobblers g;
  ProofResult p;  // the start, proved with Q known
  std::string dir;
  Forge(const std::string& folder) : dir(folder) {
    const std::string path = file("base.pdb");
    auto db = ProofDatabase::open(path, Mode::kReadWrite, g.v);
    EXPECT_TRUE(db.ok()) << db.status();
    EXPECT_TRUE(*(*db)->append(*g.afterFirstAlone.certificate));
    p = proveWith(g.start, db->get());
    EXPECT_TRUE(p.certificate && hasDatabaseLeaf(*p.certificate));
  }
  std::string file(const std::string& name) const { return (std::filesystem::path(dir) / name).string(); }
  // A database file of these records, checked.
  DatabaseReport check(const std::vector<std::string>& records, const std::string& name = "forged.pdb") const {
    std::string bytes = encodeDatabaseHeader(g.v);
    for (const std::string& r : records) bytes += r;
    writeWhole(file(name), bytes);
    return checkDatabase(file(name));
  }
  std::string q(int plies = -1) const {
    return encodeRecord(plies < 0 ? g.afterFirstAlone.plies : plies, encoded(*g.afterFirstAlone.certificate));
  }
  std::string pRecord(const Certificate& c) const { return encodeRecord(p.plies, encoded(c)); }
};

void expectRejected(const DatabaseReport& r, int64_t entry, const std::string& words) {
  EXPECT_FALSE(r.accepted);
  EXPECT_EQ(r.badEntry, entry) << r.reason;
  EXPECT_EQ(r.reason.rfind("entry " + std::to_string(entry) + ":", 0), 0u) << r.reason;
  EXPECT_NE(r.reason.find(words), std::string::npos) << r.reason;
}

// storedProof reads an entry back checked again: the checker's plies on
// every image of the position, whatever the record claims; a record whose
// certificate proves the other side's win, or that the checker rejects,
// is an error, never a value; a position not held is NotFound.
TEST(ProofDatabase, AStoredProofIsCheckedAgainWhenItIsRead) {
  const testing::ScratchDir dir("pdb");
  const Forge f(dir.path());
  ASSERT_TRUE(f.p.certificate);
  const auto opened = [&](const std::string& name) {
    auto db = ProofDatabase::open(f.file(name), Mode::kRead);
    EXPECT_TRUE(db.ok()) << db.status();
    return std::move(*db);
  };
  {  // Q claims 2 plies fewer than its certificate's longest game; the record's checksums are right.
    ASSERT_FALSE(f.check({f.q(f.g.afterFirstAlone.plies - 2), f.pRecord(*f.p.certificate)}, "claim.pdb").accepted);
    const auto db = opened("claim.pdb");
    ASSERT_EQ(db->find(f.g.afterFirst)->plies, f.g.afterFirstAlone.plies - 2);
    const absl::StatusOr<ProofResult> q = storedProof(*db, f.g.afterFirst);
    ASSERT_TRUE(q.ok()) << q.status();
    EXPECT_EQ(q->outcome, Outcome::kLoss);
    EXPECT_TRUE(q->certified);
    EXPECT_EQ(q->plies, f.g.afterFirstAlone.plies) << "the record's claim, not the checker's count";
    // P, whose certificate ends at Q (a database leaf): checked given the database.
    const absl::StatusOr<ProofResult> p = storedProof(*db, f.g.start);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->outcome, Outcome::kWin);
    // A position not held.
    MoveList moves;
    generateMoves(f.g.start, moves);
    int notHeld = 0;
    for (Move m : moves) {
      Board after = f.g.start;
      after.makeMove(m);
      if (db->find(after)) continue;
      EXPECT_EQ(storedProof(*db, after).status().code(), absl::StatusCode::kNotFound);
      ++notHeld;
    }
    EXPECT_GT(notHeld, 0);
  }
  {  // Q's winner flipped (checksums recomputed): the checker rejects it on reading.
    Certificate c = *f.g.afterFirstAlone.certificate;
    c.winner ^= 1;
    f.check({encodeRecord(f.g.afterFirstAlone.plies, encoded(c))}, "flipped.pdb");
    const auto db = opened("flipped.pdb");
    ASSERT_TRUE(db->find(f.g.afterFirst));
    const absl::StatusOr<ProofResult> q = storedProof(*db, f.g.afterFirst);
    EXPECT_EQ(q.status().code(), absl::StatusCode::kDataLoss) << q.status();
  }
}

TEST(ProofDatabase, ForgedDatabasesAreRefusedNamingTheEntry) {
  const testing::ScratchDir dir("pdb");
  const Forge f(dir.path());
  ASSERT_TRUE(f.p.certificate);
  {
    const DatabaseReport whole = f.check({f.q(), f.pRecord(*f.p.certificate)});
    EXPECT_TRUE(whole.accepted) << whole.reason;
    EXPECT_EQ(whole.entries, 2u);
  }
  {  // The winner flipped, both checksums recomputed.
    Certificate c = *f.g.afterFirstAlone.certificate;
    c.winner ^= 1;
    expectRejected(f.check({encodeRecord(f.g.afterFirstAlone.plies, encoded(c)), f.pRecord(*f.p.certificate)}), 0,
                   "node 0");
  }
  {  // An edited byte behind valid checksums: a move of P's certificate changed.
    std::string bytes = encoded(*f.p.certificate);
    const size_t firstNode =
        kCertificateHeaderBytes + f.p.certificate->variant.size() + f.p.certificate->position.size();
    ASSERT_EQ(bytes[firstNode], 'O');
    bytes[firstNode + 1] = static_cast<char>(bytes[firstNode + 1] ^ 1);  // the move's destination square
    overwriteLittleEndian64(bytes.data() + 24, 0);
    overwriteLittleEndian64(bytes.data() + 24, checksum(kChecksumStart, bytes.data(), bytes.size()));
    std::istringstream in(bytes);
    ASSERT_TRUE(CertificateReader::open(in).ok()) << "the checksum was recomputed";
    expectRejected(f.check({f.q(), encodeRecord(f.p.plies, bytes)}), 1, "node 0");
  }
  // A reference to a later entry: P before Q.
  expectRejected(f.check({f.pRecord(*f.p.certificate), f.q()}), 0, "is not an earlier entry of the database");
  // Plies that are not the checker's count.
  expectRejected(f.check({f.q(f.g.afterFirstAlone.plies - 2), f.pRecord(*f.p.certificate)}), 0, "the checker counts");
  {  // A truncated record: the file cut inside P's record.
    std::string bytes = encodeDatabaseHeader(f.g.v) + f.q() + f.pRecord(*f.p.certificate);
    bytes.resize(bytes.size() - 7);
    writeWhole(f.file("cut.pdb"), bytes);
    expectRejected(checkDatabase(f.file("cut.pdb")), 1, "cut short");
  }
  {  // A flipped byte without recomputed checksums.
    std::string record = f.pRecord(*f.p.certificate);
    record[record.size() / 2] ^= 4;
    expectRejected(f.check({f.q(), record}), 1, "checksum");
  }
  {  // A database leaf in a version-1 certificate.
    std::string bytes = encoded(*f.p.certificate);
    bytes[8] = 1;
    overwriteLittleEndian64(bytes.data() + 24, 0);
    overwriteLittleEndian64(bytes.data() + 24, checksum(kChecksumStart, bytes.data(), bytes.size()));
    expectRejected(f.check({f.q(), encodeRecord(f.p.plies, bytes)}), 1, "version-1");
  }
  {  // Another file altogether, and a damaged header.
    writeWhole(f.file("not.pdb"), "GBPROOF\nsomething else entirely");
    const DatabaseReport r = checkDatabase(f.file("not.pdb"));
    EXPECT_FALSE(r.accepted);
    EXPECT_EQ(r.badEntry, -1);
    std::string bytes = encodeDatabaseHeader(f.g.v) + f.q();
    bytes[12] ^= 1;
    writeWhole(f.file("header.pdb"), bytes);
    EXPECT_FALSE(checkDatabase(f.file("header.pdb")).accepted);
    EXPECT_FALSE(ProofDatabase::open(f.file("header.pdb"), Mode::kReadWrite, f.g.v).ok());
  }
}

// Hostile sizes: a record claiming more bytes than the file holds is
// refused before anything is read into memory, and more entries than the
// limit are refused.
TEST(ProofDatabase, HostileSizesAreBounded) {
  const testing::ScratchDir dir("pdb");
  const Forge f(dir.path());
  std::string huge = f.q();
  overwriteLittleEndian64(huge.data(), uint64_t{1} << 60);  // the certificate's length
  expectRejected(f.check({f.q(), huge}), 1, "cut short");
  DatabaseLimits one;
  one.maxEntries = 1;
  f.check({f.q(), f.pRecord(*f.p.certificate)}, "two.pdb");
  const DatabaseReport r = checkDatabase(f.file("two.pdb"), one);
  expectRejected(r, 1, "limit");
  auto db = ProofDatabase::open(f.file("two.pdb"), Mode::kRead, std::nullopt, one);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().code(), absl::StatusCode::kResourceExhausted) << db.status();
}

// A byte of a database flipped: the checker refuses the file, and a
// reader keeps only the entries before the damaged one (or refuses a
// damaged header), never a damaged entry.
TEST(ProofDatabase, EveryFlippedByteIsRefused) {
  const testing::ScratchDir dir("pdb");
  const Gobblers g;
  auto parts = splitAtDrops(*g.startAlone.certificate);
  ASSERT_TRUE(parts.ok()) << parts.status();
  // The first parts (each names earlier ones only), up to the first with a database leaf.
  std::vector<Certificate> prefix;
  int leaves = 0;
  for (const Certificate& part : *parts) {
    if (prefix.size() >= 4 && leaves >= 1) break;
    prefix.push_back(part);
    leaves += hasDatabaseLeaf(part);
  }
  const std::string path = dir.file("flip.pdb");
  {
    auto db = ProofDatabase::open(path, Mode::kReadWrite, g.v);
    ASSERT_TRUE(db.ok()) << db.status();
    const auto appended = (*db)->append(prefix);
    ASSERT_TRUE(appended.ok()) << appended.status();
  }
  ASSERT_TRUE(checkDatabase(path).accepted);
  const std::string whole = readWhole(path);
  const uint64_t entries = checkDatabase(path).entries;
  ASSERT_LT(whole.size(), 20'000u);
  // Every byte of the header and of the last records (the one with a
  // database leaf among them), every 16th byte of the others.
  const size_t lastRecords = whole.size() - 400;
  for (size_t i = 0; i < whole.size(); i += i < 64 || i >= lastRecords ? 1 : 16) {
    std::string bytes = whole;
    bytes[i] = static_cast<char>(bytes[i] ^ (i % 2 ? 0x01 : 0x80));
    writeWhole(path, bytes);
    const DatabaseReport r = checkDatabase(path);
    EXPECT_FALSE(r.accepted) << "byte " << i;
    auto db = ProofDatabase::open(path, Mode::kRead);
    if (db.ok()) {
      EXPECT_LT((*db)->entries(), entries) << "byte " << i;
      EXPECT_GT((*db)->tail().bytes, 0u) << "byte " << i;
      EXPECT_EQ(static_cast<int64_t>((*db)->entries()), r.badEntry) << "byte " << i << ": " << r.reason;
    } else {
      EXPECT_LT(i, kDatabaseHeaderBytes + g.v.name().size()) << "byte " << i << ": " << db.status();
    }
  }
}

// A database leaf after a board move is refused, though the position after
// it is an entry won by the same winner: an earlier position could recur.
TEST(ProofDatabase, ADatabaseLeafAfterABoardMoveIsRefused) {
  const testing::ScratchDir dir("pdb");
  const Variant v = Variant::gobblers();
  // A position won by a board move that does not win at once, from seeded random games.
  std::mt19937 rng(11);
  std::optional<Board> won;
  Move boardMove;
  for (int game = 0; game < 200 && !won; ++game) {
    Board b(v);
    for (int ply = 0; ply < 12 && b.winner() == kNoWinner && !won; ++ply) {
      MoveList moves;
      generateMoves(b, moves);
      if (moves.empty()) break;
      if (ply >= 6) {
        const ProofResult r = proveWith(b, nullptr, 50'000);
        if (r.outcome == Outcome::kWin && r.certificate && !r.certificate->nodes[0].move.isDrop() &&
            r.certificate->nodes[0].children[0] != kWonLeaf) {
          won = b;
          boardMove = r.certificate->nodes[0].move;
        }
      }
      b.makeMove(moves[rng() % moves.size()]);
    }
  }
  ASSERT_TRUE(won.has_value()) << "no position won by a board move found";
  Board after = *won;
  after.makeMove(boardMove);
  const ProofResult lost = proveWith(after, nullptr);
  ASSERT_EQ(lost.outcome, Outcome::kLoss) << positionToString(after);
  const std::string path = dir.file("board.pdb");
  auto db = ProofDatabase::open(path, Mode::kReadWrite, v);
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_TRUE(*(*db)->append(*lost.certificate));
  Certificate forged;
  forged.variant = v.name();
  forged.position = positionToString(*won);
  forged.winner = 0;
  forged.nodes = {CertificateNode{true, boardMove, {kDatabaseLeaf}}};
  {
    std::istringstream in(encoded(forged));
    const CheckReport r = checkCertificate(in, {}, {}, db->get());
    EXPECT_FALSE(r.accepted);
    EXPECT_NE(r.reason.find("only follow a drop"), std::string::npos) << r.reason;
  }
  auto appended = (*db)->append(forged);
  EXPECT_FALSE(appended.ok()) << "the checker refuses it before it is written";
  std::string bytes = readWhole(path) + encodeRecord(1 + lost.plies, encoded(forged));
  writeWhole(path, bytes);
  expectRejected(checkDatabase(path), 1, "only follow a drop");
}

// A cut tail (a writer that died mid-record) is reported and dropped by a
// reader, and cut off by the next append, which leaves a whole database.
TEST(ProofDatabase, ACutTailIsDroppedThenOverwritten) {
  const testing::ScratchDir dir("pdb");
  const Forge f(dir.path());
  const std::string path = f.file("tail.pdb");
  std::string bytes = encodeDatabaseHeader(f.g.v) + f.q() + f.pRecord(*f.p.certificate);
  bytes.resize(bytes.size() - 30);
  writeWhole(path, bytes);
  auto db = ProofDatabase::open(path, Mode::kReadWrite, f.g.v);
  ASSERT_TRUE(db.ok()) << db.status();
  EXPECT_EQ((*db)->entries(), 1u);
  EXPECT_GT((*db)->tail().bytes, 0u);
  EXPECT_NE((*db)->tail().reason.find("cut short"), std::string::npos) << (*db)->tail().reason;
  EXPECT_FALSE((*db)->find(f.g.start).has_value()) << "a cut record is never trusted";
  EXPECT_TRUE((*db)->find(f.g.afterFirst).has_value());
  ASSERT_TRUE(*(*db)->append(*f.p.certificate));
  EXPECT_EQ((*db)->tail().bytes, 0u);
  EXPECT_EQ(readWhole(path), encodeDatabaseHeader(f.g.v) + f.q() + f.pRecord(*f.p.certificate));
  const DatabaseReport r = checkDatabase(path);
  EXPECT_TRUE(r.accepted) << r.reason;
  EXPECT_EQ(r.entries, 2u);
}

// Tic-tac-toe positions won at once by the side to move, each a different
// class under the symmetries: certificates of one node.
std::vector<Certificate> quickWins(int count) {
  const Variant v = Variant::ticTacToe();
  std::mt19937 rng(5);
  std::set<std::string> seen;
  std::vector<Certificate> wins;
  for (int game = 0; game < 5000 && static_cast<int>(wins.size()) < count; ++game) {
    Board b(v);
    for (int ply = 0; ply < 9 && b.winner() == kNoWinner; ++ply) {
      MoveList moves;
      generateMoves(b, moves);
      if (moves.empty()) break;
      const ProofResult r = proveWith(b, nullptr, 10'000);
      if (r.outcome == Outcome::kWin && r.plies == 1 && static_cast<int>(wins.size()) < count &&
          seen.insert(positionToString(canonicalBoard(b))).second)
        wins.push_back(*r.certificate);
      b.makeMove(moves[rng() % moves.size()]);
    }
  }
  return wins;
}

// A reader follows a writer: refresh() indexes what was appended since,
// and drops a cut tail again without trusting it.
TEST(ProofDatabase, RefreshFollowsAWriter) {
  const testing::ScratchDir dir("pdb");
  const std::string path = dir.file("follow.pdb");
  const std::vector<Certificate> wins = quickWins(3);
  ASSERT_EQ(wins.size(), 3u);
  auto writer = ProofDatabase::open(path, Mode::kReadWrite, Variant::ticTacToe());
  ASSERT_TRUE(writer.ok()) << writer.status();
  ASSERT_TRUE(*(*writer)->append(wins[0]));
  auto reader = ProofDatabase::open(path, Mode::kRead);
  ASSERT_TRUE(reader.ok()) << reader.status();
  EXPECT_EQ((*reader)->entries(), 1u);
  ASSERT_TRUE(*(*writer)->append(wins[1]));
  ASSERT_TRUE(*(*writer)->append(wins[2]));
  const Board second = position(Variant::ticTacToe(), wins[2].position);
  EXPECT_FALSE((*reader)->find(second).has_value()) << "not before refresh()";
  ASSERT_TRUE((*reader)->refresh().ok());
  EXPECT_EQ((*reader)->entries(), 3u);
  EXPECT_TRUE((*reader)->find(second).has_value());
  const auto size = std::filesystem::file_size(path);
  std::filesystem::resize_file(path, size - 5);
  std::filesystem::resize_file(path, size);  // the last record's end zeroed: its checksum fails
  auto fresh = ProofDatabase::open(path, Mode::kRead);
  ASSERT_TRUE(fresh.ok());
  EXPECT_EQ((*fresh)->entries(), 2u);
  EXPECT_GT((*fresh)->tail().bytes, 0u);
  ASSERT_TRUE((*fresh)->refresh().ok());
  EXPECT_EQ((*fresh)->entries(), 2u) << "a damaged tail stays dropped";
  std::filesystem::resize_file(path, 20);
  EXPECT_EQ((*fresh)->refresh().code(), absl::StatusCode::kDataLoss) << "shrank below its last whole record";
}

TEST(ProofDatabase, TwoProcessesAppendingAtOnceKeepEveryEntry) {
  const testing::ScratchDir dir("pdb");
  const std::vector<Certificate> wins = quickWins(60);
  ASSERT_GE(wins.size(), 40u);
  const std::string path = dir.file("two.pdb");
  ASSERT_TRUE(ProofDatabase::open(path, Mode::kReadWrite, Variant::ticTacToe()).ok());
  std::vector<pid_t> children;
  for (int child = 0; child < 2; ++child) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      // Each appends two thirds, one way round; the middle third both.
      auto db = ProofDatabase::open(path, Mode::kReadWrite, Variant::ticTacToe());
      if (!db.ok()) _exit(2);
      for (size_t k = 0; k * 3 < wins.size() * 2; ++k) {
        const size_t i = child == 0 ? k : wins.size() - 1 - k;
        if (!(*db)->append(wins[i]).ok()) _exit(3);
      }
      _exit(0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  }
  // Every position, appended by one process or both, is there once.
  auto db = ProofDatabase::open(path, Mode::kRead);
  ASSERT_TRUE(db.ok()) << db.status();
  EXPECT_EQ((*db)->tail().bytes, 0u);
  for (size_t i = 0; i < wins.size(); ++i)
    EXPECT_TRUE((*db)->find(position(Variant::ticTacToe(), wins[i].position)).has_value()) << i;
  EXPECT_EQ((*db)->entries(), wins.size()) << "each position once";
  const DatabaseReport r = checkDatabase(path);
  EXPECT_TRUE(r.accepted) << r.reason;
  EXPECT_EQ(r.entries, wins.size());
}

// A write that fails (here a file size limit, as a full disk would) is an
// error, and the file is left as it was, byte for byte.
// A database leaf on a move that ends the game is refused, even where the
// known positions claim the position after it.
TEST(ProofDatabase, ADatabaseLeafWhereTheGameIsOverIsRefused) {
  struct Everything : KnownPositions {
    std::optional<KnownPosition> find(const Board&) const override { return KnownPosition{1, 1, 0}; }
  };
  const Everything everything;
  std::vector<Certificate> wins = quickWins(1);
  ASSERT_EQ(wins.size(), 1u);
  Certificate c = wins[0];
  ASSERT_EQ(c.nodes.size(), 1u);
  ASSERT_EQ(c.nodes[0].children[0], kWonLeaf);
  {
    std::istringstream in(encoded(c));
    EXPECT_TRUE(checkCertificate(in, {}, {}, &everything).accepted);
  }
  c.nodes[0].children[0] = kDatabaseLeaf;
  std::istringstream in(encoded(c));
  const CheckReport r = checkCertificate(in, {}, {}, &everything);
  EXPECT_FALSE(r.accepted);
  EXPECT_NE(r.reason.find("where the game is over"), std::string::npos) << r.reason;
}

TEST(ProofDatabase, AFailedWriteLeavesTheFileAsItWas) {
  const testing::ScratchDir dir("pdb");
  const std::vector<Certificate> wins = quickWins(2);
  ASSERT_EQ(wins.size(), 2u);
  const std::string path = dir.file("full.pdb");
  {
    auto db = ProofDatabase::open(path, Mode::kReadWrite, Variant::ticTacToe());
    ASSERT_TRUE(db.ok()) << db.status();
    ASSERT_TRUE(*(*db)->append(wins[0]));
  }
  const std::string before = readWhole(path);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    signal(SIGXFSZ, SIG_IGN);
    auto db = ProofDatabase::open(path, Mode::kReadWrite, Variant::ticTacToe());
    if (!db.ok()) _exit(2);
    const rlimit limit{before.size() + 10, before.size() + 10};  // room for part of a record only
    if (setrlimit(RLIMIT_FSIZE, &limit) != 0) _exit(3);
    const auto appended = (*db)->append(wins[1]);
    if (appended.ok()) _exit(4);
    if (appended.status().code() != absl::StatusCode::kUnavailable) _exit(5);
    if ((*db)->find(position(Variant::ticTacToe(), wins[1].position))) _exit(6);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_EQ(readWhole(path), before);
  const DatabaseReport r = checkDatabase(path);
  EXPECT_TRUE(r.accepted) << r.reason;
  EXPECT_EQ(r.entries, 1u);
}

// A database grown by proving positions of a small 3x3 variant with moving
// pieces, each proof starting from what it holds and stored with its drop
// sub-positions: every result and every
// entry agrees with the brute solver, and the whole file is accepted.
TEST(ProofDatabase, AGrowingDatabaseAgreesWithTheBruteSolver) {
  const testing::ScratchDir dir("pdb");
  const Variant v = *Variant::parse("3x3:2,2,1");
  const testing::BruteSolver solver(v);
  std::vector<size_t> order(solver.boards().size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::mt19937 rng(17);
  for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
  // 200 positions won or lost, the fullest boards first: a proof of an
  // emptier one may reach them by drops.
  std::vector<size_t> chosen;
  for (size_t i : order) {
    const Board& b = solver.boards()[i];
    if (b.winner() == kNoWinner && countMoves(b) > 0 && solver.values()[i].value != 0) chosen.push_back(i);
    if (chosen.size() == 200) break;
  }
  const auto pieces = [&](size_t i) { return std::popcount(solver.boards()[i].occupied()); };
  std::stable_sort(chosen.begin(), chosen.end(), [&](size_t a, size_t b) { return pieces(a) > pieces(b); });
  const std::string path = dir.file("small.pdb");
  auto db = ProofDatabase::open(path, Mode::kReadWrite, v);
  ASSERT_TRUE(db.ok()) << db.status();
  int compared = 0, withLeaves = 0;
  std::vector<size_t> proved;
  for (size_t i : chosen) {
    const Board& b = solver.boards()[i];
    ++compared;
    ProverOptions options;
    options.maxNodes = 20'000;
    options.hashMiB = 1;
    options.database = db->get();
    auto r = prove(b, options);
    ASSERT_TRUE(r.ok()) << r.status();
    if (r->outcome != Outcome::kWin && r->outcome != Outcome::kLoss) continue;
    EXPECT_EQ(r->outcome == Outcome::kWin ? 1 : -1, solver.values()[i].value) << positionToString(b);
    EXPECT_GE(r->plies, solver.values()[i].distance) << positionToString(b);
    ASSERT_TRUE(r->certificate) << positionToString(b);
    withLeaves += hasDatabaseLeaf(*r->certificate);
    auto entries = splitAtDrops(*r->certificate);
    ASSERT_TRUE(entries.ok()) << entries.status();
    auto appended = (*db)->append(*entries);
    ASSERT_TRUE(appended.ok()) << positionToString(b) << ": " << appended.status();
    proved.push_back(i);
  }
  EXPECT_GT(proved.size(), 150u);
  EXPECT_GE(withLeaves, 5) << "later proofs end at earlier ones";
  for (size_t i : proved) {
    const auto known = (*db)->find(solver.boards()[i]);
    ASSERT_TRUE(known.has_value());
    EXPECT_EQ(known->winner == 0 ? 1 : -1, solver.values()[i].value) << positionToString(solver.boards()[i]);
    EXPECT_GE(known->plies, solver.values()[i].distance);
  }
  const DatabaseReport r = checkDatabase(path);
  EXPECT_TRUE(r.accepted) << r.reason;
  EXPECT_EQ(r.entries, (*db)->entries());
  std::printf("%d positions, %zu proved and stored, %d with database leaves\n", compared, proved.size(), withLeaves);
}

}  // namespace
}  // namespace gobblet::proof
