// Session: one conversation with a controller, in UGI (or UCI spellings).
//
// The transports (stdin/stdout, one TCP connection) feed it input lines and
// give it an output function; everything else lives here: the options, the
// game (start position plus the moves played), the Search, and the rules for
// which command may run when. The search never sees protocol text: the
// session calls go()/stop() and turns the callbacks into `info`/`bestmove`.
//
// Threads: handleLine() is called by one input thread at a time. The search
// runs on its own threads, and `perft` and `bench` on the session's worker
// thread, so the input thread never waits for them: `isready` is answered at
// once and `stop`, `quit` and the end of input take effect at once. Output
// comes from all of these; the session serialises it, so the output
// function sees one whole line per call and never two calls at once. Each
// `go` gets exactly one `bestmove`, also when it is stopped, replaced by
// another `go`, or the session closes; each `perft`/`bench` ends with its
// total line, or with `info string perft|bench stopped …` after a stop.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "engine/game.h"
#include "protocol/command.h"
#include "protocol/engine_options.h"
#include "search/search.h"

namespace gobblet {

struct SessionConfig {
  OptionLimits optionLimits;
  int maxPerftDepth = kMaxPerftDepth;  // a server caps the CPU one client can ask for
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

  // Stops a running search, perft or bench and waits for its last line.
  // Idempotent.
  void close();

  // Is anything running: a search (between `go` and its bestmove), a perft
  // or a bench (until its last line)?
  bool busy() const { return searching_.load() || workerBusy_.load(); }

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
  // Stops whatever runs: the search (it sends its bestmove), a perft or a
  // bench (they report that they stopped). Does not wait.
  void stopSearch();
  // Waits for the worker thread's job to end (after stopSearch(): promptly).
  void joinWorker();
  // Runs `job` on the worker thread; the caller has checked !busy().
  void startWorker(std::function<void()> job);
  // The error for a command refused because something runs.
  void busyError(const std::string& command);
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
  std::shared_ptr<const tb::Tablebase> tablebase_;
  bool tablebaseResolved_ = false;  // looked for the current variant's tablebase?
  std::atomic<bool> searching_{false};
  // A `go infinite|ponder` on a decided position: its `bestmove (none)` waits for stop/ponderhit.
  bool heldNoneBestMove_ = false;
  bool closed_ = false;
  // The worker thread: runs one perft or bench at a time. workerBusy_ is
  // cleared just before the job's last line; workerStop_ asks it to end.
  std::thread worker_;
  std::atomic<bool> workerBusy_{false};
  std::atomic<bool> workerStop_{false};
};

}  // namespace gobblet
