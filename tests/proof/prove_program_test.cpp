// gobblet-prove from the command line: prove -> file -> check accepted, a
// damaged file rejected (exit 1), bad usage refused (exit 2).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include "proof/certificate.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/shell_command.h"
#include "tests/support/paths.h"

namespace gobblet {
namespace {

const std::string kProve = gobblet::testing::binDir() + "/gobblet-prove";

testing::CommandResult run(const std::string& arguments) {
  return testing::runCommand(kProve + " " + arguments + " 2>&1");
}

TEST(ProveProgram, ProveWriteCheck) {
  const testing::ScratchDir dir("prove");
  const std::string file = dir.file("g.proof");
  const auto proved = run("prove --variant gobblers --position '3/3/3 1' --nodes 1000000 --out '" + file + "'");
  EXPECT_EQ(proved.exitCode, 0) << proved.output;
  EXPECT_NE(proved.output.find("result win"), std::string::npos) << proved.output;
  EXPECT_NE(proved.output.find("plies "), std::string::npos) << proved.output;
  const auto checked = run("check '" + file + "'");
  EXPECT_EQ(checked.exitCode, 0) << checked.output;
  EXPECT_EQ(checked.output.rfind("accepted", 0), 0u) << checked.output;

  {  // A flipped byte in the middle of the file.
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(0, std::ios::end);
    const auto middle = f.tellg() / 2;
    f.seekg(middle);
    const char c = static_cast<char>(f.get() ^ 1);
    f.seekp(middle);
    f.put(c);
  }
  const auto damaged = run("check '" + file + "'");
  EXPECT_EQ(damaged.exitCode, 1) << damaged.output;
  EXPECT_EQ(damaged.output.rfind("rejected: checksum", 0), 0u) << damaged.output;
}

// A proved draw: two not-lost certificates, each checked; a side that
// loses is not proved not lost.
TEST(ProveProgram, ADrawAndNotLost) {
  const testing::ScratchDir dir("prove");
  const std::string file = dir.file("t.proof");
  const auto drawn = run("prove --variant tictactoe --draw --out '" + file + "'");
  EXPECT_EQ(drawn.exitCode, 0) << drawn.output;
  EXPECT_NE(drawn.output.find("result draw"), std::string::npos) << drawn.output;
  EXPECT_NE(drawn.output.find("player 2 held, certificate"), std::string::npos) << drawn.output;
  for (const char* side : {".1", ".2"}) {
    const auto checked = run("check '" + file + side + "'");
    EXPECT_EQ(checked.exitCode, 0) << checked.output;
    EXPECT_EQ(checked.output.rfind("accepted: 3x3:1,5,0 the side ", 0), 0u) << checked.output;
    EXPECT_NE(checked.output.find("does not lose 3/3/3 1"), std::string::npos) << checked.output;
  }
  const auto one = run("prove --variant 3x3:1,3,1 --not-lost --moves S@b2 --out '" + file + "'");
  EXPECT_EQ(one.exitCode, 0) << one.output;
  EXPECT_NE(one.output.find("result not-lost"), std::string::npos) << one.output;
  EXPECT_EQ(run("check '" + file + "'").exitCode, 0);
  const auto lost = run("prove --variant gobblers --position '2L/1l1/2l 1' --not-lost");
  EXPECT_EQ(lost.exitCode, 0) << lost.output;
  EXPECT_NE(lost.output.find("player 1 lost"), std::string::npos) << lost.output;
  EXPECT_NE(lost.output.find("result unknown"), std::string::npos) << lost.output;
  EXPECT_EQ(run("prove --variant tictactoe --draw --not-lost").exitCode, 2);
}

// prove --draw --db keeps the draw as two held entries: asked again, each
// side is answered from the database (0 nodes); db stats and db check
// count them.
TEST(ProveProgram, ADrawIsKeptInADatabase) {
  const testing::ScratchDir dir("prove_held");
  const std::string db = dir.file("t.pdb");
  const auto first = run("prove --variant tictactoe --draw --db '" + db + "'");
  EXPECT_EQ(first.exitCode, 0) << first.output;
  EXPECT_NE(first.output.find("result draw"), std::string::npos) << first.output;
  EXPECT_NE(first.output.find("database appended 2 of 2 entries, 2 in all"), std::string::npos) << first.output;
  const auto again = run("prove --variant tictactoe --draw --db '" + db + "'");
  EXPECT_EQ(again.exitCode, 0) << again.output;
  EXPECT_NE(again.output.find("result draw"), std::string::npos) << again.output;
  for (const char* player : {"player 1 held", "player 2 held"}) {
    const size_t at = again.output.find(player);
    ASSERT_NE(at, std::string::npos) << again.output;
    const std::string line = again.output.substr(at, again.output.find('\n', at) - at);
    EXPECT_NE(line.find("(known: the proof database holds it), nodes 0,"), std::string::npos) << line;
  }
  EXPECT_NE(again.output.find("database appended 0 of 2 entries, 2 in all"), std::string::npos) << again.output;
  const auto stats = run("db stats '" + db + "'");
  EXPECT_EQ(stats.exitCode, 0) << stats.output;
  EXPECT_NE(stats.output.find("entries 2\nwon 0\nlost 0\nheld 1\nheld-by-other 1\ndrawn 1\n"), std::string::npos)
      << stats.output;
  const auto checked = run("db check '" + db + "'");
  EXPECT_EQ(checked.exitCode, 0) << checked.output;
  EXPECT_NE(checked.output.find("1 held by it, 1 by the other side, 1 drawn"), std::string::npos) << checked.output;
}

TEST(ProveProgram, LossAndUnknown) {
  const auto loss = run("prove --position 'xxl1/x3/l3/1XX1 1'");
  EXPECT_EQ(loss.exitCode, 0) << loss.output;
  EXPECT_NE(loss.output.find("result loss"), std::string::npos) << loss.output;
  EXPECT_NE(loss.output.find("plies 2"), std::string::npos) << loss.output;
  const auto unknown = run("prove --nodes 50");
  EXPECT_EQ(unknown.exitCode, 0) << unknown.output;
  EXPECT_NE(unknown.output.find("result unknown"), std::string::npos) << unknown.output;
}

// A game already drawn by threefold repetition is over: status 2, saying so
// (docs/proof.md), as for a game over by a line.
TEST(ProveProgram, AGameDrawnByRepetitionIsOver) {
  const auto r =
      run("prove --variant gobblers --moves "
          "L@c3,L@b1,L@b3,M@a3,b3c1,M@c2,c3c2,b1a1,c1a2,a1b1,a2c1,b1a1,c2c3,a1b1,c3c2");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("the game is already over: threefold repetition"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("result "), std::string::npos) << r.output;
}

TEST(ProveProgram, BadUsageExitsTwo) {
  for (const char* arguments : {"prove --position nonsense", "prove --variant chess", "prove --time -1",
                                "prove --time x", "prove --position '4/4/4/XXXL 2'", "prove --moves Z@z9",
                                "check /nonexistent/file.proof", "check", "frobnicate"}) {
    const auto r = run(arguments);
    EXPECT_EQ(r.exitCode, 2) << arguments << ": " << r.output;
    EXPECT_NE(r.output.find("error"), std::string::npos) << arguments << ": " << r.output;
  }
}

// A certificate's texts reach the terminal only as printable text: escape
// sequences in its variant name or position (clear the screen, retitle the
// window, a green "accepted") come out as \xNN.
TEST(ProveProgram, CheckPrintsACertificatesTextsPrintable) {
  const testing::ScratchDir dir("prove_escapes");
  const std::string escapes = "\x1b[2J\x1b]0;title\x07\x1b[32maccepted\r";
  proof::Certificate forged;
  forged.nodes.resize(1);
  forged.nodes[0].children = {proof::kWonLeaf};
  for (const auto& [variant, position] :
       {std::pair{escapes, std::string("3/3/3 1")}, std::pair{std::string("gobblers"), "3/3/3 1" + escapes}}) {
    forged.variant = variant;
    forged.position = position;
    const std::string file = dir.file("forged.proof");
    ASSERT_TRUE(proof::writeCertificate(forged, file).ok());
    const auto checked = run("check '" + file + "'");
    EXPECT_EQ(checked.exitCode, 1) << checked.output;
    EXPECT_EQ(checked.output.rfind("rejected: ", 0), 0u) << checked.output;
    EXPECT_EQ(checked.output.find_first_of("\x1b\x07\r"), std::string::npos) << checked.output;
    EXPECT_NE(checked.output.find("\\x1b"), std::string::npos) << checked.output;
  }
}

// prove --db keeps what it proves: the position after the first move, then
// the start, which ends at it; the start's certificate is accepted with the
// database and refused without, and refused with a database db check
// rejects; db check and db stats read the file.
TEST(ProveProgram, ADatabaseKeepsWhatIsProved) {
  const testing::ScratchDir dir("prove_db");
  const std::string db = dir.file("g.pdb"), out = dir.file("start.proof");
  const auto first = run("prove --variant gobblers --moves L@b2 --db '" + db + "'");
  EXPECT_EQ(first.exitCode, 0) << first.output;
  EXPECT_NE(first.output.find("result loss"), std::string::npos) << first.output;
  EXPECT_NE(first.output.find("database appended "), std::string::npos) << first.output;
  const auto start = run("prove --variant gobblers --db '" + db + "' --out '" + out + "'");
  EXPECT_EQ(start.exitCode, 0) << start.output;
  EXPECT_NE(start.output.find("result win"), std::string::npos) << start.output;
  EXPECT_NE(start.output.find("database appended 1 of 1 entries"), std::string::npos)
      << start.output << ": the start's proof ends at once at the entry after L@b2";
  const auto without = run("check '" + out + "'");
  EXPECT_EQ(without.exitCode, 1) << without.output;
  EXPECT_NE(without.output.find("no proof database"), std::string::npos) << without.output;
  const auto with = run("check '" + out + "' --db '" + db + "'");
  EXPECT_EQ(with.exitCode, 0) << with.output;
  EXPECT_EQ(with.output.rfind("accepted", 0), 0u) << with.output;
  const auto checked = run("db check '" + db + "'");
  EXPECT_EQ(checked.exitCode, 0) << checked.output;
  EXPECT_EQ(checked.output.rfind("accepted: gobblers, ", 0), 0u) << checked.output;
  const auto stats = run("db stats '" + db + "'");
  EXPECT_EQ(stats.exitCode, 0) << stats.output;
  EXPECT_NE(stats.output.find("tail none\n"), std::string::npos) << stats.output;
  const size_t at = stats.output.find("entries ");
  ASSERT_NE(at, std::string::npos) << stats.output;
  const int entries = std::stoi(stats.output.substr(at + 8));
  EXPECT_GE(entries, 2) << stats.output;
  EXPECT_NE(checked.output.find(", " + std::to_string(entries) + " entries"), std::string::npos) << checked.output;
  {  // A cut tail: db check rejects it, naming the last entry; stats reports it.
    std::filesystem::resize_file(db, std::filesystem::file_size(db) - 5);
    const auto cut = run("db check '" + db + "'");
    EXPECT_EQ(cut.exitCode, 1) << cut.output;
    EXPECT_EQ(cut.output.rfind("rejected: entry " + std::to_string(entries - 1) + ": ", 0), 0u) << cut.output;
    const auto tail = run("db stats '" + db + "'");
    EXPECT_NE(tail.output.find("entries " + std::to_string(entries - 1) + "\n"), std::string::npos) << tail.output;
    EXPECT_NE(tail.output.find("dropped"), std::string::npos) << tail.output;
    // check --db checks the whole database before it takes an entry as
    // proved: a database that db check rejects rejects the certificate.
    const auto damaged = run("check '" + out + "' --db '" + db + "'");
    EXPECT_EQ(damaged.exitCode, 1) << damaged.output;
    EXPECT_EQ(damaged.output.rfind("rejected: the database ", 0), 0u) << damaged.output;
  }
  EXPECT_EQ(run("db frobnicate '" + db + "'").exitCode, 2);
  EXPECT_EQ(run("db check '" + dir.file("none.pdb") + "'").exitCode, 2);
  const auto otherVariant = run("prove --variant tictactoe --db '" + db + "'");
  EXPECT_EQ(otherVariant.exitCode, 1) << otherVariant.output;
  EXPECT_NE(otherVariant.output.find("not of"), std::string::npos) << otherVariant.output;
}

TEST(ProveProgram, Help) {
  const auto r = run("prove --help");
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_NE(r.output.find("--threads"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace gobblet
