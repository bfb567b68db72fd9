// helpText() and versionText(): what --help and --version print, made from
// the program's declarations (command_line.h).
#include <algorithm>
#include <cstdint>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "command_line.h"
#include "engine/version.h"

namespace gobblet::cli {

namespace {

// The widest line of the help text; longer help is wrapped to it.
constexpr size_t kLineWidth = 79;
// The column where the help of an entry starts, at the most: a longer
// option starts its help on the next line.
constexpr size_t kMaxHelpColumn = 30;
// A syntax with at most this many options spells them all in its usage
// line ("[--out FILE] [--threads N]"); one with more says "[options]".
constexpr size_t kMaxSpelledOptions = 4;

// An option as the usage text writes it: "--out FILE", "--quiet".
std::string optionUsage(const Option& o) {
  std::string out = o.name;
  if (o.value != OptionValue::kNone) absl::StrAppend(&out, " ", o.placeholder);
  return out;
}

// A positional as its list writes it: "FILE", "VARIANT..." if it takes several words.
std::string positionalName(const Positional& p) { return p.maxCount == 1 ? p.name : p.name + "..."; }

// A positional as a usage line writes it: its name, in brackets if it may be left out.
std::string positionalUsage(const Positional& p) {
  return p.minCount == 0 ? absl::StrCat("[", positionalName(p), "]") : positionalName(p);
}

// What follows the program's (or command's) name in a generated usage line.
std::string syntaxUsage(const Syntax& syntax) {
  std::vector<std::string> parts;
  for (const Positional& p : syntax.positionals) parts.push_back(positionalUsage(p));
  if (syntax.options.size() > kMaxSpelledOptions) {
    parts.push_back("[options]");
  } else {
    for (const Option& o : syntax.options)
      parts.push_back(absl::StrCat("[", optionUsage(o), "]", o.repeatable ? "..." : ""));
  }
  return absl::StrJoin(parts, " ");
}

// "1..64", or "at least 0" for a number without an upper bound.
std::string bounds(int64_t min, int64_t max) {
  if (max == std::numeric_limits<int64_t>::max()) return absl::StrCat("at least ", min);
  return absl::StrCat(min, "..", max);
}

// `help` and what the declaration adds to it: "(default 2, 1..64, repeatable)".
std::string fullHelp(const std::string& help, const std::vector<std::string>& additions) {
  if (additions.empty()) return help;
  return absl::StrCat(help, help.empty() ? "(" : " (", absl::StrJoin(additions, ", "), ")");
}

// An option's help as its list writes it.
std::string optionHelp(const Option& o) {
  std::vector<std::string> additions;
  if (!o.defaultValue.empty()) additions.push_back("default " + o.defaultValue);
  if (o.value == OptionValue::kInteger) additions.push_back(bounds(o.min, o.max));
  if (o.repeatable) additions.push_back("repeatable");
  return fullHelp(o.help, additions);
}

// A positional's help as its list writes it.
std::string positionalHelp(const Positional& p) {
  std::vector<std::string> additions;
  if (!p.defaultValue.empty()) additions.push_back("default " + p.defaultValue);
  if (p.isInteger) additions.push_back(bounds(p.min, p.max));
  return fullHelp(p.help, additions);
}

// `words` joined by spaces and wrapped at kLineWidth, for a line that
// already holds `used` characters; each line after the first starts with
// `indent` spaces.
std::string wrapped(const std::vector<std::string>& words, size_t used, size_t indent) {
  std::string out;
  size_t width = used;
  for (const std::string& word : words) {
    if (width > used && width + 1 + word.size() > kLineWidth) {
      absl::StrAppend(&out, "\n", std::string(indent, ' '));
      width = indent;
    } else if (width > used) {
      out += " ";
      ++width;
    }
    out += word;
    width += word.size();
  }
  return out;
}

// `text` wrapped (see above) between its words.
std::string wrapped(const std::string& text, size_t used, size_t indent) {
  return wrapped(std::vector<std::string>(absl::StrSplit(text, ' ', absl::SkipEmpty())), used, indent);
}

// The words of a usage line, where a bracketed or quoted group
// ("[KEY=VALUE ...]", "\"ENGINE COMMAND\"") is one word: wrapping never
// splits it.
std::vector<std::string> usageWords(const std::string& line) {
  std::vector<std::string> words(1);
  int depth = 0;
  bool quoted = false;
  for (const char c : line) {
    if (c == ' ' && depth == 0 && !quoted) {
      if (!words.back().empty()) words.emplace_back();
      continue;
    }
    words.back() += c;
    if (c == '"') quoted = !quoted;
    if (c == '[') ++depth;
    if (c == ']' && depth > 0) --depth;
  }
  if (words.back().empty()) words.pop_back();
  return words;
}

// One entry of a list: "  LEFT   help", the help starting at `column`
// (on the next line if LEFT reaches it) and wrapped.
std::string entry(const std::string& left, const std::string& help, size_t column) {
  std::string out = "  " + left;
  if (help.empty()) return out + "\n";
  if (out.size() + 2 > column)
    absl::StrAppend(&out, "\n", std::string(column, ' '));
  else
    out.append(column - out.size(), ' ');
  return absl::StrCat(out, wrapped(help, column, column), "\n");
}

// The entries of a list in the help: what is written on the left ("--out
// FILE") and its help.
using Entries = std::vector<std::pair<std::string, std::string>>;

// The lists of a syntax: its positionals, the program's commands, then its
// options (with -h and --version, which every program takes).
std::string syntaxLists(const Syntax& syntax, const Entries& commands) {
  Entries positionals;
  for (const Positional& p : syntax.positionals) positionals.emplace_back(positionalName(p), positionalHelp(p));
  Entries options;
  for (const Option& o : syntax.options) options.emplace_back(optionUsage(o), optionHelp(o));
  options.emplace_back("-h, --help", "print this help and exit");
  options.emplace_back("--version", "print the version and exit");
  const std::pair<const char*, const Entries*> sections[] = {
      {"arguments", &positionals}, {"commands", &commands}, {"options", &options}};

  size_t column = 0;
  for (const auto& [title, list] : sections)
    for (const auto& [left, help] : *list) column = std::max(column, left.size() + 4);
  column = std::min(column, kMaxHelpColumn);
  std::string out;
  for (const auto& [title, list] : sections) {
    if (list->empty()) continue;
    absl::StrAppend(&out, "\n", title, ":\n");
    for (const auto& [left, help] : *list) out += entry(left, help, column);
  }
  return out;
}

// "usage: NAME LINE1\n       NAME LINE2\n", a line too long wrapped under
// its first word after the name.
std::string usageLines(const std::string& name, const std::vector<std::string>& lines) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string start = absl::StrCat(i == 0 ? "usage: " : "       ", name, lines[i].empty() ? "" : " ");
    absl::StrAppend(&out, start, wrapped(usageWords(lines[i]), start.size(), start.size()), "\n");
  }
  return out;
}

}  // namespace

std::string helpText(const Program& program, std::string_view command) {
  for (const Command& c : program.commands) {
    if (c.name != command) continue;
    return absl::StrCat(usageLines(program.name, {absl::StrCat(c.name, " ", syntaxUsage(c.syntax))}), "\n",
                        wrapped(c.summary, 0, 0), "\n", syntaxLists(c.syntax, {}));
  }
  std::vector<std::string> lines = program.usage;
  Entries commands;
  for (const Command& c : program.commands) {
    if (program.usage.empty()) lines.push_back(absl::StrCat(c.name, " ", syntaxUsage(c.syntax)));
    commands.emplace_back(c.name, c.summary);
  }
  if (lines.empty()) lines.push_back(syntaxUsage(program.syntax));
  std::string out = absl::StrCat(usageLines(program.name, lines), "\n", wrapped(program.summary, 0, 0), "\n",
                                 syntaxLists(program.syntax, commands));
  if (!commands.empty())
    absl::StrAppend(&out, "\n", program.name, " COMMAND --help describes a command's arguments and options.\n");
  if (!program.notes.empty()) absl::StrAppend(&out, "\n", program.notes, program.notes.back() == '\n' ? "" : "\n");
  return out;
}

std::string versionText(const Program& program) {
  return absl::StrCat(program.name, " ", versionNumber(), " (", instructionSet(), ")\n");
}

}  // namespace gobblet::cli
