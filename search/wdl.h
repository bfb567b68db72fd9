// Win/draw/loss: the chances a score stands for, from the side to move's
// view, in per mille (W + D + L = 1000), as `info ... wdl W D L` reports
// them (UCI_ShowWDL) and the board shows them.
//
// The model (fitted by tools/datagen/fit_wdl.py to the results of self-play
// games, one fit for each evaluation's scale: search/wdl_model_net.h and
// search/wdl_model_hand_written.h; docs/search.md, "Win/draw/loss"): with x
// the score in centi-units and t the share of the variant's pieces on the
// board,
//
//   W = 1 / (1 + exp((a(t) - x) / b(t)))    L = 1 / (1 + exp((a(t) + x) / b(t)))    D = 1 - W - L
//
// a and b cubic polynomials in t. A decided score is 1000 0 0 (a win),
// 0 0 1000 (a loss) or 0 1000 0 (a draw: an exact value of 0, or a game
// drawn on the board); an estimate never gives 1000 to any share. W grows and L falls with the score; the model was
// fitted on 4x4 Gobblet and gives the 3x3 variants the same curves by
// their share of pieces placed.
#pragma once

#include "engine/board.h"
#include "engine/game.h"

namespace gobblet {

// Per mille, W + D + L = 1000.
struct WinDrawLoss {
  int win = 0, draw = 1000, loss = 0;
  friend bool operator==(const WinDrawLoss&, const WinDrawLoss&) = default;
};

// Which evaluation a score comes from: a net's scores and the hand-written
// evaluation's mean other chances, and each has its own fitted model.
enum class ScoreScale { kHandWritten, kNet };

// The chances of a score (the side to move's view) in `board`: `value`
// centi-units of `scale`'s evaluation, or if `decided` plies to the end
// (> 0 a win, < 0 a loss, 0 a draw, or a game already over: its winner is
// on the board).
WinDrawLoss winDrawLoss(int value, bool decided, const Board& board, ScoreScale scale);

namespace nnue {
struct Network;  // search/nnue/network.h
}

// The chances of a game's position without a search (`query wdl`): a game
// over by its result; a win in one as a win; else the static evaluation's,
// the one the search uses: `net`'s where it is given and the variant is
// its own, else evaluate()'s.
WinDrawLoss positionChances(const Game& game, const nnue::Network* net = nullptr);

}  // namespace gobblet
