// The order of the first layer's hidden units in memory. The hidden layer
// meets its 256 inputs in groups of four (kernels.cpp) and skips a group
// whose four inputs the clamp made 0; the units of the built-in net are
// each active (above 0) from under 10 % to over 90 % of positions, so in
// the file's order nearly nine groups in ten hold an active unit. Sorted
// by how often they are active, rarely active units share groups, and
// about seven in ten do (unitsByActivity's sample; docs/nnue.md "Speed").
//
// The order changes no integer: an accumulator unit, its two inputs to
// the hidden layer and their weights move together, and the file keeps
// its own order (Network::fileUnit; serializeNetwork writes the file's).
#pragma once

#include <array>
#include <cstdint>

#include "network.h"

namespace gobblet::nnue {

using UnitOrder = std::array<uint8_t, kHidden>;

// The units sorted by how often they are above 0 in the positions of a
// fixed sample (random games of 4x4 Gobblet from a fixed seed, both
// perspectives), the least often first, ties by position: the same order
// on every machine for the same net.
UnitOrder unitsByActivity(const Network& net);

// Moves unit order[p] to position p, for each p (order must be a
// permutation of 0..kHidden-1): b0, the rows of W0, both of the hidden
// layer's inputs of each unit and fileUnit. Every evaluation stays the same.
void reorderHiddenUnits(Network& net, const UnitOrder& order);

}  // namespace gobblet::nnue
