// The evaluation's weights (data), in centi-units. "rank" counts down from
// the largest size: rank 0 is the largest piece of the variant (X in 4x4, L
// in Gobblers), which no piece can gobble. search/evaluate.h numbers them and
// says how each is used; gobblet-tune (tools/tune) fits them to game results
// and writes this file anew (docs/search.md), or edit it by hand.
//
// Values: set by hand (before any tuning).

#pragma once

namespace gobblet::eval_weights {

// Line value for a player by squares still missing (n - own visible count)
// and by opponent pieces in the line that would have to be gobbled:
// kLine[missing][opponentPieces]. A line with an opponent's rank-0 piece is
// worth nothing (it cannot be completed while that piece stays).
constexpr int kLine[5][5] = {
    {0, 0, 0, 0, 0},
    {70, 28, 0, 0, 0},
    {16, 7, 2, 0, 0},
    {4, 2, 1, 0, 0},
    {0, 0, 0, 0, 0},
};

// Bonus per own piece in a line with at least two own pieces, by rank.
constexpr int kSafeInLine[4] = {6, 3, 1, 0};

// Per visible piece on the board, by rank.
constexpr int kVisible[4] = {12, 8, 5, 3};

// Per piece still in hand (external stacks / supply), by rank.
constexpr int kInHand[4] = {10, 6, 3, 1};

// Per opponent piece buried under one of our visible pieces, by its rank.
constexpr int kCaptive[4] = {0, 14, 9, 5};

// The side to move's bonus.
constexpr int kTempo = 6;

}  // namespace gobblet::eval_weights
