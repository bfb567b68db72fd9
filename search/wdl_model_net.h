// The win/draw/loss model of search/wdl.h: written by tools/datagen/fit_wdl.py.
// Do not edit by hand: run the fit again (docs/search.md, "Win/draw/loss").
//
// Fitted by `tools/datagen/fit_wdl.py --steps 3000` to 110539 undecided positions of 3000 self-play games:
// wdl-net.gdata (seed 2026, nodes 20000, depth 0, random plies 8, net 59730eaea4f09d35). Mean negative
// log-likelihood 1.04233 -> 0.69076.
#pragma once

namespace gobblet::wdl_model::net {

// a(t) and b(t), centi-units: a0 + a1 t + a2 t^2 + a3 t^3, t the share of the pieces on the board.
inline constexpr double kA[4] = {3.2217, 30.5208, -90.8524, 84.9923};
inline constexpr double kB[4] = {18.7768, -8.9946, 13.4984, -8.7890};

}  // namespace gobblet::wdl_model::net
