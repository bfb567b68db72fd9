// Hostile files for gobblet-match: record files, PGN and opening files with
// lines, games and sizes beyond the caps of match/input_limits.h are
// read one line or game at a time -- an over-long line or game is an error
// naming the file and the line, the rest of the file is still read -- and
// the tool finishes in bounded memory (checked under `ulimit -v`) whatever
// the file's size.
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "engine/notation.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/shell_command.h"
#include "match/game_record.h"
#include "match/input_limits.h"
#include "match/openings.h"
#include "match/record_file_reader.h"
#include "tests/support/paths.h"

namespace gobblet::match {
namespace {

const std::string kBin = gobblet::testing::binDir();
const std::string kMatch = kBin + "/gobblet-match";
const std::string kFake = kBin + "/gobblet-fake-engine";

// Virtual memory allowed to the tool in the tests below, in KiB: a few
// times what it needs for one capped line or game, far below what holding
// one of the 30 MB files below (or its moves) would take.
constexpr int kMemoryLimitKb = 200 * 1024;
constexpr size_t kBigFileBytes = 30u << 20;

// Runs `args` with gobblet-match under the memory limit; stdout and stderr.
gobblet::testing::CommandResult runMatchInLimitedMemory(const std::string& args) {
  return gobblet::testing::runCommand("ulimit -v " + std::to_string(kMemoryLimitKb) + "; exec " + kMatch + " " + args +
                                      " 2>&1");
}

// `count` moves "X@a1 X@a1 ...": a move list of any length (illegal from
// the second move on, so a replay rejects it quickly).
std::string manyMoves(size_t count) {
  std::string moves;
  moves.reserve(count * 5);
  for (size_t i = 0; i < count; ++i) moves += i == 0 ? "X@a1" : " X@a1";
  return moves;
}

// A record line with `moves` (see manyMoves).
std::string recordLine(size_t moveCount) {
  GameRecord r;
  r.number = 1;
  r.player1 = "a", r.player2 = "b";
  r.variant = Variant::gobblet();
  r.opening = "start";
  r.start = positionToString(Board(r.variant));
  r.moves = {manyMoves(moveCount)};
  r.result = GameResult::kPlayer1Wins;
  r.termination = Termination::kLine;
  return formatRecord(r);
}

// Writes `line` + "\n" repeated until the file holds at least `bytes`.
void writeRepeated(const std::string& path, const std::string& line, size_t bytes) {
  std::ofstream out(path, std::ios::binary);
  for (size_t written = 0; written < bytes; written += line.size() + 1) out << line << '\n';
}

bool skipUnderSanitizers() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return true;  // a sanitizer reserves terabytes of address space: ulimit -v cannot apply
#else
  return false;
#endif
}

TEST(MatchLimits, AnOverlongRecordLineIsAnErrorNamingItsLineAndReadingGoesOn) {
  gobblet::testing::ScratchDir dir("match_limits");
  const std::string path = dir.file("records.txt");
  {
    std::ofstream out(path);
    out << recordLine(2) << "\n"
        << std::string(kMaxInputLineBytes + 10, 'x') << "\n"
        << recordLine(kMaxGamePlies + 1) << "\n"
        << recordLine(3) << "\n";
  }
  auto reader = RecordFileReader::open(path, Variant::gobblet());
  ASSERT_TRUE(reader.ok()) << reader.status();
  std::vector<RecordFileEntry> entries;
  while (auto entry = (*reader)->next()) entries.push_back(*entry);
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_TRUE(entries[0].record.ok()) << entries[0].record.status();
  EXPECT_EQ(entries[1].where, path + ":2");
  EXPECT_NE(entries[1].record.status().message().find("longer than 1048576 bytes"), absl::string_view::npos)
      << entries[1].record.status();
  EXPECT_EQ(entries[2].where, path + ":3");
  EXPECT_NE(entries[2].record.status().message().find("at most 100000"), absl::string_view::npos)
      << entries[2].record.status();
  ASSERT_TRUE(entries[3].record.ok()) << entries[3].record.status();
  EXPECT_EQ(entries[3].where, path + ":4");
  EXPECT_EQ(entries[3].record->moves.size(), 3u);
}

TEST(MatchLimits, AnOverlongPgnGameIsAnErrorAndTheNextGameIsRead) {
  gobblet::testing::ScratchDir dir("match_limits");
  const std::string path = dir.file("games.pgn");
  const std::string small = "[Event \"e\"]\n[Result \"*\"]\n\n1. X@a1 *\n\n";
  {
    std::ofstream out(path);
    out << small << "[Event \"long\"]\n[Result \"*\"]\n\n";
    const std::string line = "{ a comment line of the movetext, not stored but counted }\n";
    for (size_t written = 0; written <= kMaxPgnGameBytes; written += line.size()) out << line;
    out << "*\n\n"
        << small << "[Event \"one long line\"]\n"
        << std::string(kMaxInputLineBytes + 1, ' ') << "\n*\n\n"
        << small;
  }
  auto reader = RecordFileReader::open(path, Variant::gobblet());
  ASSERT_TRUE(reader.ok()) << reader.status();
  std::vector<RecordFileEntry> entries;
  while (auto entry = (*reader)->next()) entries.push_back(*entry);
  ASSERT_EQ(entries.size(), 5u);
  EXPECT_TRUE(entries[0].record.ok()) << entries[0].record.status();
  EXPECT_EQ(entries[1].where, path + ":6: game 2");
  EXPECT_NE(entries[1].record.status().message().find("the game starting at line 6 is longer than 4194304 bytes"),
            absl::string_view::npos)
      << entries[1].record.status();
  ASSERT_TRUE(entries[2].record.ok()) << entries[2].record.status();
  EXPECT_EQ(entries[2].record->moves.size(), 1u);
  EXPECT_NE(entries[3].record.status().message().find("a line longer than 1048576 bytes"), absl::string_view::npos)
      << entries[3].record.status();
  EXPECT_TRUE(entries[4].record.ok()) << entries[4].record.status();
}

TEST(MatchLimits, AnOverlongOpeningLineIsAnErrorNamingFileAndLine) {
  gobblet::testing::ScratchDir dir("match_limits");
  const std::string path = dir.file("openings.txt");
  {
    std::ofstream out(path);
    out << "X@a1\n# comment\n" << manyMoves(kMaxInputLineBytes / 5 + 1) << "\n";
  }
  auto file = OpeningFile::open(Variant::gobblet(), path);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.status().message(), path + ":3: a line longer than 1048576 bytes");
}

TEST(MatchLimits, AnOpeningFileIsCycledOneOpeningAtATime) {
  gobblet::testing::ScratchDir dir("match_limits");
  const std::string path = dir.file("openings.txt");
  std::ofstream(path) << "# two openings\n\nX@a1\n  X@b2 x@c3\n";
  auto file = OpeningFile::open(Variant::gobblet(), path);
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_EQ((*file)->size(), 2);
  for (const char* line : {":3", ":4", ":3", ":4", ":3"}) {
    auto opening = (*file)->next();
    ASSERT_TRUE(opening.ok()) << opening.status();
    EXPECT_EQ(opening->label, path + line);
  }
}

TEST(MatchLimits, ReplayOfManyLongRecordLinesRunsInBoundedMemory) {
  if (skipUnderSanitizers()) GTEST_SKIP() << "ulimit -v does not apply under a sanitizer";
  gobblet::testing::ScratchDir dir("match_limits");
  const std::string path = dir.file("records.txt");
  writeRepeated(path, recordLine(10000), kBigFileBytes);  // 50 KB lines: 6 million moves in all
  auto replay = runMatchInLimitedMemory("--replay " + path);
  EXPECT_EQ(replay.exitCode, 1) << replay.output.substr(0, 2000);
  EXPECT_NE(replay.output.find(path + ":1: ply 2: "), std::string::npos) << replay.output.substr(0, 2000);
  EXPECT_NE(replay.output.find(" in 'X@a1'\n"), std::string::npos) << replay.output.substr(0, 2000);
  EXPECT_NE(replay.output.find("0 consistent, "), std::string::npos) << replay.output.substr(0, 2000);
}

TEST(MatchLimits, ReplayOfOneHugeRecordLineOrPgnGameRunsInBoundedMemory) {
  if (skipUnderSanitizers()) GTEST_SKIP() << "ulimit -v does not apply under a sanitizer";
  gobblet::testing::ScratchDir dir("match_limits");
  const std::string lines = dir.file("records.txt");
  {
    std::ofstream out(lines);
    out << recordLine(kBigFileBytes / 5) << "\n" << recordLine(2) << "\n";
  }
  auto replay = runMatchInLimitedMemory("--replay " + lines);
  EXPECT_EQ(replay.exitCode, 1) << replay.output.substr(0, 2000);
  EXPECT_NE(replay.output.find(lines + ":1: a line longer than 1048576 bytes"), std::string::npos)
      << replay.output.substr(0, 2000);
  EXPECT_NE(replay.output.find(lines + ":2: ply 2: "), std::string::npos) << replay.output.substr(0, 2000);
  EXPECT_NE(replay.output.find("replayed 2 games: 0 consistent, 2 inconsistent"), std::string::npos)
      << replay.output.substr(0, 2000);

  const std::string pgn = dir.file("games.pgn");
  {
    std::ofstream out(pgn);
    out << "[Event \"long\"]\n[Result \"1-0\"]\n\n";
    for (size_t written = 0; written < kBigFileBytes; written += 80) out << manyMoves(15) << "\n";
    out << "1-0\n";
  }
  replay = runMatchInLimitedMemory("--replay " + pgn);
  EXPECT_EQ(replay.exitCode, 1) << replay.output.substr(0, 2000);
  EXPECT_NE(replay.output.find(pgn + ":1: game 1: line "), std::string::npos) << replay.output.substr(0, 2000);
  EXPECT_NE(replay.output.find("the game starting at line 1 has more than 100000 moves"), std::string::npos)
      << replay.output.substr(0, 2000);
}

TEST(MatchLimits, AHugeOpeningLineIsRefusedInBoundedMemory) {
  if (skipUnderSanitizers()) GTEST_SKIP() << "ulimit -v does not apply under a sanitizer";
  gobblet::testing::ScratchDir dir("match_limits");
  const std::string path = dir.file("openings.txt");
  std::ofstream(path) << manyMoves(kBigFileBytes / 5) << "\n";
  auto match =
      runMatchInLimitedMemory("--openings " + path + " --depth 1 --engine cmd=" + kFake + " --engine cmd=" + kFake);
  EXPECT_EQ(match.exitCode, 2) << match.output.substr(0, 2000);
  EXPECT_NE(match.output.find(path + ":1: a line longer than 1048576 bytes"), std::string::npos)
      << match.output.substr(0, 2000);
}

}  // namespace
}  // namespace gobblet::match
