// gobblet-tb through the real binary: what it prints where.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

#include "absl/strings/str_split.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/shell_command.h"
#include "tests/support/paths.h"

namespace gobblet::tb {
namespace {

// Runs a shell command; returns what it wrote to `stream` (the other one is
// discarded) and sets *status to its exit status.
std::string run(const std::string& command, bool wantStderr, int* status) {
  testing::CommandResult r = testing::runCommand(wantStderr ? command + " 2>&1 >/dev/null" : command + " 2>/dev/null");
  *status = r.exitCode;
  return std::move(r.output);
}

const std::string kTool = gobblet::testing::binDir() + "/gobblet-tb";

// Standard error that is not a terminal (a pipe here, a log in CI) gets
// whole lines, no carriage returns, a few per phase: one at its start, one
// every 5 s, one at its end.
TEST(GobbletTb, ProgressToALogIsWholeLines) {
  const testing::ScratchDir dir("gobblet_tb_tool");
  int status = 0;
  const std::string err = run(kTool + " build 3x3:2,2,1 --threads 2 --out " + dir.file("x.gtb"), true, &status);
  ASSERT_EQ(status, 0) << err;
  EXPECT_EQ(err.find('\r'), std::string::npos) << err;
  ASSERT_FALSE(err.empty());
  EXPECT_EQ(err.back(), '\n');
  int reach = 0, solve = 0;
  for (absl::string_view line : absl::StrSplit(err, '\n')) {
    reach += line.rfind("reach ", 0) == 0;
    solve += line.rfind("solve ", 0) == 0;
  }
  EXPECT_GE(reach, 2) << err;  // start and end
  EXPECT_GE(solve, 2) << err;
  EXPECT_LE(reach + solve, 40) << "more than a line every few seconds:\n" << err;
  EXPECT_NE(err.find("reach  100.0%"), std::string::npos) << err;
  EXPECT_NE(err.find("solve  100.0%"), std::string::npos) << err;
}

// --codes-dir keeps the codes in a file there while building (the same
// file comes out) and while verifying; nothing is left in the directory,
// and a directory that cannot be made is an error that names it.
TEST(GobbletTb, CodesDirGivesTheSameFile) {
  const testing::ScratchDir dir("gobblet_tb_tool");
  const std::string codes = dir.file("codes");
  int status = 0;
  run(kTool + " build 3x3:2,2,1 --threads 2 --out " + dir.file("memory.gtb"), false, &status);
  ASSERT_EQ(status, 0);
  const std::string err = run(
      kTool + " build 3x3:2,2,1 --threads 2 --codes-dir " + codes + " --out " + dir.file("file.gtb"), true, &status);
  ASSERT_EQ(status, 0) << err;
  EXPECT_NE(err.find("codes in an unnamed file in " + codes), std::string::npos) << err;
  run("cmp " + dir.file("memory.gtb") + " " + dir.file("file.gtb"), false, &status);
  EXPECT_EQ(status, 0) << "the two builds differ";
  EXPECT_TRUE(std::filesystem::is_empty(codes));
  const std::string verified =
      run(kTool + " verify " + dir.file("file.gtb") + " --threads 2 --codes-dir " + codes, true, &status);
  EXPECT_EQ(status, 0) << verified;
  EXPECT_NE(verified.find("codes in an unnamed file in " + codes), std::string::npos) << verified;
  EXPECT_TRUE(std::filesystem::is_empty(codes));
  const std::string bad = dir.file("memory.gtb") + "/codes";  // under a file: cannot be made
  const std::string refused =
      run(kTool + " build 3x3:2,2,1 --codes-dir " + bad + " --out " + dir.file("bad.gtb"), true, &status);
  EXPECT_EQ(status, 1) << refused;
  EXPECT_NE(refused.find(bad), std::string::npos) << refused;
  run(kTool + " build 3x3:2,2,1 --codes-dir", false, &status);
  EXPECT_EQ(status, 2) << "--codes-dir without a directory is a usage error";
}

// `build --out PATH` refuses, before solving, a PATH that is there and is
// not a regular file, and leaves it as it was (as root, `--out /dev/full`
// once replaced the device with a regular file and reported success).
TEST(GobbletTb, BuildRefusesAnOutputThatIsNotARegularFile) {
  const testing::ScratchDir dir("gobblet_tb_tool");
  namespace fs = std::filesystem;
  const std::string fifo = dir.file("fifo"), folder = dir.file("folder"), link = dir.file("link");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  fs::create_directory(folder);
  int status = 0;
  run(kTool + " build tictactoe --out " + dir.file("real.gtb"), false, &status);
  ASSERT_EQ(status, 0);
  fs::create_symlink(dir.file("real.gtb"), link);
  const auto realSize = fs::file_size(dir.file("real.gtb"));
  const struct {
    std::string path, says;
  } cases[] = {{fifo, "it is a FIFO"}, {folder, "it is a directory"}, {link, "it is a symbolic link"}};
  for (const auto& c : cases) {
    const std::string err = run(kTool + " build tictactoe --out " + c.path, true, &status);
    EXPECT_EQ(status, 1) << c.path << ": " << err;
    EXPECT_NE(err.find("will not write '" + c.path + "': " + c.says), std::string::npos) << err;
    // Refused before the solve: no progress line between its announcement and the error.
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 2) << "refused only after solving? " << err;
  }
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_TRUE(fs::is_directory(folder) && fs::is_empty(folder));
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(fs::file_size(dir.file("real.gtb")), realSize);
  // An existing regular file is replaced, as before.
  run(kTool + " build tictactoe --out " + dir.file("real.gtb"), false, &status);
  EXPECT_EQ(status, 0);
}

// A full disk while the file is written (here the file size limit of
// `ulimit -f`, SIGXFSZ ignored: EFBIG) is reported with its own reason,
// and no file or temporary file is left. (The reason was "No such file or
// directory": the errno of a later call.)
TEST(GobbletTb, AWriteThatFailsSaysWhy) {
  const testing::ScratchDir dir("gobblet_tb_tool");
  int status = 0;
  const std::string err =
      run("bash -c \"trap '' XFSZ; ulimit -f 4; exec " + kTool + " build 3x3:2,2,1 --out " + dir.file("t.gtb") + "\"",
          true, &status);
  EXPECT_EQ(status, 1) << err;
  EXPECT_NE(err.find("cannot write '" + dir.file("t.gtb") + "': File too large"), std::string::npos) << err;
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "a file was left";
}

// estimate prints the numbering's exact size and an expected memory and time.
TEST(GobbletTb, EstimateGivesExactSizes) {
  int status = 0;
  const std::string out = run(kTool + " estimate gobblers --threads 1", false, &status);
  ASSERT_EQ(status, 0) << out;
  EXPECT_NE(out.find("slots        414105595 "), std::string::npos) << out;
  EXPECT_NE(out.find("states       360382485 "), std::string::npos) << out;
  EXPECT_NE(out.find("memory "), std::string::npos) << out;
  EXPECT_NE(out.find("time "), std::string::npos) << out;
  // The 4x4 family (one measurement for all three): exact for a member
  // that can be numbered, the sizes alone for 4x4 Gobblet, whose numbering
  // would not fit in 64 bits; over ranks each holds its range of the
  // numbers (2.25 bytes a slot).
  const std::string wide =
      run(kTool + " estimate 4x4:2,2 4x4:3,2 gobblet --threads 1 --ranks 32 --memory-per-rank 64", false, &status);
  ASSERT_EQ(status, 0) << wide;
  const size_t big = wide.find("variant      4x4:3,2\n"), game = wide.find("variant      gobblet\n");
  ASSERT_LT(big, game) << wide;
  const std::string small = wide.substr(0, big);
  EXPECT_NE(small.find("slots        21825349 "), std::string::npos) << small;
  EXPECT_NE(small.find("states       21084553 "), std::string::npos) << small;
  EXPECT_NE(small.find("ranks        32 of 1 threads each"), std::string::npos) << small;
  EXPECT_NE(wide.find("per rank     memory 16.08 GiB: 1/32 of", big), std::string::npos) << wide;
  EXPECT_NE(wide.find("with 64 GiB per rank: fits", big), std::string::npos) << wide;
  EXPECT_NE(wide.find("slots        1.703e+20 (too many to number in 64 bits: no tablebase)", game), std::string::npos)
      << wide;
  const testing::ScratchDir dir("gobblet_tb_tool");
  const std::string refused = run(kTool + " build gobblet --threads 1 --out " + dir.file("g.gtb"), true, &status);
  EXPECT_EQ(status, 1) << refused;
  EXPECT_NE(refused.find("gobblet: its numbering does not fit in 64 bits"), std::string::npos) << refused;
}

// Several variants: one block each, in order, after one measurement or at
// a rate given (--ns-per-state: the states times the rate).
TEST(GobbletTb, EstimateTakesSeveralVariants) {
  int status = 0;
  const std::string out = run(kTool + " estimate tictactoe gobblers --threads 1 --ns-per-state 100", false, &status);
  ASSERT_EQ(status, 0) << out;
  const size_t blank = out.find("\n\n");
  ASSERT_NE(blank, std::string::npos) << out;
  EXPECT_EQ(out.find("slots        414105595 "), out.find("slots", blank)) << "gobblers is the second block:\n" << out;
  EXPECT_EQ(out.find("slots        2576 "), out.find("slots")) << "tictactoe is the first block:\n" << out;
  EXPECT_NE(out.find("time         36 s expected with 1 threads (100 ns per state, given)"), std::string::npos)
      << "360382485 states at 100 ns:\n"
      << out;
  run(kTool + " estimate gobblers --ns-per-state 0", false, &status);
  EXPECT_EQ(status, 2) << "--ns-per-state 0 is a usage error";
  run(kTool + " estimate gobblers nonsense --threads 1", false, &status);
  EXPECT_EQ(status, 1) << "an unknown variant is an error";
  run(kTool + " estimate --threads 1", false, &status);
  EXPECT_EQ(status, 2) << "no variant is a usage error";
  run(kTool + " estimate gobblers --threads", false, &status);
  EXPECT_EQ(status, 2) << "--threads without a number is a usage error";
  const std::string first = run(kTool + " estimate --threads 1 tictactoe", false, &status);
  EXPECT_EQ(status, 0) << "--threads may come first:\n" << first;
  EXPECT_NE(first.find("ns per state, measured on 3x3:2,3,1 just now)"), std::string::npos) << first;
}

// estimate --ranks: a rank's memory and disk, the bytes it exchanges and
// the time; one rank exchanges nothing and does all the work; a memory per
// rank too small for even the codes in a file says so.
TEST(GobbletTb, EstimateForRanks) {
  int status = 0;
  const std::string out =
      run(kTool + " estimate 3x3:3,4,1 --threads 2 --ranks 8 --memory-per-rank 96 --ns-per-state 90", false, &status);
  ASSERT_EQ(status, 0) << out;
  EXPECT_NE(out.find("slots        375755877952 "), std::string::npos) << out;
  EXPECT_NE(out.find("ranks        8 of 2 threads each"), std::string::npos) << out;
  // Over 8 ranks each holds its slices: the codes fit 96 GiB in memory,
  // where one process needs them in a file.
  EXPECT_NE(out.find("with 96 GiB per rank: the codes in memory, no disk"), std::string::npos) << out;
  EXPECT_NE(out.find("exchanged    per rank: "), std::string::npos) << out;
  EXPECT_NE(out.find("GiB of slices in"), std::string::npos) << out;
  const std::string alone =
      run(kTool + " estimate 3x3:3,4,1 --threads 2 --ranks 1 --memory-per-rank 96 --ns-per-state 90", false, &status);
  ASSERT_EQ(status, 0) << alone;
  EXPECT_NE(alone.find("with 96 GiB per rank: the codes in a file, 349.9 GiB of local disk per rank"),
            std::string::npos)
      << alone;
  const std::string one = run(kTool + " estimate tictactoe --threads 1 --ranks 1 --ns-per-state 90", false, &status);
  ASSERT_EQ(status, 0) << one;
  EXPECT_NE(one.find("0.00 GiB of slices in"), std::string::npos) << one;
  EXPECT_NE(one.find("(100.0% of the work"), std::string::npos) << one;
  const std::string small =
      run(kTool + " estimate 3x3:3,4,1 --threads 2 --ranks 4 --memory-per-rank 16 --ns-per-state 90", false, &status);
  ASSERT_EQ(status, 0) << small;
  EXPECT_NE(small.find("with 16 GiB per rank: does NOT fit"), std::string::npos) << small;
  run(kTool + " estimate gobblers --ranks 0", false, &status);
  EXPECT_EQ(status, 2) << "--ranks 0 is a usage error";
  run(kTool + " estimate gobblers --memory-per-rank 64", false, &status);
  EXPECT_EQ(status, 2) << "--memory-per-rank without --ranks is a usage error";
}

}  // namespace
}  // namespace gobblet::tb
