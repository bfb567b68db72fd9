// gobblet-puzzles: puzzles with proofs from self-play games, and their check
// (docs/puzzles.md).
//
//   gobblet-puzzles generate --out DIR [--plies-from-end N] [--win-nodes N]
//                            [--loss-nodes N] [--hash MIB] RECORD...
//   gobblet-puzzles check DIR
//
// generate reads the decisive games of record files (PGN or record lines,
// as gobblet-match --record writes them), keeps the positions where the side
// to move has exactly one winning move, proved, and every other move proved
// to lose, and writes DIR/puzzles.txt and DIR/proofs.bin
// (tools/puzzles/puzzle_generator.h). check verifies every puzzle of DIR
// with the independent checker (proof/puzzle_check.h): exit status 0 when
// all are accepted, 1 otherwise. Bad usage: one line on standard error, exit
// status 2.
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/game.h"
#include "engine/notation.h"
#include "match/record_file_reader.h"
#include "proof/puzzle_check.h"
#include "tools/command_line/command_line.h"
#include "tools/puzzles/puzzle_generator.h"

namespace {

using namespace gobblet;
namespace cli = gobblet::cli;

cli::Program commandLine() {
  cli::Program p;
  p.name = "gobblet-puzzles";
  p.summary = "Finds puzzles with proofs in self-play games (one winning move, every other move lost) and checks them.";
  p.commands = {
      {"generate",
       "Reads the decisive games of record files and writes the puzzles found, with their certificates, to DIR.",
       {{cli::text("--out", "DIR", "the folder for puzzles.txt and proofs.bin").withDefault("puzzles"),
         cli::integer("--plies-from-end", "N", 1, 10000, "positions scanned in each game, back from its end")
             .withDefault(12),
         cli::integer("--win-nodes", "N", 1, int64_t{1} << 40, "the prover's budget for the win").withDefault(4000),
         cli::integer("--loss-nodes", "N", 1, int64_t{1} << 40, "the prover's budget for each other move's loss")
             .withDefault(2000),
         cli::integer("--hash", "MIB", 1, 1 << 16, "the prover's table in MiB").withDefault(1),
         cli::integer("--max-quiet", "N", 0, 10000, "other moves that leave the opponent no line in one, at most")
             .withDefault(6),
         cli::integer("--per-ply", "N", 0, 10000, "puzzles at most among the positions one move off a game's ply")
             .withDefault(1),
         cli::integer("--max-proof-bytes", "N", 1, int64_t{1} << 40, "leave out a puzzle whose certificates take more")
             .withDefault(12000),
         cli::integer("--max-puzzles", "N", 0, int64_t{1} << 30, "read no more games once N puzzles are found (0: all)")
             .withDefault(0)},
        {cli::positionals("RECORD", "record files of games (PGN or record lines, gobblet-match --record)")}}},
      {"check",
       "Checks every puzzle of DIR by the rules alone: the solution wins, every other move loses; exit status 0 or 1.",
       {{}, {cli::positional("DIR", "a folder holding puzzles.txt and proofs.bin")}}},
  };
  return p;
}

int generate(const cli::Arguments& args, const cli::UsageFn& usage) {
  puzzles::GeneratorOptions options;
  options.pliesFromEnd = static_cast<int>(args.integer("--plies-from-end"));
  options.winNodes = static_cast<uint64_t>(args.integer("--win-nodes"));
  options.lossNodes = static_cast<uint64_t>(args.integer("--loss-nodes"));
  options.hashMiB = static_cast<size_t>(args.integer("--hash"));
  options.perVariationPly = static_cast<int>(args.integer("--per-ply"));
  options.maxQuietMoves = static_cast<int>(args.integer("--max-quiet"));
  options.variations = options.perVariationPly > 0;
  options.maxProofBytes = static_cast<size_t>(args.integer("--max-proof-bytes"));
  options.maxPuzzles = static_cast<size_t>(args.integer("--max-puzzles"));
  puzzles::PuzzleCollector collector(options);
  collector.onFound([](const puzzles::FoundPuzzle& f) {
    std::fprintf(stderr, "found: %s: rating %d, %d plies, %s\n", f.source.c_str(), f.puzzle.rating, f.puzzle.plies,
                 f.puzzle.solution.c_str());
  });
  int games = 0, decisive = 0, unreadable = 0;
  size_t written = 0;
  const auto header = [&](int decisiveGames) -> std::vector<std::string> {
    return {
        "gobblet puzzles: id, rating, position, solution, line, plies, separated by tabs (docs/puzzles.md)",
        "proofs.bin holds each puzzle's certificates: gobblet-puzzles check DIR verifies them",
        absl::StrCat("generate --plies-from-end ", options.pliesFromEnd, " --win-nodes ", options.winNodes,
                     " --loss-nodes ", options.lossNodes, " --hash ", options.hashMiB, " --max-quiet ",
                     options.maxQuietMoves, " --per-ply ", options.perVariationPly, " --max-proof-bytes ",
                     options.maxProofBytes, " --max-puzzles ", options.maxPuzzles, ": ", collector.found().size(),
                     " puzzles from ", collector.positionsTried(), " positions of ", decisiveGames, " decisive games")};
  };

  for (const std::string& path : args.all("RECORD")) {
    auto reader = match::RecordFileReader::open(path, Variant::gobblet());
    if (!reader.ok()) return usage(reader.status().message());
    while (auto entry = (*reader)->next()) {
      if (options.maxPuzzles > 0 && collector.found().size() >= options.maxPuzzles) break;  // (enough)
      ++games;
      if (!entry->record.ok()) {
        std::fprintf(stderr, "%s: skipped: %s\n", entry->where.c_str(),
                     std::string(entry->record.status().message()).c_str());
        ++unreadable;
        continue;
      }
      const match::GameRecord& record = *entry->record;
      if (record.result != GameResult::kPlayer1Wins && record.result != GameResult::kPlayer2Wins) continue;
      auto start = parsePosition(record.variant, record.start);
      if (!start.ok() || !(record.variant == Variant::gobblet())) {
        ++unreadable;
        continue;
      }
      Game game(*start);
      bool legal = true;
      for (const std::string& m : record.moves) legal = legal && game.play(m).ok();
      if (!legal) {
        std::fprintf(stderr, "%s: skipped: an illegal move\n", entry->where.c_str());
        ++unreadable;
        continue;
      }
      ++decisive;
      collector.addGame(game, entry->where);
      // Every 100 puzzles the set so far is written, so a stopped run leaves its puzzles.
      if (collector.found().size() >= written + 100) {
        written = collector.found().size();
        if (auto status = puzzles::writePuzzleSet(collector.found(), args.text("--out"), header(decisive));
            !status.ok())
          return cli::failure(commandLine(), status.message());
      }
      std::fprintf(stderr, "%s: %zu puzzles from %llu positions of %d decisive games\n", entry->where.c_str(),
                   collector.found().size(), static_cast<unsigned long long>(collector.positionsTried()), decisive);
    }
  }
  std::map<int, int> perRating;
  for (const auto& f : collector.found()) ++perRating[f.puzzle.rating];
  if (auto status = puzzles::writePuzzleSet(collector.found(), args.text("--out"), header(decisive)); !status.ok())
    return cli::failure(commandLine(), status.message());
  std::printf("games %d (decisive %d, unreadable %d)\n", games, decisive, unreadable);
  std::printf("positions %llu\n", static_cast<unsigned long long>(collector.positionsTried()));
  std::printf("puzzles %zu\n", collector.found().size());
  for (const auto& [rating, count] : perRating) std::printf("rating %d: %d\n", rating, count);
  return 0;
}

int check(const cli::Arguments& args, const cli::UsageFn&) {
  const proof::PuzzleSetReport report = proof::checkPuzzleSet(args.text("DIR"));
  for (const std::string& r : report.rejections) std::printf("rejected: %s\n", r.c_str());
  if (!report.accepted) {
    if (report.rejections.empty()) std::printf("rejected: %s\n", report.reason.c_str());
    return 1;
  }
  std::printf("accepted: %d puzzles, %d other moves proved lost, %llu certificate nodes\n", report.puzzles,
              report.alternatives, static_cast<unsigned long long>(report.nodes));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return cli::runMain(commandLine(), argc, argv, [](const cli::Arguments& args, const cli::UsageFn& usage) {
    if (args.command() == "generate") return generate(args, usage);
    return check(args, usage);
  });
}
