// The certificate file and the checker: round trips, and forged or damaged
// certificates rejected with the reason (an illegal move, a defender move
// left out, a leaf that is no win, a draw, a cycle, one node for two
// positions, an unreached node, a cut file, a flipped byte, a huge count,
// a forged count in a sparse file).
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "engine/game.h"
#include "engine/notation.h"
#include "proof/certified.h"
#include "proof/check.h"
#include "proof/prover.h"
#include "tests/support/peak_memory.h"
#include "tests/support/scratch_dir.h"

namespace gobblet::proof {
namespace {

// The proof of the Gobblet Gobblers start (about 4500 nodes, a DAG).
const Certificate& gobblersProof() {
  static const Certificate c = [] {
    ProverOptions options;
    options.hashMiB = 16;
    auto r = prove(Board(Variant::gobblers()), options);
    EXPECT_TRUE(r.ok() && r->certificate.has_value());
    return r.ok() && r->certificate ? *r->certificate : Certificate{};
  }();
  return c;
}

CheckReport check(const std::string& bytes, CertificateLimits limits = {}) {
  std::istringstream in(bytes);
  return checkCertificate(in, limits);
}
CheckReport check(const Certificate& c) {
  auto bytes = encodeCertificate(c);
  EXPECT_TRUE(bytes.ok()) << bytes.status();
  return check(bytes.ok() ? *bytes : std::string());
}

// Recomputes the checksum of a file edited by hand (FNV-1a 64 with the field zero).
std::string reseal(std::string bytes) {
  for (int i = 24; i < 32; ++i) bytes[i] = 0;
  uint64_t h = 0xcbf29ce484222325ull;
  for (char c : bytes) h = (h ^ static_cast<uint8_t>(c)) * 0x100000001b3ull;
  for (int i = 0; i < 8; ++i) bytes[24 + i] = static_cast<char>(h >> (8 * i));
  return bytes;
}

// The byte offset of each node record.
std::vector<size_t> nodeOffsets(const std::string& bytes) {
  size_t at = 32 + static_cast<uint8_t>(bytes[13]) + (static_cast<uint8_t>(bytes[14]) | bytes[15] << 8);
  std::vector<size_t> offsets;
  while (at < bytes.size()) {
    offsets.push_back(at);
    const size_t k =
        bytes[at] == 'O' ? 1 : (static_cast<uint8_t>(bytes[at + 1]) | static_cast<uint8_t>(bytes[at + 2]) << 8);
    at += 3 + 4 * k;
  }
  return offsets;
}

void putU32(std::string& bytes, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) bytes[at + i] = static_cast<char>(v >> (8 * i));
}

TEST(Certificate, RoundTripAndAccepted) {
  const Certificate& c = gobblersProof();
  ASSERT_GT(c.nodes.size(), 100u);
  EXPECT_EQ(c.variant, "gobblers");
  EXPECT_EQ(c.position, "3/3/3 1");
  const testing::ScratchDir dir("proof");
  ASSERT_TRUE(writeCertificate(c, dir.file("g.proof")).ok());
  auto back = readCertificateFile(dir.file("g.proof"));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->variant, c.variant);
  EXPECT_EQ(back->position, c.position);
  EXPECT_EQ(back->winner, 0);
  ASSERT_EQ(back->nodes.size(), c.nodes.size());
  for (size_t i = 0; i < c.nodes.size(); ++i) {
    EXPECT_EQ(back->nodes[i].orNode, c.nodes[i].orNode);
    EXPECT_EQ(back->nodes[i].move, c.nodes[i].move);
    EXPECT_EQ(back->nodes[i].children, c.nodes[i].children);
  }
  const CheckReport report = checkCertificateFile(dir.file("g.proof"));
  EXPECT_TRUE(report.accepted) << report.reason;
  EXPECT_EQ(report.plies, certificatePlies(c));
  EXPECT_GE(report.plies, 13);
}

TEST(Certificate, LossCertificateAccepted) {
  auto r = prove(*parsePosition(Variant::gobblet(), "xxl1/x3/l3/1XX1 1"));
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->outcome, Outcome::kLoss);
  ASSERT_TRUE(r->certificate);
  EXPECT_EQ(r->certificate->winner, 1);
  const CheckReport report = check(*r->certificate);
  EXPECT_TRUE(report.accepted) << report.reason;
  EXPECT_EQ(report.plies, 2);
}

TEST(Certificate, IllegalMoveRejected) {
  Certificate c = gobblersProof();
  c.nodes[0].move = Move::boardMove(0, 4, 4);
  const CheckReport report = check(c);
  EXPECT_FALSE(report.accepted);
  EXPECT_NE(report.reason.find("not legal"), std::string::npos) << report.reason;
}

TEST(Certificate, MissingDefenderMoveRejected) {
  Certificate c = gobblersProof();
  for (CertificateNode& n : c.nodes)
    if (!n.orNode && n.children.size() > 1) {
      n.children.pop_back();
      break;
    }
  const CheckReport report = check(c);
  EXPECT_FALSE(report.accepted);
  EXPECT_NE(report.reason.find("covers"), std::string::npos) << report.reason;
}

TEST(Certificate, LeafThatIsNoWinRejected) {
  Certificate c = gobblersProof();
  ASSERT_NE(c.nodes[0].children[0], kWonLeaf);
  c.nodes[0].children[0] = kWonLeaf;  // the first move does not make a line
  const CheckReport report = check(c);
  EXPECT_FALSE(report.accepted);
  EXPECT_NE(report.reason.find("not won"), std::string::npos) << report.reason;
}

// X O X / X O O / O X _ with X to move: the last placement fills the board
// without a line, so the "AND node" after it has no move to cover: a draw.
TEST(Certificate, DrawDressedAsAWinRejected) {
  Certificate c;
  c.variant = "3x3:1,5,0";
  c.position = "SsS/Sss/sS1 1";
  c.nodes.resize(2);
  c.nodes[0].move = *parseMove(*parsePosition(Variant::ticTacToe(), c.position), "S@c1");
  c.nodes[0].children = {1};
  c.nodes[1].orNode = false;
  const CheckReport report = check(c);
  EXPECT_FALSE(report.accepted);
  EXPECT_NE(report.reason.find("draw"), std::string::npos) << report.reason;
}

TEST(Certificate, CycleRejected) {
  const std::string good = *encodeCertificate(gobblersProof());
  std::string bytes = good;
  const std::vector<size_t> offsets = nodeOffsets(bytes);
  ASSERT_EQ(offsets.size(), gobblersProof().nodes.size());
  // Node 1 (a child of the root) sends one of its children back to the root.
  ASSERT_FALSE(gobblersProof().nodes[1].orNode);
  putU32(bytes, offsets[1] + 3, 0);
  const CheckReport report = check(reseal(bytes));
  EXPECT_FALSE(report.accepted);
  EXPECT_NE(report.reason.find("cycle"), std::string::npos) << report.reason;
}

TEST(Certificate, OneNodeForTwoPositionsRejected) {
  Certificate c = gobblersProof();
  for (CertificateNode& n : c.nodes) {
    if (n.orNode) continue;
    std::vector<uint32_t*> inner;
    for (uint32_t& child : n.children)
      if (child != kWonLeaf) inner.push_back(&child);
    if (inner.size() < 2 || *inner[0] == *inner[1]) continue;
    *inner[1] = *inner[0];  // two different moves of the loser lead to different positions
    break;
  }
  const CheckReport report = check(c);
  EXPECT_FALSE(report.accepted);
  EXPECT_NE(report.reason.find("two different positions"), std::string::npos) << report.reason;
}

TEST(Certificate, UnreachedNodeRejected) {
  Certificate c = gobblersProof();
  c.nodes.push_back(c.nodes.back());
  const CheckReport report = check(c);
  EXPECT_FALSE(report.accepted);
  EXPECT_NE(report.reason.find("not reached"), std::string::npos) << report.reason;
}

TEST(Certificate, WrongWinnerRejected) {
  std::string bytes = *encodeCertificate(gobblersProof());
  bytes[12] = 1;  // "the side not to move wins"
  const CheckReport report = check(reseal(bytes));
  EXPECT_FALSE(report.accepted);
  EXPECT_NE(report.reason.find("AND node is wanted"), std::string::npos) << report.reason;
}

TEST(Certificate, CutFileRejected) {
  const std::string bytes = *encodeCertificate(gobblersProof());
  for (size_t keep : {size_t{0}, size_t{10}, size_t{31}, size_t{40}, bytes.size() / 2, bytes.size() - 1}) {
    const CheckReport report = check(bytes.substr(0, keep));
    EXPECT_FALSE(report.accepted) << keep;
    EXPECT_FALSE(report.reason.empty());
  }
  // Cut and resealed: the count no longer fits, or the last node is cut.
  const CheckReport report = check(reseal(bytes.substr(0, bytes.size() - 2)));
  EXPECT_FALSE(report.accepted);
  EXPECT_NE(report.reason.find("cut short"), std::string::npos) << report.reason;
}

TEST(Certificate, FlippedByteRejectedByTheChecksum) {
  std::string bytes = *encodeCertificate(gobblersProof());
  bytes[bytes.size() / 2] ^= 0x10;
  const CheckReport report = check(bytes);
  EXPECT_FALSE(report.accepted);
  EXPECT_NE(report.reason.find("checksum"), std::string::npos) << report.reason;
}

TEST(Certificate, HugeNodeCountRejectedWithoutAllocating) {
  const std::string good = *encodeCertificate(gobblersProof());
  for (uint64_t count : {uint64_t{1} << 40, uint64_t{1} << 25}) {
    std::string bytes = good;
    for (int i = 0; i < 8; ++i) bytes[16 + i] = static_cast<char>(count >> (8 * i));
    const CheckReport report = check(reseal(bytes));
    EXPECT_FALSE(report.accepted);
    EXPECT_TRUE(report.reason.find("over the limit") != std::string::npos ||
                report.reason.find("cannot fit") != std::string::npos)
        << report.reason;
  }
  CertificateLimits small;
  small.maxNodes = 10;
  EXPECT_NE(check(good, small).reason.find("over the limit"), std::string::npos);
}

// A sparse file whose header claims 2^24 nodes (within the limits, and room
// for them in its apparent size), checksum right, node 0 damaged: the checker
// says so without first holding memory for every node the header claims.
TEST(Certificate, ForgedCountInASparseFileRejectedWithoutAllocating) {
  const testing::ScratchDir dir("sparse_certificate");
  const std::string path = dir.file("sparse.proof");
  const std::string good = *encodeCertificate(gobblersProof());
  constexpr uint64_t kCount = uint64_t{1} << 24;
  std::string head = good.substr(0, nodeOffsets(good)[0]);
  for (int i = 0; i < 8; ++i) head[16 + i] = static_cast<char>(kCount >> (8 * i));
  head += "Z";  // node 0: no tag
  const uint64_t size = head.size() + 7 * kCount;
  for (int i = 24; i < 32; ++i) head[i] = 0;
  uint64_t h = 0xcbf29ce484222325ull;
  for (char c : head) h = (h ^ static_cast<uint8_t>(c)) * 0x100000001b3ull;
  for (uint64_t i = head.size(); i < size; ++i) h *= 0x100000001b3ull;  // the zero bytes
  for (int i = 0; i < 8; ++i) head[24 + i] = static_cast<char>(h >> (8 * i));
  {
    std::ofstream out(path, std::ios::binary);
    out << head;
  }
  ASSERT_EQ(truncate(path.c_str(), static_cast<off_t>(size)), 0);
  resetPeakResident();
  const uint64_t before = peakResidentBytes();
  const CheckReport report = checkCertificateFile(path);
  const uint64_t grown = peakResidentBytes() - before;
  EXPECT_FALSE(report.accepted);
  EXPECT_NE(report.reason.find("node 0: bad tag"), std::string::npos) << report.reason;
  // 2^24 nodes' positions would be 384 MiB.
  EXPECT_LT(grown, uint64_t{64} << 20) << "bytes";
  const auto read = readCertificateFile(path);
  EXPECT_FALSE(read.ok());
  EXPECT_LT(peakResidentBytes() - before, uint64_t{64} << 20) << "bytes";
}

TEST(Certificate, NotACertificateRejected) {
  EXPECT_NE(check(std::string(100, 'x')).reason.find("not a certificate"), std::string::npos);
  std::string bytes = *encodeCertificate(gobblersProof());
  const CheckReport trailing = check(reseal(bytes + "tail"));
  EXPECT_FALSE(trailing.accepted);
}

// A game whose position has occurred twice: the tablebase's only winning
// move, c3c2, repeats it a third time (a draw in this game). The proof of
// the position alone wins through c3c2; the checker, told the game's
// history, rejects it; the prover, told it, proves no win.
TEST(Certificate, AProofThroughTheGamesEarlierPositionsHoldsForThePositionOnly) {
  Game game{Board(Variant::gobblers())};
  for (const char* m :
       {"L@c3", "L@b1", "L@b3", "M@a3", "b3c1", "M@c2", "c3c2", "b1a1", "c1a2", "a1b1", "a2c1", "b1a1", "c2c3", "a1b1"})
    ASSERT_TRUE(game.play(m).ok()) << m;
  ASSERT_EQ(game.occurrences(), 2);
  const std::vector<Board> history = game.positionsSinceLastDrop();
  ProverOptions options;
  options.hashMiB = 16;
  auto alone = prove(game.position(), options);
  ASSERT_TRUE(alone.ok() && alone->certificate) << (alone.ok() ? alone->note : alone.status().ToString());
  EXPECT_EQ(alone->outcome, Outcome::kWin);
  EXPECT_EQ(moveToString(alone->certificate->nodes[0].move, Variant::gobblers()), "c3c2");
  EXPECT_TRUE(check(*alone->certificate).accepted);
  const std::string bytes = *encodeCertificate(*alone->certificate);
  std::istringstream in(bytes);
  const CheckReport inGame = checkCertificate(in, {}, history);
  EXPECT_FALSE(inGame.accepted);
  EXPECT_NE(inGame.reason.find("repeats one the game has had"), std::string::npos) << inGame.reason;
  ProofResult certified = *alone;
  certify(certified, history);
  EXPECT_FALSE(certified.certified);
  EXPECT_EQ(certified.outcome, Outcome::kUnknown);

  options.history = history;
  auto inTheGame = prove(game.position(), options);
  ASSERT_TRUE(inTheGame.ok());
  EXPECT_NE(inTheGame->outcome, Outcome::kWin) << inTheGame->note;
  if (inTheGame->certificate) {
    certify(*inTheGame, history);
    EXPECT_TRUE(inTheGame->certified);
  }
}

// certify(): what the front ends say is a win only once the checker accepts
// its certificate; a forged one turns the answer into "unknown", with why.
TEST(Certify, AnAcceptedCertificateIsCertifiedAForgedOneIsNoAnswer) {
  ProverOptions options;
  options.hashMiB = 16;
  auto r = prove(Board(Variant::gobblers()), options);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->outcome, Outcome::kWin);
  ProofResult good = *r;
  certify(good);
  EXPECT_TRUE(good.certified);
  EXPECT_EQ(good.outcome, Outcome::kWin);
  EXPECT_EQ(good.plies, r->plies);
  ProofResult forged = *r;
  forged.certificate->nodes[0].move = Move::boardMove(0, 4, 4);  // (no piece there to move)
  certify(forged);
  EXPECT_FALSE(forged.certified);
  EXPECT_EQ(forged.outcome, Outcome::kUnknown);
  EXPECT_EQ(forged.plies, -1);
  EXPECT_FALSE(forged.certificate);
  EXPECT_NE(forged.note.find("the checker rejected the prover's certificate: "), std::string::npos) << forged.note;
  EXPECT_EQ(winningMove(good), good.certificate->nodes.front().move);
  EXPECT_TRUE(winningMove(forged).isNone());
  EXPECT_TRUE(winningMove(*r).isNone()) << "not certified: no move to play";
  ProofResult unknown;  // no certificate: nothing to check, nothing certified
  certify(unknown);
  EXPECT_FALSE(unknown.certified);
  EXPECT_EQ(unknown.outcome, Outcome::kUnknown);
}

}  // namespace
}  // namespace gobblet::proof
