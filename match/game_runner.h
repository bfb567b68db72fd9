// Game runner: one refereed game between two engine players.
//
// The steps: both engines get a new game (an engine that fails to start or
// to answer readyok forfeits); the opening's moves are played; then, until
// the referee ends the game, the mover gets the whole history and its go
// line, and its answer is timed and checked. A timeout is a time forfeit
// when the mover has a clock or a move time, otherwise the engine is
// unresponsive; an engine that exits loses by crash; a move the referee
// rejects loses. A failed engine is stopped and restarted for its next game.
#pragma once

#include <cstdint>

#include "match/engine_player.h"
#include "match/game_record.h"
#include "match/openings.h"

namespace gobblet::match {

struct GameSettings {
  int maxPlies = 400;         // draw after this many plies (0 = no limit)
  int64_t marginMs = 100;     // time allowed beyond the clock or move time
  int64_t timeoutMs = 10000;  // longest wait for a bestmove without clock or move time
};

// Plays one game, `player1` moving first from the opening's start position
// (if the start position has player 2 to move, `player2` moves first).
GameRecord playGame(EnginePlayer& player1, EnginePlayer& player2, const Opening& opening, const GameSettings& settings);

}  // namespace gobblet::match
