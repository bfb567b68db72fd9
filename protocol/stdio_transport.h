// The stdin/stdout transport: one Session fed from standard input.
#pragma once

#include "protocol/session.h"

namespace gobblet {

// Reads lines from file descriptor `in` (capped at kMaxLineBytes each) into
// a Session that writes to `out`, until `quit` or end of input; a search
// still running at end of input is stopped and its bestmove written.
// Returns the process exit code (0).
int runStdio(int in, int out, SessionConfig config = {});

}  // namespace gobblet
