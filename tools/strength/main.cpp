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

#include "engine/game.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "search/eval_file.h"
#include "search/evaluate.h"
#include "search/search.h"
#include "tools/command_line/command_line.h"

namespace {

using namespace gobblet;
namespace cli = gobblet::cli;

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

// What gobblet-strength accepts.
cli::Program commandLine() {
  cli::Program p;
  p.name = "gobblet-strength";
  p.summary = "Plays the engine (in process) against a simple opponent and prints each result and the score.";
  p.syntax.options = {
      cli::choice("--opponent", {"random", "greedy"},
                  "a uniformly random mover, or a one-ply player that takes wins and avoids losses")
          .withDefault("greedy"),
      cli::integer("--games", "N", 1, 1000000, "games to play, the engine alternating colours").withDefault(100),
      cli::integer("--movetime", "MS", 1, 3600000, "the engine's time per move in milliseconds").withDefault(100),
      cli::text("--variant", "V", gobblet::variantNamesText()).withDefault("gobblet"),
      cli::integer("--random-plies", "K", 0, 1000, "random plies for both sides at the start of each game")
          .withDefault(2),
      cli::integer("--seed", "S", 0, INT64_MAX, "seed of the random moves").withDefault(1),
      cli::integer("--threads", "T", 1, 64, "the engine's search threads").withDefault(1),
  };
  return p;
}

// The games, with the arguments checked.
int play(const cli::Program& program, const cli::Arguments& args, const cli::UsageFn& usage) {
  const std::string opponent = args.text("--opponent");
  const int games = static_cast<int>(args.integer("--games"));
  const int moveTime = static_cast<int>(args.integer("--movetime"));
  const int randomPlies = static_cast<int>(args.integer("--random-plies"));
  const uint64_t seed = static_cast<uint64_t>(args.integer("--seed"));
  const int threads = static_cast<int>(args.integer("--threads"));
  const auto variant = Variant::parse(args.text("--variant"));
  if (!variant.ok()) return usage(variant.status().message());

  std::mt19937_64 rng(seed);
  Search search;
  SearchOptions options;
  options.threads = threads;
  options.moveOverheadMs = 0;
  options.net = builtInNet();  // the engine's default evaluation (4x4 Gobblet: the net)
  if (absl::Status status = search.setOptions(options); !status.ok()) {
    return cli::failure(program, status.message());
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

}  // namespace

int main(int argc, char** argv) {
  const cli::Program program = commandLine();
  return cli::runMain(program, argc, argv, [&program](const cli::Arguments& args, const cli::UsageFn& usage) {
    return play(program, args, usage);
  });
}
