// Session: one conversation with a controller, in UGI (or UCI spellings).
//
// The transports (stdin/stdout, one TCP connection) feed it input lines and
// give it an output function; everything else lives here: the options, the
// game (start position plus the moves played), the Search, and the rules for
// which command may run when. The search never sees protocol text: the
// session calls go()/stop() and turns the callbacks into `info`/`bestmove`.
//
// Threads: handleLine() is called by one input thread at a time. Output
// comes from that thread and from the search's threads; the session
// serialises it, so the output function sees one whole line per call and
// never two calls at once. Each `go` gets exactly one `bestmove`, also when
// it is stopped, replaced by another `go`, or the session closes.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "engine/game.h"
#include "protocol/command.h"
#include "protocol/engine_options.h"
#include "search/search.h"

namespace gobblet {

struct SessionConfig {
  OptionLimits optionLimits;
  int maxPerftDepth = kMaxPerftDepth;  // perft runs on the input thread: a server caps it
  bool benchAllowed = true;            // likewise bench
};

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

  // Stops a running search and waits for its bestmove. Idempotent.
  void close();

  // Is a search running (between `go` and its bestmove)?
  bool searching() const { return searching_.load(); }

 private:
  void emit(const std::string& line);
  // Writes "info string error: <message>", the message made printable and
  // cut to fit kMaxErrorLineBytes: it may quote any bytes of the input.
  void error(const std::string& message);

  void handshake(bool uci);
  void isReady();
  void setOptionCommand(const Command& c);
  void newGame();
  void position(const Command& c);
  void go(const Command& c);
  void stopSearch();
  void query(const Command& c);
  void display();
  void listMoves();
  void perftCommand(int depth);
  void bench(int depth);
  void eval();

  // Creates the Search on first need (not before the first isready/go:
  // the handshake must stay cheap), and finds the tablebase for the variant.
  Search& search();
  void attachTablebase();
  SearchOptions searchOptions() const;
  bool applySearchOptions();

  Output output_;
  std::mutex outputMutex_;
  SessionConfig config_;
  EngineOptions options_;
  Game game_;
  std::unique_ptr<Search> search_;
  std::unique_ptr<Game> searchGame_;  // the game the running search was given; lives until the next go
  std::shared_ptr<const Tablebase> tablebase_;
  bool tablebaseResolved_ = false;  // looked for the current variant's tablebase?
  std::atomic<bool> searching_{false};
  // A `go infinite|ponder` on a decided position: its `bestmove (none)` waits for stop/ponderhit.
  bool heldNoneBestMove_ = false;
  bool closed_ = false;
};

}  // namespace gobblet
