// PGN records: what gobblet-match writes, reading it back (round trip), the
// PGN cutegames writes (in the exact form of its src/match/pgn.cpp), the
// re-refereeing of both by --replay, and clear errors for malformed PGN.
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "engine/notation.h"
#include "match/pgn.h"
#include "match/replay.h"
#include "tests/support/shell_command.h"
#include "tests/support/whole_file.h"
#include "tests/support/paths.h"

namespace gobblet::match {
namespace {

const std::vector<std::string> kRankOneWin = {"L@a1", "S@c3", "L@b1", "S@c2", "M@c1"};  // gobblers, 1-0
const std::vector<std::string> kShuffle = {"L@a1", "L@c3", "a1a2", "c3c2", "a2a1",
                                           "c2c3", "a1a2", "c3c2", "a2a1", "c2c3"};  // threefold repetition

GameRecord recordOf(const std::vector<std::string>& moves, GameResult result, Termination termination) {
  GameRecord r;
  r.number = 7;
  r.player1 = "alpha \"a\"";
  r.player2 = "beta\\b";
  r.variant = Variant::gobblers();
  r.opening = "random-2";
  r.start = "3/3/3 1";
  r.bookPlies = 2;
  r.moves = moves;
  r.result = result;
  r.termination = termination;
  r.detail = "";
  r.timeControl = "1+0.05";
  return r;
}

PgnHeader fixedHeader() {
  PgnHeader h;
  h.date = "2026.11.23";
  return h;
}

// Parses `text`, which must hold exactly one good game, into a record.
GameRecord readOne(const std::string& text, const Variant& v = Variant::gobblet()) {
  std::vector<PgnEntry> entries = parsePgn(text);
  EXPECT_EQ(entries.size(), 1u) << text;
  if (entries.empty() || !entries[0].game.ok()) {
    ADD_FAILURE() << (entries.empty() ? "no game" : std::string(entries[0].game.status().message()));
    return GameRecord{};
  }
  auto record = recordFromPgn(*entries[0].game, v);
  EXPECT_TRUE(record.ok()) << record.status();
  return record.ok() ? *record : GameRecord{};
}

// The PGN cutegames writes for one game, following write_as_pgn() in its
// src/match/pgn.cpp: its tags in its order, "??" as the date, colour tags
// named by its settings (White/Black in its sample settings), an Adjudicated
// tag only for adjudicated games, Winner/Loser for decisive ones, every move
// followed by a space, and two empty lines after the result.
std::string cutegamesPgn(const std::string& fen, const std::vector<std::string>& moves, const std::string& result,
                         const std::string& adjudicated = "", bool p2First = false) {
  std::string out = "[Event \"?\"]\n[Site \"CuteGames\"]\n[Date \"??\"]\n[Round \"1\"]\n";
  out += "[White \"gobblet-a\"]\n[Black \"gobblet-b\"]\n[Result \"" + result + "\"]\n[FEN \"" + fen + "\"]\n";
  if (!adjudicated.empty()) out += "[Adjudicated \"" + adjudicated + "\"]\n";
  if (result == "1-0") out += "[Winner \"gobblet-a\"]\n[Loser \"gobblet-b\"]\n";
  if (result == "0-1") out += "[Winner \"gobblet-b\"]\n[Loser \"gobblet-a\"]\n";
  out += "[PlyCount \"" + std::to_string(moves.size()) + "\"]\n\n";
  int ply = 0;
  if (p2First) out += "1... ", ++ply;
  for (const std::string& m : moves) {
    if (ply % 2 == 0) out += std::to_string(ply / 2 + 1) + ". ";
    out += m + " ";
    ++ply;
  }
  return out + result + "\n\n\n";
}

// Writes `text` to a temporary file and replays it; returns the report.
std::string replayText(const std::string& name, const std::string& text, int expectGames, int expectInvalid,
                       const Variant& v = Variant::gobblet()) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  std::ostringstream out;
  auto summary = replayFile(path, out, v);
  EXPECT_TRUE(summary.ok()) << summary.status();
  if (summary.ok()) {
    EXPECT_EQ(summary->games, expectGames) << out.str();
    EXPECT_EQ(summary->invalid, expectInvalid) << out.str();
  }
  std::remove(path.c_str());
  return out.str();
}

TEST(MatchPgn, WritesTagsAndNumberedMoves) {
  GameRecord r = recordOf(kRankOneWin, GameResult::kPlayer1Wins, Termination::kLine);
  EXPECT_EQ(formatPgn(r, fixedHeader()),
            "[Event \"gobblet-match\"]\n"
            "[Date \"2026.11.23\"]\n"
            "[Round \"7\"]\n"
            "[Player1 \"alpha \\\"a\\\"\"]\n"
            "[Player2 \"beta\\\\b\"]\n"
            "[Result \"1-0\"]\n"
            "[Variant \"gobblers\"]\n"
            "[FEN \"3/3/3 1\"]\n"
            "[TimeControl \"1+0.05\"]\n"
            "[Termination \"line\"]\n"
            "[Opening \"random-2\"]\n"
            "[BookPlies \"2\"]\n"
            "[PlyCount \"5\"]\n"
            "\n"
            "1. L@a1 S@c3 2. L@b1 S@c2 3. M@c1 1-0\n"
            "\n");
  // Player 2 first: "1..." then numbers from the start position.
  r.start = "L2/3/3 2";
  r.moves = {"S@b2", "a3a2"};
  r.bookPlies = 0;
  r.result = GameResult::kPlayer2Wins;
  r.termination = Termination::kTimeForfeit;
  r.detail = "player 1: no move within 150 ms";
  const std::string text = formatPgn(r, fixedHeader());
  EXPECT_NE(text.find("\n\n1... S@b2 2. a3a2 0-1\n\n"), std::string::npos) << text;
  EXPECT_NE(text.find("[Detail \"player 1: no move within 150 ms\"]\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("IllegalMove"), std::string::npos) << text;
}

TEST(MatchPgn, LongGamesWrapAtEightyColumns) {
  std::vector<std::string> moves = {"L@a1", "L@c3"};
  for (int i = 0; i < 30; ++i)
    for (const char* m : {"a1a2", "c3c2", "a2a1", "c2c3"}) moves.push_back(m);
  GameRecord r = recordOf(moves, GameResult::kDraw, Termination::kMaxPlies);
  const std::string text = formatPgn(r, fixedHeader());
  std::istringstream lines(text);
  std::string line;
  int movetextLines = 0;
  while (std::getline(lines, line)) {
    EXPECT_LT(line.size(), 80u) << line;
    movetextLines += !line.empty() && line[0] != '[';
  }
  EXPECT_GT(movetextLines, 3);
  EXPECT_EQ(readOne(text).moves, moves);
}

TEST(MatchPgn, RoundTripKeepsEveryField) {
  std::vector<GameRecord> records = {recordOf(kRankOneWin, GameResult::kPlayer1Wins, Termination::kLine),
                                     recordOf(kShuffle, GameResult::kDraw, Termination::kRepetition),
                                     recordOf({"L@b2"}, GameResult::kPlayer2Wins, Termination::kCrash),
                                     recordOf({"L@b2", "M@a1"}, GameResult::kPlayer2Wins, Termination::kIllegalMove),
                                     recordOf({}, GameResult::kPlayer1Wins, Termination::kUnresponsive)};
  records[2].bookPlies = 0;
  records[2].detail = "player 2: engine exited (killed by signal 6) while waiting for bestmove";
  records[3].illegalMove = "S@b2";
  records[3].detail = "player 1: illegal move 'S@b2'";
  records[4].bookPlies = 0;
  records[4].start = "3/3/3 2";
  std::string file;
  for (const GameRecord& r : records) file += formatPgn(r, fixedHeader());
  std::vector<PgnEntry> entries = parsePgn(file);
  ASSERT_EQ(entries.size(), records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    ASSERT_TRUE(entries[i].game.ok()) << entries[i].game.status();
    auto back = recordFromPgn(*entries[i].game, Variant::gobblet());  // the Variant tag wins
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(formatRecord(*back), formatRecord(records[i]));
    EXPECT_EQ(back->timeControl, records[i].timeControl);
    EXPECT_TRUE(verifyRecord(*back).ok()) << verifyRecord(*back);
  }
  EXPECT_NE(replayText("match_pgn_roundtrip.pgn", file, 5, 0).find("replayed 5 games: 5 consistent"),
            std::string::npos);
}

TEST(MatchPgn, AnUnfinishedGameReadsBack) {
  // A game still running is written with the result * and Termination "none" (the Python module writes them).
  const GameRecord running = recordOf({"L@b2", "S@a1"}, GameResult::kNone, Termination::kNone);
  const std::string text = formatPgn(running, fixedHeader());
  EXPECT_NE(text.find("[Termination \"none\"]"), std::string::npos) << text;
  EXPECT_EQ(formatRecord(readOne(text)), formatRecord(running));
}

TEST(MatchPgn, ReadsCutegamesOutputAndRerefereesIt) {
  // A won game from the start position, with "startpos" as cutegames writes
  // it when the opening file says so.
  const std::string win = cutegamesPgn("startpos", kRankOneWin, "1-0");
  GameRecord r = readOne(win, Variant::gobblers());
  EXPECT_EQ(r.player1, "gobblet-a");
  EXPECT_EQ(r.player2, "gobblet-b");
  EXPECT_EQ(r.start, "3/3/3 1");
  EXPECT_EQ(r.moves, kRankOneWin);
  EXPECT_EQ(r.result, GameResult::kPlayer1Wins);
  EXPECT_EQ(r.termination, Termination::kNone);  // claimed by the engines, rule not named
  EXPECT_TRUE(verifyRecord(r).ok()) << verifyRecord(r);

  // A repetition draw from a FEN, an out-of-time loss from a FEN with player
  // 2 to move, and a 4x4 game: all consistent.
  const std::string draw = cutegamesPgn("3/3/3 1", kShuffle, "1/2-1/2");
  const std::string late = cutegamesPgn("L2/3/3 2", {"S@b2", "a3a2"}, "1-0", "Out of time", true);
  std::string file = win + draw + late;
  std::string report = replayText("match_pgn_cutegames.pgn", file, 3, 0, Variant::gobblers());
  EXPECT_NE(report.find("replayed 3 games: 3 consistent, 0 inconsistent"), std::string::npos) << report;
  const std::string gobblet =
      cutegamesPgn("4/4/4/4 1", {"X@a1", "X@d4", "X@a2", "X@d3", "X@a3", "X@d2", "L@a4"}, "1-0");
  report = replayText("match_pgn_cutegames4.pgn", gobblet, 1, 0, Variant::gobblet());
  EXPECT_NE(report.find("1 consistent"), std::string::npos) << report;

  // Disagreements with the rules core are reported, each with its game:
  // a wrong winner, a game that had not ended, a time loss given to the
  // wrong side, and the engines' own mismatch (no result at all).
  const std::string wrongWinner = cutegamesPgn("startpos", kRankOneWin, "0-1");
  const std::string notOver = cutegamesPgn("startpos", {"L@a1", "S@c3"}, "1/2-1/2");
  const std::string wrongLoser = cutegamesPgn("L2/3/3 2", {"S@b2", "a3a2"}, "0-1", "Out of time", true);
  const std::string mismatch = cutegamesPgn("startpos", kRankOneWin, "*", "Gameover mismatch");
  file = wrongWinner + notOver + wrongLoser + mismatch;
  report = replayText("match_pgn_cutegames_bad.pgn", file, 4, 4, Variant::gobblers());
  EXPECT_NE(report.find("game 1: reason=none result=0-1: the rules say reason=line result=1-0"), std::string::npos)
      << report;
  EXPECT_NE(report.find("game 2: reason=none result=1/2-1/2: the rules say the game is still running"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("game 3: reason=time-forfeit result=0-1 (adjudicated: Out of time): the side to move "
                        "should have lost"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("game 4: reason=none result=* (adjudicated: Gameover mismatch): the rules say reason=line "
                        "result=1-0"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("replayed 4 games: 0 consistent, 4 inconsistent"), std::string::npos) << report;
}

TEST(MatchPgn, ReadsAGameCutegamesWroteFromOurEngine) {
  // Verbatim from a cutegames run (kz04px/cutegames built from its source;
  // "game": "generic", clock 1 s + 50 ms, pgn colour1/colour2 set to
  // Player1/Player2): our engine against itself from a 4x4 opening, a draw.
  const std::string text =
      "[Event \"cutegames-gobblet\"]\n"
      "[Site \"CuteGames\"]\n"
      "[Date \"??\"]\n"
      "[Round \"1\"]\n"
      "[Player1 \"gobblet-a\"]\n"
      "[Player2 \"gobblet-b\"]\n"
      "[Result \"1/2-1/2\"]\n"
      "[FEN \"1X2/4/3x/1L2 1\"]\n"
      "[PlyCount \"44\"]\n"
      "\n"
      "1. X@c3 d2b1 2. L@c2 X@c1 3. M@d1 X@d4 4. M@a3 c1c2 5. X@b3 L@a3 6. b4a3 L@d3 7. b3d3 d4b3 8. S@a1 L@b4 9. c3b4 "
      "b1d1 10. L@a4 M@a1 11. M@b2 M@c1 12. d3a1 c2a4 13. a3d3 M@c3 14. S@d4 a3b2 15. b1c3 c1d4 16. S@c1 b3c3 17. c1b1 "
      "d4b1 18. c2b1 S@c2 19. d3b3 d1b1 20. b3d3 b1d1 21. d3b3 d1b1 22. b3d3 b1d1 1/2-1/2\n"
      "\n"
      "\n";
  GameRecord r = readOne(text, Variant::gobblet());
  EXPECT_EQ(r.player1, "gobblet-a");
  EXPECT_EQ(r.start, "1X2/4/3x/1L2 1");
  EXPECT_EQ(r.moves.size(), 44u);
  EXPECT_EQ(r.result, GameResult::kDraw);
  EXPECT_EQ(r.termination, Termination::kNone);
  EXPECT_TRUE(verifyRecord(r).ok()) << verifyRecord(r);
}

TEST(MatchPgn, ToleratesCommentsAnnotationsAndGluedNumbers) {
  const std::string text =
      "% an escaped line\n"
      "[Variant \"gobblers\"]\n[Result \"1-0\"]\n\n"
      "1.L@a1 {a comment\nover two lines} S@c3 $1 2. L@b1! S@c2 ; to the end of the line\n"
      "% an escaped line among the moves\n"
      "3. M@c1 1-0\n";
  GameRecord r = readOne(text);
  EXPECT_EQ(r.moves, kRankOneWin);
  EXPECT_EQ(r.variant, Variant::gobblers());
  EXPECT_TRUE(verifyRecord(r).ok()) << verifyRecord(r);
}

// The browser board exports variations in parentheses (nested, with
// comments holding parentheses): the game read is the main line.
TEST(MatchPgn, VariationsAreSkippedTheMainLineIsTheGame) {
  const std::string text =
      "[Variant \"gobblers\"]\n[Result \"1-0\"]\n\n"
      "1. L@a1 {centre :)} (1. L@b2 S@a1 (1... L@a1 {big (really} 2. S@c3) 2. L@c3) 1... S@c3\n"
      "2. L@b1 (2. M@b1 ; a ) in a line comment\n S@b2) S@c2 3. M@c1 1-0\n";
  GameRecord r = readOne(text);
  EXPECT_EQ(r.moves, kRankOneWin);
  EXPECT_TRUE(verifyRecord(r).ok()) << verifyRecord(r);
}

// The browser board names its players and time control (web/players.js):
// the engine with its level and Elo, a person "You", the clock as
// base+increment in seconds or the engine's fixed time as movetime=S, the
// forms gobblet-match writes: read into the record as they are.
TEST(MatchPgn, ReadsTheBoardsPlayersAndTimeControl) {
  for (const std::string tc : {"300+3", "movetime=1"}) {
    const std::string text =
        "[Event \"Gobblet board\"]\n[Site \"127.0.0.1:8080\"]\n[Date \"2026.12.06\"]\n[Round \"-\"]\n"
        "[White \"You\"]\n[Black \"gobblet (level 13, ~1540)\"]\n[Result \"1-0\"]\n[Variant \"gobblers\"]\n"
        "[TimeControl \"" +
        tc + "\"]\n\n1. L@a1 S@c3 2. L@b1 S@c2 3. M@c1 1-0\n";
    GameRecord r = readOne(text);
    EXPECT_EQ(r.player1, "You");
    EXPECT_EQ(r.player2, "gobblet (level 13, ~1540)");
    EXPECT_EQ(r.timeControl, tc);
    EXPECT_EQ(r.moves, kRankOneWin);
    EXPECT_TRUE(verifyRecord(r).ok()) << verifyRecord(r);
  }
}

// A [Variant] tag may give any name or alias of the registry (the browser
// board's reader passes the tag to the engine, which reads it the same way),
// and the family form: each is read as its variant, whatever the default.
TEST(MatchPgn, ReadsEveryVariantNameAndAlias) {
  for (const NamedVariant& named : kNamedVariants) {
    std::vector<std::string> spellings{std::string(named.name), named.variant.name()};
    for (std::string_view alias : named.aliases) spellings.emplace_back(alias);
    for (const std::string& spelling : spellings) {
      const Variant other = named.variant == Variant::gobblet() ? Variant::gobblers() : Variant::gobblet();
      GameRecord r = readOne("[Variant \"" + spelling + "\"]\n[Result \"*\"]\n\n*\n", other);
      EXPECT_EQ(r.variant, named.variant) << spelling;
      EXPECT_EQ(r.start, positionToString(Board(named.variant))) << spelling;
    }
  }
}

TEST(MatchPgn, MalformedPgnGivesClearErrors) {
  struct Case {
    std::string text;
    std::string error;
  };
  const std::string tags = "[Variant \"gobblers\"]\n[Result \"1-0\"]\n\n";
  const Case cases[] = {
      {"[Event \"x]\n1. L@a1 *\n", "line 1: tag Event: unterminated value"},
      {"[Event x]\n1. L@a1 *\n", "line 1: tag Event: expected a quoted value"},
      {"[ \"x\"]\n*\n", "line 1: a tag needs a name"},
      {"[Event \"x\"\n*\n", "line 1: tag Event: expected ']' after the value"},
      {"[Event \"x\"]\n[Event \"y\"]\n*\n", "line 2: tag Event given twice"},
      {tags + "1. L@a1 S@c3\n", "ends without a result"},
      {tags + "1. L@a1 (1. L@b2 S@c3 1-0\n", "line 4: a variation '(' is never closed"},
      {tags + "1. L@a1 (1. L@b2 S@c3\n[Event \"next\"]\n1. L@a1 *\n", "line 4: a variation '(' is never closed"},
      {tags + "1. L@a1 {never closed\n", "comment '{' never closed"},
      {"[Result \"1-0\"]\n\n1. L@a1 0-1\n", "tag Result \"1-0\" but the moves end with 0-1"},
      {"[Variant \"chess\"]\n\n*\n", "tag Variant"},
      {"[Variant \"gobblers\"]\n[FEN \"4/4/4/4 1\"]\n\n*\n", "tag FEN '4/4/4/4 1' is not a gobblers position"},
      {"[Termination \"resigned\"]\n\n*\n", "unknown Termination \"resigned\""},
      {"[Adjudicated \"Cosmic ray\"]\n\n*\n", "unsupported adjudication 'Cosmic ray'"},
      {"[PlyCount \"3\"]\n\n1. X@a1 *\n", "PlyCount 3 but 1 moves"},
      {"[BookPlies \"2\"]\n\n1. X@a1 *\n", "bad BookPlies \"2\""},
  };
  for (const Case& c : cases) {
    std::vector<PgnEntry> entries = parsePgn(c.text);
    ASSERT_FALSE(entries.empty()) << c.text;
    absl::Status status = entries[0].game.status();
    if (status.ok()) status = recordFromPgn(*entries[0].game, Variant::gobblet()).status();
    EXPECT_FALSE(status.ok()) << c.text;
    EXPECT_NE(std::string(status.message()).find(c.error), std::string::npos)
        << "text:\n"
        << c.text << "\nerror: " << status.message() << "\nexpected: " << c.error;
  }
  // An illegal move is the referee's to find, with its number.
  std::string report = replayText("match_pgn_illegal.pgn", tags + "1. L@a1 L@a1 1-0\n", 1, 1);
  EXPECT_NE(report.find(":1: game 1: ply 2: "), std::string::npos) << report;
  EXPECT_NE(report.find(" in 'L@a1'\n"), std::string::npos) << report;  // the move named once, at the end
  EXPECT_EQ(report.find("'L@a1' in"), std::string::npos) << report;
  // A broken game does not hide the good ones around it.
  const std::string good =
      formatPgn(recordOf(kRankOneWin, GameResult::kPlayer1Wins, Termination::kLine), fixedHeader());
  report = replayText("match_pgn_mixed.pgn", good + "[Event \"broken]\n\n1. L@a1 *\n\n" + good, 3, 1);
  EXPECT_NE(report.find("replayed 3 games: 2 consistent, 1 inconsistent"), std::string::npos) << report;
  EXPECT_NE(report.find(":17: game 2: line 17: tag Event: unterminated value"), std::string::npos) << report;
}

TEST(MatchPgn, TruncatedOrCorruptedInputIsAnErrorNotACrash) {
  std::string file = formatPgn(recordOf(kRankOneWin, GameResult::kPlayer1Wins, Termination::kLine), fixedHeader()) +
                     cutegamesPgn("startpos", kShuffle, "1/2-1/2") + "[Event \"{c}\"]\n\n{x} 1. L@a1 ; y\n*\n";
  // Every prefix: whole games read, the cut one is an error naming a line.
  for (size_t cut = 0; cut <= file.size(); ++cut) {
    for (const PgnEntry& e : parsePgn(file.substr(0, cut))) {
      if (e.game.ok()) {
        (void)recordFromPgn(*e.game, Variant::gobblers());
      } else {
        EXPECT_EQ(std::string(e.game.status().message()).rfind("line ", 0), 0u) << e.game.status();
      }
    }
  }
  // Every single byte replaced by each of the characters PGN gives meaning to.
  for (size_t at = 0; at < file.size(); ++at)
    for (char c : std::string("[]{}();\"\\%$.\n")) {
      std::string bad = file;
      bad[at] = c;
      for (const PgnEntry& e : parsePgn(bad))
        if (e.game.ok()) (void)recordFromPgn(*e.game, Variant::gobblers());
    }
  EXPECT_EQ(parsePgn(file).size(), 3u);
}

// Runs gobblet-match with `args`; returns its exit code, output in `output`.
int runMatch(const std::string& args, std::string& output) {
  const testing::CommandResult r = testing::runCommand(gobblet::testing::binDir() + "/gobblet-match " + args + " 2>&1");
  output += r.output;
  return r.exitCode;
}

TEST(MatchPgn, RecordChoosesPgnByExtensionOrFlagAndReplayReadsIt) {
  const std::string fake = gobblet::testing::binDir() + "/gobblet-fake-engine";
  const std::string engines =
      " --variant gobblers --games 4 --random-plies 2 --depth 1 --timeout 2 --quiet"
      " --engine 'cmd=" +
      fake + " --seed 1' name=alpha --engine 'cmd=" + fake + " --seed 2' name=beta";
  const std::string pgn = ::testing::TempDir() + "match_pgn_cli.pgn";
  const std::string flagged = ::testing::TempDir() + "match_pgn_cli.txt";
  std::string output;
  ASSERT_EQ(runMatch("--record " + pgn + engines, output), 0) << output;
  ASSERT_EQ(runMatch("--record " + flagged + " --record-format pgn" + engines, output), 0) << output;
  for (const std::string& path : {pgn, flagged}) {
    const std::string text = readWholeFile(path);
    std::vector<PgnEntry> entries = parsePgn(text);
    ASSERT_EQ(entries.size(), 4u) << text;
    for (const PgnEntry& e : entries) {
      ASSERT_TRUE(e.game.ok()) << e.game.status();
      EXPECT_EQ(*e.game->tag("Variant"), "gobblers");
      EXPECT_EQ(*e.game->tag("TimeControl"), "depth=1");
      EXPECT_EQ(*e.game->tag("BookPlies"), "2");
    }
    output.clear();
    EXPECT_EQ(runMatch("--replay " + path, output), 0) << output;
    EXPECT_NE(output.find("replayed 4 games: 4 consistent, 0 inconsistent"), std::string::npos) << output;
  }
  // cutegames' PGN has no Variant tag: --variant says which game it is.
  const std::string cute = ::testing::TempDir() + "match_pgn_cli_cutegames.pgn";
  std::ofstream(cute) << cutegamesPgn("3/3/3 1", kRankOneWin, "1-0") + cutegamesPgn("startpos", kShuffle, "1/2-1/2");
  output.clear();
  EXPECT_EQ(runMatch("--replay " + cute + " --variant gobblers", output), 0) << output;
  EXPECT_NE(output.find("replayed 2 games: 2 consistent, 0 inconsistent"), std::string::npos) << output;
  output.clear();
  EXPECT_EQ(runMatch("--replay " + cute, output), 1) << output;  // read as 4x4 Gobblet
  EXPECT_NE(output.find("game 1: tag FEN '3/3/3 1' is not a gobblet position"), std::string::npos) << output;
  EXPECT_NE(output.find("game 2: ply 1: "), std::string::npos) << output;
  std::remove(cute.c_str());
  output.clear();
  EXPECT_EQ(runMatch("--record-format xml" + engines, output), 2);
  EXPECT_NE(output.find("--record-format must be line or pgn"), std::string::npos) << output;
  std::remove(pgn.c_str()), std::remove(flagged.c_str());
}

}  // namespace
}  // namespace gobblet::match
