#include "match/engine_player.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/bounded_integer.h"
#include "match/engine_command.h"

namespace gobblet::match {

namespace {

// How long stop() waits for an engine to take its `quit`.
constexpr std::chrono::milliseconds kQuitWriteTimeout{100};

std::string firstWord(const std::string& line) {
  const std::string stripped(absl::StripLeadingAsciiWhitespace(line));
  return stripped.substr(0, stripped.find_first_of(" \t"));
}

}  // namespace

absl::Status applyEngineSetting(EngineConfig& config, const std::string& setting) {
  const size_t eq = setting.find('=');
  if (eq == std::string::npos || eq == 0)
    return absl::InvalidArgumentError(absl::StrCat("engine setting '", setting, "': expected key=value"));
  const std::string key = setting.substr(0, eq), value = setting.substr(eq + 1);
  auto bad = [&](const std::string& why) {
    return absl::InvalidArgumentError(absl::StrCat("engine setting '", setting, "': ", why));
  };
  if (key == "cmd") {
    if (absl::StripAsciiWhitespace(value).empty()) return bad("empty command");
    if (programName(value).empty()) return bad("environment assignments but no program to run");
    config.command = value;
  } else if (key == "name") {
    if (value.empty() || value.find_first_of("\"\\\n") != std::string::npos) return bad("bad name");
    config.name = value;
  } else if (key == "proto") {
    if (value == "ugi")
      config.protocol = Protocol::kUgi;
    else if (value == "uci")
      config.protocol = Protocol::kUci;
    else
      return bad("proto must be ugi or uci");
  } else if (key == "tc") {
    auto tc = parseClock(value);
    if (!tc.ok()) return tc.status();
    config.limits.baseMs = tc->baseMs;
    config.limits.incMs = tc->incMs;
  } else if (key == "movetime") {
    auto ms = parseSeconds(value);
    if (!ms.ok() || *ms <= 0) return bad("movetime must be a positive number of seconds");
    config.limits.moveTimeMs = *ms;
  } else if (key == "depth") {
    auto depth = parseBoundedInteger(value, 1, 1000, "depth");
    if (!depth.ok()) return bad("depth must be 1..1000");
    config.limits.depth = static_cast<int>(*depth);
  } else if (key == "nodes") {
    auto nodes = parseBoundedInteger(value, 1, INT64_MAX, "nodes");
    if (!nodes.ok()) return bad("nodes must be a positive integer");
    config.limits.nodes = static_cast<decltype(config.limits.nodes)>(*nodes);
  } else if (key.rfind("option.", 0) == 0 && key.size() > 7) {
    if (value.find('\n') != std::string::npos) return bad("newline in option value");
    config.options.emplace_back(key.substr(7), value);
  } else {
    return bad("unknown key (expected cmd, name, proto, tc, movetime, depth, nodes or option.<Name>)");
  }
  return absl::OkStatus();
}

EnginePlayer::EnginePlayer(EngineConfig config, Variant variant, PlayerTimeouts timeouts)
    : config_(std::move(config)), variant_(variant), timeouts_(timeouts) {}

absl::Status EnginePlayer::fail(const absl::Status& status, const std::string& waitingFor) {
  std::string what;
  if (absl::IsDeadlineExceeded(status)) {
    what = absl::StrCat("no ", waitingFor, " in time");
  } else if (absl::IsUnavailable(status) && process_) {
    process_->stop(std::chrono::milliseconds(500));  // let a dying engine finish, to report how it ended
    what = absl::StrCat("engine exited (", process_->exitDescription(), ") while waiting for ", waitingFor);
  } else {
    what = absl::StrCat(status.message(), " (waiting for ", waitingFor, ")");
  }
  stop();
  if (absl::IsDeadlineExceeded(status)) return absl::DeadlineExceededError(what);
  return absl::UnavailableError(what);
}

absl::StatusOr<std::string> EnginePlayer::waitFor(const std::string& token, Clock::time_point deadline) {
  while (true) {
    auto line = process_->readLine(deadline);
    if (!line.ok()) return line.status();
    if (firstWord(*line) == token) return *line;
  }
}

absl::Status EnginePlayer::start() {
  stop();
  process_ = std::make_unique<EngineProcess>();
  if (auto status = process_->start(config_.command); !status.ok()) return fail(status, "start");
  const bool ugi = config_.protocol == Protocol::kUgi;
  const std::string hello = ugi ? "ugi" : "uci", helloOk = ugi ? "ugiok" : "uciok";
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeouts_.handshakeMs);
  if (auto status = process_->writeLine(hello, deadline); !status.ok()) return fail(status, helloOk);
  if (auto line = waitFor(helloOk, deadline); !line.ok()) return fail(line.status(), helloOk);
  std::vector<std::pair<std::string, std::string>> options = {{"Variant", variant_.name()}};
  options.insert(options.end(), config_.options.begin(), config_.options.end());
  for (const auto& [name, value] : options)
    if (auto status = process_->writeLine(absl::StrCat("setoption name ", name, " value ", value), deadline);
        !status.ok())
      return fail(status, "setoption");
  ready_ = true;
  return absl::OkStatus();
}

absl::Status EnginePlayer::newGame() {
  if (!ready_)
    if (auto status = start(); !status.ok()) return status;
  const bool ugi = config_.protocol == Protocol::kUgi;
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeouts_.handshakeMs);
  if (auto status = process_->writeLine(ugi ? "uginewgame" : "ucinewgame", deadline); !status.ok())
    return fail(status, "readyok");
  if (auto status = process_->writeLine("isready", deadline); !status.ok()) return fail(status, "readyok");
  if (auto line = waitFor("readyok", deadline); !line.ok()) return fail(line.status(), "readyok");
  return absl::OkStatus();
}

absl::Status EnginePlayer::dropStaleOutput() {
  if (!ready_) return absl::FailedPreconditionError("engine not started");
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeouts_.handshakeMs);
  if (auto status = process_->writeLine("isready", deadline); !status.ok()) return fail(status, "readyok");
  if (auto line = waitFor("readyok", deadline); !line.ok()) return fail(line.status(), "readyok");
  return absl::OkStatus();
}

absl::StatusOr<std::string> EnginePlayer::think(const std::string& positionLine, const std::string& goLine,
                                                Clock::time_point deadline) {
  if (!ready_) return absl::FailedPreconditionError("engine not started");
  // The writes count against the move's time: an engine that stops reading
  // its input loses on time like one that stops answering.
  if (auto status = process_->writeLine(positionLine, deadline); !status.ok()) return fail(status, "bestmove");
  if (auto status = process_->writeLine(goLine, deadline); !status.ok()) return fail(status, "bestmove");
  auto line = waitFor("bestmove", deadline);
  if (!line.ok()) return fail(line.status(), "bestmove");
  // "bestmove <move> [ponder <move>]": the move is the second word.
  std::vector<std::string> words = absl::StrSplit(*line, absl::ByAnyChar(" \t"), absl::SkipEmpty());
  return words.size() >= 2 ? words[1] : std::string();
}

void EnginePlayer::stop() {
  ready_ = false;
  if (process_) {
    // A polite quit, if the engine still takes input; it is killed anyway.
    if (process_->running()) (void)process_->writeLine("quit", Clock::now() + kQuitWriteTimeout);
    process_->stop();
  }
}

}  // namespace gobblet::match
