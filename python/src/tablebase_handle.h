// TablebaseHandle: a tablebase file opened from Python (gobblet.Tablebase).
// The tablebase library shares one copy per path; the handle keeps it alive
// for as long as Python, or an Engine given it, holds the handle.
#pragma once

#include <memory>
#include <string>

#include "tablebase/tablebase.h"

namespace gobblet::python {

struct TablebaseHandle {
  std::shared_ptr<const tb::Tablebase> tablebase;
  std::string path;
};

}  // namespace gobblet::python
