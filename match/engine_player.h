// EnginePlayer: one engine as a player, speaking UGI (or UCI) over an
// EngineProcess.
//
// The dialogue:  ugi -> id ... / option ... / ugiok   (uci / uciok for UCI)
//                setoption name Variant value <v>, then each configured option
//                isready -> readyok
//   every game:  uginewgame (ucinewgame), isready -> readyok
//   every move:  isready -> readyok (whatever came before readyok is
//                dropped: a second bestmove to the last go, late info lines),
//                then position startpos|fen <text> moves ...; go ... ->
//                info ... lines -> bestmove <move>
//
// Any failure (no answer in time, input not taken in time, end of output,
// write error) leaves the
// player stopped; the next newGame() starts a fresh process, so an engine
// that crashed or hung loses one game, not the match.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/variant.h"
#include "match/engine_process.h"
#include "match/time_control.h"

namespace gobblet::match {

// An engine as given on the command line: "cmd=... name=... proto=ugi|uci
// tc=10+0.1 movetime=0.2 depth=N nodes=N option.<Name>=<value>".
struct EngineConfig {
  std::string name;     // shown in tables and records; defaults to the command
  std::string command;  // run by /bin/sh
  Protocol protocol = Protocol::kUgi;
  std::vector<std::pair<std::string, std::string>> options;  // setoption name/value, in order
  TimeControl limits;
};

// Applies one "key=value" setting to `config`; InvalidArgument on an unknown
// key or a bad value.
absl::Status applyEngineSetting(EngineConfig& config, const std::string& setting);

// Timeouts of the dialogue, in ms.
struct PlayerTimeouts {
  int64_t handshakeMs = 10000;  // ugiok and readyok
};

class EnginePlayer {
 public:
  EnginePlayer(EngineConfig config, Variant variant, PlayerTimeouts timeouts);

  const EngineConfig& config() const { return config_; }

  // Starts the engine if needed (handshake and options), then announces a
  // new game and waits for readyok. On failure the engine is stopped and the
  // status says what went wrong.
  absl::Status newGame();

  // Sends isready and drops every line before readyok, waiting up to the
  // handshake timeout: whatever the engine still had to say about its last
  // move (a second bestmove) cannot then be taken for its next one. Called
  // before each move's clock starts. On failure the engine is stopped, as
  // for newGame().
  absl::Status dropStaleOutput();

  // Sends the position and the go line, then waits until `deadline` for
  // bestmove and returns its move text. On failure the engine is stopped:
  // DeadlineExceeded when it did not answer (or take its input) in time,
  // Unavailable when it
  // exited (the message says how).
  absl::StatusOr<std::string> think(const std::string& positionLine, const std::string& goLine,
                                    Clock::time_point deadline);

  // Stops the engine process (it is restarted by the next newGame()).
  void stop();

 private:
  absl::Status start();
  // Reads lines until one whose first word is `token`; returns that line.
  absl::StatusOr<std::string> waitFor(const std::string& token, Clock::time_point deadline);
  // Stops the engine and turns a read failure into a status naming the engine
  // and what it was waiting for.
  absl::Status fail(const absl::Status& status, const std::string& waitingFor);

  EngineConfig config_;
  Variant variant_;
  PlayerTimeouts timeouts_;
  std::unique_ptr<EngineProcess> process_;
  bool ready_ = false;  // handshake done, process alive
};

}  // namespace gobblet::match
