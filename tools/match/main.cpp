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

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "tools/command_line/command_line.h"
#include "tools/command_line/mpi_launch.h"
#include "interrupt_notice.h"
#include "match/compliance.h"
#include "match/engine_command.h"
#include "match/input_limits.h"
#include "match/pgn.h"
#include "match/replay.h"
#include "match/report.h"
#include "match/resume.h"
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

// Why the record file `path` did not take `what` (errno as left by the
// failed write, 0 if none was told).
std::string recordWriteError(const std::string& path, const std::string& what, int error) {
  return absl::StrCat("cannot write ", what, " to the record file '", path,
                      "': ", error ? std::strerror(error) : "write failed");
}

// The MPI session of a run, if any: without MPI in the build, or without a
// launcher, a run is local and everything here does nothing.
struct MpiRun {
#ifdef GOBBLET_MATCH_MPI
  std::unique_ptr<MpiSession> session;
  bool distributed() const { return session && session->size() > 1; }
  int size() const { return session ? session->size() : 1; }
  void dismiss() {
    if (distributed()) session->dismiss();
  }
  absl::StatusOr<TournamentState> coordinate(const TournamentSettings& settings, const GameCallback& onGame) {
    return session->coordinate(settings, onGame);
  }
  // After this rank failed in a way the others cannot hear (an exception):
  // ends every rank, which could otherwise wait for it forever.
  void abortAll() {
    if (distributed()) session->abort(1);
  }
#else
  bool distributed() const { return false; }
  int size() const { return 1; }
  void dismiss() {}
  absl::StatusOr<TournamentState> coordinate(const TournamentSettings&, const GameCallback&) {
    return absl::UnimplementedError("built without MPI");
  }
  void abortAll() {}
#endif
};

// The match (or the replay, or the compliance check), with the arguments
// checked; `launch` says whether an MPI launcher started this process.
int runMatch(const cli::Program& program, const cli::MpiLaunch& launch, int argc, char** argv,
             const cli::Arguments& args, const cli::UsageFn& usage, MpiRun& mpi) {
  TournamentSettings settings;
  settings.gamesPerPairing = static_cast<int>(args.integer("--games"));
  settings.concurrency = static_cast<int>(args.integer("--concurrency"));
  if (args.text("--format") == "gauntlet") settings.format = Format::kGauntlet;
  settings.randomPlies = static_cast<int>(args.integer("--random-plies"));
  settings.seed = static_cast<uint64_t>(args.integer("--seed"));
  settings.game.maxPlies = static_cast<int>(args.integer("--max-plies"));
  if (args.has("--margin")) {
    auto ms = parseSeconds(args.text("--margin"));
    if (!ms.ok()) return usage("--margin must be a number of seconds");
    settings.game.marginMs = *ms;
  }
  if (args.has("--timeout")) {
    auto ms = parseSeconds(args.text("--timeout"));
    if (!ms.ok() || *ms <= 0) return usage("--timeout must be a positive number of seconds");
    settings.game.timeoutMs = settings.timeouts.handshakeMs = *ms;
  }
  if (args.has("--sprt")) {
    settings.sprt.emplace();
    if (auto status = parseSprt(args.occurrences("--sprt").back(), *settings.sprt); !status.ok())
      return usage(status.message());
  }
  const std::string complianceCommand = args.text("--compliance");
  if (args.has("--compliance") && absl::StripAsciiWhitespace(complianceCommand).empty())
    return usage("--compliance needs an engine command");
  const Protocol complianceProtocol = args.text("--proto") == "uci" ? Protocol::kUci : Protocol::kUgi;
  const std::string variantText = args.text("--variant"), openingsPath = args.text("--openings"),
                    recordPath = args.text("--record"), recordFormat = args.text("--record-format"),
                    replayPath = args.text("--replay"), resumePath = args.text("--resume");
  const bool quiet = args.has("--quiet");
  const std::vector<std::string> eachWords = settingsForEach(args);
  const std::vector<std::vector<std::string>> engineWords = args.occurrences("--engine");

  auto variant = Variant::parse(variantText);
  if (!variant.ok()) return usage(variant.status().message());
  if (!complianceCommand.empty()) {
    ComplianceSettings check;
    check.command = complianceCommand;
    check.variant = *variant;
    check.protocol = complianceProtocol;
    check.timeoutMs = settings.game.timeoutMs;
    check.marginMs = settings.game.marginMs;
    int passed = 0, failed = 0, skipped = 0;
    runCompliance(check, [&](const StepReport& step) {
      std::printf("%s\n", formatStep(step).c_str());
      std::fflush(stdout);
      (step.outcome == StepOutcome::kPass ? passed : step.outcome == StepOutcome::kFail ? failed : skipped)++;
    });
    std::printf("%s: %d passed, %d failed, %d skipped (%s, %s)\n", failed == 0 ? "COMPLIANT" : "NOT COMPLIANT", passed,
                failed, skipped, variant->name().c_str(), complianceProtocol == Protocol::kUgi ? "ugi" : "uci");
    return failed == 0 ? 0 : 1;
  }
  if (!replayPath.empty()) {
    auto summary = replayFile(replayPath, std::cout, *variant);
    if (!summary.ok()) return cli::failure(program, summary.status().message());
    return summary->invalid == 0 ? 0 : 1;
  }

  settings.variant = *variant;
  for (size_t e = 0; e < engineWords.size(); ++e) {
    EngineConfig config;
    for (const auto* words : {&eachWords, &engineWords[e]})
      for (const std::string& w : *words)
        if (auto status = applyEngineSetting(config, w); !status.ok()) return usage(status.message());
    if (config.command.empty()) return usage(absl::StrCat("engine ", e + 1, " has no cmd="));
    if (config.name.empty()) config.name = absl::StrCat(programName(config.command), "#", e + 1);
    settings.engines.push_back(config);
  }
  settings.openingsPath = openingsPath;
  if (auto status = checkTournamentSettings(settings); !status.ok()) return usage(status.message());

  // Under an MPI launcher with two ranks or more, ranks 1.. play the games
  // rank 0 hands out and return here; rank 0 reads the openings and the
  // record and keeps the statistics (mpi_distribution.h).
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
    auto session = MpiSession::start(argc, argv);
    if (!session.ok()) return cli::failure(program, session.status().message());
    mpi.session = *std::move(session);
  }
  // Every rank plays its games by its own settings: they must be rank 0's
  // (a rank with the engines swapped turned a 20-0 into 0-20).
  if (mpi.distributed())
    if (absl::Status same =
            cli::ranksAgree(absl::StrCat("gobblet-match ", matchLine(settings), " timeout-ms=", settings.game.timeoutMs,
                                         " margin-ms=", settings.game.marginMs));
        !same.ok())
      return cli::failure(program, same.message());
  if (mpi.distributed() && mpi.session->rank() > 0) {
    if (auto status = mpi.session->work(settings); !status.ok()) return cli::failure(program, status.message());
    return 0;
  }
#endif

  std::ofstream record;
  bool recordPgn = recordFormat == "pgn" || (recordFormat.empty() && recordPath.size() >= 4 &&
                                             absl::AsciiStrToLower(recordPath.substr(recordPath.size() - 4)) == ".pgn");
  PgnHeader pgnHeader;
  pgnHeader.date = pgnDateToday();
  std::string resumedText;
  // Rank 0 (or the only process): everything that may still refuse the
  // match. Under MPI a refusal also sends the other ranks home.
  const int refused = [&]() -> int {
    if (!openingsPath.empty()) {
      auto openings = OpeningFile::open(settings.variant, openingsPath);
      if (!openings.ok()) return usage(openings.status().message());
      settings.openingFile = *std::move(openings);
    }
    if (!resumePath.empty()) {
      if (!recordPath.empty() && recordPath != resumePath)
        return usage("--resume FILE appends to FILE: leave out --record, or give the same file");
      auto resumable = openRecordForResume(resumePath, settings);
      if (!resumable.ok()) return usage(absl::StrCat("--resume: ", resumable.status().message()));
      if (!recordFormat.empty() && (recordFormat == "pgn") != resumable->pgn)
        return usage(absl::StrCat("--resume: '", resumePath, "' is not in the --record-format given"));
      recordPgn = resumable->pgn;
      settings.resumed = std::move(resumable->games);
      // Each game must be this match's game of its number: checked now, so
      // that a record that does not belong is refused before any engine starts.
      if (auto dealer = GameDealer::create(settings); !dealer.ok())
        return usage(absl::StrCat("--resume: ", dealer.status().message()));
      resumedText = absl::StrCat("resuming ", resumePath, ": ", settings.resumed.size(), " games already played",
                                 resumable->droppedPartialLine   ? " (a partial last line was cut off)"
                                 : resumable->droppedPartialGame ? " (a last game cut short was cut off)"
                                                                 : "");
      record.open(resumePath, std::ios::app);
      if (!record) return usage(absl::StrCat("cannot write record file '", resumePath, "'"));
    } else if (!recordPath.empty()) {
      record.open(recordPath, std::ios::trunc);
      if (!record) return usage(absl::StrCat("cannot write record file '", recordPath, "'"));
      errno = 0;
      record << recordHeader(settings, recordPgn) << "\n" << std::flush;
      if (!record) return cli::failure(program, recordWriteError(recordPath, "its match line", errno));
    }
    return 0;
  }();
  if (refused != 0) {
    mpi.dismiss();
    return refused;
  }

  std::printf("variant %s, engines:", settings.variant.name().c_str());
  for (const EngineConfig& e : settings.engines) std::printf(" %s (%s)", e.name.c_str(), e.limits.describe().c_str());
  std::printf("\n");
  if (mpi.distributed())
    std::printf("over MPI: %d ranks, rank 0 hands out the games, %d play them (--concurrency %d each)\n", mpi.size(),
                mpi.size() - 1, settings.concurrency);
  if (!resumedText.empty()) std::printf("%s\n", resumedText.c_str());
  std::fflush(stdout);
  // A game the record cannot take (a full disk, /dev/full) stops the match:
  // games played on would be lost. The games under way finish, none starts.
  const std::string recordName = resumePath.empty() ? recordPath : resumePath;
  int recorded = static_cast<int>(settings.resumed.size());
  const GameCallback onGame = [&](const GameRecord& game, const TournamentState& now) -> absl::Status {
    if (!quiet) std::printf("%s\n", progressLine(game, now, settings).c_str()), std::fflush(stdout);
    if (!record.is_open()) return absl::OkStatus();
    if (!record) return absl::OkStatus();  // failed already: said once
    const RecordWriting writing;           // a signal's notice counts this game or not, as the record will
    errno = 0;
    record << (recordPgn ? formatPgn(game, pgnHeader) : formatRecord(game) + "\n") << std::flush;
    if (!record)
      return absl::DataLossError(absl::StrCat(recordWriteError(recordName, absl::StrCat("game ", game.number), errno),
                                              "; no further game was started: ", recorded,
                                              " games are recorded; once it can be written, --resume ", recordName,
                                              " plays the others"));
    noticeRecorded(++recorded);
    return absl::OkStatus();
  };
  installInterruptNotice(recordName, recorded);
  auto state = mpi.distributed() ? mpi.coordinate(settings, onGame) : runTournament(settings, onGame);
  if (!state.ok()) return cli::failure(program, state.status().message());
  std::printf("%s", finalReport(*state, settings).c_str());
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
        MpiRun mpi;
        try {
          return runMatch(program, launch, argc, argv, args, usage, mpi);
        } catch (const std::exception& e) {
          const int status = cli::failure(program, std::string("cannot go on: ") + e.what());
          mpi.abortAll();
          return status;
        }
      },
      options);
}
