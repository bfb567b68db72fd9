#include "proof_databases.h"

#include "absl/strings/str_cat.h"
#include "engine/printable_text.h"
#include "proof/database_check.h"

namespace gobblet {

absl::StatusOr<HostedDatabases> openHostedDatabases(const std::vector<std::string>& paths) {
  HostedDatabases hosted;
  for (const std::string& path : paths) {
    const auto refused = [&path](const std::string& why) {
      return absl::InvalidArgumentError(absl::StrCat("--proof-db ", quoteWord(path), ": ", why));
    };
    auto opened = proof::ProofDatabase::open(path, proof::ProofDatabase::Mode::kRead);
    if (!opened.ok()) return refused(std::string(opened.status().message()));
    if ((*opened)->tail().bytes > 0)
      return refused(absl::StrCat("a damaged tail at offset ", (*opened)->tail().offset, " (", (*opened)->tail().reason,
                                  "): 'gobblet-prove db check' says more"));
    // The whole file, entry by entry: the sessions show its values as proved.
    const proof::DatabaseReport report = proof::checkDatabase(path);
    if (!report.accepted) return refused("the checker rejects it: " + report.reason);
    if (report.entries != (*opened)->entries()) return refused("the file changed while it was checked");
    for (const auto& other : hosted)
      if (other->variant() == (*opened)->variant())
        return refused("a second database for " + (*opened)->variant().name());
    hosted.push_back(std::move(*opened));
  }
  return hosted;
}

}  // namespace gobblet
