// The evaluation's net as the layers above the search see it: loaded from
// a file (the EvalFile option) or the one built in, and handed to the
// search through SearchOptions::net. What a net is: search/nnue/network.h.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "search/search.h"

namespace gobblet {

// Reads a net file; refuses, with the reason, a file that is not a whole
// net of this engine's format and sizes for 4x4 Gobblet (a damaged, cut,
// forged or foreign file), and a file over 1 MiB without reading it all.
absl::StatusOr<std::shared_ptr<const nnue::Network>> loadNetFile(const std::string& path);

// Whether a net evaluates `variant`'s positions (4x4 Gobblet only); a
// search of any other variant uses the hand-written evaluation.
bool netEvaluates(const Variant& variant);

// The net built into the program (search/nnue/default.gnn).
std::shared_ptr<const nnue::Network> builtInNet();

// What made a net: the description its file carries.
std::string netDescription(const nnue::Network& net);

// A 64-bit name of the net: the FNV-1a hash of its file's bytes, never 0
// (training data records 0 for the hand-written evaluation).
uint64_t netFingerprint(const nnue::Network& net);

// The net's static evaluation of `board` (4x4 Gobblet), centi-units from
// the side to move's view, computed from the position's features alone.
int netEvaluation(const nnue::Network& net, const Board& board);

}  // namespace gobblet
