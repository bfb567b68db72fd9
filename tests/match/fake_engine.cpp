// gobblet-fake-engine: a tiny UGI/UCI engine that misbehaves on purpose, for
// the match runner's tests.
//
//   gobblet-fake-engine [--mode M] [--after N] [--when TEXT] [--delay-ms D] [--seed S] [--proto ugi|uci]
//                       [--log FILE]
//
// It keeps the position from "position" lines, answers "go" with an info
// line (depth, score, nodes, time, nps) and a legal move chosen by --mode,
// "go infinite" only after "stop", and the three UGI queries from the rules
// core. From its (N+1)-th "go" of the process (--after N, default 0) -- and,
// with --when, only on go lines containing TEXT -- it misbehaves:
//   random   (default) a uniformly random legal move, never misbehaves
//   first    the first legal move, never misbehaves
//   hashed   a legal move picked by a hash of --seed and the last position
//            line, never misbehaves: a game depends on its opening and its
//            engines alone, not on the games the process played before (as
//            with a node-limited real engine), so a match's games can be
//            compared game by game however they were dealt out
//   safe     the weakest player the skill levels are measured against: a
//            move that wins at once if there is one, else a uniformly
//            random move that gives the opponent no line in one
//            (engine/safe_moves.h), else any legal move; never misbehaves
//   crash    abort() instead of answering
//   illegal  answer a well-formed but illegal move
//   garbage  answer "bestmove xyzzy"
//   hang     stop reading and answering (sleeps 30 s, then exits)
//   late     answer a legal move after --delay-ms
//   ponder   append " ponder <move>" to bestmove
//   twice    send the bestmove line twice (the second is stale)
//   noready  never answer isready (from the (N+1)-th isready on)
//   nohello  never answer ugi/uci
//   wrongquery  answer the queries as if threefold repetition did not exist
//   badoption   list a spin option without min and max
//   banner      print a banner line at startup (allowed), otherwise follow the spec
//   flood       write 64 MiB of info lines before the answer
//   chatty      print an info string line between id and ugiok (not allowed)
// --log appends every line received to FILE. Exits on "quit" or end of input.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <thread>

#include "engine/game.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/safe_moves.h"

namespace {

using namespace gobblet;

struct Settings {
  std::string mode = "random";
  int after = 0;
  int delayMs = 0;
  std::string when;
  uint64_t seed = 1;
  bool uci = false;
  std::string logPath;
};

// Rebuilds the game from "position startpos|fen <text> [moves ...]"; false on
// bad input (the fake then keeps its previous position).
bool setPosition(const Variant& variant, const std::string& line, Game& game) {
  std::string rest = line.substr(std::string("position ").size());
  std::string moves;
  if (const size_t at = rest.find(" moves"); at != std::string::npos) moves = rest.substr(at + 6), rest.resize(at);
  Board start(variant);
  if (rest.rfind("fen ", 0) == 0) {
    auto parsed = parsePosition(variant, rest.substr(4));
    if (!parsed.ok()) return false;
    start = *parsed;
  } else if (rest != "startpos") {
    return false;
  }
  Game next(start);
  size_t i = 0;
  while (i < moves.size()) {
    while (i < moves.size() && moves[i] == ' ') ++i;
    const size_t end = moves.find(' ', i);
    const std::string text = moves.substr(i, end == std::string::npos ? std::string::npos : end - i);
    i = end == std::string::npos ? moves.size() : end;
    if (!text.empty() && !next.play(text).ok()) return false;
  }
  game = next;
  return true;
}

// A syntactically valid move that is illegal here: a small piece dropped on
// an occupied square, or a board move from an empty square.
std::string illegalMove(const Board& board) {
  const Variant& v = board.variant();
  for (int sq = 0; sq < v.squares(); ++sq)
    if (board.top(sq) >= 0) return "S@" + squareName(v, sq);
  return squareName(v, 0) + squareName(v, 1);
}

// The answers to "query gameover", "query p1turn" and "query result", from
// the rules core; `ignoreRepetition` judges the board alone (a plausible bug).
std::string queryAnswer(const Game& game, const std::string& query, bool ignoreRepetition) {
  GameResult result = game.result();
  if (ignoreRepetition) {
    const int winner = game.position().winner();
    result = winner == 0                        ? GameResult::kPlayer1Wins
             : winner == 1                      ? GameResult::kPlayer2Wins
             : countMoves(game.position()) == 0 ? GameResult::kDraw
                                                : GameResult::kNone;
  }
  if (query == "gameover") return result == GameResult::kNone ? "false" : "true";
  if (query == "p1turn") return game.position().sideToMove() == 0 ? "true" : "false";
  if (query == "result") return resultWord(result);
  return "unknown";
}

// --mode safe: a win at once, else a uniformly random move of those that
// give no line away (safeMoves), else a uniformly random one of `all`.
Move safeMove(Board board, const MoveList& all, std::mt19937_64& rng) {
  for (Move m : all)
    if (winsAtOnce(board, m)) return m;
  MoveList safe;
  safeMoves(board, safe);
  const MoveList& from = safe.empty() ? all : safe;
  return from[static_cast<int>(rng() % static_cast<uint64_t>(from.size()))];
}

}  // namespace

int main(int argc, char** argv) {
  Settings s;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--mode")
      s.mode = value;
    else if (key == "--after")
      s.after = std::atoi(value.c_str());
    else if (key == "--delay-ms")
      s.delayMs = std::atoi(value.c_str());
    else if (key == "--when")
      s.when = value;
    else if (key == "--seed")
      s.seed = std::strtoull(value.c_str(), nullptr, 10);
    else if (key == "--proto")
      s.uci = value == "uci";
    else if (key == "--log")
      s.logPath = value;
    else
      return std::fprintf(stderr, "fake engine: unknown argument %s\n", key.c_str()), 2;
  }
  std::ofstream log;
  if (!s.logPath.empty()) log.open(s.logPath, std::ios::app);
  std::mt19937_64 rng(s.seed);
  Variant variant = Variant::gobblet();
  Game game{Board(variant)};
  if (s.mode == "banner") std::cout << "fake engine, a banner before any command" << std::endl;
  int goCount = 0, readyCount = 0;
  std::string pendingInfinite;  // the bestmove line held until "stop"
  std::string positionLine;     // the last "position" line (--mode hashed)
  std::string line;
  while (std::getline(std::cin, line)) {
    if (log.is_open()) log << line << std::endl;
    if (line == "quit") break;
    if (line == "ugi" || line == "uci") {
      if (s.mode == "nohello") continue;
      std::cout << "id name fake-" << s.mode << "\nid author tests\n"
                << "option name Variant type string default gobblet\n";
      if (s.mode == "badoption") std::cout << "option name Hash type spin default 16\n";
      if (s.mode == "chatty") std::cout << "info string loading\n";
      std::cout << line << "ok" << std::endl;
    } else if (line == "isready") {
      if (s.mode == "noready" && readyCount++ >= s.after) continue;
      std::cout << "readyok" << std::endl;
    } else if (line.rfind("setoption name Variant value ", 0) == 0) {
      auto parsed = Variant::parse(line.substr(29));
      if (parsed.ok()) variant = *parsed, game = Game(Board(variant));
    } else if (line == "uginewgame" || line == "ucinewgame") {
      game = Game(Board(variant));
    } else if (line.rfind("position ", 0) == 0) {
      positionLine = line;
      if (!setPosition(variant, line, game)) std::cout << "info string bad position" << std::endl;
    } else if (line.rfind("query ", 0) == 0) {
      std::cout << "response " << queryAnswer(game, line.substr(6), s.mode == "wrongquery") << std::endl;
    } else if (line == "stop") {
      if (!pendingInfinite.empty()) std::cout << pendingInfinite << std::flush;
      pendingInfinite.clear();
    } else if (line.rfind("go", 0) == 0) {
      const bool misbehave = goCount++ >= s.after && (s.when.empty() || line.find(s.when) != std::string::npos);
      MoveList list;
      generateMoves(game.position(), list);
      std::string reply = list.empty() ? "(none)" : moveToString(list[0], variant);
      if (s.mode == "random" && !list.empty())
        reply = moveToString(list[static_cast<int>(rng() % static_cast<uint64_t>(list.size()))], variant);
      if (s.mode == "safe" && !list.empty()) reply = moveToString(safeMove(game.position(), list, rng), variant);
      if (s.mode == "hashed" && !list.empty()) {
        uint64_t hash = 1469598103934665603ull ^ s.seed;  // FNV-1a
        for (unsigned char c : positionLine) hash = (hash ^ c) * 1099511628211ull;
        reply = moveToString(list[static_cast<int>(hash % static_cast<uint64_t>(list.size()))], variant);
      }
      if (misbehave) {
        if (s.mode == "crash") std::abort();
        if (s.mode == "illegal") reply = illegalMove(game.position());
        if (s.mode == "garbage") reply = "xyzzy";
        if (s.mode == "hang") {
          std::this_thread::sleep_for(std::chrono::seconds(30));
          return 0;
        }
        if (s.mode == "late") std::this_thread::sleep_for(std::chrono::milliseconds(s.delayMs));
        if (s.mode == "flood") {
          const std::string info =
              "info depth 1 score cp 0 nodes 1 time 0 nps 0 string " + std::string(200, 'x') + "\n";
          for (size_t written = 0; written < (size_t{64} << 20) && std::cout; written += info.size()) std::cout << info;
        }
      }
      std::string answer =
          "info depth 1 score cp 0 nodes " + std::to_string(list.size()) + " time 0 nps 0\nbestmove " + reply;
      if (misbehave && s.mode == "ponder" && list.size() > 0) answer += " ponder " + moveToString(list[0], variant);
      if (misbehave && s.mode == "twice") answer += "\nbestmove " + reply;
      if (line.find("infinite") != std::string::npos)
        pendingInfinite = answer + "\n";
      else
        std::cout << answer << std::endl;
    }
  }
  return 0;
}
