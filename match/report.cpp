#include "match/report.h"

#include <cmath>
#include <cstdio>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace gobblet::match {

namespace {

std::string signedNumber(double x) {
  if (std::isinf(x)) return x > 0 ? "+inf" : "-inf";
  return absl::StrFormat("%+.1f", x);
}

// "LLR 1.61 [-1.39, 1.39]", and once the test has decided (the LLR is then
// the one it decided at, frozen): ", H1 accepted after 7 games".
std::string sprtText(const TournamentState& state, const TournamentSettings& settings) {
  const SprtParams& p = *settings.sprt;
  std::string text = absl::StrFormat("LLR %.2f [%.2f, %.2f]", state.llr, p.lowerBound(), p.upperBound());
  if (state.decision != SprtDecision::kContinue)
    absl::StrAppend(&text, ", ", toString(state.decision), " after ", state.decidedAfter, " games");
  return text;
}

}  // namespace

std::string formatElo(const EloEstimate& e) {
  return absl::StrCat(signedNumber(e.elo), " +- ",
                      std::isinf(e.margin95) ? std::string("inf") : absl::StrFormat("%.1f", e.margin95));
}

std::string progressLine(const GameRecord& record, const TournamentState& state, const TournamentSettings& settings) {
  std::string line =
      absl::StrCat("game ", record.number, "/", state.gamesPlanned, ": ", record.player1, " vs ", record.player2, " ",
                   resultToString(record.result), " (", toString(record.termination), ")");
  for (const PairingScore& p : state.pairings) {
    if (p.score.games() == 0) continue;
    absl::StrAppend(&line, " | ", settings.engines[p.first].name, " vs ", settings.engines[p.second].name, " ",
                    p.score.wins, "-", p.score.draws, "-", p.score.losses,
                    absl::StrFormat(" [%.3f] Elo ", p.score.ratio()), formatElo(estimateElo(p.score)));
  }
  if (settings.sprt) absl::StrAppend(&line, " | ", sprtText(state, settings));
  return line;
}

std::string finalReport(const TournamentState& state, const TournamentSettings& settings) {
  std::string out = absl::StrCat("\nvariant ", settings.variant.name(), ", ", state.gamesPlayed, " of ",
                                 state.gamesPlanned, " games played\n");
  absl::StrAppend(&out, absl::StrFormat("%-32s %6s %5s %5s %5s %7s %18s %7s\n", "pairing", "games", "W", "D", "L",
                                        "score", "Elo +- 95%", "LOS"));
  for (const PairingScore& p : state.pairings) {
    const Score& s = p.score;
    absl::StrAppend(&out, absl::StrFormat("%-32s %6d %5d %5d %5d %7.3f %18s %6.1f%%\n",
                                          settings.engines[p.first].name + " vs " + settings.engines[p.second].name,
                                          s.games(), s.wins, s.draws, s.losses, s.ratio(), formatElo(estimateElo(s)),
                                          100 * likelihoodOfSuperiority(s)));
  }
  if (settings.engines.size() > 2) {
    std::vector<Score> totals(settings.engines.size());
    for (const PairingScore& p : state.pairings) {
      totals[p.first].wins += p.score.wins, totals[p.second].wins += p.score.losses;
      totals[p.first].losses += p.score.losses, totals[p.second].losses += p.score.wins;
      totals[p.first].draws += p.score.draws, totals[p.second].draws += p.score.draws;
    }
    absl::StrAppend(&out, absl::StrFormat("\n%-32s %6s %5s %5s %5s %7s %18s\n", "engine (vs the field)", "games", "W",
                                          "D", "L", "score", "Elo +- 95%"));
    for (size_t i = 0; i < totals.size(); ++i)
      absl::StrAppend(&out, absl::StrFormat("%-32s %6d %5d %5d %5d %7.3f %18s\n", settings.engines[i].name,
                                            totals[i].games(), totals[i].wins, totals[i].draws, totals[i].losses,
                                            totals[i].ratio(), formatElo(estimateElo(totals[i]))));
  }
  if (settings.sprt) {
    const SprtParams& p = *settings.sprt;
    absl::StrAppend(&out, absl::StrFormat("\nSPRT elo0=%g elo1=%g alpha=%g beta=%g: %s", p.elo0, p.elo1, p.alpha,
                                          p.beta, sprtText(state, settings)));
    if (state.decision == SprtDecision::kContinue) absl::StrAppend(&out, ", no decision");
    const int late = state.gamesPlayed - state.decidedAfter;
    if (state.decision != SprtDecision::kContinue && late > 0)
      absl::StrAppend(&out, " (the table also counts the ", late, late == 1 ? " game" : " games", " under way then)");
    absl::StrAppend(&out, "\n");
  }
  return out;
}

}  // namespace gobblet::match
