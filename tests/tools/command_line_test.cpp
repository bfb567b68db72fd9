// The command-line parser (tools/command_line): a program's declarations
// read against argument lists, the help text made from them, and every
// real program's --help, --version and usage error.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <system_error>
#include <vector>

#include "engine/version.h"
#include "tests/support/shell_command.h"
#include "tools/command_line/command_line.h"
#include "tests/support/paths.h"

namespace gobblet::cli {
namespace {

using Words = std::vector<std::string>;

// A program with one option of every kind and three positionals.
Program demo() {
  Program p;
  p.name = "demo";
  p.summary = "Does what a test needs.";
  p.syntax.options = {
      flag("--quiet", "no progress lines"),
      text("--out", "FILE", "where the result goes"),
      choice("--proto", {"ugi", "uci"}, "the dialogue").withDefault("ugi"),
      integer("--games", "N", 1, 100, "games to play").withDefault(2),
      integer("--seed", "S", 0, std::numeric_limits<int64_t>::max(), "seed of the openings"),
      words("--engine", "KEY=VALUE...", "an engine's settings").repeated(),
      text("--param", "NAME=VALUE", "a tuning value").repeated(),
  };
  p.syntax.positionals = {integerPositional("DEPTH", 0, 9, "plies"), positional("FILE", "a record file"),
                          positionals("MORE", "more words").withDefault("none")};
  p.syntax.positionals.back().minCount = 0;
  return p;
}

// A program with commands, like gobblet-tb.
Program withCommands() {
  Program p;
  p.name = "tool";
  p.summary = "Builds and probes.";
  p.commands = {
      {"build",
       "builds a file",
       {{integer("--threads", "N", 1, 8, "threads")}, {optionalPositional("VARIANT", "which")}}},
      {"probe", "probes a file", {{}, {positional("FILE", "the file"), positionals("POSITION", "where")}}},
  };
  return p;
}

// Every line of `text` fits in 79 columns.
void expectLinesFit(const std::string& text) {
  for (size_t start = 0, end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
    EXPECT_LE(end - start, 79u) << text.substr(start, end - start);
}

Arguments run(const Program& program, const Words& words) {
  auto request = readCommandLine(program, words);
  EXPECT_TRUE(request.ok()) << request.status();
  if (!request.ok() || request->kind != Request::Kind::kRun) return Arguments("", program.syntax, {});
  return *request->arguments;
}

// The one-line error `words` give.
std::string error(const Program& program, const Words& words) {
  auto request = readCommandLine(program, words);
  EXPECT_FALSE(request.ok()) << ::testing::PrintToString(words);
  return request.ok() ? "" : std::string(request.status().message());
}

TEST(CommandLine, ReadsOptionsOfEveryKindAndPositionals) {
  const Arguments a =
      run(demo(), {"--quiet", "3", "--out", "x.txt", "--proto", "uci", "file", "--games", "7", "a", "b"});
  EXPECT_EQ(a.command(), "");
  EXPECT_TRUE(a.has("--quiet"));
  EXPECT_FALSE(a.has("--seed"));
  EXPECT_EQ(a.text("--out"), "x.txt");
  EXPECT_EQ(a.text("--proto"), "uci");
  EXPECT_EQ(a.integer("--games"), 7);
  EXPECT_EQ(a.integer("--seed"), 0) << "not given, no default";
  EXPECT_EQ(a.text("--param"), "");
  EXPECT_EQ(a.integer("DEPTH"), 3);
  EXPECT_EQ(a.text("FILE"), "file");
  EXPECT_EQ(a.all("MORE"), (Words{"a", "b"}));
  ASSERT_EQ(a.inOrder().size(), 8u);
  EXPECT_EQ(a.inOrder()[1].name, "DEPTH");
  EXPECT_EQ(a.inOrder()[3].name, "--proto");
}

TEST(CommandLine, RepeatedOptionsKeepEveryOccurrenceAndTheLastWins) {
  const Arguments a = run(demo(), {"0", "f", "--games", "3", "--param", "a=1", "--engine", "cmd=x", "name=y", "--games",
                                   "4", "--param", "b=2", "--engine", "--engine", "cmd=z", "-v", "g"});
  EXPECT_EQ(a.integer("--games"), 4);
  EXPECT_EQ(a.text("--param"), "b=2");
  EXPECT_EQ(a.all("--param"), (Words{"a=1", "b=2"}));
  // Each --engine takes the words up to the next "--" word, maybe none.
  EXPECT_EQ(a.occurrences("--engine"), (std::vector<Words>{{"cmd=x", "name=y"}, {}, {"cmd=z", "-v", "g"}}));
  EXPECT_EQ(a.all("MORE"), Words{}) << "the words after --engine are its own";
}

TEST(CommandLine, WhatIsNotGivenHasItsDeclaredDefault) {
  const Arguments a = run(demo(), {"0", "f"});
  EXPECT_EQ(a.integer("--games"), 2);
  EXPECT_EQ(a.text("--proto"), "ugi");
  EXPECT_EQ(a.text("MORE"), "none");
  EXPECT_EQ(a.all("MORE"), Words{}) << "all() is what was given";
  EXPECT_FALSE(a.has("--games"));
  EXPECT_EQ(a.text("--out"), "") << "no default";
}

TEST(CommandLine, UnknownOptionsAreErrors) {
  EXPECT_EQ(error(demo(), {"0", "f", "--frobnicate"}), "unknown option '--frobnicate' (demo --help lists the options)");
  EXPECT_EQ(error(demo(), {"-x"}), "unknown option '-x' (demo --help lists the options)");
  // What is echoed is printable.
  EXPECT_EQ(error(demo(), {"--\x1b[31m"}), "unknown option '--\\x1b[31m' (demo --help lists the options)");
}

TEST(CommandLine, MissingValuesAreErrors) {
  EXPECT_EQ(error(demo(), {"0", "f", "--out"}), "--out needs FILE after it");
  EXPECT_EQ(error(demo(), {"0", "f", "--games"}), "--games needs N after it");
  EXPECT_EQ(error(demo(), {"0", "f", "--proto"}), "--proto needs ugi|uci after it");
  // A value is the next word, whatever it is.
  EXPECT_EQ(run(demo(), {"0", "f", "--out", "--quiet"}).text("--out"), "--quiet");
}

TEST(CommandLine, NumbersOutOfRangeOrNotNumbersAreErrors) {
  EXPECT_EQ(error(demo(), {"0", "f", "--games", "0"}), "--games '0' is out of range [1, 100]");
  EXPECT_EQ(error(demo(), {"0", "f", "--games", "101"}), "--games '101' is out of range [1, 100]");
  EXPECT_EQ(error(demo(), {"0", "f", "--games", "7x"}), "--games '7x' is not an integer");
  EXPECT_EQ(error(demo(), {"0", "f", "--seed", "-1"}), "--seed '-1' is out of range [0, 9223372036854775807]");
  EXPECT_EQ(error(demo(), {"10", "f"}), "DEPTH '10' is out of range [0, 9]");
  EXPECT_EQ(error(demo(), {"deep", "f"}), "DEPTH 'deep' is not an integer");
  EXPECT_EQ(run(demo(), {"0", "f", "--seed", "9223372036854775807"}).integer("--seed"),
            std::numeric_limits<int64_t>::max());
}

TEST(CommandLine, ChoicesAreChecked) {
  EXPECT_EQ(error(demo(), {"0", "f", "--proto", "xyz"}), "--proto must be ugi or uci, not 'xyz'");
}

TEST(CommandLine, PositionalsAreCountedAndDashesEndTheOptions) {
  EXPECT_EQ(error(demo(), {}), "missing DEPTH");
  EXPECT_EQ(error(demo(), {"1", "--quiet"}), "missing FILE");
  EXPECT_EQ(run(demo(), {"1", "f"}).all("MORE"), Words{}) << "MORE is optional";
  EXPECT_EQ(run(demo(), {"1", "--", "-f", "--quiet"}).all("MORE"), Words{"--quiet"});
  EXPECT_EQ(run(demo(), {"1", "--", "-f"}).text("FILE"), "-f");
  EXPECT_EQ(run(demo(), {"1", "-", "-"}).all("MORE"), Words{"-"}) << "'-' alone is a word, not an option";

  Program one;
  one.name = "one";
  one.syntax.positionals = {integerPositional("DEPTH", 1, 64, "plies", /*optional=*/true)};
  EXPECT_EQ(run(one, {}).integer("DEPTH"), 0);
  EXPECT_EQ(run(one, {"5"}).integer("DEPTH"), 5);
  EXPECT_EQ(error(one, {"5", "6"}), "unexpected argument '6'");
}

TEST(CommandLine, HelpAndVersionComeFirstWhereverTheyAre) {
  for (const Words& words :
       {Words{"--help"}, Words{"-h"}, Words{"0", "--games", "5", "--help"}, Words{"--engine", "cmd=x", "--help"}}) {
    auto request = readCommandLine(demo(), words);
    ASSERT_TRUE(request.ok()) << request.status();
    EXPECT_EQ(request->kind, Request::Kind::kHelp) << ::testing::PrintToString(words);
  }
  auto version = readCommandLine(demo(), {"--version", "--frobnicate"});
  ASSERT_TRUE(version.ok());
  EXPECT_EQ(version->kind, Request::Kind::kVersion);
  EXPECT_FALSE(readCommandLine(demo(), {"--frobnicate", "--help"}).ok()) << "an error before --help stands";
  EXPECT_EQ(versionText(demo()), std::string("demo ") + versionNumber() + " (" + instructionSet() + ")\n");
}

TEST(CommandLine, HelpNamesEveryOptionAndPositional) {
  const Program program = demo();
  const std::string help = helpText(program);
  EXPECT_EQ(help.rfind("usage: demo DEPTH FILE [MORE...] [options]\n\nDoes what a test needs.\n", 0), 0u) << help;
  for (const Option& o : program.syntax.options) {
    EXPECT_NE(help.find("  " + o.name + (o.placeholder.empty() ? "" : " " + o.placeholder)), std::string::npos)
        << o.name << "\n"
        << help;
    EXPECT_NE(help.find(o.help), std::string::npos) << o.name << "\n" << help;
  }
  for (const Positional& p : program.syntax.positionals) EXPECT_NE(help.find(p.help), std::string::npos) << help;
  EXPECT_NE(help.find("games to play (default 2, 1..100)"), std::string::npos) << help;
  EXPECT_NE(help.find("the dialogue (default ugi)"), std::string::npos) << help;
  EXPECT_NE(help.find("more words (default none)"), std::string::npos) << help;
  EXPECT_NE(help.find("seed of the openings (at least 0)"), std::string::npos) << help;
  EXPECT_NE(help.find("a tuning value (repeatable)"), std::string::npos) << help;
  EXPECT_NE(help.find("plies (0..9)"), std::string::npos) << help;
  EXPECT_NE(help.find("--proto ugi|uci"), std::string::npos) << help;
  EXPECT_NE(help.find("-h, --help"), std::string::npos) << help;
  EXPECT_NE(help.find("--version"), std::string::npos) << help;
  expectLinesFit(help);

  // Few options are spelled in the usage line.
  Program small;
  small.name = "small";
  small.syntax.options = {text("--out", "FILE", "where"), text("--param", "NAME=VALUE", "a value").repeated()};
  small.syntax.positionals = {optionalPositional("VARIANT", "which")};
  EXPECT_EQ(helpText(small).rfind("usage: small [VARIANT] [--out FILE] [--param NAME=VALUE]...\n", 0), 0u)
      << helpText(small);
}

TEST(CommandLine, CommandsHaveTheirOwnSyntaxAndHelp) {
  const Program program = withCommands();
  const Arguments build = run(program, {"build", "--threads", "3", "gobblers"});
  EXPECT_EQ(build.command(), "build");
  EXPECT_EQ(build.integer("--threads"), 3);
  EXPECT_EQ(build.text("VARIANT"), "gobblers");
  const Arguments probe = run(program, {"probe", "f.gtb", "3/3/3", "1"});
  EXPECT_EQ(probe.all("POSITION"), (Words{"3/3/3", "1"}));

  EXPECT_EQ(error(program, {}), "missing COMMAND: build or probe");
  EXPECT_EQ(error(program, {"solve"}), "unknown command 'solve' (the commands: build or probe)");
  EXPECT_EQ(error(program, {"probe", "f.gtb", "--threads", "2"}),
            "unknown option '--threads' (tool probe --help lists the options)");
  EXPECT_EQ(error(program, {"build", "--threads", "9"}), "--threads '9' is out of range [1, 8]");

  auto help = readCommandLine(program, {"build", "--help"});
  ASSERT_TRUE(help.ok());
  EXPECT_EQ(help->kind, Request::Kind::kHelp);
  EXPECT_EQ(help->command, "build");
  const std::string buildHelp = helpText(program, "build");
  EXPECT_EQ(buildHelp.rfind("usage: tool build [VARIANT] [--threads N]\n\nbuilds a file\n", 0), 0u) << buildHelp;
  const std::string all = helpText(program);
  EXPECT_EQ(all.rfind("usage: tool build [VARIANT] [--threads N]\n       tool probe FILE POSITION...\n", 0), 0u) << all;
  EXPECT_NE(all.find("probes a file"), std::string::npos) << all;
}

TEST(CommandLine, UsageErrorIsOneLineWithTheProgramsPrefix) {
  Program program = demo();
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(usageError(program, "bad\nthing"), 2);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "error: bad\\x0athing\n");
  program.errorPrefix = "demo: ";
  ::testing::internal::CaptureStderr();
  usageError(program, "bad");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "demo: bad\n");
}

// runMain over `words` (argv without the program's name): its exit status,
// what it wrote on standard output and on standard error, and whether the
// body ran.
struct MainRun {
  int status = -1;
  std::string out, err;
  bool ran = false;
};
MainRun runMainOn(const Program& program, const Words& words, const MainBody& body, MainOptions options = {}) {
  std::vector<std::string> argvWords{program.name};
  argvWords.insert(argvWords.end(), words.begin(), words.end());
  std::vector<char*> argv;
  for (std::string& w : argvWords) argv.push_back(w.data());
  argv.push_back(nullptr);
  MainRun r;
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  r.status = runMain(
      program, static_cast<int>(argvWords.size()), argv.data(),
      [&](const Arguments& args, const UsageFn& usage) {
        r.ran = true;
        return body(args, usage);
      },
      options);
  r.out = ::testing::internal::GetCapturedStdout();
  r.err = ::testing::internal::GetCapturedStderr();
  return r;
}

// runMain answers --help, --version and usage errors without running the
// body, and otherwise returns the body's status; the body's usage function
// writes the program's error line and returns 2.
TEST(CommandLine, RunMainAnswersTheCommandLineThenRunsTheBody) {
  const Program program = demo();
  const MainBody seven = [](const Arguments& args, const UsageFn&) { return args.integer("DEPTH") == 3 ? 7 : 1; };
  MainRun r = runMainOn(program, {"--help"}, seven);
  EXPECT_EQ(r.status, 0);
  EXPECT_FALSE(r.ran);
  EXPECT_EQ(r.out, helpText(program));
  EXPECT_EQ(r.err, "");
  r = runMainOn(program, {"3", "f", "--version"}, seven);
  EXPECT_EQ(r.status, 0);
  EXPECT_FALSE(r.ran);
  EXPECT_EQ(r.out, versionText(program));
  r = runMainOn(program, {"3", "f", "--games", "101"}, seven);
  EXPECT_EQ(r.status, 2);
  EXPECT_FALSE(r.ran);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("101"), std::string::npos) << r.err;
  r = runMainOn(program, {"3", "f"}, seven);
  EXPECT_TRUE(r.ran);
  EXPECT_EQ(r.status, 7);
  EXPECT_EQ(r.out + r.err, "");
  r = runMainOn(program, {"3", "f"}, [](const Arguments&, const UsageFn& usage) { return usage("no such file"); });
  EXPECT_TRUE(r.ran);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "error: no such file\n");
}

// What the body does not handle (the system refused a thread, or memory)
// ends the program with its message and status 1, not with an abort.
TEST(CommandLine, RunMainReportsWhatTheBodyThrew) {
  const Program program = demo();
  MainRun r = runMainOn(program, {"3", "f"}, [](const Arguments&, const UsageFn&) -> int {
    throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
  });
  EXPECT_TRUE(r.ran);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind("error: cannot go on: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("Resource temporarily unavailable"), std::string::npos) << r.err;
}

// With quietErrors (an MPI rank other than 0) the usage errors write
// nothing and still exit with status 2; help and version are unchanged.
TEST(CommandLine, RunMainQuietErrorsWriteNothing) {
  const Program program = demo();
  MainOptions quiet;
  quiet.quietErrors = true;
  const MainBody refuse = [](const Arguments&, const UsageFn& usage) { return usage("no such file"); };
  MainRun r = runMainOn(program, {"3", "f", "--no-such-option"}, refuse, quiet);
  EXPECT_EQ(r.status, 2);
  EXPECT_FALSE(r.ran);
  EXPECT_EQ(r.out + r.err, "");
  r = runMainOn(program, {"3", "f"}, refuse, quiet);
  EXPECT_TRUE(r.ran);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out + r.err, "");
  r = runMainOn(program, {"--version"}, refuse, quiet);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, versionText(program));
}

TEST(CommandLineDeathTest, AskingForAnUndeclaredNameIsAProgrammingError) {
  const Arguments a = run(demo(), {"0", "f"});
  EXPECT_DEATH(a.has("--qiuet"), "'--qiuet' is not a declared option");
}

// Every program answers --help and --version on standard output with exit
// status 0, naming itself, and an unknown option with one line on standard
// error and exit status 2.
TEST(CommandLinePrograms, EveryProgramHasHelpAndVersion) {
  for (const std::string program : {"gobblet", "gobblet-tb", "gobblet-match", "gobblet-perft", "gobblet-bench",
                                    "gobblet-tune", "gobblet-strength", "gobblet-datagen", "gobblet-puzzles"}) {
    const std::string path = gobblet::testing::binDir() + "/" + program;
    const testing::CommandResult help = testing::runCommand(path + " --help 2>/dev/null");
    EXPECT_EQ(help.exitCode, 0) << program;
    EXPECT_EQ(help.output.rfind("usage: " + program + " ", 0), 0u) << help.output;
    expectLinesFit(help.output);
    const testing::CommandResult version = testing::runCommand(path + " --version 2>/dev/null");
    EXPECT_EQ(version.exitCode, 0) << program;
    EXPECT_EQ(version.output, program + " " + versionNumber() + " (" + instructionSet() + ")\n");
    const testing::CommandResult wrong = testing::runCommand(path + " --no-such-option 2>&1 >/dev/null");
    EXPECT_EQ(wrong.exitCode, 2) << program;
    EXPECT_NE(wrong.output.find("'--no-such-option'"), std::string::npos) << wrong.output;
    EXPECT_EQ(wrong.output.find('\n'), wrong.output.size() - 1) << "one line:\n" << wrong.output;
  }
  // Under an MPI launcher, gobblet-match's ranks other than 0 leave the
  // report to rank 0: the same status, nothing on standard error.
  const std::string match = gobblet::testing::binDir() + "/gobblet-match --no-such-option 2>&1";
  const testing::CommandResult rank1 = testing::runCommand("OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=1 " + match);
  EXPECT_EQ(rank1.exitCode, 2);
  EXPECT_EQ(rank1.output, "");
  const testing::CommandResult rank0 = testing::runCommand("OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=0 " + match);
  EXPECT_EQ(rank0.exitCode, 2);
  EXPECT_NE(rank0.output.find("'--no-such-option'"), std::string::npos) << rank0.output;
  const testing::CommandResult build = testing::runCommand(gobblet::testing::binDir() + "/gobblet-tb build --help");
  EXPECT_EQ(build.exitCode, 0);
  EXPECT_EQ(build.output.rfind("usage: gobblet-tb build ", 0), 0u) << build.output;
  EXPECT_NE(build.output.find("--codes-dir DIR"), std::string::npos) << build.output;
}

}  // namespace
}  // namespace gobblet::cli
