// The evaluation as the prover's guide (proof/guide.h): the chance that a
// side wins a position, from the net's score or the hand-written
// evaluation's, through the fitted win/draw/loss model (search/wdl.h). The
// proof library cannot link the search; the doors that link both
// (`gobblet-prove prove --guide`, `go prove` with the ProofGuide option)
// make the guide here.
#pragma once

#include <memory>
#include <optional>
#include <string_view>

#include "engine/variant.h"
#include "proof/guide.h"
#include "search/eval_file.h"

namespace gobblet {

enum class ProofGuideKind { kNone, kEval, kNet };

// "none", "eval", "net"; nullopt for any other word.
std::optional<ProofGuideKind> parseProofGuide(std::string_view word);
const char* proofGuideWord(ProofGuideKind kind);

// The guide of `kind` for positions of `variant`; null for kNone. kNet
// evaluates with `net` (null: the built-in one), in 4x4 Gobblet only: in
// the other variants, which no net evaluates, it is the hand-written
// evaluation's guide, as the search does. A position's chance for a side
// is its share of wins in the model (draws count as not won).
std::shared_ptr<const proof::ProofGuide> makeProofGuide(ProofGuideKind kind, const Variant& variant,
                                                        std::shared_ptr<const nnue::Network> net = nullptr);

}  // namespace gobblet
