// certify(): a prover's answer checked by the independent checker before
// anyone is told. The prover (prover.h) and the checker (check.h) share no
// code; this is where the front ends (the protocol's `go prove`, Python's
// gobblet.prove) join them: the certificate is encoded as its file would be
// and the checker replays those bytes by the rules alone.
#pragma once

#include <vector>

#include "proof/check.h"
#include "proof/prover.h"

namespace gobblet::proof {

// A win or a loss with a certificate the checker accepts: `result` as it is,
// `certified` set, its plies the checker's count (the longest game the
// strategy allows). A certificate the checker rejects (a prover's bug): the
// answer becomes unknown, its note the checker's reason. Anything else
// (unknown, a draw, a win whose certificate could not be read back) stays
// as it is, not certified.
// `history`: the game's positions before the proved one (ProverOptions::
// history): the certificate must reach none of them. `database`: what its
// database leaves name (ProverOptions::database); a certificate with one
// is rejected without it.
void certify(ProofResult& result, const std::vector<Board>& history = {}, const KnownPositions* database = nullptr);

// The first move of a certified win (its certificate's root), else Move::none().
Move winningMove(const ProofResult& result);

}  // namespace gobblet::proof
