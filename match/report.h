// Report: the text a match prints, live and at the end.
//
//   progress line  after each game: its number, players, result and reason,
//                  then each pairing's W-D-L, score, Elo +- 95% and, with an
//                  SPRT, the LLR against its bounds
//   final table    per pairing: games, W/D/L, score, Elo +- error, LOS; per
//                  engine (3+ engines): totals over all its games; the SPRT
//                  verdict if one ran
#pragma once

#include <string>

#include "match/game_record.h"
#include "match/tournament.h"

namespace gobblet::match {

std::string progressLine(const GameRecord& record, const TournamentState& state, const TournamentSettings& settings);
std::string finalReport(const TournamentState& state, const TournamentSettings& settings);

// "+12.3 +- 45.6" (infinite values as "inf").
std::string formatElo(const EloEstimate& estimate);

}  // namespace gobblet::match
