// Session: one conversation with a controller, in UGI (or UCI spellings).
//
// The transports (stdin/stdout, one TCP connection, one WebSocket) feed it
// input lines and give it an output function. The session turns each line
// into a call on its Engine (protocol/engine.h) and the engine's callbacks
// into lines (`info`, `bestmove`, `response`, ...); it holds no game logic of
// its own. What UGI asks of the text, and where we follow UCI instead, is in
// docs/protocol.md.
//
// Threads: handleLine() is called by one input thread at a time. The engine
// calls back from its search and worker threads; the session serialises the
// output, so the output function sees one whole line per call and never two
// calls at once. Each `go` gets exactly one `bestmove`, also when it is
// stopped, replaced by another `go`, or the session closes; each
// `perft`/`bench` ends with its total line, or with
// `info string perft|bench stopped …` after a stop.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "protocol/command.h"
#include "protocol/engine.h"

namespace gobblet {

// What the front end lets a session do (the TCP and WebSocket servers cap
// Hash and Threads, keep perft short and turn bench off).
using SessionConfig = EngineLimits;

// The longest error line the session writes ("info string error: ..."),
// newline excluded: an error message may quote any input, so it is made
// printable and cut to fit. (The text of a notice, `info string <text>`, is
// cut to this size too.)
inline constexpr size_t kMaxErrorLineBytes = 200;

class Session {
 public:
  // Receives one output line at a time, without a newline.
  using Output = std::function<void(const std::string& line)>;

  explicit Session(Output output, SessionConfig config = {});
  ~Session();  // close()
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Handles one input line (without its newline). Returns false once the
  // controller has sent `quit`; the session is then closed.
  bool handleLine(std::string_view line);

  // Reports an input line that the transport dropped for being too long.
  void reportOverlongLine(size_t maxBytes);

  // Stops a running search, perft or bench and waits for its last line.
  // Idempotent.
  void close();

  // Is anything running: a search (between `go` and its bestmove), a perft
  // or a bench (until its last line)?
  bool busy() const { return engine_.busy(); }

 private:
  void emit(const std::string& line);
  // Writes "info string error: <message>", the message made printable and
  // cut to fit kMaxErrorLineBytes: it may quote any bytes of the input.
  void error(std::string_view message);
  void error(const absl::Status& status);  // its message
  void notice(NoticeKind kind, const std::string& text);

  // Is there a position to answer `command` for? If not (the last
  // `position` was refused), says so in an error line.
  bool hasPosition(std::string_view command);
  void handshake(bool uci);
  void setOption(const Command& c);
  void go(const Command& c);
  void prove(const Command& c);  // `go prove`
  void query(const Command& c);  // one `response` line per question of kQueryKeywords
  void display();
  void listMoves();
  void perft(int depth);
  void bench(int depth);
  void eval();

  Output output_;
  std::mutex outputMutex_;
  bool closed_ = false;  // after quit or close(): lines are ignored
  Engine engine_;        // last: destroyed (closed) first, while output_ still works
};

}  // namespace gobblet
