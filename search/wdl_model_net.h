// The win/draw/loss model of search/wdl.h: written by tools/datagen/fit_wdl.py.
// Do not edit by hand: run the fit again (docs/search.md, "Win/draw/loss").
//
// Fitted by `tools/datagen/fit_wdl.py --steps 3000` to 105486 undecided positions of 3000 self-play games:
// wdl-net.gdata (seed 2026, nodes 20000, depth 0, random plies 8, net 81a9a05b15d0f081). Mean negative
// log-likelihood 1.03428 -> 0.69934.
#pragma once

namespace gobblet::wdl_model::net {

// a(t) and b(t), centi-units: a0 + a1 t + a2 t^2 + a3 t^3, t the share of the pieces on the board.
inline constexpr double kA[4] = {2.8498, 34.3504, -102.7906, 99.4689};
inline constexpr double kB[4] = {22.1171, -16.3496, 32.9665, -23.0081};

}  // namespace gobblet::wdl_model::net
