#include "search/wdl.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "search/eval_file.h"
#include "search/evaluate.h"
#include "search/tactics.h"
#include "wdl_model_hand_written.h"
#include "wdl_model_net.h"

namespace gobblet {
namespace {

double cubic(const double (&c)[4], double t) { return c[0] + t * (c[1] + t * (c[2] + t * c[3])); }

// The share of the variant's pieces on the board, 0 to 1.
double phase(const Board& board) {
  const Variant& v = board.variant();
  int placed = 0;
  for (int p = 0; p < 2; ++p)
    for (int s = 0; s < v.sizes; ++s) placed += board.placed(p, s);
  const int pieces = 2 * v.sizes * v.perSize;
  return pieces > 0 ? std::clamp(static_cast<double>(placed) / pieces, 0.0, 1.0) : 0.0;
}

}  // namespace

WinDrawLoss winDrawLoss(int value, bool decided, const Board& board, ScoreScale scale) {
  if (decided) {
    if (value > 0) return {1000, 0, 0};
    if (value < 0) return {0, 0, 1000};
    // An exact draw, or a game over on the board: its winner, if any, is
    // on the board.
    const int winner = board.winner();
    if (winner == kNoWinner) return {0, 1000, 0};
    return winner == board.sideToMove() ? WinDrawLoss{1000, 0, 0} : WinDrawLoss{0, 0, 1000};
  }
  const double t = phase(board);
  // The fit keeps a >= 0 and b > 0 over [0, 1]; the bounds guard a model
  // written by hand.
  const bool net = scale == ScoreScale::kNet;
  const double a = std::max(cubic(net ? wdl_model::net::kA : wdl_model::hand_written::kA, t), 0.0);
  const double b = std::max(cubic(net ? wdl_model::net::kB : wdl_model::hand_written::kB, t), 1.0);
  const double x = value;
  const double w = 1 / (1 + std::exp((a - x) / b));
  const double l = 1 / (1 + std::exp((a + x) / b));
  // An estimate never looks certain: no share reaches 1000 (only a decided
  // value gives 1000 above).
  int win = std::min(static_cast<int>(std::lround(1000 * w)), 999);
  int loss = std::min({static_cast<int>(std::lround(1000 * l)), 1000 - win, 999});
  if (win == 0 && loss == 0) win = loss = 1;
  return {win, 1000 - win - loss, loss};
}

WinDrawLoss positionChances(const Game& game, const nnue::Network* net) {
  Board board = game.position();
  switch (game.result()) {
    case GameResult::kNone:
      break;
    case GameResult::kDraw:
      return {0, 1000, 0};
    case GameResult::kPlayer1Wins:
    case GameResult::kPlayer2Wins:
      return (game.result() == GameResult::kPlayer1Wins) == (board.sideToMove() == 0) ? WinDrawLoss{1000, 0, 0}
                                                                                      : WinDrawLoss{0, 0, 1000};
  }
  if (!winningMove(board).isNone()) return {1000, 0, 0};
  if (net && netEvaluates(board.variant()))
    return winDrawLoss(netEvaluation(*net, board), false, board, ScoreScale::kNet);
  return winDrawLoss(evaluate(board), false, board, ScoreScale::kHandWritten);
}

}  // namespace gobblet
