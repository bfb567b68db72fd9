// gobblet-match: engine-vs-engine matches refereed by the rules core.
//
//   gobblet-match --engine cmd=CMD [name=N proto=ugi|uci tc=B+I movetime=S depth=D nodes=K option.X=V ...]
//                 --engine ... [--engine ...] [options]
//   gobblet-match --replay FILE [--variant V]
//   gobblet-match --compliance "<engine command>" [--variant V] [--proto ugi|uci] [--timeout SEC] [--margin SEC]
//
// See docs/match.md for every option, the output and the record format.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "tools/command_line/command_line.h"
#include "tools/match/compliance.h"
#include "tools/match/engine_command.h"
#include "tools/match/input_limits.h"
#include "tools/match/pgn.h"
#include "tools/match/replay.h"
#include "tools/match/report.h"
#include "tools/match/tournament.h"

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
    if (key == "elo0") params.elo0 = value, haveElo0 = true;
    else if (key == "elo1") params.elo1 = value, haveElo1 = true;
    else if (key == "alpha") params.alpha = value;
    else if (key == "beta") params.beta = value;
    else return absl::InvalidArgumentError(absl::StrCat("--sprt: unknown key '", key, "'"));
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

}  // namespace

int main(int argc, char** argv) {
  const cli::Program program = commandLine();
  const cli::ParsedCommandLine parsed = cli::parseCommandLine(program, argc, argv);
  if (!parsed.arguments) return parsed.exitCode;
  const cli::Arguments& args = *parsed.arguments;
  const auto usage = [&program](absl::string_view why) { return cli::usageError(program, why); };

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
                    replayPath = args.text("--replay");
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
    std::printf("%s: %d passed, %d failed, %d skipped (%s, %s)\n", failed == 0 ? "COMPLIANT" : "NOT COMPLIANT",
                passed, failed, skipped, variant->name().c_str(), complianceProtocol == Protocol::kUgi ? "ugi" : "uci");
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
  if (!openingsPath.empty()) {
    auto openings = OpeningFile::open(settings.variant, openingsPath);
    if (!openings.ok()) return usage(openings.status().message());
    settings.openingFile = *std::move(openings);
  }
  if (auto status = checkTournamentSettings(settings); !status.ok()) return usage(status.message());
  std::ofstream record;
  const bool recordPgn =
      recordFormat == "pgn" ||
      (recordFormat.empty() && recordPath.size() >= 4 && absl::AsciiStrToLower(recordPath.substr(recordPath.size() - 4)) == ".pgn");
  PgnHeader pgnHeader;
  pgnHeader.date = pgnDateToday();
  if (!recordPath.empty()) {
    record.open(recordPath, std::ios::trunc);
    if (!record) return usage(absl::StrCat("cannot write record file '", recordPath, "'"));
  }

  std::printf("variant %s, engines:", settings.variant.name().c_str());
  for (const EngineConfig& e : settings.engines) std::printf(" %s (%s)", e.name.c_str(), e.limits.describe().c_str());
  std::printf("\n");
  std::fflush(stdout);
  auto state = runTournament(settings, [&](const GameRecord& game, const TournamentState& now) {
    if (record.is_open()) {
      if (recordPgn) record << formatPgn(game, pgnHeader) << std::flush;
      else record << formatRecord(game) << std::endl;
    }
    if (!quiet) std::printf("%s\n", progressLine(game, now, settings).c_str()), std::fflush(stdout);
  });
  if (!state.ok()) return cli::failure(program, state.status().message());
  std::printf("%s", finalReport(*state, settings).c_str());
  return 0;
}
