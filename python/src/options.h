// The engine's options for Python: the protocol's option table
// (protocol/engine_options.h, kOptionTable) described and its values read
// and written as Python values. The table is the one list of options: the
// names, types, defaults and bounds all come from it.
#pragma once

#include <string>
#include <vector>

#include <pybind11/pybind11.h>

#include "protocol/engine_options.h"

namespace gobblet::python {

// gobblet.Option: one declaration of kOptionTable, its maximum capped as
// the engine caps it.
struct OptionInfo {
  std::string name;
  std::string type;  // "spin", "check", "combo", "string"
  pybind11::object defaultValue;
  pybind11::object min, max;         // spin: ints; else None
  std::vector<std::string> choices;  // combo: the listed values; else empty
  std::string help;                  // the declaration's one-line effect
};

// Every option the engine offers under `caps`, in table order.
std::vector<OptionInfo> describeOptions(const OptionCaps& caps);

// The value of option `d` in force, as Python sees it (int, bool or str).
pybind11::object optionValue(const EngineOptions& options, const OptionDeclaration& d);

// `value` as the text `setoption` takes for `d`: a bool for a check option,
// an int for a spin, a str for a combo or string option (a check also
// takes "true"/"false"). TypeError naming the option and the type it wants.
std::string valueText(const OptionDeclaration& d, pybind11::handle value);

// The declaration named `name` (case-insensitive); KeyError listing the names.
const OptionDeclaration& optionNamed(const std::string& name);

}  // namespace gobblet::python
