// The program's --proof-db files: proof databases (proof/database.h) every
// session reads, on stdin/stdout and on a server, for the variant each is
// of (EngineLimits::hostedDatabases). A session's ProofDatabase option, where
// it may set one, names its own instead.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "proof/database.h"

namespace gobblet {

using HostedDatabases = std::vector<std::shared_ptr<const proof::ProofDatabase>>;

// Opens each of `paths` for reading and checks it whole (proof/
// database_check.h: every entry's certificate, in order), so that what the
// sessions show from it is proved. InvalidArgument naming the file: it
// cannot be opened, the checker rejects an entry (named), it has a damaged
// tail, or two files are of one variant.
absl::StatusOr<HostedDatabases> openHostedDatabases(const std::vector<std::string>& paths);

}  // namespace gobblet
