// gobblet-match --resume (match/resume.h): an interrupted match
// continued from its record gives the table of an uninterrupted one, plays
// only the games the record lacks, appends them to it, and refuses records
// of another match, broken records and games that do not belong.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/support/scratch_dir.h"
#include "tests/support/shell_command.h"
#include "tests/support/match_output.h"
#include "tests/support/whole_file.h"
#include "match/schedule.h"
#include "tests/support/paths.h"
#include "tests/support/sanitizers.h"

namespace gobblet::match {
namespace {

const std::string kBin = gobblet::testing::binDir();
const std::string kMatch = kBin + "/gobblet-match";
const std::string kFake = kBin + "/gobblet-fake-engine";

using Outcome = gobblet::testing::CommandResult;

Outcome runMatch(const std::string& args) {
  return gobblet::testing::runCommand("timeout 300 " + kMatch + " " + args + " 2>&1");
}

// Two fake engines whose games depend on their opening alone (--mode
// hashed), engine a logging what it is sent to `log`.
std::string match(const std::string& log, const std::string& extra = "") {
  return "--variant gobblers --games 12 --random-plies 2 --seed 9 --depth 1 --quiet " + extra +
         " --engine 'cmd=" + kFake + " --mode hashed --seed 1 --log " + log + "' name=a" + " --engine 'cmd=" + kFake +
         " --mode hashed --seed 2' name=b ";
}

size_t count(const std::string& text, const std::string& word) {
  size_t n = 0;
  for (size_t at = 0; (at = text.find(word, at)) != std::string::npos; ++at) ++n;
  return n;
}

// The record's lines whose game number `keep` accepts (and the match line).
std::string linesOf(const std::string& record, bool (*keep)(int)) {
  std::istringstream in(readWholeFile(record));
  std::string line, kept;
  while (std::getline(in, line))
    if (line[0] == '#' || keep(std::stoi(line.substr(5)))) kept += line + "\n";
  return kept;
}

class MatchResume : public ::testing::Test {
 protected:
  void SetUp() override {
    full_ = dir_.file("full.txt");
    log_ = dir_.file("a.log");
    whole_ = runMatch(match(log_) + "--record " + full_);
    ASSERT_EQ(whole_.exitCode, 0) << whole_.output;
    ASSERT_EQ(gamesByNumber(full_).size(), 12u);
    std::remove(log_.c_str());
  }
  gobblet::testing::ScratchDir dir_{"match_resume"};
  std::string full_, log_;
  Outcome whole_;
};

TEST_F(MatchResume, PlaysOnlyTheMissingGamesAndEndsWithTheSameTable) {
  // Interrupted after games 1-4 and 7 (5 and 6 were under way), killed
  // while writing game 8: its line is cut short.
  const std::string partial = dir_.file("partial.txt");
  std::string text = linesOf(full_, [](int n) { return n <= 4 || n == 7; });
  text += gamesByNumber(full_).at(8).substr(0, 40);
  std::ofstream(partial) << text;
  const Outcome resumed = runMatch(match(log_) + "--concurrency 2 --resume " + partial);
  ASSERT_EQ(resumed.exitCode, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("5 games already played (a partial last line was cut off)"), std::string::npos)
      << resumed.output;
  EXPECT_EQ(finalTable(resumed.output), finalTable(whole_.output));
  EXPECT_NE(finalTable(resumed.output).find("12 of 12 games played"), std::string::npos) << resumed.output;
  EXPECT_EQ(gamesByNumber(partial), gamesByNumber(full_));  // the same games, none twice
  // Engine a plays in every game: 7 games played, not 12.
  EXPECT_EQ(count(readWholeFile(log_), "uginewgame"), 7u);

  // Resumed again, the match is over: no engine starts.
  std::remove(log_.c_str());
  const Outcome again = runMatch(match(log_) + "--resume " + partial);
  ASSERT_EQ(again.exitCode, 0) << again.output;
  EXPECT_EQ(finalTable(again.output), finalTable(whole_.output));
  EXPECT_EQ(readWholeFile(log_), "");
}

// A record that stops taking writes (a full disk; here the file size limit
// of `ulimit -f`, with SIGXFSZ ignored so that a write fails with EFBIG)
// stops the match with an error naming the file and how many games it
// holds, exit status 1; --resume then plays the others into the same table.
// (Before, the match played on, printed "12 of 12 games played", exited 0
// and the record lacked games.) /dev/full fails at the match line.
TEST_F(MatchResume, ARecordThatCannotBeWrittenStopsTheMatch) {
  const Outcome full = runMatch(match(log_) + "--record /dev/full");
  EXPECT_EQ(full.exitCode, 1) << full.output;
  EXPECT_NE(full.output.find("cannot write its match line to the record file '/dev/full': No space left on device"),
            std::string::npos)
      << full.output;

  const std::string cut = dir_.file("cut.txt");
  const size_t limit = 1024;  // bytes: the match line and a few games of the 12
  ASSERT_GT(readWholeFile(full_).size(), 2 * limit);
  const Outcome stopped = gobblet::testing::runCommand("bash -c \"trap '' XFSZ; ulimit -f 1; exec timeout 300 " +
                                                       kMatch + " " + match(log_) + "--record " + cut + "\" 2>&1");
  EXPECT_EQ(stopped.exitCode, 1) << stopped.output;
  // The whole game lines the file holds (a last one may be cut off).
  const std::string text = readWholeFile(cut);
  const size_t recorded = count(text.substr(0, text.rfind('\n') + 1), "\ngame=");
  EXPECT_GT(recorded, 0u);
  EXPECT_LT(recorded, 12u);
  EXPECT_NE(stopped.output.find("to the record file '" + cut +
                                "': File too large; no further game was started: " + std::to_string(recorded) +
                                " games are recorded; once it can be written, --resume " + cut + " plays the others"),
            std::string::npos)
      << stopped.output;
  EXPECT_EQ(stopped.output.find("games played"), std::string::npos) << "no final table: " << stopped.output;

  const Outcome resumed = runMatch(match(log_) + "--resume " + cut);
  ASSERT_EQ(resumed.exitCode, 0) << resumed.output;
  EXPECT_EQ(finalTable(resumed.output), finalTable(whole_.output));
  EXPECT_EQ(gamesByNumber(cut), gamesByNumber(full_));
}

// An engine's program named another way is the same engine: resumed with
// BIN/./gobblet-fake-engine, a record of BIN/gobblet-fake-engine is this
// match's (it was refused: the commands were compared as text).
TEST_F(MatchResume, TheSameProgramByAnotherPathIsTheSameEngine) {
  const std::string partial = dir_.file("partial.txt");
  std::ofstream(partial) << linesOf(full_, [](int n) { return n <= 5; });
  std::string args = match(log_);
  for (size_t at = 0; (at = args.find(kFake, at)) != std::string::npos; at += kFake.size() + 2)
    args.replace(at, kFake.size(), kBin + "/./gobblet-fake-engine");
  const Outcome resumed = runMatch(args + "--resume " + partial);
  ASSERT_EQ(resumed.exitCode, 0) << resumed.output;
  EXPECT_EQ(finalTable(resumed.output), finalTable(whole_.output));
  // Its other words still count: another seed is another engine.
  std::string reseeded = args;
  reseeded.replace(reseeded.find("--seed 1"), 8, "--seed 7");
  const Outcome other = runMatch(reseeded + "--resume " + partial);
  EXPECT_EQ(other.exitCode, 2) << other.output;
  EXPECT_NE(other.output.find("engine1.cmd is"), std::string::npos) << other.output;
}

TEST_F(MatchResume, MorePlannedGamesExtendTheMatch) {
  // The same 12 games, then 4 more: game i is the same whatever --games.
  const std::string longer = dir_.file("longer.txt");
  const Outcome sixteen = runMatch(match(dir_.file("other.log"), "--games 16") + "--record " + longer);
  ASSERT_EQ(sixteen.exitCode, 0) << sixteen.output;
  const Outcome extended = runMatch(match(log_, "--games 16") + "--resume " + full_);
  ASSERT_EQ(extended.exitCode, 0) << extended.output;
  EXPECT_EQ(finalTable(extended.output), finalTable(sixteen.output));
  EXPECT_EQ(gamesByNumber(full_), gamesByNumber(longer));
  EXPECT_EQ(count(readWholeFile(log_), "uginewgame"), 4u);
}

TEST_F(MatchResume, ResumesPgnRecords) {
  const std::string pgn = dir_.file("games.pgn"), full = dir_.file("full.pgn");
  const Outcome whole = runMatch(match(log_) + "--record " + full);
  ASSERT_EQ(whole.exitCode, 0) << whole.output;
  std::remove(log_.c_str());
  // The first 3 games: the match line and the blocks before the 4th "[Event".
  const std::string text = readWholeFile(full);
  size_t cut = 0;
  for (int i = 0; i < 4; ++i) cut = text.find("[Event", cut + 1);
  ASSERT_NE(cut, std::string::npos);
  ASSERT_EQ(text[0], '%') << text.substr(0, 200);
  std::ofstream(pgn) << text.substr(0, cut);
  const Outcome resumed = runMatch(match(log_) + "--resume " + pgn);
  ASSERT_EQ(resumed.exitCode, 0) << resumed.output;
  EXPECT_EQ(finalTable(resumed.output), finalTable(whole.output));
  EXPECT_EQ(count(readWholeFile(log_), "uginewgame"), 9u);
  const Outcome replay = runMatch("--replay " + pgn);
  EXPECT_NE(replay.output.find("replayed 12 games: 12 consistent"), std::string::npos) << replay.output;
}

// A PGN record cut anywhere after its match line (what a crash or a full
// disk leaves: a cut line, a game without its moves or result) resumes,
// the cut game dropped and played again, to the uninterrupted table. (It
// was refused at most cut points: only a cut last line was taken off.)
TEST_F(MatchResume, APgnRecordCutAnywhereResumes) {
  const std::string full = dir_.file("full.pgn"), cut = dir_.file("cut.pgn");
  const Outcome whole = runMatch(match(log_) + "--record " + full);
  ASSERT_EQ(whole.exitCode, 0) << whole.output;
  const std::string text = readWholeFile(full);
  const size_t header = text.find('\n') + 1;
  // Cut points over the whole file (every 97th byte, prime to the layout;
  // every 388th under a sanitizer: tests/support/sanitizers.h),
  // and the two ends of the games.
  std::vector<size_t> points{header, text.size() - 1};
  for (size_t at = header + 1; at < text.size(); at += 97 * testing::kSanitizerStride) points.push_back(at);
  for (const size_t at : points) {
    std::ofstream(cut, std::ios::trunc) << text.substr(0, at);
    const Outcome resumed = runMatch(match(log_) + "--resume " + cut);
    ASSERT_EQ(resumed.exitCode, 0) << "cut at byte " << at << " of " << text.size() << ":\n" << resumed.output;
    EXPECT_EQ(finalTable(resumed.output), finalTable(whole.output)) << "cut at byte " << at;
    const Outcome replay = runMatch("--replay " + cut);
    EXPECT_NE(replay.output.find("replayed 12 games: 12 consistent"), std::string::npos)
        << "cut at byte " << at << ": " << replay.output;
  }
}

TEST_F(MatchResume, RefusesRecordsOfAnotherMatchAndBrokenRecords) {
  const std::string bad = dir_.file("bad.txt");
  const std::string someGames = linesOf(full_, [](int n) { return n <= 3; });
  auto refused = [&](const std::string& record, const std::string& args, const std::string& why) {
    std::ofstream(bad) << record;
    const Outcome r = runMatch(args + "--resume " + bad);
    EXPECT_EQ(r.exitCode, 2) << why << "\n" << r.output;
    EXPECT_NE(r.output.find(why), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("game 1/"), std::string::npos) << r.output;
  };
  // Another match: seed, engine limits, options, names.
  refused(someGames, match(log_, "--seed 10"), "was written by another match: seed is \"9\" there, \"10\" here");
  refused(someGames, match(log_, "--nodes 50"), "engine1.limits is \"depth=1\" there, \"depth=1 nodes=50\" here");
  refused(someGames, match(log_) + "--engine cmd=" + kFake + " name=c ", "it has no engine3.name");
  // Not a record of --record: no match line.
  refused(someGames.substr(someGames.find('\n') + 1), match(log_), "does not start with the match line");
  // A game that is not this match's game of that number, twice, beyond the
  // end, tampered, unreadable.
  std::string swapped = someGames;
  swapped.replace(swapped.find("p1=\"a\" p2=\"b\""), 13, "p1=\"b\" p2=\"a\"");
  refused(swapped, match(log_), "resumed game 1: played by 'b' and 'a', in this match by 'a' and 'b'");
  const std::string game2 = gamesByNumber(full_).at(2);
  refused(someGames + game2 + "\n", match(log_), "resumed game 2: the record holds it twice");
  refused(someGames, match(log_, "--games 2"), "resumed game 3: this match has games 1 to 2");
  std::string flipped = someGames;
  const size_t result = flipped.find("result=", flipped.find("game=1 "));
  flipped.replace(result, 10, flipped.compare(result, 10, "result=1-0") == 0 ? "result=0-1" : "result=1-0");
  refused(flipped, match(log_), "resumed game 1: does not replay");
  // An edited opening keeps its label: what differs is its moves (the
  // message was "'random-1' is not 'random-1'").
  std::string edited = someGames;
  const size_t moves = edited.find("moves=\"", edited.find("game=1 ")) + 7;
  const size_t firstEnd = edited.find(' ', moves);
  edited.replace(moves, firstEnd - moves, edited.compare(moves, firstEnd - moves, "S@b2") == 0 ? "S@a1" : "S@b2");
  refused(edited, match(log_), "resumed game 1: its opening 'random-1' plays '");
  refused(someGames + "game=4 p1=\"b\"\n", match(log_), "bad.txt:5: missing field");
  refused(someGames, match(log_) + "--record " + dir_.file("elsewhere.txt") + " ", "--resume FILE appends to FILE");
  // Files that are no record are left as they were (a notes file lost its
  // last line, a file without a newline all of it); a directory is refused
  // at once (--resume spun forever on it, --replay "replayed 0 games").
  refused("notes about the match\nsecond line without a newline", match(log_), "does not start with the match line");
  EXPECT_EQ(readWholeFile(bad), "notes about the match\nsecond line without a newline");
  refused("one line without a newline", match(log_), "holds no whole line");
  EXPECT_EQ(readWholeFile(bad), "one line without a newline");
  const std::string directory = dir_.file("a-directory");
  std::filesystem::create_directory(directory);
  const Outcome folder = runMatch(match(log_) + "--resume " + directory);
  EXPECT_EQ(folder.exitCode, 2) << folder.output;
  EXPECT_NE(folder.output.find("is not a regular file"), std::string::npos) << folder.output;
  const Outcome replayFolder = runMatch("--replay " + directory);
  EXPECT_NE(replayFolder.exitCode, 0) << replayFolder.output;
  EXPECT_NE(replayFolder.output.find("is a directory, not a record file"), std::string::npos) << replayFolder.output;
  // A file that is not there.
  const Outcome missing = runMatch(match(log_) + "--resume " + dir_.file("none.txt"));
  EXPECT_EQ(missing.exitCode, 2) << missing.output;
  EXPECT_NE(missing.output.find("cannot open record file"), std::string::npos) << missing.output;
  // Nothing was played.
  EXPECT_EQ(readWholeFile(log_), "");
}

TEST(MatchSchedule, SkippedGamesAreNeverHandedOut) {
  Schedule schedule(2, Format::kRoundRobin, 8, std::nullopt);
  schedule.finish(schedule.game(1), GameResult::kPlayer1Wins);
  schedule.finish(schedule.game(4), GameResult::kDraw);
  schedule.finish(schedule.game(8), GameResult::kPlayer2Wins);
  schedule.skip({1, 4, 8});
  std::vector<int> handedOut;
  while (std::optional<ScheduledGame> game = schedule.next()) handedOut.push_back(game->number);
  EXPECT_EQ(handedOut, (std::vector<int>{2, 3, 5, 6, 7}));
  EXPECT_EQ(schedule.state().gamesPlayed, 3);
  EXPECT_EQ(schedule.state().pairings[0].score.games(), 3);
}

}  // namespace
}  // namespace gobblet::match
