// Static evaluation: a pattern-based, table-driven score of a quiet position.
//
// For every line (rows, columns, diagonals) the visible top of each square
// is encoded as a base-9 digit: 0 empty, 1 + 4 * owner + size otherwise, so a
// line of n squares indexes a table of 9^n scores. The table is generated at
// startup from the weights in eval_weights.h: for each player, how many squares
// of the line it already shows, how many opponent pieces it would still have
// to gobble, whether the opponent shows an ungobblable (largest) piece there,
// and how safe (large) its own pieces in the line are. The table value is
// player 1's line value minus player 2's, so the sum over lines is
// antisymmetric by construction; it depends only on the multiset of the
// line's squares, so it is invariant under the 8 board symmetries.
//
// Added to the line sum: visible pieces by size, pieces still in hand (the
// external stacks), and pieces buried under an opponent's piece (a captive,
// weighed by its size for its captor while it stays covered).
#pragma once

#include <array>

#include "engine/board.h"

namespace gobblet {

// Score in centi-units from the side to move's point of view; the same for a
// position and its mirror images, and for a position and its colour swap.
int evaluate(const Board& board);

// The side-independent part (everything but the tempo bonus) from player
// 1's point of view: negated exactly by Board::colorSwapped().
int evaluateForPlayer1(const Board& board);

// The evaluation broken into its terms, for display (the `eval` command) and
// tests; computed directly, not from the line table, so it is slow.
// Each term holds both players' shares (a weight may be negative, and so
// may a share); net() is player 1's share minus player 2's.
struct EvalTerm {
  int player[2] = {0, 0};
  int net() const { return player[0] - player[1]; }
};
struct EvalTerms {
  EvalTerm visible;     // visible pieces by size
  EvalTerm inHand;      // pieces still in hand (the external stacks)
  EvalTerm captives;    // opponent pieces buried under one's visible pieces
  EvalTerm lines;       // line patterns: squares still missing, pieces to gobble
  EvalTerm lineSafety;  // large own pieces in lines holding two or more of them
  int tempo = 0;        // the side to move's bonus
  int forPlayer1 = 0;   // the sum of the nets == evaluateForPlayer1(board)
  int total = 0;        // side to move's view, tempo included == evaluate(board)
};
EvalTerms evaluateTerms(const Board& board);

// ---- The evaluation as a linear function of its weights (for tuning).
//
// Every weight of eval_weights.h has a number, 0 .. kEvalWeightCount - 1:
// each group (one constant of that file) takes rows x columns numbers from
// `first` on, row by row. evaluateFeatures() counts, per player, how often
// each weight is used in a position, so that for every undecided position
//
//   sum over w of weight[w] * (count[0][w] - count[1][w])
//     == evaluate(board) from player 1's view (negated if player 2 is to move)
//
// (the tempo weight is counted once, for the side to move). The counts are
// the direct computation behind evaluateTerms(); tests hold the table-driven
// evaluate() to them.
struct EvalWeightGroup {
  const char* name;     // the constant in eval_weights.h
  const char* comment;  // what it weighs (written above it)
  int rows, columns;    // 1 x 1: a scalar constant
  int first;            // number of its first weight
};
inline constexpr EvalWeightGroup kEvalWeightGroups[] = {
    {"kLine",
     "Line value for a player by squares still missing (n - own visible count)\n"
     "and by opponent pieces in the line that would have to be gobbled:\n"
     "kLine[missing][opponentPieces]. A line with an opponent's rank-0 piece is\n"
     "worth nothing (it cannot be completed while that piece stays).",
     5, 5, 0},
    {"kSafeInLine", "Bonus per own piece in a line with at least two own pieces, by rank.", 1, 4, 25},
    {"kVisible", "Per visible piece on the board, by rank.", 1, 4, 29},
    {"kInHand", "Per piece still in hand (external stacks / supply), by rank.", 1, 4, 33},
    {"kCaptive", "Per opponent piece buried under one of our visible pieces, by its rank.", 1, 4, 37},
    {"kTempo", "The side to move's bonus.", 1, 1, 41},
};
inline constexpr int kEvalWeightCount = 42;
// Every weight lies within +-kMaxEvalWeight (checked at compile time), so a
// line's table entry -- at most kLine plus four kSafeInLine per player --
// fits the table's 16 bits.
inline constexpr int kMaxEvalWeight = 1000;
using EvalWeights = std::array<int, kEvalWeightCount>;

// The weights compiled in (eval_weights.h), numbered as above.
EvalWeights evalWeights();

struct EvalFeatures {
  std::array<std::array<int, kEvalWeightCount>, 2> count{};  // [player][weight]
};
// The counts of an undecided position (see above).
EvalFeatures evaluateFeatures(const Board& board);

}  // namespace gobblet
