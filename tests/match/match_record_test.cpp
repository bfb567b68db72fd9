// The referee's verdicts, the game record line format and the replay check
// that re-referees records.
#include <cstdio>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "engine/notation.h"
#include "match/game_record.h"
#include "match/referee.h"
#include "match/replay.h"

namespace gobblet::match {
namespace {

// Plays `moves` (all legal) through a referee and returns it.
Referee refereeAfter(const Variant& v, const std::vector<std::string>& moves, int maxPlies = 0) {
  Referee referee(Board(v), maxPlies);
  for (const std::string& m : moves) EXPECT_TRUE(referee.play(m).ok()) << m;
  return referee;
}

// A record of `moves` from the start, with the given ending.
GameRecord recordOf(const Variant& v, const std::vector<std::string>& moves, GameResult result,
                    Termination termination) {
  GameRecord r;
  r.number = 1;
  r.player1 = "one";
  r.player2 = "two";
  r.variant = v;
  r.opening = "start";
  r.start = positionToString(Board(v));
  r.moves = moves;
  r.result = result;
  r.termination = termination;
  return r;
}

const std::vector<std::string> kRankOneWin = {"L@a1", "S@c3", "L@b1", "S@c2", "M@c1"};  // player 1: a1 b1 c1
const std::vector<std::string> kShuffle = {"L@a1", "L@c3", "a1a2", "c3c2", "a2a1",
                                           "c2c3", "a1a2", "c3c2", "a2a1", "c2c3"};  // start of the shuffle thrice

TEST(MatchReferee, JudgesLinesRepetitionAndPlyLimit) {
  const Variant v = Variant::gobblers();
  Referee win = refereeAfter(v, kRankOneWin);
  EXPECT_EQ(win.verdict().termination, Termination::kLine);
  EXPECT_EQ(win.verdict().result, GameResult::kPlayer1Wins);
  EXPECT_FALSE(win.play("S@a3").ok());  // the game is over

  Referee shuffle = refereeAfter(v, std::vector<std::string>(kShuffle.begin(), kShuffle.end() - 1));
  EXPECT_FALSE(shuffle.verdict().over());
  ASSERT_TRUE(shuffle.play("c2c3").ok());
  EXPECT_EQ(shuffle.verdict().termination, Termination::kRepetition);
  EXPECT_EQ(shuffle.verdict().result, GameResult::kDraw);

  Referee limited = refereeAfter(v, {"L@a1", "L@c3", "a1a2"}, 4);
  EXPECT_FALSE(limited.verdict().over());
  ASSERT_TRUE(limited.play("c3c2").ok());
  EXPECT_EQ(limited.verdict().termination, Termination::kMaxPlies);
  EXPECT_EQ(limited.verdict().result, GameResult::kDraw);
}

TEST(MatchReferee, RejectsIllegalAndMalformedMoves) {
  Referee referee = refereeAfter(Variant::gobblers(), {"L@b2"});
  for (const char* bad : {"S@b2", "L@b2", "b2a1", "", "xyzzy", "L@d4", "(none)", "0000"})
    EXPECT_FALSE(referee.play(bad).ok()) << bad;
  EXPECT_EQ(referee.plies(), 1);
  EXPECT_TRUE(referee.play("M@a1").ok());
}

TEST(MatchRecord, RoundTripsThroughTheLineFormat) {
  GameRecord r = recordOf(Variant::gobblet(), {"X@a1", "X@d4"}, GameResult::kPlayer2Wins, Termination::kIllegalMove);
  r.player1 = "odd \"name\" \\ here";
  r.detail = "player 1: illegal move 'S@a1': \"occupied\"";
  r.illegalMove = "S@a1";
  r.bookPlies = 1;
  r.number = 42;
  const std::string line = formatRecord(r);
  EXPECT_NE(line.find("variant=gobblet"), std::string::npos);
  EXPECT_NE(line.find("moves=\"X@a1 X@d4\""), std::string::npos);
  EXPECT_NE(line.find("result=0-1 reason=illegal-move"), std::string::npos);
  auto back = parseRecord(line);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->number, 42);
  EXPECT_EQ(back->player1, r.player1);
  EXPECT_EQ(back->player2, r.player2);
  EXPECT_EQ(back->variant, r.variant);
  EXPECT_EQ(back->start, r.start);
  EXPECT_EQ(back->bookPlies, 1);
  EXPECT_EQ(back->moves, r.moves);
  EXPECT_EQ(back->result, r.result);
  EXPECT_EQ(back->termination, r.termination);
  EXPECT_EQ(back->detail, r.detail);
  EXPECT_EQ(back->illegalMove, "S@a1");
  EXPECT_EQ(formatRecord(*back), line);
}

TEST(MatchRecord, RejectsMalformedLines) {
  const std::string good =
      formatRecord(recordOf(Variant::gobblers(), kRankOneWin, GameResult::kPlayer1Wins, Termination::kLine));
  ASSERT_TRUE(parseRecord(good).ok());
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  for (const std::string& bad :
       {replaced("result=1-0", "result=2-0"), replaced("reason=line", "reason=resigned"),
        replaced("variant=gobblers", "variant=chess"), replaced("game=1", "game=x"), replaced(" p2=\"two\"", ""),
        replaced("game=1", "game=1 colour=red"), replaced("game=1", "game=1 game=2"),
        replaced("detail=\"\"", "detail=\"open"), replaced("book=0", "book=9"), std::string("nonsense"),
        replaced("p1=\"one\"", "p1=\"one\"x")})
    EXPECT_FALSE(parseRecord(bad).ok()) << bad;
}

TEST(MatchReplay, AcceptsConsistentRecords) {
  const Variant v = Variant::gobblers();
  EXPECT_TRUE(verifyRecord(recordOf(v, kRankOneWin, GameResult::kPlayer1Wins, Termination::kLine)).ok());
  EXPECT_TRUE(verifyRecord(recordOf(v, kShuffle, GameResult::kDraw, Termination::kRepetition)).ok());
  EXPECT_TRUE(verifyRecord(recordOf(v, {"L@a1", "L@c3"}, GameResult::kDraw, Termination::kMaxPlies)).ok());
  GameRecord illegal = recordOf(v, {"L@a1"}, GameResult::kPlayer1Wins, Termination::kIllegalMove);
  illegal.illegalMove = "S@a1";
  EXPECT_TRUE(verifyRecord(illegal).ok());
  EXPECT_TRUE(verifyRecord(recordOf(v, {"L@a1"}, GameResult::kPlayer1Wins, Termination::kTimeForfeit)).ok());
  // An engine may crash or fail readyok when it is not to move.
  EXPECT_TRUE(verifyRecord(recordOf(v, {}, GameResult::kPlayer1Wins, Termination::kUnresponsive)).ok());
  EXPECT_TRUE(verifyRecord(recordOf(v, {"L@a1"}, GameResult::kPlayer2Wins, Termination::kCrash)).ok());
}

TEST(MatchReplay, CatchesInconsistentRecords) {
  const Variant v = Variant::gobblers();
  EXPECT_FALSE(verifyRecord(recordOf(v, kRankOneWin, GameResult::kPlayer2Wins, Termination::kLine)).ok());
  EXPECT_FALSE(verifyRecord(recordOf(v, kRankOneWin, GameResult::kDraw, Termination::kRepetition)).ok());
  std::vector<std::string> tampered = kRankOneWin;
  tampered[2] = "S@a1";  // small on large: illegal
  EXPECT_FALSE(verifyRecord(recordOf(v, tampered, GameResult::kPlayer1Wins, Termination::kLine)).ok());
  std::vector<std::string> longer = kRankOneWin;
  longer.push_back("S@a3");  // a move after the game ended
  EXPECT_FALSE(verifyRecord(recordOf(v, longer, GameResult::kPlayer1Wins, Termination::kLine)).ok());
  // A forfeit or ply limit claimed in a position the rules had already ended.
  EXPECT_FALSE(verifyRecord(recordOf(v, kRankOneWin, GameResult::kDraw, Termination::kMaxPlies)).ok());
  EXPECT_FALSE(verifyRecord(recordOf(v, kRankOneWin, GameResult::kPlayer2Wins, Termination::kCrash)).ok());
  EXPECT_FALSE(verifyRecord(recordOf(v, {"L@a1"}, GameResult::kPlayer1Wins, Termination::kMaxPlies)).ok());
  GameRecord legalClaimedIllegal = recordOf(v, {"L@a1"}, GameResult::kPlayer1Wins, Termination::kIllegalMove);
  legalClaimedIllegal.illegalMove = "L@b2";
  EXPECT_FALSE(verifyRecord(legalClaimedIllegal).ok());
  // The side to move forfeits on time, not its opponent.
  EXPECT_FALSE(verifyRecord(recordOf(v, {"L@a1"}, GameResult::kPlayer2Wins, Termination::kTimeForfeit)).ok());
  EXPECT_FALSE(verifyRecord(recordOf(v, {}, GameResult::kDraw, Termination::kCrash)).ok());
  GameRecord badStart = recordOf(v, {}, GameResult::kDraw, Termination::kMaxPlies);
  badStart.start = "4/4/4/4 1";
  EXPECT_FALSE(verifyRecord(badStart).ok());
}

TEST(MatchReplay, ReplaysAFileAndCountsFailures) {
  const Variant v = Variant::gobblers();
  const std::string path = ::testing::TempDir() + "match_record_test.txt";
  {
    std::ofstream out(path);
    out << formatRecord(recordOf(v, kRankOneWin, GameResult::kPlayer1Wins, Termination::kLine)) << "\n\n";
    out << formatRecord(recordOf(v, kShuffle, GameResult::kDraw, Termination::kRepetition)) << "\n";
    out << formatRecord(recordOf(v, kRankOneWin, GameResult::kDraw, Termination::kLine)) << "\n";
    out << "garbage line\n";
  }
  std::ostringstream report;
  auto summary = replayFile(path, report);
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ(summary->games, 4);
  EXPECT_EQ(summary->invalid, 2);
  EXPECT_NE(report.str().find(":4: "), std::string::npos) << report.str();
  EXPECT_NE(report.str().find(":5: "), std::string::npos) << report.str();
  EXPECT_FALSE(replayFile(path + ".missing", report).ok());
  std::remove(path.c_str());
}

}  // namespace
}  // namespace gobblet::match
