#include "db_command.h"

#include <cstdio>
#include <fstream>
#include <string>

#include "proof/database.h"
#include "proof/database_check.h"

namespace gobblet::prove_program {

cli::Command databaseCommand() {
  return {"db",
          "A proof database: check verifies every entry by the rules alone (exit status 0 or 1, the first bad entry "
          "named); stats counts its entries.",
          {{},
           {cli::positional("ACTION", "check or stats"),
            cli::positional("FILE", "a proof database written by prove --db")}}};
}

int runDatabaseCommand(const cli::Arguments& args, const cli::UsageFn& usage) {
  const std::string action = args.text("ACTION"), file = args.text("FILE");
  if (action != "check" && action != "stats") return usage("db wants check or stats, not \"" + action + "\"");
  if (!std::ifstream(file, std::ios::binary)) return usage("cannot open " + file);
  if (action == "check") {
    const proof::DatabaseReport report = proof::checkDatabase(file);
    if (!report.accepted) {
      std::printf("rejected: %s\n", report.reason.c_str());
      return 1;
    }
    std::printf(
        "accepted: %s, %llu entries (%llu won, %llu lost for the side to move; %llu held by it, %llu by the other "
        "side, %llu drawn), %llu certificate nodes\n",
        report.variant.c_str(), static_cast<unsigned long long>(report.entries),
        static_cast<unsigned long long>(report.wins[0]), static_cast<unsigned long long>(report.wins[1]),
        static_cast<unsigned long long>(report.held[0]), static_cast<unsigned long long>(report.held[1]),
        static_cast<unsigned long long>(report.draws), static_cast<unsigned long long>(report.nodes));
    return 0;
  }
  auto db = proof::ProofDatabase::open(file, proof::ProofDatabase::Mode::kRead);
  if (!db.ok()) {
    std::printf("unreadable: %s\n", std::string(db.status().message()).c_str());
    return 1;
  }
  const proof::ProofDatabase& d = **db;
  std::printf("variant %s\n", d.variant().name().c_str());
  std::printf("entries %llu\n", static_cast<unsigned long long>(d.entries()));
  std::printf("won %llu\n", static_cast<unsigned long long>(d.wins(0)));
  std::printf("lost %llu\n", static_cast<unsigned long long>(d.wins(1)));
  std::printf("held %llu\n", static_cast<unsigned long long>(d.heldEntries(0)));
  std::printf("held-by-other %llu\n", static_cast<unsigned long long>(d.heldEntries(1)));
  std::printf("drawn %llu\n", static_cast<unsigned long long>(d.draws()));
  if (d.tail().bytes == 0) {
    std::printf("tail none\n");
  } else {
    std::printf("tail %llu bytes at offset %llu dropped: %s\n", static_cast<unsigned long long>(d.tail().bytes),
                static_cast<unsigned long long>(d.tail().offset), d.tail().reason.c_str());
  }
  return 0;
}

}  // namespace gobblet::prove_program
