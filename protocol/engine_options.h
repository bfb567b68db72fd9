// The engine's options: one declaration per option, and the values in force.
//
// kOptionTable is the only place an option is declared (the bounds of the
// search's options are the search's own limits, from search/search.h, and
// so is Hash's default). Everything else is derived from it: the
// handshake's `option name ... type ...` lines, the bounds `setoption`
// checks, the caps a server may put on a session (never above the declared
// maximum) and the command-line flags that set those caps.
//
//   name           type    default  min  max     effect
//   Hash           spin    16       1    32768   transposition table, MiB
//   Threads        spin    1        1    256     search threads (Lazy SMP)
//   Variant        combo   gobblet               the game: var = kNamedVariants (see Variant::parse)
//   TablebasePath  string  <empty>               a 3x3 tablebase file
//   MultiPV        spin    1        1    256     lines reported per iteration
//   MoveOverhead   spin    30       0    10000   ms kept back from each clock move
//   Ponder         check   false                 bestmove names a move to ponder on
//   Debug          check   false                 diagnostics as `info string`
//   OwnBook        check   false                 (no book: true is refused)
//   Skill Level    spin    20       0    20      below 20 a weaker player (search/skill.h)
//   Skill Seed     spin    0        0    2^31-1  the weaker player's draws: 0 new each time
//   UCI_LimitStrength check false               play at UCI_Elo instead of Skill Level
//   UCI_Elo        spin    max      (the measured Elo of levels 0 and 20; the safe-move player 500)
//   UCI_ShowWDL    check   false                 info lines carry wdl W D L (search/wdl.h)
//   EvalFile       string  <default>             the net file (search/eval_file.h); <default> the built-in net
//   Use NNUE       check   true                  evaluate 4x4 Gobblet with the net (every level)
//   ProofDatabase  string  <empty>               a proof database file (proof/database.h): go prove
//                                                starts from it and adds to it; go plays its proved wins
//   ProofGuide     combo   none                  go prove's guide (protocol/proof_guide.h): none|eval|net
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/variant.h"
#include "protocol/proof_guide.h"
#include "search/search.h"  // the search's limits: the spin options' maxima

namespace gobblet {

enum class OptionId {
  kHash,
  kThreads,
  kVariant,
  kTablebasePath,
  kMultiPv,
  kMoveOverhead,
  kPonder,
  kDebug,
  kOwnBook,
  kSkillLevel,
  kSkillSeed,
  kLimitStrength,
  kElo,
  kShowWdl,
  kEvalFile,
  kUseNnue,
  kProofDatabase,
  kProofGuide
};
enum class OptionType { kSpin, kCheck, kCombo, kString };

struct OptionDeclaration {
  OptionId id;
  std::string_view name;  // as the controller spells it (matched case-insensitively)
  OptionType type;
  int64_t defaultValue;          // spin; check: 0 = false, 1 = true
  int64_t min, max;              // spin: the bounds (a server may lower max, never raise it)
  std::string_view defaultText;  // combo, string: the default as the handshake shows it
  std::string_view effect;       // one line for docs and --help
};

inline constexpr OptionDeclaration kOptionTable[] = {
    {OptionId::kHash, "Hash", OptionType::kSpin, kDefaultHashMiB, kMinHashMiB, kMaxHashMiB, "",
     "transposition table size in MiB"},
    {OptionId::kThreads, "Threads", OptionType::kSpin, 1, 1, kMaxSearchThreads, "", "search threads (Lazy SMP)"},
    {OptionId::kVariant, "Variant", OptionType::kCombo, 0, 0, 0, kNamedVariants[0].name,
     "the game: a named variant (the vars) or any 3x3 variant in the family form"},
    {OptionId::kTablebasePath, "TablebasePath", OptionType::kString, 0, 0, 0, "<empty>",
     "a 3x3 tablebase file; <empty> = the default file of the variant, if it exists"},
    {OptionId::kMultiPv, "MultiPV", OptionType::kSpin, 1, 1, kMaxMultiPv, "", "lines reported per iteration"},
    {OptionId::kMoveOverhead, "MoveOverhead", OptionType::kSpin, 30, 0, kMaxMoveOverheadMs, "",
     "ms kept back from each move under a clock, for the controller's latency"},
    {OptionId::kPonder, "Ponder", OptionType::kCheck, 0, 0, 0, "",
     "bestmove also names the expected reply (bestmove <m> ponder <m>)"},
    {OptionId::kDebug, "Debug", OptionType::kCheck, 0, 0, 0, "",
     "search diagnostics as info string lines (also: debug on|off)"},
    {OptionId::kOwnBook, "OwnBook", OptionType::kCheck, 0, 0, 0, "", "the engine has no opening book: only false"},
    {OptionId::kSkillLevel, "Skill Level", OptionType::kSpin, kMaxSkillLevel, 0, kMaxSkillLevel, "",
     "playing strength: 0 a beginner, 20 full strength (shallower, and a draw among near-best moves)"},
    {OptionId::kSkillSeed, "Skill Seed", OptionType::kSpin, 0, 0, 2147483647, "",
     "the weaker levels' draws: 0 new each search, another value the same game again"},
    {OptionId::kLimitStrength, "UCI_LimitStrength", OptionType::kCheck, 0, 0, 0, "",
     "play at the strength UCI_Elo says instead of Skill Level"},
    {OptionId::kElo, "UCI_Elo", OptionType::kSpin, kSkillLevelElo[kMaxSkillLevel], kSkillLevelElo[0],
     kSkillLevelElo[kMaxSkillLevel], "",
     "with UCI_LimitStrength: play at this Elo (the safe-move player 500), between the two measured levels around it"},
    {OptionId::kShowWdl, "UCI_ShowWDL", OptionType::kCheck, 0, 0, 0, "",
     "info lines carry the chances of their score: wdl W D L, per mille, for the side to move"},
    {OptionId::kEvalFile, "EvalFile", OptionType::kString, 0, 0, 0, "<default>",
     "the evaluation's net file (with Use NNUE); <default> = the net built into the engine"},
    {OptionId::kUseNnue, "Use NNUE", OptionType::kCheck, 1, 0, 0, "",
     "evaluate 4x4 Gobblet with the net (EvalFile) instead of the hand-written evaluation"},
    {OptionId::kProofDatabase, "ProofDatabase", OptionType::kString, 0, 0, 0, "<empty>",
     "a proof database file of the variant (created if missing): go prove starts from it and adds what it proves "
     "(when the file is writable; the WebAssembly engine opens it read-only, a file its page loaded), go plays its "
     "proved wins; <empty> = none"},
    {OptionId::kProofGuide, "ProofGuide", OptionType::kCombo, 0, 0, 0, "none",
     "the evaluation that sets go prove's initial proof numbers and move order: none, eval (the hand-written one) "
     "or net (EvalFile's net in 4x4 Gobblet, the hand-written evaluation elsewhere)"},
};

constexpr const OptionDeclaration& declarationOf(OptionId id) {
  for (const OptionDeclaration& d : kOptionTable)
    if (d.id == id) return d;
  throw "undeclared option";  // a compile-time error where it is used in a constant expression
}
// The declaration whose name matches case-insensitively, or nullptr.
const OptionDeclaration* findOption(std::string_view name);
// A combo option's `var` values, as the handshake lists them. Variant lists
// the named variants (kNamedVariants) and takes whatever Variant::parse does.
std::vector<std::string_view> comboChoices(const OptionDeclaration& option);

// What a front end lets a session change: a TCP or WebSocket server caps
// Hash and Threads per client and chooses the tablebase files itself.
struct OptionCaps {
  int64_t maxHashMiB = declarationOf(OptionId::kHash).max;
  int64_t maxThreads = declarationOf(OptionId::kThreads).max;
  bool tablebasePathSettable = true;  // TablebasePath, EvalFile and ProofDatabase: the options that name a file
};
// The largest value `setoption` accepts for a spin option under `caps`.
int64_t cappedMax(const OptionDeclaration& option, const OptionCaps& caps);
// Whether the option exists for a session under `caps` (TablebasePath may not).
bool offered(const OptionDeclaration& option, const OptionCaps& caps);

// The values in force, initialised to the declared defaults.
struct EngineOptions {
  int hashMiB = static_cast<int>(declarationOf(OptionId::kHash).defaultValue);
  int threads = static_cast<int>(declarationOf(OptionId::kThreads).defaultValue);
  Variant variant = kNamedVariants[0].variant;  // kOptionTable's default (tested)
  std::string tablebasePath;                    // empty: tb::defaultPath(variant) if that file exists
  int multiPv = static_cast<int>(declarationOf(OptionId::kMultiPv).defaultValue);
  int64_t moveOverheadMs = declarationOf(OptionId::kMoveOverhead).defaultValue;
  bool ponder = declarationOf(OptionId::kPonder).defaultValue != 0;
  bool debug = declarationOf(OptionId::kDebug).defaultValue != 0;
  int skillLevel = static_cast<int>(declarationOf(OptionId::kSkillLevel).defaultValue);
  uint64_t skillSeed = static_cast<uint64_t>(declarationOf(OptionId::kSkillSeed).defaultValue);
  bool limitStrength = declarationOf(OptionId::kLimitStrength).defaultValue != 0;
  int elo = static_cast<int>(declarationOf(OptionId::kElo).defaultValue);
  bool showWdl = declarationOf(OptionId::kShowWdl).defaultValue != 0;
  std::string evalFile;  // empty: the built-in net
  bool useNnue = declarationOf(OptionId::kUseNnue).defaultValue != 0;
  std::string proofDatabase;  // empty: none
  ProofGuideKind proofGuide = ProofGuideKind::kNone;
  // The level the search plays at: UCI_Elo's with UCI_LimitStrength (a
  // fractional level between two measured ones), else Skill Level.
  double playingLevel() const { return limitStrength ? skillLevelForElo(elo) : skillLevel; }
  // Whether the search evaluates 4x4 Gobblet with the net (Use NNUE), at
  // every level (search/skill.h: the levels were measured with it), and so
  // the evaluation whose chances `query wdl` gives.
  bool searchUsesNet() const { return useNnue; }
};

// The value in force of an option, written as `setoption` takes it: a
// spin's number, a check's true or false, a combo's choice, a string's
// text ("<empty>" or "<default>" when unset). The one reading of the
// option fields: setOption(options, caps, name, optionText(options, id))
// leaves `options` as it is.
std::string optionText(const EngineOptions& options, OptionId id);

// Validates and applies one option (name case-insensitive, as in UCI). On an
// unknown name or a bad value returns InvalidArgument and leaves `options`
// unchanged; on success returns which option changed.
absl::StatusOr<OptionId> setOption(EngineOptions& options, const OptionCaps& caps, std::string_view name,
                                   std::string_view value, bool hasValue);

}  // namespace gobblet
