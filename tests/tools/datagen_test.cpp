// gobblet-datagen's pieces: the training data file (training_data.h) reads
// back what was written and refuses what it does not know, as the Python
// reader (tools/datagen/training_data.py) does; one writer at a time; a
// damaged file is repaired to its whole games; self-play (self_play.h)
// writes real games of the rules with their results, the same file for any
// number of threads and for a stopped and resumed run, and a stop ends even
// a search that would not end.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "absl/strings/str_cat.h"

#include "engine/movegen.h"
#include "search/eval_file.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/shell_command.h"
#include "tests/support/whole_file.h"
#include "tools/datagen/self_play.h"
#include "tools/datagen/training_data.h"
#include "tests/support/paths.h"

namespace gobblet::datagen {
namespace {

using gobblet::testing::ScratchDir;

DataSettings smallSettings() {
  DataSettings s;
  s.nodes = 3000;
  s.randomPlies = 6;
  s.hashMiB = 1;
  s.seed = 42;
  return s;
}

// Makes `path` with `games` games of `settings`, `threads` at once, searched
// with `net` (null: the hand-written evaluation).
void makeFile(const std::string& path, const DataSettings& settings, uint64_t games, int threads,
              std::shared_ptr<const nnue::Network> net = nullptr) {
  auto writer = TrainingDataWriter::open(path, settings);
  ASSERT_TRUE(writer.ok()) << writer.status();
  GenerateOptions options;
  options.games = games;
  options.threads = threads;
  options.net = net;
  auto done = generate(*writer, options);
  ASSERT_TRUE(done.ok()) << done.status();
  EXPECT_EQ(done->gamesFinished, games);
  EXPECT_FALSE(done->stopped);
}

TEST(TrainingData, HeaderAndRecordsReadBackAsWritten) {
  DataHeader header;
  header.settings = smallSettings();
  header.settings.variant = Variant::gobblers();
  header.settings.net = 0xfedcba9876543210ull;
  header.gamesFinished = 123456789012ull;
  const auto bytes = encodeHeader(header);
  auto back = decodeHeader(bytes.data(), bytes.size());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->settings, header.settings);
  EXPECT_EQ(back->gamesFinished, header.gamesFinished);

  PositionRecord r;
  r.pieces[0] = {0x0001, 0x8000, 0x0100, 0x0004};
  r.pieces[1] = {0x0002, 0x4000, 0x0200, 0x0008};
  r.score = -31999;
  r.sideToMove = 1;
  r.result = -1;
  r.depth = 17;
  r.flags = PositionRecord::kDecided | PositionRecord::kQuiet;
  r.ply = 301;
  r.game = 4000000000u;
  r.bestMove = Move::boardMove(2, 5, 9).raw();
  EXPECT_EQ(decodeRecord(encodeRecord(r).data()), r);
  // The layout of docs/datagen.md: the score at 16, little-endian.
  EXPECT_EQ(encodeRecord(r)[16], 0x01);
  EXPECT_EQ(encodeRecord(r)[17], 0x83);
}

TEST(TrainingData, WhatIsNotAFileOfThisVersionIsRefusedWithTheReason) {
  DataHeader header;
  const auto good = encodeHeader(header);
  auto refusal = [&](size_t at, uint8_t value, size_t size = kHeaderSize) {
    auto bytes = good;
    if (at < bytes.size()) bytes[at] = value;
    auto decoded = decodeHeader(bytes.data(), size);
    EXPECT_FALSE(decoded.ok());
    return std::string(decoded.status().message());
  };
  EXPECT_NE(refusal(0, 'X').find("not a gobblet training data file"), std::string::npos);
  EXPECT_NE(refusal(kHeaderSize, 0, 40).find("not a gobblet training data file"), std::string::npos);
  EXPECT_NE(refusal(8, 2).find("version 2"), std::string::npos);
  EXPECT_NE(refusal(16, 33).find("record size 33"), std::string::npos);
  EXPECT_NE(refusal(24, 'Q').find("variant"), std::string::npos);
  auto unterminated = good;
  for (size_t i = 24; i < 48; ++i) unterminated[i] = 'g';
  EXPECT_FALSE(decodeHeader(unterminated.data(), unterminated.size()).ok());
}

TEST(TrainingData, AForgedRecordIsRefusedAndACutOneIsNotPartOfTheFile) {
  ScratchDir dir;
  const std::string path = dir.file("games.bin");
  makeFile(path, smallSettings(), 2, 1);
  const std::string bytes = readWholeFile(path);
  auto whole = readTrainingData(path);
  ASSERT_TRUE(whole.ok()) << whole.status();
  ASSERT_GT(whole->records.size(), 2u);
  EXPECT_EQ(whole->unfinishedRecords, 0u);

  // Cut inside the last record (as a run killed while writing leaves it):
  // a record cut short is not part of the file.
  writeWholeFile(path, bytes.substr(0, bytes.size() - 5));
  auto cut = readTrainingData(path);
  ASSERT_TRUE(cut.ok()) << cut.status();
  EXPECT_EQ(cut->records.size(), whole->records.size() - 1);
  EXPECT_EQ(cut->unfinishedRecords, 1u);

  // A piece of size 3 on both players' side of one square.
  std::string forged = bytes;
  forged[kHeaderSize + 6] = 1;   // player 1, size 3, square 0
  forged[kHeaderSize + 14] = 1;  // player 2, size 3, square 0
  writeWholeFile(path, forged);
  auto refused = readTrainingData(path);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("record 0: two pieces of size 3 on one square"), std::string::npos)
      << refused.status();
  // A result that is not 1, 0 or -1.
  forged = bytes;
  forged[kHeaderSize + kRecordSize + 19] = 7;
  writeWholeFile(path, forged);
  refused = readTrainingData(path);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("record 1: result 7"), std::string::npos) << refused.status();

  EXPECT_EQ(readTrainingData(dir.file("none.bin")).status().code(), absl::StatusCode::kNotFound);
}

// A header of `settings` with `games` finished and the variant name
// `name` (24 bytes, as they are), then `records`.
std::string fileBytes(const DataSettings& settings, uint64_t games, const std::vector<PositionRecord>& records,
                      const std::string& name = "gobblet") {
  DataHeader header;
  header.settings = settings;
  header.gamesFinished = games;
  auto head = encodeHeader(header);
  std::fill(head.begin() + 24, head.begin() + 48, 0);
  std::copy_n(name.begin(), std::min<size_t>(name.size(), 24), head.begin() + 24);
  std::string bytes(head.begin(), head.end());
  for (const PositionRecord& r : records) {
    const auto b = encodeRecord(r);
    bytes.append(b.begin(), b.end());
  }
  return bytes;
}

PositionRecord recordOf(uint32_t game, std::array<uint16_t, 4> first = {}, std::array<uint16_t, 4> second = {}) {
  PositionRecord r;
  r.pieces = {first, second};
  r.game = game;
  return r;
}

// What tools/datagen/training_data.py says of each file: path -> its line
// (the refusal, or the games and positions read). Empty if Debian's python3
// with numpy is not there.
std::map<std::string, std::string> pythonReader(const std::vector<std::string>& paths) {
  std::map<std::string, std::string> said;
#ifdef GOBBLET_SYSTEM_PYTHON
  std::string command =
      std::string(GOBBLET_SYSTEM_PYTHON) + " " + gobblet::testing::sourceDir() + "/tools/datagen/training_data.py";
  for (const std::string& path : paths) command += " " + path;
  const auto run = gobblet::testing::runCommand(command + " 2>&1");
  std::istringstream lines(run.output);
  for (std::string line; std::getline(lines, line);)
    for (const std::string& path : paths)
      if (line.find(path + ":") != std::string::npos) said[path] = line;
#else
  (void)paths;
#endif
  return said;
}

bool pythonReaderRuns() {
#ifdef GOBBLET_SYSTEM_PYTHON
  return gobblet::testing::runCommand(std::string(GOBBLET_SYSTEM_PYTHON) + " -c 'import numpy' 2>&1").exitCode == 0;
#else
  return false;
#endif
}

// Each kind of damage the C++ reader refuses, crafted, is refused by the
// Python reader too, with the same reason; what one reads, the other reads.
TEST(TrainingData, ThePythonReaderRefusesWhatTheCppReaderRefusesForTheSameReason) {
  if (!pythonReaderRuns()) GTEST_SKIP() << "no python3 with numpy (tools/setup.sh deps installs it)";
  ScratchDir dir;
  DataSettings gobblers = smallSettings();
  gobblers.variant = Variant::gobblers();
  const DataSettings gobblet = smallSettings();
  const std::string good = fileBytes(gobblet, 2, {recordOf(0, {0, 0, 0, 1}, {0, 0, 0, 2}), recordOf(1)});
  const std::map<std::string, std::string> damaged = {
      {"short", good.substr(0, 60)},
      {"magic", "GOBDATX" + good.substr(7)},
      {"version", good.substr(0, 8) + std::string("\x02\0\0\0", 4) + good.substr(12)},
      {"record_size", good.substr(0, 16) + std::string("\x21\0\0\0", 4) + good.substr(20)},
      {"unterminated", fileBytes(gobblet, 0, {}, std::string(24, 'g'))},
      {"unknown_variant", fileBytes(gobblet, 0, {}, "chess")},
      {"family_range", fileBytes(gobblet, 0, {}, "3x3:9,2,1")},
      {"family_count", fileBytes(gobblet, 0, {}, "4x4:2")},
      {"order", fileBytes(gobblet, 3, {recordOf(0), recordOf(2), recordOf(1)})},
      {"order_unfinished", fileBytes(gobblet, 1, {recordOf(0), recordOf(5), recordOf(4)})},
      {"side_to_move",
       [&] {
         auto r = recordOf(1);
         r.sideToMove = 2;
         return fileBytes(gobblet, 2, {recordOf(0), r});
       }()},
      {"one_square", fileBytes(gobblet, 1, {recordOf(0, {0, 4, 0, 0}, {0, 4, 0, 0})})},
      {"off_board", fileBytes(gobblers, 1, {recordOf(0, {0x200, 0, 0, 0})}, "gobblers")},
      {"no_such_size", fileBytes(gobblers, 1, {recordOf(0, {}, {0, 0, 0, 1})}, "gobblers")},
      {"too_many", fileBytes(gobblet, 1, {recordOf(0, {0xf, 0xf, 0xf, 0xf})})},
      {"stack_order", fileBytes(gobblet, 1, {recordOf(0, {1, 0, 0, 2})})},
      {"too_many_3x3", fileBytes(gobblers, 1, {recordOf(0, {7, 0, 0, 0})}, "gobblers")},
      {"result",
       [&] {
         auto r = recordOf(0);
         r.result = 2;
         return fileBytes(gobblet, 1, {r});
       }()},
  };
  // Read by both: a bad position in an unfinished game, a record cut short.
  const std::map<std::string, std::string> whole = {
      {"good", good},
      {"unfinished_bad", fileBytes(gobblet, 1, {recordOf(0), recordOf(1, {0xf, 0, 0, 0})})},
      {"cut", good + std::string(20, '\0')},
      {"alias", fileBytes(gobblet, 2, {recordOf(0), recordOf(1)}, " Gobblet\t 4X4 ")},
      {"family", fileBytes(gobblers, 1, {recordOf(0, {0x100, 0, 0})}, "3x3: 3, +2 ,1")},
  };
  std::vector<std::string> paths;
  for (const auto& files : {damaged, whole})
    for (const auto& [name, bytes] : files) {
      paths.push_back(dir.file(name + ".gdata"));
      writeWholeFile(paths.back(), bytes);
    }
  const auto said = pythonReader(paths);
  for (const auto& [name, bytes] : damaged) {
    const std::string path = dir.file(name + ".gdata");
    auto cpp = readTrainingData(path);
    ASSERT_FALSE(cpp.ok()) << name;
    // The reason, after the file's name.
    const std::string message(cpp.status().message());
    const std::string reason = message.substr(message.find("': ") + 3);
    ASSERT_EQ(said.count(path), 1u) << name;
    EXPECT_NE(said.at(path).find("training_data: " + path + ": " + reason), std::string::npos)
        << name << ": C++ says " << message << "\nPython says " << said.at(path);
  }
  for (const auto& [name, bytes] : whole) {
    const std::string path = dir.file(name + ".gdata");
    auto cpp = readTrainingData(path);
    ASSERT_TRUE(cpp.ok()) << name << ": " << cpp.status();
    ASSERT_EQ(said.count(path), 1u) << name;
    EXPECT_EQ(said.at(path),
              absl::StrCat(path, ": ", cpp->header.settings.variant.name(), ", ", cpp->header.gamesFinished,
                           " games finished, ", cpp->records.size(), " positions"))
        << name;
  }
}

// The Python reader knows every name and alias of kNamedVariants, and
// names each variant as Variant::name() does.
TEST(TrainingData, ThePythonReaderKnowsEveryVariantName) {
  if (!pythonReaderRuns()) GTEST_SKIP() << "no python3 with numpy (tools/setup.sh deps installs it)";
  ScratchDir dir;
  std::vector<std::string> names = {"3x3:1,9,1", "4x4:1,1", "4x4:4,3", "3X3:3,2,0"};
  for (const NamedVariant& named : kNamedVariants) {
    names.emplace_back(named.name);
    for (std::string_view alias : named.aliases) names.emplace_back(alias);
  }
  std::vector<std::string> paths;
  for (size_t i = 0; i < names.size(); ++i) {
    paths.push_back(dir.file(absl::StrCat("v", i, ".gdata")));
    writeWholeFile(paths.back(), fileBytes(smallSettings(), 0, {}, names[i]));
  }
  const auto said = pythonReader(paths);
  for (size_t i = 0; i < names.size(); ++i) {
    auto variant = Variant::parse(names[i]);
    ASSERT_TRUE(variant.ok()) << names[i];
    ASSERT_EQ(said.count(paths[i]), 1u) << names[i];
    EXPECT_EQ(said.at(paths[i]), paths[i] + ": " + variant->name() + ", 0 games finished, 0 positions") << names[i];
  }
}

// Two writers of one file would interleave their games: the second is
// refused at once, and the first goes on writing a file that reads.
TEST(TrainingData, OneWriterAtATime) {
  ScratchDir dir;
  const std::string path = dir.file("games.bin");
  {
    auto first = TrainingDataWriter::open(path, smallSettings());
    ASSERT_TRUE(first.ok()) << first.status();
    auto second = TrainingDataWriter::open(path, smallSettings());
    ASSERT_FALSE(second.ok());
    EXPECT_EQ(second.status().code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_NE(second.status().message().find("is being written by another run"), std::string::npos) << second.status();
    GenerateOptions options;
    options.games = 2;
    auto done = generate(*first, options);
    ASSERT_TRUE(done.ok()) << done.status();
    auto data = readTrainingData(path);
    ASSERT_TRUE(data.ok()) << data.status();
    EXPECT_EQ(data->header.gamesFinished, 2u);
  }
  // The first closed, the file is free.
  EXPECT_TRUE(TrainingDataWriter::open(path, smallSettings()).ok());
}

// A file whose games are out of order (two runs that appended at once) is
// refused naming the games before the damage that are whole; repairing
// keeps them and the run then writes the file an undamaged run writes.
TEST(TrainingData, ADamagedFileSaysWhatIsWholeAndIsRepairedToIt) {
  ScratchDir dir;
  const std::string clean = dir.file("clean.bin"), damaged = dir.file("damaged.bin");
  makeFile(clean, smallSettings(), 4, 1);
  const std::string bytes = readWholeFile(clean);
  auto data = readTrainingData(clean);
  ASSERT_TRUE(data.ok()) << data.status();
  size_t gameTwo = 0, gameThree = 0;
  while (data->records[gameTwo].game < 2) ++gameTwo;
  while (data->records[gameThree].game < 3) ++gameThree;
  ASSERT_LT(gameTwo, gameThree);
  ASSERT_LT(gameThree, data->records.size());
  // Game 2 again after game 3, as a second run that was a game behind appends it.
  writeWholeFile(damaged,
                 bytes + bytes.substr(kHeaderSize + gameTwo * kRecordSize, (gameThree - gameTwo) * kRecordSize));
  auto refused = TrainingDataWriter::open(damaged, smallSettings());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(
      refused.status().message().find(absl::StrCat("record ", data->records.size(),
                                                   ": game 2 after game 3; the 3 games before it are whole: "
                                                   "the same command with --repair cuts the file to them and goes on")),
      std::string::npos)
      << refused.status();
  {
    auto repaired = TrainingDataWriter::open(damaged, smallSettings(), OnDamage::kCutToWholeGames);
    ASSERT_TRUE(repaired.ok()) << repaired.status();
    EXPECT_EQ(repaired->gamesFinished(), 3u);
    EXPECT_EQ(repaired->records(), gameThree);
    EXPECT_NE(repaired->repaired().find(absl::StrCat("cut to the 3 games before it (", gameThree, " positions)")),
              std::string::npos)
        << repaired->repaired();
  }
  makeFile(damaged, smallSettings(), 4, 1);
  EXPECT_EQ(readWholeFile(damaged), bytes);
  // A whole file is left as it is.
  auto whole = TrainingDataWriter::open(clean, smallSettings(), OnDamage::kCutToWholeGames);
  ASSERT_TRUE(whole.ok()) << whole.status();
  EXPECT_TRUE(whole->repaired().empty());
  EXPECT_EQ(whole->gamesFinished(), 4u);
}

// Every record is a position of the variant; consecutive records of a game
// follow by the move recorded; the game's last move ends it as the results
// say; no position is written twice; a forced result seen is the result.
TEST(SelfPlay, RecordsAreTheGamesPlayedWithTheirResults) {
  ScratchDir dir;
  const std::string path = dir.file("games.bin");
  const DataSettings settings = smallSettings();
  makeFile(path, settings, 8, 2);
  auto data = readTrainingData(path);
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_EQ(data->header.gamesFinished, 8u);
  EXPECT_EQ(data->header.settings, settings);
  ASSERT_GT(data->records.size(), 8u * 5);

  std::set<uint64_t> keys;
  int decidedSeen = 0, followed = 0;
  for (size_t i = 0; i < data->records.size(); ++i) {
    const PositionRecord& r = data->records[i];
    auto board = positionOf(r, settings.variant);
    ASSERT_TRUE(board.ok()) << board.status();
    EXPECT_TRUE(keys.insert(board->key()).second) << "record " << i << " written twice";
    EXPECT_GE(r.ply, settings.randomPlies);
    EXPECT_GT(r.depth, 0);
    const Move best = Move::fromRaw(r.bestMove);
    ASSERT_TRUE(isLegal(*board, best)) << "record " << i;
    if (r.flags & PositionRecord::kDecided) {
      ++decidedSeen;
      EXPECT_EQ(r.result, r.score > 0 ? 1 : -1) << "record " << i << ": a forced result the game did not have";
    }
    const int forPlayer1 = r.sideToMove == 0 ? r.result : -r.result;
    Board after = *board;
    after.makeMove(best);
    const bool last = i + 1 == data->records.size() || data->records[i + 1].game != r.game;
    if (!last) {
      const PositionRecord& next = data->records[i + 1];
      EXPECT_EQ(next.sideToMove == 0 ? next.result : -next.result, forPlayer1) << "one game, one result";
      if (next.ply == r.ply + 1) {
        auto nextBoard = positionOf(next, settings.variant);
        EXPECT_EQ(*nextBoard, after) << "record " << i + 1 << " is not record " << i << " after its move";
        ++followed;
      }
    } else if (after.winner() != kNoWinner) {
      // The game ended by a line: the results say who made it.
      EXPECT_EQ(forPlayer1, after.winner() == 0 ? 1 : -1) << "game " << r.game;
    }
  }
  EXPECT_GT(followed, 30);
  EXPECT_GT(decidedSeen, 0);
}

TEST(SelfPlay, TheFileIsTheSameForAnyThreadsAndForAStoppedAndResumedRun) {
  ScratchDir dir;
  const DataSettings settings = smallSettings();
  makeFile(dir.file("one.bin"), settings, 6, 1);
  makeFile(dir.file("two.bin"), settings, 6, 3);
  const std::string one = readWholeFile(dir.file("one.bin"));
  ASSERT_GT(one.size(), kHeaderSize);
  EXPECT_EQ(readWholeFile(dir.file("two.bin")), one);

  // Stopped after 2 games; the half-written third game's records are cut
  // when the run goes on (a stop inside appendGame, as a crash would leave).
  const std::string resumed = dir.file("resumed.bin");
  {
    auto writer = TrainingDataWriter::open(resumed, settings);
    ASSERT_TRUE(writer.ok());
    std::atomic<bool> stop{false};
    GenerateOptions options;
    options.games = 6;
    options.threads = 2;
    options.stop = &stop;
    options.onProgress = [&stop](const Progress& p) {
      if (p.gamesFinished == 2) stop = true;
    };
    auto done = generate(*writer, options);
    ASSERT_TRUE(done.ok()) << done.status();
    EXPECT_TRUE(done->stopped);
    EXPECT_EQ(done->gamesFinished, 2u);
  }
  auto all = readTrainingData(dir.file("one.bin"));
  ASSERT_TRUE(all.ok());
  size_t third = 0;
  while (third < all->records.size() && all->records[third].game < 2) ++third;
  writeWholeFile(resumed, readWholeFile(resumed) + one.substr(kHeaderSize + third * kRecordSize, 3 * kRecordSize + 7));
  auto halfWritten = readTrainingData(resumed);
  ASSERT_TRUE(halfWritten.ok()) << halfWritten.status();
  EXPECT_EQ(halfWritten->records.size(), third);
  EXPECT_EQ(halfWritten->unfinishedRecords, 4u);
  makeFile(resumed, settings, 6, 2);
  EXPECT_EQ(readWholeFile(resumed), one);
}

TEST(SelfPlay, GoingOnWithOtherSettingsIsRefusedNamingThem) {
  ScratchDir dir;
  const std::string path = dir.file("games.bin");
  makeFile(path, smallSettings(), 1, 1);
  DataSettings other = smallSettings();
  other.nodes = 4000;
  auto refused = TrainingDataWriter::open(path, other);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("--nodes 3000 in the file, 4000 asked"), std::string::npos)
      << refused.status();
  writeWholeFile(path, "not a training data file at all, but long enough to hold a header............................");
  refused = TrainingDataWriter::open(path, smallSettings());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("not a gobblet training data file"), std::string::npos);
}

// A stop ends a game in the middle of a search that would run for hours
// (no node limit, depth 64): the search is stopped, not waited for.
TEST(SelfPlay, AStopEndsAGameInTheMiddleOfASearch) {
  DataSettings settings = smallSettings();
  settings.nodes = 0;
  settings.depth = 64;
  Search search;
  SearchOptions searchOptions;
  searchOptions.threads = 1;
  searchOptions.hashMiB = 1;
  ASSERT_TRUE(search.setOptions(searchOptions).ok());
  std::atomic<bool> stop{false};
  auto played = std::async(std::launch::async, [&] { return playGame(settings, 0, search, &stop); });
  for (int i = 0; i < 6000 && !search.searching(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(search.searching());
  stop = true;
  // Generous for a loaded machine: the search ends within milliseconds.
  const bool ended = played.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
  EXPECT_TRUE(ended) << "the search went on after the stop";
  while (played.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) search.stop();
  EXPECT_EQ(played.get().status().code(), absl::StatusCode::kCancelled);
}

// Games searched with a net are the net's (other scores than the
// hand-written evaluation's from the same openings), the file names the net,
// and going on with another evaluation, or a net the settings do not name,
// is refused.
TEST(SelfPlay, ANetsGamesAreSearchedWithItAndTheFileNamesIt) {
  ScratchDir dir;
  const std::shared_ptr<const nnue::Network> net = builtInNet();
  ASSERT_NE(net, nullptr);
  DataSettings withNet = smallSettings();
  withNet.net = netFingerprint(*net);
  EXPECT_NE(withNet.net, 0u);
  makeFile(dir.file("net.bin"), withNet, 2, 1, net);
  makeFile(dir.file("classic.bin"), smallSettings(), 2, 1);
  auto byNet = readTrainingData(dir.file("net.bin"));
  auto byHand = readTrainingData(dir.file("classic.bin"));
  ASSERT_TRUE(byNet.ok() && byHand.ok());
  EXPECT_EQ(byNet->header.settings.net, withNet.net);
  EXPECT_EQ(byHand->header.settings.net, 0u);
  ASSERT_FALSE(byNet->records.empty() || byHand->records.empty());
  // The same opening, so the same first position; its score is the evaluation's.
  EXPECT_EQ(byNet->records[0].pieces, byHand->records[0].pieces);
  EXPECT_NE(byNet->records[0].score, byHand->records[0].score);

  auto refused = TrainingDataWriter::open(dir.file("net.bin"), smallSettings());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("--net: the net "), std::string::npos) << refused.status();
  EXPECT_NE(refused.status().message().find("the hand-written evaluation asked"), std::string::npos)
      << refused.status();

  auto writer = TrainingDataWriter::open(dir.file("classic.bin"), smallSettings());
  ASSERT_TRUE(writer.ok()) << writer.status();
  GenerateOptions options;
  options.games = 3;
  options.net = net;  // the file was made with the hand-written evaluation
  auto done = generate(*writer, options);
  ASSERT_FALSE(done.ok());
  EXPECT_NE(done.status().message().find("not the one the file's settings name"), std::string::npos) << done.status();

  DataSettings gobblers = withNet;
  gobblers.variant = Variant::gobblers();
  auto other = TrainingDataWriter::open(dir.file("gobblers.bin"), gobblers);
  ASSERT_TRUE(other.ok()) << other.status();
  done = generate(*other, options);
  ASSERT_FALSE(done.ok());
  EXPECT_NE(done.status().message().find("4x4 Gobblet only"), std::string::npos) << done.status();
}

TEST(DatagenProgram, WritesTheFileItSaysAndRefusesSearchesWithoutALimit) {
  ScratchDir dir;
  const std::string program = gobblet::testing::binDir() + "/gobblet-datagen";
  const std::string path = dir.file("games.bin");
  auto run = gobblet::testing::runCommand(program + " --out " + path + " --games 3 --nodes 2000 --hash 1 --quiet 2>&1");
  EXPECT_EQ(run.exitCode, 0) << run.output;
  EXPECT_NE(run.output.find("games 3/3"), std::string::npos) << run.output;
  auto data = readTrainingData(path);
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_EQ(data->header.gamesFinished, 3u);
  run = gobblet::testing::runCommand(program + " --out " + path + " --games 3 --nodes 0 2>&1");
  EXPECT_EQ(run.exitCode, 2) << run.output;
  EXPECT_NE(run.output.find("never end"), std::string::npos) << run.output;
}

TEST(DatagenProgram, SearchesWithTheNetItIsGivenAndRefusesABadOne) {
  ScratchDir dir;
  const std::string program = gobblet::testing::binDir() + "/gobblet-datagen";
  const std::string path = dir.file("games.bin");
  auto run = gobblet::testing::runCommand(program + " --out " + path +
                                          " --games 1 --nodes 2000 --hash 1 --net built-in --quiet 2>&1");
  EXPECT_EQ(run.exitCode, 0) << run.output;
  auto data = readTrainingData(path);
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_EQ(data->header.settings.net, netFingerprint(*builtInNet()));
  writeWholeFile(dir.file("bad.gnn"), "not a net");
  run = gobblet::testing::runCommand(program + " --out " + dir.file("other.bin") + " --games 1 --net " +
                                     dir.file("bad.gnn") + " 2>&1");
  EXPECT_EQ(run.exitCode, 1) << run.output;
  EXPECT_NE(run.output.find("bad.gnn"), std::string::npos) << run.output;
  run = gobblet::testing::runCommand(program + " --out " + dir.file("other.bin") +
                                     " --games 1 --variant gobblers --net built-in 2>&1");
  EXPECT_EQ(run.exitCode, 2) << run.output;
  EXPECT_NE(run.output.find("4x4 Gobblet only"), std::string::npos) << run.output;
}

// A shell loop that waits (at most 60 s) until the run writing `path` has
// made it: its signals are caught from then on, however loaded the machine.
std::string waitForFile(const std::string& path) {
  return "for i in $(seq 1200); do [ -s " + path + " ] && break; sleep 0.05; done; ";
}

// SIGTERM ends a run with what the file holds and how to go on; the same
// command then makes the file an unstopped run makes.
TEST(DatagenProgram, SigtermSaysHowToGoOnAndTheSameCommandFinishesTheFile) {
  ScratchDir dir;
  const std::string program = gobblet::testing::binDir() + "/gobblet-datagen";
  const std::string settings = " --games 12 --nodes 10000 --hash 1 --quiet";
  const std::string stopped = dir.file("stopped.bin"), whole = dir.file("whole.bin");
  auto run = gobblet::testing::runCommand("(" + program + " --out " + stopped + settings + " & run=$!; " +
                                          waitForFile(stopped) + "kill -TERM $run; wait $run; echo exit=$?) 2>&1");
  EXPECT_NE(run.output.find("exit=143"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("gobblet-datagen: SIGTERM: " + stopped + " holds "), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("whole games; the same command goes on"), std::string::npos) << run.output;
  auto partial = readTrainingData(stopped);
  ASSERT_TRUE(partial.ok()) << partial.status();
  EXPECT_LT(partial->header.gamesFinished, 12u);
  run = gobblet::testing::runCommand(program + " --out " + stopped + settings + " 2>&1");
  EXPECT_EQ(run.exitCode, 0) << run.output;
  run = gobblet::testing::runCommand(program + " --out " + whole + settings + " 2>&1");
  EXPECT_EQ(run.exitCode, 0) << run.output;
  EXPECT_EQ(readWholeFile(stopped), readWholeFile(whole));
}

// SIGTERM ends a run promptly even while a search that would run for hours
// (no node limit, depth 64) is searching.
TEST(DatagenProgram, SigtermStopsARunInTheMiddleOfALongSearch) {
  ScratchDir dir;
  const std::string program = gobblet::testing::binDir() + "/gobblet-datagen";
  const std::string path = dir.file("games.bin");
  // `timeout` ends a run the signal did not stop (137), so that the test fails rather than hangs.
  auto run =
      gobblet::testing::runCommand("(timeout -s KILL 60 " + program + " --out " + path +
                                   " --games 1 --nodes 0 --depth 64 --hash 1 --quiet & run=$!; " + waitForFile(path) +
                                   "sleep 0.5; kill -TERM $run; wait $run; echo exit=$?) 2>&1");
  EXPECT_NE(run.output.find("exit=143"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("gobblet-datagen: SIGTERM: " + path + " holds 0 whole games"), std::string::npos)
      << run.output;
  auto data = readTrainingData(path);
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_EQ(data->header.gamesFinished, 0u);
}

// A second run on the file a first is writing is refused at once, and the
// first's file stays whole; a damaged file is refused saying how to repair
// it, and --repair does.
TEST(DatagenProgram, ASecondRunOnAFileIsRefusedAndADamagedFileRepaired) {
  ScratchDir dir;
  const std::string program = gobblet::testing::binDir() + "/gobblet-datagen";
  const std::string path = dir.file("games.bin");
  const std::string settings = " --games 100000 --nodes 2000 --hash 1 --quiet";
  // The first holds the file from before its header is written; the
  // second starts once the first has written a game (`timeout` ends a
  // second that was let in, so that the test fails rather than runs on).
  auto run = gobblet::testing::runCommand(
      "(" + program + " --out " + path + settings + " & first=$!; for i in $(seq 600); do [ $(stat -c %s " + path +
      " 2>/dev/null || echo 0) -gt 96 ] && break; sleep 0.1; done; timeout 60 " + program + " --out " + path +
      settings + "; echo second=$?; kill -TERM $first; wait $first; echo first=$?) 2>&1");
  EXPECT_NE(run.output.find("is being written by another run"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("second=1"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("first=143"), std::string::npos) << run.output;
  auto data = readTrainingData(path);
  ASSERT_TRUE(data.ok()) << data.status();
  ASSERT_GT(data->records.size(), 0u);

  // The first record again at the end, with side to move 2: refused
  // (as game 0 after the last game, or as no position).
  const std::string bytes = readWholeFile(path);
  std::string forged = bytes.substr(kHeaderSize, kRecordSize);
  forged[18] = 2;
  writeWholeFile(path, bytes + forged);
  const std::string again = program + " --out " + path + " --games " + std::to_string(data->header.gamesFinished + 1) +
                            " --nodes 2000 --hash 1 --quiet";
  run = gobblet::testing::runCommand(again + " 2>&1");
  EXPECT_EQ(run.exitCode, 1) << run.output;
  EXPECT_NE(run.output.find("the same command with --repair cuts the file to them and goes on"), std::string::npos)
      << run.output;
  run = gobblet::testing::runCommand(again + " --repair 2>&1");
  EXPECT_EQ(run.exitCode, 0) << run.output;
  EXPECT_NE(run.output.find("gobblet-datagen: repaired "), std::string::npos) << run.output;
  auto repaired = readTrainingData(path);
  ASSERT_TRUE(repaired.ok()) << repaired.status();
  EXPECT_EQ(repaired->header.gamesFinished, data->header.gamesFinished + 1);
}

}  // namespace
}  // namespace gobblet::datagen
