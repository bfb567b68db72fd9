// The weights file: search/eval_weights.h as gobblet-tune writes it.
//
// The file is C++ the engine compiles: a fixed header, a provenance comment
// (where the values came from), then one named constant per weight group of
// kEvalWeightGroups (search/evaluate.h) with its comment. Writing the
// compiled-in weights with the checked-in file's provenance gives that file
// back byte for byte (tests/tools/tune_test.cpp), so the tool and the source
// cannot drift apart.
#pragma once

#include <string>

#include "search/evaluate.h"

namespace gobblet::tune {

// The file's text. `provenance` is free text, wrapped into comment lines
// ("(not given)" if empty).
std::string formatWeightsFile(const EvalWeights& weights, const std::string& provenance);

// The provenance text of a file written by formatWeightsFile (empty if the
// text is not such a file).
std::string provenanceOf(const std::string& fileText);

}  // namespace gobblet::tune
