#include "search/search_params.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "engine/bounded_integer.h"
#include "engine/printable_text.h"

namespace gobblet {

namespace {

SearchParams gParams;

// Late-move reductions by depth and move number, rebuilt when an LMR value
// changes.
struct Reductions {
  int8_t r[64][256];
  void build(const SearchParams& p) {
    for (int d = 0; d < 64; ++d)
      for (int m = 0; m < 256; ++m)
        r[d][m] = static_cast<int8_t>(
            d < p.lmrMinDepth || m < p.lmrMinMove
                ? 0
                : std::clamp<long>(std::lround(p.lmrBase / 100.0 + std::log(d) * std::log(m) / (p.lmrDivisor / 100.0)),
                                   0, 63));
  }
};

Reductions& reductions() {
  static Reductions table = [] {
    Reductions t;
    t.build(gParams);
    return t;
  }();
  return table;
}

// The one table of the search's parameters: name, field, default is the
// field's initial value, range a tuner may try, and what it does.
struct ParamSpec {
  const char* name;
  int SearchParams::*field;
  int min, max;
  const char* what;
};
constexpr ParamSpec kSearchParamTable[] = {
    {"lmr_min_depth", &SearchParams::lmrMinDepth, 1, 64, "no reduction below this depth"},
    {"lmr_min_move", &SearchParams::lmrMinMove, 2, 256, "no reduction for the moves before this one"},
    {"lmr_base", &SearchParams::lmrBase, -200, 300, "reduction offset, in hundredths of a ply"},
    {"lmr_divisor", &SearchParams::lmrDivisor, 50, 1000, "ln(depth) * ln(move) is divided by this / 100"},
    {"null_min_depth", &SearchParams::nullMinDepth, 1, 64, "no null move below this depth"},
    {"null_reduction", &SearchParams::nullReduction, 1, 10, "the pass searches this many plies shallower"},
    {"null_depth_divisor", &SearchParams::nullDepthDivisor, 1, 64, "and depth / this more"},
    {"aspiration_min_depth", &SearchParams::aspirationMinDepth, 1, 100, "full windows below this depth"},
    {"aspiration_delta", &SearchParams::aspirationDelta, 1, 1000, "first half-width of the window"},
    {"aspiration_growth", &SearchParams::aspirationGrowth, 0, 1000,
     "added to the half-width (and half of it) per fail"},
    {"aspiration_max_delta", &SearchParams::aspirationMaxDelta, 1, 30000, "a full window once wider than this"},
    {"history_depth_factor", &SearchParams::historyDepthFactor, 0, 1000, "cutoff bonus per depth squared"},
    {"history_max_bonus", &SearchParams::historyMaxBonus, 0, 16384, "cutoff bonus cap"},
    {"order_lines", &SearchParams::orderLines, 0, 1024, "ordering score per line through the target square"},
    {"order_size", &SearchParams::orderSize, 0, 1024, "ordering score per size step of the piece"},
    {"order_gobble", &SearchParams::orderGobble, 0, 4096, "ordering bonus for covering an opponent piece"},
    {"order_uncover", &SearchParams::orderUncover, 0, 4096, "ordering malus for lifting off an opponent piece"},
    {"order_largest_drop", &SearchParams::orderLargestDrop, 0, 4096,
     "ordering bonus for a largest piece from the hand"},
    {"smp_skip_cycle", &SearchParams::smpSkipCycle, 2, 100, "helper k skips depths d with (d + k) % this == 0"},
    {"tm_moves_to_go", &SearchParams::tmMovesToGo, 2, 100, "sudden death: the time left is split over this many moves"},
    {"tm_inc_percent", &SearchParams::tmIncPercent, 0, 100, "and this % of the increment added"},
    {"tm_stop_percent", &SearchParams::tmStopPercent, 10, 200, "no new iteration after this % of the soft limit"},
    {"tm_stability", &SearchParams::tmStability, 0, 1,
     "scale the soft limit by the best move's stability (1) or not (0)"},
    {"contempt", &SearchParams::contempt, 0, 200, "a repetition scores -this for the side to move at the root"},
};

}  // namespace

const SearchParams& searchParams() { return gParams; }

int lateMoveReduction(int depth, int moveNumber) {
  return reductions().r[std::clamp(depth, 0, 63)][std::clamp(moveNumber, 0, 255)];
}

absl::Status setSearchParam(std::string_view assignment) {
  const size_t eq = assignment.find('=');
  if (eq == std::string_view::npos)
    return absl::InvalidArgumentError(
        absl::StrCat("search parameter ", quoteWord(assignment), ": expected NAME=VALUE"));
  const std::string_view name = assignment.substr(0, eq);
  for (const ParamSpec& p : kSearchParamTable) {
    if (name != p.name) continue;
    auto value = parseBoundedInteger(assignment.substr(eq + 1), p.min, p.max, p.name);
    if (!value.ok()) return value.status();
    gParams.*p.field = static_cast<int>(*value);
    reductions().build(gParams);
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(
      absl::StrCat("no search parameter ", quoteWord(name), " (gobblet --params lists them)"));
}

void resetSearchParams() {
  gParams = SearchParams{};
  reductions().build(gParams);
}

std::vector<std::string> describeSearchParams() {
  const SearchParams defaults;
  std::vector<std::string> lines;
  for (const ParamSpec& p : kSearchParamTable)
    lines.push_back(absl::StrCat(p.name, " ", gParams.*p.field, " (default ", defaults.*p.field, ") [", p.min, ", ",
                                 p.max, "] ", p.what));
  return lines;
}

}  // namespace gobblet
