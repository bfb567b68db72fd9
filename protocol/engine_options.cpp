#include "protocol/engine_options.h"

#include <algorithm>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "engine/bounded_integer.h"

namespace gobblet {

const OptionDeclaration* findOption(std::string_view name) {
  for (const OptionDeclaration& d : kOptionTable)
    if (absl::EqualsIgnoreCase(std::string(d.name), std::string(name))) return &d;
  return nullptr;
}

std::vector<std::string_view> comboChoices(const OptionDeclaration& option) {
  std::vector<std::string_view> choices;
  if (option.id == OptionId::kVariant)
    for (const NamedVariant& named : kNamedVariants) choices.push_back(named.name);
  if (option.id == OptionId::kProofGuide)
    for (ProofGuideKind kind : {ProofGuideKind::kNone, ProofGuideKind::kEval, ProofGuideKind::kNet})
      choices.push_back(proofGuideWord(kind));
  return choices;
}

int64_t cappedMax(const OptionDeclaration& option, const OptionCaps& caps) {
  switch (option.id) {
    case OptionId::kHash:
      return std::min(option.max, caps.maxHashMiB);
    case OptionId::kThreads:
      return std::min(option.max, caps.maxThreads);
    default:
      return option.max;
  }
}

bool offered(const OptionDeclaration& option, const OptionCaps& caps) {
  const bool namesAFile = option.id == OptionId::kTablebasePath || option.id == OptionId::kEvalFile ||
                          option.id == OptionId::kProofDatabase;
  return !namesAFile || caps.tablebasePathSettable;
}

std::string optionText(const EngineOptions& o, OptionId id) {
  const auto check = [](bool on) { return std::string(on ? "true" : "false"); };
  const auto text = [&](const std::string& value) {
    return value.empty() ? std::string(declarationOf(id).defaultText) : value;
  };
  switch (id) {
    case OptionId::kHash:
      return std::to_string(o.hashMiB);
    case OptionId::kThreads:
      return std::to_string(o.threads);
    case OptionId::kVariant:
      return o.variant.name();
    case OptionId::kTablebasePath:
      return text(o.tablebasePath);
    case OptionId::kMultiPv:
      return std::to_string(o.multiPv);
    case OptionId::kMoveOverhead:
      return std::to_string(o.moveOverheadMs);
    case OptionId::kPonder:
      return check(o.ponder);
    case OptionId::kDebug:
      return check(o.debug);
    case OptionId::kOwnBook:
      return check(false);  // (no book: only false is taken)
    case OptionId::kSkillLevel:
      return std::to_string(o.skillLevel);
    case OptionId::kSkillSeed:
      return std::to_string(o.skillSeed);
    case OptionId::kLimitStrength:
      return check(o.limitStrength);
    case OptionId::kElo:
      return std::to_string(o.elo);
    case OptionId::kShowWdl:
      return check(o.showWdl);
    case OptionId::kEvalFile:
      return text(o.evalFile);
    case OptionId::kUseNnue:
      return check(o.useNnue);
    case OptionId::kProofDatabase:
      return text(o.proofDatabase);
    case OptionId::kProofGuide:
      return proofGuideWord(o.proofGuide);
  }
  return {};
}

absl::StatusOr<OptionId> setOption(EngineOptions& options, const OptionCaps& caps, std::string_view name,
                                   std::string_view value, bool hasValue) {
  const OptionDeclaration* d = findOption(name);
  if (!d || !offered(*d, caps)) {
    if (d)
      return absl::InvalidArgumentError("option " + std::string(d->name) +
                                        " cannot be set here (the server chooses the files)");
    return absl::InvalidArgumentError("unknown option '" + std::string(name) + "'");
  }
  const std::string optionName(d->name);
  if (!hasValue) return absl::InvalidArgumentError("option " + optionName + " needs 'value <x>'");
  const auto badValue = [&](const std::string& why) {
    return absl::InvalidArgumentError("option " + optionName + ": bad value '" + std::string(value) + "' (" + why +
                                      ")");
  };
  int64_t number = 0;
  bool check = false;
  switch (d->type) {
    case OptionType::kSpin: {
      auto n = parseBoundedInteger(value, d->min, cappedMax(*d, caps), "option " + optionName);
      if (!n.ok()) return n.status();
      number = *n;
      break;
    }
    case OptionType::kCheck: {
      const std::string v = absl::AsciiStrToLower(std::string(value));
      if (v != "true" && v != "false") return badValue("true or false");
      check = v == "true";
      break;
    }
    case OptionType::kCombo:  // each combo option checks its own values below
    case OptionType::kString:
      break;
  }
  switch (d->id) {
    case OptionId::kHash:
      options.hashMiB = static_cast<int>(number);
      break;
    case OptionId::kThreads:
      options.threads = static_cast<int>(number);
      break;
    case OptionId::kMultiPv:
      options.multiPv = static_cast<int>(number);
      break;
    case OptionId::kMoveOverhead:
      options.moveOverheadMs = number;
      break;
    case OptionId::kPonder:
      options.ponder = check;
      break;
    case OptionId::kDebug:
      options.debug = check;
      break;
    case OptionId::kOwnBook:
      if (check) return badValue("this engine has no opening book");
      break;
    case OptionId::kSkillLevel:
      options.skillLevel = static_cast<int>(number);
      break;
    case OptionId::kSkillSeed:
      options.skillSeed = static_cast<uint64_t>(number);
      break;
    case OptionId::kLimitStrength:
      options.limitStrength = check;
      break;
    case OptionId::kElo:
      options.elo = static_cast<int>(number);
      break;
    case OptionId::kShowWdl:
      options.showWdl = check;
      break;
    case OptionId::kUseNnue:
      options.useNnue = check;
      break;
    case OptionId::kEvalFile:
      options.evalFile = value == "<default>" ? "" : std::string(value);
      break;
    case OptionId::kVariant: {
      auto variant = Variant::parse(value);
      if (!variant.ok()) return badValue(std::string(variant.status().message()));
      options.variant = *variant;
      break;
    }
    case OptionId::kTablebasePath:
      options.tablebasePath = value == "<empty>" ? "" : std::string(value);
      break;
    case OptionId::kProofDatabase:
      options.proofDatabase = value == "<empty>" ? "" : std::string(value);
      break;
    case OptionId::kProofGuide: {
      const std::optional<ProofGuideKind> kind = parseProofGuide(absl::AsciiStrToLower(std::string(value)));
      if (!kind) return badValue("none, eval or net");
      options.proofGuide = *kind;
      break;
    }
  }
  return d->id;
}

}  // namespace gobblet
