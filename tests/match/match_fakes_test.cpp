// Games against fake engines that crash, make illegal moves, hang, answer
// late or never send readyok: the runner survives, scores each case against
// the misbehaving engine and records games that replay consistently.
#include <cstdio>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "tests/support/whole_file.h"
#include "match/game_runner.h"
#include "match/replay.h"
#include "match/tournament.h"
#include "tests/support/paths.h"

namespace gobblet::match {
namespace {

using std::chrono::milliseconds;

const std::string kFake = gobblet::testing::binDir() + "/gobblet-fake-engine";

EngineConfig fake(const std::string& name, const std::string& args, const std::string& limits = "depth=1") {
  EngineConfig c;
  EXPECT_TRUE(applyEngineSetting(c, "name=" + name).ok());
  EXPECT_TRUE(applyEngineSetting(c, "cmd=" + kFake + " " + args).ok());
  EXPECT_TRUE(applyEngineSetting(c, limits).ok()) << limits;
  return c;
}

GameSettings quick() {
  GameSettings s;
  s.maxPlies = 200;
  s.marginMs = 50;
  s.timeoutMs = 400;
  return s;
}

// Bounds ugiok, and the readyok asked for before every move: short, so that
// the tests of silent engines are quick, but not so short that a loaded
// machine's pause is taken for a silent engine (a readyok per move).
const PlayerTimeouts kShortHandshake{1500};

Opening start(const Variant& v) { return Opening{"start", Board(v), {}}; }

// Plays one gobblers game: `bad` as player `badSeat` (0 or 1) against a
// random mover; returns the record after checking it replays consistently.
GameRecord playAgainstRandom(const EngineConfig& bad, int badSeat, GameSettings settings = quick()) {
  const Variant v = Variant::gobblers();
  EnginePlayer misbehaving(bad, v, kShortHandshake);
  EnginePlayer random(fake("random", "--seed 3"), v, kShortHandshake);
  GameRecord r = badSeat == 0 ? playGame(misbehaving, random, start(v), settings)
                              : playGame(random, misbehaving, start(v), settings);
  EXPECT_TRUE(verifyRecord(r).ok()) << verifyRecord(r) << "\n" << formatRecord(r);
  return r;
}

TEST(MatchFakes, CrashLosesTheGame) {
  for (int seat : {0, 1}) {
    GameRecord r = playAgainstRandom(fake("crash", "--mode crash --after 2"), seat);
    EXPECT_EQ(r.termination, Termination::kCrash) << formatRecord(r);
    EXPECT_EQ(r.result, lossFor(seat));
    EXPECT_NE(r.detail.find("signal 6"), std::string::npos) << r.detail;
    EXPECT_EQ(static_cast<int>(r.moves.size()), 4 + seat);  // two moves each, then the crash
  }
}

TEST(MatchFakes, IllegalAndUnreadableMovesLose) {
  for (int seat : {0, 1}) {
    GameRecord r = playAgainstRandom(fake("illegal", "--mode illegal --after 1"), seat);
    EXPECT_EQ(r.termination, Termination::kIllegalMove) << formatRecord(r);
    EXPECT_EQ(r.result, lossFor(seat));
    EXPECT_FALSE(r.illegalMove.empty());
    EXPECT_EQ(static_cast<int>(r.moves.size()), 2 + seat);

    GameRecord g = playAgainstRandom(fake("garbage", "--mode garbage"), seat);
    EXPECT_EQ(g.termination, Termination::kIllegalMove);
    EXPECT_EQ(g.result, lossFor(seat));
    EXPECT_EQ(g.illegalMove, "xyzzy");
  }
}

TEST(MatchFakes, HangingEngineIsUnresponsiveOrOutOfTime) {
  // Depth limit only: the response timeout (400 ms) applies.
  auto t = Clock::now();
  GameRecord r = playAgainstRandom(fake("hang", "--mode hang --after 1"), 1);
  EXPECT_EQ(r.termination, Termination::kUnresponsive) << formatRecord(r);
  EXPECT_EQ(r.result, GameResult::kPlayer1Wins);
  EXPECT_LT(Clock::now() - t, milliseconds(5000));
  // With a move time the same silence is a time forfeit.
  r = playAgainstRandom(fake("hang", "--mode hang --after 1", "movetime=0.1"), 0);
  EXPECT_EQ(r.termination, Termination::kTimeForfeit) << formatRecord(r);
  EXPECT_EQ(r.result, GameResult::kPlayer2Wins);
}

TEST(MatchFakes, LateAnswersForfeitOnTimeOnlyBeyondTheMargin) {
  // 300 ms late against a 0.1 s move time with a 50 ms margin: forfeit.
  GameRecord r = playAgainstRandom(fake("late", "--mode late --after 1 --delay-ms 300", "movetime=0.1"), 0);
  EXPECT_EQ(r.termination, Termination::kTimeForfeit) << formatRecord(r);
  EXPECT_EQ(r.result, GameResult::kPlayer2Wins);
  // A clock of 0.2 s: the first slow answer (300 ms) oversteps it.
  r = playAgainstRandom(fake("late", "--mode late --after 0 --delay-ms 300", "tc=0.2+0"), 1);
  EXPECT_EQ(r.termination, Termination::kTimeForfeit) << formatRecord(r);
  EXPECT_EQ(r.result, GameResult::kPlayer1Wins);
  // 10 ms per move within a 0.5 s move time: the game goes on to its end.
  r = playAgainstRandom(fake("late", "--mode late --delay-ms 10", "movetime=0.5"), 0);
  EXPECT_FALSE(isForfeit(r.termination)) << formatRecord(r);
}

TEST(MatchFakes, NoReadyokOrNoHelloLosesBeforeTheFirstMove) {
  for (int seat : {0, 1}) {
    GameRecord r = playAgainstRandom(fake("noready", "--mode noready"), seat);
    EXPECT_EQ(r.termination, Termination::kUnresponsive) << formatRecord(r);
    EXPECT_EQ(r.result, lossFor(seat));
    EXPECT_TRUE(r.moves.empty());
    EXPECT_NE(r.detail.find("readyok"), std::string::npos) << r.detail;
    GameRecord h = playAgainstRandom(fake("nohello", "--mode nohello"), seat);
    EXPECT_EQ(h.termination, Termination::kUnresponsive) << formatRecord(h);
    EXPECT_NE(h.detail.find("ugiok"), std::string::npos) << h.detail;
  }
  GameRecord missing = playAgainstRandom(fake("missing", "--no-such-flag x"), 0);
  EXPECT_EQ(missing.termination, Termination::kCrash) << formatRecord(missing);
}

TEST(MatchFakes, ASecondBestmoveIsNotTakenForTheNextMove) {
  // The engine answers every go with its bestmove line (its first legal
  // move) twice. The stale copy was once read as the answer to the next go:
  // the same move again, illegal by then, and the game lost.
  GameSettings unlimited = quick();
  unlimited.maxPlies = 0;
  for (int seat : {0, 1}) {
    GameRecord r = playAgainstRandom(fake("twice", "--mode twice"), seat, unlimited);
    EXPECT_FALSE(isForfeit(r.termination)) << formatRecord(r);
    EXPECT_TRUE(r.illegalMove.empty()) << formatRecord(r);
    EXPECT_GE(r.moves.size(), 4u) << formatRecord(r);
  }
}

TEST(MatchFakes, PlyLimitAndNaturalEnds) {
  GameSettings limited = quick();
  limited.maxPlies = 6;
  GameRecord r = playAgainstRandom(fake("first", "--mode first"), 0, limited);
  EXPECT_TRUE(r.termination == Termination::kMaxPlies || r.termination == Termination::kLine ||
              r.termination == Termination::kRepetition)
      << formatRecord(r);
  EXPECT_LE(r.moves.size(), 6u);
  // Two random movers with no ply limit: the rules end every game.
  GameSettings unlimited = quick();
  unlimited.maxPlies = 0;
  for (int seed = 1; seed <= 5; ++seed) {
    GameRecord g = playAgainstRandom(fake("random", "--seed " + std::to_string(seed + 10)), seed % 2, unlimited);
    EXPECT_FALSE(isForfeit(g.termination)) << formatRecord(g);
  }
}

TEST(MatchFakes, SpeaksUgiAndUciAndSendsTheWholeHistory) {
  const Variant v = Variant::gobblers();
  const std::string logUgi = ::testing::TempDir() + "match_fakes_ugi.log";
  const std::string logUci = ::testing::TempDir() + "match_fakes_uci.log";
  std::remove(logUgi.c_str()), std::remove(logUci.c_str());
  EngineConfig ugi = fake("ugi", "--mode first --log " + logUgi, "tc=5+0.1");
  ugi.options.emplace_back("Hash", "8");
  EngineConfig uci = fake("uci", "--proto uci --log " + logUci, "tc=5+0.1");
  ASSERT_TRUE(applyEngineSetting(uci, "proto=uci").ok());
  EnginePlayer a(ugi, v, kShortHandshake), b(uci, v, kShortHandshake);
  auto opening = parseOpening(v, "L2/3/2l 1 moves M@b2", "test");
  ASSERT_TRUE(opening.ok());
  GameRecord r = playGame(a, b, *opening, quick());
  ASSERT_TRUE(verifyRecord(r).ok()) << formatRecord(r);
  EXPECT_EQ(r.bookPlies, 1);
  a.stop(), b.stop();
  const std::string u = readWholeFile(logUgi), c = readWholeFile(logUci);
  EXPECT_EQ(
      u.rfind("ugi\nsetoption name Variant value gobblers\nsetoption name Hash value 8\nuginewgame\nisready\n", 0), 0u)
      << u;
  EXPECT_NE(u.find("position fen L2/3/2l 1 moves M@b2 "), std::string::npos) << u;
  // The book move was player 1's, so player 2 (uci) moved first and only its clock ran.
  EXPECT_NE(u.find("go p1time 5000 p2time "), std::string::npos) << u;
  EXPECT_NE(u.find(" p1inc 100 p2inc 100\n"), std::string::npos) << u;
  EXPECT_NE(c.find("position fen L2/3/2l 1 moves M@b2\ngo wtime 5000 btime 5000 winc 100 binc 100\n"),
            std::string::npos)
      << c;
  EXPECT_EQ(c.rfind("uci\nsetoption name Variant value gobblers\nucinewgame\nisready\n", 0), 0u) << c;
  EXPECT_NE(c.find("go wtime "), std::string::npos) << c;
  EXPECT_EQ(c.find("p1time"), std::string::npos) << c;
  EXPECT_NE(u.find("quit"), std::string::npos);
  std::remove(logUgi.c_str()), std::remove(logUci.c_str());
}

TEST(MatchFakes, TournamentSurvivesCrashesAndRestartsEngines) {
  TournamentSettings t;
  t.variant = Variant::gobblers();
  t.engines = {fake("crashy", "--mode crash --after 2"), fake("random", "--seed 5")};
  t.gamesPerPairing = 8;
  t.concurrency = 2;
  t.randomPlies = 2;
  t.game = quick();
  t.timeouts = kShortHandshake;
  std::vector<GameRecord> records;
  auto state = runTournament(t, [&](const GameRecord& r, const TournamentState&) {
    records.push_back(r);
    return absl::OkStatus();
  });
  ASSERT_TRUE(state.ok()) << state.status();
  EXPECT_EQ(state->gamesPlayed, 8);
  ASSERT_EQ(records.size(), 8u);
  int crashes = 0;
  for (const GameRecord& r : records) {
    EXPECT_TRUE(verifyRecord(r).ok()) << formatRecord(r);
    if (r.termination != Termination::kCrash) continue;
    ++crashes;
    EXPECT_EQ(r.result, r.player1 == "crashy" ? GameResult::kPlayer2Wins : GameResult::kPlayer1Wins);
  }
  // The crash comes on the third move of each fresh process; a game that
  // ends sooner keeps the process (and its count) for the next game.
  EXPECT_GE(crashes, 3);
  const Score& s = state->pairings[0].score;
  EXPECT_EQ(s.games(), 8);
  EXPECT_GE(s.losses, crashes);
}

TEST(MatchFakes, SprtStopsEarly) {
  TournamentSettings t;
  t.variant = Variant::gobblers();
  t.engines = {fake("good", "--seed 9"), fake("illegal", "--mode illegal")};
  t.gamesPerPairing = 1000;
  t.game = quick();
  t.sprt = SprtParams{0, 50, 0.05, 0.05};
  int calls = 0;
  auto state = runTournament(t, [&](const GameRecord&, const TournamentState&) {
    ++calls;
    return absl::OkStatus();
  });
  ASSERT_TRUE(state.ok());
  EXPECT_EQ(state->decision, SprtDecision::kAcceptH1);
  EXPECT_GT(state->llr, t.sprt->upperBound());
  EXPECT_LT(state->gamesPlayed, 100);
  EXPECT_EQ(state->pairings[0].score.wins, state->gamesPlayed);
  EXPECT_EQ(calls, state->gamesPlayed);
}

TEST(MatchFakes, RejectsBadTournamentSettings) {
  TournamentSettings t;
  t.engines = {fake("a", "")};
  EXPECT_FALSE(runTournament(t, nullptr).ok());  // one engine
  t.engines.push_back(fake("a", ""));
  EXPECT_FALSE(runTournament(t, nullptr).ok());  // same names
  t.engines[1].name = "b";
  t.engines.push_back(fake("c", ""));
  t.sprt = SprtParams{};
  EXPECT_FALSE(runTournament(t, nullptr).ok());  // SPRT with three engines
  t.engines.pop_back();
  t.sprt.reset();
  t.engines[1].limits = TimeControl{};  // no limit: a bare go would never end
  auto noLimit = runTournament(t, nullptr);
  EXPECT_EQ(noLimit.status().code(), absl::StatusCode::kInvalidArgument) << noLimit.status();
  EXPECT_NE(noLimit.status().message().find("'b' has no limit"), absl::string_view::npos) << noLimit.status();
  EngineConfig c;
  EXPECT_FALSE(applyEngineSetting(c, "colour=red").ok());
  EXPECT_FALSE(applyEngineSetting(c, "depth=0").ok());
  EXPECT_FALSE(applyEngineSetting(c, "tc=fast").ok());
  EXPECT_FALSE(applyEngineSetting(c, "proto=xboard").ok());
  EXPECT_FALSE(applyEngineSetting(c, "nodes=-5").ok());
  EXPECT_FALSE(applyEngineSetting(c, "noequals").ok());
}

TEST(MatchFakes, GauntletAndRoundRobinPairings) {
  TournamentSettings t;
  t.variant = Variant::gobblers();
  t.engines = {fake("a", "--seed 1"), fake("b", "--seed 2"), fake("c", "--seed 3"), fake("d", "--seed 4")};
  t.gamesPerPairing = 2;
  t.game = quick();
  auto rr = runTournament(t, nullptr);
  ASSERT_TRUE(rr.ok());
  EXPECT_EQ(rr->pairings.size(), 6u);
  EXPECT_EQ(rr->gamesPlayed, 12);
  t.format = Format::kGauntlet;
  auto gauntlet = runTournament(t, nullptr);
  ASSERT_TRUE(gauntlet.ok());
  EXPECT_EQ(gauntlet->pairings.size(), 3u);
  for (const PairingScore& p : gauntlet->pairings) EXPECT_EQ(p.first, 0);
  EXPECT_EQ(gauntlet->gamesPlayed, 6);
}

}  // namespace
}  // namespace gobblet::match
