// Transcripts through the real `gobblet` binary over pipes: the handshake,
// options, positions, every go limit, isready and stop mid-search, queries
// (repetition and no-move draws, wins), the extensions and every error path.
#include <gtest/gtest.h>

#include <thread>

#include <cstdlib>
#include <map>
#include <set>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "engine/game.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/perft.h"
#include "tests/support/engine_client.h"
#include "search/evaluate.h"
#include "tablebase/tablebase.h"
#include "tests/support/paths.h"

namespace gobblet {
namespace {

using testing::EngineProcess;
using testing::Ms;

// The legal moves of a game given as a position command's move list.
std::vector<std::string> legalMoves(const Variant& v, const std::vector<std::string>& moves) {
  Game game{Board(v)};
  for (const auto& m : moves) EXPECT_TRUE(game.play(m).ok()) << m;
  MoveList list;
  generateMoves(game.position(), list);
  std::vector<std::string> out;
  for (Move m : list) out.push_back(moveToString(m, v));
  return out;
}

// Sends `go <limits>` and checks the answer: info lines, then one legal
// bestmove. Returns the lines seen.
std::vector<std::string> goAndCheck(EngineProcess& e, const std::string& limits, const std::vector<std::string>& legal,
                                    Ms timeout = Ms(20000)) {
  std::vector<std::string> seen;
  e.send("go " + limits);
  auto best = e.until("bestmove", timeout, &seen);
  EXPECT_TRUE(best.has_value()) << "no bestmove for go " << limits;
  if (!best) return seen;
  // UGI: `bestmove <move>`, exactly two words (Ponder is off), and the last
  // info before it carries depth, score, nodes, time and nps.
  const std::vector<std::string> words = absl::StrSplit(*best, ' ');
  EXPECT_EQ(words.size(), 2u) << *best;
  if (words.size() >= 2) {
    EXPECT_NE(std::find(legal.begin(), legal.end(), words[1]), legal.end()) << *best << " for go " << limits;
  }
  EXPECT_GE(seen.size(), 2u) << "no info before the bestmove of go " << limits;
  if (seen.size() >= 2) {
    const std::string& last = seen[seen.size() - 2];
    EXPECT_EQ(last.rfind("info ", 0), 0u) << last;
    for (const char* field : {" depth ", " score ", " nodes ", " time ", " nps "})
      EXPECT_NE(last.find(field), std::string::npos) << "no" << field << "in the last info: " << last;
  }
  // Diagnostics are for `debug on` only; errors never.
  for (const auto& l : seen) EXPECT_EQ(l.rfind("info string", 0), std::string::npos) << l;
  // Exactly one bestmove: the next thing after isready is readyok.
  e.send("isready");
  EXPECT_EQ(e.line(), "readyok") << "after go " << limits;
  return seen;
}

TEST(ProtocolPipe, HandshakeUgiAndUci) {
  EngineProcess e;
  ASSERT_TRUE(e.started());
  e.send("ugi");
  std::vector<std::string> seen;
  ASSERT_TRUE(e.until("ugiok", Ms(5000), &seen));
  ASSERT_GE(seen.size(), 4u);
  EXPECT_EQ(seen[0].rfind("id name ", 0), 0u);
  EXPECT_EQ(seen[1].rfind("id author ", 0), 0u);
  int options = 0;
  for (const auto& l : seen) options += l.rfind("option name ", 0) == 0;
  EXPECT_GE(options, 6);
  for (const char* name : {"Hash", "Threads", "Variant", "TablebasePath", "MultiPV", "MoveOverhead"}) {
    bool found = false;
    for (const auto& l : seen) found |= l.rfind(std::string("option name ") + name + " type ", 0) == 0;
    EXPECT_TRUE(found) << name;
  }
  e.send("uci");
  EXPECT_TRUE(e.until("uciok"));
  e.send("isready");
  EXPECT_EQ(e.line(), "readyok");
  e.send("quit");
  EXPECT_TRUE(e.waitExit(Ms(5000)));
  EXPECT_TRUE(WIFEXITED(e.exitStatus()) && WEXITSTATUS(e.exitStatus()) == 0);
}

TEST(ProtocolPipe, PositionWithMovesAndDisplay) {
  EngineProcess e;
  e.send("position startpos moves X@a1 X@d4 a1b2");
  e.send("d");
  std::vector<std::string> seen;
  auto pos = e.until("position ", Ms(5000), &seen);
  ASSERT_TRUE(pos);
  Game game{Board()};
  for (const char* m : {"X@a1", "X@d4", "a1b2"}) ASSERT_TRUE(game.play(m).ok());
  EXPECT_EQ(*pos, "position " + positionToString(game.position()));
  EXPECT_EQ(e.line(), "side to move 2");
  // A position given as text, then moves from it.
  e.send("position fen " + positionToString(game.position()) + " moves X@c3");
  game.play(std::string_view("X@c3")).IgnoreError();
  e.send("d");
  EXPECT_EQ(e.until("position "), "position " + positionToString(game.position()));
  e.send("moves");
  auto moves = e.until("moves");
  ASSERT_TRUE(moves);
  MoveList list;
  generateMoves(game.position(), list);
  std::string expected = "moves";
  for (Move m : list) expected.append(" ").append(moveToString(m, Variant::gobblet()));
  EXPECT_EQ(*moves, expected);
}

// `eval` prints the hand-written evaluation's terms as a table of info
// strings; the nets add up to the sum row, and the total is evaluate() of
// the position, from the side to move's view. Then the net's value, and
// which of the two the search uses: the net by default, at every Skill
// Level, the total with Use NNUE off.
TEST(ProtocolPipe, EvalPrintsTheTermsAndTheSearchsTotal) {
  EngineProcess e;
  for (const std::vector<std::string>& moves :
       {std::vector<std::string>{}, {"X@a1", "X@d4", "L@b1"}, {"X@a1", "X@d4", "L@b1", "d4b1", "M@c3"}}) {
    Game game{Board()};
    std::string command = "position startpos";
    if (!moves.empty()) command += " moves";
    for (const auto& m : moves) {
      ASSERT_TRUE(game.play(m).ok()) << m;
      command += " " + m;
    }
    e.send(command);
    e.send("eval");
    std::vector<std::string> seen;
    auto total = e.until("info string eval total ", Ms(5000), &seen);
    ASSERT_TRUE(total) << command;
    int netSum = 0, sum = 0, tempo = 0, terms = 0;
    for (const auto& l : seen) {
      EXPECT_EQ(l.rfind("info string eval ", 0), 0u) << l;
      const std::vector<std::string> words = absl::StrSplit(l, ' ', absl::SkipEmpty());
      ASSERT_GE(words.size(), 4u) << l;
      int value = 0;
      if (words[3] == "term" || words[3] == "total") continue;
      ASSERT_TRUE(absl::SimpleAtoi(words.back(), &value)) << l;
      if (words[3] == "sum")
        sum = value;
      else if (words[3] == "tempo")
        tempo = value;
      else
        netSum += value, ++terms;
    }
    EXPECT_GE(terms, 4);
    EXPECT_EQ(netSum, sum);
    const Board& b = game.position();
    const std::vector<std::string> words = absl::StrSplit(*total, ' ');
    ASSERT_GE(words.size(), 5u);
    EXPECT_EQ(words[4], std::to_string(evaluate(b))) << *total;
    EXPECT_EQ(std::to_string((b.sideToMove() == 0 ? sum : -sum) + tempo), words[4]) << *total;
    // Then the net's value (4x4 Gobblet), which the search uses by default.
    const auto net = e.line();
    ASSERT_TRUE(net);
    EXPECT_EQ(net->rfind("info string eval net ", 0), 0u) << *net;
    EXPECT_NE(net->find("the search uses it"), std::string::npos) << *net;
  }
  for (const auto& [option, says] : {std::pair<std::string, std::string>{"Skill Level value 19", "the search uses it"},
                                     {"Skill Level value 20", "the search uses it"},
                                     {"Use NNUE value false", "Use NNUE is off"}}) {
    e.send("setoption name " + option);
    e.send("eval");
    const auto net = e.until("info string eval net ");
    ASSERT_TRUE(net) << option;
    EXPECT_NE(net->find(says), std::string::npos) << option << ": " << *net;
  }
  e.send("isready");
  EXPECT_EQ(e.line(), "readyok");
}

// The search evaluates with the net at every level (the levels' Elo was
// measured with it): with Use NNUE on, a level below full strength searches
// another tree than with it off, as full strength does.
TEST(ProtocolPipe, EveryLevelSearchesWithTheNet) {
  auto nodes = [](int level, bool nnue) {
    EngineProcess e;
    e.send("setoption name Skill Level value " + std::to_string(level));
    e.send("setoption name Skill Seed value 5");
    e.send(std::string("setoption name Use NNUE value ") + (nnue ? "true" : "false"));
    e.send("position startpos moves X@a1 X@d4 L@b1");
    e.send("go depth 5");
    std::vector<std::string> seen;
    EXPECT_TRUE(e.until("bestmove ", Ms(20000), &seen));
    std::string count;
    for (const auto& l : seen) {
      const size_t at = l.find(" nodes ");
      if (l.rfind("info depth ", 0) == 0 && at != std::string::npos)
        count = l.substr(at + 7, l.find(' ', at + 7) - at - 7);
    }
    return count;
  };
  for (int level : {12, 20}) {
    const std::string off = nodes(level, false);
    ASSERT_FALSE(off.empty()) << level;
    EXPECT_EQ(nodes(level, false), off) << level << ": the same search twice";
    EXPECT_NE(nodes(level, true), off) << level;
  }
}

// A bad position or move is refused whole, naming what is wrong; then there
// is no position to show until a valid one comes (the previous position
// must not stay and be searched).
TEST(ProtocolPipe, BadPositionOrMoveIsRefusedAndLeavesNoPosition) {
  EngineProcess e;
  e.send("position startpos moves X@b2");
  e.send("position startpos moves X@a1 X@a1");  // the second one is illegal
  auto err = e.line();
  ASSERT_TRUE(err);
  EXPECT_EQ(err->rfind("info string error: ", 0), 0u) << *err;
  // The ply and the move, named once (the rules core's reason names it).
  EXPECT_EQ(err->rfind("info string error: position: ply 2: illegal move: ", 0), 0u) << *err;
  EXPECT_EQ(err->find("'X@a1'"), err->rfind("'X@a1'")) << "named twice: " << *err;
  e.send("position fen 4/4/4/9 1");
  err = e.line();
  ASSERT_TRUE(err);
  EXPECT_NE(err->find("'4/4/4/9 1'"), std::string::npos) << *err;
  e.send("position fen 4/4/4/4 3");
  EXPECT_EQ(e.line()->rfind("info string error: ", 0), 0u);
  e.send("position startpos moves Q@a1");
  EXPECT_NE(e.line()->find("'Q@a1'"), std::string::npos);
  e.send("d");
  EXPECT_EQ(e.line()->rfind("info string error: d: no position: the last 'position' was refused", 0), 0u);
  e.send("position startpos moves X@b2");
  e.send("d");
  EXPECT_EQ(e.until("position "), "position 4/4/1X2/4 2");
}

TEST(ProtocolPipe, GoWithEachLimit) {
  EngineProcess e;
  const std::vector<std::string> moves = {"X@a1", "X@b2"};
  e.send("position startpos moves X@a1 X@b2");
  const auto legal = legalMoves(Variant::gobblet(), moves);
  auto seen = goAndCheck(e, "depth 3", legal);
  int maxDepth = 0;
  for (const auto& l : seen)
    if (l.rfind("info depth ", 0) == 0) maxDepth = std::max(maxDepth, std::stoi(l.substr(11)));
  EXPECT_EQ(maxDepth, 3);
  goAndCheck(e, "nodes 2000", legal);
  goAndCheck(e, "nodes 1", legal);  // stopped before depth 1 is done: still a full last info
  goAndCheck(e, "movetime 100", legal);
  goAndCheck(e, "movetime 1", legal);
  goAndCheck(e, "depth 1", legal);
  goAndCheck(e, "p1time 500 p2time 500 p1inc 10 p2inc 10", legal);
  goAndCheck(e, "wtime 300 btime 300 winc 0 binc 0 movestogo 10", legal);
  goAndCheck(e, "mate 3 depth 4", legal);
  seen = goAndCheck(e, "depth 2", legal);
  bool hasPvInfo = false;
  for (const auto& l : seen)
    hasPvInfo |= l.find(" score ") != std::string::npos && l.find(" nodes ") != std::string::npos &&
                 l.find(" pv ") != std::string::npos;
  EXPECT_TRUE(hasPvInfo);
}

// cutegames and the UGI spec read `bestmove <move>` as exactly two words:
// ` ponder <move>` only once the controller switched Ponder on. Search
// statistics only after `debug on` (or the Debug option).
TEST(ProtocolPipe, PonderSuffixAndDiagnosticsOnlyWhenAskedFor) {
  EngineProcess e;
  e.send("setoption name ponder value true");
  e.send("go depth 4");
  auto best = e.until("bestmove");
  ASSERT_TRUE(best);
  const std::vector<std::string> words = absl::StrSplit(*best, ' ');
  ASSERT_EQ(words.size(), 4u) << *best;
  EXPECT_EQ(words[2], "ponder");
  e.send("setoption name Ponder value false");
  e.send("debug on");
  std::vector<std::string> seen;
  e.send("go depth 4");
  best = e.until("bestmove", Ms(20000), &seen);
  ASSERT_TRUE(best);
  EXPECT_EQ(std::vector<std::string>(absl::StrSplit(*best, ' ')).size(), 2u) << *best;
  bool diagnostic = false;
  for (const auto& l : seen) diagnostic |= l.rfind("info string first-move cutoffs", 0) == 0;
  EXPECT_TRUE(diagnostic) << "debug on shows the move-ordering statistics";
  e.send("debug off");
  seen.clear();
  e.send("go depth 4");
  ASSERT_TRUE(e.until("bestmove", Ms(20000), &seen));
  for (const auto& l : seen) EXPECT_EQ(l.rfind("info string", 0), std::string::npos) << l;
  // What managers send every engine by default, in their spelling: each accepted in silence.
  seen.clear();
  for (const char* line : {"setoption name debug value false", "setoption name threads value 1",
                           "setoption name hash value 128", "setoption name ownbook value false", "isready"})
    e.send(line);
  ASSERT_TRUE(e.until("readyok", Ms(5000), &seen));
  EXPECT_EQ(seen.size(), 1u) << seen.front();
  e.send("setoption name OwnBook value true");  // one clear line: we have no book
  auto l = e.line();
  ASSERT_TRUE(l);
  EXPECT_EQ(l->rfind("info string error: option OwnBook", 0), 0u) << *l;
  e.send("isready");
  EXPECT_EQ(e.line(), "readyok");
}

TEST(ProtocolPipe, IsReadyMidSearchAndStop) {
  EngineProcess e;
  e.send("go infinite");
  ASSERT_TRUE(e.until("info depth"));
  const auto t0 = testing::Clock::now();
  e.send("isready");
  std::vector<std::string> seen;
  ASSERT_TRUE(e.until("readyok", Ms(5000), &seen));
  const auto ms = std::chrono::duration_cast<std::chrono::microseconds>(testing::Clock::now() - t0).count() / 1000.0;
  std::printf("isready answered in %.2f ms mid-search\n", ms);
  // The input thread never waits for the search: even under ASan on two
  // loaded cores the answer takes a few milliseconds, not a search iteration.
  EXPECT_LT(ms, 250.0) << "isready waited for the search";
  for (const auto& l : seen)
    EXPECT_EQ(l.rfind("bestmove", 0), std::string::npos) << "infinite search stopped by itself";
  // Infinite: nothing stops it but stop.
  EXPECT_FALSE(e.until("bestmove", Ms(300)));
  e.send("stop");
  ASSERT_TRUE(e.until("bestmove", Ms(5000)));
  e.send("isready");
  EXPECT_EQ(e.line(), "readyok");  // and no second bestmove
  e.send("stop");                  // nothing running: no answer
  e.send("isready");
  EXPECT_EQ(e.line(), "readyok");
}

TEST(ProtocolPipe, PonderThenPonderHit) {
  EngineProcess e;
  e.send("go ponder p1time 400 p2time 400");
  EXPECT_FALSE(e.until("bestmove", Ms(500))) << "a ponder search must wait for ponderhit or stop";
  e.send("ponderhit");
  EXPECT_TRUE(e.until("bestmove", Ms(5000)));
}

// Under a clock, the time a search spent pondering counts once `ponderhit`
// comes: its time runs from `go ponder`, since the pondering was a search of
// this very move (a clock restarted at ponderhit would spend the whole budget
// again, on the engine's own clock, after the opponent's long think had
// already given it that search for free). Here the pondering (2 s) is past
// the hard limit of a 10 s clock (1.48 s), so it answers at once, and its
// last `info` counts the pondering (a restarted clock reports under 1.5 s).
// The engine is ready before the 2 s start: its start-up (slow under a
// sanitizer on a loaded machine, 0.5 s seen) must not eat into them.
TEST(ProtocolPipe, PonderHitCountsTheTimeSpentPondering) {
  EngineProcess e;
  e.send("isready");
  ASSERT_TRUE(e.until("readyok", Ms(30000)));
  e.send("position startpos moves X@a1");
  e.send("go ponder p1time 10000 p2time 10000");
  std::this_thread::sleep_for(Ms(2000));
  e.send("ponderhit");
  std::vector<std::string> seen;
  auto best = e.until("bestmove", Ms(10000), &seen);
  ASSERT_TRUE(best);
  int64_t lastTime = -1;
  for (const std::string& line : seen) {
    const size_t at = line.find(" time ");
    if (line.rfind("info depth", 0) == 0 && at != std::string::npos) lastTime = std::stoll(line.substr(at + 6));
  }
  EXPECT_GE(lastTime, 1800)
      << "the last info's time should count the 2 s of pondering (the engine's clock starts a little after our sleep)";
}

TEST(ProtocolPipe, GoReplacedByGoGetsItsOwnBestMove) {
  EngineProcess e;
  e.send("go infinite");
  ASSERT_TRUE(e.until("info depth"));
  e.send("go depth 1");
  EXPECT_TRUE(e.until("bestmove"));
  EXPECT_TRUE(e.until("bestmove"));
  e.send("isready");
  EXPECT_EQ(e.line(), "readyok");
}

TEST(ProtocolPipe, QueriesSeeRepetitionAndWins) {
  EngineProcess e;
  e.send("query gameover");
  EXPECT_EQ(e.line(), "response false");
  e.send("query p1turn");
  EXPECT_EQ(e.line(), "response true");
  e.send("query result");
  EXPECT_EQ(e.line(), "response none");
  // Gobblers: shuffle two pieces until the position after move 2 occurs a third time.
  e.send("setoption name Variant value gobblers");
  e.send("position startpos moves S@a1 S@c3 a1a2 c3c2 a2a1 c2c3 a1a2 c3c2 a2a1");
  e.send("query gameover");
  EXPECT_EQ(e.line(), "response false");
  e.send("query p1turn");
  EXPECT_EQ(e.line(), "response false");
  e.send("query fen");  // the position text, as `position fen` takes it back
  EXPECT_EQ(e.line(), "response 3/2s/S2 2");
  e.send("position fen 3/2s/S2 2");
  e.send("query fen");
  EXPECT_EQ(e.line(), "response 3/2s/S2 2");
  e.send("position startpos moves S@a1 S@c3 a1a2 c3c2 a2a1 c2c3 a1a2 c3c2 a2a1 c2c3");
  e.send("query gameover");
  EXPECT_EQ(e.line(), "response true");
  e.send("query result");
  EXPECT_EQ(e.line(), "response draw");
  e.send("query line");
  EXPECT_EQ(e.line(), "response none");
  e.send("go depth 3");
  EXPECT_EQ(e.line(), "bestmove (none)");
  // Tic-tac-toe: player 1 completes the bottom rank.
  e.send("setoption name Variant value tictactoe");
  e.send("position startpos moves S@a1 S@a2 S@b1 S@b2 S@c1");
  e.send("query result");
  EXPECT_EQ(e.line(), "response p1win");
  e.send("query gameover");
  EXPECT_EQ(e.line(), "response true");
  e.send("query line");  // the squares to highlight
  EXPECT_EQ(e.line(), "response a1 b1 c1");
  // Gobblers: player 2 lifts its L off c3 and uncovers player 1's diagonal:
  // the mover loses, and the line reported is player 1's.
  e.send("setoption name Variant value gobblers");
  e.send("position fen 2[Sl]/1M1/S2 2 moves c3c2");
  e.send("query result");
  EXPECT_EQ(e.line(), "response p1win");
  e.send("query line");
  EXPECT_EQ(e.line(), "response a1 b2 c3");
  e.send("setoption name Variant value tictactoe");
  // A full tic-tac-toe board without a line: no move left, a draw.
  e.send("position startpos moves S@b2 S@a1 S@c1 S@a3 S@a2 S@c2 S@b1 S@b3 S@c3");
  e.send("query result");
  EXPECT_EQ(e.line(), "response draw");
  // On a decided position an infinite go waits for stop before its bestmove.
  e.send("go infinite");
  EXPECT_FALSE(e.line(Ms(300)));
  e.send("stop");
  EXPECT_EQ(e.line(), "bestmove (none)");
}

TEST(ProtocolPipe, OptionsAndVariantChange) {
  EngineProcess e;
  e.send("setoption name Hash value 4");
  e.send("setoption name Threads value 2");
  e.send("setoption name MultiPV value 3");
  e.send("setoption name MoveOverhead value 10");
  e.send("isready");
  EXPECT_EQ(e.line(), "readyok");  // no complaint about any of them
  e.send("position startpos moves X@a1");
  e.send("setoption name Variant value 3x3:2,3,1");
  e.send("d");
  EXPECT_EQ(e.until("variant "), "variant 3x3:2,3,1");
  EXPECT_EQ(e.line(), "position 3/3/3 1");  // a variant change starts a new game
  // MultiPV 3: the last iteration reports three ranked lines.
  std::vector<std::string> seen;
  e.send("go depth 3");
  ASSERT_TRUE(e.until("bestmove", Ms(20000), &seen));
  std::set<int> ranks;
  for (const auto& l : seen)
    if (l.rfind("info depth 3 ", 0) == 0 && l.find(" multipv ") != std::string::npos)
      ranks.insert(std::stoi(l.substr(l.find(" multipv ") + 9)));
  EXPECT_EQ(ranks, (std::set<int>{1, 2, 3}));
  for (const char* bad :
       {"setoption name Hash value 0", "setoption name Hash value many", "setoption name Threads value 0",
        "setoption name Variant value chess", "setoption name MultiPV value 0", "setoption name MoveOverhead value -5",
        "setoption name Nonsense value 1", "setoption name TablebasePath value /nonexistent/file.tb",
        "setoption name Hash"}) {
    e.send(bad);
    auto l = e.line();
    ASSERT_TRUE(l) << bad;
    EXPECT_EQ(l->rfind("info string error: ", 0), 0u) << bad << " -> " << *l;
  }
  e.send("d");
  EXPECT_EQ(e.until("variant "), "variant 3x3:2,3,1");  // nothing changed
}

TEST(ProtocolPipe, ErrorsAndJunkKeepTheEngineGoing) {
  EngineProcess e;
  const std::vector<std::string> bad = {"hello",
                                        "go depth",
                                        "go depth -3",
                                        "go sideways",
                                        "position",
                                        "position fen",
                                        "setoption",
                                        "query",
                                        "query weather",
                                        "perft",
                                        "perft x",
                                        "isready please",
                                        std::string("\x00\x01\x02\xfe\xff", 5),
                                        "\x1b[31mred\x1b[0m",
                                        "auth secret"};
  for (const auto& line : bad) {
    e.send(line);
    auto l = e.line();
    ASSERT_TRUE(l) << "no answer to " << line;
    EXPECT_EQ(l->rfind("info string error: ", 0), 0u) << *l;
    for (char c : *l) EXPECT_TRUE(c >= 0x20 && c < 0x7f) << "unprintable byte echoed: " << *l;
  }
  // A 100 KB line: one error, then business as usual.
  e.sendRaw(std::string(100 * 1024, 'x') + "\n");
  auto l = e.line();
  ASSERT_TRUE(l);
  EXPECT_NE(l->find("line longer than 65536 bytes"), std::string::npos) << *l;
  // Not while searching: setoption, perft.
  e.send("go infinite");
  ASSERT_TRUE(e.until("info depth"));
  e.send("setoption name Hash value 8");
  EXPECT_TRUE(e.until("info string error: setoption"));
  e.send("perft 1");
  EXPECT_TRUE(e.until("info string error: perft"));
  e.send("stop");
  EXPECT_TRUE(e.until("bestmove"));
  e.send("isready");
  EXPECT_EQ(e.line(), "readyok");
}

// Junk inside the position text, inside the moves and inside an option value
// reaches the rules core, whose messages quote the raw text again: the whole
// error line must still be printable ASCII and short, whatever the input.
TEST(ProtocolPipe, ErrorLinesArePrintableAndShortWhateverTheInput) {
  EngineProcess e;
  const std::vector<std::string> bad = {
      "position fen 4/4/4/4\xff\x1b[2J 1",
      "position startpos moves X@a1 \x1b[31mX@\xff"
      "b2",
      "position startpos moves X@a1 X@\x01\x7f\x80",
      "setoption name Variant value 3x3:\x1b[31m\xff",
      "setoption name Variant value \x1b]0;title\x07",
      "setoption name Hash value \x1b[2J",
      "position fen " +
          [] {
            std::string s;
            for (int i = 0; i < 10000; ++i) s += "4/";
            return s;
          }() +
          " 1",
      "position startpos moves " + std::string(5000, 'X') + "\xff",
      "setoption name Variant value 3x3:" + std::string(20000, '9'),
  };
  for (const auto& line : bad) {
    e.send(line);
    auto l = e.line();
    ASSERT_TRUE(l) << "no answer to " << line.substr(0, 60);
    EXPECT_EQ(l->rfind("info string error: ", 0), 0u) << *l;
    EXPECT_LE(l->size(), 200u) << *l;
    for (char c : *l) EXPECT_TRUE(c >= 0x20 && c < 0x7f) << "unprintable byte echoed: " << *l;
  }
  // The bytes are shown, escaped, not dropped: the error still names the junk.
  e.send("setoption name Variant value 3x3:\x1b[31m\xff");
  auto l = e.line();
  ASSERT_TRUE(l);
  EXPECT_NE(l->find("\\x1b[31m\\xff"), std::string::npos) << *l;
  e.send("isready");
  EXPECT_EQ(e.line(), "readyok");
}

TEST(ProtocolPipe, PerftMatchesTheRulesCore) {
  EngineProcess e;
  e.send("position startpos moves X@a1 X@d4");
  e.send("perft 2");
  std::vector<std::string> seen;
  auto total = e.until("nodes ", Ms(20000), &seen);
  ASSERT_TRUE(total);
  Game game{Board()};
  game.play(std::string_view("X@a1")).IgnoreError();
  game.play(std::string_view("X@d4")).IgnoreError();
  Board board = game.position();
  const PerftResult expected = perftDivide(board, 2);
  EXPECT_EQ(total->substr(0, total->find(" time")), "nodes " + std::to_string(expected.total));
  ASSERT_EQ(seen.size(), expected.perMove.size() + 1);
  for (size_t i = 0; i < expected.perMove.size(); ++i)
    EXPECT_EQ(seen[i], moveToString(expected.perMove[i].first, Variant::gobblet()) + ": " +
                           std::to_string(expected.perMove[i].second));
}

// perft and bench run on the session's worker thread, not on the input
// thread: a perft that would take days still lets isready through at once,
// stop ends it, and quit or the end of input end the engine promptly.
TEST(ProtocolPipe, PerftAndBenchDoNotBlockTheInput) {
  EngineProcess e;
  e.send("perft 12");  // 4x4 from the start: far beyond any test's patience
  e.send("isready");
  std::vector<std::string> seen;
  ASSERT_TRUE(e.until("readyok", Ms(3000), &seen)) << "isready waited for perft";
  EXPECT_EQ(seen.size(), 1u);  // no root move of depth 12 can be counted yet
  e.send("perft 1");
  EXPECT_EQ(e.line()->rfind("info string error: perft: not while", 0), 0u);
  e.send("setoption name Hash value 8");
  EXPECT_EQ(e.line()->rfind("info string error: setoption: not while", 0), 0u);
  e.send("stop");
  EXPECT_EQ(e.line(Ms(3000)), "info string perft stopped after 0 of 16 root moves");
  // After a stop, perft works again and is exact.
  e.send("perft 2");
  seen.clear();
  auto total = e.until("nodes ", Ms(10000), &seen);
  ASSERT_TRUE(total);
  Board board{Variant::gobblet()};
  EXPECT_EQ(total->substr(0, total->find(" time")), "nodes " + std::to_string(perft(board, 2)));
  EXPECT_EQ(seen.size(), 17u);

  // bench: isready is answered while it runs, stop ends it after the position
  // being searched (runBench() has no stop of its own).
  e.send("bench");
  e.send("isready");
  seen.clear();
  ASSERT_TRUE(e.until("readyok", Ms(5000), &seen));
  for (const auto& l : seen) EXPECT_EQ(l.rfind("bench nodes", 0), std::string::npos) << "isready waited for bench";
  e.send("stop");
  seen.clear();
  ASSERT_TRUE(e.until("info string bench stopped", Ms(10000), &seen));
  for (const auto& l : seen) EXPECT_EQ(l.rfind("bench nodes", 0), std::string::npos) << l;
  e.send("isready");
  EXPECT_EQ(e.line(), "readyok");

  // A go replaces a perft like it replaces a search.
  e.send("perft 12");
  e.send("go depth 2");
  EXPECT_EQ(e.line(Ms(3000)), "info string perft stopped after 0 of 16 root moves");
  EXPECT_TRUE(e.until("bestmove", Ms(10000)));

  // quit during a long perft: the engine ends at once, with status 0.
  e.send("perft 12");
  e.send("quit");
  const auto t0 = testing::Clock::now();
  ASSERT_TRUE(e.waitExit(Ms(3000))) << "quit waited for perft";
  std::printf("quit ended a running perft in %lld ms\n",
              static_cast<long long>(std::chrono::duration_cast<Ms>(testing::Clock::now() - t0).count()));
  EXPECT_TRUE(WIFEXITED(e.exitStatus()) && WEXITSTATUS(e.exitStatus()) == 0);
}

TEST(ProtocolPipe, EndOfInputDuringPerftEndsTheEngine) {
  EngineProcess e;
  e.send("perft 12");
  e.send("isready");
  ASSERT_EQ(e.line(Ms(3000)), "readyok");
  e.closeStdin();
  ASSERT_TRUE(e.waitExit(Ms(3000))) << "end of input waited for perft";
  EXPECT_TRUE(WIFEXITED(e.exitStatus()) && WEXITSTATUS(e.exitStatus()) == 0);
}

TEST(ProtocolPipe, EndOfInputMidSearchEndsCleanly) {
  EngineProcess e;
  e.send("go infinite");
  ASSERT_TRUE(e.until("info depth"));
  e.closeStdin();
  EXPECT_TRUE(e.until("bestmove", Ms(5000)));
  ASSERT_TRUE(e.waitExit(Ms(5000)));
  EXPECT_TRUE(WIFEXITED(e.exitStatus()) && WEXITSTATUS(e.exitStatus()) == 0);
}

TEST(ProtocolPipe, QuitMidSearchStillAnswers) {
  EngineProcess e;
  e.send("go infinite");
  ASSERT_TRUE(e.until("info depth"));
  e.send("quit");
  EXPECT_TRUE(e.until("bestmove", Ms(5000)));
  ASSERT_TRUE(e.waitExit(Ms(5000)));
  EXPECT_TRUE(WIFEXITED(e.exitStatus()) && WEXITSTATUS(e.exitStatus()) == 0);
}

TEST(ProtocolPipe, NewGameForgetsThePosition) {
  EngineProcess e;
  e.send("position startpos moves X@a1");
  e.send("uginewgame");
  e.send("d");
  EXPECT_EQ(e.until("position "), "position 4/4/4/4 1");
  ASSERT_TRUE(e.until("history 0 moves"));
  e.send("ucinewgame");
  e.send("query p1turn");
  EXPECT_EQ(e.line(), "response true");
}

// With a tic-tac-toe tablebase and MultiPV 9, one go ranks every legal move
// with its exact value: each line's score must match a probe of the position
// after its move (mate n in plies, cp 0 for a draw).
TEST(ProtocolPipe, TablebaseMultiPvCoversEveryMoveExactly) {
  const std::string tbTool = gobblet::testing::binDir() + "/gobblet-tb";
  if (::access(tbTool.c_str(), X_OK) != 0) GTEST_SKIP() << "gobblet-tb not built";
  char dir[] = "/tmp/gobblet_protocol_tb_XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  const std::string file = std::string(dir) + "/ttt.gtb";
  ASSERT_EQ(std::system((tbTool + " build tictactoe --out " + file + " > /dev/null 2>&1").c_str()), 0);
  auto table = tb::open(file);
  ASSERT_TRUE(table.ok()) << table.status();

  EngineProcess e;
  e.send("setoption name Variant value tictactoe");
  e.send("setoption name TablebasePath value " + file);
  e.send("setoption name MultiPV value 9");
  e.send("isready");
  EXPECT_EQ(e.line(), "info string tablebase '" + file + "' loaded for 3x3:1,5,0");
  EXPECT_EQ(e.line(), "readyok");
  const Variant ttt = Variant::ticTacToe();
  for (const std::vector<std::string>& moves :
       std::vector<std::vector<std::string>>{{"S@a1", "S@b2"}, {"S@a1", "S@a2", "S@b2"}, {"S@b2", "S@a1", "S@c1"}}) {
    Game game{Board(ttt)};
    std::string cmd = "position startpos moves";
    for (const auto& m : moves) {
      ASSERT_TRUE(game.play(m).ok());
      cmd += " " + m;
    }
    e.send(cmd);
    e.send("go depth 2");
    std::vector<std::string> seen;
    ASSERT_TRUE(e.until("bestmove", Ms(10000), &seen));
    std::map<std::string, std::string> scoreOf;  // first pv move -> "cp 0" / "mate 3"
    uint64_t tbHits = 0;
    for (const auto& l : seen) {
      if (l.rfind("info depth 2 ", 0) != 0) continue;
      const std::vector<std::string> w = absl::StrSplit(l, ' ');
      const auto at = [&](const std::string& key) { return std::find(w.begin(), w.end(), key) - w.begin(); };
      ASSERT_LT(at("pv") + 1, static_cast<long>(w.size())) << l;
      scoreOf[w[at("pv") + 1]] = w[at("score") + 1] + " " + w[at("score") + 2];
      tbHits = std::max<uint64_t>(tbHits, std::stoull(w[at("tbhits") + 1]));
    }
    EXPECT_GT(tbHits, 0u);
    MoveList legal;
    generateMoves(game.position(), legal);
    EXPECT_EQ(scoreOf.size(), static_cast<size_t>(legal.size())) << cmd;
    for (Move m : legal) {
      Board after = game.position();
      after.makeMove(m);
      const tb::Probe p = (*table)->probe(after);  // for the opponent
      const std::string expected = p.value == tb::Value::kDraw   ? "cp 0"
                                   : p.value == tb::Value::kLoss ? "mate " + std::to_string(p.distance + 1)
                                                                 : "mate -" + std::to_string(p.distance + 1);
      EXPECT_EQ(scoreOf[moveToString(m, ttt)], expected) << cmd << " " << moveToString(m, ttt);
    }
  }
  // A file that is not a tablebase: an error, and the loaded one stays.
  e.send("setoption name TablebasePath value " + gobblet::testing::sourceDir() + "/CMakeLists.txt");
  auto l = e.line();
  ASSERT_TRUE(l);
  EXPECT_EQ(l->rfind("info string error: option TablebasePath", 0), 0u) << *l;
  // Another variant: the file is kept but not used.
  e.send("setoption name Variant value gobblers");
  l = e.line();
  ASSERT_TRUE(l);
  EXPECT_NE(l->find("not used"), std::string::npos) << *l;
  std::remove(file.c_str());
  ::rmdir(dir);
}

// `query values`: every legal move's exact value for the mover, from the
// tablebase, whatever a search would find (near the end a depth-1 search
// proves the result itself and probes nothing: the board lost its marks
// there). Each value must match a probe of the position after the move.
TEST(ProtocolPipe, QueryValuesGivesEveryLegalMovesExactValue) {
  const std::string tbTool = gobblet::testing::binDir() + "/gobblet-tb";
  if (::access(tbTool.c_str(), X_OK) != 0) GTEST_SKIP() << "gobblet-tb not built";
  char dir[] = "/tmp/gpv_XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  const std::string file = std::string(dir) + "/t.gtb";
  ASSERT_EQ(std::system((tbTool + " build 3x3:2,2,1 --out " + file + " > /dev/null 2>&1").c_str()), 0);
  auto table = tb::open(file);
  ASSERT_TRUE(table.ok()) << table.status();
  const Variant v = *Variant::parse("3x3:2,2,1");

  EngineProcess e;
  e.send("setoption name Variant value 3x3:2,2,1");
  e.send("query values");  // no tablebase yet (the default folder of the tests has none)
  auto l = e.line();
  ASSERT_TRUE(l);
  EXPECT_EQ(l->rfind("info string error: query values: no tablebase for 3x3:2,2,1", 0), 0u) << *l;
  e.send("setoption name TablebasePath value " + file);
  e.send("isready");
  EXPECT_EQ(e.line(), "info string tablebase '" + file + "' loaded for 3x3:2,2,1");
  EXPECT_EQ(e.line(), "readyok");
  for (const std::vector<std::string>& moves : std::vector<std::vector<std::string>>{
           {}, {"S@b2", "M@a1"}, {"M@b2", "S@a1", "S@c1", "M@a3"}, {"M@b2", "S@a1", "M@c3", "S@c1", "S@a3"}}) {
    Game game{Board(v)};
    std::string cmd = "position startpos moves";
    for (const auto& m : moves) {
      ASSERT_TRUE(game.play(m).ok()) << m;
      cmd += " " + m;
    }
    e.send(cmd);
    e.send("query values");
    l = e.line();
    ASSERT_TRUE(l);
    const std::vector<std::string> w = absl::StrSplit(*l, ' ');
    ASSERT_EQ(w[0], "response") << *l;
    std::map<std::string, std::string> valueOf;
    for (size_t i = 1; i + 1 < w.size(); i += 2) valueOf[w[i]] = w[i + 1];
    MoveList legal;
    generateMoves(game.position(), legal);
    EXPECT_EQ(w.size(), 1 + 2 * static_cast<size_t>(legal.size())) << cmd << ": " << *l;
    for (Move m : legal) {
      Board after = game.position();
      after.makeMove(m);
      const tb::Probe p = (*table)->probe(after);  // for the opponent
      const std::string expected = p.value == tb::Value::kDraw   ? "d"
                                   : p.value == tb::Value::kLoss ? "w" + std::to_string(p.distance + 1)
                                                                 : "l" + std::to_string(p.distance + 1);
      EXPECT_EQ(valueOf[moveToString(m, v)], expected) << cmd << " " << moveToString(m, v);
    }
  }
  // A finished game has no move to value.
  e.send("position startpos moves S@a1 S@b1 S@a2 S@b2 M@a3");
  e.send("query result");
  EXPECT_EQ(e.line(), "response p1win");
  e.send("query values");
  EXPECT_EQ(e.line(), "response none");
  // 4x4 has no tablebase.
  e.send("setoption name Variant value gobblet");
  l = e.line();  // the file is kept, but is not for this variant
  ASSERT_TRUE(l);
  EXPECT_NE(l->find("not used"), std::string::npos) << *l;
  e.send("position startpos");
  e.send("query values");
  l = e.line();
  ASSERT_TRUE(l);
  EXPECT_EQ(*l, "info string error: query values: no tablebase for gobblet") << *l;
  std::remove(file.c_str());
  ::rmdir(dir);
}

}  // namespace
}  // namespace gobblet
