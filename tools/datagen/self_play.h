// Self-play for training data: the engine's search plays games against
// itself from random openings and every position it searched is written
// with its score, its depth and the game's result (training_data.h).
//
// Game number g is a function of the settings and g alone: its opening is
// drawn from a generator seeded with (seed, g), and each game starts with an
// empty transposition table, a search of one thread with a node or depth
// limit. The games are written in their order, whatever the threads, so a
// file is the same for any --threads, and a stopped run that is resumed
// writes what an unstopped one would have.
//
// Which positions are written: every position the search played a move
// from, after the random opening plies (not the opening's own, which no
// search chose); a position already in the file (the same pieces and side
// to move, by its 64-bit key) is left out, so each position appears once,
// with the first game that reached it. Decided positions (the search saw a
// forced win or loss) are kept and flagged kDecided; the trainer chooses.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/game.h"
#include "search/search.h"
#include "tools/datagen/training_data.h"

namespace gobblet::datagen {

struct PlayedGame {
  std::vector<PositionRecord> records;  // every searched position, in order
  std::vector<uint64_t> keys;           // their Board::key()
  GameResult result = GameResult::kNone;
  bool reachedPlyLimit = false;  // a draw by the ply limit
};

// Plays game number `game` of `settings` with `search` (its options set
// to one thread and settings.hashMiB). Fails if the opening cannot be
// drawn or the search cannot run; `stop`, when set, ends it within a few
// milliseconds, in the middle of a search too (Cancelled).
absl::StatusOr<PlayedGame> playGame(const DataSettings& settings, uint64_t game, Search& search,
                                    const std::atomic<bool>* stop = nullptr);

struct Progress {
  uint64_t gamesFinished = 0;  // in the file
  uint64_t records = 0;        // in the file
  uint64_t duplicates = 0;     // positions of this run left out as already written
  uint64_t decided = 0;        // records of this run flagged kDecided
  uint64_t wins[2] = {0, 0};   // games of this run won by player 1 / player 2
  uint64_t draws = 0;          // ... drawn (repetition, no moves, or the ply limit)
  double seconds = 0;          // since the run began
  bool stopped = false;        // ended by `stop` before the games asked for
};

struct GenerateOptions {
  uint64_t games = 0;  // the file's games when done (those already in it count)
  int threads = 1;     // games played at once
  // The net the searches evaluate with (null: the hand-written evaluation);
  // it must be the one the file's settings name (DataSettings::net).
  std::shared_ptr<const nnue::Network> net;
  const std::atomic<bool>* stop = nullptr;
  std::function<void(const Progress&)> onProgress;  // after each game written
};

// Plays and writes games gamesFinished() .. options.games - 1. A failed
// write ends the run with that error (the file keeps its finished games);
// a net that is not the settings' one, or a net for a variant it does not
// describe, is refused (InvalidArgument) before any game.
absl::StatusOr<Progress> generate(TrainingDataWriter& writer, const GenerateOptions& options);

}  // namespace gobblet::datagen
