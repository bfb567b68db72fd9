// `go prove`: the prover through the protocol (docs/protocol.md). A proved
// win names a move that the rules then confirm; a proof never claims a win
// shorter than the true distance; a stop ends it with "unknown" and no
// move; it replaces a running search as a go does; limits that do not apply
// and a decided position are refused with a clear error.
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <chrono>
#include <optional>
#include <sstream>
#include <thread>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "engine/game.h"
#include "engine/notation.h"
#include "proof/not_lost.h"
#include "proof/prover.h"
#include "protocol/proved_moves.h"
#include "tests/support/engine_client.h"
#include "tests/support/scratch_dir.h"

namespace gobblet {
namespace {

using testing::EngineProcess;
using testing::Ms;

// The word after `key` in `line`, as a number (-1: none).
int64_t numberAfter(const std::string& line, const std::string& key) {
  const std::vector<std::string> words = absl::StrSplit(line, ' ');
  for (size_t i = 0; i + 1 < words.size(); ++i)
    if (words[i] == key) {
      int64_t value = -1;
      return absl::SimpleAtoi(words[i + 1], &value) ? value : -1;
    }
  return -1;
}

// "position startpos moves <moves>".
std::string startposWith(const std::vector<std::string>& moves) {
  std::string line = "position startpos moves";
  for (const std::string& m : moves) line += " " + m;
  return line;
}

// A new game forgets a proved strategy: `go depth 2` at the start searches.
void expectANewGameSearches(EngineProcess& e) {
  e.send("ucinewgame");
  e.send("position startpos");
  e.send("go depth 2");
  std::vector<std::string> seen;
  ASSERT_TRUE(e.until("bestmove ", Ms(30000), &seen));
  ASSERT_GE(seen.size(), 2u);
  EXPECT_GT(numberAfter(seen[seen.size() - 2], "nodes"), 0) << seen[seen.size() - 2];
}

// Player 1 has X on a1, b1, c1 and an L on top of a reserve stack: L@d1 makes the line.
constexpr const char* kWinInOne = "position startpos moves X@a1 X@a4 X@b1 X@b4 X@c1 X@c4";

// Gobblers: the position after these moves has occurred twice, and the
// tablebase's only winning move, c3c2, makes it occur a third time: a draw
// in this game. A proof for the game in hand must hold in it: no win, and
// not c3c2.
constexpr const char* kTwiceRepeated =
    "position startpos moves L@c3 L@b1 L@b3 M@a3 b3c1 M@c2 c3c2 b1a1 c1a2 a1b1 a2c1 b1a1 c2c3 a1b1";

TEST(ProtocolProve, AProofCountsTheRepetitionsAlreadyInTheGame) {
  EngineProcess e;
  e.send("setoption name Variant value gobblers");
  e.send(kTwiceRepeated);
  e.send("go prove nodes 2000000");
  std::vector<std::string> seen;
  const auto best = e.until("bestmove ", Ms(60000), &seen);
  ASSERT_TRUE(best) << "no bestmove";
  for (const std::string& line : seen) {
    EXPECT_EQ(line.find("proof win"), std::string::npos) << line;
    EXPECT_EQ(line.find("score mate"), std::string::npos) << line;
  }
  EXPECT_NE(*best, "bestmove c3c2");
  // The same position without that history: the win through c3c2 is proved.
  e.send("query fen");
  const std::string fen = e.line().value_or("");
  ASSERT_EQ(fen.rfind("response ", 0), 0u) << fen;
  e.send("position fen " + fen.substr(9));
  e.send("go prove nodes 2000000");
  seen.clear();
  const auto fresh = e.until("bestmove ", Ms(60000), &seen);
  ASSERT_TRUE(fresh) << "no bestmove";
  ASSERT_GE(seen.size(), 3u);
  EXPECT_EQ(seen[seen.size() - 3].rfind("info string proof win plies ", 0), 0u) << seen[seen.size() - 3];
  EXPECT_EQ(*fresh, "bestmove c3c2");
}

TEST(ProtocolProve, AWinInOneIsProvedAndItsMoveEndsTheGame) {
  EngineProcess e;
  e.send(kWinInOne);
  e.send("go prove nodes 100000");
  std::vector<std::string> seen;
  const auto best = e.until("bestmove ", Ms(30000), &seen);
  ASSERT_TRUE(best) << "no bestmove";
  ASSERT_GE(seen.size(), 3u);
  const std::string& answer = seen[seen.size() - 3];
  const std::string& score = seen[seen.size() - 2];
  EXPECT_EQ(answer.rfind("info string proof win plies 1 nodes ", 0), 0u) << answer;
  EXPECT_EQ(answer.substr(answer.size() - 22), " certificate 1 checked") << "the checker accepted it: " << answer;
  EXPECT_EQ(score.rfind("info score mate 1 nodes ", 0), 0u) << score;
  const std::string move = best->substr(9);
  EXPECT_EQ(score.substr(score.size() - move.size() - 4), " pv " + move) << score;
  // The rules agree: the move ends the game, won by player 1.
  e.send(std::string(kWinInOne) + " " + move);
  e.send("query result");
  EXPECT_EQ(e.line(), "response p1win") << "after " << move;
}

TEST(ProtocolProve, GobblersStartIsAWinNoShorterThanTheTruth) {
  EngineProcess e;
  e.send("setoption name Variant value gobblers");
  e.send("position startpos");
  e.send("moves");
  const auto legal = e.until("moves ", Ms(10000));
  ASSERT_TRUE(legal);
  e.send("go prove nodes 2000000");
  std::vector<std::string> seen;
  const auto best = e.until("bestmove ", Ms(120000), &seen);
  ASSERT_TRUE(best) << "no bestmove";
  ASSERT_GE(seen.size(), 3u);
  const std::string& answer = seen[seen.size() - 3];
  ASSERT_EQ(answer.rfind("info string proof win plies ", 0), 0u) << answer;
  // The tablebase: player 1 wins in 13 plies, no fewer; a strategy's longest game is at least that.
  const int64_t plies = numberAfter(answer, "plies");
  EXPECT_GE(plies, 13) << answer;
  EXPECT_EQ(plies % 2, 1) << "a win ends on the winner's move: " << answer;
  EXPECT_GT(numberAfter(answer, "certificate"), 0) << answer;
  EXPECT_EQ(answer.substr(answer.size() - 8), " checked") << answer;
  EXPECT_EQ(numberAfter(seen[seen.size() - 2], "mate"), plies) << seen[seen.size() - 2];  // (plies, as the search's)
  const std::string move = best->substr(9);
  EXPECT_NE((" " + *legal + " ").find(" " + move + " "), std::string::npos) << move << " is not in " << *legal;
}

// The ProofGuide option reaches the prover: guided by the net (or the
// hand-written evaluation), the same win is proved and checked, by another
// search (another node count); a value it does not know is refused.
TEST(ProtocolProve, TheProofGuideOptionGuidesTheProver) {
  EngineProcess e;
  e.send("uci");
  std::vector<std::string> seen;
  ASSERT_TRUE(e.until("uciok", Ms(10000), &seen));
  bool declared = false;
  for (const std::string& line : seen)
    declared |= line == "option name ProofGuide type combo default none var none var eval var net";
  EXPECT_TRUE(declared);
  int64_t nodes[3] = {-1, -1, -1};
  const char* const guides[3] = {"none", "net", "eval"};
  for (int i = 0; i < 3; ++i) {
    e.send(std::string("setoption name ProofGuide value ") + guides[i]);
    e.send("position fen XM2/x1L1/X[Lx]2/X2[Sx] 1");
    e.send("go prove nodes 300000");
    seen.clear();
    const auto best = e.until("bestmove ", Ms(60000), &seen);
    ASSERT_TRUE(best) << guides[i];
    ASSERT_GE(seen.size(), 3u);
    const std::string& answer = seen[seen.size() - 3];
    ASSERT_EQ(answer.rfind("info string proof win plies ", 0), 0u) << guides[i] << ": " << answer;
    EXPECT_EQ(answer.substr(answer.size() - 8), " checked") << answer;
    nodes[i] = numberAfter(answer, "nodes");
  }
  EXPECT_NE(nodes[1], nodes[0]);
  EXPECT_NE(nodes[2], nodes[0]);
  e.send("setoption name ProofGuide value oracle");
  const auto refused = e.until("info string error", Ms(10000));
  ASSERT_TRUE(refused);
  EXPECT_NE(refused->find("none, eval or net"), std::string::npos) << *refused;
}

TEST(ProtocolProve, AStopEndsTheProofWithUnknownAndNoMove) {
  EngineProcess e;
  e.send("position startpos");
  e.send("go prove");
  e.send("isready");
  ASSERT_EQ(e.line(), "readyok");
  e.send("stop");
  std::vector<std::string> seen;
  const auto best = e.until("bestmove ", Ms(30000), &seen);
  ASSERT_TRUE(best) << "no bestmove after stop";
  EXPECT_EQ(*best, "bestmove (none)");
  ASSERT_GE(seen.size(), 2u);
  EXPECT_EQ(seen[seen.size() - 2].rfind("info string proof unknown nodes ", 0), 0u) << seen[seen.size() - 2];
}

// The prover's table costs nothing up front (its pages come as the proof
// stores into them; ProofTable.TakingATableCostsNothingUpFront): with
// Hash 2048, a proof stopped 0.3 s in answers at once.
TEST(ProtocolProve, AStopAnswersAtOnceWhateverTheTable) {
  EngineProcess e;
  e.send("setoption name Hash value 2048");
  e.send("position startpos");
  e.send("isready");
  ASSERT_EQ(e.line(Ms(20000)), "readyok");
  e.send("go prove");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  e.send("stop");
  const auto best = e.until("bestmove ", Ms(20000));
  ASSERT_TRUE(best) << "no bestmove after stop";
  EXPECT_EQ(*best, "bestmove (none)");
}

// A proof whose table the process cannot get is an error for that client
// (the engine lives and answers): the address space is limited to 3 GiB,
// the search's table holds 2 GiB of it, the prover's would need 2 more.
TEST(ProtocolProve, ATableThatCannotBeHadIsAnErrorNotTheEnd) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "a sanitizer reserves terabytes of address space: RLIMIT_AS cannot apply";
#endif
  EngineProcess e({}, [] {
    rlimit limit{};
    limit.rlim_cur = limit.rlim_max = rlim_t{3} << 30;
    setrlimit(RLIMIT_AS, &limit);
  });
  e.send("setoption name Hash value 2048");
  e.send("position startpos");
  e.send("isready");
  std::vector<std::string> seen;
  ASSERT_TRUE(e.until("readyok", Ms(20000), &seen));
  for (const std::string& line : seen) ASSERT_EQ(line.find("error"), std::string::npos) << line;
  e.send("go prove nodes 1000");
  seen.clear();
  const auto best = e.until("bestmove ", Ms(20000), &seen);
  ASSERT_TRUE(best) << "no bestmove: the engine died";
  EXPECT_EQ(*best, "bestmove (none)");
  bool said = false;
  for (const std::string& line : seen) said |= line.rfind("info string error: go prove: ", 0) == 0;
  EXPECT_TRUE(said) << "no error said why";
  e.send("isready");
  EXPECT_EQ(e.line(Ms(10000)), "readyok");
}

TEST(ProtocolProve, WhatCannotBeProvedIsRefusedWithTheReason) {
  EngineProcess e;
  e.send("position startpos");
  e.send("go prove depth 3");
  EXPECT_EQ(e.line(), "info string error: go prove: 'depth' does not apply (movetime, nodes or infinite do)");
  e.send("go prove ponder");
  EXPECT_EQ(e.line(), "info string error: go prove: 'ponder' does not apply (movetime, nodes or infinite do)");
  // A decided position (player 1's line is made): the reason, and the go's one bestmove.
  e.send(std::string(kWinInOne) + " L@d1");
  e.send("go prove nodes 1000");
  EXPECT_EQ(e.line(), "info string error: go prove: the game is over");
  EXPECT_EQ(e.line(), "bestmove (none)");
  e.send("isready");
  EXPECT_EQ(e.line(), "readyok");
}

// As a go does, `go prove` ends a running search, which sends its bestmove first.
TEST(ProtocolProve, AProofReplacesARunningSearch) {
  EngineProcess e;
  e.send(kWinInOne);
  e.send("go infinite");
  ASSERT_TRUE(e.until("info depth 1 ", Ms(10000)));
  e.send("go prove nodes 100000");
  std::vector<std::string> seen;
  ASSERT_TRUE(e.until("info string proof ", Ms(30000), &seen));
  ASSERT_GE(seen.size(), 2u);
  EXPECT_EQ(seen[seen.size() - 2].rfind("bestmove ", 0), 0u) << "the search's bestmove comes first";
  EXPECT_EQ(seen.back().rfind("info string proof win plies 1 ", 0), 0u) << seen.back();
  EXPECT_EQ(e.until("bestmove ", Ms(10000)), std::optional<std::string>("bestmove L@d1"));
}

}  // namespace
}  // namespace gobblet

namespace gobblet {
namespace {

// A win `go prove` certified is played as one: every later `go` at a
// position of its strategy answers with the strategy's move at once
// (`nodes 0`: no search) and a mate score, against any replies, to the
// win; a new game forgets it.
TEST(ProtocolProve, AProvedWinIsPlayedAsOneToTheEnd) {
  EngineProcess e;
  e.send("setoption name Variant value gobblers");
  e.send("position startpos");
  e.send("go prove nodes 2000000");
  std::vector<std::string> seen;
  auto best = e.until("bestmove ", Ms(120000), &seen);
  ASSERT_TRUE(best);
  ASSERT_NE(*best, "bestmove (none)") << seen[seen.size() - 2];
  std::vector<std::string> moves = {best->substr(9)};
  int64_t lastMate = numberAfter(seen[seen.size() - 2], "mate");
  for (int turn = 0; turn < 20; ++turn) {
    // The other side replies with its first legal move.
    std::string line = startposWith(moves);
    e.send(line);
    e.send("query gameover");
    if (e.line() == "response true") break;
    e.send("moves");
    const auto legal = e.until("moves ", Ms(10000));
    ASSERT_TRUE(legal);
    moves.push_back(legal->substr(6, legal->find(' ', 6) - 6));
    line += " " + moves.back();
    e.send(line);
    e.send("query gameover");
    ASSERT_EQ(e.line(), "response false") << "the strategy let the other side end the game";
    e.send("go movetime 60000");
    seen.clear();
    best = e.until("bestmove ", Ms(10000), &seen);
    ASSERT_TRUE(best) << "no answer at once";
    const std::string& info = seen[seen.size() - 2];
    EXPECT_EQ(numberAfter(info, "nodes"), 0) << "searched, not the strategy's move: " << info;
    const int64_t mate = numberAfter(info, "mate");
    EXPECT_GT(mate, 0) << info;
    EXPECT_LE(mate, lastMate - 2) << "the win came no nearer: " << info;
    lastMate = mate;
    moves.push_back(best->substr(9));
  }
  const std::string line = startposWith(moves);
  e.send(line);
  e.send("query result");
  EXPECT_EQ(e.line(), "response p1win") << line;
  // A weakened player (Skill Level below 20) plays as it would have: it searches.
  e.send("setoption name Skill Level value 3");
  e.send("position startpos moves " + moves[0] + " " + moves[1]);
  e.send("go depth 2");
  seen.clear();
  ASSERT_TRUE(e.until("bestmove ", Ms(30000), &seen));
  EXPECT_GT(numberAfter(seen[seen.size() - 2], "nodes"), 0) << "a weakened player played the proof";
  e.send("setoption name Skill Level value 20");
  expectANewGameSearches(e);
}

// Tic-tac-toe is a draw: `go prove` proves both sides not lost, each
// certificate checked, and names the side to move's strategy move; every
// later `go` at a position of that strategy with its side to move answers
// with the strategy's move at once (`nodes 0`, an exact 0), against any
// replies (the search's, a perfect player's here), to the end: a draw. A
// new game forgets it.
TEST(ProtocolProve, TicTacToeIsAProvedDrawAndItsStrategyIsHeld) {
  EngineProcess e;
  e.send("setoption name Variant value tictactoe");
  e.send("position startpos");
  e.send("moves");
  const auto legal = e.until("moves ", Ms(10000));
  ASSERT_TRUE(legal);
  e.send("go prove nodes 1000000");
  std::vector<std::string> seen;
  auto best = e.until("bestmove ", Ms(30000), &seen);
  ASSERT_TRUE(best) << "no bestmove";
  ASSERT_GE(seen.size(), 3u);
  const std::string& answer = seen[seen.size() - 3];
  const std::string& score = seen[seen.size() - 2];
  EXPECT_EQ(answer.rfind("info string proof draw nodes ", 0), 0u) << answer;
  EXPECT_GT(numberAfter(answer, "certificates"), 0) << answer;
  EXPECT_GT(numberAfter(answer, "and"), 0) << answer;
  EXPECT_EQ(answer.substr(answer.size() - 8), " checked") << answer;
  EXPECT_EQ(score.rfind("info score cp 0 nodes ", 0), 0u) << score;
  std::string move = best->substr(9);
  EXPECT_EQ(score.substr(score.size() - move.size() - 4), " pv " + move) << score;
  EXPECT_NE((" " + *legal + " ").find(" " + move + " "), std::string::npos) << move << " is not in " << *legal;
  std::vector<std::string> moves = {move};
  int held = 0;
  for (int turn = 0; turn < 5; ++turn) {
    // The other side replies with the search's move (a perfect player here).
    std::string line = startposWith(moves);
    e.send(line);
    e.send("query gameover");
    if (e.line() == "response true") break;
    e.send("go depth 9");
    const auto reply = e.until("bestmove ", Ms(30000));
    ASSERT_TRUE(reply);
    moves.push_back(reply->substr(9));
    line += " " + moves.back();
    e.send(line);
    e.send("query gameover");
    if (e.line() == "response true") break;
    e.send("go movetime 60000");
    seen.clear();
    best = e.until("bestmove ", Ms(10000), &seen);
    ASSERT_TRUE(best) << "no answer at once";
    ASSERT_GE(seen.size(), 3u);
    EXPECT_EQ(seen[seen.size() - 3], "info string proof draw (held)");
    const std::string& info = seen[seen.size() - 2];
    EXPECT_EQ(numberAfter(info, "nodes"), 0) << "searched, not the strategy's move: " << info;
    EXPECT_NE(info.find(" score cp 0 "), std::string::npos) << info;
    moves.push_back(best->substr(9));
    ++held;
  }
  EXPECT_EQ(held, 4);
  const std::string line = startposWith(moves);
  e.send(line);
  e.send("query result");
  EXPECT_EQ(e.line(), "response draw") << line;
  expectANewGameSearches(e);
}

// A held draw gives way to a proof database's win: after S@a1 S@b1 (the
// other side's mistake) player 1 wins; once that win is stored, `go`
// there plays it, though the draw strategy proved at the start covers the
// position too. The draw's strategy, proved from the database, ends at
// that win (a database leaf of its certificate) and is held elsewhere.
TEST(ProtocolProve, AHeldDrawGivesWayToAStoredWin) {
  const testing::ScratchDir dir("held_draw_db");
  EngineProcess e;
  e.send("setoption name Variant value tictactoe");
  e.send("setoption name ProofDatabase value " + dir.file("t.pdb"));
  const std::string erred = "position startpos moves S@a1 S@b1";
  e.send(erred);
  e.send("go prove nodes 100000");
  std::vector<std::string> seen;
  ASSERT_TRUE(e.until("bestmove ", Ms(30000), &seen));
  ASSERT_GE(seen.size(), 3u);
  ASSERT_EQ(seen[seen.size() - 3].rfind("info string proof win ", 0), 0u) << seen[seen.size() - 3];
  e.send("position startpos");
  e.send("go prove nodes 1000000");
  seen.clear();
  auto best = e.until("bestmove ", Ms(30000), &seen);
  ASSERT_TRUE(best);
  ASSERT_EQ(*best, "bestmove S@a1") << "the draw's strategy starts elsewhere: the test needs another line";
  // The draw's strategy ends at the stored win (a database leaf of its
  // certificate) and is still played elsewhere: after another reply, held.
  e.send("position startpos moves S@a1 S@b2");
  e.send("go movetime 60000");
  seen.clear();
  ASSERT_TRUE(e.until("bestmove ", Ms(10000), &seen));
  ASSERT_GE(seen.size(), 3u);
  EXPECT_EQ(seen[seen.size() - 3], "info string proof draw (held)");
  e.send(erred);
  e.send("go movetime 60000");
  seen.clear();
  ASSERT_TRUE(e.until("bestmove ", Ms(10000), &seen));
  ASSERT_GE(seen.size(), 3u);
  EXPECT_EQ(seen[seen.size() - 3].rfind("info string proof win in ", 0), 0u) << seen[seen.size() - 3];
  EXPECT_GT(numberAfter(seen[seen.size() - 2], "mate"), 0) << seen[seen.size() - 2];
}

// Tic-tac-toe on a budget that the win prover (991 nodes to decide it, one
// thread) and the side to move's not-lost proof fit, the other side's not:
// "not-lost", its certificate checked, a lower bound of 0, its move; a
// later `go` at a position of that strategy plays it, said as held.
TEST(ProtocolProve, TheSideToMoveAloneHeldIsNotLost) {
  EngineProcess e;
  e.send("setoption name Variant value tictactoe");
  e.send("position startpos");
  e.send("go prove nodes 1200");
  std::vector<std::string> seen;
  auto best = e.until("bestmove ", Ms(30000), &seen);
  ASSERT_TRUE(best) << "no bestmove";
  ASSERT_GE(seen.size(), 3u);
  const std::string& answer = seen[seen.size() - 3];
  EXPECT_EQ(answer.rfind("info string proof not-lost nodes ", 0), 0u) << answer;
  EXPECT_GT(numberAfter(answer, "certificate"), 0) << answer;
  EXPECT_EQ(answer.substr(answer.size() - 8), " checked") << answer;
  const std::string move = best->substr(9);
  EXPECT_EQ(seen[seen.size() - 2].rfind("info score cp 0 lowerbound nodes ", 0), 0u) << seen[seen.size() - 2];
  ASSERT_NE(move, "(none)");
  // The other side's first legal reply, then the strategy's move at once.
  e.send("position startpos moves " + move);
  e.send("moves");
  const auto replies = e.until("moves ", Ms(10000));
  ASSERT_TRUE(replies);
  e.send("position startpos moves " + move + " " + replies->substr(6, replies->find(' ', 6) - 6));
  e.send("go movetime 60000");
  seen.clear();
  ASSERT_TRUE(e.until("bestmove ", Ms(10000), &seen)) << "no answer at once";
  ASSERT_GE(seen.size(), 3u);
  EXPECT_EQ(seen[seen.size() - 3], "info string proof not-lost (held)");
  EXPECT_EQ(numberAfter(seen[seen.size() - 2], "nodes"), 0) << seen[seen.size() - 2];
  EXPECT_NE(seen[seen.size() - 2].find(" score cp 0 lowerbound "), std::string::npos) << seen[seen.size() - 2];
  // Its chances: no loss, exactly; the win is the evaluation's estimate
  // (query wdl's), the rest a draw.
  e.send("query wdl");
  const auto estimate = e.until("response ", Ms(10000));
  ASSERT_TRUE(estimate);
  std::istringstream words(estimate->substr(9));
  int win = -1, draw = -1, loss = -1;
  words >> win >> draw >> loss;
  ASSERT_EQ(win + draw + loss, 1000) << *estimate;
  e.send("setoption name UCI_ShowWDL value true");
  e.send("go movetime 60000");
  seen.clear();
  ASSERT_TRUE(e.until("bestmove ", Ms(10000), &seen));
  ASSERT_GE(seen.size(), 2u);
  const std::string wdl = " wdl " + std::to_string(win) + " " + std::to_string(draw + loss) + " 0 ";
  EXPECT_NE(seen[seen.size() - 2].find(wdl), std::string::npos) << seen[seen.size() - 2] << " lacks" << wdl;
}

// The win prover's own draw has no certificate: on a budget it spends
// whole (991 nodes decide tic-tac-toe's start, one thread), leaving the
// not-lost prover nothing, `go prove` says "unknown" with why, never
// "draw", and no score and no move.
TEST(ProtocolProve, TheWinProversUncheckedDrawIsSaidUnknown) {
  EngineProcess e;
  e.send("setoption name Variant value tictactoe");
  e.send("position startpos");
  e.send("go prove nodes 991");
  std::vector<std::string> seen;
  const auto best = e.until("bestmove ", Ms(30000), &seen);
  ASSERT_TRUE(best) << "no bestmove";
  EXPECT_EQ(*best, "bestmove (none)");
  ASSERT_GE(seen.size(), 2u);
  const std::string& answer = seen[seen.size() - 2];
  EXPECT_EQ(answer.rfind("info string proof unknown nodes ", 0), 0u) << answer;
  EXPECT_NE(answer.find(" (no draw certificate: the win prover's draw"), std::string::npos) << answer;
  EXPECT_EQ(answer.back(), ')') << answer;
}

// A stop while the not-lost prover runs ends it at once, as it ends the
// win prover: "unknown", no move. 3x3:2,2,1's start: the win prover gives
// up after about 1.5 s (its disproofs hold along one path only), and with
// Hash 256 the side to move's not-lost proof takes about 5 s more; the
// stop comes between (in a slower build, maybe in the win prover: the
// answer is the same).
TEST(ProtocolProve, AStopEndsTheDrawProofWithUnknownAndNoMove) {
  EngineProcess e;
  e.send("setoption name Hash value 256");
  e.send("setoption name Variant value 3x3:2,2,1");
  e.send("position startpos");
  e.send("isready");
  ASSERT_EQ(e.line(Ms(20000)), "readyok");
  e.send("go prove");
  std::this_thread::sleep_for(std::chrono::milliseconds(3000));
  e.send("stop");
  const auto stopped = std::chrono::steady_clock::now();
  std::vector<std::string> seen;
  const auto best = e.until("bestmove ", Ms(20000), &seen);
  ASSERT_TRUE(best) << "no bestmove after stop";
  EXPECT_LT(std::chrono::steady_clock::now() - stopped, std::chrono::milliseconds(1000)) << "the stop was not heard";
  EXPECT_EQ(*best, "bestmove (none)");
  ASSERT_GE(seen.size(), 2u);
  EXPECT_EQ(seen[seen.size() - 2].rfind("info string proof unknown nodes ", 0), 0u) << seen[seen.size() - 2];
}

// The strategy is not played where the game saw one of its positions
// before it entered it: a repetition could then draw.
TEST(ProvedMovesTest, NotPlayedAfterTheGameSawAStrategyPosition) {
  auto board = parsePosition(Variant::gobblet(), "4/4/4/4 1");
  ASSERT_TRUE(board.ok());
  Game game(*board);
  for (const char* m : {"X@a1", "X@a4", "X@b1", "X@b4", "X@c1", "X@c4"}) ASSERT_TRUE(game.play(m).ok());
  auto proof = proof::prove(game.position());
  ASSERT_TRUE(proof.ok() && proof->certificate);
  ProvedMoves proved;
  proved.learn(*proof->certificate, Variant::gobblet());
  const auto first = proved.moveFor(game);
  ASSERT_TRUE(first);
  EXPECT_EQ(moveToString(first->move, Variant::gobblet()), "L@d1");
  EXPECT_EQ(first->plies, 1);
  // Away and back: the same position, seen before.
  for (const char* m : {"a1a2", "a4a3", "a2a1", "a3a4"}) ASSERT_TRUE(game.play(m).ok()) << m;
  ASSERT_EQ(game.occurrences(), 2);
  EXPECT_FALSE(proved.moveFor(game));
  proved.clear();
  EXPECT_FALSE(proved.moveFor(Game(game.start())));
}

// A not-lost certificate is learned as such, never as a win, and a win's
// is not learned as a not-lost one: each learner takes its own kind only.
TEST(ProvedMovesTest, ANotLostStrategyIsLearnedAsItsOwnKind) {
  const Board start(Variant::ticTacToe());
  auto held = proof::proveNotLost(start, start.sideToMove());
  ASSERT_TRUE(held.ok() && held->certificate);
  const Game game{start};
  ProvedMoves proved;
  proved.learn(*held->certificate, Variant::ticTacToe());
  EXPECT_FALSE(proved.moveFor(game)) << "a not-lost certificate taken for a win";
  proved.learnNotLost(*held->certificate, Variant::ticTacToe(), /*drawn=*/true);
  const auto move = proved.moveFor(game);
  ASSERT_TRUE(move);
  EXPECT_EQ(move->move, held->certificate->nodes.front().move);
  EXPECT_EQ(move->claim, ProvedMoves::Claim::kDraw);
  proved.learnNotLost(*held->certificate, Variant::ticTacToe(), /*drawn=*/false);
  ASSERT_TRUE(proved.moveFor(game));
  EXPECT_EQ(proved.moveFor(game)->claim, ProvedMoves::Claim::kNotLost);
  proved.learnNotLost(*held->certificate, Variant::gobblers(), /*drawn=*/true);
  EXPECT_FALSE(proved.moveFor(game)) << "learned for another variant";
  // A win's certificate is no not-lost strategy.
  auto board = parsePosition(Variant::gobblet(), "4/4/4/4 1");
  ASSERT_TRUE(board.ok());
  Game won(*board);
  for (const char* m : {"X@a1", "X@a4", "X@b1", "X@b4", "X@c1", "X@c4"}) ASSERT_TRUE(won.play(m).ok());
  auto win = proof::prove(won.position());
  ASSERT_TRUE(win.ok() && win->certificate);
  proved.learnNotLost(*win->certificate, Variant::gobblet(), /*drawn=*/true);
  EXPECT_FALSE(proved.moveFor(won));
}

// A certificate above the size kept is not learned (its memory is bounded).
TEST(ProvedMovesTest, ALargerCertificateThanKeptIsNotLearned) {
  auto proof = proof::prove(Board(Variant::gobblers()));
  ASSERT_TRUE(proof.ok() && proof->certificate);
  const size_t nodes = proof->certificate->nodes.size();
  const Game start{Board(Variant::gobblers())};
  ProvedMoves proved;
  proved.learn(*proof->certificate, Variant::gobblers(), nullptr, nodes - 1);
  EXPECT_FALSE(proved.moveFor(start));
  proved.learn(*proof->certificate, Variant::gobblers(), nullptr, nodes);
  ASSERT_TRUE(proved.moveFor(start));
  EXPECT_EQ(proved.moveFor(start)->plies, proof->plies);  // the root's plies: the certificate's own bound
  EXPECT_EQ(proved.moveFor(start)->move, proof->certificate->nodes.front().move);
}

}  // namespace
}  // namespace gobblet

#include <future>
#include <memory>

#include "protocol/engine.h"

namespace gobblet {
namespace {

// On a server, the prover's table comes from the sessions' hash budget for
// the proof's time (the smallest table when the budget is spent) and goes
// back to it after: no session can hold more than its share for good.
TEST(EngineProve, TheProversTableIsTakenFromTheHashBudgetAndGivenBack) {
  for (const int64_t total : {64, 20}) {  // room for a second table of Hash MiB, and none
    SCOPED_TRACE(total);
    EngineLimits limits;
    limits.hashBudget = std::make_shared<HashBudget>(total);
    Engine engine(limits, nullptr);
    const int64_t hash = engine.options().hashMiB;
    ASSERT_EQ(limits.hashBudget->leftMiB(), total - hash);
    std::promise<void> done;
    ProveCallbacks callbacks;
    callbacks.onDone = [&done](const absl::StatusOr<proof::ProofResult>&, Move, const ProvedDefence&) {
      done.set_value();
    };
    ASSERT_TRUE(engine.prove(ProveLimits{}, std::move(callbacks)).ok());  // the 4x4 start: until stopped
    // While it runs: Hash MiB more, or the smallest table (1 MiB) when that does not fit.
    const int64_t during = total >= 2 * hash ? total - 2 * hash : total - hash - 1;
    EXPECT_EQ(limits.hashBudget->leftMiB(), during);
    engine.stop();
    done.get_future().get();
    EXPECT_EQ(limits.hashBudget->leftMiB(), total - hash) << "the prover's table was not given back";
  }
}

}  // namespace
}  // namespace gobblet
