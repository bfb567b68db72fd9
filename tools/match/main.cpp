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
#include "engine/bounded_integer.h"
#include "tools/match/compliance.h"
#include "tools/match/pgn.h"
#include "tools/match/replay.h"
#include "tools/match/report.h"
#include "tools/match/tournament.h"

namespace {

using namespace gobblet;
using namespace gobblet::match;

constexpr const char* kUsage = R"(usage:
  gobblet-match --engine cmd=CMD [KEY=VALUE ...] --engine cmd=CMD [KEY=VALUE ...] [options]
  gobblet-match --replay FILE [--variant V]
  gobblet-match --compliance "ENGINE COMMAND" [--variant V] [--proto ugi|uci] [--timeout SEC] [--margin SEC]
engine keys: cmd name proto=ugi|uci tc=BASE+INC movetime=SEC depth=N nodes=N option.NAME=VALUE
  (every engine needs at least one limit: tc, movetime, depth or nodes)
options:
  --each KEY=VALUE ...      settings for every engine (an engine's own settings win)
  --tc BASE+INC | --movetime SEC | --depth N | --nodes N   shorthands for --each
  --variant V               gobblet (default), gobblers, tictactoe, 3x3:S,P,M
  --games N                 games per pairing (rounded up to even; default 2)
  --concurrency N           games played in parallel (default 1)
  --format roundrobin|gauntlet   with 3+ engines (default roundrobin)
  --openings FILE           opening file (positions or move lists), cycled
  --random-plies N          otherwise: N random plies from the start (default 0)
  --seed N                  seed of the random openings (default 1)
  --max-plies N             draw after N plies (default 400, 0 = none)
  --margin SEC              time allowed beyond the clock/movetime (default 0.1)
  --timeout SEC             wait for ugiok/readyok, and for bestmove under depth/nodes (default 10)
  --sprt elo0=E0 elo1=E1 [alpha=A beta=B]   sequential test, stops early (two engines)
  --record FILE             write every game: PGN if FILE ends in .pgn, else one record line per game
  --record-format line|pgn  the record's format, whatever FILE's name
  --quiet                   no per-game progress lines
compliance (--compliance): --variant, --proto ugi|uci, --timeout (each wait), --margin (beyond clocks/movetime)
)";

int usage(const std::string& why) {
  std::fprintf(stderr, "error: %s\n%s", why.c_str(), kUsage);
  return 2;
}

bool isFlag(const std::string& arg) { return arg.rfind("--", 0) == 0; }

// Reads the KEY=VALUE words following argv[i] (up to the next --flag).
std::vector<std::string> settingsAfter(int& i, int argc, char** argv) {
  std::vector<std::string> words;
  while (i + 1 < argc && !isFlag(argv[i + 1])) words.push_back(argv[++i]);
  return words;
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

// A count flag's value in [low, high].
bool parseCount(const std::string& text, int low, int high, int& out) {
  auto n = parseBoundedInteger(text, low, high, "count");
  if (n.ok()) out = static_cast<int>(*n);
  return n.ok();
}

}  // namespace

int main(int argc, char** argv) {
  TournamentSettings settings;
  std::vector<std::vector<std::string>> engineWords;
  std::vector<std::string> eachWords;
  std::string variantText = "gobblet", openingsPath, recordPath, recordFormat, replayPath, complianceCommand;
  Protocol complianceProtocol = Protocol::kUgi;
  bool quiet = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool hasValue = i + 1 < argc;
    auto value = [&] { return std::string(argv[++i]); };
    auto seconds = [&](int64_t& out) {
      auto ms = parseSeconds(hasValue ? value() : "");
      if (ms.ok()) out = *ms;
      return ms.ok();
    };
    if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (arg == "--engine") {
      engineWords.push_back(settingsAfter(i, argc, argv));
    } else if (arg == "--each") {
      for (std::string& w : settingsAfter(i, argc, argv)) eachWords.push_back(std::move(w));
    } else if ((arg == "--tc" || arg == "--movetime" || arg == "--depth" || arg == "--nodes") && hasValue) {
      eachWords.push_back(absl::StrCat(arg.substr(2), "=", value()));
    } else if (arg == "--compliance" && hasValue) {
      complianceCommand = value();
      if (absl::StripAsciiWhitespace(complianceCommand).empty()) return usage("--compliance needs an engine command");
    } else if (arg == "--proto" && hasValue) {
      const std::string p = value();
      if (p == "ugi") complianceProtocol = Protocol::kUgi;
      else if (p == "uci") complianceProtocol = Protocol::kUci;
      else return usage("--proto must be ugi or uci");
    } else if (arg == "--replay" && hasValue) {
      replayPath = value();
    } else if (arg == "--variant" && hasValue) {
      variantText = value();
    } else if (arg == "--games" && hasValue) {
      if (!parseCount(value(), 1, 10000000, settings.gamesPerPairing)) return usage("--games must be 1..10000000");
    } else if (arg == "--concurrency" && hasValue) {
      if (!parseCount(value(), 1, 256, settings.concurrency)) return usage("--concurrency must be 1..256");
    } else if (arg == "--format" && hasValue) {
      const std::string f = value();
      if (f == "roundrobin") settings.format = Format::kRoundRobin;
      else if (f == "gauntlet") settings.format = Format::kGauntlet;
      else return usage("--format must be roundrobin or gauntlet");
    } else if (arg == "--openings" && hasValue) {
      openingsPath = value();
    } else if (arg == "--random-plies" && hasValue) {
      if (!parseCount(value(), 0, 200, settings.randomPlies)) return usage("--random-plies must be 0..200");
    } else if (arg == "--seed" && hasValue) {
      auto seed = parseBoundedInteger(value(), 0, INT64_MAX, "--seed");
      if (!seed.ok()) return usage(std::string(seed.status().message()));
      settings.seed = static_cast<uint64_t>(*seed);
    } else if (arg == "--max-plies" && hasValue) {
      if (!parseCount(value(), 0, 100000, settings.game.maxPlies)) return usage("--max-plies must be 0..100000");
    } else if (arg == "--margin") {
      if (!seconds(settings.game.marginMs)) return usage("--margin must be a number of seconds");
    } else if (arg == "--timeout") {
      if (!seconds(settings.game.timeoutMs) || settings.game.timeoutMs <= 0)
        return usage("--timeout must be a positive number of seconds");
      settings.timeouts.handshakeMs = settings.game.timeoutMs;
    } else if (arg == "--sprt") {
      settings.sprt.emplace();
      if (auto status = parseSprt(settingsAfter(i, argc, argv), *settings.sprt); !status.ok())
        return usage(std::string(status.message()));
    } else if (arg == "--record" && hasValue) {
      recordPath = value();
    } else if (arg == "--record-format" && hasValue) {
      recordFormat = value();
      if (recordFormat != "line" && recordFormat != "pgn") return usage("--record-format must be line or pgn");
    } else if (arg == "--quiet") {
      quiet = true;
    } else {
      return usage(absl::StrCat("unknown or incomplete argument '", arg, "'"));
    }
  }

  auto variant = Variant::parse(variantText);
  if (!variant.ok()) return usage(std::string(variant.status().message()));
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
    if (!summary.ok()) return std::fprintf(stderr, "error: %s\n", std::string(summary.status().message()).c_str()), 1;
    return summary->invalid == 0 ? 0 : 1;
  }

  settings.variant = *variant;
  for (size_t e = 0; e < engineWords.size(); ++e) {
    EngineConfig config;
    for (const auto* words : {&eachWords, &engineWords[e]})
      for (const std::string& w : *words)
        if (auto status = applyEngineSetting(config, w); !status.ok()) return usage(std::string(status.message()));
    if (config.command.empty()) return usage(absl::StrCat("engine ", e + 1, " has no cmd="));
    if (config.name.empty()) {
      const std::string program = config.command.substr(0, config.command.find(' '));
      config.name = absl::StrCat(program.substr(program.rfind('/') + 1), "#", e + 1);
    }
    settings.engines.push_back(config);
  }
  if (!openingsPath.empty()) {
    auto openings = loadOpenings(settings.variant, openingsPath);
    if (!openings.ok()) return usage(std::string(openings.status().message()));
    settings.openings = *std::move(openings);
  }
  if (auto status = checkTournamentSettings(settings); !status.ok()) return usage(std::string(status.message()));
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
  if (!state.ok()) return usage(std::string(state.status().message()));
  std::printf("%s", finalReport(*state, settings).c_str());
  return 0;
}
