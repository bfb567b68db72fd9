// The stdin/stdout transport: one Session fed from standard input.
#pragma once

#include <chrono>

#include "protocol/session.h"

namespace gobblet {

// How long one write to the output may wait for the controller to read.
inline constexpr std::chrono::milliseconds kStdoutWriteTimeout{30000};

// Reads lines from file descriptor `in` (capped at kMaxLineBytes each) into
// a Session that writes to `out`, until `quit` or end of input; a search
// still running at end of input is stopped and its bestmove written.
// Every write has a deadline: a controller that stops reading for
// `writeTimeout` loses the rest of the output (it is dropped, not queued),
// so that the engine still obeys `quit` and the end of input instead of
// blocking for ever in write(). Returns the process exit code (0).
int runStdio(int in, int out, SessionConfig config = {}, std::chrono::milliseconds writeTimeout = kStdoutWriteTimeout);

}  // namespace gobblet
