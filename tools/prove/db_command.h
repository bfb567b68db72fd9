// gobblet-prove db check|stats FILE: a proof database (proof/database.h)
// checked whole, or counted.
//
//   db check FILE   prints "accepted: <variant>, N entries (W won, L lost
//                   for the side to move; H held by it, O by the other
//                   side, D drawn), M certificate nodes" and exits 0, or
//                   "rejected: entry N: <reason>" and exits 1
//   db stats FILE   prints the variant, the entries, their winners, the
//                   held entries by defender ("held" the side to move,
//                   "held-by-other"), the draws (positions held for both)
//                   and the damaged tail a reader drops ("tail none" when
//                   whole)
#pragma once

#include "tools/command_line/command_line.h"

namespace gobblet::prove_program {

// The syntax of the db command.
cli::Command databaseCommand();
// Runs it: the exit status.
int runDatabaseCommand(const cli::Arguments& args, const cli::UsageFn& usage);

}  // namespace gobblet::prove_program
