// The command parser, its tables of words, the line splitter and the option
// table, in-process.
#include <gtest/gtest.h>

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "protocol/command.h"
#include "protocol/engine_options.h"
#include "protocol/session.h"
#include "tablebase/tablebase.h"
#include "tests/support/scratch_dir.h"

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
  EXPECT_EQ(parseOk("query reason").query, QueryKind::kReason);
  EXPECT_EQ(parseOk("moves").kind, CommandKind::kMoves);
  EXPECT_EQ(parseOk("eval").kind, CommandKind::kEval);
  EXPECT_EQ(parseOk("").kind, CommandKind::kEmpty);
  EXPECT_EQ(parseOk(" \t \r").kind, CommandKind::kEmpty);
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
  EXPECT_NE(msg.find("'\\x01\\xff\\x00z'"), std::string::npos) << msg;
  for (char c : msg) EXPECT_TRUE(c >= 0x20 && c < 0x7f) << msg;
  EXPECT_EQ(quoteWord(std::string(100, 'a')), "'" + std::string(48, 'a') + "...'");
  EXPECT_EQ(quoteWord("it's"), "'it\\x27s'");
}

// Control characters inside a line's words refuse the whole line (issue 25,
// item 2): before, `go\vinfinite` ran `go infinite`, and NUL, ESC, BEL or
// DEL inside a move or option value went on to the session.
TEST(ProtocolCommand, ControlCharactersInsideWordsRefuseTheLine) {
  for (const std::string& line :
       {std::string("go\vinfinite"), std::string("go\finfinite"), std::string("position startpos moves X@a1\x1b[2J"),
        std::string("setoption name Hash value 1") + '\0', std::string("position fen x\x7f"),
        std::string("isready\nquit"), std::string("auth to\x07ken"), std::string("\x01"),
        std::string("go\rinfinite")}) {
    const std::string msg = parseError(line);
    EXPECT_NE(msg.find("control character"), std::string::npos) << msg;
    for (char c : msg) EXPECT_TRUE(c >= 0x20 && c < 0x7f) << msg;
  }
  // Spaces and tabs separate words, carriage returns end a line; other
  // bytes (UTF-8 in an option value) are not control characters.
  EXPECT_EQ(parseOk("go\tdepth  3\r").limits.depth, 3);
  EXPECT_EQ(parseOk("isready\r\r").kind, CommandKind::kIsReady);
  EXPECT_EQ(parseOk("setoption name TablebasePath value /tmp/caf\xc3\xa9").optionValue, "/tmp/caf\xc3\xa9");
}

// The whole-message cleaner the session applies to every error line.
TEST(ProtocolCommand, PrintableTextEscapesAndCutsWithoutSplittingAnEscape) {
  EXPECT_EQ(printableText("a'b\\c", 20), "a'b\\c");  // quotes and backslashes pass as they are
  EXPECT_EQ(printableText(std::string("x\x1b[2J\xff\x00", 7), 100), "x\\x1b[2J\\xff\\x00");
  EXPECT_EQ(printableText("abcdefghij", 10), "abcdefghij");  // fits exactly: not cut
  EXPECT_EQ(printableText("abcdefghijk", 10), "abcdefg...");
  // "ab" then an escape that would not fit before the "...": cut before it.
  EXPECT_EQ(printableText("ab\xff"
                          "cdefgh",
                          8),
            "ab...");
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
  EXPECT_FALSE(c.prove);
}

// `go prove`: the prover, with the limits it can spend.
TEST(ProtocolCommand, GoProve) {
  Command c = parseOk("go prove movetime 1500 nodes 300");
  EXPECT_TRUE(c.prove);
  EXPECT_EQ(c.limits.moveTime, 1500);
  EXPECT_EQ(c.limits.nodes, 300u);
  EXPECT_TRUE(parseOk("GO INFINITE PROVE").prove);
  EXPECT_EQ(parseError("go prove depth 3"), "go prove: 'depth' does not apply (movetime, nodes or infinite do)");
  EXPECT_EQ(parseError("go wtime 10 prove"), "go prove: 'p1time' does not apply (movetime, nodes or infinite do)");
  EXPECT_NE(parseError("go prove prove").find("given twice"), std::string::npos);
}

TEST(ProtocolCommand, GoErrors) {
  EXPECT_NE(parseError("go depth").find("needs a value"), std::string::npos);
  EXPECT_NE(parseError("go depth x").find("'x'"), std::string::npos);
  EXPECT_EQ(parseOk("go depth 0").limits.depth, 1);  // UGI: depth >= 0; one ply is the least that yields a move
  EXPECT_NE(parseError("go depth -1").find("out of range"), std::string::npos);
  EXPECT_NE(parseError("go depth 5000").find("out of range"), std::string::npos);
  EXPECT_NE(parseError("go nodes 99999999999999999999999").find("out of range"), std::string::npos);
  EXPECT_NE(parseError("go movetime -1").find("out of range"), std::string::npos);
  EXPECT_NE(parseError("go depth 3 depth 4").find("twice"), std::string::npos);
  EXPECT_NE(parseError("go wtime 1 p1time 2").find("twice"), std::string::npos);
  EXPECT_NE(parseError("go fast").find("'fast'"), std::string::npos);
  EXPECT_NE(parseError("go searchmoves X@a1").find("not supported"), std::string::npos);
  EXPECT_NE(parseError("go depth 3x").find("'3x'"), std::string::npos);
}

// Every field of the limits (and `go prove`'s switch), to tell two apart.
std::string limitsText(const Command& c) {
  const SearchLimits& l = c.limits;
  return absl::StrCat("prove ", c.prove, " ", "time ", l.time[0], " ", l.time[1], " inc ", l.inc[0], " ", l.inc[1],
                      " movestogo ", l.movesToGo, " movetime ", l.moveTime, " depth ", l.depth, " nodes ", l.nodes,
                      " mate ", l.mate, " infinite ", l.infinite, " ponder ", l.ponder);
}

// Every word of kGoKeywords parses, in any case, under both its spellings
// alike, sets a field no other limit sets, takes exactly its bounds, and is
// refused when given twice (under either spelling).
TEST(ProtocolCommand, EveryGoKeywordParses) {
  const std::string unset = limitsText(Command{});
  std::vector<std::string> setBy;  // the limits each keyword's largest value makes
  for (const GoKeyword& k : kGoKeywords) {
    std::vector<std::string> spellings{std::string(k.word), absl::AsciiStrToUpper(std::string(k.word))};
    if (!k.uciWord.empty()) spellings.emplace_back(k.uciWord);
    const std::string value = k.takesValue ? absl::StrCat(" ", k.max) : "";
    const std::string expected = limitsText(parseOk("go " + std::string(k.word) + value));
    EXPECT_NE(expected, unset) << k.word;
    for (const std::string& spelling : spellings) {
      EXPECT_EQ(limitsText(parseOk("go " + spelling + value)), expected) << spelling;
      for (const std::string& again : spellings)
        EXPECT_NE(parseError("go " + spelling + value + " " + again + value).find("twice"), std::string::npos)
            << spelling << " " << again;
      if (!k.takesValue) continue;
      parseOk(absl::StrCat("go ", spelling, " ", k.min));
      EXPECT_NE(parseError("go " + spelling).find("needs a value"), std::string::npos) << spelling;
      EXPECT_NE(parseError(absl::StrCat("go ", spelling, " ", k.min - 1)).find("out of range"), std::string::npos)
          << spelling;
      EXPECT_NE(parseError(absl::StrCat("go ", spelling, " ", k.max, "0")).find("out of range"), std::string::npos)
          << spelling;
    }
    EXPECT_EQ(std::count(setBy.begin(), setBy.end(), expected), 0) << k.word << " sets what another keyword sets";
    setBy.push_back(expected);
  }
  // Together, in one line: each keeps its own field (`prove` takes only a few).
  std::string all = "go";
  for (const GoKeyword& k : kGoKeywords) {
    if (k.limit == GoLimit::kProve) continue;
    absl::StrAppend(&all, " ", std::string(k.word));
    if (k.takesValue) absl::StrAppend(&all, " ", k.max);
  }
  const SearchLimits l = parseOk(all).limits;
  EXPECT_EQ(l.time[0], kMaxTimeMs);
  EXPECT_EQ(l.inc[1], kMaxTimeMs);
  EXPECT_EQ(l.depth, kMaxGoDepth);
  EXPECT_TRUE(l.infinite && l.ponder);
}

// Every question of kQueryKeywords parses, in any case, to its kind; each
// kind has one word, and the usage error lists them all.
TEST(ProtocolCommand, EveryQueryKeywordParses) {
  const std::string usage = parseError("query");
  std::vector<QueryKind> kinds;
  for (const QueryKeyword& q : kQueryKeywords) {
    const std::string word(q.word);
    EXPECT_EQ(parseOk("query " + word).kind, CommandKind::kQuery);
    EXPECT_EQ(parseOk("query " + word).query, q.kind) << word;
    EXPECT_EQ(parseOk("QUERY  " + absl::AsciiStrToUpper(word)).query, q.kind) << word;
    EXPECT_EQ(queryWord(q.kind), q.word);
    EXPECT_NE(usage.find("'" + word + "'"), std::string::npos) << usage;
    EXPECT_NE(parseError("query " + word + " now").find("'now'"), std::string::npos) << word;
    EXPECT_EQ(std::count(kinds.begin(), kinds.end(), q.kind), 0) << word;
    kinds.push_back(q.kind);
  }
  EXPECT_EQ(usage, "query expects 'gameover', 'p1turn', 'result', 'reason', 'fen', 'line', 'values', 'wdl' or 'proof'");
}

// The session answers every question of kQueryKeywords with one `response`
// line (tic-tac-toe with its tablebase, so that `query values` has values).
TEST(ProtocolSession, AnswersEveryQueryKeyword) {
  testing::ScratchDir dir("gobblet_query");
  const std::string file = dir.file("ttt.gtb");
  ASSERT_TRUE(tb::build(Variant::ticTacToe(), file, tb::BuildOptions{}).ok());
  std::vector<std::string> out;
  Session session([&](const std::string& line) { out.push_back(line); });
  session.handleLine("setoption name Variant value tictactoe");
  session.handleLine("setoption name TablebasePath value " + file);
  session.handleLine("isready");
  ASSERT_EQ(out.back(), "readyok") << absl::StrJoin(out, "\n");
  for (const char* moves : {"", " moves S@b2 S@a1", " moves S@a1 S@b1 S@a2 S@b2 S@a3"}) {
    session.handleLine(std::string("position startpos") + moves);
    for (const QueryKeyword& q : kQueryKeywords) {
      out.clear();
      session.handleLine("query " + std::string(q.word));
      ASSERT_EQ(out.size(), 1u) << q.word << moves << ": " << absl::StrJoin(out, "\n");
      EXPECT_EQ(out[0].rfind("response ", 0), 0u) << q.word << moves << ": " << out[0];
    }
  }
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

TEST(ProtocolOptions, ValidValuesApplyBadOnesChangeNothing) {
  EngineOptions o;
  OptionCaps caps;
  caps.maxHashMiB = 64;
  auto id = setOption(o, caps, "hash", "32", true);
  ASSERT_TRUE(id.ok());
  EXPECT_EQ(*id, OptionId::kHash);
  EXPECT_EQ(o.hashMiB, 32);
  const EngineOptions before = o;
  for (const auto& [name, value] : std::vector<std::pair<std::string, std::string>>{{"Hash", "65"},
                                                                                    {"Hash", "0"},
                                                                                    {"Hash", "ten"},
                                                                                    {"Hash", "1e3"},
                                                                                    {"Threads", "0"},
                                                                                    {"Variant", "chess"},
                                                                                    {"Variant", "3x3:4,2,1"},
                                                                                    {"MultiPV", "0"},
                                                                                    {"MultiPV", "257"},
                                                                                    {"MoveOverhead", "-1"},
                                                                                    {"Ponder", "maybe"},
                                                                                    {"Debug", "1"},
                                                                                    {"OwnBook", "true"},
                                                                                    {"Colour", "blue"}}) {
    auto st = setOption(o, caps, name, value, true);
    EXPECT_FALSE(st.ok()) << name << "=" << value;
    EXPECT_EQ(o.hashMiB, before.hashMiB);
    EXPECT_EQ(o.threads, before.threads);
    EXPECT_EQ(o.variant, before.variant);
    EXPECT_EQ(o.multiPv, before.multiPv);
    EXPECT_EQ(o.debug, before.debug);
  }
  EXPECT_FALSE(setOption(o, caps, "Hash", "", false).ok());
  ASSERT_TRUE(setOption(o, caps, "VARIANT", "3x3:2,3,0", true).ok());
  EXPECT_EQ(o.variant, Variant::family(2, 3, false));
  ASSERT_TRUE(setOption(o, caps, "TablebasePath", "<empty>", true).ok());
  EXPECT_EQ(o.tablebasePath, "");
  // What every controller sends by default (cutegames: debug, threads, hash, ownbook), in its spelling.
  EXPECT_TRUE(setOption(o, caps, "debug", "false", true).ok());
  EXPECT_TRUE(setOption(o, caps, "ownbook", "false", true).ok());
  EXPECT_TRUE(setOption(o, caps, "DEBUG", "True", true).ok());
  EXPECT_TRUE(o.debug);
  caps.tablebasePathSettable = false;
  EXPECT_FALSE(setOption(o, caps, "TablebasePath", "/etc/passwd", true).ok());
}

TEST(ProtocolOptions, DefaultsAreTheDeclaredOnes) {
  const EngineOptions o;
  EXPECT_EQ(o.hashMiB, declarationOf(OptionId::kHash).defaultValue);
  EXPECT_EQ(o.threads, declarationOf(OptionId::kThreads).defaultValue);
  EXPECT_EQ(o.multiPv, declarationOf(OptionId::kMultiPv).defaultValue);
  EXPECT_EQ(o.moveOverheadMs, declarationOf(OptionId::kMoveOverhead).defaultValue);
  EXPECT_EQ(o.variant, *Variant::parse(declarationOf(OptionId::kVariant).defaultText));
  EXPECT_FALSE(o.ponder);
  EXPECT_FALSE(o.debug);
  EXPECT_EQ(o.skillLevel, kMaxSkillLevel);
  EXPECT_EQ(o.playingLevel(), kMaxSkillLevel);
  for (const OptionDeclaration& d : kOptionTable) EXPECT_EQ(&declarationOf(d.id), &d) << d.name;
}

// optionText reads each option as setoption writes it: the defaults read
// as the table declares them, and a value set reads back as it was set
// (and setting what it reads changes nothing).
TEST(ProtocolOptions, EachOptionReadsBackAsItWasSet) {
  const OptionCaps caps;
  for (const OptionDeclaration& d : kOptionTable) {
    const std::string name(d.name);
    EngineOptions o;
    std::string declared;
    switch (d.type) {
      case OptionType::kSpin:
        declared = std::to_string(d.defaultValue);
        break;
      case OptionType::kCheck:
        declared = d.defaultValue ? "true" : "false";
        break;
      case OptionType::kCombo:
      case OptionType::kString:
        declared = std::string(d.defaultText);
        break;
    }
    EXPECT_EQ(optionText(o, d.id), declared) << name;
    std::string other;
    switch (d.type) {
      case OptionType::kSpin:
        other = std::to_string(d.defaultValue == d.min ? d.min + 1 : d.min);
        break;
      case OptionType::kCheck:
        other = d.id == OptionId::kOwnBook ? "false" : (d.defaultValue ? "false" : "true");
        break;
      case OptionType::kCombo:  // (its second choice: the default is the first)
        ASSERT_GE(comboChoices(d).size(), 2u) << name;
        EXPECT_EQ(comboChoices(d)[0], d.defaultText) << name;
        other = std::string(comboChoices(d)[1]);
        break;
      case OptionType::kString:
        other = "/tmp/some file";
        break;
    }
    ASSERT_TRUE(setOption(o, caps, name, other, true).ok()) << name << " " << other;
    EXPECT_EQ(optionText(o, d.id), other) << name;
    const EngineOptions before = o;
    ASSERT_TRUE(setOption(o, caps, name, optionText(o, d.id), true).ok()) << name;
    for (const OptionDeclaration& each : kOptionTable)
      EXPECT_EQ(optionText(o, each.id), optionText(before, each.id)) << name << " then " << each.name;
  }
}

// UCI_LimitStrength plays at the level of UCI_Elo, whatever Skill Level
// says: a measured level's Elo gives that level, an Elo between two measured
// ones a fractional level between them; without it, Skill Level.
TEST(ProtocolOptions, LimitStrengthPlaysTheLevelOfTheElo) {
  EngineOptions o;
  const OptionCaps caps;
  ASSERT_TRUE(setOption(o, caps, "Skill Level", "7", true).ok());
  EXPECT_EQ(o.playingLevel(), 7);
  ASSERT_TRUE(setOption(o, caps, "UCI_Elo", std::to_string(kSkillLevelElo[3]), true).ok());
  EXPECT_EQ(o.playingLevel(), 7) << "UCI_Elo alone changes nothing";
  ASSERT_TRUE(setOption(o, caps, "uci_limitstrength", "true", true).ok());
  for (int level = 0; level <= kMaxSkillLevel; ++level) {
    ASSERT_TRUE(setOption(o, caps, "UCI_Elo", std::to_string(kSkillLevelElo[level]), true).ok());
    EXPECT_EQ(o.playingLevel(), level);
    if (level == kMaxSkillLevel) break;
    ASSERT_TRUE(
        setOption(o, caps, "UCI_Elo", std::to_string((kSkillLevelElo[level] + kSkillLevelElo[level + 1]) / 2), true)
            .ok());
    EXPECT_GT(o.playingLevel(), level);
    EXPECT_LT(o.playingLevel(), level + 1);
  }
  ASSERT_TRUE(setOption(o, caps, "UCI_Elo", std::to_string(kSkillLevelElo[0]), true).ok());
  EXPECT_EQ(o.playingLevel(), 0);
  EXPECT_FALSE(setOption(o, caps, "UCI_Elo", std::to_string(kSkillLevelElo[0] - 1), true).ok());
}

// The handshake's option lines and the bounds setoption enforces both come
// from kOptionTable, under the session's caps: for every spin option the
// line shows [min, max] and setoption takes exactly that range.
TEST(ProtocolOptions, HandshakeAndSetoptionFollowOneTable) {
  for (const bool server : {false, true}) {
    SessionConfig config;
    if (server) {
      config.caps.maxHashMiB = 8;
      config.caps.maxThreads = 2;
      config.caps.tablebasePathSettable = false;
    }
    std::vector<std::string> out;
    Session session([&](const std::string& line) { out.push_back(line); }, config);
    session.handleLine("ugi");
    ASSERT_EQ(out.back(), "ugiok");
    std::vector<std::string> optionLines;
    for (const std::string& l : out)
      if (l.rfind("option ", 0) == 0) optionLines.push_back(l);
    size_t offeredCount = 0;
    for (const OptionDeclaration& d : kOptionTable) {
      const std::string name(d.name);
      const bool shown = std::any_of(optionLines.begin(), optionLines.end(), [&](const std::string& l) {
        return l.rfind("option name " + name + " type ", 0) == 0;
      });
      EXPECT_EQ(shown, offered(d, config.caps)) << name;
      offeredCount += offered(d, config.caps);
      if (d.type != OptionType::kSpin) continue;
      const int64_t max = cappedMax(d, config.caps);
      const std::string expected = "option name " + name + " type spin default " +
                                   std::to_string(std::min(d.defaultValue, max)) + " min " + std::to_string(d.min) +
                                   " max " + std::to_string(max);
      EXPECT_NE(std::find(optionLines.begin(), optionLines.end(), expected), optionLines.end()) << expected;
      if (d.id == OptionId::kHash) continue;  // allocating the maximum table is not a test of bounds
      for (const auto& [value, ok] :
           std::vector<std::pair<int64_t, bool>>{{d.min, true}, {max, true}, {d.min - 1, false}, {max + 1, false}}) {
        out.clear();
        session.handleLine("setoption name " + name + " value " + std::to_string(value));
        EXPECT_EQ(out.empty(), ok) << name << " " << value << (out.empty() ? "" : " -> " + out[0]);
      }
    }
    EXPECT_EQ(optionLines.size(), offeredCount);
    out.clear();
    session.handleLine("setoption name Hash value " +
                       std::to_string(cappedMax(declarationOf(OptionId::kHash), config.caps) + 1));
    EXPECT_EQ(out.size(), 1u);
  }
}

// The handshake lists the engine's variants as the Variant option's vars
// (a combo: front ends build their list from it), the default first.
TEST(ProtocolOptions, HandshakeListsEveryNamedVariant) {
  std::vector<std::string> out;
  Session session([&](const std::string& line) { out.push_back(line); });
  session.handleLine("ugi");
  std::string expected = "option name Variant type combo default gobblet";
  for (const NamedVariant& named : kNamedVariants) expected += " var " + std::string(named.name);
  EXPECT_NE(std::find(out.begin(), out.end(), expected), out.end()) << expected;
  EXPECT_EQ(declarationOf(OptionId::kVariant).defaultText, kNamedVariants[0].name);
}

// Whatever spelling of a variant a front end passes on (the browser board
// sends a PGN's [Variant] tag as written), the session reads it as
// Variant::parse does, and `d` names the variant it took.
TEST(ProtocolOptions, VariantTakesEveryNameAndAliasOfTheRegistry) {
  std::vector<std::string> out;
  Session session([&](const std::string& line) { out.push_back(line); });
  for (const NamedVariant& named : kNamedVariants) {
    std::vector<std::string> spellings{std::string(named.name), absl::AsciiStrToUpper(std::string(named.name))};
    for (std::string_view alias : named.aliases) spellings.emplace_back(alias);
    for (const std::string& spelling : spellings) {
      session.handleLine("setoption name Variant value 3x3:1,1,0");  // no named variant: a change to see
      out.clear();
      session.handleLine("setoption name Variant value " + spelling);
      EXPECT_TRUE(out.empty()) << spelling << ": " << absl::StrJoin(out, "\n");
      session.handleLine("d");
      EXPECT_NE(std::find(out.begin(), out.end(), "variant " + named.variant.name()), out.end())
          << spelling << ":\n"
          << absl::StrJoin(out, "\n");
    }
  }
}

}  // namespace
}  // namespace gobblet
