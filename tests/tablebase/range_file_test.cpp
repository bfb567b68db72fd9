// The tablebase read piecewise through a range reader (openRanges,
// tablebase/range_file.h), as the WebAssembly build reads a hosted file by
// HTTP range requests: against the whole-file reader (File) on every
// reachable position of a placing and a moving variant; reading only the
// header, dictionary and block table at open and then only the blocks the
// probes need; a bounded cache; readers that fail or lie, and files whose
// header or block table is wrong.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "engine/movegen.h"
#include "tablebase/code.h"
#include "tablebase/file.h"
#include "tablebase/range_file.h"
#include "tablebase/retrograde.h"
#include "tablebase/tablebase.h"
#include "tests/support/brute_solver.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/whole_file.h"
#include "tests/support/sanitizers.h"

namespace gobblet::tb {
namespace {

using testing::ScratchDir;

// One call of a reader.
struct Range {
  uint64_t offset = 0, size = 0;
  friend bool operator==(const Range&, const Range&) = default;
};

// The calls a test's reader received (from any thread).
class ReadLog {
 public:
  void add(Range r) {
    std::lock_guard<std::mutex> lock(mutex_);
    reads_.push_back(r);
  }
  std::vector<Range> reads() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return reads_;
  }
  size_t count() const { return reads().size(); }
  uint64_t bytes() const {
    uint64_t n = 0;
    for (const Range& r : reads()) n += r.size;
    return n;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<Range> reads_;
};

// A reader of the local file `path` by pread, logging each call in `log`;
// it gives fewer bytes than asked where the file ends.
RangeReader preadReader(const std::string& path, std::shared_ptr<ReadLog> log) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  EXPECT_GE(fd, 0) << path;
  std::shared_ptr<int> owned(new int(fd), [](int* f) {
    if (*f >= 0) ::close(*f);
    delete f;
  });
  return [owned, log](uint64_t offset, uint64_t size) -> absl::StatusOr<std::string> {
    log->add({offset, size});
    std::string out(size, '\0');
    uint64_t done = 0;
    while (done < size) {
      const ssize_t n = ::pread(*owned, out.data() + done, size - done, static_cast<off_t>(offset + done));
      if (n < 0) return absl::UnavailableError(std::strerror(errno));
      if (n == 0) break;
      done += static_cast<uint64_t>(n);
    }
    out.resize(done);
    return out;
  };
}

// A reader of `bytes` held in memory (a damaged file), logging each call.
RangeReader memoryReader(std::string bytes, std::shared_ptr<ReadLog> log) {
  auto held = std::make_shared<const std::string>(std::move(bytes));
  return [held, log](uint64_t offset, uint64_t size) -> absl::StatusOr<std::string> {
    log->add({offset, size});
    if (offset > held->size()) return std::string();
    return held->substr(offset, size);
  };
}

// A variant solved and written to a file of a scratch directory, opened
// whole (File, the reference), with the file's layout read from its bytes
// here, independently of the library's helpers.
struct Built {
  std::string path, bytes;
  std::shared_ptr<const File> file;
  FileHeader header{};
  uint64_t blocks = 0;
  uint64_t tableAt = 0;   // where the block table starts in the file
  uint64_t framesAt = 0;  // where the frames start
  std::vector<uint64_t> table;

  // The file's range of block b's frame.
  Range frame(uint64_t b) const { return {framesAt + table[b], table[b + 1] - table[b]}; }
  // The block holding `board`'s code.
  uint64_t blockOf(const Board& board) const {
    State st;
    EXPECT_TRUE(file->index().toState(board, &st));
    return file->index().indexOf(st) / header.blockCodes;
  }
};

Built build(const ScratchDir& dir, const Variant& variant) {
  Built b;
  auto solved = solve(variant, 2);
  EXPECT_TRUE(solved.ok()) << solved.status();
  if (!solved.ok()) return b;
  b.path = dir.file("tb.gtb");
  EXPECT_TRUE(writeFile(b.path, variant, *solved).ok());
  auto file = File::open(b.path);
  EXPECT_TRUE(file.ok()) << file.status();
  if (!file.ok()) return b;
  b.file = *file;
  b.bytes = readWholeFile(b.path);
  std::memcpy(&b.header, b.bytes.data(), sizeof b.header);
  b.blocks = (b.header.entries + b.header.blockCodes - 1) / b.header.blockCodes;
  b.tableAt = 128 + (b.header.dictionaryBytes + 7) / 8 * 8;
  b.framesAt = b.tableAt + 8 * (b.blocks + 1);
  b.table.resize(b.blocks + 1);
  std::memcpy(b.table.data(), b.bytes.data() + b.tableAt, 8 * (b.blocks + 1));
  EXPECT_EQ(b.framesAt + b.table[b.blocks], b.bytes.size());
  return b;
}

// Every position reachable from the start by the rules core's moves, one
// per state up to symmetry and colours (with the side to move it was
// reached with), decided positions included.
std::vector<Board> reachable(const Variant& variant) {
  std::vector<Board> boards{Board(variant)};
  std::unordered_set<uint64_t> seen{testing::BruteSolver::stateKey(boards[0])};
  for (size_t i = 0; i < boards.size(); ++i) {
    MoveList moves;
    generateMoves(boards[i], moves);
    for (Move m : moves) {
      Board child = boards[i];
      child.makeMove(m);
      if (seen.insert(testing::BruteSolver::stateKey(child)).second) boards.push_back(child);
    }
  }
  return boards;
}

// Boards of `boards` in `count` different blocks, the first found of each.
std::vector<Board> inDistinctBlocks(const Built& built, const std::vector<Board>& boards, size_t count) {
  std::vector<Board> found;
  std::unordered_set<uint64_t> blocks;
  for (const Board& b : boards)
    if (found.size() < count && blocks.insert(built.blockOf(b)).second) found.push_back(b);
  EXPECT_EQ(found.size(), count) << "the fixture needs positions in " << count << " blocks";
  return found;
}

void expectSameProbe(const Probe& got, const Probe& want, const std::string& where) {
  EXPECT_EQ(got.value, want.value) << where;
  EXPECT_EQ(got.distance, want.distance) << where;
}

// ---- Agreement with the whole-file reader ----------------------------------

// Every reachable position (and every number of the index) reads the same
// through a range reader as from the whole file, and rankMoves ranks the
// same; with a cache smaller than the file, so that blocks are dropped and
// read again along the way. (Every 4th position under a sanitizer:
// tests/support/sanitizers.h.)
TEST(RangeFile, EveryReachablePositionProbesAsTheWholeFile) {
  for (const char* name : {"3x3:2,2,0", "3x3:2,2,1"}) {
    SCOPED_TRACE(name);
    const Variant variant = *Variant::parse(name);
    const ScratchDir dir("gobblet_tb_ranges");
    const Built built = build(dir, variant);
    ASSERT_TRUE(built.file);
    ASSERT_GT(built.blocks, 8u) << "the cache below should hold fewer blocks than the file";
    auto log = std::make_shared<ReadLog>();
    auto opened = openRanges(built.path, built.bytes.size(), preadReader(built.path, log), 8);
    ASSERT_TRUE(opened.ok()) << opened.status();
    const Tablebase& ranges = **opened;
    EXPECT_EQ(ranges.variant(), variant);

    const std::vector<Board> boards = reachable(variant);
    int known = 0;
    for (size_t i = 0; i < boards.size(); i += testing::kSanitizerStride) {
      const Probe want = built.file->probe(boards[i]);
      ASSERT_NE(want.value, Value::kUnknown) << "reachable position " << i;
      const Probe got = ranges.probe(boards[i]);
      ASSERT_EQ(got.value, want.value) << "position " << i;
      ASSERT_EQ(got.distance, want.distance) << "position " << i;
      ++known;
      if (i % 3 != 0) continue;  // rankMoves on a third of them: it probes every child
      const std::vector<RankedMove> a = rankMoves(ranges, boards[i]), b = rankMoves(*built.file, boards[i]);
      ASSERT_EQ(a.size(), b.size()) << "position " << i;
      for (size_t k = 0; k < a.size(); ++k) {
        ASSERT_EQ(a[k].move, b[k].move) << "position " << i << " move " << k;
        ASSERT_EQ(a[k].value.value, b[k].value.value) << "position " << i << " move " << k;
        ASSERT_EQ(a[k].value.distance, b[k].value.distance) << "position " << i << " move " << k;
      }
    }
    EXPECT_GT(known, 1000);
    // Another variant's board is not probed (and nothing is read for it).
    const size_t before = log->count();
    EXPECT_EQ(ranges.probe(Board(Variant::gobblers())).value, Value::kUnknown);
    EXPECT_EQ(log->count(), before);

    // Every number, holes and unreachable numbers included.
    auto* file = dynamic_cast<const RangeFile*>(&ranges);
    ASSERT_NE(file, nullptr);
    for (uint64_t x = 0; x < built.header.entries; ++x) ASSERT_EQ(file->codeAt(x), built.file->codeAt(x)) << x;
    EXPECT_EQ(rangeStats(ranges).failures, 0u);
    EXPECT_EQ(rangeStats(ranges).reads, log->count());
    EXPECT_EQ(rangeStats(ranges).bytes, log->bytes());
  }
}

// ---- Reading only what the probes need ---------------------------------------

// Opening reads the header, then the dictionary with the block table, and
// nothing of the frames; a probe reads exactly its block's frame, once:
// probing it again, or another position of the same block, reads nothing.
TEST(RangeFile, ReadsOnlyTheHeaderTheTableAndTheBlocksProbed) {
  const ScratchDir dir("gobblet_tb_ranges");
  const Built built = build(dir, *Variant::parse("3x3:2,2,0"));
  ASSERT_TRUE(built.file);
  ASSERT_GT(built.header.dictionaryBytes, 0u) << "the fixture should exercise the dictionary";
  auto log = std::make_shared<ReadLog>();
  auto opened = openRanges(built.path, built.bytes.size(), preadReader(built.path, log));
  ASSERT_TRUE(opened.ok()) << opened.status();
  const Tablebase& ranges = **opened;
  const std::vector<Range> atOpen{{0, 128}, {128, built.framesAt - 128}};
  EXPECT_EQ(log->reads(), atOpen);
  EXPECT_EQ(log->bytes(), built.framesAt);  // header + dictionary (padded) + block table
  EXPECT_EQ(rangeStats(ranges).reads, 2u);
  EXPECT_EQ(rangeStats(ranges).bytes, built.framesAt);
  EXPECT_EQ(rangeStats(*built.file).reads, 0u) << "a whole file reads through no range reader";

  const std::vector<Board> boards = reachable(built.file->variant());
  const Board& a = boards[boards.size() / 2];
  expectSameProbe(ranges.probe(a), built.file->probe(a), "first probe");
  std::vector<Range> expected = atOpen;
  expected.push_back(built.frame(built.blockOf(a)));
  EXPECT_EQ(log->reads(), expected);
  expectSameProbe(ranges.probe(a), built.file->probe(a), "second probe");
  EXPECT_EQ(log->reads(), expected) << "the second probe of a position reads again";
  int sameBlock = 0;
  for (const Board& b : boards)
    if (built.blockOf(b) == built.blockOf(a)) {
      expectSameProbe(ranges.probe(b), built.file->probe(b), "a position of the same block");
      ++sameBlock;
    }
  EXPECT_GT(sameBlock, 1);
  EXPECT_EQ(log->reads(), expected) << "positions of a cached block read again";
  EXPECT_EQ(rangeStats(ranges).reads, expected.size());
  EXPECT_EQ(rangeStats(ranges).bytes, log->bytes());
}

// With room for two blocks, probes of three blocks drop the least recently
// used one: it is read again when probed again, the others are not.
TEST(RangeFile, KeepsAtMostCacheBlocksDroppingTheLeastRecentlyUsed) {
  const ScratchDir dir("gobblet_tb_ranges");
  const Built built = build(dir, *Variant::parse("3x3:2,2,0"));
  ASSERT_TRUE(built.file);
  const std::vector<Board> three = inDistinctBlocks(built, reachable(built.file->variant()), 3);
  ASSERT_EQ(three.size(), 3u);
  const Board &a = three[0], &b = three[1], &c = three[2];
  auto log = std::make_shared<ReadLog>();
  auto opened = openRanges(built.path, built.bytes.size(), preadReader(built.path, log), 2);
  ASSERT_TRUE(opened.ok()) << opened.status();
  const Tablebase& ranges = **opened;
  // Probes `board` and returns the ranges it read.
  auto probeReads = [&](const Board& board) {
    const size_t before = log->count();
    expectSameProbe(ranges.probe(board), built.file->probe(board), "probe");
    const std::vector<Range> all = log->reads();
    return std::vector<Range>(all.begin() + static_cast<std::ptrdiff_t>(before), all.end());
  };
  using Ranges = std::vector<Range>;
  // The cache after each probe, most recent first, in the comments.
  EXPECT_EQ(probeReads(a), Ranges{built.frame(built.blockOf(a))});  // a
  EXPECT_EQ(probeReads(b), Ranges{built.frame(built.blockOf(b))});  // b a
  EXPECT_EQ(probeReads(c), Ranges{built.frame(built.blockOf(c))});  // c b: a dropped
  EXPECT_EQ(probeReads(a), Ranges{built.frame(built.blockOf(a))});  // a c: b dropped
  EXPECT_EQ(probeReads(c), Ranges{});                               // c a: a hit makes c the most recent
  EXPECT_EQ(probeReads(b), Ranges{built.frame(built.blockOf(b))});  // b c: a dropped, not c
  EXPECT_EQ(probeReads(c), Ranges{});                               // c b
  EXPECT_EQ(probeReads(a), Ranges{built.frame(built.blockOf(a))});  // a c: b dropped
  EXPECT_EQ(probeReads(b), Ranges{built.frame(built.blockOf(b))});  // b a

  // No cache: every probe reads.
  auto uncached = openRanges(built.path, built.bytes.size(), preadReader(built.path, log), 0);
  ASSERT_TRUE(uncached.ok()) << uncached.status();
  for (int k = 0; k < 3; ++k) {
    const size_t before = log->count();
    expectSameProbe((*uncached)->probe(a), built.file->probe(a), "uncached");
    EXPECT_EQ(log->count(), before + 1);
  }
}

// Threads probing at once through a small cache (blocks dropped and read
// while other threads use the cache) all read the whole file's codes.
TEST(RangeFile, ConcurrentProbesReadTheWholeFilesCodes) {
  const ScratchDir dir("gobblet_tb_ranges");
  const Built built = build(dir, *Variant::parse("3x3:2,2,1"));
  ASSERT_TRUE(built.file);
  auto log = std::make_shared<ReadLog>();
  auto opened = RangeFile::open(built.path, built.bytes.size(), preadReader(built.path, log), 3);
  ASSERT_TRUE(opened.ok()) << opened.status();
  const RangeFile& ranges = **opened;
  std::atomic<uint64_t> wrong{0}, checked{0};
  std::vector<std::thread> threads;
  for (uint64_t t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      // Each thread its own stride: the threads meet in the cache in ever other blocks.
      for (uint64_t x = t; x < built.header.entries; x += 5 + 2 * t, ++checked)
        if (ranges.codeAt(x) != built.file->codeAt(x)) ++wrong;
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0u);
  EXPECT_GT(checked.load(), built.header.entries / 2);
  EXPECT_EQ(ranges.stats().failures, 0u);
  EXPECT_GT(ranges.stats().reads, 2 + built.blocks) << "a cache of 3 blocks should have read blocks again";
}

// ---- Readers that fail or lie ---------------------------------------------------

// How the reader below answers the reads of the frames (not those of the
// header and the block table): well, with an error, a byte short, a byte
// long, empty, or with the frame's magic number damaged.
enum class Lie { kGood, kError, kShort, kLong, kEmpty, kCorrupt };

// Each lie makes the probe unknown, and again on the next probe (a block
// that failed is not cached); once the reader answers well the same probe
// gives the whole file's value and is cached.
TEST(RangeFile, ABlockThatCannotBeReadIsUnknownAndReadAgainLater) {
  const ScratchDir dir("gobblet_tb_ranges");
  const Built built = build(dir, *Variant::parse("3x3:2,2,0"));
  ASSERT_TRUE(built.file);
  auto log = std::make_shared<ReadLog>();
  auto mode = std::make_shared<std::atomic<Lie>>(Lie::kGood);
  RangeReader good = preadReader(built.path, log);
  const uint64_t framesAt = built.framesAt;
  RangeReader lying = [good, mode, framesAt](uint64_t offset, uint64_t size) -> absl::StatusOr<std::string> {
    absl::StatusOr<std::string> bytes = good(offset, size);
    if (offset < framesAt || !bytes.ok()) return bytes;
    switch (mode->load()) {
      case Lie::kGood:
        break;
      case Lie::kError:
        return absl::UnavailableError("the network is down");
      case Lie::kShort:
        bytes->pop_back();
        break;
      case Lie::kLong:
        bytes->push_back('\0');
        break;
      case Lie::kEmpty:
        bytes->clear();
        break;
      case Lie::kCorrupt:
        (*bytes)[0] ^= 0x55;
        break;  // the frame loses its magic number
    }
    return bytes;
  };
  const Board start(built.file->variant());
  const Probe want = built.file->probe(start);
  ASSERT_NE(want.value, Value::kUnknown);
  for (Lie lie : {Lie::kError, Lie::kShort, Lie::kLong, Lie::kEmpty, Lie::kCorrupt}) {
    SCOPED_TRACE(static_cast<int>(lie));
    mode->store(Lie::kGood);
    auto opened = openRanges("hosted.gtb", built.bytes.size(), lying);
    ASSERT_TRUE(opened.ok()) << opened.status();
    const Tablebase& ranges = **opened;
    mode->store(lie);
    uint64_t failures = 0;
    for (int k = 0; k < 2; ++k) {  // not cached: read (and refused) again
      const size_t before = log->count();
      EXPECT_EQ(ranges.probe(start).value, Value::kUnknown);
      EXPECT_EQ(log->count(), before + 1);
      EXPECT_EQ(rangeStats(ranges).failures, ++failures);
    }
    // rankMoves of the start: every child's block read and refused, each move unknown.
    const std::vector<RankedMove> ranked = rankMoves(ranges, start);
    EXPECT_FALSE(ranked.empty());
    for (const RankedMove& m : ranked) EXPECT_EQ(m.value.value, Value::kUnknown);
    EXPECT_EQ(rangeStats(ranges).failures, failures + ranked.size());
    mode->store(Lie::kGood);
    expectSameProbe(ranges.probe(start), want, "the reader mended");
    const size_t before = log->count();
    expectSameProbe(ranges.probe(start), want, "cached once good");
    EXPECT_EQ(log->count(), before);
    EXPECT_EQ(rangeStats(ranges).failures, failures + ranked.size());
  }
}

// ---- Files and readers refused at open --------------------------------------------

class RangeFileOpenTest : public ::testing::Test {
 protected:
  void SetUp() override {
    built_ = build(dir_, *Variant::parse("3x3:2,2,0"));
    ASSERT_TRUE(built_.file);
  }
  // openRanges of `bytes` (a file of `fileSize` bytes, by default their
  // size) through a memory reader: its error text, "" if it opened. No
  // read may reach the frames.
  std::string openError(const std::string& bytes, uint64_t fileSize = ~uint64_t{0}) {
    auto log = std::make_shared<ReadLog>();
    auto opened =
        openRanges("hosted.gtb", fileSize == ~uint64_t{0} ? bytes.size() : fileSize, memoryReader(bytes, log));
    for (const Range& r : log->reads()) EXPECT_LE(r.offset + r.size, built_.framesAt) << "a frame read at open";
    if (opened.ok()) return "";
    const std::string error(opened.status().message());
    EXPECT_EQ(error.rfind("tablebase file 'hosted.gtb': ", 0), 0u) << error;
    return error;
  }
  // The file with the block table's entry b set to `offset`.
  std::string withTableEntry(uint64_t b, uint64_t offset) const {
    std::string bytes = built_.bytes;
    std::memcpy(bytes.data() + built_.tableAt + 8 * b, &offset, 8);
    return bytes;
  }
  ScratchDir dir_{"gobblet_tb_ranges"};
  Built built_;
};

TEST_F(RangeFileOpenTest, TheGoodFileOpens) { EXPECT_EQ(openError(built_.bytes), ""); }

TEST_F(RangeFileOpenTest, RefusesAWrongHeader) {
  std::string bad = built_.bytes;
  bad[0] = 'X';
  EXPECT_NE(openError(bad).find("bad magic"), std::string::npos) << openError(bad);
  bad = built_.bytes;
  bad[8] = 99;
  EXPECT_NE(openError(bad).find("format version 99"), std::string::npos) << openError(bad);
  bad = built_.bytes;
  bad[18] = 7;  // per_size of another variant: the entries no longer match
  EXPECT_NE(openError(bad).find("entries"), std::string::npos) << openError(bad);
  bad = built_.bytes;
  bad[16] = 4;  // n
  EXPECT_NE(openError(bad).find("variant"), std::string::npos) << openError(bad);
  EXPECT_NE(openError(built_.bytes.substr(0, 100)).find("shorter than the 128-byte header"), std::string::npos);
  EXPECT_NE(openError("").find("shorter than the 128-byte header"), std::string::npos);
}

TEST_F(RangeFileOpenTest, RefusesABlockTableThatIsTruncatedOrOutsideTheFile) {
  // The file ends inside the block table.
  const std::string cut = built_.bytes.substr(0, built_.framesAt - 8);
  EXPECT_NE(openError(cut).find("shorter than the header, the dictionary and the"), std::string::npos)
      << openError(cut);
  // The table claims a terabyte of frames.
  const std::string huge = withTableEntry(built_.blocks, uint64_t{1} << 40);
  EXPECT_NE(openError(huge).find("claims 1099511627776 bytes of frames"), std::string::npos) << openError(huge);
  // The table claims frames a byte longer than the file holds.
  const std::string past = withTableEntry(built_.blocks, built_.table[built_.blocks] + 1);
  EXPECT_NE(openError(past).find("truncated"), std::string::npos) << openError(past);
  // Block 0 ends past the frames.
  const std::string outside = withTableEntry(1, built_.table[built_.blocks] + 1);
  EXPECT_NE(openError(outside).find("block 0 of the block table lies outside the frames"), std::string::npos)
      << openError(outside);
  // The table does not start at the frames' start.
  const std::string shifted = withTableEntry(0, 1);
  EXPECT_NE(openError(shifted).find("does not span the frames"), std::string::npos) << openError(shifted);
}

TEST_F(RangeFileOpenTest, RefusesAFileSizeThatTheBlockTableDoesNotSay) {
  const uint64_t size = built_.bytes.size();
  EXPECT_NE(openError(built_.bytes, size + 1).find("too long: " + std::to_string(size + 1)), std::string::npos)
      << openError(built_.bytes, size + 1);
  EXPECT_NE(openError(built_.bytes, size - 1).find("truncated: " + std::to_string(size - 1)), std::string::npos)
      << openError(built_.bytes, size - 1);
}

TEST_F(RangeFileOpenTest, RefusesAReaderThatFailsOrLiesAtOpen) {
  const std::string bytes = built_.bytes;
  // Fails at the block table: its error, its code kept, after the file's name.
  auto failing =
      openRanges("hosted.gtb", bytes.size(), [&bytes](uint64_t offset, uint64_t size) -> absl::StatusOr<std::string> {
        if (offset > 0) return absl::UnavailableError("HTTP 503");
        return bytes.substr(offset, size);
      });
  ASSERT_FALSE(failing.ok());
  EXPECT_TRUE(absl::IsUnavailable(failing.status())) << failing.status();
  EXPECT_NE(failing.status().message().find("tablebase file 'hosted.gtb'"), std::string::npos) << failing.status();
  EXPECT_NE(failing.status().message().find("HTTP 503"), std::string::npos) << failing.status();
  // Gives the whole file for every range (a server that ignores Range).
  auto whole = openRanges("hosted.gtb", bytes.size(),
                          [&bytes](uint64_t, uint64_t) -> absl::StatusOr<std::string> { return bytes; });
  ASSERT_FALSE(whole.ok());
  EXPECT_NE(whole.status().message().find("the reader gave " + std::to_string(bytes.size()) + " bytes"),
            std::string::npos)
      << whole.status();
  // Gives fewer bytes than asked.
  auto shortRead =
      openRanges("hosted.gtb", bytes.size(), [&bytes](uint64_t offset, uint64_t size) -> absl::StatusOr<std::string> {
        return bytes.substr(offset, size - 1);
      });
  ASSERT_FALSE(shortRead.ok());
  EXPECT_NE(shortRead.status().message().find("reading 128 bytes at 0: the reader gave 127 bytes"), std::string::npos)
      << shortRead.status();
  // No reader at all.
  EXPECT_FALSE(openRanges("hosted.gtb", bytes.size(), RangeReader()).ok());
}

}  // namespace
}  // namespace gobblet::tb
