// Do the ranks of an MPI job run the same thing? A rank started with other
// arguments (another variant of the same size, the engines swapped, another
// --max-plies) or by another build would make a wrong tablebase file or a
// wrong score that nothing else notices, so gobblet-tb build and
// gobblet-match compare, before any work, the build's full version (which
// names its commit: engine/version.h) and a text of what decides their
// results (tools/tb/main.cpp, tools/match/main.cpp). The instruction set is
// not compared: each tier of one version computes the same.
// Built only with MPI (tools/command_line/CMakeLists.txt).
#pragma once

#include <string>

#include "absl/status/status.h"

namespace gobblet::cli {

// Every rank of MPI_COMM_WORLD (MPI started) calls this with `what` it runs.
// OK on every rank if every rank's version and text are rank 0's; else FailedPrecondition
// on every rank: on rank 0 naming the first rank that differs and where its
// text differs from rank 0's, on the others saying that they stopped.
// Unavailable if MPI fails.
absl::Status ranksAgree(const std::string& what);

// The part of `a` and of `b` around their first difference (at most
// `context` characters before it and 2 * `context` from it), "..." where cut.
std::string firstDifference(const std::string& a, const std::string& b, size_t context = 40);

}  // namespace gobblet::cli
