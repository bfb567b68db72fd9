#include "command_line.h"

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/bounded_integer.h"
#include "engine/printable_text.h"

namespace gobblet::cli {

namespace {

// The longest error line usageError() writes, newline excluded: a message
// quoting a pasted position or engine command stays one readable line.
constexpr size_t kMaxErrorBytes = 400;

// The words every program takes: -h and --help, --version.
bool isHelp(std::string_view word) { return word == "-h" || word == "--help"; }
bool isVersion(std::string_view word) { return word == "--version"; }
// A word that names an option (or is a mistyped one): "-x", "--x"; not "-".
bool looksLikeOption(std::string_view word) { return word.size() > 1 && word[0] == '-'; }
// A word that ends the value words of a kWords option.
bool endsWords(std::string_view word) { return word.rfind("--", 0) == 0; }

// A usage error: `message` is the line the user reads.
absl::Status mistake(std::string message) { return absl::InvalidArgumentError(std::move(message)); }

// "a", "a or b", "a, b or c".
std::string alternatives(const std::vector<std::string>& words) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i)
    absl::StrAppend(&out, i == 0 ? "" : i + 1 == words.size() ? " or " : ", ", words[i]);
  return out;
}

// What a usage error suggests reading: "gobblet-tb build --help".
std::string helpCommand(const Program& program, std::string_view command) {
  return absl::StrCat(program.name, command.empty() ? "" : " ", std::string(command), " --help");
}

// Reads the value of `option`, which words[*i] named, advancing *i past
// the words it takes.
absl::StatusOr<Given> readOption(const Option& option, const std::vector<std::string>& words, size_t* i) {
  Given given{option.name, {}, 0};
  if (option.value == OptionValue::kNone) return given;
  if (option.value == OptionValue::kWords) {
    while (*i + 1 < words.size() && !endsWords(words[*i + 1])) given.words.push_back(words[++*i]);
    return given;
  }
  if (*i + 1 == words.size()) return mistake(absl::StrCat(option.name, " needs ", option.placeholder, " after it"));
  const std::string& value = words[++*i];
  given.words.push_back(value);
  if (option.value == OptionValue::kChoice) {
    for (const std::string& c : option.choices)
      if (value == c) return given;
    return mistake(absl::StrCat(option.name, " must be ", alternatives(option.choices), ", not ", quoteWord(value)));
  }
  if (option.value == OptionValue::kInteger) {
    auto number = parseBoundedInteger(value, option.min, option.max, option.name);
    if (!number.ok()) return number.status();
    given.number = *number;
  }
  return given;
}

// Reads words[first..] against `syntax`, the syntax of `command` (empty:
// of the program itself).
absl::StatusOr<Request> readSyntax(const Program& program, const Syntax& syntax, const std::string& command,
                                   const std::vector<std::string>& words, size_t first) {
  std::vector<Given> given;
  std::vector<int> filled(syntax.positionals.size(), 0);
  size_t slot = 0;  // the positional the next word goes to
  bool afterDashes = false;
  for (size_t i = first; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (!afterDashes && word == "--") {
      afterDashes = true;
      continue;
    }
    if (!afterDashes && looksLikeOption(word)) {
      if (isHelp(word)) return Request{Request::Kind::kHelp, command, std::nullopt};
      if (isVersion(word)) return Request{Request::Kind::kVersion, command, std::nullopt};
      const Option* option = nullptr;
      for (const Option& o : syntax.options)
        if (o.name == word) option = &o;
      if (option == nullptr)
        return mistake(absl::StrCat("unknown option ", quoteWord(word), " (", helpCommand(program, command),
                                    " lists the options)"));
      auto read = readOption(*option, words, &i);
      if (!read.ok()) return read.status();
      given.push_back(*std::move(read));
      continue;
    }
    while (slot < syntax.positionals.size() && syntax.positionals[slot].maxCount != kUnlimited &&
           filled[slot] == syntax.positionals[slot].maxCount)
      ++slot;
    if (slot == syntax.positionals.size()) return mistake(absl::StrCat("unexpected argument ", quoteWord(word)));
    const Positional& p = syntax.positionals[slot];
    Given g{p.name, {word}, 0};
    if (p.isInteger) {
      auto number = parseBoundedInteger(word, p.min, p.max, p.name);
      if (!number.ok()) return number.status();
      g.number = *number;
    }
    ++filled[slot];
    given.push_back(std::move(g));
  }
  for (size_t p = 0; p < syntax.positionals.size(); ++p)
    if (filled[p] < syntax.positionals[p].minCount) return mistake("missing " + syntax.positionals[p].name);
  return Request{Request::Kind::kRun, command, Arguments(command, syntax, std::move(given))};
}

// The fields every kind of option has, the rest left as declared.
Option makeOption(std::string name, OptionValue value, std::string placeholder, std::string help) {
  Option o;
  o.name = std::move(name);
  o.value = value;
  o.placeholder = std::move(placeholder);
  o.help = std::move(help);
  return o;
}

// A text positional that takes minCount to maxCount words.
Positional makePositional(std::string name, std::string help, int minCount, int maxCount) {
  Positional p;
  p.name = std::move(name);
  p.help = std::move(help);
  p.minCount = minCount;
  p.maxCount = maxCount;
  return p;
}

}  // namespace

Option Option::withDefault(std::string value) const {
  Option copy = *this;
  copy.defaultValue = std::move(value);
  return copy;
}

Option Option::withDefault(int64_t value) const { return withDefault(std::to_string(value)); }

Option Option::repeated() const {
  Option copy = *this;
  copy.repeatable = true;
  return copy;
}

Option flag(std::string name, std::string help) {
  return makeOption(std::move(name), OptionValue::kNone, "", std::move(help));
}

Option text(std::string name, std::string placeholder, std::string help) {
  return makeOption(std::move(name), OptionValue::kText, std::move(placeholder), std::move(help));
}

Option choice(std::string name, std::vector<std::string> choices, std::string help) {
  Option o = makeOption(std::move(name), OptionValue::kChoice, absl::StrJoin(choices, "|"), std::move(help));
  o.choices = std::move(choices);
  return o;
}

Option integer(std::string name, std::string placeholder, int64_t min, int64_t max, std::string help) {
  Option o = makeOption(std::move(name), OptionValue::kInteger, std::move(placeholder), std::move(help));
  o.min = min;
  o.max = max;
  return o;
}

Option words(std::string name, std::string placeholder, std::string help) {
  return makeOption(std::move(name), OptionValue::kWords, std::move(placeholder), std::move(help));
}

Positional Positional::withDefault(std::string value) const {
  Positional copy = *this;
  copy.defaultValue = std::move(value);
  return copy;
}

Positional positional(std::string name, std::string help) {
  return makePositional(std::move(name), std::move(help), 1, 1);
}

Positional optionalPositional(std::string name, std::string help) {
  return makePositional(std::move(name), std::move(help), 0, 1);
}

Positional positionals(std::string name, std::string help) {
  return makePositional(std::move(name), std::move(help), 1, kUnlimited);
}

Positional integerPositional(std::string name, int64_t min, int64_t max, std::string help, bool optional) {
  Positional p = makePositional(std::move(name), std::move(help), optional ? 0 : 1, 1);
  p.isInteger = true;
  p.min = min;
  p.max = max;
  return p;
}

Arguments::Arguments(std::string command, Syntax syntax, std::vector<Given> given)
    : command_(std::move(command)), syntax_(std::move(syntax)), given_(std::move(given)) {}

const std::string& Arguments::declaredDefault(std::string_view name) const {
  for (const Option& o : syntax_.options)
    if (o.name == name) return o.defaultValue;
  for (const Positional& p : syntax_.positionals)
    if (p.name == name) return p.defaultValue;
  std::fprintf(stderr, "command line: '%.*s' is not a declared option or argument\n", static_cast<int>(name.size()),
               name.data());
  std::abort();
}

bool Arguments::has(std::string_view name) const {
  declaredDefault(name);
  for (const Given& g : given_)
    if (g.name == name) return true;
  return false;
}

std::string Arguments::text(std::string_view name) const {
  const std::string& fallback = declaredDefault(name);
  for (auto g = given_.rbegin(); g != given_.rend(); ++g)
    if (g->name == name) return g->words.empty() ? std::string() : g->words.front();
  return fallback;
}

int64_t Arguments::integer(std::string_view name) const {
  const std::string& fallback = declaredDefault(name);
  for (auto g = given_.rbegin(); g != given_.rend(); ++g)
    if (g->name == name) return g->number;
  if (fallback.empty()) return 0;
  auto number =
      parseBoundedInteger(fallback, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), name);
  if (!number.ok()) {
    std::fprintf(stderr, "command line: the default of %s\n", std::string(number.status().message()).c_str());
    std::abort();
  }
  return *number;
}

std::vector<std::string> Arguments::all(std::string_view name) const {
  std::vector<std::string> out;
  for (std::vector<std::string>& words : occurrences(name))
    for (std::string& w : words) out.push_back(std::move(w));
  return out;
}

std::vector<std::vector<std::string>> Arguments::occurrences(std::string_view name) const {
  declaredDefault(name);
  std::vector<std::vector<std::string>> out;
  for (const Given& g : given_)
    if (g.name == name) out.push_back(g.words);
  return out;
}

absl::StatusOr<Request> readCommandLine(const Program& program, const std::vector<std::string>& words) {
  if (program.commands.empty()) return readSyntax(program, program.syntax, "", words, 0);
  std::vector<std::string> names;
  for (const Command& c : program.commands) names.push_back(c.name);
  if (words.empty()) return mistake("missing COMMAND: " + alternatives(names));
  if (isHelp(words[0])) return Request{Request::Kind::kHelp, "", std::nullopt};
  if (isVersion(words[0])) return Request{Request::Kind::kVersion, "", std::nullopt};
  for (const Command& c : program.commands)
    if (c.name == words[0]) return readSyntax(program, c.syntax, c.name, words, 1);
  return mistake(absl::StrCat(looksLikeOption(words[0]) ? "unknown option " : "unknown command ", quoteWord(words[0]),
                              " (the commands: ", alternatives(names), ")"));
}

namespace {

void writeError(const Program& program, absl::string_view message) {
  const std::string line = printableText(std::string_view(message.data(), message.size()), kMaxErrorBytes);
  std::fprintf(stderr, "%s%s\n", program.errorPrefix.c_str(), line.c_str());
}

}  // namespace

int usageError(const Program& program, absl::string_view message) {
  writeError(program, message);
  return 2;
}

int failure(const Program& program, absl::string_view message) {
  writeError(program, message);
  return 1;
}

int runMain(const Program& program, int argc, char** argv, const MainBody& body, MainOptions options) {
  const UsageFn usage = [&](absl::string_view why) { return options.quietErrors ? 2 : usageError(program, why); };
  auto request = readCommandLine(program, std::vector<std::string>(argv + 1, argv + argc));
  if (!request.ok()) return usage(request.status().message());
  switch (request->kind) {
    case Request::Kind::kHelp:
      std::fputs(helpText(program, request->command).c_str(), stdout);
      return 0;
    case Request::Kind::kVersion:
      std::fputs(versionText(program).c_str(), stdout);
      return 0;
    case Request::Kind::kRun:
      break;
  }
  // What the program did not handle (the system refused a thread or the
  // memory it needs to start) ends it with its message and status 1, not
  // with an abort.
  try {
    return body(*request->arguments, usage);
  } catch (const std::exception& e) {
    return failure(program, std::string("cannot go on: ") + e.what());
  }
}

}  // namespace gobblet::cli
