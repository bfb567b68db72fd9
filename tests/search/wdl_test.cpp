// The win/draw/loss chances (search/wdl.h): per mille that add up to 1000,
// monotone in the score, the same for a score and its negation with win and
// loss exchanged, certain for a decided score, and carried by every line a
// search reports.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/game.h"
#include "search/eval_file.h"
#include "search/search.h"
#include "search/wdl.h"

namespace gobblet {
namespace {

// Boards of 4x4 Gobblet with 0, 6, 12, 18 and 24 pieces placed: the
// players alternate, each taking its stacks' pieces from the top (the
// three large pieces first), player 1 on squares 0-7, player 2 on 8-15.
std::vector<Board> boardsByPhase() {
  std::vector<Board> boards;
  Board b(Variant::gobblet());
  boards.push_back(b);
  int taken[2] = {0, 0};
  for (int placed = 1; placed <= 24; ++placed) {
    const int player = (placed - 1) % 2;
    const int k = taken[player]++;
    b.addPiece(player, 3 - k / 3, player * 8 + k % 8);
    if (placed % 6 == 0) boards.push_back(b);
  }
  return boards;
}

TEST(WinDrawLoss, ChancesAddUpAreMonotoneAndSymmetric) {
  for (const ScoreScale scale : {ScoreScale::kHandWritten, ScoreScale::kNet})
    for (const Board& board : boardsByPhase()) {
      ASSERT_TRUE(board.countsValid());
      WinDrawLoss previous = winDrawLoss(-3000, false, board, scale);
      EXPECT_EQ(previous, (WinDrawLoss{0, 1, 999})) << "an estimate never looks certain";
      for (int x = -3000; x <= 3000; x += 5) {
        const WinDrawLoss c = winDrawLoss(x, false, board, scale);
        EXPECT_EQ(c.win + c.draw + c.loss, 1000) << x;
        EXPECT_GE(c.win, 0);
        EXPECT_GE(c.draw, 0);
        EXPECT_GE(c.loss, 0);
        EXPECT_LT(std::max({c.win, c.draw, c.loss}), 1000) << x;
        EXPECT_GE(c.win, previous.win) << "W falls at " << x;
        EXPECT_LE(c.loss, previous.loss) << "L grows at " << x;
        const WinDrawLoss mirrored = winDrawLoss(-x, false, board, scale);
        EXPECT_EQ(c.win, mirrored.loss) << x;
        EXPECT_EQ(c.loss, mirrored.win) << x;
        previous = c;
      }
      EXPECT_EQ(previous, (WinDrawLoss{999, 1, 0}));
      // An even score is as likely won as lost, and a better one more won.
      const WinDrawLoss even = winDrawLoss(0, false, board, scale);
      EXPECT_EQ(even.win, even.loss);
      EXPECT_GT(winDrawLoss(30, false, board, scale).win, even.win);
    }
}

TEST(WinDrawLoss, ADecidedScoreIsCertain) {
  const Board start(Variant::gobblet());
  EXPECT_EQ(winDrawLoss(7, true, start, ScoreScale::kNet), (WinDrawLoss{1000, 0, 0}));
  EXPECT_EQ(winDrawLoss(-4, true, start, ScoreScale::kHandWritten), (WinDrawLoss{0, 0, 1000}));
  // A game over: player 1 has a line, player 2 to move has lost.
  Game game{Board(Variant::gobblet())};
  for (const char* m : {"X@a1", "X@a4", "X@b1", "X@b4", "X@c1", "X@c4", "L@d1"}) ASSERT_TRUE(game.play(m).ok()) << m;
  EXPECT_EQ(winDrawLoss(0, true, game.position(), ScoreScale::kNet), (WinDrawLoss{0, 0, 1000}));
  EXPECT_EQ(positionChances(game), (WinDrawLoss{0, 0, 1000}));
}

TEST(WinDrawLoss, AWinInOneIsAWinWithoutASearch) {
  Game game{Board(Variant::gobblet())};
  for (const char* m : {"X@a1", "X@a4", "X@b1", "X@b4", "X@c1", "X@c4"}) ASSERT_TRUE(game.play(m).ok()) << m;
  EXPECT_EQ(positionChances(game), (WinDrawLoss{1000, 0, 0}));
  Game start{Board(Variant::gobblet())};
  const WinDrawLoss c = positionChances(start);
  EXPECT_GT(c.win, 0);
  EXPECT_GT(c.loss, 0);
}

TEST(WinDrawLoss, EveryLineOfASearchCarriesTheChancesOfItsScore) {
  Search search;
  Game game{Board(Variant::gobblet())};
  int lines = 0;
  search.searchSync(game, SearchLimits{.depth = 5}, [&](const SearchInfo& info) {
    ++lines;
    EXPECT_EQ(info.wdl, winDrawLoss(info.score.value, info.score.isMate, game.position(), ScoreScale::kHandWritten))
        << info.depth;
    EXPECT_EQ(info.wdl.win + info.wdl.draw + info.wdl.loss, 1000);
  });
  EXPECT_GE(lines, 5);
  // Searched with the net, a line's chances are the net's model's: the
  // two models give other chances for the same score.
  SearchOptions withNet;
  withNet.net = builtInNet();
  ASSERT_TRUE(search.setOptions(withNet).ok());
  int otherThanHandWritten = 0;
  search.searchSync(game, SearchLimits{.depth = 5}, [&](const SearchInfo& info) {
    const Board& root = game.position();
    EXPECT_EQ(info.wdl, winDrawLoss(info.score.value, info.score.isMate, root, ScoreScale::kNet)) << info.depth;
    if (info.wdl != winDrawLoss(info.score.value, info.score.isMate, root, ScoreScale::kHandWritten))
      ++otherThanHandWritten;
  });
  EXPECT_GT(otherThanHandWritten, 0);
  // A won position: every line says 1000 0 0.
  Game won{Board(Variant::gobblet())};
  for (const char* m : {"X@a1", "X@a4", "X@b1", "X@b4", "X@c1", "X@c4"}) ASSERT_TRUE(won.play(m).ok()) << m;
  const Search::Result r = search.searchSync(won, SearchLimits{.depth = 3});
  EXPECT_TRUE(r.info.score.isMate);
  EXPECT_EQ(r.info.wdl, (WinDrawLoss{1000, 0, 0}));
}

// A value the search knows exactly gives exact chances: tic-tac-toe
// searched to its end is a draw, 0 1000 0 (an exact score of 0); an
// estimate at the largest evaluation is not certain.
TEST(WinDrawLoss, AnExactDrawIsCertainAnEstimateIsNot) {
  Search search;
  const Game ticTacToe{Board(Variant::ticTacToe())};
  const Search::Result solved = search.searchSync(ticTacToe, SearchLimits{.moveTime = 60000});
  EXPECT_TRUE(solved.info.score.exact);
  EXPECT_FALSE(solved.info.score.isMate);
  EXPECT_EQ(solved.info.score.value, 0);
  EXPECT_EQ(solved.info.wdl, (WinDrawLoss{0, 1000, 0}));
  // A shallow search of 4x4 Gobblet depends on its horizon: an estimate.
  const Search::Result shallow = search.searchSync(Game{Board(Variant::gobblet())}, SearchLimits{.depth = 3});
  EXPECT_FALSE(shallow.info.score.exact);
  EXPECT_LT(std::max({shallow.info.wdl.win, shallow.info.wdl.draw, shallow.info.wdl.loss}), 1000);
  for (const ScoreScale scale : {ScoreScale::kHandWritten, ScoreScale::kNet}) {
    const WinDrawLoss far = winDrawLoss(10000, false, Board(Variant::gobblet()), scale);
    EXPECT_LT(far.win, 1000);
    EXPECT_GT(far.draw + far.loss, 0);
  }
}

}  // namespace
}  // namespace gobblet
