#include "options.h"

#include <cstdint>

namespace py = pybind11;

namespace gobblet::python {
namespace {

const char* typeWord(OptionType type) {
  switch (type) {
    case OptionType::kSpin:
      return "spin";
    case OptionType::kCheck:
      return "check";
    case OptionType::kCombo:
      return "combo";
    case OptionType::kString:
      break;
  }
  return "string";
}

// A string option's text as Python sees it: None for "<empty>" / "<default>".
py::object textValue(const std::string& text) { return text.empty() ? py::object(py::none()) : py::str(text); }

}  // namespace

std::vector<OptionInfo> describeOptions(const OptionCaps& caps) {
  std::vector<OptionInfo> out;
  for (const OptionDeclaration& d : kOptionTable) {
    if (!offered(d, caps)) continue;
    OptionInfo info{std::string(d.name),  typeWord(d.type), py::none(), py::none(), py::none(), {},
                    std::string(d.effect)};
    switch (d.type) {
      case OptionType::kSpin:
        info.defaultValue = py::int_(d.defaultValue);
        info.min = py::int_(d.min);
        info.max = py::int_(cappedMax(d, caps));
        break;
      case OptionType::kCheck:
        info.defaultValue = py::bool_(d.defaultValue != 0);
        break;
      case OptionType::kCombo:
        info.defaultValue = py::str(std::string(d.defaultText));
        for (std::string_view choice : comboChoices(d)) info.choices.emplace_back(choice);
        break;
      case OptionType::kString:
        info.defaultValue = textValue(d.defaultText.front() == '<' ? "" : std::string(d.defaultText));
        break;
    }
    out.push_back(std::move(info));
  }
  return out;
}

py::object optionValue(const EngineOptions& o, const OptionDeclaration& d) {
  const std::string text = optionText(o, d.id);  // the protocol's one reading of the fields
  switch (d.type) {
    case OptionType::kSpin:
      return py::int_(std::stoll(text));
    case OptionType::kCheck:
      return py::bool_(text == "true");
    case OptionType::kCombo:
      return py::str(text);
    case OptionType::kString:
      break;
  }
  return textValue(text == d.defaultText && d.defaultText.front() == '<' ? "" : text);
}

std::string valueText(const OptionDeclaration& d, py::handle value) {
  const std::string name(d.name);
  switch (d.type) {
    case OptionType::kCheck:
      if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "true" : "false";
      if (py::isinstance<py::str>(value)) return value.cast<std::string>();
      throw py::type_error("option " + name + " takes a bool, not " +
                           std::string(py::str(py::type::of(value).attr("__name__"))));
    case OptionType::kSpin:
      if (py::isinstance<py::int_>(value) && !py::isinstance<py::bool_>(value)) return std::string(py::str(value));
      throw py::type_error("option " + name + " takes an int, not " +
                           std::string(py::str(py::type::of(value).attr("__name__"))));
    case OptionType::kCombo:
    case OptionType::kString:
      if (value.is_none() && d.type == OptionType::kString) return std::string(d.defaultText);
      if (py::isinstance<py::str>(value)) return value.cast<std::string>();
      throw py::type_error("option " + name + " takes a str, not " +
                           std::string(py::str(py::type::of(value).attr("__name__"))));
  }
  return {};
}

const OptionDeclaration& optionNamed(const std::string& name) {
  if (const OptionDeclaration* d = findOption(name)) return *d;
  std::string names;
  for (const OptionDeclaration& d : kOptionTable) names += (names.empty() ? "" : ", ") + std::string(d.name);
  throw py::key_error("unknown option '" + name + "'; the options: " + names);
}

}  // namespace gobblet::python
