#include "protocol/session.h"

#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/printable_text.h"
#include "engine/version.h"
#include "position_display.h"
#include "protocol/score_words.h"

namespace gobblet {

namespace {

constexpr const char* kEngineAuthor = "the gobblet authors";

// "W D L": the chances, per mille, side to move (`info ... wdl`, `query wdl`).
std::string chancesText(const WinDrawLoss& wdl) {
  return std::to_string(wdl.win) + " " + std::to_string(wdl.draw) + " " + std::to_string(wdl.loss);
}

std::string formatInfo(const SearchInfo& i, const Variant& v, bool showWdl) {
  std::string out = "info depth " + std::to_string(i.depth) + " seldepth " + std::to_string(i.selDepth) + " multipv " +
                    std::to_string(i.multiPv) + " score " + scoreWords(i.score) +
                    (showWdl ? " wdl " + chancesText(i.wdl) : "") + " nodes " + std::to_string(i.nodes) + " nps " +
                    std::to_string(i.nps) + " time " + std::to_string(i.timeMs) + " hashfull " +
                    std::to_string(i.hashfull) + " tbhits " + std::to_string(i.tbHits);
  if (!i.pv.empty()) {
    out += " pv";
    for (Move m : i.pv) out.append(" ").append(moveToString(m, v));
  }
  return out;
}

}  // namespace

Session::Session(Output output, SessionConfig config)
    : output_(std::move(output)),
      engine_(config, [this](NoticeKind kind, const std::string& text) { notice(kind, text); }) {}

Session::~Session() { close(); }

void Session::emit(const std::string& line) {
  std::lock_guard lock(outputMutex_);
  output_(line);
}

void Session::error(std::string_view message) {
  static const std::string kPrefix = "info string error: ";
  emit(kPrefix + printableText(message, kMaxErrorLineBytes - kPrefix.size()));
}

void Session::error(const absl::Status& status) { error(std::string(status.message())); }

// A problem the engine met on the way is a warning: `info string error: …`
// answers a command that was refused, and nothing was (a client would take
// the variant it just chose for refused when its tablebase cannot be read).
void Session::notice(NoticeKind kind, const std::string& text) {
  const std::string_view prefix = kind == NoticeKind::kError ? "warning: " : "";
  emit("info string " + std::string(prefix) + printableText(text, kMaxErrorLineBytes - prefix.size()));
}

void Session::close() {
  closed_ = true;
  engine_.close();
}

void Session::reportOverlongLine(size_t maxBytes) {
  error("line longer than " + std::to_string(maxBytes) + " bytes ignored");
}

bool Session::handleLine(std::string_view line) {
  if (closed_) return false;
  auto parsed = parseCommand(line);
  if (!parsed.ok()) {
    error(parsed.status());
    return true;
  }
  const Command& c = *parsed;
  const auto report = [this](const absl::Status& status) {
    if (!status.ok()) error(status);
  };
  switch (c.kind) {
    case CommandKind::kEmpty:
      break;
    case CommandKind::kUgi:
      handshake(false);
      break;
    case CommandKind::kUci:
      handshake(true);
      break;
    case CommandKind::kIsReady:
      engine_.prepare();
      emit("readyok");
      break;
    case CommandKind::kSetOption:
      setOption(c);
      break;
    case CommandKind::kNewGame:
      engine_.newGame();
      break;
    case CommandKind::kPosition:
      report(engine_.setPosition(c.startpos ? std::nullopt : std::optional<std::string_view>(c.positionText), c.moves));
      break;
    case CommandKind::kGo:
      go(c);
      break;
    case CommandKind::kStop:
      engine_.stop();
      break;
    case CommandKind::kPonderHit:
      engine_.ponderHit();
      break;
    case CommandKind::kQuit:
      close();
      return false;
    // After a refused `position` there is no position to answer for (the
    // facade refuses go and perft itself).
    case CommandKind::kQuery:
      if (hasPosition("query")) query(c);
      break;
    case CommandKind::kDisplay:
      if (hasPosition("d")) display();
      break;
    case CommandKind::kMoves:
      if (hasPosition("moves")) listMoves();
      break;
    case CommandKind::kPerft:
      perft(c.depth);
      break;
    case CommandKind::kBench:
      bench(c.depth);
      break;
    case CommandKind::kEval:
      if (hasPosition("eval")) eval();
      break;
    case CommandKind::kDebug:
      report(engine_.setOption("Debug", c.debugOn ? "true" : "false", true));
      break;
    case CommandKind::kAuth:
      error("auth: not expected here (no token is required, or it was already given)");
      break;
  }
  return true;
}

bool Session::hasPosition(std::string_view command) {
  const absl::Status st = engine_.positionStatus();
  if (!st.ok()) error(std::string(command) + ": " + std::string(st.message()));
  return st.ok();
}

// `option name <name> type spin default <d> min <lo> max <hi>` (or check,
// combo with its vars, string), from the declarations and this session's caps.
void Session::handshake(bool uci) {
  emit("id name " + engineName());
  emit(std::string("id author ") + kEngineAuthor);
  const OptionCaps& caps = engine_.limits().caps;
  for (const OptionDeclaration& d : kOptionTable) {
    if (!offered(d, caps)) continue;
    std::string line = "option name " + std::string(d.name) + " type ";
    switch (d.type) {
      case OptionType::kSpin: {
        const int64_t max = cappedMax(d, caps);
        line += "spin default " + std::to_string(std::min(d.defaultValue, max)) + " min " + std::to_string(d.min) +
                " max " + std::to_string(max);
        break;
      }
      case OptionType::kCheck:
        line += std::string("check default ") + (d.defaultValue ? "true" : "false");
        break;
      case OptionType::kCombo:
        line += "combo default " + std::string(d.defaultText);
        for (std::string_view choice : comboChoices(d)) line.append(" var ").append(choice);
        break;
      case OptionType::kString:
        line += "string default " + std::string(d.defaultText);
        break;
    }
    emit(line);
  }
  emit(uci ? "uciok" : "ugiok");
}

void Session::setOption(const Command& c) {
  if (absl::Status st = engine_.setOption(c.optionName, c.optionValue, c.hasValue); !st.ok()) error(st);
}

// `bestmove <move>`, with ` ponder <move>` only when the controller has
// switched Ponder on: UGI defines `bestmove <move>` alone, and cutegames
// reads nothing else.
void Session::go(const Command& c) {
  if (c.prove) return prove(c);
  const Variant variant = engine_.options().variant;
  const bool ponder = engine_.options().ponder;
  const bool showWdl = engine_.options().showWdl;
  SearchCallbacks callbacks;
  callbacks.onInfo = [this, variant, showWdl](const SearchInfo& info) { emit(formatInfo(info, variant, showWdl)); };
  callbacks.onProgress = [this](const SearchProgress& p) {
    emit("info nodes " + std::to_string(p.nodes) + " nps " + std::to_string(p.nps) + " time " +
         std::to_string(p.timeMs) + " hashfull " + std::to_string(p.hashfull) + " tbhits " + std::to_string(p.tbHits));
  };
  callbacks.onError = [this](const std::string& text) { error(text); };
  callbacks.onDiagnostic = [this](const std::string& text) { emit("info string " + text); };
  callbacks.onBestMove = [this, variant, ponder](Move best, Move reply) {
    std::string line = "bestmove " + moveToString(best, variant);
    if (ponder && !best.isNone() && !reply.isNone()) line += " ponder " + moveToString(reply, variant);
    emit(line);
  };
  engine_.go(c.limits, std::move(callbacks));
}

void Session::query(const Command& c) {
  const Game& game = engine_.game();
  switch (c.query) {
    case QueryKind::kGameOver:
      emit(std::string("response ") + (game.result() != GameResult::kNone ? "true" : "false"));
      break;
    case QueryKind::kP1Turn:
      emit(std::string("response ") + (game.position().sideToMove() == 0 ? "true" : "false"));
      break;
    case QueryKind::kResult:
      emit(std::string("response ") + resultWord(game.result()));
      break;
    case QueryKind::kReason: {  // how the game ended, in the rules core's words
      EndReason reason;
      const GameResult result = game.result(&reason);
      emit("response " + endReasonText(reason, result));
      break;
    }
    case QueryKind::kFen:
      emit("response " + positionToString(game.position()));
      break;
    case QueryKind::kLine: {  // the winner's line squares, a1 first; none without a line
      const Board& board = game.position();
      std::string squares;
      for (int sq = 0; sq < board.variant().squares(); ++sq)
        if (board.winningLineSquares() & bit(sq)) {
          // Two appends, not " " + name: GCC 12 at -O3 warned of an
          // overlapping memcpy in that concatenation (a false -Wrestrict).
          squares += ' ';
          squares += squareName(board.variant(), sq);
        }
      emit("response" + (squares.empty() ? std::string(" none") : squares));
      break;
    }
    case QueryKind::kValues: {  // every legal move's exact value, best first: "S@b1 w13 M@a1 d S@a1 l12"
      const absl::StatusOr<std::vector<tb::RankedMove>> ranked = engine_.exactValues();
      if (!ranked.ok()) {
        error("query " + std::string(queryWord(c.query)) + ": " + std::string(ranked.status().message()));
        break;
      }
      std::string line = "response";
      for (const tb::RankedMove& r : *ranked) {
        line.append(" ").append(moveToString(r.move, game.position().variant())).append(" ");
        switch (r.value.value) {
          case tb::Value::kWin:
            line.append("w").append(std::to_string(r.value.distance));
            break;
          case tb::Value::kLoss:
            line.append("l").append(std::to_string(r.value.distance));
            break;
          case tb::Value::kDraw:
            line.append("d");
            break;
          case tb::Value::kUnknown:
            line.append("?");
            break;
        }
      }
      emit(ranked->empty() ? "response none" : line);
      break;
    }
    case QueryKind::kWdl:  // the chances of the position itself, without a search
      emit("response " + chancesText(engine_.chances()));
      break;
    case QueryKind::kProof: {
      // The proof database's value for the side to move: "win 15 L@b2",
      // "loss 12", "draw S@b2", "not-lost S@b2", "not-won" or "none".
      using Kind = Engine::DatabaseValue::Kind;
      const std::optional<Engine::DatabaseValue> value = engine_.databaseValue();
      const std::string move = value ? " " + moveToString(value->move, game.position().variant()) : "";
      if (!value) {
        emit("response none");
      } else if (value->kind == Kind::kWin) {
        emit("response win " + std::to_string(value->plies) + move);
      } else if (value->kind == Kind::kLoss) {
        emit("response loss " + std::to_string(value->plies));
      } else if (value->kind == Kind::kDraw) {
        emit("response draw" + move);
      } else if (value->kind == Kind::kNotLost) {
        emit("response not-lost" + move);
      } else {
        emit("response not-won");
      }
      break;
    }
  }
}

void Session::display() {
  for (const std::string& line : describeGame(engine_.game())) emit(line);
}

void Session::listMoves() {
  MoveList list;
  generateMoves(engine_.game().position(), list);
  std::string line = "moves";
  for (Move m : list) line.append(" ").append(moveToString(m, engine_.options().variant));
  emit(line);
}

// One line per root move as soon as it is counted, then the total.
void Session::perft(int depth) {
  const Variant variant = engine_.options().variant;
  PerftCallbacks callbacks;
  callbacks.onRootMove = [this, variant](Move m, uint64_t n) {
    emit(moveToString(m, variant) + ": " + std::to_string(n));
  };
  callbacks.onDone = [this](uint64_t total, int64_t ms, bool stopped, size_t counted, size_t rootMoves) {
    if (stopped)
      emit("info string perft stopped after " + std::to_string(counted) + " of " + std::to_string(rootMoves) +
           " root moves");
    else
      emit("nodes " + std::to_string(total) + " time " + std::to_string(ms));
  };
  if (absl::Status st = engine_.perft(depth, std::move(callbacks)); !st.ok()) error(st);
}

void Session::bench(int depth) {
  BenchCallbacks callbacks;
  callbacks.onPosition = [this](const std::string& line) { emit("info string " + line); };
  callbacks.onDone = [this](const BenchResult& r) {
    if (!r.error.empty()) {
      emit("info string error: bench: " + r.error);
      return;
    }
    if (r.stopped) {
      emit("info string bench stopped");
      return;
    }
    const uint64_t ms = static_cast<uint64_t>(r.seconds * 1000);
    const uint64_t nps = r.seconds > 0 ? static_cast<uint64_t>(r.nodes / r.seconds) : 0;
    emit("bench nodes " + std::to_string(r.nodes) + " time " + std::to_string(ms) + " nps " + std::to_string(nps));
  };
  if (absl::Status st = engine_.bench(depth, std::move(callbacks)); !st.ok()) error(st);
}

// `go prove`: the prover's answer, then (a win or a loss) its score and
// (a win) the move that wins, then bestmove: that move, else "(none)". The
// win prover's own draw (proof/prover.h: no certificate) is no proof: said
// "unknown (no draw certificate: ...)".
//   info string proof win plies 17 nodes 9220 time 90 certificate 4818 checked
//   info score mate 17 nodes 9220 time 90 pv L@b2
//   bestmove L@b2
// Neither, and the not-lost prover held the side to move (ProvedDefence):
// a draw (both sides held) or "not-lost" (the side to move cannot lose),
// the score exact or a lower bound, and the strategy's move.
//   info string proof draw nodes 2187 time 2 certificates 106 and 588 checked
//   info score cp 0 nodes 2187 time 2 pv S@a1
//   bestmove S@a1
//   info string proof not-lost nodes 1255 time 1 certificate 106 checked
//   info score cp 0 lowerbound nodes 1255 time 1 pv S@a1
void Session::prove(const Command& c) {
  const Variant variant = engine_.options().variant;
  ProveLimits limits;
  limits.nodes = c.limits.nodes;
  limits.moveTimeMs = c.limits.moveTime;
  ProveCallbacks callbacks;
  callbacks.onDone = [this, variant](const absl::StatusOr<proof::ProofResult>& r, Move winning,
                                     const ProvedDefence& defence) {
    if (!r.ok()) {
      error("go prove: " + std::string(r.status().message()));
      emit("bestmove " + moveToString(Move::none(), variant));
      return;
    }
    const std::string counts = " nodes " + std::to_string(r->nodes + defence.nodes) + " time " +
                               std::to_string(static_cast<int64_t>((r->seconds + defence.seconds) * 1000));
    if (defence.sideToMove == proof::Defence::kHeld) {
      const bool drawn = defence.drawn();
      emit(std::string("info string proof ") + (drawn ? "draw" : "not-lost") + counts +
           (drawn ? " certificates " + std::to_string(defence.certificates[0]) + " and " +
                        std::to_string(defence.certificates[1]) + " checked"
                  : " certificate " + std::to_string(defence.certificates[0]) + " checked"));
      emit(std::string("info score cp 0") + (drawn ? "" : " lowerbound") + counts + " pv " +
           moveToString(defence.move, variant));
      emit("bestmove " + moveToString(defence.move, variant));
      return;
    }
    // The win prover's own draw has no certificate the checker could accept:
    // it is said unknown, with why (an exact claim is a checked one).
    const bool uncheckedDraw = r->outcome == proof::Outcome::kDraw;
    std::string line = std::string("info string proof ") + proof::outcomeWord(r->outcome);
    if (uncheckedDraw) line = "info string proof unknown";
    if (r->plies >= 0 && !uncheckedDraw) line += " plies " + std::to_string(r->plies);
    line += counts;
    if (r->certificate)
      line += " certificate " + std::to_string(r->certificate->nodes.size()) + (r->certified ? " checked" : "");
    if (uncheckedDraw)
      line += " (no draw certificate: the win prover's draw" + (r->note.empty() ? "" : ", " + r->note + ",") +
              " is not checked, and the not-lost prover held neither side)";
    else if (!r->note.empty())
      line += " (" + r->note + ")";
    emit(line);
    if (r->outcome == proof::Outcome::kWin || r->outcome == proof::Outcome::kLoss) {
      // In plies, as the search says mates (docs/protocol.md): at most that many.
      const int plies = r->outcome == proof::Outcome::kWin ? r->plies : -r->plies;
      emit("info score mate " + std::to_string(plies) + counts +
           (winning.isNone() ? std::string() : " pv " + moveToString(winning, variant)));
    }
    emit("bestmove " + moveToString(winning, variant));
  };
  // Refused (no position, a decided one): the error, and the one bestmove a go gets.
  if (absl::Status st = engine_.prove(limits, std::move(callbacks)); !st.ok()) {
    error(st);
    emit("bestmove " + moveToString(Move::none(), variant));
  }
}

// The static evaluation of the current position as a small table: each
// term's share for both players and the net (player 1 minus player 2), then
// the total from the side to move's view, which is what the search uses.
void Session::eval() {
  const EvalTerms t = engine_.evaluate();
  const auto row = [](const std::string& name, const std::string& p1, const std::string& p2, const std::string& net) {
    std::string line = "info string eval " + name;
    for (const std::string* cell : {&p1, &p2, &net})
      line += std::string(cell->size() < 9 ? 9 - cell->size() : 1, ' ') + *cell;
    return line;
  };
  const std::pair<const char*, const EvalTerm*> terms[] = {{"visible    ", &t.visible},
                                                           {"in hand    ", &t.inHand},
                                                           {"captives   ", &t.captives},
                                                           {"lines      ", &t.lines},
                                                           {"line safety", &t.lineSafety}};
  emit(row("term       ", "player1", "player2", "net"));
  for (const auto& [name, term] : terms)
    emit(row(name, std::to_string(term->player[0]), std::to_string(term->player[1]), std::to_string(term->net())));
  emit(row("sum        ", "", "", std::to_string(t.forPlayer1)));
  emit(row("tempo      ", "", "", std::to_string(t.tempo)));
  emit("info string eval total " + std::to_string(t.total) + " (side to move: player " +
       std::to_string(engine_.game().position().sideToMove() + 1) + ")");
  if (const std::optional<int> net = engine_.netEvaluation())
    emit("info string eval net " + std::to_string(*net) + " (" +
         (engine_.options().evalFile.empty() ? std::string("the built-in net") : "EvalFile") + ", side to move; " +
         (engine_.options().searchUsesNet() ? "the search uses it"
                                            : "Use NNUE is off: the search uses the total above") +
         ")");
}

}  // namespace gobblet
