// A search's score as the protocol writes it: the words after `score` in
// an `info` line, which the session, the Python module and the examples
// all print the same way.
#pragma once

#include <string>

#include "search/search.h"  // SearchScore

namespace gobblet {

// "cp 31", "mate -5 upperbound": centi-units or plies to the end (> 0 when
// the side to move wins), then the bound when the score is not exact.
std::string scoreWords(const SearchScore& score);

}  // namespace gobblet
