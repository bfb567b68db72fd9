// certificateAt(): a certificate moved onto each of the 16 images of its
// root (8 symmetries of the square, the players exchanged or not) is
// accepted by the checker there, with the same winner and plies; the same
// certificate with only its root changed is not (its moves are the other
// orientation's); a board that is no image of the root is refused; the
// prover answers every image of a stored root from the database.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "engine/game.h"
#include "engine/notation.h"
#include "proof/certificate_image.h"
#include "proof/certified.h"
#include "proof/check.h"
#include "proof/database.h"
#include "proof/prover.h"
#include "tests/support/scratch_dir.h"

namespace gobblet::proof {
namespace {

CheckReport checked(const Certificate& c) {
  auto bytes = encodeCertificate(c);
  EXPECT_TRUE(bytes.ok()) << bytes.status();
  std::istringstream in(bytes.ok() ? *bytes : std::string());
  return checkCertificate(in);
}

// Every image of `root` (proved won or lost) gets an accepted certificate.
void expectEveryImageAccepted(const Board& root) {
  ProverOptions options;
  options.hashMiB = 16;
  auto proved = prove(root, options);
  ASSERT_TRUE(proved.ok() && proved->certificate) << positionToString(root);
  const Certificate& stored = *proved->certificate;
  const CheckReport original = checked(stored);
  ASSERT_TRUE(original.accepted) << original.reason;
  int unmappedRejected = 0;
  for (int s = 0; s < kSymmetries; ++s)
    for (const Board& image : {root.transformed(s), root.transformed(s).colorSwapped()}) {
      const std::string text = positionToString(image);
      auto moved = certificateAt(stored, image);
      ASSERT_TRUE(moved.ok()) << text << ": " << moved.status();
      EXPECT_EQ(moved->position, text);
      const CheckReport report = checked(*moved);
      EXPECT_TRUE(report.accepted) << text << ": " << report.reason;
      EXPECT_EQ(report.winner, original.winner) << text;
      EXPECT_EQ(report.plies, original.plies) << text;
      EXPECT_EQ(report.nodes, original.nodes) << text;
      Certificate unmapped = stored;
      unmapped.position = text;
      unmappedRejected += !checked(unmapped).accepted;
    }
  EXPECT_GT(unmappedRejected, 0) << "no image needed its moves mapped: the test shows nothing";
  // The identity is a copy.
  auto same = certificateAt(stored, root);
  ASSERT_TRUE(same.ok()) << same.status();
  EXPECT_EQ(encodeCertificate(*same).value(), encodeCertificate(stored).value());
}

TEST(CertificateImage, EveryImageOfAGobblersWinIsAccepted) {
  Game game{Board(Variant::gobblers())};
  ASSERT_TRUE(game.play("L@b2").ok() && game.play("L@a1").ok());
  expectEveryImageAccepted(game.position());
}

TEST(CertificateImage, EveryImageOfAnEdgeOpeningIsAccepted) {
  Game game{Board(Variant::gobblers())};
  ASSERT_TRUE(game.play("L@b1").ok());
  expectEveryImageAccepted(game.position());
}

TEST(CertificateImage, EveryImageOfAGobbletWinIsAccepted) {
  Game game{Board(Variant::gobblet())};
  for (const char* m : {"X@a1", "X@a4", "X@b1", "X@b4", "X@c1", "X@c4"}) ASSERT_TRUE(game.play(m).ok()) << m;
  expectEveryImageAccepted(game.position());
}

TEST(CertificateImage, ABoardThatIsNoImageOfTheRootIsRefused) {
  Game game{Board(Variant::gobblers())};
  ASSERT_TRUE(game.play("L@b2").ok() && game.play("L@a1").ok());
  auto proved = prove(game.position());
  ASSERT_TRUE(proved.ok() && proved->certificate);
  Game other{Board(Variant::gobblers())};
  ASSERT_TRUE(other.play("L@b2").ok() && other.play("L@a2").ok());
  const auto refused = certificateAt(*proved->certificate, other.position());
  EXPECT_TRUE(absl::IsInvalidArgument(refused.status())) << refused.status();
  const auto anotherVariant = certificateAt(*proved->certificate, Board(Variant::gobblet()));
  EXPECT_TRUE(absl::IsInvalidArgument(anotherVariant.status())) << anotherVariant.status();
}

// A stored root is the answer on each of its images (no history): the
// stored certificate moved onto the image, no node searched, accepted by
// the checker there.
TEST(CertificateImage, TheProverAnswersEveryImageOfAStoredRoot) {
  const testing::ScratchDir dir("pdb_image");
  Game game{Board(Variant::gobblers())};
  ASSERT_TRUE(game.play("L@b2").ok() && game.play("L@a1").ok());
  const Board root = game.position();
  auto db = ProofDatabase::open(dir.file("g.pdb"), ProofDatabase::Mode::kReadWrite, Variant::gobblers());
  ASSERT_TRUE(db.ok()) << db.status();
  auto proved = prove(root);
  ASSERT_TRUE(proved.ok() && proved->certificate);
  ASSERT_TRUE((*db)->append(*proved->certificate).ok());
  ProverOptions options;
  options.hashMiB = 16;
  options.database = db->get();
  for (int s = 0; s < kSymmetries; ++s)
    for (const Board& image : {root.transformed(s), root.transformed(s).colorSwapped()}) {
      auto known = prove(image, options);
      ASSERT_TRUE(known.ok()) << known.status();
      EXPECT_EQ(known->outcome, Outcome::kWin) << positionToString(image);
      EXPECT_EQ(known->nodes, 0u) << positionToString(image) << " was searched";
      ASSERT_TRUE(known->certificate);
      EXPECT_EQ(known->certificate->position, positionToString(image));
      certify(*known, {}, db->get());
      EXPECT_TRUE(known->certified) << positionToString(image) << ": " << known->note;
    }
}

}  // namespace
}  // namespace gobblet::proof
