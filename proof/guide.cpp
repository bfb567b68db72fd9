#include "guide.h"

#include <algorithm>
#include <cmath>

namespace gobblet::proof {

double guideChance(double value) { return std::isnan(value) ? 0.5 : std::clamp(value, 0.0, 1.0); }

}  // namespace gobblet::proof
