// TablebaseRegistry: every tablebase file a process opens, opened once.
//
// Sessions (one on stdin, or one per TCP connection) ask for tablebases by
// path; the first request opens and validates the file (Tablebase::open maps
// it read-only), later requests get the same shared object. Entries are kept
// for the life of the process: there are only a handful of tablebase files,
// and keeping them mapped means a session that comes and goes does not remap
// them. Failed opens are not cached (the file may appear later).
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "search/tablebase.h"

namespace gobblet {

// Thread-safe. The path is used as given (after making it absolute), so
// two spellings of one file may map it twice; that is harmless.
absl::StatusOr<std::shared_ptr<const Tablebase>> openSharedTablebase(const std::string& path);

}  // namespace gobblet
