// The command parser, the line splitter and the option table, in-process.
#include <gtest/gtest.h>

#include "protocol/command.h"
#include "protocol/engine_options.h"
#include "protocol/line_buffer.h"

namespace gobblet {
namespace {

Command parseOk(const std::string& line) {
  auto c = parseCommand(line);
  EXPECT_TRUE(c.ok()) << line << ": " << c.status();
  return c.ok() ? *c : Command{};
}

std::string parseError(const std::string& line) {
  auto c = parseCommand(line);
  EXPECT_FALSE(c.ok()) << line;
  return c.ok() ? "" : std::string(c.status().message());
}

TEST(ProtocolCommand, SimpleCommandsAnyCaseAndSpacing) {
  EXPECT_EQ(parseOk("ugi").kind, CommandKind::kUgi);
  EXPECT_EQ(parseOk("  UCI\r").kind, CommandKind::kUci);
  EXPECT_EQ(parseOk("isready").kind, CommandKind::kIsReady);
  EXPECT_EQ(parseOk("uginewgame").kind, CommandKind::kNewGame);
  EXPECT_EQ(parseOk("ucinewgame").kind, CommandKind::kNewGame);
  EXPECT_EQ(parseOk("stop").kind, CommandKind::kStop);
  EXPECT_EQ(parseOk("ponderhit").kind, CommandKind::kPonderHit);
  EXPECT_EQ(parseOk("\tquit  ").kind, CommandKind::kQuit);
  EXPECT_EQ(parseOk("d").kind, CommandKind::kDisplay);
  EXPECT_EQ(parseOk("moves").kind, CommandKind::kMoves);
  EXPECT_EQ(parseOk("eval").kind, CommandKind::kEval);
  EXPECT_EQ(parseOk("").kind, CommandKind::kEmpty);
  EXPECT_EQ(parseOk(" \t\r ").kind, CommandKind::kEmpty);
}

TEST(ProtocolCommand, UnknownAndTrailingWordsAreErrorsNamingTheWord) {
  EXPECT_NE(parseError("xyzzy 1 2").find("'xyzzy'"), std::string::npos);
  EXPECT_NE(parseError("isready now").find("'now'"), std::string::npos);
  EXPECT_NE(parseError("query").find("gameover"), std::string::npos);
  EXPECT_NE(parseError("query whatever").find("'whatever'"), std::string::npos);
  EXPECT_NE(parseError("query result please").find("'please'"), std::string::npos);
}

TEST(ProtocolCommand, JunkBytesAreQuotedPrintably) {
  const std::string msg = parseError(std::string("\x01\xff\x00z", 4));
  EXPECT_NE(msg.find("\\x01\\xff\\x00z"), std::string::npos) << msg;
  for (char c : msg) EXPECT_TRUE(c >= 0x20 && c < 0x7f) << msg;
  EXPECT_EQ(quoteWord(std::string(100, 'a')), "'" + std::string(48, 'a') + "...'");
  EXPECT_EQ(quoteWord("it's"), "'it\\x27s'");
}

// The whole-message cleaner the session applies to every error line.
TEST(ProtocolCommand, PrintableTextEscapesAndCutsWithoutSplittingAnEscape) {
  EXPECT_EQ(printableText("a'b\\c", 20), "a'b\\c");  // quotes and backslashes pass as they are
  EXPECT_EQ(printableText(std::string("x\x1b[2J\xff\x00", 7), 100), "x\\x1b[2J\\xff\\x00");
  EXPECT_EQ(printableText("abcdefghij", 10), "abcdefghij");  // fits exactly: not cut
  EXPECT_EQ(printableText("abcdefghijk", 10), "abcdefg...");
  // "ab" then an escape that would not fit before the "...": cut before it.
  EXPECT_EQ(printableText("ab\xff" "cdefgh", 8), "ab...");
  const std::string cut = printableText(std::string(70000, '\x80'), 200);
  EXPECT_LE(cut.size(), 200u);
  EXPECT_EQ(cut.substr(cut.size() - 7), "\\x80...");
}

TEST(ProtocolCommand, SetOptionNameAndValueKeepSpaces) {
  Command c = parseOk("setoption name Hash value 64");
  EXPECT_EQ(c.kind, CommandKind::kSetOption);
  EXPECT_EQ(c.optionName, "Hash");
  EXPECT_TRUE(c.hasValue);
  EXPECT_EQ(c.optionValue, "64");
  c = parseOk("setoption name Tablebase  Path value /tmp/my  tb/x.tb  ");
  EXPECT_EQ(c.optionName, "Tablebase Path");
  EXPECT_EQ(c.optionValue, "/tmp/my  tb/x.tb");
  c = parseOk("setoption name TablebasePath");
  EXPECT_FALSE(c.hasValue);
  c = parseOk("setoption name X value");
  EXPECT_TRUE(c.hasValue);
  EXPECT_EQ(c.optionValue, "");
  parseError("setoption");
  parseError("setoption Hash value 3");
  parseError("setoption name value 3");
}

TEST(ProtocolCommand, Position) {
  Command c = parseOk("position startpos");
  EXPECT_TRUE(c.startpos);
  EXPECT_TRUE(c.moves.empty());
  c = parseOk("position startpos moves X@a1 a1b2");
  EXPECT_EQ(c.moves, (std::vector<std::string>{"X@a1", "a1b2"}));
  c = parseOk("position fen [sL]2/1M1/3   2 moves S@c1");
  EXPECT_FALSE(c.startpos);
  EXPECT_EQ(c.positionText, "[sL]2/1M1/3 2");
  EXPECT_EQ(c.moves, std::vector<std::string>{"S@c1"});
  c = parseOk("position fen 4/4/4/4 1");
  EXPECT_EQ(c.positionText, "4/4/4/4 1");
  EXPECT_TRUE(c.moves.empty());
  EXPECT_NE(parseError("position").find("startpos"), std::string::npos);
  EXPECT_NE(parseError("position fen").find("missing"), std::string::npos);
  EXPECT_NE(parseError("position fen moves a1b1").find("missing"), std::string::npos);
  EXPECT_NE(parseError("position startpos X@a1").find("'X@a1'"), std::string::npos);
  EXPECT_NE(parseError("position somewhere").find("'somewhere'"), std::string::npos);
}

TEST(ProtocolCommand, GoLimitsWithUgiAndUciNames) {
  Command c = parseOk("go p1time 1000 p2time 2000 p1inc 10 p2inc 20 movestogo 5");
  EXPECT_EQ(c.limits.time[0], 1000);
  EXPECT_EQ(c.limits.time[1], 2000);
  EXPECT_EQ(c.limits.inc[0], 10);
  EXPECT_EQ(c.limits.inc[1], 20);
  EXPECT_EQ(c.limits.movesToGo, 5);
  c = parseOk("go wtime 3 btime 4 winc 5 binc 6");
  EXPECT_EQ(c.limits.time[0], 3);
  EXPECT_EQ(c.limits.time[1], 4);
  EXPECT_EQ(c.limits.inc[0], 5);
  EXPECT_EQ(c.limits.inc[1], 6);
  c = parseOk("go movetime 250 depth 7 nodes 100000 mate 3");
  EXPECT_EQ(c.limits.moveTime, 250);
  EXPECT_EQ(c.limits.depth, 7);
  EXPECT_EQ(c.limits.nodes, 100000u);
  EXPECT_EQ(c.limits.mate, 3);
  c = parseOk("go infinite");
  EXPECT_TRUE(c.limits.infinite);
  c = parseOk("GO PONDER wtime 100");
  EXPECT_TRUE(c.limits.ponder);
  c = parseOk("go wtime -50");  // a flagged clock: zero, not an error
  EXPECT_EQ(c.limits.time[0], 0);
  c = parseOk("go");
  EXPECT_EQ(c.limits.depth, 0);
  EXPECT_EQ(c.limits.time[0], -1);
}

TEST(ProtocolCommand, GoErrors) {
  EXPECT_NE(parseError("go depth").find("needs a value"), std::string::npos);
  EXPECT_NE(parseError("go depth x").find("'x'"), std::string::npos);
  EXPECT_NE(parseError("go depth 0").find("out of range"), std::string::npos);
  EXPECT_NE(parseError("go depth 5000").find("out of range"), std::string::npos);
  EXPECT_NE(parseError("go nodes 99999999999999999999999").find("out of range"), std::string::npos);
  EXPECT_NE(parseError("go movetime -1").find("out of range"), std::string::npos);
  EXPECT_NE(parseError("go depth 3 depth 4").find("twice"), std::string::npos);
  EXPECT_NE(parseError("go wtime 1 p1time 2").find("twice"), std::string::npos);
  EXPECT_NE(parseError("go fast").find("'fast'"), std::string::npos);
  EXPECT_NE(parseError("go searchmoves X@a1").find("not supported"), std::string::npos);
  EXPECT_NE(parseError("go depth 3x").find("'3x'"), std::string::npos);
}

TEST(ProtocolCommand, PerftBenchAuth) {
  EXPECT_EQ(parseOk("perft 3").depth, 3);
  EXPECT_EQ(parseOk("perft 0").depth, 0);
  parseError("perft");
  parseError("perft -1");
  parseError("perft 65");
  EXPECT_EQ(parseOk("bench").depth, 0);
  EXPECT_EQ(parseOk("bench 4").depth, 4);
  parseError("bench 0");
  EXPECT_EQ(parseOk("auth s3cret").token, "s3cret");
  parseError("auth");
  parseError("auth a b");
}

TEST(ProtocolLineBuffer, SplitsAcrossFeedsAndCapsLongLines) {
  LineBuffer buffer(8);
  std::vector<std::string> lines;
  const LineBuffer::OnLine collect = [&](std::string_view line, bool overlong) {
    lines.push_back(overlong ? "<overlong>" : std::string(line));
    return true;
  };
  buffer.feed("ab", collect);
  buffer.feed("c\nde", collect);
  buffer.feed("f\n\n", collect);
  EXPECT_EQ(lines, (std::vector<std::string>{"abc", "def", ""}));
  lines.clear();
  // 8 bytes fit; 9 do not; the rest of a long line is skipped wherever it ends.
  buffer.feed("12345678\n123456789", collect);
  buffer.feed("0123456789", collect);
  buffer.feed("xyz\nok\r\n", collect);
  EXPECT_EQ(lines, (std::vector<std::string>{"12345678", "<overlong>", "ok\r"}));
  lines.clear();
  buffer.feed("tail", collect);
  EXPECT_TRUE(lines.empty());
  buffer.finish(collect);
  EXPECT_EQ(lines, std::vector<std::string>{"tail"});
}

TEST(ProtocolLineBuffer, CallbackCanStopTheFeed) {
  LineBuffer buffer;
  std::vector<std::string> lines;
  const bool finished = buffer.feed("a\nquit\nb\n", [&](std::string_view line, bool) {
    lines.emplace_back(line);
    return line != "quit";
  });
  EXPECT_FALSE(finished);
  EXPECT_EQ(lines, (std::vector<std::string>{"a", "quit"}));
}

TEST(ProtocolOptions, ValidValuesApplyBadOnesChangeNothing) {
  EngineOptions o;
  OptionLimits limits;
  limits.maxHashMiB = 64;
  OptionId id;
  ASSERT_TRUE(setOption(o, limits, "hash", "32", true, &id).ok());
  EXPECT_EQ(id, OptionId::kHash);
  EXPECT_EQ(o.hashMiB, 32);
  const EngineOptions before = o;
  for (const auto& [name, value] : std::vector<std::pair<std::string, std::string>>{
           {"Hash", "65"}, {"Hash", "0"}, {"Hash", "ten"}, {"Hash", "1e3"}, {"Threads", "0"},
           {"Variant", "chess"}, {"Variant", "3x3:4,2,1"}, {"MultiPV", "0"}, {"MultiPV", "257"},
           {"MoveOverhead", "-1"}, {"Ponder", "maybe"}, {"Colour", "blue"}}) {
    auto st = setOption(o, limits, name, value, true, &id);
    EXPECT_FALSE(st.ok()) << name << "=" << value;
    EXPECT_EQ(o.hashMiB, before.hashMiB);
    EXPECT_EQ(o.threads, before.threads);
    EXPECT_EQ(o.variant, before.variant);
    EXPECT_EQ(o.multiPv, before.multiPv);
  }
  EXPECT_FALSE(setOption(o, limits, "Hash", "", false, &id).ok());
  ASSERT_TRUE(setOption(o, limits, "VARIANT", "3x3:2,3,0", true, &id).ok());
  EXPECT_EQ(o.variant, Variant::family(2, 3, false));
  ASSERT_TRUE(setOption(o, limits, "TablebasePath", "<empty>", true, &id).ok());
  EXPECT_EQ(o.tablebasePath, "");
  limits.tablebasePathSettable = false;
  EXPECT_FALSE(setOption(o, limits, "TablebasePath", "/etc/passwd", true, &id).ok());
}

TEST(ProtocolOptions, DescriptionsFollowTheLimits) {
  OptionLimits limits;
  limits.maxHashMiB = 8;
  limits.maxThreads = 2;
  const auto lines = optionDescriptions(limits);
  bool hash = false, threads = false, tb = false;
  for (const std::string& l : lines) {
    hash |= l == "option name Hash type spin default 8 min 1 max 8";
    threads |= l == "option name Threads type spin default 1 min 1 max 2";
    tb |= l.find("TablebasePath") != std::string::npos;
  }
  EXPECT_TRUE(hash && threads && tb);
  limits.tablebasePathSettable = false;
  for (const std::string& l : optionDescriptions(limits)) EXPECT_EQ(l.find("TablebasePath"), std::string::npos);
}

}  // namespace
}  // namespace gobblet
