// gobblet-datagen: self-play games of the engine against itself, written as
// training data for a learned evaluation (self_play.h, training_data.h;
// docs/datagen.md).
//
//   gobblet-datagen --out FILE --games N [--threads T] [--nodes N] [--depth D]
//                   [--random-plies P] [--ply-limit L] [--hash MiB] [--seed S]
//                   [--variant V] [--net built-in|FILE] [--repair] [--quiet]
//
// If FILE exists, the run goes on where it stopped (same settings asked);
// one run at a time writes a file (a second is refused at once).
// Progress goes to standard error every two seconds; SIGINT or SIGTERM end
// the run after the games written so far, saying how to go on.
#include <signal.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/variant.h"
#include "search/eval_file.h"
#include "tools/command_line/command_line.h"
#include "tools/datagen/self_play.h"

namespace {

using namespace gobblet;
using namespace gobblet::datagen;
namespace cli = gobblet::cli;

std::atomic<bool> gStop{false};
std::atomic<int> gSignal{0};

extern "C" void onSignal(int signal) {
  gSignal.store(signal);
  gStop.store(true);
}

cli::Program commandLine() {
  cli::Program p;
  p.name = "gobblet-datagen";
  p.summary = "Plays the engine against itself and writes the positions, scores and results as training data.";
  const DataSettings d;
  p.syntax.options = {
      cli::text("--out", "FILE", "the training data file: made, or gone on with if it exists"),
      cli::integer("--games", "N", 1, UINT32_MAX, "the games the file holds when done (those in it count)"),
      cli::integer("--threads", "T", 1, 256, "games played at once, one search thread each").withDefault(1),
      cli::integer("--nodes", "N", 0, UINT32_MAX, "nodes of each move's search (0: no limit)").withDefault(20000),
      cli::integer("--depth", "D", 0, 64, "depth of each move's search (0: no limit)").withDefault(0),
      cli::integer("--random-plies", "P", 0, 64, "uniformly random plies that open each game")
          .withDefault(d.randomPlies),
      cli::integer("--ply-limit", "L", 1, 60000, "a game that reaches this many plies is a draw")
          .withDefault(d.plyLimit),
      cli::integer("--hash", "MiB", 1, 4096, "transposition table of each game's search").withDefault(d.hashMiB),
      cli::integer("--seed", "S", 0, INT64_MAX, "seed of the random openings")
          .withDefault(static_cast<int64_t>(d.seed)),
      cli::text("--variant", "V", "the variant of the games").withDefault(d.variant.name()),
      cli::text("--net", "NET",
                "search with a net: built-in (the engine's), or a net file (default: the hand-written evaluation)"),
      cli::flag("--repair",
                "a file refused for a damaged record: keep the whole games before that record, cut the rest, go on"),
      cli::flag("--quiet", "no progress lines"),
  };
  p.notes =
      "The file's format: docs/datagen.md. The same settings and --games give the\n"
      "same file for any --threads, stopped and resumed or not.";
  return p;
}

std::string duration(double seconds) {
  const int64_t s = static_cast<int64_t>(seconds + 0.5);
  if (s >= 3600) return absl::StrFormat("%dh%02dm", s / 3600, s / 60 % 60);
  if (s >= 60) return absl::StrFormat("%dm%02ds", s / 60, s % 60);
  return absl::StrFormat("%ds", s);
}

std::string progressLine(const Progress& p, uint64_t startGames, uint64_t startRecords, uint64_t games) {
  const uint64_t played = p.gamesFinished - startGames;
  const uint64_t written = p.records - startRecords;
  const double rate = p.seconds > 0 ? written / p.seconds : 0;
  std::string line =
      absl::StrFormat("games %d/%d, positions %d (+%d this run, %d duplicates left out), %.0f positions/s",
                      p.gamesFinished, games, p.records, written, p.duplicates, rate);
  if (played > 0 && p.gamesFinished < games)
    absl::StrAppend(&line, ", ", duration(p.seconds / played * (games - p.gamesFinished)), " left");
  return line;
}

int runDatagen(const cli::Program& program, const cli::Arguments& args, const cli::UsageFn& usage) {
  if (!args.has("--out")) return usage("--out FILE is needed");
  if (!args.has("--games")) return usage("--games N is needed");
  DataSettings settings;
  auto variant = Variant::parse(args.text("--variant"));
  if (!variant.ok()) return usage(variant.status().message());
  settings.variant = *variant;
  settings.seed = static_cast<uint64_t>(args.integer("--seed"));
  settings.nodes = static_cast<uint32_t>(args.integer("--nodes"));
  settings.depth = static_cast<uint32_t>(args.integer("--depth"));
  if (settings.nodes == 0 && settings.depth == 0) return usage("--nodes 0 and --depth 0: each search would never end");
  settings.randomPlies = static_cast<uint32_t>(args.integer("--random-plies"));
  settings.plyLimit = static_cast<uint32_t>(args.integer("--ply-limit"));
  settings.hashMiB = static_cast<uint32_t>(args.integer("--hash"));
  std::shared_ptr<const nnue::Network> net;
  if (args.has("--net")) {
    const std::string name = args.text("--net");
    if (name == "built-in") {
      net = builtInNet();
    } else {
      auto loaded = loadNetFile(name);
      if (!loaded.ok()) return cli::failure(program, loaded.status().message());
      net = *loaded;
    }
    if (!net) return cli::failure(program, "the built-in net does not parse");
    if (!netEvaluates(settings.variant))
      return usage(absl::StrCat("--net: a net evaluates 4x4 Gobblet only, not ", settings.variant.name()));
    settings.net = netFingerprint(*net);
  }
  const std::string out = args.text("--out");
  const bool quiet = args.has("--quiet");

  // Caught before the file is made: once it exists, a signal ends the run
  // with what it holds and how to go on.
  struct sigaction action = {};
  action.sa_handler = onSignal;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  auto writer =
      TrainingDataWriter::open(out, settings, args.has("--repair") ? OnDamage::kCutToWholeGames : OnDamage::kRefuse);
  if (!writer.ok()) return cli::failure(program, writer.status().message());
  if (!writer->repaired().empty()) std::fprintf(stderr, "gobblet-datagen: repaired %s\n", writer->repaired().c_str());
  const uint64_t startGames = writer->gamesFinished(), startRecords = writer->records();
  GenerateOptions options;
  options.games = static_cast<uint64_t>(args.integer("--games"));
  options.threads = static_cast<int>(args.integer("--threads"));
  options.net = net;
  options.stop = &gStop;
  if (startGames > 0 && !quiet)
    std::fprintf(stderr, "going on with %s: %llu games, %llu positions\n", out.c_str(),
                 static_cast<unsigned long long>(startGames), static_cast<unsigned long long>(startRecords));
  auto lastLine = std::chrono::steady_clock::now();
  if (!quiet)
    options.onProgress = [&](const Progress& p) {
      const auto now = std::chrono::steady_clock::now();
      if (now - lastLine < std::chrono::seconds(2)) return;
      lastLine = now;
      std::fprintf(stderr, "%s\n", progressLine(p, startGames, startRecords, options.games).c_str());
    };

  auto done = generate(*writer, options);
  if (!done.ok())
    return cli::failure(program, absl::StrCat(done.status().message(), " (", out, " holds ", writer->gamesFinished(),
                                              " whole games; the same command goes on)"));
  const Progress& p = *done;
  std::printf("%s\n", progressLine(p, startGames, startRecords, options.games).c_str());
  std::printf("this run: %s; player 1 won %llu, player 2 %llu, drawn %llu; %llu positions decided (a forced result)\n",
              duration(p.seconds).c_str(), static_cast<unsigned long long>(p.wins[0]),
              static_cast<unsigned long long>(p.wins[1]), static_cast<unsigned long long>(p.draws),
              static_cast<unsigned long long>(p.decided));
  std::fflush(stdout);
  if (p.stopped) {
    const int signal = gSignal.load();
    std::fprintf(stderr, "gobblet-datagen: %s: %s holds %llu whole games; the same command goes on\n",
                 signal == SIGINT ? "SIGINT" : "SIGTERM", out.c_str(),
                 static_cast<unsigned long long>(p.gamesFinished));
    ::signal(signal, SIG_DFL);
    ::raise(signal);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const cli::Program program = commandLine();
  return cli::runMain(program, argc, argv, [&program](const cli::Arguments& args, const cli::UsageFn& usage) {
    return runDatagen(program, args, usage);
  });
}
