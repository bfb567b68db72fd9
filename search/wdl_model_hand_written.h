// The win/draw/loss model of search/wdl.h: written by tools/datagen/fit_wdl.py.
// Do not edit by hand: run the fit again (docs/search.md, "Win/draw/loss").
//
// Fitted by `tools/datagen/fit_wdl.py --steps 3000` to 90595 undecided positions of 3000 self-play games:
// wdl.gdata (seed 2026, nodes 20000, depth 0, random plies 8, hand-written evaluation). Mean negative
// log-likelihood 1.06589 -> 0.73471.
#pragma once

namespace gobblet::wdl_model::hand_written {

// a(t) and b(t), centi-units: a0 + a1 t + a2 t^2 + a3 t^3, t the share of the pieces on the board.
inline constexpr double kA[4] = {0.0883, 49.4079, -148.4928, 136.8673};
inline constexpr double kB[4] = {38.3777, -62.4744, 90.4581, -39.0826};

}  // namespace gobblet::wdl_model::hand_written
