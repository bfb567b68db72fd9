// canonicalBoard(): one form for the 16 images of a position (8 symmetries,
// players exchanged or not), different forms for positions that are not
// images of each other, over the positions of seeded random games of both
// families.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/canonical.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "tests/support/random_positions.h"

namespace gobblet {
namespace {

TEST(Canonical, OneFormForTheSixteenImages) {
  for (const Variant& v : {Variant::gobblet(), Variant::gobblers(), Variant::ticTacToe()}) {
    for (const Board& b : testing::randomGamePositions(v, 20, 30, 5)) {
      const Board c = canonicalBoard(b);
      EXPECT_EQ(canonicalBoard(c), c) << positionToString(b);
      EXPECT_EQ(c.key(), c.computeKey());
      // c is an image of b.
      bool image = false;
      for (int s = 0; s < kSymmetries; ++s) {
        const Board t = b.transformed(s);
        image |= t == c || t.colorSwapped() == c;
        EXPECT_EQ(canonicalBoard(t), c) << positionToString(b) << " symmetry " << s;
        EXPECT_EQ(canonicalBoard(t.colorSwapped()), c) << positionToString(b) << " symmetry " << s << " swapped";
      }
      EXPECT_TRUE(image) << positionToString(b);
    }
  }
}

// Positions that are not images of each other keep different forms: the
// number of forms is the number of classes counted by brute force.
TEST(Canonical, DifferentClassesKeepDifferentForms) {
  const std::vector<Board> boards = testing::randomGamePositions(Variant::gobblers(), 40, 30, 9);
  std::set<std::string> forms, classes;
  for (const Board& b : boards) {
    forms.insert(positionToString(canonicalBoard(b)));
    std::set<std::string> images;
    for (int s = 0; s < kSymmetries; ++s) {
      images.insert(positionToString(b.transformed(s)));
      images.insert(positionToString(b.transformed(s).colorSwapped()));
    }
    classes.insert(*images.begin());  // the class named by its least text
  }
  EXPECT_EQ(forms.size(), classes.size());
  EXPECT_GT(forms.size(), 100u);
}

}  // namespace
}  // namespace gobblet
