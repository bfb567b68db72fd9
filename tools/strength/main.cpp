// gobblet-strength: the engine (in process, through the Search API) against
// simple opponents, to check that the search plays sound Gobblet.
//
//   gobblet-strength [--opponent random|greedy] [--games N] [--movetime MS]
//                    [--variant V] [--random-plies K] [--seed S] [--threads T]
//
// Opponents: "random" plays a uniformly random legal move; "greedy" looks
// one ply ahead: it plays a winning move if it has one, never a move that
// loses on the spot (revealing an opponent line), and otherwise the move
// after which the static evaluation is best for it, ties broken at random.
// The engine alternates colours; the first K plies of each game (default 2)
// are random for both sides so that games differ. A game still running
// after 300 plies is scored a draw. Prints each game's result and the totals.
#include <chrono>
#include <cstdio>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>

#include "engine/bounded_integer.h"
#include "engine/game.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "search/evaluate.h"
#include "search/search.h"

namespace {

using namespace gobblet;

Move randomMove(const Board& b, std::mt19937_64& rng) {
  MoveList list;
  generateMoves(b, list);
  return list[static_cast<int>(rng() % list.size())];
}

Move greedyMove(const Board& b, std::mt19937_64& rng) {
  MoveList list;
  generateMoves(b, list);
  const int us = b.sideToMove();
  int best = -1 << 30, ties = 0;
  Move choice = list[0];
  for (Move m : list) {
    Board after = b;
    after.makeMove(m);
    const int winner = after.winner();
    const int score = winner == us ? 1 << 20 : winner != kNoWinner ? -(1 << 20) : -evaluate(after);
    if (score > best) {
      best = score;
      choice = m;
      ties = 1;
    } else if (score == best && rng() % ++ties == 0) {
      choice = m;
    }
  }
  return choice;
}

int usage(const std::string& why) {
  std::fprintf(stderr,
               "error: %s\nusage: gobblet-strength [--opponent random|greedy] [--games N] [--movetime MS] "
               "[--variant V] [--random-plies K] [--seed S] [--threads T]\n",
               why.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string opponent = "greedy", variantText = "gobblet";
  int games = 100, moveTime = 100, randomPlies = 2, threads = 1;
  uint64_t seed = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) return usage("missing value after " + arg);
    const std::string value = argv[++i];
    bool ok = true;
    // A number flag's value in [lo, hi].
    const auto number = [&](auto& out, int64_t lo, int64_t hi) {
      auto n = parseBoundedInteger(value, lo, hi, arg);
      if (n.ok()) out = static_cast<std::remove_reference_t<decltype(out)>>(*n);
      return n.ok();
    };
    if (arg == "--opponent") {
      opponent = value;
      ok = opponent == "random" || opponent == "greedy";
    } else if (arg == "--variant") {
      variantText = value;
    } else if (arg == "--games") {
      ok = number(games, 1, 1000000);
    } else if (arg == "--movetime") {
      ok = number(moveTime, 1, 3600000);
    } else if (arg == "--random-plies") {
      ok = number(randomPlies, 0, 1000);
    } else if (arg == "--seed") {
      ok = number(seed, 0, INT64_MAX);
    } else if (arg == "--threads") {
      ok = number(threads, 1, 64);
    } else {
      return usage("unknown option " + arg);
    }
    if (!ok) return usage("bad value '" + value + "' for " + arg);
  }
  const auto variant = Variant::parse(variantText);
  if (!variant.ok()) return usage(std::string(variant.status().message()));

  std::mt19937_64 rng(seed);
  Search search;
  SearchOptions options;
  options.threads = threads;
  options.moveOverheadMs = 0;
  if (absl::Status status = search.setOptions(options); !status.ok()) {
    std::fprintf(stderr, "error: %s\n", std::string(status.message()).c_str());
    return 1;
  }
  int wins = 0, draws = 0, losses = 0;
  long long depthSum = 0, searches = 0;
  for (int g = 0; g < games; ++g) {
    const int engineSide = g % 2;
    Game game{Board(*variant)};
    search.newGame();
    for (int ply = 0; ply < 300 && game.result() == GameResult::kNone; ++ply) {
      const Board& b = game.position();
      Move m;
      if (ply < randomPlies) {
        m = randomMove(b, rng);
      } else if (b.sideToMove() == engineSide) {
        SearchLimits limits;
        limits.moveTime = moveTime;
        const auto r = search.searchSync(game, limits);
        m = r.best;
        depthSum += r.info.depth;
        ++searches;
      } else {
        m = opponent == "random" ? randomMove(b, rng) : greedyMove(b, rng);
      }
      game.play(m);
    }
    const GameResult result = game.result();
    const char* outcome = "draw";
    if (result == GameResult::kPlayer1Wins || result == GameResult::kPlayer2Wins) {
      const bool engineWon = (result == GameResult::kPlayer1Wins) == (engineSide == 0);
      engineWon ? ++wins : ++losses;
      outcome = engineWon ? "win" : "loss";
    } else {
      ++draws;
    }
    std::printf("game %d engine=p%d plies=%zu %s\n", g + 1, engineSide + 1, game.moves().size(), outcome);
    std::fflush(stdout);
  }
  std::printf("engine vs %s, %s, %d games at %d ms/move: +%d =%d -%d, score %.1f%%, mean depth %.1f\n",
              opponent.c_str(), variant->name().c_str(), games, moveTime, wins, draws, losses,
              100.0 * (wins + 0.5 * draws) / games, searches ? static_cast<double>(depthSum) / searches : 0.0);
  return 0;
}
