// A guide for the prover: an evaluation's view of the positions it meets,
// which the proof-number search (proof/dfpn.h) uses for the initial proof
// and disproof numbers of a new node and the order of a node's moves.
//
// The proof library links the rules core alone, so the guide is given to it
// (ProverOptions::guide): the programs that link the evaluation too fill it
// (protocol/proof_guide.h: the net's evaluation, or the hand-written one).
// Soundness never depends on it: only proved leaves prove and only
// disproved leaves disprove; a guide moves the order in which leaves are
// searched, nothing else. A chance outside [0, 1] is clamped to it, and one
// that is not a number counts as 1/2 (guideChance()).
#pragma once

#include <span>

#include "engine/board.h"
#include "engine/move.h"

namespace gobblet::proof {

class ProofGuide {
 public:
  virtual ~ProofGuide() = default;
  // For each of `moves` (legal moves of `board`, none of which ends the
  // game), the chance that player `player` (0 or 1) wins the position the
  // move reaches, written to the same index of `out` (as long as `moves`).
  // Called from several searcher threads at once: it must be safe so.
  virtual void chances(const Board& board, std::span<const Move> moves, int player, std::span<double> out) const = 0;
};

// A guide's answer made a chance: within [0, 1], 1/2 for a value that is
// not a number.
double guideChance(double value);

}  // namespace gobblet::proof
