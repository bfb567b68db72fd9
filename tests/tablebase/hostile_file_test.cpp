// Tablebase files that are not what they seem:
//   * a FIFO (or another file that is not a regular one) where a tablebase
//     is expected: open() must refuse it at once, in the library, in
//     `gobblet-tb info` and in the engine (TablebasePath and the default
//     folder), never block waiting for a writer;
//   * a file truncated or rewritten in place after it was opened: probes
//     must neither die of SIGBUS nor answer anything but the values that
//     were checked when the file was opened;
//   * a forged file that is large but sparse (a few MB on disk): open()
//     must refuse it having held a few MiB, not the file's size.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <vector>

#include "tablebase/file.h"
#include "tablebase/retrograde.h"
#include "tablebase/tablebase.h"
#include "tests/support/engine_client.h"
#include "tests/support/brute_solver.h"
#include "tests/support/peak_memory.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/shell_command.h"
#include "tests/support/paths.h"

namespace gobblet::tb {
namespace {

using testing::ScratchDir;

// Calls open(path) on another thread; if it has not returned within
// `limit`, opens the FIFO's writing end (which releases a reader blocked in
// open()) and fails. Returns open()'s error text ("" if it succeeded).
std::string openWithin(const std::string& path, std::chrono::seconds limit) {
  auto pending = std::async(std::launch::async, [&path] {
    auto opened = open(path);
    return opened.ok() ? std::string() : std::string(opened.status().message());
  });
  if (pending.wait_for(limit) != std::future_status::ready) {
    ADD_FAILURE() << "open('" << path << "') blocked for " << limit.count() << " s";
    const int writer = ::open(path.c_str(), O_WRONLY | O_NONBLOCK);
    if (writer >= 0) ::close(writer);
  }
  return pending.get();
}

// Runs a shell command; returns its standard output and error, and sets
// *status to its exit status.
std::string run(const std::string& command, int* status) {
  testing::CommandResult r = testing::runCommand(command + " 2>&1");
  *status = r.exitCode;
  return std::move(r.output);
}

TEST(HostileTablebaseFile, FifoIsRefusedWithoutBlocking) {
  const ScratchDir dir("gobblet_tb_fifo");
  const std::string fifo = dir.file("fifo.gtb");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string error = openWithin(fifo, std::chrono::seconds(10));
  EXPECT_NE(error.find("not a regular file"), std::string::npos) << error;
  // A directory, too.
  const std::string directory = openWithin(dir.path(), std::chrono::seconds(10));
  EXPECT_NE(directory.find("not a regular file"), std::string::npos) << directory;
}

TEST(HostileTablebaseFile, GobbletTbInfoRefusesAFifo) {
  const ScratchDir dir("gobblet_tb_fifo");
  const std::string fifo = dir.file("fifo.gtb");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  int status = 0;
  // `timeout` turns a hang into exit status 124.
  const std::string tool = gobblet::testing::binDir() + "/gobblet-tb";
  const std::string out = run("timeout 20 '" + tool + "' info '" + fifo + "'", &status);
  EXPECT_EQ(status, 1) << out;
  EXPECT_NE(out.find("not a regular file"), std::string::npos) << out;
}

// The engine answers a FIFO given as TablebasePath, or found in the default
// folder, with an error line and stays responsive.
TEST(HostileTablebaseFile, EngineRefusesAFifoAndStaysResponsive) {
  const ScratchDir dir("gobblet_tb_fifo");
  const std::string fifo = dir.file(std::filesystem::path(defaultPath(Variant::ticTacToe())).filename().string());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  {
    testing::EngineProcess engine;
    engine.send("setoption name TablebasePath value " + fifo);
    engine.send("isready");
    std::vector<std::string> seen;
    ASSERT_TRUE(engine.until("readyok", testing::Ms(10000), &seen)) << ::testing::PrintToString(seen);
    ASSERT_FALSE(seen.empty());
    EXPECT_NE(seen[0].find("not a regular file"), std::string::npos) << seen[0];
  }
  setenv("GOBBLET_TB_DIR", dir.path().c_str(), 1);
  testing::EngineProcess engine;  // the default folder holds the FIFO
  unsetenv("GOBBLET_TB_DIR");
  engine.send("setoption name Variant value tictactoe");
  engine.send("isready");
  std::vector<std::string> seen;
  ASSERT_TRUE(engine.until("readyok", testing::Ms(10000), &seen)) << ::testing::PrintToString(seen);
  ASSERT_FALSE(seen.empty());
  EXPECT_NE(seen[0].find("not a regular file"), std::string::npos) << seen[0];
  engine.send("quit");
  EXPECT_TRUE(engine.waitExit(testing::Ms(10000)));
}

// A small tablebase and the values it gives every reachable state.
class ChangedFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_.file("small.gtb");
    auto solved = solve(variant_, 2);
    ASSERT_TRUE(solved.ok());
    ASSERT_TRUE(writeFile(path_, variant_, *solved).ok());
    auto opened = open(path_);
    ASSERT_TRUE(opened.ok()) << opened.status();
    table_ = *opened;
    for (const Board& b : brute_.boards()) before_.push_back(table_->probe(b));
  }
  // Every state probes as it did before the file changed.
  void expectUnchanged() {
    for (size_t i = 0; i < brute_.boards().size(); ++i) {
      const Probe p = table_->probe(brute_.boards()[i]);
      ASSERT_EQ(p.value, before_[i].value) << i;
      ASSERT_EQ(p.distance, before_[i].distance) << i;
    }
  }
  const Variant variant_ = *Variant::parse("3x3:2,2,0");
  const testing::BruteSolver brute_{variant_};
  ScratchDir dir_{"gobblet_tb_changed"};
  std::string path_;
  std::shared_ptr<const Tablebase> table_;
  std::vector<Probe> before_;
};

// What `cp other.gtb small.gtb` does first: truncate the file in place. A
// mapping of the file would raise SIGBUS on the next probe.
TEST_F(ChangedFileTest, TruncatedInPlaceKeepsTheLoadedValues) {
  ASSERT_EQ(::truncate(path_.c_str(), 0), 0);
  expectUnchanged();
  // Opening the path again sees the damage and says so.
  auto again = open(path_);
  ASSERT_FALSE(again.ok());
  EXPECT_NE(std::string(again.status().message()).find("truncated"), std::string::npos) << again.status();
  expectUnchanged();
}

// Every code byte rewritten in place (same size, same inode): the loaded
// values stay those whose checksum was checked.
TEST_F(ChangedFileTest, RewrittenInPlaceKeepsTheLoadedValues) {
  const int fd = ::open(path_.c_str(), O_WRONLY);
  ASSERT_GE(fd, 0);
  const uint64_t size = std::filesystem::file_size(path_) - sizeof(FileHeader);
  const std::vector<uint8_t> forged(size, winCode(0));
  ASSERT_EQ(::pwrite(fd, forged.data(), forged.size(), sizeof(FileHeader)), static_cast<ssize_t>(forged.size()));
  ::close(fd);
  expectUnchanged();
}

// A forged gobblers table: a true header and checksum, a block table of
// `table` (entry b: the offset of block b's frame), and frames of zeros that
// the file does not store (a hole): a file of a few MB on disk and 400 MB
// in size. Returns its path.
std::string writeSparseForgery(const ScratchDir& dir, const std::string& name, const std::vector<uint64_t>& table,
                               uint64_t framesBytes) {
  const Variant v = Variant::gobblers();
  FileHeader h{};
  std::memcpy(h.magic, kMagic, sizeof h.magic);
  h.version = kFormatVersion, h.headerSize = sizeof h, h.n = v.n, h.sizes = v.sizes, h.perSize = v.perSize;
  h.moving = v.moving ? 1 : 0, h.blockCodes = kBlockCodes, h.entries = Index(v).size();
  EXPECT_EQ(table.size(), blocksOf(h) + 1);
  Checksum sum(checksumOf(reinterpret_cast<const uint8_t*>(&h), sizeof h));
  sum.add(reinterpret_cast<const uint8_t*>(table.data()), 8 * table.size());
  const std::vector<uint8_t> zeros(1 << 20, 0);
  for (uint64_t left = framesBytes; left > 0;) {
    const uint64_t n = std::min<uint64_t>(left, zeros.size());
    sum.add(zeros.data(), n);
    left -= n;
  }
  h.checksum = sum.value();
  const std::string path = dir.file(name);
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(&h), sizeof h);
    out.write(reinterpret_cast<const char*>(table.data()), static_cast<std::streamsize>(8 * table.size()));
  }
  std::filesystem::resize_file(path, framesAt(h) + framesBytes);
  return path;
}

// The forgery: before, the reader copied the whole 400 MB into its
// memory (and would try 51 GB for 3x3:3,3,1's bound) before it found that
// block 0 does not decode; now it checks each piece as it comes in.
TEST(HostileTablebaseFile, ASparseForgedFileIsRefusedHoldingLittle) {
  const ScratchDir dir("gobblet_tb_sparse");
  const uint64_t entries = Index(Variant::gobblers()).size(), blocks = (entries + kBlockCodes - 1) / kBlockCodes;
  // Frames of one byte a code: within zstd's bound, so the layout passes.
  std::vector<uint64_t> frames(blocks + 1);
  for (uint64_t b = 0; b <= blocks; ++b) frames[b] = std::min(entries, b * kBlockCodes);
  // A block table of zeros but for its last entry: every frame empty.
  std::vector<uint64_t> empty(blocks + 1, 0);
  empty[blocks] = entries;
  const struct {
    std::string name, error;
    const std::vector<uint64_t>& table;
  } cases[] = {{"frames-of-zeros.gtb", "block 0 does not decode", frames},
               {"empty-frames.gtb", "block 0 of the block table lies outside the frames (it is empty)", empty}};
  for (const auto& c : cases) {
    const std::string path = writeSparseForgery(dir, c.name, c.table, entries);
    ASSERT_GT(std::filesystem::file_size(path), uint64_t{300} << 20);
    resetPeakResident();
    const uint64_t before = peakResidentBytes();
    auto opened = File::open(path);
    const uint64_t held = peakResidentBytes() - before;
    ASSERT_FALSE(opened.ok()) << c.name;
    EXPECT_NE(opened.status().message().find(c.error), std::string::npos) << opened.status();
    EXPECT_LT(held, uint64_t{64} << 20) << c.name << ": the reader held " << (held >> 20) << " MiB";
  }
}

}  // namespace
}  // namespace gobblet::tb
