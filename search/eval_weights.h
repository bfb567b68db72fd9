// The evaluation's weights (data), in centi-units. "rank" counts down from
// the largest size: rank 0 is the largest piece of the variant (X in 4x4, L
// in Gobblers), which no piece can gobble. search/evaluate.h numbers them and
// says how each is used; gobblet-tune (tools/tune) fits them to game results
// and writes this file anew (docs/search.md), or edit it by hand.
//
// Values: fitted by gobblet-tune (11 steps, ridge 1e-07) to 160954 quiet positions of 8300 gobblet
//   games (set8k.rec), K = 3.3389; mean squared error on them 0.207919 -> 0.182003, on 17492
//   positions of held-out games 0.214207 -> 0.187883.

#pragma once

namespace gobblet::eval_weights {

// Line value for a player by squares still missing (n - own visible count)
// and by opponent pieces in the line that would have to be gobbled:
// kLine[missing][opponentPieces]. A line with an opponent's rank-0 piece is
// worth nothing (it cannot be completed while that piece stays).
constexpr int kLine[5][5] = {
    {0, 0, 0, 0, 0},
    {61, 23, 0, 0, 0},
    {10, 14, 15, 0, 0},
    {10, 12, 6, 5, 0},
    {0, 14, 5, 0, 0},
};

// Bonus per own piece in a line with at least two own pieces, by rank.
constexpr int kSafeInLine[4] = {9, -6, -3, -3};

// Per visible piece on the board, by rank.
constexpr int kVisible[4] = {4, 19, 69, 41};

// Per piece still in hand (external stacks / supply), by rank.
constexpr int kInHand[4] = {18, -16, 36, 16};

// Per opponent piece buried under one of our visible pieces, by its rank.
constexpr int kCaptive[4] = {0, 37, -43, -20};

// The side to move's bonus.
constexpr int kTempo = 18;

}  // namespace gobblet::eval_weights
