// gobblet-match: engine-vs-engine matches refereed by the rules core.
//
//   gobblet-match --engine cmd=CMD [name=N proto=ugi|uci tc=B+I movetime=S depth=D nodes=K option.X=V ...]
//                 --engine ... [--engine ...] [options]
//   gobblet-match --replay FILE [--variant V]
//   gobblet-match --compliance "<engine command>" [--variant V] [--proto ugi|uci] [--timeout SEC] [--margin SEC]
//
//   mpirun -np N gobblet-match <the same options>     (one match over N ranks)
//
// See docs/match.md for every option, the output and the record format.
// This file reads the command line; the run itself is the match layer's
// (match/match_session.h).

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "tools/command_line/command_line.h"
#include "tools/command_line/mpi_launch.h"
#include "match/compliance.h"
#include "match/engine_command.h"
#include "match/input_limits.h"
#include "match/match_session.h"
#include "match/replay.h"
#include "match/tournament.h"
#ifdef GOBBLET_MATCH_MPI
#include "match/mpi_distribution.h"
#include "tools/command_line/mpi_agree.h"
#endif

namespace {

using namespace gobblet;
using namespace gobblet::match;
namespace cli = gobblet::cli;

// "0.1" for 100 ms: a default in seconds, as the options take it.
std::string secondsText(int64_t ms) { return absl::StrFormat("%g", static_cast<double>(ms) / 1000); }

// What gobblet-match accepts.
cli::Program commandLine() {
  const TournamentSettings defaults;
  cli::Program p;
  p.name = "gobblet-match";
  p.summary =
      "Plays engines against each other over UGI/UCI, every game refereed by the rules core; or re-referees "
      "recorded games (--replay), or checks one engine against the UGI spec (--compliance).";
  p.usage = {
      "--engine cmd=CMD [KEY=VALUE ...] --engine cmd=CMD [KEY=VALUE ...] [options]",
      "--replay FILE [--variant V]",
      "--compliance \"ENGINE COMMAND\" [--variant V] [--proto ugi|uci] [--timeout SEC] [--margin SEC]",
  };
  p.syntax.options = {
      cli::words("--engine", "cmd=CMD [KEY=VALUE ...]", "an engine and its settings (the keys below)").repeated(),
      cli::words("--each", "KEY=VALUE ...", "settings for every engine (an engine's own settings win)").repeated(),
      cli::text("--tc", "BASE+INC", "every engine's clock, in seconds: short for --each tc=BASE+INC"),
      cli::text("--movetime", "SEC", "short for --each movetime=SEC"),
      cli::text("--depth", "N", "short for --each depth=N"),
      cli::text("--nodes", "N", "short for --each nodes=N"),
      cli::text("--variant", "V", gobblet::variantNamesText()).withDefault("gobblet"),
      cli::integer("--games", "N", 1, 10000000, "games per pairing, rounded up to even")
          .withDefault(defaults.gamesPerPairing),
      cli::integer("--concurrency", "N", 1, 256, "games played in parallel").withDefault(defaults.concurrency),
      cli::choice("--format", {"roundrobin", "gauntlet"},
                  "with 3 or more engines: every pair, or the first engine against each other")
          .withDefault("roundrobin"),
      cli::text("--openings", "FILE", "opening file (positions or move lists), cycled"),
      cli::integer("--random-plies", "N", 0, 200, "without --openings: N random plies from the start")
          .withDefault(defaults.randomPlies),
      cli::integer("--seed", "N", 0, INT64_MAX, "seed of the random openings")
          .withDefault(static_cast<int64_t>(defaults.seed)),
      cli::integer("--max-plies", "N", 0, kMaxGamePlies, "a game still running after N plies is a draw, 0 for no limit")
          .withDefault(defaults.game.maxPlies),
      cli::text("--margin", "SEC", "time allowed beyond the clock or move time")
          .withDefault(secondsText(defaults.game.marginMs)),
      cli::text("--timeout", "SEC", "wait for ugiok and readyok, and for bestmove under depth or nodes")
          .withDefault(secondsText(defaults.game.timeoutMs)),
      cli::words("--sprt", "elo0=E0 elo1=E1 [alpha=A beta=B]",
                 "sequential probability ratio test of two engines: stops when decided"),
      cli::text("--record", "FILE", "write every game: PGN if FILE ends in .pgn, else a record line per game"),
      cli::choice("--record-format", {"line", "pgn"}, "the record's format, whatever FILE's name"),
      cli::text("--resume", "FILE",
                "continue the interrupted match recorded in FILE: its games count and are not played again; new "
                "games are appended to it"),
      cli::flag("--quiet", "no progress line per game"),
      cli::text("--replay", "FILE", "re-referee the games of a record file (record lines or PGN) instead of playing"),
      cli::text("--compliance", "\"ENGINE COMMAND\"", "check one engine against the UGI spec instead of playing"),
      cli::choice("--proto", {"ugi", "uci"}, "with --compliance: the engine's dialogue").withDefault("ugi"),
  };
  p.notes =
      "engine keys: cmd=CMD name=N proto=ugi|uci tc=BASE+INC movetime=SEC depth=N\n"
      "             nodes=N option.NAME=VALUE\n"
      "Every engine needs a limit: tc, movetime, depth or nodes. --compliance takes\n"
      "--variant, --proto, --timeout (each wait) and --margin (beyond the clocks).\n"
#ifdef GOBBLET_MATCH_MPI
      "Under mpirun (or srun), rank 0 hands out the games and the other ranks play\n"
      "them, each with --concurrency games at a time.\n"
#endif
      "docs/match.md describes every option, the output and the record format.";
  return p;
}

absl::Status parseSprt(const std::vector<std::string>& words, SprtParams& params) {
  bool haveElo0 = false, haveElo1 = false;
  for (const std::string& w : words) {
    const size_t eq = w.find('=');
    double value;
    if (eq == std::string::npos || !absl::SimpleAtod(w.substr(eq + 1), &value))
      return absl::InvalidArgumentError(absl::StrCat("--sprt: bad setting '", w, "'"));
    const std::string key = w.substr(0, eq);
    if (key == "elo0")
      params.elo0 = value, haveElo0 = true;
    else if (key == "elo1")
      params.elo1 = value, haveElo1 = true;
    else if (key == "alpha")
      params.alpha = value;
    else if (key == "beta")
      params.beta = value;
    else
      return absl::InvalidArgumentError(absl::StrCat("--sprt: unknown key '", key, "'"));
  }
  if (!haveElo0 || !haveElo1) return absl::InvalidArgumentError("--sprt needs elo0= and elo1=");
  if (!(params.elo1 > params.elo0)) return absl::InvalidArgumentError("--sprt: elo1 must exceed elo0");
  if (!(params.alpha > 0 && params.alpha < 0.5 && params.beta > 0 && params.beta < 0.5))
    return absl::InvalidArgumentError("--sprt: alpha and beta must be in (0, 0.5)");
  return absl::OkStatus();
}

// The settings for every engine: the words of --each and of its
// shorthands (--tc X is tc=X), in command-line order, so that a later one wins.
std::vector<std::string> settingsForEach(const cli::Arguments& args) {
  std::vector<std::string> words;
  for (const cli::Given& given : args.inOrder()) {
    if (given.name == "--each") words.insert(words.end(), given.words.begin(), given.words.end());
    if (given.name == "--tc" || given.name == "--movetime" || given.name == "--depth" || given.name == "--nodes")
      words.push_back(absl::StrCat(given.name.substr(2), "=", given.words.front()));
  }
  return words;
}

// The match's settings of the command line but its variant and engines,
// or the usage error that refuses them.
absl::StatusOr<MatchRequest> matchRequest(const cli::Arguments& args) {
  MatchRequest request;
  TournamentSettings& settings = request.settings;
  settings.gamesPerPairing = static_cast<int>(args.integer("--games"));
  settings.concurrency = static_cast<int>(args.integer("--concurrency"));
  if (args.text("--format") == "gauntlet") settings.format = Format::kGauntlet;
  settings.randomPlies = static_cast<int>(args.integer("--random-plies"));
  settings.seed = static_cast<uint64_t>(args.integer("--seed"));
  settings.game.maxPlies = static_cast<int>(args.integer("--max-plies"));
  if (args.has("--margin")) {
    auto ms = parseSeconds(args.text("--margin"));
    if (!ms.ok()) return usageError("--margin must be a number of seconds");
    settings.game.marginMs = *ms;
  }
  if (args.has("--timeout")) {
    auto ms = parseSeconds(args.text("--timeout"));
    if (!ms.ok() || *ms <= 0) return usageError("--timeout must be a positive number of seconds");
    settings.game.timeoutMs = settings.timeouts.handshakeMs = *ms;
  }
  if (args.has("--sprt")) {
    settings.sprt.emplace();
    if (auto status = parseSprt(args.occurrences("--sprt").back(), *settings.sprt); !status.ok())
      return usageError(status.message());
  }
  request.recordPath = args.text("--record");
  request.recordFormat = args.text("--record-format");
  request.resumePath = args.text("--resume");
  request.quiet = args.has("--quiet");
  return request;
}

// The engines of the command line into `settings`, then the whole checked.
absl::Status addEngines(const cli::Arguments& args, TournamentSettings& settings) {
  const std::vector<std::string> eachWords = settingsForEach(args);
  const std::vector<std::vector<std::string>> engineWords = args.occurrences("--engine");
  for (size_t e = 0; e < engineWords.size(); ++e) {
    EngineConfig config;
    for (const auto* words : {&eachWords, &engineWords[e]})
      for (const std::string& w : *words)
        if (auto status = applyEngineSetting(config, w); !status.ok()) return usageError(status.message());
    if (config.command.empty()) return usageError(absl::StrCat("engine ", e + 1, " has no cmd="));
    if (config.name.empty()) config.name = absl::StrCat(programName(config.command), "#", e + 1);
    settings.engines.push_back(config);
  }
  settings.openingsPath = args.text("--openings");
  if (auto status = checkTournamentSettings(settings); !status.ok()) return usageError(status.message());
  return absl::OkStatus();
}

// The run the command line asks for: the compliance check, the replay or
// the match (over the ranks of an MPI job when a launcher started this
// process with several); returns the exit status. `mpi` is set once MPI is
// started, so that main() can end every rank after an exception.
int run(const cli::Program& program, const cli::MpiLaunch& launch, int argc, char** argv, const cli::Arguments& args,
        const cli::UsageFn& usage, std::unique_ptr<MatchRanks>& mpi) {
  const auto report = [&](const absl::Status& status) {
    return isUsageError(status) ? usage(status.message()) : cli::failure(program, status.message());
  };
  auto match = matchRequest(args);
  if (!match.ok()) return report(match.status());
  const std::string complianceCommand = args.text("--compliance");
  if (args.has("--compliance") && absl::StripAsciiWhitespace(complianceCommand).empty())
    return usage("--compliance needs an engine command");
  auto variant = Variant::parse(args.text("--variant"));
  if (!variant.ok()) return usage(variant.status().message());
  match->settings.variant = *variant;
  if (!complianceCommand.empty()) {
    ComplianceSettings check;
    check.command = complianceCommand;
    check.variant = *variant;
    check.protocol = args.text("--proto") == "uci" ? Protocol::kUci : Protocol::kUgi;
    check.timeoutMs = match->settings.game.timeoutMs;
    check.marginMs = match->settings.game.marginMs;
    return checkCompliance(check, stdout) ? 0 : 1;
  }
  if (!args.text("--replay").empty()) {
    auto summary = replayFile(args.text("--replay"), std::cout, *variant);
    if (!summary.ok()) return cli::failure(program, summary.status().message());
    return summary->invalid == 0 ? 0 : 1;
  }
  if (absl::Status status = addEngines(args, match->settings); !status.ok()) return report(status);

  if (launch.srunTasksWithoutMpi > 0)
    return cli::failure(program, cli::srunWithoutMpiError("gobblet-match", launch.srunTasksWithoutMpi));
#ifndef GOBBLET_MATCH_MPI
  (void)argc;  // MPI_Init's alone
  (void)argv;
  // Built without MPI, each rank would play the whole match on its own.
  if (launch.launched && launch.size > 1)
    return cli::failure(program, "started as one of " + std::to_string(launch.size) +
                                     " MPI ranks, but this gobblet-match was built without MPI: install the "
                                     "package gobblet-mpi, or build with Open MPI (libopenmpi-dev)");
#else
  if (launch.launched) {
    auto session = MpiSession::start(argc, argv, cli::ranksAgree);
    if (!session.ok()) return cli::failure(program, session.status().message());
    mpi = *std::move(session);
  }
#endif
  if (absl::Status status = runMatch(*std::move(match), mpi.get(), stdout); !status.ok()) return report(status);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const cli::Program program = commandLine();
  // Under an MPI launcher every rank reads the same command line: only rank
  // 0 reports what is wrong with it (the others exit with the same status).
  // (MPI is started only when a launcher started this process: tools/command_line/mpi_launch.h.)
  const cli::MpiLaunch launch = cli::mpiLaunch();
  cli::MainOptions options;
  options.quietErrors = launch.launched && launch.rank > 0;
  return cli::runMain(
      program, argc, argv,
      [&](const cli::Arguments& args, const cli::UsageFn& usage) {
        // The MPI session outlives the match, so that a failure the match
        // did not handle is said before every rank is ended.
        std::unique_ptr<MatchRanks> mpi;
        try {
          return run(program, launch, argc, argv, args, usage, mpi);
        } catch (const std::exception& e) {
          const int status = cli::failure(program, std::string("cannot go on: ") + e.what());
#ifdef GOBBLET_MATCH_MPI
          // Ends every rank, which could otherwise wait for this one forever.
          if (mpi && mpi->size() > 1) static_cast<MpiSession&>(*mpi).abort(1);
#endif
          return status;
        }
      },
      options);
}
