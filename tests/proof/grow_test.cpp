// The frontier of a grow run (proof/grow.h): what it hands out and in what
// order, its passes, and its file: saved and loaded whole, a foreign, cut
// or edited file refused with the line named.
#include "proof/grow.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "engine/canonical.h"
#include "engine/notation.h"
#include "tests/support/scratch_dir.h"

namespace gobblet::proof {
namespace {

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void writeAll(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// Breadth first: the root, then its children (canonical, each once), by ply.
TEST(GrowFrontier, BreadthFirstHandsOutEachCanonicalPositionOnce) {
  const Variant v = *Variant::parse("tictactoe");
  auto f = GrowFrontier::start(v, GrowOrder::kBreadth, 2, {Board(v)});
  ASSERT_TRUE(f.ok()) << f.status();
  auto root = f->next();
  ASSERT_TRUE(root);
  EXPECT_EQ(root->ply, 0);
  EXPECT_FALSE(f->next()) << "nothing more until the root is recorded";
  f->record(*root, GrowVerdict::kFailed, 0, 10);
  // Tic-tac-toe's 9 first moves are 3 positions up to symmetry.
  EXPECT_EQ(f->queued(), 3u);
  int plyOne = 0, plyTwo = 0;
  while (auto item = f->next()) {
    EXPECT_EQ(canonicalBoard(item->position), item->position);
    (item->ply == 1 ? plyOne : plyTwo)++;
    if (item->ply == 2) {
      EXPECT_EQ(plyOne, 3) << "ply 2 before every ply 1";
    }
    f->record(*item, GrowVerdict::kFailed, 0, 1);
  }
  EXPECT_EQ(plyOne, 3);
  EXPECT_EQ(plyTwo, 12);  // the 12 canonical positions after two moves
  EXPECT_TRUE(f->done()) << "nothing was decided: no retry pass";
  EXPECT_EQ(f->counts().handled, 16u);
  EXPECT_EQ(f->counts().nodes, 25u);
}

// A decided position's children are not queued; the failed ones are tried
// again once a pass decided anything, deepest first.
TEST(GrowFrontier, APassThatDecidesSomethingRetriesTheFailedOnes) {
  const Variant v = Variant::gobblers();
  auto f = GrowFrontier::start(v, GrowOrder::kBreadth, 1, {Board(v)});
  ASSERT_TRUE(f.ok());
  auto root = f->next();
  f->record(*root, GrowVerdict::kFailed, 0, 0);
  const size_t children = f->queued();
  ASSERT_GT(children, 1u);
  bool first = true;
  for (size_t i = 0; i < children; ++i) {
    auto item = f->next();
    ASSERT_TRUE(item);
    ASSERT_EQ(item->pass, 0);
    f->record(*item, first ? GrowVerdict::kProved : GrowVerdict::kFailed, first ? 5 : 0, 1);
    first = false;
  }
  EXPECT_EQ(f->queued(), 0u);
  EXPECT_FALSE(f->done());
  EXPECT_EQ(f->failedWaiting(), children);  // the root and every child but the proved one
  auto retry = f->next();
  ASSERT_TRUE(retry);
  EXPECT_EQ(retry->pass, 1);
  EXPECT_EQ(retry->ply, 1) << "deepest first";
  f->record(*retry, GrowVerdict::kFailed, 0, 1);
  while (auto item = f->next()) f->record(*item, GrowVerdict::kFailed, 0, 1);
  EXPECT_TRUE(f->done()) << "pass 1 decided nothing";
  EXPECT_EQ(f->counts().proved, 1u);
  EXPECT_EQ(f->counts().entries, 5u);
}

// priority: most pieces on the board first, so a run dives.
TEST(GrowFrontier, PriorityTakesTheMostPiecesFirst) {
  const Variant v = Variant::gobblers();
  auto f = GrowFrontier::start(v, GrowOrder::kPriority, 10, {Board(v)});
  ASSERT_TRUE(f.ok());
  for (int expected = 0; expected < 4; ++expected) {
    auto item = f->next();
    ASSERT_TRUE(item);
    EXPECT_EQ(item->ply, expected);
    f->record(*item, GrowVerdict::kFailed, 0, 1);
  }
}

TEST(GrowFrontier, BadStartsAreRefused) {
  const Variant v = Variant::gobblers();
  EXPECT_FALSE(GrowFrontier::start(v, GrowOrder::kBreadth, 5, {}).ok());
  auto over = parsePosition(v, "MLS/3/ll1 2");
  ASSERT_TRUE(over.ok());
  EXPECT_FALSE(GrowFrontier::start(v, GrowOrder::kBreadth, 5, {*over}).ok());
  EXPECT_FALSE(GrowFrontier::start(v, GrowOrder::kBreadth, 5, {Board(*Variant::parse("tictactoe"))}).ok());
  EXPECT_FALSE(parseGrowOrder("depth").ok());
}

// Saved with positions out, loaded: the same frontier (the same file
// again), the positions out queued again.
TEST(GrowFrontier, SaveAndLoadKeepEverything) {
  const testing::ScratchDir dir("grow");
  const std::string path = dir.file("f.grow");
  const Variant v = Variant::gobblers();
  auto f = GrowFrontier::start(v, GrowOrder::kPriority, 3, {Board(v)});
  ASSERT_TRUE(f.ok());
  f->setBudget({1234, 8});
  for (int i = 0; i < 5; ++i) {
    auto item = f->next();
    ASSERT_TRUE(item);
    f->record(*item, i == 2 ? GrowVerdict::kProved : GrowVerdict::kFailed, 3, 7);
  }
  auto out = f->next();  // taken, not recorded
  ASSERT_TRUE(out);
  ASSERT_TRUE(f->save(path).ok());
  auto loaded = GrowFrontier::load(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->variant(), v);
  EXPECT_EQ(loaded->order(), GrowOrder::kPriority);
  EXPECT_EQ(loaded->maxPly(), 3);
  EXPECT_EQ(loaded->budget().nodes, 1234u);
  EXPECT_EQ(loaded->budget().hashMiB, 8u);
  EXPECT_EQ(loaded->queued(), f->queued());
  EXPECT_EQ(loaded->seen(), f->seen());
  EXPECT_EQ(loaded->counts().handled, 5u);
  EXPECT_EQ(loaded->counts().proved, 1u);
  auto again = loaded->next();
  ASSERT_TRUE(again);
  EXPECT_EQ(again->seq, out->seq) << "the position that was out comes first again";
  EXPECT_EQ(again->position, out->position);
  const std::string second = dir.file("g.grow");
  loaded = GrowFrontier::load(path);
  ASSERT_TRUE(loaded->save(second).ok());
  EXPECT_EQ(readAll(path), readAll(second));
}

TEST(GrowFrontier, ForeignCutAndEditedFilesAreRefused) {
  const testing::ScratchDir dir("grow");
  const std::string path = dir.file("f.grow");
  const Variant v = *Variant::parse("tictactoe");
  auto f = GrowFrontier::start(v, GrowOrder::kBreadth, 3, {Board(v)});
  auto root = f->next();
  f->record(*root, GrowVerdict::kFailed, 0, 1);
  ASSERT_TRUE(f->save(path).ok());
  const std::string good = readAll(path);
  EXPECT_EQ(GrowFrontier::load(dir.file("none")).status().code(), absl::StatusCode::kNotFound);

  writeAll(path, "GBPROVED and more\n");
  auto foreign = GrowFrontier::load(path);
  EXPECT_EQ(foreign.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(foreign.status().message().find("not a grow frontier"), std::string::npos) << foreign.status();

  writeAll(path, "gobblet-grow-frontier 2\n" + good.substr(good.find('\n') + 1));
  EXPECT_NE(GrowFrontier::load(path).status().message().find("another version"), std::string::npos);

  writeAll(path, good.substr(0, good.size() - 30));
  auto cut = GrowFrontier::load(path);
  EXPECT_EQ(cut.status().code(), absl::StatusCode::kDataLoss) << cut.status();

  std::string edited = good;
  edited[edited.find("max-ply 3") + 8] = '4';
  writeAll(path, edited);
  auto changed = GrowFrontier::load(path);
  EXPECT_EQ(changed.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(changed.status().message().find("checksum"), std::string::npos) << changed.status();

  writeAll(path, good);
  EXPECT_TRUE(GrowFrontier::load(path).ok());
}

}  // namespace
}  // namespace gobblet::proof
