// The command line of a gobblet program, declared once as a table.
//
// A program describes what it accepts -- its options (name, value,
// help, bounds), its positional arguments and, for a program like
// gobblet-tb, its commands -- in a Program, and runMain() reads argv
// against that table. --help (usage text made from the table, on
// standard output), --version and usage errors (one line on standard error,
// exit status 2) are answered there, for every program alike; the program
// runs with the Arguments, already checked against the table (every option
// known, every value present, every number in its bounds, every positional
// there), and reports the errors only it can see with the usage function
// runMain() gives it (usageError()).
//
// The syntax, the same for every program:
//   --name VALUE      an option and its value (the next word, whatever it is)
//   --name            a switch
//   --name W1 W2 ...  an option of kWords: the words up to the next "--..."
//   WORD              a positional argument (a word not starting with '-')
//   --                every word after it is a positional argument
//   -h, --help        the usage text; --version the version line
// An option may be given again: the last value counts, and the ones that
// collect (--param, --engine) keep every occurrence, in order.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace gobblet::cli {

// What follows an option's name.
enum class OptionValue {
  kNone,     // nothing: a switch ("--quiet")
  kText,     // one word, any ("--out FILE")
  kChoice,   // one word of Option::choices ("--proto ugi|uci")
  kInteger,  // a whole number in [Option::min, Option::max] ("--games N")
  kWords,    // the words up to the next one starting with "--", maybe none ("--engine KEY=VALUE...")
};

struct Option {
  std::string name;  // "--games"
  OptionValue value = OptionValue::kNone;
  std::string placeholder;           // the value in the usage text: "N", "FILE" (kChoice: the choices joined by '|')
  std::string help;                  // what it does, one sentence (--help adds the default, the bounds, "repeatable")
  int64_t min = 0, max = 0;          // kInteger: the bounds, both allowed
  std::vector<std::string> choices;  // kChoice: the words allowed
  std::string defaultValue;          // the value when the option is not given, as it would be typed (empty: none)
  bool repeatable = false;           // every occurrence counts (--help says so); the program reads them all

  // This option with `value` as its default (a number: an integer option's).
  Option withDefault(std::string value) const;
  Option withDefault(int64_t value) const;
  // This option, marked as one whose every occurrence counts.
  Option repeated() const;
};

// The options, one function per kind of value.
Option flag(std::string name, std::string help);
Option text(std::string name, std::string placeholder, std::string help);
Option choice(std::string name, std::vector<std::string> choices, std::string help);
Option integer(std::string name, std::string placeholder, int64_t min, int64_t max, std::string help);
Option words(std::string name, std::string placeholder, std::string help);

// A positional argument: `name` (upper case, "FILE") takes between
// minCount and maxCount of the words that are not options, in order.
struct Positional {
  std::string name;
  std::string help;
  int minCount = 1;
  int maxCount = 1;        // kUnlimited: every word that is left
  bool isInteger = false;  // if so, each word is a whole number in [min, max]
  int64_t min = 0, max = 0;
  std::string defaultValue;  // the value when no word is given (minCount 0), as it would be typed (empty: none)

  // This positional with `value` as its default.
  Positional withDefault(std::string value) const;
};
inline constexpr int kUnlimited = -1;

// The positional arguments: one word; zero or one; one or more.
Positional positional(std::string name, std::string help);
Positional optionalPositional(std::string name, std::string help);
Positional positionals(std::string name, std::string help);
// One whole number in [min, max] (zero or one of them if `optional`).
Positional integerPositional(std::string name, int64_t min, int64_t max, std::string help, bool optional = false);

// What one program (or one of its commands) accepts. The positionals are
// filled in order, so only the last may take a varying number of words, or
// else every one after an optional one must be optional too.
struct Syntax {
  std::vector<Option> options;
  std::vector<Positional> positionals;
};

// A command of a program that has several ("gobblet-tb build ..."): the
// first word of the command line names it, and its syntax reads the rest.
struct Command {
  std::string name;
  std::string summary;  // what it does, one sentence
  Syntax syntax;
};

// A program's whole command line, as its main() declares it.
struct Program {
  std::string name;                // "gobblet-perft": --help, --version and errors name it
  std::string summary;             // what it does, one sentence: the line after the usage
  std::vector<std::string> usage;  // the usage lines after the name, if the generated one would not say enough
  Syntax syntax;                   // what it accepts (empty if it has commands)
  std::vector<Command> commands;   // none, or the commands, each with its own syntax
  std::string notes;               // the end of --help: text that is no option's (may hold several lines)
  // What an error line starts with, before the message: "error: ", or
  // "gobblet: " for the engine, whose standard error is a server log in
  // which every line names the program.
  std::string errorPrefix = "error: ";
};

// One option or positional argument as the command line gave it.
struct Given {
  std::string name;                // "--games", or a positional's name ("DEPTH")
  std::vector<std::string> words;  // an option's value words (none for a switch); a positional's one word
  int64_t number = 0;              // kInteger options and integer positionals: the value
};

// The arguments a program runs with, checked against its Syntax. Asking
// for a name the syntax does not declare is a programming error: it
// aborts, so that a misspelt name cannot silently read as "not given".
class Arguments {
 public:
  // `given`, in command-line order, as read against `syntax` (the syntax
  // of `command`, or of the program); readCommandLine() makes them.
  Arguments(std::string command, Syntax syntax, std::vector<Given> given);

  // The command the first word named ("build"); empty for a program without commands.
  const std::string& command() const { return command_; }
  // Every option and positional given, in command-line order.
  const std::vector<Given>& inOrder() const { return given_; }

  // True if `name` was given at least once.
  bool has(std::string_view name) const;
  // The first word of the last occurrence of `name`; if none, its declared
  // default; if none, "".
  std::string text(std::string_view name) const;
  // The number of the last occurrence of `name` (an integer option or
  // positional); if none, its declared default; if none, 0.
  int64_t integer(std::string_view name) const;
  // Every word of every occurrence of `name`, in order: a repeated
  // option's values, or the words of a positional that takes several.
  std::vector<std::string> all(std::string_view name) const;
  // The words of each occurrence of `name`, one list per occurrence (a kWords option given several times).
  std::vector<std::vector<std::string>> occurrences(std::string_view name) const;

 private:
  // The declared default of `name` ("" if none); aborts if `name` is not declared.
  const std::string& declaredDefault(std::string_view name) const;

  std::string command_;
  Syntax syntax_;
  std::vector<Given> given_;
};

// What a command line asks of the program.
struct Request {
  enum class Kind { kRun, kHelp, kVersion };
  Kind kind = Kind::kRun;
  std::string command;                 // kHelp: the command whose help is wanted (empty: the program's)
  std::optional<Arguments> arguments;  // kRun: what to run with
};

// Reads `words` (argv without the program's name) against `program`:
// what to do, or an InvalidArgument error whose message is the one line
// to report (user text in it quoted with quoteWord). --help or --version
// anywhere, before any error, asks for them.
absl::StatusOr<Request> readCommandLine(const Program& program, const std::vector<std::string>& words);

// The usage text of `program` (of its command `command`, if not empty):
// the usage lines, the summary, then every positional, command and option
// with its help, ending with a newline.
std::string helpText(const Program& program, std::string_view command = "");

// "gobblet-perft 0.1.0+g0a0ab63c1d2e (x86-64-v2)" and a newline.
std::string versionText(const Program& program);

// Writes "<errorPrefix><message>" and a newline on standard error (the
// message in printable text) and returns 2, the exit status of a usage
// error. (absl::string_view: a Status's message() goes in as it is.)
int usageError(const Program& program, absl::string_view message);

// The same line for a failure of the work itself (a file that does not
// open, a build that fails); returns 1, the exit status of a failure. Every
// tool reports its errors through these two, so outside text they quote
// (paths, record fields, engine lines) reaches the terminal printable.
int failure(const Program& program, absl::string_view message);

// Reports a usage error that only the program can see (a value it cannot
// use): usageError() of the program, so it returns 2.
using UsageFn = std::function<int(absl::string_view why)>;

// The work of a program's main(), given its checked arguments and its
// usage error; returns the exit status.
using MainBody = std::function<int(const Arguments& args, const UsageFn& usage)>;

struct MainOptions {
  // Write no usage error on standard error (the exit status is still 2):
  // for the ranks other than 0 of an MPI launch, which all read the same
  // command line while rank 0 reports what is wrong with it.
  bool quietErrors = false;
};

// Every program's main(): reads argv[1..argc-1] against `program`; answers
// --help and --version on standard output (exit status 0) and a usage
// error on standard error (2) without running `body`; else returns
// body(the arguments, the program's usage error).
int runMain(const Program& program, int argc, char** argv, const MainBody& body, MainOptions options = {});

}  // namespace gobblet::cli
