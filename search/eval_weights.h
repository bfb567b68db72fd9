// The evaluation's weights (data), in centi-units. "rank" counts down from
// the largest size: rank 0 is the largest piece of the variant (X in 4x4, L
// in Gobblers), which no piece can gobble. search/evaluate.h numbers them and
// says how each is used; gobblet-tune (tools/tune) fits them to game results
// and writes this file anew (docs/search.md), or edit it by hand.
//
// Values: fitted by gobblet-tune (7 steps, ridge 1e-07) to 180508 quiet positions of 8000 gobblet
//   games (selfplay2.rec), K = 3.8360; mean squared error on them 0.174054 -> 0.171194, on 20029
//   positions of held-out games 0.174283 -> 0.170990.

#pragma once

namespace gobblet::eval_weights {

// Line value for a player by squares still missing (n - own visible count)
// and by opponent pieces in the line that would have to be gobbled:
// kLine[missing][opponentPieces]. A line with an opponent's rank-0 piece is
// worth nothing (it cannot be completed while that piece stays).
constexpr int kLine[5][5] = {
    {0, 0, 0, 0, 0},
    {52, 31, 0, 0, 0},
    {8, 14, 19, 0, 0},
    {11, 13, 9, 12, 0},
    {0, 16, 6, 0, 0},
};

// Bonus per own piece in a line with at least two own pieces, by rank.
constexpr int kSafeInLine[4] = {9, -3, -5, -2};

// Per visible piece on the board, by rank.
constexpr int kVisible[4] = {5, 31, 77, 49};

// Per piece still in hand (external stacks / supply), by rank.
constexpr int kInHand[4] = {17, -9, 45, 23};

// Per opponent piece buried under one of our visible pieces, by its rank.
constexpr int kCaptive[4] = {0, 31, -41, -26};

// The side to move's bonus.
constexpr int kTempo = 20;

}  // namespace gobblet::eval_weights
